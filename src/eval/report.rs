//! What evaluation reports, in one place: the counts (a [`Score`] per [`Metric`], per
//! [`Phenomenon`], [`GramEval`]'s sums), what bootstrap resampling adds ([`Intervals`],
//! [`Comparison`]), the evaluation of one pair ([`Evaluation`]) and of several ([`MacroReport`]),
//! and their two renderings: the text tables (`Display`) and the JSON `eudify eval --json`
//! prints (`Serialize`).
//!
//! The scorer's modules fill these types in and depend on this one; it depends on none of them,
//! so eval has no import loop.
//!
//! The JSON's objects have their keys in sorted order (that is how the format was first written,
//! through `serde_json::Value`'s sorted maps): the structs below that render it list their fields
//! alphabetically, and objects keyed by metric or class name are `BTreeMap`s. The tests check
//! that every object is sorted.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Counts of one metric: how many items (words, edges, spans) gold and system have, how many
/// match, and on how many aligned words the metric was compared.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Items in the gold file.
    pub gold: u64,
    /// Items in the system file.
    pub system: u64,
    /// System items that match a gold item.
    pub correct: u64,
    /// Aligned words compared (for metrics with an aligned accuracy).
    pub aligned: u64,
}

impl Score {
    /// Precision in percent (0 when the system has no edges).
    pub fn precision(&self) -> f64 {
        percent(self.correct, self.system)
    }

    /// Recall in percent (0 when gold has no edges).
    pub fn recall(&self) -> f64 {
        percent(self.correct, self.gold)
    }

    /// F1 in percent: `2PR / (P + R)`, computed as `2·correct / (gold + system)` (the same value
    /// without the rounding of P and R); 0 when either is 0, as the IWPT 2021 scorer has it.
    pub fn f1(&self) -> f64 {
        if self.gold == 0 || self.system == 0 {
            return 0.0;
        }
        percent(2 * self.correct, self.gold + self.system)
    }

    /// Correct among aligned words, in percent (0 when none are aligned).
    pub fn aligned_accuracy(&self) -> f64 {
        percent(self.correct, self.aligned)
    }

    /// Adds the counts of `other`.
    pub fn add(&mut self, other: Score) {
        self.gold += other.gold;
        self.system += other.system;
        self.correct += other.correct;
        self.aligned += other.aligned;
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The metrics of the CoNLL 2018 and IWPT 2021 scorers, in their order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Token segmentation.
    Tokens,
    /// Sentence segmentation.
    Sentences,
    /// Syntactic-word segmentation (multiword tokens split).
    Words,
    /// Universal part-of-speech tags.
    Upos,
    /// Language-specific part-of-speech tags.
    Xpos,
    /// Universal features.
    UFeats,
    /// UPOS, XPOS and features all right.
    AllTags,
    /// Lemmas.
    Lemmas,
    /// Unlabelled attachment score.
    Uas,
    /// Labelled attachment score (universal relations).
    Las,
    /// Content-word LAS.
    Clas,
    /// Morphology-aware LAS.
    Mlas,
    /// Bilexical (lemma-aware) LAS.
    Blex,
    /// Enhanced labelled attachment score.
    Elas,
    /// Enhanced LAS on universal labels only.
    Eulas,
}

impl Metric {
    /// How many metrics there are.
    pub const COUNT: usize = 15;
    /// Every metric, in the scorers' order.
    pub const ALL: [Metric; Metric::COUNT] = [
        Metric::Tokens,
        Metric::Sentences,
        Metric::Words,
        Metric::Upos,
        Metric::Xpos,
        Metric::UFeats,
        Metric::AllTags,
        Metric::Lemmas,
        Metric::Uas,
        Metric::Las,
        Metric::Clas,
        Metric::Mlas,
        Metric::Blex,
        Metric::Elas,
        Metric::Eulas,
    ];

    /// The name the official scorers print (and our JSON key).
    pub fn name(self) -> &'static str {
        match self {
            Metric::Tokens => "Tokens",
            Metric::Sentences => "Sentences",
            Metric::Words => "Words",
            Metric::Upos => "UPOS",
            Metric::Xpos => "XPOS",
            Metric::UFeats => "UFeats",
            Metric::AllTags => "AllTags",
            Metric::Lemmas => "Lemmas",
            Metric::Uas => "UAS",
            Metric::Las => "LAS",
            Metric::Clas => "CLAS",
            Metric::Mlas => "MLAS",
            Metric::Blex => "BLEX",
            Metric::Elas => "ELAS",
            Metric::Eulas => "EULAS",
        }
    }

