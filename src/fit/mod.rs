//! `eudify fit`: a profile learned from a sample of a treebank's own gold enhanced graphs.
//!
//! A team with a hand-annotated sample (or a layer from another converter) gets a profile that
//! reproduces it without learning the rule language: a profile extending a base profile that
//! sets what the sample evidences — `annotates`, every setting `rules/vocabulary.toml` declares,
//! the label spellings those settings choose, the shipped rule files and lexicons the base does
//! not load (another treebank's conventions may be this one's), the rules to switch off — and a
//! lexicon of the control verbs and relative words its graphs show, each choice with its
//! evidence (ELAS on the sample before and after, sentences better and worse). What none of these
//! could fix is listed by phenomenon, so the team knows where a rule is needed; `--folds K` says
//! by cross-validation whether the sample is enough.
//!
//! Layers: a client of the rules (profiles written and loaded, layered over the embedded rules:
//! `RuleSource::layered`), the engine and pipeline (each candidate compiled once, run on the
//! sample) and `crate::eval` (the score). It knows no language: every candidate comes from the
//! vocabulary's declarations, the files the embedded rules hold and the values the sample shows.

mod evidence;
mod leftovers;
mod library;
mod profile;
mod sample;
mod search;

pub use leftovers::Leftover;

use crate::error::Error;
use crate::eval::{Phenomenon, Score};
use crate::rules::{load_ruleset, resolve_profile, RuleSource};
use crate::text::thousands;
use profile::{Choices, Comments};
use sample::{total, Sample};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The profile name `fit` writes when `--name` is not given.
pub const DEFAULT_NAME: &str = "fitted";

/// What to fit from, and how.
#[derive(Clone, Debug, Default)]
pub struct FitOptions {
    /// The profile to start from (`--base`); else the one `lang` selects; else the one the
    /// sample's treebank code selects; else `universal`.
    pub base: Option<String>,
    /// A language or treebank code (`--lang`), for the base.
    pub lang: Option<String>,
    /// The fitted profile's name ([`DEFAULT_NAME`] when `None`).
    pub name: Option<String>,
    /// Cross-validation folds (0 or 1: none).
    pub folds: usize,
}

/// A fitted profile: its files and what the fit found.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The profile's name (`eudify enhance --rules DIR --lang NAME`).
    pub name: String,
    /// The profile it extends, and why that one.
    pub base: String,
    /// Why that base (`--base`, `--lang cs`, a treebank code…).
    pub base_reason: String,
    /// `profiles/NAME.toml`, with a comment on each choice.
    pub profile_text: String,
    /// `lexicons/NAME.toml`, when the gold evidenced words the base's lexicons lack.
    pub lexicon_text: Option<String>,
    /// Sentences and words of the sample.
    pub sentences: usize,
    /// Words of the sample.
    pub words: usize,
    /// ELAS counts on the sample under the base profile.
    pub base_score: Score,
    /// ELAS counts on the sample under the fitted profile.
    pub fitted_score: Score,
    /// Candidate profiles compiled and scored.
    pub trials: usize,
    /// The edges still wrong, by phenomenon.
    pub leftovers: Vec<(Phenomenon, Leftover)>,
    /// Cross-validated scores, with `folds`.
    pub folds: Option<FoldScores>,
    /// All of the above as text (what `eudify fit` prints and writes as `fit-report.txt`).
    pub report: String,
}

/// Scores of the base and the fitted profile on held-out folds, each fold fitted on the others.
#[derive(Clone, Debug)]
pub struct FoldScores {
    /// Folds scored.
    pub folds: usize,
    /// ELAS of the base profile on every held-out fold.
    pub base: Score,
    /// ELAS of the profile fitted on the other folds.
    pub fitted: Score,
    /// Per phenomenon (enhancement type): the base's score and the fitted one's.
    pub by_phenomenon: Vec<(Phenomenon, Score, Score)>,
}

/// The file of the report in a fitted folder.
pub const REPORT_FILE: &str = "fit-report.txt";

