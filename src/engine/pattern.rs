//! The engine's own form of a rule's match and `without` blocks: what lowering
//! ([`super::lower`]) makes of the rules' checked patterns, and all that the later stages read
//! (anchors, plans, search, apply). It keeps what matching needs and nothing of the source (no
//! spans, names or lexicon paths), so the engine's stages do not depend on the rule
//! front-end's types, and a change there touches only the lowering.

use crate::rules::text_regex::TextRegex;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// A node variable: an index into a rule's variables (the match block's first).
pub type VarId = usize;
/// An edge variable: an index into a rule's edge variables.
pub type EdgeVarId = usize;

/// A match or `without` block.
#[derive(Clone, Debug, Default)]
pub struct Pattern {
    /// Variables this block binds (the match block: `0..n`; a `without` block: its new ones).
    /// Variables outside this range that the block mentions are bound before it starts.
    pub new_vars: std::ops::Range<VarId>,
    /// Node tests, at most one per variable.
    pub nodes: Vec<NodeTest>,
    pub edges: Vec<EdgeTest>,
    pub order: Vec<OrderTest>,
}

/// All field tests on one node (each must hold).
#[derive(Clone, Debug)]
pub struct NodeTest {
    pub var: VarId,
    pub tests: Vec<FieldTest>,
}

/// One test on a field of a node (`[lemma=want]`, `[!empty]`).
#[derive(Clone, Debug)]
pub struct FieldTest {
    pub field: Field,
    pub test: ValueTest,
    pub negated: bool,
}

/// Which part of a node a [`FieldTest`] reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    Form,
    Lemma,
    Upos,
    Xpos,
    /// A feature of FEATS, by name.
    Feature(String),
    /// The whole MISC column (`None`), or one attribute of it.
    Misc(Option<String>),
    /// Whether the node is an empty node (presence only).
    Empty,
}

/// What a present field value must be.
#[derive(Clone, Debug)]
pub enum ValueTest {
    /// One of `values` (`case_insensitive`: compared lower-cased; `values` are lower-cased).
    Equals {
        values: Vec<String>,
        case_insensitive: bool,
    },
    /// Searched, as [`TextRegex::is_match`] does.
    Regex(TextRegex),
    /// A word of a lexicon list (exact comparison).
    InLexicon(Arc<FxHashSet<String>>),
    /// Any value.
    Present,
}

impl ValueTest {
    /// Whether a present value passes the test (an absent one passes none).
    pub fn holds(&self, value: &str) -> bool {
        match self {
            ValueTest::Equals {
                values,
                case_insensitive: false,
            } => values.iter().any(|v| v == value),
            // `values` are lower-cased. An ASCII value is compared byte by byte, lower-casing as it
            // goes; only other values are lower-cased into a new string (Unicode lower-casing
            // depends on context: a final sigma).
            ValueTest::Equals {
                values,
                case_insensitive: true,
            } if value.is_ascii() => values.iter().any(|v| {
                v.len() == value.len()
                    && v.bytes()
                        .zip(value.bytes())
                        .all(|(a, b)| a == b.to_ascii_lowercase())
            }),
            ValueTest::Equals {
                values,
                case_insensitive: true,
            } => values.contains(&value.to_lowercase()),
            ValueTest::Regex(re) => re.is_match(value),
            ValueTest::InLexicon(words) => words.contains(value),
            ValueTest::Present => true,
        }
    }

    /// Whether no value passes (a lexicon list or a value list the profile leaves empty).
    pub fn passes_nothing(&self) -> bool {
        match self {
            ValueTest::InLexicon(words) => words.is_empty(),
            ValueTest::Equals { values, .. } => values.is_empty(),
            _ => false,
        }
    }
}

/// Which graph an edge test looks in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The basic tree, which rules never change.
    Basic,
    /// The enhanced graph as it is when the rule is searched.
    Enhanced,
}

/// An edge the pattern asks for (or, `negated`, asks to be absent).
#[derive(Clone, Debug)]
pub struct EdgeTest {
    pub var: Option<EdgeVarId>,
    /// A descent: `to` lies `min..=max` basic edges below `from`, every edge on the path
    /// passing `label`.
    pub depth: Option<Depth>,
    pub from: VarId,
    pub to: VarId,
    pub layer: Layer,
    pub label: LabelTest,
    pub negated: bool,
}

/// The bounds of a descent: `1 <= min <= max`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Depth {
    pub min: u8,
    pub max: u8,
}

/// What an edge's label must be.
#[derive(Clone, Debug)]
pub enum LabelTest {
    Any,
    Exact(String),
    /// The universal part is this (the label is `univ` or starts with `univ:`).
    Universal(String),
    /// The subtype (after the first `:`) is this.
    Subtype(String),
    Regex(TextRegex),
    /// The label of the edge bound to this edge variable.
    SameLabel(EdgeVarId),
    Alternatives(Vec<LabelTest>),
    Not(Box<LabelTest>),
}