    /// Whether the scorer gives an accuracy on aligned words (all but the segmentation metrics).
    pub fn has_aligned_accuracy(self) -> bool {
        !matches!(self, Metric::Tokens | Metric::Sentences | Metric::Words)
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The counts of every metric, indexed by [`Metric::index`].
pub(crate) type Counts = [Score; Metric::COUNT];

/// A class of enhanced edge (or of missing basic edge); `phenomena.rs` classifies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phenomenon {
    /// B: identical to the basic edge (same head, same label).
    Basic,
    /// C: the basic edge with a subtype added to its label (`obl` → `obl:from`).
    CaseLabel,
    /// L: the basic edge's two nodes in the same direction, another label.
    Relabelled,
    /// P: a coordination's parent propagated to a non-first conjunct.
    PropagatedParent,
    /// S: a dependent shared from a conjunct partner.
    SharedDependent,
    /// X: controlled (external) subject of an xcomp.
    ControlledSubject,
    /// R: relative clause: `ref`, or an edge from inside the clause to the modified nominal.
    RelativeClause,
    /// G: an edge touching an empty node.
    EmptyNode,
    /// E: any other added edge.
    Other,
    /// O: a basic edge missing because its dependent hangs from an empty node instead.
    ReplacedByEmptyNode,
    /// W: a basic edge into a relative pronoun missing because it is attached by `ref`.
    ReplacedByRef,
    /// M: a basic edge missing for no known reason.
    Missing,
}

impl Phenomenon {
    /// Every class, in report order: added edges first, then missing basic edges.
    pub const ALL: [Phenomenon; 12] = [
        Phenomenon::Basic,
        Phenomenon::CaseLabel,
        Phenomenon::Relabelled,
        Phenomenon::PropagatedParent,
        Phenomenon::SharedDependent,
        Phenomenon::ControlledSubject,
        Phenomenon::RelativeClause,
        Phenomenon::EmptyNode,
        Phenomenon::Other,
        Phenomenon::ReplacedByEmptyNode,
        Phenomenon::ReplacedByRef,
        Phenomenon::Missing,
    ];

    /// The first class of basic edges *missing* from the enhanced graph.
    pub const FIRST_MISSING: Phenomenon = Phenomenon::ReplacedByEmptyNode;

    /// The one-letter code used in reports and JSON keys.
    pub fn code(self) -> &'static str {
        match self {
            Phenomenon::Basic => "B",
            Phenomenon::CaseLabel => "C",
            Phenomenon::Relabelled => "L",
            Phenomenon::PropagatedParent => "P",
            Phenomenon::SharedDependent => "S",
            Phenomenon::ControlledSubject => "X",
            Phenomenon::RelativeClause => "R",
            Phenomenon::EmptyNode => "G",
            Phenomenon::Other => "E",
            Phenomenon::ReplacedByEmptyNode => "O",
            Phenomenon::ReplacedByRef => "W",
            Phenomenon::Missing => "M",
        }
    }

    /// The name shown in reports (`case label`, `xcomp subject`…).
    pub fn name(self) -> &'static str {
        match self {
            Phenomenon::Basic => "basic",
            Phenomenon::CaseLabel => "case label",
            Phenomenon::Relabelled => "relabelled",
            Phenomenon::PropagatedParent => "conj parent",
            Phenomenon::SharedDependent => "conj shared dep",
            Phenomenon::ControlledSubject => "xcomp subject",
            Phenomenon::RelativeClause => "relative clause",
            Phenomenon::EmptyNode => "empty node",
            Phenomenon::Other => "other added",
            Phenomenon::ReplacedByEmptyNode => "for empty node",
            Phenomenon::ReplacedByRef => "for ref",
            Phenomenon::Missing => "missing",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Scores per class, summed over sentences.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhenomenonScores {
    scores: [Score; Phenomenon::ALL.len()],
}

impl PhenomenonScores {
    /// The score of one class.
    pub fn get(&self, class: Phenomenon) -> Score {
        self.scores[class.index()]
    }

    /// Every class with its score, in [`Phenomenon::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Phenomenon, &Score)> + '_ {
        Phenomenon::ALL
            .iter()
            .map(move |&c| (c, &self.scores[c.index()]))
    }

    /// The score of one class, to count into.
    pub(crate) fn get_mut(&mut self, class: Phenomenon) -> &mut Score {
        &mut self.scores[class.index()]
    }
}

/// The GramEval 2020 sums over gold token lines (`grameval.rs` says how a line scores).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GramEval {
    /// Gold sentences.
    pub sentences: u64,
    /// Gold token lines: words, multiword tokens and empty nodes, as the official script counts.
    pub words: u64,
    /// Lines with the right UPOS.
    pub upos: u64,
    /// Lines with the right lemma.
    pub lemmas: u64,
    /// Lines with the right head and relation.
    pub las: u64,
    /// Sum of the per-line feature shares.
    pub feats: f64,
}

