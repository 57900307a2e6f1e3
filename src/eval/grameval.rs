//! The GramEval 2020 score (Russian full morphology and parsing shared task): per gold word,
//! UPOS, features, lemma and LAS, and their mean, as the task's final scorer computes them.
//!
//! Every gold word counts; a gold word without an aligned system word scores 0 everywhere (the
//! scorer compared words by position, and a missing one scored 0). Labels are compared
//! case-insensitively with `ё` = `е`; LAS needs the head (aligned) and the full relation,
//! subtype included; features score partially: the share of the gold word's features the system
//! word has with the same value (1 for a gold word without features, extra system features
//! cost nothing).

use serde_json::{json, Value};
use std::fmt;

/// Sums over gold words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GramEval {
    /// Gold words.
    pub words: u64,
    /// Words with the right UPOS.
    pub upos: u64,
    /// Words with the right lemma.
    pub lemmas: u64,
    /// Words with the right head and relation.
    pub las: u64,
    /// Sum of the per-word feature shares.
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

    /// Adds the sums of `other`.
    pub fn add(&mut self, other: &GramEval) {
        self.words += other.words;
        self.upos += other.upos;
        self.lemmas += other.lemmas;
        self.las += other.las;
        self.feats += other.feats;
    }

    /// `{"UPOS","Feats","Lemmas","LAS","Quality"}` in percent.
    pub fn to_json(&self) -> Value {
        let [upos, feats, lemmas, las] = self.accuracies();
        json!({ "UPOS": upos, "Feats": feats, "Lemmas": lemmas, "LAS": las, "Quality": self.quality() })
    }
}

impl fmt::Display for GramEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [upos, feats, lemmas, las] = self.accuracies();
        writeln!(
            f,
            "GramEval 2020 (accuracy over {} gold words):",
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

/// Whether two labels are equal ignoring case, with `ё` read as `е` (after lower-casing, so
/// `Ё` is `е` too).
pub(crate) fn same_label(a: &str, b: &str) -> bool {
    let fold = |s: &str| {
        s.chars()
            .flat_map(char::to_lowercase)
            .map(|c| if c == 'ё' { 'е' } else { c })
            .collect::<Vec<char>>()
    };
    if a == b {
        return true;
    }
    fold(a) == fold(b)
}

/// The share of gold features the system has with the same value: `(same + ε) / (gold + ε)`
/// with the scorer's ε, so a gold word without features scores 1. Values are compared as sets
/// (`Case=Acc,Nom` = `Case=Nom,Acc`).
pub(crate) fn feature_share(gold: &str, system: &str) -> f64 {
    const EPSILON: f64 = 0.00001;
    fn pairs(feats: &str) -> impl Iterator<Item = (&str, &str)> {
        let feats = if feats == "_" { "" } else { feats };
        feats
            .split('|')
            .filter(|f| !f.is_empty())
            .filter_map(|f| f.split_once('='))
    }
    let same_values = |a: &str, b: &str| {
        a == b
            || (a.split(',').count() == b.split(',').count()
                && a.split(',').all(|v| b.split(',').any(|w| w == v)))
    };
    let (mut total, mut same) = (0u32, 0u32);
    for (name, value) in pairs(gold) {
        total += 1;
        if pairs(system).any(|(n, v)| n == name && same_values(v, value)) {
            same += 1;
        }
    }
    (f64::from(same) + EPSILON) / (f64::from(total) + EPSILON)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_ignore_case_and_yo() {
        assert!(same_label("ёж", "еж"));
        assert!(same_label("Ёж", "еж"));
        assert!(same_label("NOUN", "noun"));
        assert!(!same_label("еж", "уж"));
    }

    #[test]
    fn features_score_the_share_of_gold_features() {
        assert_eq!(feature_share("_", "Case=Nom"), 1.0);
        assert!((feature_share("Case=Nom|Number=Sing", "Number=Sing") - 0.5).abs() < 1e-4);
        assert!(
            (feature_share("Case=Nom|Number=Sing", "Case=Nom|Number=Sing|Gender=Fem") - 1.0).abs()
                < 1e-9
        );
        assert!((feature_share("Case=Acc,Nom", "Case=Nom,Acc") - 1.0).abs() < 1e-9);
        assert!(feature_share("Case=Nom", "Case=Acc") < 1e-4);
    }
}