impl LabelTest {
    /// Whether `label` passes, given the labels bound to edge variables so far.
    pub fn matches<'l>(
        &self,
        label: &str,
        edge_labels: &dyn Fn(EdgeVarId) -> Option<&'l str>,
    ) -> bool {
        match self {
            LabelTest::Any => true,
            LabelTest::Exact(l) => label == l,
            LabelTest::Universal(u) => label
                .strip_prefix(u.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(':')),
            LabelTest::Subtype(s) => label
                .bytes()
                .position(|b| b == b':')
                .is_some_and(|i| label[i + 1..] == **s),
            LabelTest::Regex(re) => re.is_match(label),
            LabelTest::SameLabel(e) => edge_labels(*e).is_some_and(|l| l == label),
            // Exact labels compared here, not by a recursive call: most alternatives are exact
            // labels, and label tests run for most candidate edges.
            LabelTest::Alternatives(options) => options.iter().any(|o| match o {
                LabelTest::Exact(l) => l == label,
                other => other.matches(label, edge_labels),
            }),
            LabelTest::Not(inner) => !inner.matches(label, edge_labels),
        }
    }
}

/// A test between bound nodes: word order, distinctness, agreement of features.
#[derive(Clone, Debug)]
pub enum OrderTest {
    Before {
        left: Operand,
        right: Operand,
        immediately: bool,
    },
    Distinct(VarId, VarId),
    /// `A.F == B.G` (`negated`: `!=`); see [`values_agree`].
    Agree {
        left: VarId,
        left_feature: String,
        right: VarId,
        right_feature: String,
        negated: bool,
    },
}

impl OrderTest {
    /// The variables the test reads.
    pub fn vars(&self) -> [VarId; 2] {
        match *self {
            OrderTest::Before { left, right, .. } => [left.var(), right.var()],
            OrderTest::Distinct(a, b)
            | OrderTest::Agree {
                left: a, right: b, ..
            } => [a, b],
        }
    }
}

/// A side of an order test: a node, or its basic subtree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Node(VarId),
    Subtree(VarId),
}

impl Operand {
    pub fn var(self) -> VarId {
        match self {
            Operand::Node(v) | Operand::Subtree(v) => v,
        }
    }
}

/// Whether two feature values agree: both present and sharing a value, a multi-value
/// (`Case=Acc,Nom`, a syncretic form) agreeing with each of its values. `None` is an absent
/// feature, which agrees with nothing (so `!=` holds on it, as every negated test does).
pub fn values_agree(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b || a.split(',').any(|x| b.split(',').any(|y| x == y)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case-insensitive test compares lower-cased values, ASCII byte by byte and other text
    /// lower-cased whole; a case-sensitive one compares the text as it is.
    #[test]
    fn value_tests_fold_case_only_when_asked() {
        let values = vec!["she".to_string(), "été".to_string()];
        let folded = ValueTest::Equals {
            values: values.clone(),
            case_insensitive: true,
        };
        let exact = ValueTest::Equals {
            values,
            case_insensitive: false,
        };
        for (value, folds) in [
            ("She", true),
            ("SHE", true),
            ("Été", true),
            ("ÉTÉ", true),
            ("Shed", false),
            ("ete", false),
        ] {
            assert_eq!(folded.holds(value), folds, "{value}");
            assert!(!exact.holds(value), "{value}");
        }
        assert!(exact.holds("été") && folded.holds("été"));
        assert!(ValueTest::Equals {
            values: Vec::new(),
            case_insensitive: false
        }
        .passes_nothing());
    }

    /// Feature values agree when they share a value (a multi-value agrees with each of its
    /// values); an absent feature agrees with nothing.
    #[test]
    fn feature_values_agree_by_a_shared_value() {
        assert!(values_agree(Some("Acc"), Some("Acc")));
        assert!(values_agree(Some("Acc,Nom"), Some("Nom")));
        assert!(values_agree(Some("Gen"), Some("Acc,Gen")));
        assert!(!values_agree(Some("Acc"), Some("Nom")));
        assert!(!values_agree(None, Some("Nom")) && !values_agree(None, None));
    }

    /// A label test reads a universal part up to its colon, a subtype after it, and an edge
    /// variable's label as bound.
    #[test]
    fn label_tests_read_the_parts_of_a_label() {
        let none = |_: EdgeVarId| None;
        let bound = |_: EdgeVarId| Some("obl:tmod");
        assert!(LabelTest::Universal("obl".into()).matches("obl:tmod", &none));
        assert!(LabelTest::Universal("obl".into()).matches("obl", &none));
        assert!(!LabelTest::Universal("ob".into()).matches("obl", &none));
        assert!(LabelTest::Subtype("tmod".into()).matches("obl:tmod", &none));
        assert!(!LabelTest::Subtype("tmod".into()).matches("tmod", &none));
        assert!(
            LabelTest::SameLabel(0).matches("obl:tmod", &bound)
                && !LabelTest::SameLabel(0).matches("obl:tmod", &none)
        );
        let not_either = LabelTest::Not(Box::new(LabelTest::Alternatives(vec![
            LabelTest::Exact("obl".into()),
            LabelTest::Any,
        ])));
        assert!(!not_either.matches("nmod", &none));
    }
}