impl GramEval {
    fn percent(&self, part: f64) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            100.0 * part / self.words as f64
        }
    }

    /// The four accuracies in percent: UPOS, features, lemmas, LAS.
    pub fn accuracies(&self) -> [f64; 4] {
        [
            self.percent(self.upos as f64),
            self.percent(self.feats),
            self.percent(self.lemmas as f64),
            self.percent(self.las as f64),
        ]
    }

    /// The overall quality: the mean of the four accuracies.
    pub fn quality(&self) -> f64 {
        self.accuracies().iter().sum::<f64>() / 4.0
    }
}

/// The counts of one resampling unit: the gold sentences from `first_sentence` on (up to the
/// next unit's).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unit {
    pub first_sentence: u64,
    pub counts: Counts,
}

/// The result of comparing a system file with a gold file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Gold sentences.
    pub sentences: u64,
    /// Gold words.
    pub words: u64,
    /// Every metric, indexed by [`Metric::index`]; see [`Report::score`].
    scores: Counts,
    /// Enhanced labelled attachment score over collapsed edges, full label paths.
    pub elas: Score,
    /// Like ELAS, with every label of a path cut to its universal part.
    pub eulas: Score,
    /// Basic-tree labelled attachment score (universal DEPREL, as in CoNLL 2018).
    pub las: Score,
    /// Present when [`super::EvalOptions::phenomena`] was set.
    pub phenomena: Option<PhenomenonScores>,
    /// Present when [`super::EvalOptions::gram_eval`] was set: the report then holds these
    /// figures only (the IWPT metrics are not computed, and render as nothing).
    pub gram_eval: Option<GramEval>,
    /// Per-unit counts, kept when [`super::EvalOptions::keep_units`] was set.
    units: Vec<Unit>,
    pub(crate) keep_units: bool,
}

impl Report {
    /// A report of GramEval's figures only.
    pub(crate) fn of_gram_eval(gram_eval: GramEval) -> Report {
        Report {
            sentences: gram_eval.sentences,
            words: gram_eval.words,
            gram_eval: Some(gram_eval),
            ..Report::default()
        }
    }

    /// The report of a system file that could not be evaluated: every figure 0, with what
    /// `options` asked for present (and 0).
    pub(crate) fn zero(options: &super::EvalOptions) -> Report {
        Report {
            phenomena: options.phenomena.then(PhenomenonScores::default),
            gram_eval: options.gram_eval.then(GramEval::default),
            ..Report::default()
        }
    }

    /// The score of one metric.
    pub fn score(&self, metric: Metric) -> Score {
        self.scores[metric.index()]
    }

    /// The counts of each unit, for resampling (empty unless asked for).
    pub(crate) fn units(&self) -> &[Unit] {
        &self.units
    }

    pub(crate) fn add(&mut self, first_sentence: u64, counts: &Counts) {
        if self.keep_units {
            self.units.push(Unit {
                first_sentence,
                counts: *counts,
            });
        }
        for (total, c) in self.scores.iter_mut().zip(counts) {
            total.add(*c);
        }
        self.elas = self.scores[Metric::Elas.index()];
        self.eulas = self.scores[Metric::Eulas.index()];
        self.las = self.scores[Metric::Las.index()];
    }
}

/// How a bootstrap resamples: how many times, from which seed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Resampling {
    /// Resamplings.
    pub samples: usize,
    /// The seed: the same seed gives the same figures.
    pub seed: u64,
}

