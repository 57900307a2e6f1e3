//! Per-phenomenon breakdown of enhanced edges, after the classes of the IWPT 2021 overview.
//!
//! Every enhanced edge of gold and of system is classified against the *gold* basic tree, on the
//! uncollapsed graph (empty nodes included), so a system edge and the gold edge it matches always
//! fall in the same class. Basic edges absent from an enhanced graph are classified too (O, W,
//! M). The tests are applied in a fixed order, the first that holds wins; `docs/phenomena.md`
//! describes each one.

use super::collapse::universal;
use super::report::{Phenomenon, PhenomenonScores};
use crate::conllu::sentence::DEPREL;
use crate::conllu::{NodeId, Sentence};

/// Adds one sentence pair (words aligned 1:1, already checked).
///
/// Within a class, gold and system items are matched as multisets of (dependent, head,
/// label); for missing basic edges the label is the basic DEPREL.
pub fn add_sentence(scores: &mut PhenomenonScores, gold: &Sentence, system: &Sentence) {
    let tree = BasicTree::new(gold);
    let mut gold_items = tree.items(gold);
    let mut system_items = tree.items(system);
    count_and_match(scores, &mut gold_items, &mut system_items);
}

/// Counts gold and system items per class, and their multiset intersection as correct.
fn count_and_match(
    scores: &mut PhenomenonScores,
    gold_items: &mut [Item],
    system_items: &mut [Item],
) {
    gold_items.sort_unstable();
    system_items.sort_unstable();
    for item in gold_items.iter() {
        scores.get_mut(item.0).gold += 1;
    }
    for item in system_items.iter() {
        scores.get_mut(item.0).system += 1;
    }
    // Multiset intersection of two sorted lists.
    let (mut i, mut j) = (0, 0);
    while i < gold_items.len() && j < system_items.len() {
        match gold_items[i].cmp(&system_items[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                scores.get_mut(gold_items[i].0).correct += 1;
                i += 1;
                j += 1;
            }
        }
    }
}

/// A system enhanced edge into an aligned word, in the gold sentence's numbering.
#[derive(Copy, Clone, Debug)]
pub(crate) struct MappedEdge<'a> {
    /// The gold word the system dependent is aligned to.
    pub dep: u32,
    /// The gold node its head stands for (the root, or the gold word aligned to the head), or
    /// `None` when there is none in this gold sentence (an unaligned head, one in another gold
    /// sentence, or an empty node).
    pub head: Option<NodeId>,
    pub head_is_empty: bool,
    pub label: &'a str,
}

/// Adds a gold sentence and the system edges into its words through the alignment (for
/// tokenization or segmentation that differ). System edges are classified against the gold
/// tree as in [`add_sentence`]; one without a gold head is a system item that matches nothing
/// (class G if its head is an empty node, else E). A missing basic edge counts on the system
/// side only for gold words with an aligned system word.
pub(crate) fn add_mapped(
    scores: &mut PhenomenonScores,
    gold: &Sentence,
    edges: &[MappedEdge],
    aligned: &[bool],
) {
    let tree = BasicTree::new(gold);
    let mut gold_items = tree.items(gold);
    // A head no gold node has: matches nothing.
    let nowhere = NodeId::word(u32::MAX);
    let mut system_items: Vec<Item> = edges
        .iter()
        .map(|e| {
            let dep = NodeId::word(e.dep);
            match e.head {
                Some(head) => (tree.classify_edge(dep, head, e.label), dep, head, e.label),
                None if e.head_is_empty => (Phenomenon::EmptyNode, dep, nowhere, e.label),
                None => (Phenomenon::Other, dep, nowhere, e.label),
            }
        })
        .collect();
    for d in 1..=tree.len() {
        if !aligned.get(d as usize).copied().unwrap_or(false) {
            continue;
        }
        let basic_head = NodeId::word(tree.head(d));
        let into = || edges.iter().filter(move |e| e.dep == d);
        if into().any(|e| e.head == Some(basic_head)) {
            continue;
        }
        let class = if into().any(|e| e.head_is_empty) {
            Phenomenon::ReplacedByEmptyNode
        } else if into().any(|e| universal(e.label) == "ref") {
            Phenomenon::ReplacedByRef
        } else {
            Phenomenon::Missing
        };
        system_items.push((class, NodeId::word(d), basic_head, tree.deprel[d as usize]));
    }
    count_and_match(scores, &mut gold_items, &mut system_items);
}

