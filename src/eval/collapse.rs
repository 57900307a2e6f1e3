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

use crate::conllu::{NodeId, Sentence};
use std::ops::Range;

/// How much work collapsing one sentence may take: one unit per edge followed through an empty
/// node and per label written. Empty nodes with several parents multiply the number of paths;
/// this bounds time and memory on adversarial input (real sentences need a few hundred units).
pub const MAX_COLLAPSE_WORK: usize = 4_000_000;

/// One collapsed edge into a word: its head (a word or 0) and its label path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollapsedEdge {
    pub head: u32,
    /// The label path, elements joined by `>`, in the graph's text buffer.
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
    /// Work spent on the current sentence, see [`MAX_COLLAPSE_WORK`].
    work: usize,
}

/// Collapsing took more than [`MAX_COLLAPSE_WORK`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyPaths {
    /// The word whose incoming paths exceeded the budget.
    pub word: u32,
}

/// A DEPS head, resolved once per sentence.
#[derive(Copy, Clone, Debug)]
enum Head {
    /// A word or the root: the end of a path.
    Node(u32),
    /// An empty node, by index into `Sentence::empty_nodes`.
    Empty(usize),
    /// Not in the sentence (the parser rejects this; kept so a bad head cannot panic).
    Unknown,
}

impl Head {
    fn resolve(sentence: &Sentence, id: NodeId) -> Head {
        if !id.is_empty_node() {
            return Head::Node(id.word);
        }
        match sentence.empty_nodes.binary_search_by(|t| t.id.cmp(&id)) {
            Ok(i) => Head::Empty(i),
            Err(_) => Head::Unknown,
        }
    }
}

/// Scratch state of the walk up through empty nodes.
struct Walk<'s> {
    /// Per empty node: on the path being followed.
    on_path: Vec<bool>,
    /// Labels from the dependent upwards.
    labels: Vec<&'s str>,
    /// (empty node index, next parent to follow).
    stack: Vec<(usize, usize)>,
}

impl CollapsedGraph {
    /// Rebuilds the graph from `sentence`'s DEPS columns.
    pub fn build(&mut self, sentence: &Sentence) -> Result<(), TooManyPaths> {
        self.text.clear();
        self.edges.clear();
        self.starts.clear();
        self.starts.push(0);
        self.work = 0;
        // Incoming edges of each empty node (same index as `sentence.empty_nodes`).
        let parents: Vec<Vec<(Head, &str)>> = sentence
            .empty_nodes
            .iter()
            .map(|e| {
                sentence
                    .deps(e)
                    .map(|(h, label)| (Head::resolve(sentence, h), label))
                    .collect()
            })
            .collect();
        let mut walk = Walk {
            on_path: vec![false; parents.len()],
            labels: Vec::new(),
            stack: Vec::new(),
        };
        for word in &sentence.words {
            let too_many = |()| TooManyPaths { word: word.id.word };
            for (head, label) in sentence.deps(word) {
                walk.labels.clear();
                walk.labels.push(label);
                match Head::resolve(sentence, head) {
                    Head::Node(h) => self.push_edge(h, &walk.labels).map_err(too_many)?,
                    Head::Empty(e) => self.walk_up(&parents, e, &mut walk).map_err(too_many)?,
                    Head::Unknown => {}
                }
            }
            self.remove_duplicates(*self.starts.last().unwrap_or(&0) as usize);
            self.starts.push(self.edges.len() as u32);
        }
        Ok(())
    }

