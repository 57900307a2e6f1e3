//! Regexes of rule files, with a fast path for their commonest shape.
//!
//! Most regexes in rule files ask whether a whole value is made of characters of one class:
//! `lemma=/^[\p{L}\p{M}]+$/` (a marker is a word, not a symbol). The regex engine answers that
//! in a few hundred instructions per call, mostly set-up; testing each character against the
//! class's ranges takes a few per character. Any other regex goes to the regex engine.

use regex::Regex;
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use std::sync::Arc;

/// A compiled regex; [`TextRegex::is_match`] searches like [`Regex::is_match`].
#[derive(Clone, Debug)]
pub struct TextRegex {
    regex: Regex,
    whole_class: Option<Arc<WholeClass>>,
}

/// `^[class]*$` or `^[class]+$`: every character of the value is in `ranges`.
#[derive(Debug)]
struct WholeClass {
    /// Bit `b` set: ASCII character `b` is in the class.
    ascii: u128,
    /// The class as sorted, disjoint, inclusive ranges.
    ranges: Vec<(char, char)>,
    allow_empty: bool,
}

impl WholeClass {
    fn of(pattern: &str) -> Option<WholeClass> {
        let hir = regex_syntax::parse(pattern).ok()?;
        let HirKind::Concat(parts) = hir.kind() else { return None };
        let [start, repeated, end] = parts.as_slice() else { return None };
        if !is_look(start, Look::Start) || !is_look(end, Look::End) {
            return None;
        }
        let HirKind::Repetition(repetition) = repeated.kind() else { return None };
        if repetition.max.is_some() || repetition.min > 1 {
            return None;
        }
        let HirKind::Class(Class::Unicode(class)) = repetition.sub.kind() else { return None };
        let ranges: Vec<(char, char)> = class.ranges().iter().map(|r| (r.start(), r.end())).collect();
        let ascii = (0u8..128).filter(|&b| in_ranges(&ranges, char::from(b))).fold(0u128, |bits, b| bits | 1 << b);
        Some(WholeClass { ascii, ranges, allow_empty: repetition.min == 0 })
    }

    fn is_match(&self, text: &str) -> bool {
        if text.is_empty() {
            return self.allow_empty;
        }
        text.chars().all(|c| match u32::from(c) {
            code @ 0..128 => self.ascii & (1u128 << code) != 0,
            _ => in_ranges(&self.ranges, c),
        })
    }
}

fn is_look(hir: &Hir, look: Look) -> bool {
    matches!(hir.kind(), HirKind::Look(l) if *l == look)
}

fn in_ranges(ranges: &[(char, char)], c: char) -> bool {
    // The first range ending at or after `c` holds it, if any does.
    let i = ranges.partition_point(|&(_, end)| end < c);
    ranges.get(i).is_some_and(|&(start, _)| start <= c)
}

impl TextRegex {
    pub fn new(pattern: &str) -> Result<TextRegex, regex::Error> {
        let regex = Regex::new(pattern)?;
        Ok(TextRegex { regex, whole_class: WholeClass::of(pattern).map(Arc::new) })
    }

    pub fn is_match(&self, text: &str) -> bool {
        match &self.whole_class {
            Some(class) => class.is_match(text),
            None => self.regex.is_match(text),
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// Whether the fast path decides this regex (for tests).
    pub fn is_whole_class(&self) -> bool {
        self.whole_class.is_some()
    }

    /// The literal every match starts with when the regex is anchored at the start (`^conj:`,
    /// `^advcl:[^:]*_`: "conj:", "advcl:"), and whether that prefix is all the regex asks
    /// (`^conj:`: every value that starts with it matches). The engine's planner narrows a
    /// label test's relations with it.
    pub fn literal_prefix(&self) -> Option<(String, bool)> {
        let hir = regex_syntax::parse(self.regex.as_str()).ok()?;
        let HirKind::Concat(parts) = hir.kind() else { return None };
        let [start, literal, rest @ ..] = parts.as_slice() else { return None };
        let HirKind::Literal(literal) = literal.kind() else { return None };
        if !is_look(start, Look::Start) {
            return None;
        }
        let prefix = std::str::from_utf8(&literal.0).ok()?;
        Some((prefix.to_string(), rest.is_empty()))
    }
}

#[cfg(test)]
mod tests {
    use super::TextRegex;
    use regex::Regex;

    const PATTERNS: &[(&str, bool)] = &[
        (r"^[\p{L}\p{M}]+$", true),
        (r"^[\p{L}\p{M}]*$", true),
        (r"(?i)^[a-zäöü]+$", true),
        (r"^[^\p{P}\s]+$", true),
        (r"^\p{Lu}+$", true),
        (r"^[\p{L}\p{M}]+", false),
        (r"[\p{L}\p{M}]+$", false),
        (r"^[\p{L}\p{M}]{2,}$", false),
        (r"^(a|b)+$", false),
        (r"^(?m)[a-z]+$", false),
        (r"^n", false),
    ];

    /// The literal prefix is found for an anchored literal start only, and said to be the
    /// whole regex only when nothing follows it.
    #[test]
    fn literal_prefixes() {
        let prefix = |p: &str| TextRegex::new(p).unwrap().literal_prefix();
        assert_eq!(prefix("^conj:"), Some(("conj:".to_string(), true)));
        assert_eq!(prefix("^advcl:[^:]*_"), Some(("advcl:".to_string(), false)));
        assert_eq!(prefix("^nsubj"), Some(("nsubj".to_string(), true)));
        assert_eq!(prefix("^conj:$"), Some(("conj:".to_string(), false)));
        for none in ["conj:", ":gen$", "(?i)^conj:", "^(advcl|acl):", "^conj:|^obl:", "(?m)^conj:", "^[ab]c"] {
            assert_eq!(prefix(none), None, "{none}");
        }
    }

    const TEXTS: &[&str] = &[
        "", "a", "in", "out_of", "v", "Přes", "na", "a.m.", "en/of", "dat wil zeggen", "5", "§", "ŝ", "é",
        "e\u{301}", "வ", "த\u{bcd}", "ÄÖÜ", "straße", "K", "ǅ", "İ", "-", "a b", "ab\n", "\nab", "𝔸", "日本",
    ];

    /// The fast path gives the regex engine's answer for every text, and is taken exactly for
    /// whole-value class patterns.
    #[test]
    fn whole_class_fast_path_agrees_with_the_regex_engine() {
        for &(pattern, fast) in PATTERNS {
            let ours = TextRegex::new(pattern).unwrap();
            assert_eq!(ours.is_whole_class(), fast, "{pattern}");
            let reference = Regex::new(pattern).unwrap();
            for text in TEXTS {
                assert_eq!(ours.is_match(text), reference.is_match(text), "{pattern} on {text:?}");
            }
            // Every single character of the first planes, alone and repeated.
            for code in (0..0x3_0000).step_by(7) {
                let Some(c) = char::from_u32(code) else { continue };
                for text in [c.to_string(), format!("{c}{c}a")] {
                    assert_eq!(ours.is_match(&text), reference.is_match(&text), "{pattern} on {text:?}");
                }
            }
        }
    }
}
