//! The shape of enhanced relation labels, as UD's `validate.py` (level 2) accepts them.
//!
//! A label is a universal relation, then up to three `:`-separated parts: an optional subtype
//! (ASCII lower case), an optional case marker (lower-case Unicode letters and marks, words
//! joined by single `_`, e.g. `obl:v_rámci:gen`, `nmod:до`), and an optional morphological case
//! (ASCII lower case). Which part an ASCII word is cannot always be told; the regular expression
//! below is the one `validate.py` uses, so we accept exactly what it accepts.

use super::is_relation;
use regex::Regex;
use std::sync::OnceLock;

fn label_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        const LETTERS: &str = r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]+";
        let pattern = format!(r"^[a-z]+(:[a-z]+)?(:{LETTERS}(_{LETTERS})*)?(:[a-z]+)?$");
        Regex::new(&pattern).expect("the enhanced label pattern is a valid regex")
    })
}

/// The universal part of a label: everything before the first `:`.
pub fn universal_part(label: &str) -> &str {
    label.split_once(':').map_or(label, |(u, _)| u)
}

/// Why an enhanced label is not acceptable, or `None` if it is.
pub fn enhanced_label_problem(label: &str) -> Option<String> {
    if !label_regex().is_match(label) {
        return Some(format!(
            "enhanced label '{label}' is malformed: expected universal[:subtype][:marker][:case] \
             (ASCII lower-case relation and subtype, lower-case marker words joined by '_')"
        ));
    }
    let universal = universal_part(label);
    if !is_relation(universal) {
        return Some(format!("enhanced label '{label}' has unknown universal relation '{universal}'"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_shapes_found_in_treebanks() {
        for good in [
            "nsubj",
            "nsubj:pass",
            "obl:v:loc",
            "obl:při:loc",
            "obl:πριν",
            "nmod:до",
            "obl:na_základě:gen",
            "nmod:such_as",
            "nsubj:xsubj",
            "obl:arg:za:acc",
            "ref",
            "nmod:என்:nom",
        ] {
            assert_eq!(enhanced_label_problem(good), None, "{good}");
        }
    }

    #[test]
    fn rejects_bad_shapes_and_unknown_relations() {
        for bad in ["Nsubj", "nsubj:", "obl:_x", "obl:x__y", "obl:x_", "obl:a:b:c:d", "obl:Při", "obl:1", "a-b"] {
            assert!(enhanced_label_problem(bad).unwrap().contains("malformed"), "{bad}");
        }
        assert!(enhanced_label_problem("subj:pass").unwrap().contains("unknown universal relation 'subj'"));
    }
}