/// Adds a system edge that cannot be matched (its dependent is not aligned to a gold word).
pub(crate) fn add_unmatched_system(scores: &mut PhenomenonScores, touches_empty_node: bool) {
    let class = if touches_empty_node {
        Phenomenon::EmptyNode
    } else {
        Phenomenon::Other
    };
    scores.get_mut(class).system += 1;
}

/// (class, dependent, head, label) of a classified edge.
type Item<'a> = (Phenomenon, NodeId, NodeId, &'a str);

/// The gold basic tree, with what the tests need precomputed. Index 0 is the root.
pub struct BasicTree<'s> {
    head: Vec<u32>,
    deprel: Vec<&'s str>,
    /// First conjunct of each word's coordination: climb `conj` edges (itself if not a conjunct).
    coordination_root: Vec<u32>,
}

impl<'s> BasicTree<'s> {
    pub fn new(gold: &'s Sentence) -> BasicTree<'s> {
        let n = gold.len();
        let mut head = Vec::with_capacity(n + 1);
        let mut deprel = Vec::with_capacity(n + 1);
        head.push(0);
        deprel.push("");
        for word in &gold.words {
            head.push(word.head);
            deprel.push(gold.column(word, DEPREL));
        }
        let mut tree = BasicTree {
            head,
            deprel,
            coordination_root: Vec::new(),
        };
        tree.coordination_root = (0..=n as u32)
            .map(|w| {
                let mut x = w;
                while x != 0 && tree.is_conj(x) && tree.head[x as usize] != 0 {
                    x = tree.head[x as usize];
                }
                x
            })
            .collect();
        tree
    }

    fn len(&self) -> u32 {
        self.head.len() as u32 - 1
    }

    fn head(&self, w: u32) -> u32 {
        self.head[w as usize]
    }

    fn is_conj(&self, w: u32) -> bool {
        universal(self.deprel[w as usize]) == "conj"
    }

    /// `d`, then the words `d` is (transitively) a conjunct of, up to its coordination's first
    /// conjunct.
    fn conjunct_chain(&self, d: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(d), move |&x| {
            (x != 0 && self.is_conj(x))
                .then(|| self.head(x))
                .filter(|&p| p != 0)
        })
    }

    /// A clause attached to a nominal it may point back to: any `acl` (Latvian marks relative
    /// clauses as plain `acl`, and other adnominal clauses get no edge back), or any relation
    /// subtyped `relcl` (English `advcl:relcl`).
    fn is_relative_clause(&self, w: u32) -> bool {
        let label = self.deprel[w as usize];
        universal(label) == "acl" || label.split(':').skip(1).any(|part| part == "relcl")
    }

    /// Whether `a` is `w` or one of its basic ancestors (the tree was checked to be acyclic).
    fn dominates(&self, a: u32, w: u32) -> bool {
        let mut x = w;
        loop {
            if x == a {
                return true;
            }
            if x == 0 {
                return false;
            }
            x = self.head(x);
        }
    }

    /// The class of the enhanced edge `head → dep` labelled `label`. The order of the tests is
    /// the documented precedence.
    pub fn classify_edge(&self, dep: NodeId, head: NodeId, label: &str) -> Phenomenon {
        if dep.is_empty_node() || head.is_empty_node() {
            return Phenomenon::EmptyNode;
        }
        let (d, h) = (dep.word, head.word);
        if d == 0 || d > self.len() || h > self.len() {
            return Phenomenon::Other; // Not a node of the gold tree: only in malformed input.
        }
        let basic_label = self.deprel[d as usize];
        if self.head(d) == h {
            return if label == basic_label {
                Phenomenon::Basic
            } else if label.len() > basic_label.len() + 1
                && label.starts_with(basic_label)
                && label.as_bytes()[basic_label.len()] == b':'
            {
                Phenomenon::CaseLabel
            } else {
                Phenomenon::Relabelled
            };
        }
        let relation = universal(label);
        if relation == "ref" {
            return Phenomenon::RelativeClause;
        }
        // P: `d` is a conjunct (transitively) of some `x` whose basic head is `h`.
        let mut x = d;
        while x != 0 && self.is_conj(x) {
            x = self.head(x);
            if x != 0 && self.head(x) == h {
                return Phenomenon::PropagatedParent;
            }
        }
        // S: `d` (or the coordination `d` is a non-first conjunct of) depends on another member
        // of `h`'s coordination.
        if h != 0 {
            let shared = self.conjunct_chain(d).any(|a| {
                let p = self.head(a);
                p != 0
                    && p != h
                    && self.coordination_root[p as usize] == self.coordination_root[h as usize]
            });
            if shared {
                return Phenomenon::SharedDependent;
            }
        }
        // X: a subject from outside an xcomp (or a conjunct of one) given to it.
        if h != 0 && matches!(relation, "nsubj" | "csubj") {
            let clause = self.coordination_root[h as usize];
            if universal(self.deprel[clause as usize]) == "xcomp" && !self.dominates(clause, d) {
                return Phenomenon::ControlledSubject;
            }
        }
        // R: from inside a relative clause up to the nominal it modifies (or a conjunct of that
        // nominal, the edge then being propagated too).
        let mut r = h;
        while r != 0 {
            if self.is_relative_clause(r) && self.conjunct_chain(d).any(|a| a == self.head(r)) {
                return Phenomenon::RelativeClause;
            }
            r = self.head(r);
        }
        Phenomenon::Other
    }

