//! Counts, percentages and the report: ELAS, EULAS and LAS as the IWPT 2021 scorer computes them
//! with gold tokenization, plus the optional per-phenomenon breakdown.

use super::bootstrap::Unit;
use super::grameval::GramEval;
use super::phenomena::{Phenomenon, PhenomenonScores};
use serde_json::{json, Value};
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

    fn to_json(self) -> Value {
        json!({ "p": self.precision(), "r": self.recall(), "f1": self.f1() })
    }

    /// `{"p","r","f1","aligned_acc"}`, `aligned_acc` null where the metric has none.
    fn metric_json(self, metric: Metric) -> Value {
        let mut v = self.to_json();
        v["aligned_acc"] = if metric.has_aligned_accuracy() { json!(self.aligned_accuracy()) } else { Value::Null };
        v
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

/// The result of comparing a system file with a gold file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Gold sentences.
    pub sentences: u64,
    /// Gold words.
    pub words: u64,
    /// Every metric, indexed by [`Metric::index`]; see [`Report::score`].
    scores: [Score; Metric::COUNT],
    /// Enhanced labelled attachment score over collapsed edges, full label paths.
    pub elas: Score,
    /// Like ELAS, with every label of a path cut to its universal part.
    pub eulas: Score,
    /// Basic-tree labelled attachment score (universal DEPREL, as in CoNLL 2018).
    pub las: Score,
    /// Present when [`super::EvalOptions::phenomena`] was set.
    pub phenomena: Option<PhenomenonScores>,
    /// Present when [`super::EvalOptions::gram_eval`] was set.
    pub gram_eval: Option<GramEval>,
    /// Per-unit counts, kept when [`super::EvalOptions::keep_units`] was set.
    units: Vec<Unit>,
    pub(crate) keep_units: bool,
}

impl Report {
    /// The score of one metric.
    pub fn score(&self, metric: Metric) -> Score {
        self.scores[metric.index()]
    }

    /// The counts of each unit, for resampling (empty unless asked for).
    /// The counts of every unit (sentence or group of sentences), kept when asked for.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    pub(crate) fn add(&mut self, first_sentence: u64, counts: &[Score; Metric::COUNT]) {
        if self.keep_units {
            self.units.push(Unit { first_sentence, counts: *counts });
        }
        for (total, c) in self.scores.iter_mut().zip(counts) {
            total.add(*c);
        }
        self.elas = self.scores[Metric::Elas.index()];
        self.eulas = self.scores[Metric::Eulas.index()];
        self.las = self.scores[Metric::Las.index()];
    }

    /// One key per metric, `{"p","r","f1","aligned_acc"}` in percent, plus
    /// `"phenomena": {class: {"p","r","f1","gold","system","correct"}}` when computed.
    pub fn to_json(&self) -> Value {
        let mut out = serde_json::Map::new();
        for metric in Metric::ALL {
            out.insert(metric.name().to_string(), self.score(metric).metric_json(metric));
        }
        let mut out = Value::Object(out);
        if let Some(phenomena) = &self.phenomena {
            let mut classes = serde_json::Map::new();
            for (class, score) in phenomena.iter() {
                let mut entry = score.to_json();
                entry["gold"] = json!(score.gold);
                entry["system"] = json!(score.system);
                entry["correct"] = json!(score.correct);
                classes.insert(class.code().to_string(), entry);
            }
            out["phenomena"] = Value::Object(classes);
        }
        if let Some(gram_eval) = &self.gram_eval {
            out["GramEval"] = gram_eval.to_json();
        }
        out
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}, {}", crate::text::count(self.sentences, "sentence"), crate::text::count(self.words, "word"))?;
        writeln!(
            f,
            "{:<24} {:>7} {:>7} {:>7} {:>10} {:>8} {:>8} {:>8}",
            "Metric", "P", "R", "F1", "AlignedAcc", "Gold", "System", "Correct"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, s: &Score, accuracy: bool| {
            let acc = if accuracy { format!("{:.2}", s.aligned_accuracy()) } else { String::new() };
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
        };
        for metric in Metric::ALL {
            row(f, metric.name(), &self.score(metric), metric.has_aligned_accuracy())?;
        }
        if let Some(phenomena) = &self.phenomena {
            writeln!(f, "Phenomena (see docs/phenomena.md):")?;
            for (class, score) in phenomena.iter() {
                if class == Phenomenon::FIRST_MISSING {
                    writeln!(f, "Basic edges missing from the enhanced graph:")?;
                }
                row(f, &format!("  {} {}", class.code(), class.name()), score, false)?;
            }
        }
        if let Some(gram_eval) = &self.gram_eval {
            write!(f, "{gram_eval}")?;
        }
        Ok(())
    }
}

/// How many (gold, system) pairs have equal keys, i.e. what the official scorer's nested loop
/// counts, computed as the sum over keys of gold count × system count in O(n log n) so that
/// adversarial input with thousands of edges per word cannot make it quadratic.
pub(crate) fn matching_pairs<K: Ord + Copy>(gold: &mut [K], system: &mut [K]) -> u64 {
    gold.sort_unstable();
    system.sort_unstable();
    let (mut i, mut j, mut pairs) = (0, 0, 0u64);
    while i < gold.len() && j < system.len() {
        match gold[i].cmp(&system[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let key = gold[i];
                let gold_run = gold[i..].iter().take_while(|&&k| k == key).count();
                let system_run = system[j..].iter().take_while(|&&k| k == key).count();
                pairs += (gold_run * system_run) as u64;
                i += gold_run;
                j += system_run;
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pairs_counts_like_a_nested_loop() {
        let mut gold = [3, 1, 2, 2, 5];
        let mut system = [2, 2, 2, 1, 4];
        let nested = gold
            .iter()
            .map(|g| system.iter().filter(|&s| s == g).count() as u64)
            .sum::<u64>();
        assert_eq!(matching_pairs(&mut gold, &mut system), nested);
        assert_eq!(nested, 7);
    }

    #[test]
    fn no_edges_give_zero_not_nan() {
        let s = Score::default();
        assert_eq!((s.precision(), s.recall(), s.f1()), (0.0, 0.0, 0.0));
    }
}
