//! Collapsing empty nodes out of an enhanced graph, as the IWPT 2021 shared task did before
//! scoring (`enhanced_collapse_empty_nodes.pl`).
//!
//! Every edge `E → d` from an empty node `E` to a word `d` is replaced by one edge per parent of
//! `E`: `P → d` labelled `L1>L`, recursively when `P` is itself empty (giving `L0>L1>L`). Edges
//! into empty nodes disappear; an empty node without children contributes nothing. The result
//! only has words (and the root) as heads, so gold and system graphs can be compared word by word
//! even when their empty nodes are numbered differently. Like the official script, the edges
//! into a word form a set: identical (head, path) pairs are kept once.
//!
//! One known difference: for *cycles* among empty nodes (invalid in UD), a path here never
//! visits the same empty node twice, while the official script's result depends on the order in
//! which it joins partial paths and may traverse a cycle once.

use crate::conllu::{NodeId, Sentence, Token};
use std::ops::Range;

/// How many collapsed edges one sentence may produce. Empty nodes with several parents each
/// multiply the number of paths; this bounds the work on adversarial input.
pub const MAX_COLLAPSED_EDGES: usize = 1_000_000;

/// One collapsed edge into a word: its head (a word or 0) and its label path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollapsedEdge {
    pub head: u32,
    /// The label path, elements joined by `>`, in [`CollapsedGraph::text`].
    pub path: Range<u32>,
    /// The same path with every element cut at its first `:` (`obl:from>nmod` → `obl>nmod`).
    pub universal_path: Range<u32>,
}

/// The collapsed enhanced graph of one sentence. Buffers are reused from sentence to sentence.
#[derive(Clone, Debug, Default)]
pub struct CollapsedGraph {
    text: String,
    edges: Vec<CollapsedEdge>,
    /// `edges[starts[d - 1]..starts[d]]` are the edges into word `d`.
    starts: Vec<u32>,
}

/// The collapse produced more than [`MAX_COLLAPSED_EDGES`] edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyPaths {
    /// The word whose incoming paths exceeded the budget.
    pub word: u32,
}

impl CollapsedGraph {
    /// Rebuilds the graph from `sentence`'s DEPS columns.
    pub fn build(&mut self, sentence: &Sentence) -> Result<(), TooManyPaths> {
        self.text.clear();
        self.edges.clear();
        self.starts.clear();
        self.starts.push(0);
        // Labels from the dependent upwards while walking through empty nodes.
        let mut labels: Vec<&str> = Vec::new();
        let mut visiting: Vec<NodeId> = Vec::new();
        for word in &sentence.words {
            for (head, label) in sentence.deps(word) {
                labels.clear();
                labels.push(label);
                if head.is_empty_node() {
                    visiting.clear();
                    visiting.push(head);
                    self.expand(sentence, head, &mut labels, &mut visiting)
                        .map_err(|()| TooManyPaths { word: word.id.word })?;
                } else {
                    self.push_edge(head.word, &labels)
                        .map_err(|()| TooManyPaths { word: word.id.word })?;
                }
            }
            self.remove_duplicates(*self.starts.last().unwrap_or(&0) as usize);
            self.starts.push(self.edges.len() as u32);
        }
        Ok(())
    }

    /// The official pipeline keeps a *set* of edges per word: the collapse script ignores a
    /// repeated DEPS entry when reading, and adds a collapsed edge only once even when several
    /// empty nodes lead to the same head with the same path (Latvian-LVTB has such cases, e.g.
    /// one modifier shared by three elided conjuncts: three `conj>advmod` paths, one edge).
    fn remove_duplicates(&mut self, start: usize) {
        let (text, edges) = (&self.text, &mut self.edges);
        if edges.len() - start < 2 {
            return;
        }
        let path = |e: &CollapsedEdge| &text[e.path.start as usize..e.path.end as usize];
        edges[start..].sort_by(|a, b| (a.head, path(a)).cmp(&(b.head, path(b))));
        let mut kept = start;
        for i in start..edges.len() {
            if i == start
                || (edges[i].head, path(&edges[i]))
                    != (edges[kept - 1].head, path(&edges[kept - 1]))
            {
                edges.swap(kept, i);
                kept += 1;
            }
        }
        edges.truncate(kept);
    }

    /// Emits one edge per path from a word (or the root) down to empty node `empty`, followed by
    /// `labels` (innermost last). `visiting` holds the empty nodes on the current path: a parent
    /// already on it would close a cycle among empty nodes, and is skipped.
    fn expand<'s>(
        &mut self,
        sentence: &'s Sentence,
        empty: NodeId,
        labels: &mut Vec<&'s str>,
        visiting: &mut Vec<NodeId>,
    ) -> Result<(), ()> {
        let Some(token) = empty_node(sentence, empty) else {
            return Ok(()); // Cannot happen: the parser checks every DEPS head exists.
        };
        for (parent, label) in sentence.deps(token) {
            labels.push(label);
            if !parent.is_empty_node() {
                self.push_edge(parent.word, labels)?;
            } else if !visiting.contains(&parent) {
                visiting.push(parent);
                self.expand(sentence, parent, labels, visiting)?;
                visiting.pop();
            }
            labels.pop();
        }
        Ok(())
    }

    /// Appends the edge `head → current word` whose path is `labels` read from the top down.
    fn push_edge(&mut self, head: u32, labels: &[&str]) -> Result<(), ()> {
        if self.edges.len() >= MAX_COLLAPSED_EDGES {
            return Err(());
        }
        let start = self.text.len() as u32;
        for (i, label) in labels.iter().rev().enumerate() {
            if i > 0 {
                self.text.push('>');
            }
            self.text.push_str(label);
        }
        let middle = self.text.len() as u32;
        for (i, label) in labels.iter().rev().enumerate() {
            if i > 0 {
                self.text.push('>');
            }
            self.text.push_str(universal(label));
        }
        let end = self.text.len() as u32;
        self.edges.push(CollapsedEdge {
            head,
            path: start..middle,
            universal_path: middle..end,
        });
        Ok(())
    }

    /// Edges into word `d` (1-based), without duplicates, ordered by head and path.
    pub fn edges_into(&self, d: u32) -> &[CollapsedEdge] {
        let (d, starts) = (d as usize, &self.starts);
        if d == 0 || d >= starts.len() {
            return &[];
        }
        &self.edges[starts[d - 1] as usize..starts[d] as usize]
    }

    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    pub fn word_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    pub fn path(&self, edge: &CollapsedEdge) -> &str {
        &self.text[edge.path.start as usize..edge.path.end as usize]
    }

    pub fn universal_path(&self, edge: &CollapsedEdge) -> &str {
        &self.text[edge.universal_path.start as usize..edge.universal_path.end as usize]
    }
}

