//! What settings could not express: the edges the fitted profile still gets wrong on the sample,
//! grouped by phenomenon (`crate::eval`'s classes, on the gold basic tree) with examples, so a
//! team sees where a rule is needed.

use super::sample::Sample;
use crate::conllu::sentence::FORM;
use crate::conllu::{BlockReader, NodeId, RawBlock, Sentence};
use crate::engine::Engine;
use crate::error::Error;
use crate::eval::phenomena::BasicTree;
use crate::eval::Phenomenon;
use std::collections::BTreeMap;

/// Examples kept per phenomenon.
const EXAMPLES: usize = 3;

/// The wrong edges of one phenomenon.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leftover {
    /// Gold edges the profile does not produce.
    pub missing: usize,
    /// Edges it produces that gold lacks.
    pub extra: usize,
    /// A few of them: `sent_id: dependent <-label- head (missing|extra)`.
    pub examples: Vec<String>,
}

/// Every edge of a graph as (dependent, head, label), sorted.
fn edges(sentence: &Sentence) -> Vec<(NodeId, NodeId, String)> {
    let mut out: Vec<_> = sentence
        .words
        .iter()
        .chain(&sentence.empty_nodes)
        .flat_map(|t| sentence.deps(t).map(move |(h, l)| (t.id, h, l.to_string())))
        .collect();
    out.sort();
    out
}

fn form(sentence: &Sentence, id: NodeId) -> String {
    if id.is_root() {
        return "ROOT".to_string();
    }
    let token = sentence
        .words
        .iter()
        .chain(&sentence.empty_nodes)
        .find(|t| t.id == id);
    match token {
        Some(t) if id.is_empty_node() => format!("{}(empty)", sentence.column(t, FORM)),
        Some(t) => sentence.column(t, FORM).to_string(),
        None => "?".to_string(),
    }
}

/// The wrong edges of `engine`'s output on the sentences `indices`, by phenomenon.
pub fn leftovers(
    sample: &Sample,
    engine: &Engine,
    indices: &[usize],
) -> Result<BTreeMap<Phenomenon, Leftover>, Error> {
    let system = sample.enhance(engine, indices)?;
    let mut reader = BlockReader::new(system.as_bytes());
    let mut block = RawBlock::default();
    let mut out: BTreeMap<Phenomenon, Leftover> = BTreeMap::new();
    let mut at = indices.iter();
    while reader.read_block(&mut block).unwrap_or(false) {
        if block.is_blank() {
            continue;
        }
        let Some(&i) = at.next() else { break };
        let Ok(produced) = Sentence::parse(std::mem::take(&mut block)) else {
            continue;
        };
        let gold = &sample.sentences[i];
        let tree = BasicTree::new(gold);
        let (want, have) = (edges(gold), edges(&produced));
        let sent_id = gold.comment("sent_id").unwrap_or("?");
        let mut note = |edge: &(NodeId, NodeId, String), missing: bool, graph: &Sentence| {
            let class = tree.classify_edge(edge.0, edge.1, &edge.2);
            let entry = out.entry(class).or_default();
            match missing {
                true => entry.missing += 1,
                false => entry.extra += 1,
            }
            if entry.examples.len() < EXAMPLES {
                entry.examples.push(format!(
                    "{sent_id}: {} <-{}- {} ({})",
                    form(graph, edge.0),
                    edge.2,
                    form(graph, edge.1),
                    if missing { "missing" } else { "extra" }
                ));
            }
        };
        for edge in want.iter().filter(|e| have.binary_search(e).is_err()) {
            note(edge, true, gold);
        }
        for edge in have.iter().filter(|e| want.binary_search(e).is_err()) {
            note(edge, false, &produced);
        }
    }
    Ok(out)
}
