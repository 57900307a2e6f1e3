//! Relation filters: what an edge's label test says about its [`relation_code`] (universal
//! relation, and whether the label has a subtype), read once when a rule is lowered. A byte
//! test on the code decides most candidate edges before, and mostly instead of, the label
//! test; anchors and plans read the relations a test can pass from the same filter.

use super::pattern::LabelTest;
use crate::graph::{relation_bit, relation_code, relation_index, SUBTYPED};

/// A quick test on an edge's [`relation_code`] (universal relation, and whether the label has a
/// subtype) that runs before, and mostly instead of, the label test itself.
///
/// Sets of relations (bits) are kept apart for labels without a subtype (index 0: `case`) and
/// with one (index 1: `obl:tmod`): `possible` where a label of that kind may pass, `sure`
/// where every such label passes. Between the two, the label's text decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RelationFilter {
    pub possible: [u64; 2],
    pub sure: [u64; 2],
}

impl RelationFilter {
    pub const ANY: RelationFilter = RelationFilter {
        possible: [u64::MAX; 2],
        sure: [u64::MAX; 2],
    };
    const NONE: RelationFilter = RelationFilter {
        possible: [0; 2],
        sure: [0; 2],
    };
    /// Only the text can tell.
    const UNSURE: RelationFilter = RelationFilter {
        possible: [u64::MAX; 2],
        sure: [0; 2],
    };

    pub fn of(test: &LabelTest) -> RelationFilter {
        let known = |univ: &str| relation_index(univ) != crate::graph::OTHER_RELATION;
        match test {
            LabelTest::Any => RelationFilter::ANY,
            LabelTest::Exact(label) => {
                let code = relation_code(label);
                let bit = 1u64 << (code & !SUBTYPED);
                if code & SUBTYPED != 0 {
                    RelationFilter {
                        possible: [0, bit],
                        sure: [0, 0],
                    }
                } else {
                    // A known bare relation is one exact label; an unknown one shares its code.
                    RelationFilter {
                        possible: [bit, 0],
                        sure: [if known(label) { bit } else { 0 }, 0],
                    }
                }
            }
            LabelTest::Universal(univ) => {
                let bit = relation_bit(univ);
                let sure = if known(univ) { bit } else { 0 };
                RelationFilter {
                    possible: [bit, bit],
                    sure: [sure, sure],
                }
            }
            // A subtype needs a `:`.
            LabelTest::Subtype(_) => RelationFilter {
                possible: [0, u64::MAX],
                sure: [0, 0],
            },
            LabelTest::Alternatives(options) => {
                options
                    .iter()
                    .map(RelationFilter::of)
                    .fold(RelationFilter::NONE, |a, f| RelationFilter {
                        possible: [a.possible[0] | f.possible[0], a.possible[1] | f.possible[1]],
                        sure: [a.sure[0] | f.sure[0], a.sure[1] | f.sure[1]],
                    })
            }
            LabelTest::Not(inner) => {
                let f = RelationFilter::of(inner);
                RelationFilter {
                    possible: [!f.sure[0], !f.sure[1]],
                    sure: [!f.possible[0], !f.possible[1]],
                }
            }
            LabelTest::Regex(regex) => regex
                .literal_prefix()
                .map_or(RelationFilter::UNSURE, |(prefix, whole)| {
                    RelationFilter::of_prefix(&prefix, whole)
                }),
            LabelTest::SameLabel(_) => RelationFilter::UNSURE,
        }
    }

    /// The filter of a regex that asks a label to start with `prefix` (`/^conj:/`); `whole`:
    /// the prefix is all it asks. A prefix up to a `:` names the universal part of a
    /// subtyped label (`conj:`, the subtyped conj labels only); a shorter one, the relations
    /// whose names start with it, and any label not made of a UD relation.
    fn of_prefix(prefix: &str, whole: bool) -> RelationFilter {
        let other = 1u64 << crate::graph::OTHER_RELATION;
        if let Some(colon) = prefix.find(':') {
            let univ = &prefix[..colon];
            let bit = relation_bit(univ);
            // Every label `univ:...` of a known `univ` starts with `univ:`.
            let sure = if whole && colon + 1 == prefix.len() && bit != other {
                bit
            } else {
                0
            };
            return RelationFilter {
                possible: [0, bit],
                sure: [0, sure],
            };
        }
        let named = crate::graph::RELATIONS
            .iter()
            .filter(|r| r.starts_with(prefix))
            .fold(0u64, |bits, r| bits | relation_bit(r));
        let sure = if whole { named & !other } else { 0 };
        RelationFilter {
            possible: [named | other; 2],
            sure: [sure; 2],
        }
    }