/// The universal part of a label: everything before the first `:`.
pub fn universal(label: &str) -> &str {
    label
        .split_once(':')
        .map_or(label, |(universal, _)| universal)
}

fn empty_node(sentence: &Sentence, id: NodeId) -> Option<&Token> {
    let i = sentence
        .empty_nodes
        .binary_search_by(|t| t.id.cmp(&id))
        .ok()?;
    sentence.empty_nodes.get(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_util::sentence;

    fn collapsed(s: &Sentence) -> Vec<(u32, u32, String)> {
        let mut graph = CollapsedGraph::default();
        graph.build(s).unwrap();
        let mut out = Vec::new();
        for d in 1..=s.len() as u32 {
            for e in graph.edges_into(d) {
                out.push((d, e.head, graph.path(e).to_string()));
            }
        }
        out
    }

    #[test]
    fn words_keep_their_edges() {
        let s = sentence(&[
            ("1", "2", "nsubj", "2:nsubj|3:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "conj", "2:conj"),
        ]);
        let got = collapsed(&s);
        assert_eq!(
            got,
            vec![
                (1, 2, "nsubj".into()),
                (1, 3, "nsubj".into()),
                (2, 0, "root".into()),
                (3, 2, "conj".into())
            ]
        );
    }

    #[test]
    fn empty_node_with_several_parents_and_a_chain() {
        // 1.1 hangs from 1 and 2; 1.2 hangs from 1.1; word 3 hangs from 1.2 and from 1.1.
        let s = sentence(&[
            ("1", "0", "root", "0:root"),
            ("1.1", "_", "_", "1:conj|2:dep"),
            ("1.2", "_", "_", "1.1:orphan"),
            ("2", "1", "obj", "1:obj"),
            ("3", "1", "obl", "1.2:obl:in|1.1:nsubj"),
        ]);
        let got = collapsed(&s);
        assert_eq!(
            got,
            vec![
                (1, 0, "root".to_string()),
                (2, 1, "obj".to_string()),
                (3, 1, "conj>nsubj".to_string()),
                (3, 1, "conj>orphan>obl:in".to_string()),
                (3, 2, "dep>nsubj".to_string()),
                (3, 2, "dep>orphan>obl:in".to_string()),
            ]
        );
        let mut graph = CollapsedGraph::default();
        graph.build(&s).unwrap();
        let paths: Vec<&str> = graph
            .edges_into(3)
            .iter()
            .map(|e| graph.universal_path(e))
            .collect();
        assert_eq!(
            paths,
            [
                "conj>nsubj",
                "conj>orphan>obl",
                "dep>nsubj",
                "dep>orphan>obl"
            ]
        );
    }

    #[test]
    fn childless_empty_nodes_and_cycles_among_empty_nodes_contribute_nothing_extra() {
        // 1.1 and 1.2 are each other's parents; 1.1 also hangs from word 1.
        let s = sentence(&[
            ("1", "0", "root", "0:root"),
            ("1.1", "_", "_", "1:conj|1.2:x"),
            ("1.2", "_", "_", "1.1:y"),
            ("1.3", "_", "_", "1:z"),
            ("2", "1", "obj", "1.2:obj"),
        ]);
        assert_eq!(
            collapsed(&s),
            vec![(1, 0, "root".to_string()), (2, 1, "conj>y>obj".to_string())]
        );
    }

    #[test]
    fn identical_edges_are_kept_once() {
        // Word 1 is shared by three elided conjuncts of word 2, and its DEPS repeat `2:advmod`.
        let s = sentence(&[
            (
                "1",
                "2",
                "advmod",
                "2:advmod|2.1:advmod|2.2:advmod|2:advmod|2.3:advmod",
            ),
            ("2", "0", "root", "0:root"),
            ("2.1", "_", "_", "2:conj"),
            ("2.2", "_", "_", "2:conj"),
            ("2.3", "_", "_", "2:conj:and"),
        ]);
        let expected = [
            (1, 2, "advmod"),
            (1, 2, "conj:and>advmod"),
            (1, 2, "conj>advmod"),
            (2, 0, "root"),
        ];
        let expected: Vec<(u32, u32, String)> = expected
            .iter()
            .map(|&(d, h, p)| (d, h, p.to_string()))
            .collect();
        assert_eq!(collapsed(&s), expected);
    }

    #[test]
    fn universal_part_cuts_at_first_colon() {
        assert_eq!(universal("obl:arg:gen"), "obl");
        assert_eq!(universal("nsubj"), "nsubj");
    }
}