/// 95% intervals of every metric's F1, in percent (`bootstrap.rs` computes them).
#[derive(Clone, Debug, PartialEq)]
pub struct Intervals {
    /// How the sentences were resampled.
    pub resampling: Resampling,
    /// `(low, high)` per metric, indexed like [`Metric::ALL`].
    pub f1: [(f64, f64); Metric::COUNT],
}

/// One metric compared between systems A and B.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MetricComparison {
    /// The metric.
    pub metric: Metric,
    /// F1 of A on the whole files, in percent.
    pub a: f64,
    /// F1 of B on the whole files, in percent.
    pub b: f64,
    /// Two-sided p-value: twice the share of resamplings where the difference is not on the
    /// observed side (capped at 1).
    pub p: f64,
}

impl MetricComparison {
    /// Whether A and B differ significantly (p < 0.05).
    pub fn significant(&self) -> bool {
        self.p < 0.05
    }
}

/// A paired bootstrap test of system A against system B on the same gold file.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// System A's name, as the text report shows it.
    pub a: String,
    /// System B's name.
    pub b: String,
    /// How the sentences were resampled.
    pub resampling: Resampling,
    /// Every metric, in [`Metric::ALL`] order.
    pub metrics: Vec<MetricComparison>,
}

/// What `eudify eval GOLD SYSTEM` reports: the scores, and on request bootstrap intervals and a
/// paired test against a second system.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The scores.
    pub report: Report,
    /// The F1 intervals (`--bootstrap`).
    pub intervals: Option<Intervals>,
    /// The paired test (`--compare`).
    pub comparison: Option<Comparison>,
}

/// One pair of a [`MacroReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct PairReport {
    /// The gold file, as given.
    pub gold: String,
    /// The system file, as given.
    pub system: String,
    /// The scores.
    pub report: Report,
    /// The F1 intervals, when asked for.
    pub intervals: Option<Intervals>,
    /// Why the system file could not be evaluated (the pair then scores 0).
    pub error: Option<String>,
}

/// Several (gold, system) pairs scored, and their macro average: the mean over pairs of every
/// figure, by which the shared tasks ranked systems over treebanks (`eudify eval --macro`).
#[derive(Clone, Debug, PartialEq)]
pub struct MacroReport {
    /// Every pair, in the order given.
    pub pairs: Vec<PairReport>,
}

/// The mean over pairs of one metric's figures, in percent.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct MeanScore {
    /// Mean aligned accuracy; `None` for the segmentation metrics, which have none.
    pub aligned_acc: Option<f64>,
    /// Mean F1.
    pub f1: f64,
    /// Mean precision.
    pub p: f64,
    /// Mean recall.
    pub r: f64,
}

impl MacroReport {
    /// The mean of every metric's figures over the pairs, in [`Metric::ALL`] order.
    pub fn mean_scores(&self) -> [MeanScore; Metric::COUNT] {
        Metric::ALL.map(|metric| {
            let score = |pair: &PairReport| pair.report.score(metric);
            MeanScore {
                aligned_acc: metric
                    .has_aligned_accuracy()
                    .then(|| self.mean(|p| score(p).aligned_accuracy())),
                f1: self.mean(|p| score(p).f1()),
                p: self.mean(|p| score(p).precision()),
                r: self.mean(|p| score(p).recall()),
            }
        })
    }

    /// The mean GramEval quality, when every pair has one (and there is a pair).
    pub fn mean_gram_eval_quality(&self) -> Option<f64> {
        let all = !self.pairs.is_empty() && self.pairs.iter().all(|p| p.report.gram_eval.is_some());
        all.then(|| self.mean(|p| p.report.gram_eval.as_ref().map_or(0.0, GramEval::quality)))
    }

    /// The mean of a figure over the pairs (0 without pairs).
    fn mean(&self, figure: impl Fn(&PairReport) -> f64) -> f64 {
        self.pairs.iter().map(figure).sum::<f64>() / self.pairs.len().max(1) as f64
    }
}

// ---- JSON -------------------------------------------------------------------------------------

/// A metric's figures in percent: `aligned_acc` null where the metric has none, `f1_ci` when
/// bootstrapped.
#[derive(Serialize)]
struct MetricJson {
    aligned_acc: Option<f64>,
    /// The counts the text table shows: correct items, gold items, system items.
    correct: u64,
    f1: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    f1_ci: Option<(f64, f64)>,
    gold: u64,
    p: f64,
    r: f64,
    system: u64,
}

