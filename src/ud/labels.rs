//! The shape of enhanced relation labels, as UD's `validate.py` (level 2) accepts them.
//!
//! A label is a universal relation, then up to three `:`-separated parts: an optional subtype
//! (ASCII lower case), an optional case marker (lower-case Unicode letters and marks, words
//! joined by single `_`, e.g. `obl:v_rámci:gen`, `nmod:до`), and an optional morphological case
//! (ASCII lower case). Which part an ASCII word is cannot always be told; [`has_label_shape`]
//! accepts exactly what the regular expression of `validate.py` accepts (a test holds it to that
//! expression), and the label must be NFC, as all CoNLL-U text.
//!
//! [`repair_label`] turns any text into a label of this shape: every label eudify writes passes
//! through it once per distinct text ([`crate::graph::LabelTable`]).

use super::is_relation;
use super::repairs::{NOT_A_RELATION, PART_DROPPED};
use super::text::is_label_letter;
use std::borrow::Cow;
use unicode_normalization::{is_nfc, UnicodeNormalization};

/// Whether `label` matches `validate.py`'s pattern
/// `^[a-z]+(:[a-z]+)?(:LETTERS(_LETTERS)*)?(:[a-z]+)?$`, LETTERS being `[\p{Ll}\p{Lm}\p{Lo}\p{M}]+`:
/// written out by hand, as a regular expression costs more to build than all labels of a run
/// to check.
fn has_label_shape(label: &str) -> bool {
    let ascii = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase());
    let marker = |part: &str| {
        part.split('_')
            .all(|word| !word.is_empty() && word.chars().all(is_label_letter))
    };
    let mut parts = label.split(':');
    if !parts.next().is_some_and(ascii) {
        return false;
    }
    let (p1, p2, p3) = (parts.next(), parts.next(), parts.next());
    if parts.next().is_some() {
        return false;
    }
    // An ASCII word is also a marker word: each part is a subtype, a marker or a case, in order.
    match (p1, p2, p3) {
        (None, _, _) => true,
        (Some(a), None, _) => marker(a),
        (Some(a), Some(b), None) => (ascii(a) && marker(b)) || (marker(a) && ascii(b)),
        (Some(a), Some(b), Some(c)) => ascii(a) && marker(b) && ascii(c),
    }
}

/// The universal part of a label: everything before the first `:`.
pub fn universal_part(label: &str) -> &str {
    label.split_once(':').map_or(label, |(u, _)| u)
}

/// Whether `label` is an acceptable enhanced label ([`enhanced_label_problem`] finds nothing).
pub fn is_enhanced_label(label: &str) -> bool {
    has_label_shape(label) && is_relation(universal_part(label)) && is_nfc(label)
}

/// Why an enhanced label is not acceptable, or `None` if it is.
pub fn enhanced_label_problem(label: &str) -> Option<String> {
    if !is_nfc(label) {
        return Some(format!("enhanced label '{label}' is not in Unicode NFC"));
    }
    if !has_label_shape(label) {
        return Some(format!(
            "enhanced label '{label}' is malformed: expected universal[:subtype][:marker][:case] \
             (ASCII lower-case relation and subtype, lower-case marker words joined by '_')"
        ));
    }
    let universal = universal_part(label);
    if !is_relation(universal) {
        return Some(format!(
            "enhanced label '{label}' has unknown universal relation '{universal}'"
        ));
    }
    None
}