    /// The class of basic edge `head(d) → d` in the enhanced graph of `graph` (a sentence with
    /// the same words as the gold one), or `None` when some edge `head(d) → d` is present there
    /// under any label (a changed label is an added-edge class, C or L).
    pub fn classify_missing(&self, graph: &Sentence, d: u32) -> Option<Phenomenon> {
        let word = graph.words.get(d as usize - 1)?;
        let basic_head = NodeId::word(self.head(d));
        let (mut from_empty, mut has_ref) = (false, false);
        for (head, label) in graph.deps(word) {
            if head == basic_head {
                return None;
            }
            from_empty |= head.is_empty_node();
            has_ref |= universal(label) == "ref";
        }
        Some(if from_empty {
            Phenomenon::ReplacedByEmptyNode
        } else if has_ref {
            Phenomenon::ReplacedByRef
        } else {
            Phenomenon::Missing
        })
    }

    /// Every enhanced edge of `graph`, classified, then every gold basic edge missing from it.
    fn items<'g>(&self, graph: &'g Sentence) -> Vec<Item<'g>>
    where
        's: 'g,
    {
        let mut items = Vec::new();
        for token in graph.tokens_in_order() {
            for (head, label) in graph.deps(token) {
                items.push((
                    self.classify_edge(token.id, head, label),
                    token.id,
                    head,
                    label,
                ));
            }
        }
        for d in 1..=self.len().min(graph.len() as u32) {
            if let Some(class) = self.classify_missing(graph, d) {
                items.push((
                    class,
                    NodeId::word(d),
                    NodeId::word(self.head(d)),
                    self.deprel[d as usize],
                ));
            }
        }
        items
    }
}

#[cfg(test)]
mod tests {
    use super::Phenomenon::*;
    use super::*;
    use crate::eval::test_util::sentence;
    use crate::eval::Score;

    /// Classes of the edges into word (or empty node) `dep`, in DEPS order.
    fn classes(s: &Sentence, dep: &str) -> Vec<Phenomenon> {
        let tree = BasicTree::new(s);
        let id = NodeId::parse(dep).unwrap();
        let token = s.tokens_in_order().find(|t| t.id == id).unwrap();
        s.deps(token)
            .map(|(h, l)| tree.classify_edge(id, h, l))
            .collect()
    }

    fn missing(s: &Sentence, d: u32) -> Option<Phenomenon> {
        BasicTree::new(s).classify_missing(s, d)
    }

    #[test]
    fn basic_case_label_and_relabelled() {
        // He came from home: obl → obl:from is C, nmod:poss kept is B, nsubj → obj is L.
        let s = sentence(&[
            ("1", "2", "nsubj", "2:obj"),
            ("2", "0", "root", "0:root"),
            ("3", "4", "case", "4:case"),
            ("4", "2", "obl", "2:obl:from"),
            ("5", "4", "nmod:poss", "4:nmod:poss"),
        ]);
        assert_eq!(classes(&s, "1"), [Relabelled]);
        assert_eq!(classes(&s, "2"), [Basic]);
        assert_eq!(classes(&s, "4"), [CaseLabel]);
        assert_eq!(classes(&s, "5"), [Basic]);
        // Not an extension: `obl` is not `obl:…` of `obl:tmod`; `nmod:possx` does not extend `nmod:poss`.
        let s = sentence(&[
            ("1", "2", "obl:tmod", "2:obl"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "nmod:poss", "2:nmod:possx"),
        ]);
        assert_eq!(classes(&s, "1"), [Relabelled]);
        assert_eq!(classes(&s, "3"), [Relabelled]);
    }