/// GramEval's accuracies and quality, in percent.
#[derive(Serialize)]
struct GramEvalJson {
    #[serde(rename = "Feats")]
    feats: f64,
    #[serde(rename = "LAS")]
    las: f64,
    #[serde(rename = "Lemmas")]
    lemmas: f64,
    #[serde(rename = "Quality")]
    quality: f64,
    /// Gold sentences and token lines, the counts the text shows.
    #[serde(rename = "Sentences")]
    sentences: u64,
    #[serde(rename = "Tokens")]
    tokens: u64,
    #[serde(rename = "UPOS")]
    upos: f64,
}

/// The mean GramEval quality of a macro average.
#[derive(Serialize)]
struct GramEvalQualityJson {
    #[serde(rename = "Quality")]
    quality: f64,
}

/// A value the JSON names by metric (or `GramEval`, whose key sorts among the metrics' names).
#[derive(Serialize)]
#[serde(untagged)]
enum Figures {
    Metric(MetricJson),
    MeanMetric(MeanScore),
    GramEval(GramEvalJson),
    MeanGramEval(GramEvalQualityJson),
}

/// A phenomenon's figures: percentages and counts.
#[derive(Serialize)]
struct PhenomenonJson {
    correct: u64,
    f1: f64,
    gold: u64,
    p: f64,
    r: f64,
    system: u64,
}

/// A metric compared between A and B.
#[derive(Serialize)]
struct MetricComparisonJson {
    a: f64,
    b: f64,
    delta: f64,
    p: f64,
    significant: bool,
}

#[derive(Serialize)]
struct ComparisonJson {
    metrics: BTreeMap<&'static str, MetricComparisonJson>,
    samples: usize,
    seed: u64,
}

/// A report's object: one key per metric (and `GramEval`), then what was asked for besides.
#[derive(Serialize)]
struct ReportJson<'a> {
    #[serde(flatten)]
    figures: BTreeMap<&'static str, Figures>,
    #[serde(skip_serializing_if = "Option::is_none")]
    compare: Option<ComparisonJson>,
    /// Why a pair's system file scored 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gold: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    phenomena: Option<BTreeMap<&'static str, PhenomenonJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<&'a str>,
}

impl<'a> ReportJson<'a> {
    fn new(report: &Report, intervals: Option<&Intervals>) -> ReportJson<'a> {
        // A GramEval report has GramEval's figures only.
        let metrics = if report.gram_eval.is_some() {
            &[][..]
        } else {
            &Metric::ALL[..]
        };
        let mut figures: BTreeMap<&'static str, Figures> = metrics
            .iter()
            .map(|&metric| {
                let score = report.score(metric);
                let figures = MetricJson {
                    aligned_acc: metric
                        .has_aligned_accuracy()
                        .then(|| score.aligned_accuracy()),
                    correct: score.correct,
                    f1: score.f1(),
                    f1_ci: intervals.map(|i| i.f1[metric.index()]),
                    gold: score.gold,
                    p: score.precision(),
                    r: score.recall(),
                    system: score.system,
                };
                (metric.name(), Figures::Metric(figures))
            })
            .collect();
        if let Some(gram_eval) = &report.gram_eval {
            let [upos, feats, lemmas, las] = gram_eval.accuracies();
            let quality = gram_eval.quality();
            figures.insert(
                "GramEval",
                Figures::GramEval(GramEvalJson {
                    feats,
                    las,
                    lemmas,
                    quality,
                    sentences: gram_eval.sentences,
                    tokens: gram_eval.words,
                    upos,
                }),
            );
        }
        let phenomena = report.phenomena.as_ref().map(|phenomena| {
            phenomena
                .iter()
                .map(|(class, score)| {
                    let figures = PhenomenonJson {
                        correct: score.correct,
                        f1: score.f1(),
                        gold: score.gold,
                        p: score.precision(),
                        r: score.recall(),
                        system: score.system,
                    };
                    (class.code(), figures)
                })
                .collect()
        });
        ReportJson {
            figures,
            compare: None,
            error: None,
            gold: None,
            phenomena,
            system: None,
        }
    }
}

/// One key per metric, `{"p","r","f1","aligned_acc"}` in percent, `"GramEval"` and
/// `"phenomena": {class: {"p","r","f1","gold","system","correct"}}` when computed.
impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ReportJson::new(self, None).serialize(serializer)
    }
}