impl Fitted {
    /// Writes `DIR/profiles/NAME.toml`, `DIR/lexicons/NAME.toml` (when there are words) and
    /// `DIR/fit-report.txt`, creating `DIR`; `--rules DIR` then layers them over the embedded
    /// rules.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let write = |rel: &str, text: &str| -> Result<(), Error> {
            let path = dir.join(rel);
            let io = |error| Error::Io {
                file: path.display().to_string(),
                error,
            };
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(io)?;
            }
            std::fs::write(&path, text).map_err(io)
        };
        write(&format!("profiles/{}.toml", self.name), &self.profile_text)?;
        if let Some(lexicon) = &self.lexicon_text {
            write(&format!("lexicons/{}.toml", self.name), lexicon)?;
        }
        write(REPORT_FILE, &self.report)
    }
}

/// The base profile and why: `--base`, else `--lang` (resolved as `--lang` resolves codes), else
/// the profile the gold itself shows as `eudify enhance` without `--lang` chooses it
/// ([`crate::detect`]: a treebank code in the first file's name or the sentences' comments, else
/// the language of their words), else `universal` (the start that assumes nothing).
pub fn base_by_evidence(
    options: &FitOptions,
    files: &[PathBuf],
    sample: &Sample,
) -> (String, String) {
    let resolve = |code: &str, why: String| {
        let (profile, warning) = resolve_profile(&RuleSource::embedded(), code);
        let reason = match warning {
            Some(warning) => format!("{why}; {warning}"),
            None => why,
        };
        (profile, reason)
    };
    if let Some(base) = &options.base {
        return resolve(base, "--base".to_string());
    }
    if let Some(lang) = &options.lang {
        return resolve(lang, format!("--lang {lang}"));
    }
    let name = files
        .first()
        .map_or(String::new(), |f| f.display().to_string());
    // The detection reads the first sentences only: at most its sample's bytes.
    let mut text = Vec::new();
    for sentence in &sample.sentences {
        if text.len() as u64 >= crate::detect::SAMPLE_BYTES {
            break;
        }
        text.extend_from_slice(sentence.bytes());
        text.push(b'\n');
    }
    match crate::detect_profile(&name, &text, None) {
        Ok(detection) => (detection.profile.clone(), detection.reason()),
        Err(_) => (
            crate::rules::profile::FALLBACK.to_string(),
            "no --base or --lang, and the gold shows no treebank code and too few words of one language".to_string(),
        ),
    }
}

/// Fits a profile to the gold files.
pub fn fit(gold: &[PathBuf], options: &FitOptions) -> Result<Fitted, Error> {
    let sample = Sample::read(gold)?;
    let (base, base_reason) = base_by_evidence(options, gold, &sample);
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| DEFAULT_NAME.to_string());
    if name == base {
        return Err(Error::Rules(format!(
            "fit: --name {name} is the base profile's name: give the fitted profile another"
        )));
    }
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(Error::Rules(format!(
            "fit: --name `{name}`: a profile name is letters, digits and `_`"
        )));
    }
    fit_sample(&sample, &base, &base_reason, &name, options.folds)
}