    #[test]
    fn propagated_parent_and_shared_dependent() {
        // Mary(1) sang(2) and(3) danced(4) and(5) laughed(6).
        let s = sentence(&[
            ("1", "2", "nsubj", "2:nsubj|4:nsubj|6:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "4", "cc", "4:cc"),
            ("4", "2", "conj", "2:conj:and|0:root"),
            ("5", "6", "cc", "6:cc"),
            ("6", "4", "conj", "4:conj:and|0:root"),
        ]);
        assert_eq!(classes(&s, "1"), [Basic, SharedDependent, SharedDependent]);
        // 6 is a conjunct of 4, itself a conjunct of 2 whose head is the root: P transitively.
        assert_eq!(classes(&s, "4"), [CaseLabel, PropagatedParent]);
        assert_eq!(classes(&s, "6"), [CaseLabel, PropagatedParent]);
        // A noun coordination under a verb: saw(2) cats(3) and(4) dogs(5).
        let s = sentence(&[
            ("1", "2", "nsubj", "2:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "obj", "2:obj"),
            ("4", "5", "cc", "5:cc"),
            ("5", "3", "conj", "3:conj:and|2:obj"),
        ]);
        assert_eq!(classes(&s, "5"), [CaseLabel, PropagatedParent]);
    }

    #[test]
    fn coordinated_dependents_shared_and_relative_clauses_on_conjuncts() {
        // improve(1) and(2) extend(3) cooperation(4) and(5) trade(6): 4 and 6 are shared by 1.
        let s = sentence(&[
            ("1", "0", "root", "0:root"),
            ("2", "3", "cc", "3:cc"),
            ("3", "1", "conj", "1:conj:and"),
            ("4", "3", "obj", "3:obj|1:obj"),
            ("5", "6", "cc", "6:cc"),
            ("6", "4", "conj", "4:conj:and|3:obj|1:obj"),
        ]);
        assert_eq!(classes(&s, "4"), [Basic, SharedDependent]);
        assert_eq!(
            classes(&s, "6"),
            [CaseLabel, PropagatedParent, SharedDependent]
        );
        // a(1) town(2) and(3) village(4) where(5) it(6) lies(7): `advcl:relcl` on a conjunct.
        let s = sentence(&[
            ("1", "2", "det", "2:det"),
            ("2", "0", "root", "0:root|7:obl"),
            ("3", "4", "cc", "4:cc"),
            ("4", "2", "conj", "2:conj:and|7:obl"),
            ("5", "7", "advmod", "2:ref"),
            ("6", "7", "nsubj", "7:nsubj"),
            ("7", "2", "advcl:relcl", "2:advcl:relcl"),
        ]);
        assert_eq!(classes(&s, "2"), [Basic, RelativeClause]);
        assert_eq!(classes(&s, "4"), [CaseLabel, RelativeClause]);
    }

    #[test]
    fn controlled_subject() {
        // I(1) persuaded(2) him(3) to(4) go(5) and(6) stay(7); 5 is xcomp, 7 its conjunct.
        let s = sentence(&[
            ("1", "2", "nsubj", "2:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "obj", "2:obj|5:nsubj:xsubj|7:nsubj:xsubj"),
            ("4", "5", "mark", "5:mark"),
            ("5", "2", "xcomp", "2:xcomp"),
            ("6", "7", "cc", "7:cc"),
            ("7", "5", "conj", "5:conj:and|2:xcomp"),
        ]);
        assert_eq!(
            classes(&s, "3"),
            [Basic, ControlledSubject, ControlledSubject]
        );
        // A subject label on an edge from a non-xcomp clause is not X.
        let s = sentence(&[
            ("1", "2", "nsubj", "2:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "advcl", "3:nsubj"),
        ]);
        let tree = BasicTree::new(&s);
        assert_eq!(
            tree.classify_edge(NodeId::word(1), NodeId::word(3), "nsubj"),
            Other
        );
    }

    #[test]
    fn relative_clause_ref_and_replaced_relative_pronoun() {
        // the(1) man(2) who(3) came(4) left(5): `who` loses nsubj, gains ref; came → man nsubj.
        let s = sentence(&[
            ("1", "2", "det", "2:det"),
            ("2", "5", "nsubj", "4:nsubj|5:nsubj"),
            ("3", "4", "nsubj", "2:ref"),
            ("4", "2", "acl:relcl", "2:acl:relcl"),
            ("5", "0", "root", "0:root"),
        ]);
        assert_eq!(classes(&s, "2"), [RelativeClause, Basic]);
        assert_eq!(classes(&s, "3"), [RelativeClause]);
        assert_eq!(missing(&s, 3), Some(ReplacedByRef));
        assert_eq!(missing(&s, 2), None);
        // Deeper in the clause: the(1) house(2) I(3) live(4) in(5): live → house obl.
        let s = sentence(&[
            ("1", "2", "det", "2:det"),
            ("2", "0", "root", "0:root|4:obl:in"),
            ("3", "4", "nsubj", "4:nsubj"),
            ("4", "2", "acl:relcl", "2:acl:relcl"),
            ("5", "2", "case", "2:case"),
        ]);
        assert_eq!(classes(&s, "2"), [Basic, RelativeClause]);
    }

    #[test]
    fn empty_nodes_and_edges_they_replace() {
        // Mary(1) won(2) gold(3) and(4) Peter(5) bronze(6); 5 and 6 hang from the elided verb 5.1.
        let s = sentence(&[
            ("1", "2", "nsubj", "2:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "obj", "2:obj"),
            ("4", "5", "cc", "5.1:cc"),
            ("5", "2", "conj", "5.1:nsubj"),
            ("5.1", "_", "_", "2:conj:and"),
            ("6", "5", "orphan", "5.1:obj"),
        ]);
        assert_eq!(classes(&s, "5"), [EmptyNode]);
        assert_eq!(classes(&s, "5.1"), [EmptyNode]);
        assert_eq!(missing(&s, 5), Some(ReplacedByEmptyNode));
        assert_eq!(missing(&s, 6), Some(ReplacedByEmptyNode));
        assert_eq!(missing(&s, 4), Some(ReplacedByEmptyNode));
        assert_eq!(missing(&s, 1), None);
    }

    #[test]
    fn other_added_edges_and_plainly_missing_edges() {
        let s = sentence(&[
            ("1", "2", "nsubj", "3:dep"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "obj", "2:obj|1:dep"),
        ]);
        assert_eq!(classes(&s, "1"), [Other]);
        assert_eq!(classes(&s, "3"), [Basic, Other]);
        assert_eq!(missing(&s, 1), Some(Missing));
        // A relabelled basic edge is not missing.
        let s = sentence(&[("1", "2", "nsubj", "2:obj"), ("2", "0", "root", "_")]);
        assert_eq!(missing(&s, 1), None);
        assert_eq!(missing(&s, 2), Some(Missing));
    }

    #[test]
    fn scores_match_items_within_a_class() {
        let gold = sentence(&[
            ("1", "2", "nsubj", "2:nsubj|4:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "4", "cc", "4:cc"),
            ("4", "2", "conj", "2:conj:and"),
        ]);
        // The system misses the shared subject, mislabels the conj and drops cc's basic edge.
        let system = sentence(&[
            ("1", "2", "nsubj", "2:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "4", "cc", "_"),
            ("4", "2", "conj", "2:conj:or"),
        ]);
        let mut scores = PhenomenonScores::default();
        add_sentence(&mut scores, &gold, &system);
        assert_eq!(
            scores.get(Basic),
            Score {
                gold: 3,
                system: 2,
                correct: 2,
                aligned: 0
            }
        );
        assert_eq!(
            scores.get(SharedDependent),
            Score {
                gold: 1,
                system: 0,
                correct: 0,
                aligned: 0
            }
        );
        assert_eq!(
            scores.get(CaseLabel),
            Score {
                gold: 1,
                system: 1,
                correct: 0,
                aligned: 0
            }
        );
        assert_eq!(
            scores.get(Missing),
            Score {
                gold: 0,
                system: 1,
                correct: 0,
                aligned: 0
            }
        );
        // Identical graphs score 100 in every class that occurs.
        let mut same = PhenomenonScores::default();
        add_sentence(&mut same, &gold, &gold);
        for (_, score) in same.iter() {
            assert_eq!(score.gold, score.correct);
            assert_eq!(score.system, score.correct);
        }
    }
}