/// The report's object, with `"f1_ci": [low, high]` in every metric when intervals were
/// computed and `"compare": {"samples", "seed", "metrics": {metric: {"a","b","delta","p",
/// "significant"}}}` when systems were compared.
impl Serialize for Evaluation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = ReportJson::new(&self.report, self.intervals.as_ref());
        json.compare = self.comparison.as_ref().map(|c| ComparisonJson {
            metrics: c
                .metrics
                .iter()
                .map(|m| {
                    let figures = MetricComparisonJson {
                        a: m.a,
                        b: m.b,
                        delta: m.a - m.b,
                        p: m.p,
                        significant: m.significant(),
                    };
                    (m.metric.name(), figures)
                })
                .collect(),
            samples: c.resampling.samples,
            seed: c.resampling.seed,
        });
        json.serialize(serializer)
    }
}

/// The report's object (with intervals when computed), plus `"gold"` and `"system"`.
impl Serialize for PairReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = ReportJson::new(&self.report, self.intervals.as_ref());
        json.error = self.error.as_deref();
        json.gold = Some(&self.gold);
        json.system = Some(&self.system);
        json.serialize(serializer)
    }
}

#[derive(Serialize)]
struct MacroJson<'a> {
    /// Every metric's mean figures, and the mean GramEval quality.
    #[serde(rename = "macro")]
    mean: BTreeMap<&'static str, Figures>,
    pairs: &'a [PairReport],
}

/// `{"pairs": [every pair's report], "macro": {metric: mean figures, "GramEval": {"Quality"}}}`.
impl Serialize for MacroReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let gram_eval = self.mean_gram_eval_quality().is_some();
        let mut mean: BTreeMap<&'static str, Figures> = Metric::ALL
            .iter()
            .filter(|_| !gram_eval)
            .zip(self.mean_scores())
            .map(|(metric, figures)| (metric.name(), Figures::MeanMetric(figures)))
            .collect();
        if let Some(quality) = self.mean_gram_eval_quality() {
            mean.insert(
                "GramEval",
                Figures::MeanGramEval(GramEvalQualityJson { quality }),
            );
        }
        MacroJson {
            mean,
            pairs: &self.pairs,
        }
        .serialize(serializer)
    }
}

// ---- Text -------------------------------------------------------------------------------------

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(gram_eval) = &self.gram_eval {
            return write!(f, "{gram_eval}");
        }
        writeln!(
            f,
            "{}, {}",
            crate::text::count(self.sentences, "sentence"),
            crate::text::count(self.words, "word")
        )?;
        writeln!(
            f,
            "{:<24} {:>7} {:>7} {:>7} {:>10} {:>8} {:>8} {:>8}",
            "Metric", "P", "R", "F1", "AlignedAcc", "Gold", "System", "Correct"
        )?;
        for metric in Metric::ALL {
            score_row(
                f,
                metric.name(),
                &self.score(metric),
                metric.has_aligned_accuracy(),
            )?;
        }
        writeln!(
            f,
            "(ELAS and EULAS AlignedAcc: correct edges per aligned word, as iwpt21_xud_eval.py counts them; over 100 when words have several edges)"
        )?;
        if let Some(phenomena) = &self.phenomena {
            write!(f, "{phenomena}")?;
        }
        Ok(())
    }
}

/// One line of the text table: P, R, F1, the aligned accuracy (when the metric has one) and
/// the counts.
fn score_row(f: &mut fmt::Formatter<'_>, name: &str, s: &Score, accuracy: bool) -> fmt::Result {
    let acc = if accuracy {
        format!("{:.2}", s.aligned_accuracy())
    } else {
        String::new()
    };
    writeln!(
        f,
        "{:<24} {:>7.2} {:>7.2} {:>7.2} {:>10} {:>8} {:>8} {:>8}",
        name,
        s.precision(),
        s.recall(),
        s.f1(),
        acc,
        s.gold,
        s.system,
        s.correct
    )
}

