//! Runs the examples rule files carry: each rule alone on its example sentence, then the
//! listed nodes' DEPS compared with what the example expects. An example may give the enhanced
//! graph its rule starts from (filled DEPS, empty nodes).

use super::Engine;
use crate::conllu::{
    write_sentence, BlockReader, EnhancedLayer, NodeId, RawBlock, Sentence, Token,
};
use crate::graph::{Origin, SentenceGraph};
use crate::rules::ir::{CheckedExample, CheckedValueTest};
use petgraph::graph::NodeIndex;

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

impl Engine {
    /// Whether rule `rule` requires a word from a lexicon list that is empty under this
    /// profile: it cannot match, so its examples say nothing here (e.g. a list only English
    /// fills, under the `universal` profile).
    pub fn needs_missing_lexicon(&self, rule: usize) -> bool {
        self.rules[rule].rule.pattern.nodes.iter().flat_map(|n| &n.tests).any(|t| {
            !t.negated && matches!(&t.test, CheckedValueTest::InLexicon { words, .. } if words.is_empty())
        })
    }

    /// Runs rule `rule` (an index into `rules`) alone, to a fixpoint, on `example`.
    pub fn run_example(
        &self,
        rule: usize,
        example: &CheckedExample,
    ) -> Result<ExampleResult, String> {
        let mut reader = BlockReader::new(example.conllu.as_bytes());
        let mut block = RawBlock::default();
        if !reader.read_block(&mut block).map_err(|e| e.to_string())? {
            return Err("the example has no sentence".to_string());
        }
        let sentence = Sentence::parse(block)
            .map_err(|e| format!("example line {}: {}", e.1.line, e.1.message))?;
        let mut graph = SentenceGraph::from_basic(&sentence);
        seed_from_deps(&mut graph, &sentence);
        let limits = super::Limits {
            steps: super::rounds::STEPS_FLOOR,
            ..super::Limits::of(&graph, self.work_budget)
        };
        let mut workspace = super::Workspace::default();
        self.prepare(&mut workspace);
        self.run_phase(
            &mut graph,
            &[rule],
            &mut super::Spent::new(limits),
            limits,
            &mut workspace,
        )
        .map_err(|e| e.to_string())?;
        let mut layer = EnhancedLayer::default();
        graph.write_layer(&mut layer);
        let mut out = Vec::new();
        write_sentence(&mut out, &sentence, Some(&layer));
        let output = String::from_utf8_lossy(&out).into_owned();
        let actual = deps_by_id(&output);
        let mut mismatches = Vec::new();
        for (id, expected) in &example.expect {
            let got = actual
                .iter()
                .find(|(i, _)| i == id)
                .map_or("(no such node)".to_string(), |(_, d)| d.clone());
            if got != *expected {
                mismatches.push((id.clone(), expected.clone(), got));
            }
        }
        Ok(ExampleResult { mismatches, output })
    }
}

/// An example states the enhanced graph the rule starts from where the basic tree cannot: its
/// empty nodes (`4.1`) are created, each a copy of the first word with its FORM and LEMMA (none:
/// a blank node), and a word or empty node whose DEPS is filled starts with exactly those
/// incoming edges instead of its basic one. So a rule that reads what other rules made (a
/// relabelled edge, a shared subject, an empty node) has an example that can fail.
fn seed_from_deps(graph: &mut SentenceGraph<'_>, sentence: &Sentence) {
    use crate::conllu::sentence::{DEPS, FORM, LEMMA};
    let mut empty: Vec<(NodeId, NodeIndex)> = Vec::with_capacity(sentence.empty_nodes.len());
    for token in &sentence.empty_nodes {
        let same = |w: &Token, column| sentence.column(w, column) == sentence.column(token, column);
        let copy_of = sentence
            .words
            .iter()
            .position(|w| same(w, FORM) && same(w, LEMMA))
            .map_or(0, |i| i as u32 + 1);
        empty.push((token.id, graph.add_empty_node(token.id.word, copy_of)));
    }
    let node = |graph: &SentenceGraph<'_>, id: NodeId| {
        if id.empty == 0 {
            // A head that names no word (a DEPS the example's parse let through) adds no edge.
            (id.word <= graph.word_count()).then(|| graph.word_node(id.word))
        } else {
            empty.iter().find(|(e, _)| *e == id).map(|&(_, n)| n)
        }
    };
    for token in sentence.words.iter().chain(&sentence.empty_nodes) {
        if sentence.column(token, DEPS) == "_" {
            continue;
        }
        let Some(dependent) = node(graph, token.id) else {
            continue;
        };
        let old: Vec<_> = graph.incoming(dependent).map(|(e, _, _)| e).collect();
        for edge in old {
            graph.remove_edge(edge);
        }
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
            (cols.len() == 10 && NodeId::parse(cols[0]).is_some())
                .then(|| (cols[0].to_string(), cols[8].to_string()))
        })
        .collect()
}
