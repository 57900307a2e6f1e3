//! Counts of label repairs by kind, summed per sentence, chunk and run, and told on stderr:
//! nothing the input offered is changed silently.

use crate::text::{count, thousands};

use std::borrow::Cow;
use std::fmt;

/// Marker text (a lemma, form or feature value in a label) lost characters or was normalized.
pub const TEXT_CLEANED: &str = "marker text cleaned";
/// Nothing was left of a marker text, or a feature had several values (`Case=Acc,Nom`): the
/// part is left out. Named for both: a case left out for its several values is no marker.
pub const TEXT_DROPPED: &str = "marker or feature value dropped";
/// A relation that is not a UD relation, even case-folded, became `dep`.
pub const NOT_A_RELATION: &str = "not a UD relation → dep";
/// Parts of a label that do not fit UD's grammar were left out (`obl:x:y:z:w` → `obl:x:y:z`).
pub const PART_DROPPED: &str = "label part dropped";
/// A label a rule made was longer than the engine allows (200 bytes): cut to its longest
/// prefix of whole parts that fits (`obl:arg:<a marker of many words>` → `obl:arg`).
pub const LABEL_SHORTENED: &str = "over-long label shortened";
/// The word attached to the root had another relation than `root`.
pub const ROOT_EDGE: &str = "relation from 0 → root";
/// A word not attached to the root had the relation `root`.
pub const ROOT_ELSEWHERE: &str = "root not from 0 → dep";

/// How many repairs of each kind. Kinds are few: fixed texts, or `ROOT → root` for a relation
/// case-folded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repairs {
    counts: Vec<(Cow<'static, str>, u64)>,
}

impl Repairs {
    /// Counts `n` repairs of `kind`.
    pub fn add(&mut self, kind: impl Into<Cow<'static, str>> + AsRef<str>, n: u64) {
        if n == 0 {
            return;
        }
        match self.counts.iter_mut().find(|(k, _)| k == kind.as_ref()) {
            Some((_, count)) => *count += n,
            None => self.counts.push((kind.into(), n)),
        }
    }

    /// Adds every count of `other`.
    pub fn add_all(&mut self, other: &Repairs) {
        for (kind, n) in &other.counts {
            self.add(kind.clone(), *n);
        }
    }

    /// The repairs counted, of all kinds.
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }

    /// Whether nothing was repaired.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The count of one kind.
    pub fn count(&self, kind: &str) -> u64 {
        self.counts
            .iter()
            .find(|(k, _)| k == kind)
            .map_or(0, |(_, n)| *n)
    }

    /// Kinds with their counts, most frequent first (then by kind).
    pub fn by_kind(&self) -> Vec<(&str, u64)> {
        let mut kinds: Vec<(&str, u64)> = self
            .counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (k.as_ref(), *n))
            .collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        kinds
    }

    /// Forgets every count.
    pub fn clear(&mut self) {
        self.counts.clear();
    }
}

/// Kinds shown by name in the summary; the rest are counted together.
const SHOWN_KINDS: usize = 4;

/// The summary-line part: `2,077 labels repaired (ROOT → root)`, or with several kinds
/// `12 labels repaired (10 ROOT → root, 2 marker text cleaned)`.
impl fmt::Display for Repairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        write!(f, "{} repaired", count(total, "label"))?;
        let kinds = self.by_kind();
        if let [(kind, _)] = kinds[..] {
            return write!(f, " ({kind})");
        }
        let shown: Vec<String> = kinds
            .iter()
            .take(SHOWN_KINDS)
            .map(|(k, n)| format!("{} {k}", thousands(*n)))
            .collect();
        write!(f, " ({}", shown.join(", "))?;
        if kinds.len() > SHOWN_KINDS {
            let rest: u64 = kinds[SHOWN_KINDS..].iter().map(|(_, n)| n).sum();
            write!(
                f,
                ", {} of {} other kinds",
                thousands(rest),
                kinds.len() - SHOWN_KINDS
            )?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_part_names_kinds_by_frequency() {
        let mut repairs = Repairs::default();
        assert!(repairs.is_empty());
        repairs.add("ROOT → root", 1);
        assert_eq!(repairs.to_string(), "1 label repaired (ROOT → root)");
        repairs.add("ROOT → root", 2076);
        assert_eq!(repairs.to_string(), "2,077 labels repaired (ROOT → root)");
        let mut more = Repairs::default();
        more.add(TEXT_CLEANED, 2);
        more.add(NOT_A_RELATION, 3);
        repairs.add_all(&more);
        assert_eq!(repairs.total(), 2082);
        assert_eq!(
            repairs.to_string(),
            "2,082 labels repaired (2,077 ROOT → root, 3 not a UD relation → dep, 2 marker text cleaned)"
        );
        for kind in ["a", "b", "c"] {
            repairs.add(kind, 1);
        }
        assert!(
            repairs.to_string().ends_with(", 2 of 2 other kinds)"),
            "{repairs}"
        );
    }
}