/// The phenomenon rows of the text table.
impl fmt::Display for PhenomenonScores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Phenomena (see docs/phenomena.md):")?;
        for (class, score) in self.iter() {
            if class == Phenomenon::FIRST_MISSING {
                writeln!(f, "Basic edges missing from the enhanced graph:")?;
            }
            score_row(
                f,
                &format!("  {} {}", class.code(), class.name()),
                score,
                false,
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for GramEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [upos, feats, lemmas, las] = self.accuracies();
        writeln!(
            f,
            "GramEval 2020, as its official script scores ({}; accuracy over {} gold token lines: words, multiword tokens, empty nodes):",
            crate::text::count(self.sentences, "sentence"),
            crate::text::thousands(self.words)
        )?;
        for (name, value) in [
            ("UPOS", upos),
            ("Feats", feats),
            ("Lemmas", lemmas),
            ("LAS", las),
            ("Quality", self.quality()),
        ] {
            writeln!(f, "  {name:<22} {value:>7.2}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Intervals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Resampling { samples, seed } = self.resampling;
        writeln!(
            f,
            "95% confidence intervals of F1 ({samples} resamplings of sentences, seed {seed}):"
        )?;
        for (metric, (low, high)) in Metric::ALL.iter().zip(&self.f1) {
            writeln!(f, "  {:<22} [{low:.2}, {high:.2}]", metric.name())?;
        }
        Ok(())
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Resampling { samples, seed } = self.resampling;
        writeln!(
            f,
            "Paired bootstrap test ({samples} resamplings of sentences, seed {seed}):"
        )?;
        writeln!(f, "  A = {}\n  B = {}", self.a, self.b)?;
        writeln!(
            f,
            "  {:<22} {:>7} {:>7} {:>7} {:>7}  Significant (p < 0.05)",
            "Metric", "A F1", "B F1", "A-B", "p"
        )?;
        for c in &self.metrics {
            writeln!(
                f,
                "  {:<22} {:>7.2} {:>7.2} {:>+7.2} {:>7.3}  {}",
                c.metric.name(),
                c.a,
                c.b,
                c.a - c.b,
                c.p,
                if c.significant() { "yes" } else { "no" }
            )?;
        }
        Ok(())
    }
}

/// The report's table, then the intervals and the paired test when computed.
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.report)?;
        if let Some(intervals) = &self.intervals {
            write!(f, "{intervals}")?;
        }
        if let Some(comparison) = &self.comparison {
            write!(f, "{comparison}")?;
        }
        Ok(())
    }
}

/// One line of F1s per pair (named by its system file), then the macro average; tab-separated.
impl fmt::Display for MacroReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mean_gram_eval_quality().is_some() {
            return self.fmt_gram_eval(f);
        }
        write!(f, "F1 per pair")?;
        for metric in Metric::ALL {
            write!(f, "\t{}", metric.name())?;
        }
        writeln!(f)?;
        for pair in &self.pairs {
            write!(f, "{}", pair.system)?;
            for metric in Metric::ALL {
                write!(f, "\t{:.2}", pair.report.score(metric).f1())?;
            }
            writeln!(f)?;
        }
        write!(f, "Macro average ({} pairs)", self.pairs.len())?;
        for mean in self.mean_scores() {
            write!(f, "\t{:.2}", mean.f1)?;
        }
        writeln!(f)?;
        // What was asked for besides the F1s, pair by pair.
        for pair in &self.pairs {
            if pair.intervals.is_none() && pair.report.phenomena.is_none() {
                continue;
            }
            writeln!(f, "\n{}:", pair.system)?;
            if let Some(intervals) = &pair.intervals {
                write!(f, "{intervals}")?;
            }
            if let Some(phenomena) = &pair.report.phenomena {
                write!(f, "{phenomena}")?;
            }
        }
        Ok(())
    }
}

