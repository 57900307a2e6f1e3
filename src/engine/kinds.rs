//! What a sentence holds, as far as anchors ask ([`super::anchor`]): [`Kinds`], read from the
//! graph in every round, and [`TreeKinds`], read from the basic tree once per sentence.

use crate::graph::{upos_bit, SentenceGraph, OTHER_RELATION, SUBTYPED};

/// What a sentence graph holds, as far as anchors ask ([`super::anchor::Anchor::admits`]): read once per round.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Kinds {
    /// Universal relations of the basic tree (bits as in [`relation_bit`](crate::graph::relation_bit)).
    pub basic: u64,
    /// UPOS tags of the words (bits as in [`upos_bit`](crate::graph::upos_bit)).
    pub upos: u32,
    /// Universal relations the enhanced graph's edges may have (a superset of those it has).
    pub enhanced: u64,
    /// Whether the graph has empty nodes.
    pub empty: bool,
}

impl Kinds {
    pub fn of(graph: &crate::graph::SentenceGraph) -> Kinds {
        Kinds {
            basic: graph.basic_relations(),
            upos: graph.upos_tags(),
            enhanced: graph.enhanced_relations(),
            empty: graph.petgraph().node_count() > graph.word_count() as usize + 1,
        }
    }
}

/// What a sentence's basic tree holds beyond [`Kinds`], as far as anchors ask
/// ([`super::anchor::Anchor::admits_tree`]): which labels, and which relations, UPOS tags and child relations
/// come together on one word. Filled once per sentence ([`TreeKinds::fill`]) by one pass over
/// its words, in the engine (the `basic` profile does not pay for it).
#[derive(Clone, Debug)]
pub struct TreeKinds {
    /// Relations some word has with no subtype (bits as in [`relation_bit`](crate::graph::relation_bit)).
    pub(super) bare: u64,
    /// The other labels of the words (subtyped, or of no universal relation), as [`label_bit`](crate::graph::label_bit)s.
    pub(super) labels: u64,
    /// Relations of which some word has two children or more.
    pub(super) twice: u64,
    /// `upos_of[r]`: UPOS tags (bits as in [`upos_bit`](crate::graph::upos_bit)) of the words of relation `r`.
    pub(super) upos_of: [u32; 64],
    /// `children_of[r]`: relations of the children of the words of relation `r`.
    pub(super) children_of: [u64; 64],
    /// `children_of_upos[u]`: relations of the children of the words tagged `u` (the root's
    /// too, under the tag its `_` has).
    pub(super) children_of_upos: [u64; 32],
    /// `siblings_of[r]`: relations of the children of the heads of the words of relation `r`
    /// (`r` among them).
    pub(super) siblings_of: [u64; 64],
    /// Scratch space of [`TreeKinds::fill`]: relations of each word's children met so far.
    seen: Vec<u64>,
}

impl Default for TreeKinds {
    fn default() -> Self {
        TreeKinds {
            bare: 0,
            labels: 0,
            twice: 0,
            upos_of: [0; 64],
            children_of: [0; 64],
            children_of_upos: [0; 32],
            siblings_of: [0; 64],
            seen: Vec::new(),
        }
    }
}

impl TreeKinds {
    /// A tree that has everything: every anchor admits it as far as it asks the tree.
    pub fn everything() -> TreeKinds {
        TreeKinds {
            bare: u64::MAX,
            labels: u64::MAX,
            twice: u64::MAX,
            upos_of: [u32::MAX; 64],
            children_of: [u64::MAX; 64],
            children_of_upos: [u64::MAX; 32],
            siblings_of: [u64::MAX; 64],
            seen: Vec::new(),
        }
    }

    /// What `graph`'s basic tree holds.
    pub fn of(graph: &SentenceGraph) -> TreeKinds {
        let mut kinds = TreeKinds::default();
        kinds.fill(graph);
        kinds
    }

    /// Makes `self` what `graph`'s basic tree holds, reusing its buffer.
    pub fn fill(&mut self, graph: &SentenceGraph) {
        let (codes, tags, children) = (
            graph.basic_codes(),
            graph.upos_indices(),
            graph.basic_child_relation_sets(),
        );
        let (mut bare, mut labels, mut twice) = (0, 0, 0);
        self.upos_of = [0; 64];
        self.children_of = [0; 64];
        self.children_of_upos = [0; 32];
        self.siblings_of = [0; 64];
        self.seen.clear();
        self.seen.resize(codes.len() + 1, 0);
        let words = codes
            .iter()
            .zip(tags)
            .zip(&children[1..])
            .zip(&graph.sentence.words);
        for (n, (((&code, &tag), &below), word)) in (1..).zip(words) {
            // (Masked: the tables' bounds need no check.)
            let (relation, tag) = (usize::from(code & 63), usize::from(tag & 31));
            let bit = 1u64 << relation;
            if code & SUBTYPED != 0 || relation == OTHER_RELATION as usize {
                labels |= graph.basic_label_bit(n);
            } else {
                bare |= bit;
            }
            self.upos_of[relation] |= 1 << tag;
            self.children_of[relation] |= below;
            self.children_of_upos[tag] |= below;
            let head = word.head as usize;
            self.siblings_of[relation] |= children.get(head).copied().unwrap_or(0);
            if let Some(seen) = self.seen.get_mut(head) {
                twice |= *seen & bit;
                *seen |= bit;
            }
        }
        self.children_of_upos[upos_bit("_").trailing_zeros() as usize] |= children[0];
        (self.bare, self.labels, self.twice) = (bare, labels, twice);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::conllu::reader::RawBlock;
    use crate::conllu::Sentence;
    use crate::graph::{relation_bit, relation_index};

    /// A sentence from rows `FORM UPOS HEAD DEPREL` (lemma: the form).
    pub(in crate::engine) fn sentence(rows: &[&str]) -> Sentence {
        let mut text = String::new();
        for (i, row) in rows.iter().enumerate() {
            let [form, upos, head, deprel] = row.split(' ').collect::<Vec<_>>()[..] else {
                panic!("{row}")
            };
            text += &format!(
                "{}\t{form}\t{form}\t{upos}\t_\t_\t{head}\t{deprel}\t_\t_\n",
                i + 1
            );
        }
        Sentence::parse(RawBlock {
            bytes: (text + "\n").into_bytes(),
            first_line: 1,
            starts_input: true,
        })
        .unwrap()
    }

    /// A table filled for one sentence is refilled for the next, not added to.
    #[test]
    fn tree_kinds_are_refilled_from_sentence_to_sentence() {
        let long = sentence(&[
            "a VERB 0 root",
            "b VERB 1 conj",
            "c VERB 1 conj",
            "d AUX 2 aux:pass",
            "e SCONJ 1 case",
        ]);
        let short = sentence(&["a NOUN 0 root", "b NOUN 1 nmod"]);
        let mut reused = TreeKinds::of(&SentenceGraph::from_basic(&long));
        reused.fill(&SentenceGraph::from_basic(&short));
        let fresh = TreeKinds::of(&SentenceGraph::from_basic(&short));
        assert_eq!(
            (reused.bare, reused.labels, reused.twice),
            (fresh.bare, fresh.labels, fresh.twice)
        );
        assert_eq!(
            (reused.upos_of, reused.children_of),
            (fresh.upos_of, fresh.children_of)
        );
        assert_eq!(
            (reused.children_of_upos, reused.siblings_of),
            (fresh.children_of_upos, fresh.siblings_of)
        );
        assert_eq!(fresh.twice, 0);
        assert_eq!(
            fresh.siblings_of[relation_index("nmod") as usize],
            relation_bit("nmod")
        );
    }
}