    /// Emits one edge per path from a word (or the root) down to empty node `start` (an index),
    /// followed by `walk.labels` (innermost first). Depth-first without recursion, so long
    /// chains of empty nodes cannot overflow the stack. A parent already on the current path
    /// would close a cycle among empty nodes, and is skipped.
    fn walk_up<'s>(
        &mut self,
        parents: &[Vec<(Head, &'s str)>],
        start: usize,
        walk: &mut Walk<'s>,
    ) -> Result<(), ()> {
        // A frame is (empty node, index of its next parent); the top of `walk.labels` is the
        // label of the edge below the top frame's node.
        walk.stack.clear();
        walk.stack.push((start, 0));
        walk.on_path[start] = true;
        let result = loop {
            let Some(top) = walk.stack.last_mut() else {
                break Ok(());
            };
            let (e, next) = *top;
            let Some(&(parent, label)) = parents[e].get(next) else {
                walk.stack.pop();
                walk.on_path[e] = false;
                walk.labels.pop();
                continue;
            };
            top.1 += 1;
            if self.spend(1).is_err() {
                break Err(());
            }
            walk.labels.push(label);
            match parent {
                Head::Node(h) => {
                    if self.push_edge(h, &walk.labels).is_err() {
                        break Err(());
                    }
                    walk.labels.pop();
                }
                Head::Empty(p) if !walk.on_path[p] => {
                    walk.on_path[p] = true;
                    walk.stack.push((p, 0)); // `label` stays pushed until this frame ends.
                }
                Head::Empty(_) | Head::Unknown => {
                    walk.labels.pop();
                }
            }
        };
        // Leave the scratch state clean even when giving up half-way.
        for &(e, _) in &walk.stack {
            walk.on_path[e] = false;
        }
        walk.stack.clear();
        result
    }

    fn spend(&mut self, units: usize) -> Result<(), ()> {
        self.work += units;
        if self.work > MAX_COLLAPSE_WORK {
            Err(())
        } else {
            Ok(())
        }
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

    /// Appends the edge `head → current word` whose path is `labels` read from the top down
    /// (`labels` holds the innermost label first).
    fn push_edge(&mut self, head: u32, labels: &[&str]) -> Result<(), ()> {
        self.spend(labels.len())?;
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

    pub fn path(&self, edge: &CollapsedEdge) -> &str {
        &self.text[edge.path.start as usize..edge.path.end as usize]
    }

    pub fn universal_path(&self, edge: &CollapsedEdge) -> &str {
        &self.text[edge.universal_path.start as usize..edge.universal_path.end as usize]
    }
}

/// The universal part of a label: everything before the first `:` (UD's label grammar lives in
/// [`crate::ud`]).
pub use crate::ud::universal_part as universal;

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

    /// Word 1, then empty nodes 1.1 ..= 1.`n` where 1.k hangs from 1.(k-1) (1.1 from word 1)
    /// once per label in `labels`, then word 2 hanging from 1.`n`.
    fn empty_chain(n: usize, labels: &[&str]) -> Sentence {
        let mut rows: Vec<(String, String, String, String)> =
            vec![("1".into(), "0".into(), "root".into(), "0:root".into())];
        for k in 1..=n {
            let parent = if k == 1 {
                "1".to_string()
            } else {
                format!("1.{}", k - 1)
            };
            let deps: Vec<String> = labels.iter().map(|l| format!("{parent}:{l}")).collect();
            rows.push((format!("1.{k}"), "_".into(), "_".into(), deps.join("|")));
        }
        rows.push(("2".into(), "1".into(), "dep".into(), format!("1.{n}:dep")));
        let rows: Vec<(&str, &str, &str, &str)> = rows
            .iter()
            .map(|(a, b, c, d)| (a.as_str(), b.as_str(), c.as_str(), d.as_str()))
            .collect();
        sentence(&rows)
    }

    #[test]
    fn long_chains_of_empty_nodes_do_not_overflow_the_stack() {
        let s = empty_chain(100_000, &["conj"]);
        let mut graph = CollapsedGraph::default();
        graph.build(&s).unwrap();
        let edges = graph.edges_into(2);
        assert_eq!(edges.len(), 1);
        assert_eq!(
            graph.path(&edges[0]).len(),
            "conj>".len() * 100_000 + "dep".len()
        );
    }

    #[test]
    fn exponentially_many_paths_are_refused() {
        // Every empty node has two parent edges: 2^40 paths from word 1 to word 2.
        let s = empty_chain(40, &["a", "b"]);
        let mut graph = CollapsedGraph::default();
        assert_eq!(graph.build(&s), Err(TooManyPaths { word: 2 }));
        // The graph is usable again for the next sentence.
        graph.build(&empty_chain(3, &["a", "b"])).unwrap();
        assert_eq!(graph.edges_into(2).len(), 8);
    }

    #[test]
    fn universal_part_cuts_at_first_colon() {
        assert_eq!(universal("obl:arg:gen"), "obl");
        assert_eq!(universal("nsubj"), "nsubj");
    }
}