impl MacroReport {
    /// The table of GramEval pairs: the four accuracies and the quality of each, and their means
    /// (the final scorer's `overall_quality` is the mean quality).
    fn fmt_gram_eval(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "GramEval per pair\tUPOS\tFeats\tLemmas\tLAS\tQuality")?;
        let figures = |g: Option<&GramEval>| {
            let g = g.cloned().unwrap_or_default();
            let [upos, feats, lemmas, las] = g.accuracies();
            [upos, feats, lemmas, las, g.quality()]
        };
        let mut sums = [0.0; 5];
        for pair in &self.pairs {
            write!(f, "{}", pair.system)?;
            for (sum, value) in sums.iter_mut().zip(figures(pair.report.gram_eval.as_ref())) {
                *sum += value;
                write!(f, "\t{value:.2}")?;
            }
            writeln!(f)?;
        }
        write!(f, "Macro average ({} pairs)", self.pairs.len())?;
        for sum in sums {
            write!(f, "\t{:.2}", sum / self.pairs.len().max(1) as f64)?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether every object of `value`'s JSON has its keys in sorted order, the order the
    /// format has always had.
    fn keys_sorted(value: &impl Serialize) -> bool {
        // `serde_json::Value` sorts its keys: it writes the same text iff `value` wrote them
        // sorted (converted, not re-read from text, so that floats stay exact).
        let sorted = serde_json::to_value(value).expect("convertible");
        serde_json::to_string_pretty(&sorted).ok() == serde_json::to_string_pretty(value).ok()
    }

    fn score(gold: u64, system: u64, correct: u64) -> Score {
        Score {
            gold,
            system,
            correct,
            aligned: gold,
        }
    }

    fn report(correct: u64, gram_eval: bool) -> Report {
        let mut report = Report {
            sentences: 1,
            words: 10,
            ..Report::default()
        };
        report.add(0, &[score(10, 10, correct); Metric::COUNT]);
        report.phenomena = Some(PhenomenonScores::default());
        report.gram_eval = gram_eval.then(|| GramEval {
            words: 10,
            upos: correct,
            ..GramEval::default()
        });
        report
    }

    #[test]
    fn no_edges_give_zero_not_nan() {
        let s = Score::default();
        assert_eq!((s.precision(), s.recall(), s.f1()), (0.0, 0.0, 0.0));
    }

    #[test]
    fn every_json_object_has_sorted_keys() {
        let resampling = Resampling {
            samples: 10,
            seed: 1,
        };
        let evaluation = Evaluation {
            report: report(7, false),
            intervals: Some(Intervals {
                resampling,
                f1: [(1.0, 2.0); Metric::COUNT],
            }),
            comparison: Some(Comparison {
                a: "a".into(),
                b: "b".into(),
                resampling,
                metrics: vec![MetricComparison {
                    metric: Metric::Elas,
                    a: 70.0,
                    b: 60.0,
                    p: 0.01,
                }],
            }),
        };
        assert!(keys_sorted(&evaluation));
        let json = serde_json::to_string_pretty(&evaluation).unwrap();
        assert!(
            json.contains("\"f1_ci\"")
                && json.contains("\"correct\"")
                && json.contains("\"phenomena\"")
        );
        let gram_eval = report(7, true);
        assert!(keys_sorted(&gram_eval));
        assert!(serde_json::to_string(&gram_eval)
            .unwrap()
            .contains("\"GramEval\""));
        let pairs = (0..2)
            .map(|i| PairReport {
                gold: format!("g{i}"),
                system: format!("s{i}"),
                report: report(5 + i, true),
                intervals: None,
                error: (i == 1).then(|| "s1:1: broken".to_string()),
            })
            .collect();
        assert!(keys_sorted(&MacroReport { pairs }));
    }

    #[test]
    fn macro_averages_are_means_over_pairs() {
        let pair = |correct, gram_eval| PairReport {
            gold: String::new(),
            system: format!("s{correct}"),
            report: report(correct, gram_eval),
            intervals: None,
            error: None,
        };
        let iwpt = MacroReport {
            pairs: vec![pair(5, false), pair(7, false)],
        };
        let means = iwpt.mean_scores();
        assert_eq!(means[Metric::Elas.index()].f1, 60.0);
        assert_eq!(means[Metric::Tokens.index()].aligned_acc, None);
        let table = iwpt.to_string();
        // The F1s, then what each pair has besides (here its phenomena).
        assert!(table.contains("\ns5:\nPhenomena"), "{table}");
        assert!(table.contains("Macro average (2 pairs)\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\t60.00\n"), "{table}");
        let both = MacroReport {
            pairs: vec![pair(5, true), pair(7, true)],
        };
        // Quality: the mean of UPOS (50%, 70%) and three accuracies of 0, over 4.
        assert_eq!(both.mean_gram_eval_quality(), Some(15.0));
        let table = both.to_string();
        assert!(
            table.ends_with("Macro average (2 pairs)\t60.00\t0.00\t0.00\t0.00\t15.00\n"),
            "{table}"
        );
        // GramEval is averaged only when every pair has it.
        let one = MacroReport {
            pairs: vec![pair(5, true), pair(7, false)],
        };
        assert_eq!(one.mean_gram_eval_quality(), None);
        assert!(!one.to_string().contains("GramEval"));
    }
}
