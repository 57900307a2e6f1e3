//! Text taken from the input into an enhanced label — a marker's lemmas, a lemma, a form, a
//! feature value — cleaned so that it can only ever be one well-formed label part
//! (`docs/labels.md` gives the policy):
//!
//! - NFC, lower-cased with [`char::to_lowercase`];
//! - letters that stay without a lower-case form (`ℂ`), digits, punctuation and symbols are
//!   dropped; letters of category Ll, Lm, Lo and combining marks are kept;
//! - separators between words (`_`, `/`, `-`, white space, apostrophes) become one `_`, none
//!   at either end (`en/of` → `en_of`, `how come` → `how_come`);
//! - a feature value with several values (`Acc,Nom`) gives nothing: which one is meant cannot
//!   be told.
//!
//! So no input text can add a `|`, a `:` or a head to DEPS. What was done is told back as a
//! [`TextFix`], for the repair counts.

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// What cleaning did to a text, beyond lower-casing it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TextFix {
    /// Nothing (lower-casing aside), or the text was `_`: no value.
    Kept,
    /// Characters were dropped, separators rewritten or the text normalized to NFC.
    Cleaned,
    /// Nothing is left of a text that was there.
    Dropped,
}

/// Appends `text` cleaned as a label part to `out` (nothing for `_`, which is no value).
pub fn push_label_text(out: &mut String, text: &str) -> TextFix {
    if text == "_" || text.is_empty() {
        return TextFix::Kept;
    }
    // Nearly every text: already a lower-case ASCII word.
    if text.bytes().all(|b| b.is_ascii_lowercase()) {
        out.push_str(text);
        return TextFix::Kept;
    }
    let start = out.len();
    let fix = if text.is_ascii() {
        push_ascii(out, text)
    } else {
        push_unicode(out, text)
    };
    if out.len() == start {
        TextFix::Dropped
    } else {
        fix
    }
}

/// [`push_label_text`] for a feature value: one with several values (`Acc,Nom`) is dropped.
pub fn push_feature_value(out: &mut String, value: &str) -> TextFix {
    if value.contains(',') {
        return TextFix::Dropped;
    }
    push_label_text(out, value)
}

/// Whether `c` separates words of a multiword marker.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '/' | '-' | '\'' | '’' | '‐' | '‑') || c.is_whitespace()
}

/// The common case, byte by byte: ASCII letters kept (lower-cased), separators joined.
fn push_ascii(out: &mut String, text: &str) -> TextFix {
    let start = out.len();
    let mut cleaned = false;
    let mut separator = false;
    for b in text.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' => {
                if separator && out.len() > start {
                    out.push('_');
                }
                separator = false;
                out.push(b.to_ascii_lowercase() as char);
            }
            b'_' => {
                // A single `_` between two words is already the joint.
                cleaned |= separator || out.len() == start;
                separator = true;
            }
            _ if is_separator(b as char) => {
                cleaned = true;
                separator = true;
            }
            _ => cleaned = true,
        }
    }
    if separator {
        cleaned = true;
    }
    if cleaned {
        TextFix::Cleaned
    } else {
        TextFix::Kept
    }
}

/// Any other text: NFC first, then character by character by general category.
#[cold]
fn push_unicode(out: &mut String, text: &str) -> TextFix {
    let nfc: std::borrow::Cow<str> = match is_nfc_quick(text.chars()) {
        IsNormalized::Yes => text.into(),
        _ => text.nfc().collect::<String>().into(),
    };
    let start = out.len();
    let mut cleaned = *nfc != *text;
    let mut separator = false;
    for c in nfc.chars() {
        if is_separator(c) {
            cleaned |= c != '_' || separator || out.len() == start;
            separator = true;
            continue;
        }
        let mut kept_any = false;
        for lower in c.to_lowercase() {
            if is_label_letter(lower) {
                if separator && out.len() > start {
                    out.push('_');
                }
                separator = false;
                out.push(lower);
                kept_any = true;
            } else {
                cleaned = true;
            }
        }
        cleaned |= !kept_any;
    }
    if separator {
        cleaned = true;
    }
    // Lower-casing can undo NFC (rarely: a lower-case letter with no precomposed form).
    if is_nfc_quick(out[start..].chars()) != IsNormalized::Yes {
        let normal: String = out[start..].nfc().collect();
        out.truncate(start);
        out.push_str(&normal);
    }
    if cleaned {
        TextFix::Cleaned
    } else {
        TextFix::Kept
    }
}

/// A character a marker word may hold: a lower-case, modifier or other letter (Ll, Lm, Lo) or a
/// mark (M), as UD's label grammar allows.
pub(crate) fn is_label_letter(c: char) -> bool {
    use unicode_properties::GeneralCategory::{LowercaseLetter, ModifierLetter, OtherLetter};
    c.is_ascii_lowercase()
        || (!c.is_ascii()
            && (matches!(
                c.general_category(),
                LowercaseLetter | ModifierLetter | OtherLetter
            ) || c.general_category_group() == GeneralCategoryGroup::Mark))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(text: &str) -> (String, TextFix) {
        let mut out = String::from("obl:");
        let fix = push_label_text(&mut out, text);
        (out["obl:".len()..].to_string(), fix)
    }

    #[test]
    fn words_are_kept_lower_cased() {
        for (text, expected) in [
            ("před", "před"),
            ("Před", "před"),
            ("such_as", "such_as"),
            ("ON", "on"),
            ("до", "до"),
            ("என்", "என்"),
        ] {
            assert_eq!(clean(text), (expected.to_string(), TextFix::Kept), "{text}");
        }
        assert_eq!(
            clean("_"),
            (String::new(), TextFix::Kept),
            "`_` is no value"
        );
    }

    #[test]
    fn separators_become_one_underscore() {
        for (text, expected) in [
            ("en/of", "en_of"),
            ("and/or", "and_or"),
            ("how come", "how_come"),
            ("jusqu'", "jusqu"),
            ("x__y", "x_y"),
            ("_x_", "x"),
            ("a - b", "a_b"),
            ("l’on", "l_on"),
            ("z\u{a0}hlediska", "z_hlediska"),
        ] {
            assert_eq!(
                clean(text),
                (expected.to_string(), TextFix::Cleaned),
                "{text}"
            );
        }
    }

    /// What an adversarial run put into labels: nothing of it can add `|`, `:` or a head.
    #[test]
    fn hostile_texts_lose_punctuation_digits_and_symbols() {
        for (text, expected, fix) in [
            ("x|3:nsubj", "xnsubj", TextFix::Cleaned),
            ("„", "", TextFix::Dropped),
            ("?", "", TextFix::Dropped),
            (" ", "", TextFix::Dropped),
            ("Gen2", "gen", TextFix::Cleaned),
            ("ǅ", "ǆ", TextFix::Kept),
            ("ℂx", "x", TextFix::Cleaned),
            ("a\u{301}", "á", TextFix::Cleaned),
            ("ⓐb", "b", TextFix::Cleaned),
            ("na_základ_„", "na_základ", TextFix::Cleaned),
        ] {
            assert_eq!(clean(text), (expected.to_string(), fix), "{text}");
        }
    }

    #[test]
    fn several_feature_values_give_nothing() {
        let mut out = String::new();
        assert_eq!(push_feature_value(&mut out, "Acc,Nom"), TextFix::Dropped);
        assert_eq!(push_feature_value(&mut out, "Loc"), TextFix::Kept);
        assert_eq!(out, "loc");
    }
}
