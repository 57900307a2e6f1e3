//! The basic layer's columns as UD's validator (`validate.py`, level 2) wants their format:
//! UPOS one of the 17 tags, FEATS sorted `Name=Value` pairs, DEPREL a universal relation with an
//! optional ASCII subtype. What a value means for a language (level 4) is not looked at.

use super::{is_relation, is_upos};

/// Why `upos` is not a UPOS tag, or `None` if it is.
pub fn upos_problem(upos: &str) -> Option<String> {
    (!is_upos(upos)).then(|| format!("unknown UPOS tag '{upos}': UD has 17 (ADJ … X)"))
}

/// Why a basic DEPREL is malformed (not `[a-z]+(:[a-z]+)?` with a universal relation first),
/// or `None` if it is well-formed. `ref` exists only in the enhanced layer.
pub fn deprel_problem(deprel: &str) -> Option<String> {
    let ascii = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase());
    let (universal, subtype) = deprel
        .split_once(':')
        .map_or((deprel, None), |(u, s)| (u, Some(s)));
    if !ascii(universal) || !subtype.is_none_or(ascii) {
        return Some(format!(
            "malformed DEPREL '{deprel}': expected a relation and an optional subtype, lower-case ASCII letters (nsubj:pass)"
        ));
    }
    (!is_relation(universal) || universal == "ref")
        .then(|| format!("unknown DEPREL '{deprel}': '{universal}' is not a universal relation"))
}

/// `Name` or `Name[layer]`: an ASCII capital, then ASCII letters and digits; the layer lower-case
/// ASCII letters and digits (`Number[psor]`).
pub fn is_feature_name(name: &str) -> bool {
    let (base, layer) = match name.split_once('[') {
        Some((base, rest)) => (base, rest.strip_suffix(']')),
        None => (name, Some("a")),
    };
    base.starts_with(|c: char| c.is_ascii_uppercase())
        && base.bytes().all(|b| b.is_ascii_alphanumeric())
        && layer.is_some_and(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// A value: an ASCII capital or digit, then ASCII letters and digits.
pub fn is_feature_value(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit())
        && value.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// What is wrong with the format of a FEATS column (`_`, or `Name=Value` pairs joined by `|`,
/// sorted by name case-insensitively, no name twice; several values joined by `,`, sorted and
/// not repeated), each problem once. Empty when nothing is.
pub fn feats_problems(feats: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if feats == "_" {
        return problems;
    }
    let pairs: Vec<&str> = feats.split('|').collect();
    if pairs
        .windows(2)
        .any(|w| w[0].to_lowercase() > w[1].to_lowercase())
    {
        problems.push(format!("features not sorted by name: '{feats}'"));
    }
    let mut names: Vec<&str> = Vec::new();
    for pair in &pairs {
        let Some((name, values)) = pair
            .split_once('=')
            .filter(|(name, _)| is_feature_name(name))
        else {
            problems.push(format!(
                "malformed feature '{pair}' in '{feats}': expected Name=Value, Name an ASCII capital then letters and digits"
            ));
            continue;
        };
        names.push(name);
        let values: Vec<&str> = values.split(',').collect();
        if let Some(bad) = values.iter().find(|v| !is_feature_value(v)) {
            problems.push(format!(
                "malformed value '{bad}' of feature {name} in '{feats}': expected an ASCII capital or digit, then letters and digits"
            ));
        } else if values
            .windows(2)
            .any(|w| w[0].to_lowercase() >= w[1].to_lowercase())
        {
            problems.push(format!(
                "values of feature {name} not sorted, or repeated: '{pair}'"
            ));
        }
    }
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        problems.push(format!("a feature named twice: '{feats}'"));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feats_format_follows_the_validator() {
        for good in [
            "_",
            "Case=Nom",
            "Case=Acc,Nom|Number=Sing",
            "Number[psor]=Plur|Person=3",
            "NumType=Card|NumValue=1",
        ] {
            assert_eq!(feats_problems(good), Vec::<String>::new(), "{good}");
        }
        for bad in [
            "Number=Sing|Case=Nom",
            "case=Nom",
            "Case",
            "Case=",
            "Case=nom",
            "Case=Nom,Acc",
            "Case=Acc,Acc",
            "Case=Acc|Case=Nom",
            "Case=Nom|",
            "Number[Psor]=Sing",
        ] {
            assert!(!feats_problems(bad).is_empty(), "{bad}");
        }
    }

    #[test]
    fn deprels_and_upos_are_checked_as_level_2_does() {
        for good in ["nsubj", "nsubj:pass", "obl:tmod", "root"] {
            assert_eq!(deprel_problem(good), None, "{good}");
        }
        for bad in [
            "Nsubj",
            "nsubj:pass:x",
            "nsubj:",
            "foo",
            "ref",
            "obl:v_rámci",
            "",
        ] {
            assert!(deprel_problem(bad).is_some(), "{bad}");
        }
        assert_eq!(upos_problem("NOUN"), None);
        assert!(upos_problem("CONJ").is_some() && upos_problem("noun").is_some());
    }
}