fn fit_sample(
    sample: &Sample,
    base: &str,
    base_reason: &str,
    name: &str,
    folds: usize,
) -> Result<Fitted, Error> {
    let base_set = load_ruleset(&RuleSource::embedded(), base)
        .map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
    let vocabulary = crate::rules::vocabulary::Vocabulary::embedded();
    let library = library::Library::beyond(base)?;
    let start = search::Base {
        name: base,
        settings: &base_set.settings,
        lexicon: &base_set.lexicons,
        library: &library,
    };
    let all: Vec<usize> = (0..sample.len()).collect();
    let run = |indices: &[usize]| search::search(sample, indices, &start, name, &vocabulary);
    let outcome = run(&all)?;
    let mut cache = crate::rules::load::ParseCache::default();
    let engine = profile::compile(name, base, &outcome.choices, &mut cache)?;
    let mut leftovers: Vec<_> = leftovers::leftovers(sample, &engine, &all)?
        .into_iter()
        .collect();
    leftovers.sort_by(|a, b| {
        let size = |l: &Leftover| l.missing + l.extra;
        size(&b.1).cmp(&size(&a.1)).then(a.0.cmp(&b.0))
    });
    let folds = match folds {
        0 | 1 => None,
        k => Some(cross_validate(sample, k, base, name, &run)?),
    };

    let files = sample.files.join(", ");
    let header = vec![
        format!(
            "Fitted by `eudify fit` from the profile `{base}` on {} ({}) of {files}.",
            crate::text::count(sample.len() as u64, "sentence"),
            crate::text::count(sample.words() as u64, "word"),
        ),
        format!(
            "ELAS on that sample: {:.2} under `{base}`, {:.2} fitted. Each choice below says what",
            outcome.base_score.f1(),
            outcome.fitted_score.f1()
        ),
        "it changed and the ELAS on the sample before and after, with the sentences it made"
            .to_string(),
        "better and worse (a change is kept when it sets at least one more edge right and makes"
            .to_string(),
        format!(
            "{} sentences or more better, {} times as many as it makes worse).",
            search::MIN_BETTER,
            search::BETTER_PER_WORSE
        ),
    ];
    let mut comments = Comments::new();
    for (key, step) in outcome
        .steps
        .iter()
        .flat_map(|step| step.keys.iter().map(move |key| (key, step)))
    {
        comments.entry(key.clone()).or_default().push(format!(
            "{}: ELAS {:.2} → {:.2} ({} wrong edges fewer; {} better, {} worse)",
            step.change,
            step.before.f1(),
            step.after.f1(),
            sample::errors(&step.before) - sample::errors(&step.after),
            crate::text::count(step.better as u64, "sentence"),
            step.worse,
        ));
    }
    for (list, words) in &outcome.evidence {
        if !outcome.choices.lexicon.contains_key(list) {
            continue;
        }
        let why = evidence::LEARNED_LISTS
            .iter()
            .find(|(l, _)| l == list)
            .map_or("", |(_, why)| why);
        let counts: Vec<String> = words.iter().map(|(w, n)| format!("{w} {n}")).collect();
        let entry = comments.entry(list.clone()).or_default();
        entry.insert(
            0,
            format!("{why} in the gold (edges): {}", counts.join(", ")),
        );
    }
    for setting in outcome.choices.settings.keys() {
        let was = base_set
            .settings
            .get(setting)
            .map(profile::toml_value)
            .unwrap_or_default();
        comments
            .entry(setting.clone())
            .or_default()
            .push(format!("`{base}` has {was}"));
    }
    let description = format!(
        "Fitted from `{base}` on {} of {files}",
        crate::text::count(sample.len() as u64, "gold sentence")
    );
    let profile_text = profile::profile_text(
        name,
        base,
        &description,
        &outcome.choices,
        &header,
        &comments,
    );
    let lexicon_text = (!outcome.choices.lexicon.is_empty()).then(|| {
        let header = vec![format!(
            "Words the gold of {files} evidences, which `{base}`'s lexicons lack (fitted by `eudify fit`)."
        )];
        profile::lexicon_text(&outcome.choices, &header, &comments)
    });
    let mut fitted = Fitted {
        name: name.to_string(),
        base: base.to_string(),
        base_reason: base_reason.to_string(),
        profile_text,
        lexicon_text,
        sentences: sample.len(),
        words: sample.words(),
        base_score: outcome.base_score,
        fitted_score: outcome.fitted_score,
        trials: outcome.trials,
        leftovers,
        folds,
        report: String::new(),
    };
    fitted.report = report(&fitted, &outcome.steps);
    Ok(fitted)
}

