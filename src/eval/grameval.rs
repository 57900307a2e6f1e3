//! The GramEval 2020 score (Russian full morphology and parsing shared task): per gold word,
//! UPOS, features, lemma and LAS, and their mean, as the task's final scorer computes them.
//!
//! Every gold word counts; a gold word without an aligned system word scores 0 everywhere (the
//! scorer compared words by position, and a missing one scored 0). Labels are compared
//! case-insensitively with `ё` = `е`; LAS needs the head (aligned) and the full relation,
//! subtype included; features score partially: the share of the gold word's features the system
//! word has with the same value (1 for a gold word without features, extra system features
//! cost nothing).
//!
//! This module compares one word's labels; `align.rs` sums over a chunk's words into
//! [`super::GramEval`], which the report renders.

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
