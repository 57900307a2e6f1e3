//! What changed between two versions of a [`View`] (`eudify view --serve` shows it after each
//! edit): per sentence the enhanced edges gained and lost, per rule how many it gained and
//! lost, and with gold ELAS before and after. It compares the results, not the files: an edit
//! anywhere (a rule, a profile, a lexicon, the input) is seen through the edges it changes.

use super::view::{GoldStatus, View, ViewEdge, ViewSentence};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What changed from one version of a view to the next ([`ViewChanges::between`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ViewChanges {
    /// Enhanced edges the new version has and the old one lacks, in all sentences.
    pub gained: usize,
    /// Enhanced edges the old version had and the new one lacks.
    pub lost: usize,
    /// Each sentence whose edges changed, in the new version's order.
    pub sentences: Vec<SentenceChanges>,
    /// Per rule that made a gained edge or had made a lost one (`None`: the basic copy), most
    /// changes first.
    pub by_rule: Vec<RuleChanges>,
    /// ELAS (F1, percent) of the whole file before and after, when each version has gold.
    pub elas_before: Option<f64>,
    #[allow(missing_docs)]
    pub elas_after: Option<f64>,
    /// Sentences only the new version has, and only the old one had (the input was edited).
    pub sentences_added: usize,
    #[allow(missing_docs)]
    pub sentences_removed: usize,
}

/// The edges of one sentence that changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SentenceChanges {
    /// The sentence's index in the new version, from 0.
    pub index: usize,
    /// Its `# sent_id`, if it has one.
    pub sent_id: Option<String>,
    /// Its edges gained and lost, sorted by dependent, head and label as DEPS is.
    pub gained: Vec<ChangedEdge>,
    #[allow(missing_docs)]
    pub lost: Vec<ChangedEdge>,
}

/// An enhanced edge gained or lost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChangedEdge {
    /// The head's id (`0`: the root), the dependent's id and the label.
    pub head: String,
    #[allow(missing_docs)]
    pub dep: String,
    #[allow(missing_docs)]
    pub label: String,
    /// The rule that made it, in the version that has it (`None`: the basic copy, or no rules
    /// ran).
    pub rule: Option<String>,
    /// Whether gold has it, when its version has gold.
    pub gold: Option<bool>,
}

/// How many edges one rule gained and lost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RuleChanges {
    /// The rule's name; `None`: the basic copy.
    pub rule: Option<String>,
    #[allow(missing_docs)]
    pub gained: usize,
    #[allow(missing_docs)]
    pub lost: usize,
    /// Of those, the edges gold has (an edge gained that gold has is a fix, one lost a new
    /// error), when both versions have gold.
    pub gained_correct: Option<usize>,
    #[allow(missing_docs)]
    pub lost_correct: Option<usize>,
}

impl ViewChanges {
    /// What changed from `before` to `after`. Sentences are paired by `# sent_id` (the n-th
    /// sentence of an id with the n-th of that id), and by position when they have none, so an
    /// edited input pairs what it still has.
    pub fn between(before: &View, after: &View) -> ViewChanges {
        let graded = before.scores.is_some() && after.scores.is_some();
        let mut changes = ViewChanges {
            elas_before: before.scores.as_ref().map(|s| s.elas.f1),
            elas_after: after.scores.as_ref().map(|s| s.elas.f1),
            ..ViewChanges::default()
        };
        let mut old_sentences: HashMap<SentenceKey, &ViewSentence> =
            keyed(&before.sentences).collect();
        let mut by_rule: BTreeMap<Option<String>, RuleChanges> = BTreeMap::new();
        for (key, sentence) in keyed(&after.sentences) {
            let Some(old) = old_sentences.remove(&key) else {
                changes.sentences_added += 1;
                continue;
            };
            let gained = edges_only_in(sentence, old, after);
            let lost = edges_only_in(old, sentence, before);
            if gained.is_empty() && lost.is_empty() {
                continue;
            }
            for (edge, lost_side) in gained
                .iter()
                .map(|e| (e, false))
                .chain(lost.iter().map(|e| (e, true)))
            {
                let row = by_rule
                    .entry(edge.rule.clone())
                    .or_insert_with(|| RuleChanges {
                        rule: edge.rule.clone(),
                        gained_correct: graded.then_some(0),
                        lost_correct: graded.then_some(0),
                        ..RuleChanges::default()
                    });
                let (count, correct) = match lost_side {
                    false => (&mut row.gained, &mut row.gained_correct),
                    true => (&mut row.lost, &mut row.lost_correct),
                };
                *count += 1;
                if let (Some(correct), Some(true)) = (correct, edge.gold) {
                    *correct += 1;
                }
            }
            changes.gained += gained.len();
            changes.lost += lost.len();
            changes.sentences.push(SentenceChanges {
                index: key.index,
                sent_id: sentence.sent_id.clone(),
                gained,
                lost,
            });
        }
        changes.sentences_removed = old_sentences.len();
        changes.by_rule = by_rule.into_values().collect();
        changes
            .by_rule
            .sort_by_key(|r| std::cmp::Reverse(r.gained + r.lost));
        changes
    }

    /// Whether no edge and no sentence changed.
    pub fn is_empty(&self) -> bool {
        self.sentences.is_empty() && self.sentences_added == 0 && self.sentences_removed == 0
    }
}

/// A sentence's place for pairing: its `sent_id` and how many sentences before it had that id,
/// or its position when it has none. `index` (its position) is not part of the key.
#[derive(Debug)]
struct SentenceKey {
    sent_id: Option<String>,
    nth: usize,
    index: usize,
}

impl PartialEq for SentenceKey {
    fn eq(&self, other: &Self) -> bool {
        (&self.sent_id, self.nth) == (&other.sent_id, other.nth)
    }
}