/// K-fold cross-validation: each contiguous fold scored under the base and under the profile
/// fitted on the other folds.
fn cross_validate(
    sample: &Sample,
    k: usize,
    base: &str,
    name: &str,
    run: &dyn Fn(&[usize]) -> Result<search::Outcome, Error>,
) -> Result<FoldScores, Error> {
    let n = sample.len();
    let k = k.min(n).max(2);
    let mut cache = crate::rules::load::ParseCache::default();
    let base_engine = profile::compile(name, base, &Choices::default(), &mut cache)?;
    let (mut base_total, mut fitted_total) = (Vec::new(), Vec::new());
    let mut by_phenomenon: BTreeMap<Phenomenon, (Score, Score)> = BTreeMap::new();
    for fold in 0..k {
        let (held, train): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| i * k / n == fold);
        if held.is_empty() || train.is_empty() {
            continue;
        }
        let outcome = run(&train)?;
        let fitted_engine = profile::compile(name, base, &outcome.choices, &mut cache)?;
        let (b, bp) = sample.score(&base_engine, &held, true)?;
        let (f, fp) = sample.score(&fitted_engine, &held, true)?;
        base_total.push(total(&b));
        fitted_total.push(total(&f));
        if let (Some(bp), Some(fp)) = (bp, fp) {
            for class in Phenomenon::ALL {
                let entry = by_phenomenon.entry(class).or_default();
                entry.0.add(bp.get(class));
                entry.1.add(fp.get(class));
            }
        }
    }
    Ok(FoldScores {
        folds: k,
        base: total(&base_total),
        fitted: total(&fitted_total),
        by_phenomenon: by_phenomenon
            .into_iter()
            .filter(|(_, (b, f))| b.gold + b.system + f.system > 0)
            .map(|(c, (b, f))| (c, b, f))
            .collect(),
    })
}

/// The report `eudify fit` prints.
fn report(fitted: &Fitted, steps: &[search::Step]) -> String {
    let mut out = String::new();
    out += &format!(
        "fit: {} ({}); base profile `{}` ({})\n",
        crate::text::count(fitted.sentences as u64, "sentence"),
        crate::text::count(fitted.words as u64, "word"),
        fitted.base,
        fitted.base_reason
    );
    out += &format!(
        "ELAS on the sample: base {:.2}, fitted {:.2} ({:+.2}); {} candidates scored\n",
        fitted.base_score.f1(),
        fitted.fitted_score.f1(),
        fitted.fitted_score.f1() - fitted.base_score.f1(),
        thousands(fitted.trials as u64)
    );
    if steps.is_empty() {
        out += "No change to the base made the sample score better.\n";
    } else {
        out += "Choices, in the order kept (ELAS on the sample before → after):\n";
        for step in steps {
            out += &format!(
                "  {} {}  {:.2} → {:.2}  ({} better, {} worse)\n",
                step.keys[0],
                step.change,
                step.before.f1(),
                step.after.f1(),
                step.better,
                step.worse
            );
        }
    }
    if !fitted.leftovers.is_empty() {
        out += "Still wrong after fitting, by phenomenon (missing / extra edges): no setting, shipped rule file\n";
        out += "or rule switched off fixes these;\n";
        out += "a rule is needed (examples: sent_id: dependent <-label- head)\n";
        for (class, left) in &fitted.leftovers {
            out += &format!(
                "  {:<16} {:>5} / {:<5}\n",
                class.name(),
                left.missing,
                left.extra
            );
            for example in &left.examples {
                out += &format!("      {example}\n");
            }
        }
    }
    if let Some(folds) = &fitted.folds {
        out += &format!(
            "Cross-validated over {} folds (each fitted on the others): ELAS base {:.2}, fitted {:.2}\n",
            folds.folds,
            folds.base.f1(),
            folds.fitted.f1()
        );
        out += "  enhancement type    base F1  fitted F1  (gold edges)\n";
        for (class, b, f) in &folds.by_phenomenon {
            out += &format!(
                "  {:<18} {:>8.2} {:>10.2}  ({})\n",
                class.name(),
                b.f1(),
                f.f1(),
                thousands(b.gold)
            );
        }
    }
    out
}
