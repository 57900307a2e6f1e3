//! Runs the examples rule files carry: each rule alone on its example sentence, then the
//! listed nodes' DEPS compared with what the example expects. An example with DEPS (or empty
//! nodes) starts from that enhanced graph instead of the basic tree.

use super::Enhancer;
use crate::conllu::{write_sentence, BlockReader, EnhancedLayer, NodeId, RawBlock, Sentence};
use crate::graph::{Origin, SentenceGraph};
use crate::rules::ast::{CheckedExample, CheckedValueTest};

/// The outcome of one example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleResult {
    /// `(node id, expected DEPS, actual DEPS)` for each listed node that differs.
    pub mismatches: Vec<(String, String, String)>,
    /// The whole output sentence, for snapshots and diffs.
    pub output: String,
}

impl ExampleResult {
    pub fn passed(&self) -> bool {
        self.mismatches.is_empty()
    }
}

impl Enhancer {
    /// Whether rule `rule` requires a word from a lexicon list that is empty under this
    /// profile: it cannot match, so its examples say nothing here (e.g. a list only English
    /// fills, under the `universal` profile).
    pub fn needs_missing_lexicon(&self, rule: usize) -> bool {
        self.rules[rule].rule.pattern.nodes.iter().flat_map(|n| &n.tests).any(|t| {
            !t.negated && matches!(&t.test, CheckedValueTest::InLexicon { words, .. } if words.is_empty())
        })
    }

    /// Runs rule `rule` (an index into `rules`) alone, to a fixpoint, on `example`.
    pub fn run_example(&self, rule: usize, example: &CheckedExample) -> Result<ExampleResult, String> {
        let mut reader = BlockReader::new(example.conllu.as_bytes());
        let mut block = RawBlock::default();
        if !reader.read_block(&mut block).map_err(|e| e.to_string())? {
            return Err("the example has no sentence".to_string());
        }
        let sentence = Sentence::parse(block).map_err(|e| format!("example line {}: {}", e.1.line, e.1.message))?;
        let mut graph = SentenceGraph::from_basic(&sentence);
        if seeds_enhanced(&sentence) {
            seed_enhanced(&mut graph, &sentence);
        }
        let limits = super::Limits { steps: super::STEPS_FLOOR, ..super::Limits::of(&graph) };
        let mut workspace = super::Workspace::default();
        self.prepare(&mut workspace);
        self.run_phase(&mut graph, &[rule], &mut 0, limits, &mut workspace).map_err(|e| e.to_string())?;
        let mut layer = EnhancedLayer::default();
        graph.write_layer(&mut layer);
        let mut out = Vec::new();
        write_sentence(&mut out, &sentence, Some(&layer));
        let output = String::from_utf8_lossy(&out).into_owned();
        let actual = deps_by_id(&output);
        let mut mismatches = Vec::new();
        for (id, expected) in &example.expect {
            let got = actual.iter().find(|(i, _)| i == id).map_or("(no such node)".to_string(), |(_, d)| d.clone());
            if got != *expected {
                mismatches.push((id.clone(), expected.clone(), got));
            }
        }
        Ok(ExampleResult { mismatches, output })
    }
}

/// Whether the example gives an enhanced graph to start from: a word with DEPS, or an empty
/// node (for rules that rewrite what earlier rules made, which alone find nothing to rewrite).
fn seeds_enhanced(sentence: &Sentence) -> bool {
    !sentence.empty_nodes.is_empty() || sentence.words.iter().any(|w| sentence.deps(w).next().is_some())
}

/// Replaces the graph's enhanced edges (the basic tree) with the example's DEPS; its empty
/// nodes become blank ones (no copied columns) placed after the same word.
fn seed_enhanced(graph: &mut SentenceGraph, sentence: &Sentence) {
    let edges: Vec<_> = std::iter::once(graph.root())
        .chain(graph.nodes())
        .flat_map(|n| graph.outgoing(n).map(|(e, _, _)| e).collect::<Vec<_>>())
        .collect();
    for edge in edges {
        graph.remove_edge(edge);
    }
    let empty: Vec<_> = sentence.empty_nodes.iter().map(|t| (t.id, graph.add_empty_node(t.id.word, 0))).collect();
    // A head that names no node (a DEPS the example's parse let through) adds no edge.
    let node = |graph: &SentenceGraph, id: NodeId| {
        if id.empty == 0 {
            (id.word <= graph.word_count()).then(|| graph.word_node(id.word))
        } else {
            empty.iter().find(|(e, _)| *e == id).map(|&(_, n)| n)
        }
    };
    for token in sentence.tokens_in_order() {
        let Some(dependent) = node(graph, token.id) else { continue };
        for (head, label) in sentence.deps(token) {
            if let Some(head) = node(graph, head) {
                let label = graph.intern(label);
                graph.add_edge(head, dependent, label, Origin::Basic);
            }
        }
    }
}

/// `(ID, DEPS)` of every word and empty-node line of a CoNLL-U text.
fn deps_by_id(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.len() == 10 && NodeId::parse(cols[0]).is_some()).then(|| (cols[0].to_string(), cols[8].to_string()))
        })
        .collect()
}