/// A label of UD's shape for any `text` ([`is_enhanced_label`]), and the kind of repair made
/// (for [`super::Repairs`]), or `None` when `text` is a label already. In order:
///
/// 1. NFC and lower-cased, if that makes it a label (`ROOT` → `root`; the kind is `ROOT →
///    root`);
/// 2. else, if its universal part (lower-cased) is not a UD relation, `dep` (`_`, `foo`,
///    `obj|1:nsubj`);
/// 3. else the universal part followed by each of its other parts that keeps it a label,
///    in order (`obl:Tmod2` → `obl`, `obl:x:y:z:w` → `obl:x:y:z`).
pub fn repair_label(text: &str) -> Option<(String, Cow<'static, str>)> {
    if is_enhanced_label(text) {
        return None;
    }
    let folded: String = text.nfc().flat_map(char::to_lowercase).nfc().collect();
    if is_enhanced_label(&folded) {
        let kind = format!("{text} → {folded}");
        return Some((folded, kind.into()));
    }
    let mut parts = folded.split(':');
    let universal = parts.next().unwrap_or_default();
    if !is_relation(universal) {
        return Some(("dep".to_string(), NOT_A_RELATION.into()));
    }
    let mut label = universal.to_string();
    for part in parts {
        let end = label.len();
        label.push(':');
        label.push_str(part);
        if !is_enhanced_label(&label) {
            label.truncate(end);
        }
    }
    Some((label, PART_DROPPED.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_give_labels_and_say_what_they_did() {
        for (text, label, kind) in [
            ("ROOT", "root", "ROOT → root"),
            ("nsubj:Pass", "nsubj:pass", "nsubj:Pass → nsubj:pass"),
            ("obl:Před", "obl:před", "obl:Před → obl:před"),
            ("_", "dep", NOT_A_RELATION),
            ("foo", "dep", NOT_A_RELATION),
            ("", "dep", NOT_A_RELATION),
            ("obj|1:nsubj", "dep", NOT_A_RELATION),
            ("obl:Tmod2", "obl", PART_DROPPED),
            ("obl:acc,nom", "obl", PART_DROPPED),
            ("obl:x:y:z:w", "obl:x:y:z", PART_DROPPED),
            ("advcl:how come", "advcl", PART_DROPPED),
            ("obl:na_základ_„:gen", "obl:gen", PART_DROPPED),
        ] {
            let (repaired, how) =
                repair_label(text).unwrap_or_else(|| panic!("{text} is not a label"));
            assert_eq!((repaired.as_str(), how.as_ref()), (label, kind), "{text}");
            assert!(is_enhanced_label(&repaired), "{repaired}");
        }
        assert_eq!(repair_label("obl:v:loc"), None);
    }

    /// The hand-written shape test accepts exactly what `validate.py`'s regular expression
    /// accepts, on every label of up to five parts built from words that differ in each way
    /// that matters (ASCII, other lower-case letters, marks, upper case, digits, `_`, empty).
    #[test]
    fn the_shape_is_validate_py_s_regular_expression() {
        const LETTERS: &str = r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]+";
        let pattern = format!(r"^[a-z]+(:[a-z]+)?(:{LETTERS}(_{LETTERS})*)?(:[a-z]+)?$");
        let regex = regex::Regex::new(&pattern).unwrap();
        let words = [
            "obl", "x", "při", "a\u{301}", "до", "ʰ", "a_b", "v_rámci", "_a", "a_", "a__b", "Při",
            "x1", "", "ǅ", "ⓐ", "a b", "a-b",
        ];
        let mut checked = 0;
        let mut label = String::new();
        let mut build = |parts: &[&str]| {
            label.clear();
            label.push_str(&parts.join(":"));
            assert_eq!(has_label_shape(&label), regex.is_match(&label), "{label:?}");
            checked += 1;
        };
        for a in words {
            build(&[a]);
            for b in words {
                build(&[a, b]);
                for c in words {
                    build(&[a, b, c]);
                    for d in ["gen", "při", "X", ""] {
                        build(&[a, b, c, d]);
                        build(&[a, b, c, d, "x"]);
                    }
                }
            }
        }
        assert!(checked > 40_000, "{checked}");
    }

    #[test]
    fn labels_must_be_nfc() {
        assert!(enhanced_label_problem("obl:a\u{301}")
            .unwrap()
            .contains("NFC"));
        assert!(!is_enhanced_label("obl:a\u{301}"));
        assert!(is_enhanced_label("obl:á"));
    }

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
        for bad in [
            "Nsubj",
            "nsubj:",
            "obl:_x",
            "obl:x__y",
            "obl:x_",
            "obl:a:b:c:d",
            "obl:Při",
            "obl:1",
            "a-b",
        ] {
            assert!(
                enhanced_label_problem(bad).unwrap().contains("malformed"),
                "{bad}"
            );
        }
        assert!(enhanced_label_problem("subj:pass")
            .unwrap()
            .contains("unknown universal relation 'subj'"));
    }
}