    /// Relations a matching label can have, with or without a subtype.
    pub fn allowed(self) -> u64 {
        self.possible[0] | self.possible[1]
    }

    /// Whether a label with this [`relation_code`] can pass.
    pub fn admits(self, code: u8) -> bool {
        self.possible[usize::from(code & SUBTYPED != 0)] & (1u64 << (code & !SUBTYPED)) != 0
    }

    /// Whether every label with this code passes (the code is admitted): no text to compare.
    pub fn is_sure(self, code: u8) -> bool {
        self.sure[usize::from(code & SUBTYPED != 0)] & (1u64 << (code & !SUBTYPED)) != 0
    }

    /// Whether a label passes, the text compared only when the code cannot tell.
    pub fn passes(self, code: u8, text: impl FnOnce() -> bool) -> bool {
        self.admits(code) && (self.is_sure(code) || text())
    }
}

/// The relations a label test can accept (all when it does not narrow them).
pub fn label_relations(test: &LabelTest) -> u64 {
    RelationFilter::of(test).allowed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::text_regex::TextRegex;
    use LabelTest::*;

    /// The relation filter never rejects a label the test accepts, and when it says it
    /// decides, it accepts exactly the labels the test accepts.
    #[test]
    fn relation_filters_agree_with_label_tests() {
        let labels = [
            "case",
            "case:x",
            "obl",
            "obl:tmod",
            "obl:arg",
            "obl:arg:x",
            "conj",
            "conj:and",
            "root",
            "ref",
            "nsubj",
            "nsubj:pass",
            "nsubj:xsubj",
            "foo",
            "foo:bar",
            "bar",
            "conj:and",
            "conj:x:y",
            "nsubjx",
            "nsubjx:y",
            "nmod",
            ":x",
        ];
        let exact = |l: &str| Exact(l.to_string());
        let universal = |l: &str| Universal(l.to_string());
        let mut tests: Vec<LabelTest> = labels.iter().map(|l| exact(l)).collect();
        tests.extend(["obl", "nsubj", "foo", "case"].map(universal));
        tests.extend([
            Any,
            Subtype("pass".into()),
            Regex(TextRegex::new("^n").unwrap()),
            Regex(TextRegex::new("^conj:").unwrap()),
            Regex(TextRegex::new("^conj:a").unwrap()),
            Regex(TextRegex::new("^nsubj").unwrap()),
            Regex(TextRegex::new("^nsubj:").unwrap()),
            Regex(TextRegex::new("^obl:[^:]*_").unwrap()),
            Regex(TextRegex::new("^foo:").unwrap()),
            Regex(TextRegex::new("^:").unwrap()),
            Regex(TextRegex::new("^(?i)conj:").unwrap()),
            Regex(TextRegex::new("^co|^ns").unwrap()),
            Not(Box::new(Regex(TextRegex::new("^conj:").unwrap()))),
            Not(Box::new(Regex(TextRegex::new("^nsubj").unwrap()))),
            Alternatives(vec![exact("obl"), exact("nmod"), exact("obl:arg")]),
            Alternatives(vec![universal("conj"), exact("case")]),
            Not(Box::new(exact("root"))),
            Not(Box::new(exact("obl:arg"))),
            Not(Box::new(Alternatives(vec![
                exact("root"),
                universal("conj"),
                exact("punct"),
                exact("ref"),
            ]))),
            Not(Box::new(Alternatives(vec![
                exact("mark"),
                exact("obl:arg"),
            ]))),
            Not(Box::new(Subtype("pass".into()))),
            Not(Box::new(Not(Box::new(Alternatives(vec![
                exact("case"),
                exact("foo"),
            ]))))),
        ]);
        let mut decided = 0;
        for test in &tests {
            let filter = RelationFilter::of(test);
            for label in labels {
                let matches = test.matches(label, &|_| None);
                let admits = filter.admits(relation_code(label));
                assert!(
                    admits || !matches,
                    "{test:?} matches {label} but the filter rejects it"
                );
                if filter.is_sure(relation_code(label)) && admits {
                    decided += 1;
                    assert!(
                        matches,
                        "{test:?} rejects {label} but the filter is sure it matches"
                    );
                }
            }
        }
        assert!(decided > 50, "the filters decide too little: {decided}");
    }
}