impl Eq for SentenceKey {}

impl std::hash::Hash for SentenceKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.sent_id, self.nth).hash(state);
    }
}

fn keyed(sentences: &[ViewSentence]) -> impl Iterator<Item = (SentenceKey, &ViewSentence)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    sentences.iter().enumerate().map(move |(index, sentence)| {
        let nth = match &sentence.sent_id {
            Some(id) => {
                let n = seen.entry(id.as_str()).or_default();
                *n += 1;
                *n
            }
            None => index,
        };
        let key = SentenceKey {
            sent_id: sentence.sent_id.clone(),
            nth,
            index,
        };
        (key, sentence)
    })
}

/// The enhanced edges of `sentence` that `other` lacks, with the rule of `view` that made each.
fn edges_only_in(sentence: &ViewSentence, other: &ViewSentence, view: &View) -> Vec<ChangedEdge> {
    let key = |e: &ViewEdge| (e.head.clone(), e.dep.clone(), e.label.clone());
    let others: HashSet<_> = other.enhanced.iter().map(key).collect();
    sentence
        .enhanced
        .iter()
        .filter(|e| !others.contains(&key(e)))
        .map(|e| ChangedEdge {
            head: e.head.clone(),
            dep: e.dep.clone(),
            label: e.label.clone(),
            rule: e
                .rule
                .and_then(|r| view.rules.get(r))
                .map(|r| r.name.clone()),
            gold: e.gold.map(|g| g == GoldStatus::Correct),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::view::{GoldScores, ScoreRow, ViewRule};
    use super::*;

    fn edge(
        head: &str,
        dep: &str,
        label: &str,
        rule: Option<usize>,
        gold: Option<GoldStatus>,
    ) -> ViewEdge {
        ViewEdge {
            head: head.into(),
            dep: dep.into(),
            label: label.into(),
            rule,
            gold,
            ..ViewEdge::default()
        }
    }

    fn sentence(sent_id: Option<&str>, enhanced: Vec<ViewEdge>) -> ViewSentence {
        ViewSentence {
            sent_id: sent_id.map(str::to_string),
            enhanced,
            ..ViewSentence::default()
        }
    }

    fn rule(name: &str) -> ViewRule {
        ViewRule {
            name: name.into(),
            ..ViewRule::default()
        }
    }

    fn scored(f1: f64) -> Option<GoldScores> {
        Some(GoldScores {
            elas: ScoreRow {
                f1,
                ..ScoreRow::default()
            },
            ..GoldScores::default()
        })
    }

    #[test]
    fn a_relabelled_edge_is_one_gained_and_one_lost_under_their_rules() {
        use GoldStatus::*;
        let before = View {
            sentences: vec![
                sentence(
                    Some("a"),
                    vec![
                        edge("0", "1", "root", None, Some(Correct)),
                        edge("1", "2", "obl", None, Some(Wrong)),
                    ],
                ),
                sentence(Some("b"), vec![edge("0", "1", "root", None, Some(Correct))]),
            ],
            scores: scored(50.0),
            ..View::default()
        };
        let after = View {
            sentences: vec![
                sentence(
                    Some("a"),
                    vec![
                        edge("0", "1", "root", None, Some(Correct)),
                        edge("1", "2", "obl:in", Some(0), Some(Correct)),
                    ],
                ),
                sentence(Some("b"), vec![edge("0", "1", "root", None, Some(Correct))]),
            ],
            rules: vec![rule("case_label")],
            scores: scored(100.0),
            ..View::default()
        };
        let changes = ViewChanges::between(&before, &after);
        assert_eq!((changes.gained, changes.lost), (1, 1));
        assert_eq!(
            (changes.elas_before, changes.elas_after),
            (Some(50.0), Some(100.0))
        );
        assert_eq!(changes.sentences.len(), 1);
        let a = &changes.sentences[0];
        assert_eq!((a.index, a.sent_id.as_deref()), (0, Some("a")));
        assert_eq!(a.gained[0].label, "obl:in");
        assert_eq!(
            (a.gained[0].rule.as_deref(), a.gained[0].gold),
            (Some("case_label"), Some(true))
        );
        assert_eq!(
            (a.lost[0].label.as_str(), a.lost[0].rule.as_deref()),
            ("obl", None)
        );
        let rules: Vec<_> = changes
            .by_rule
            .iter()
            .map(|r| {
                (
                    r.rule.as_deref(),
                    r.gained,
                    r.lost,
                    r.gained_correct,
                    r.lost_correct,
                )
            })
            .collect();
        assert_eq!(
            rules,
            [
                (None, 0, 1, Some(0), Some(0)),
                (Some("case_label"), 1, 0, Some(1), Some(0))
            ]
        );
        assert!(ViewChanges::between(&after, &after).is_empty());
    }

    #[test]
    fn sentences_pair_by_id_so_an_edited_input_compares_what_it_still_has() {
        let root = || vec![edge("0", "1", "root", None, None)];
        let before = View {
            sentences: vec![sentence(Some("a"), root()), sentence(Some("b"), root())],
            ..View::default()
        };
        let after = View {
            sentences: vec![
                sentence(Some("new"), root()),
                sentence(Some("b"), vec![edge("0", "1", "dep", None, None)]),
            ],
            ..View::default()
        };
        let changes = ViewChanges::between(&before, &after);
        assert_eq!((changes.sentences_added, changes.sentences_removed), (1, 1));
        assert_eq!(changes.sentences.len(), 1);
        assert_eq!(
            (changes.sentences[0].index, changes.gained, changes.lost),
            (1, 1, 1)
        );
        assert_eq!(
            (changes.elas_before, changes.by_rule[0].gained_correct),
            (None, None)
        );
    }
}
