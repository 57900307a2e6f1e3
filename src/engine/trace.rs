//! Why each enhanced edge is there: the rule that created or last changed it, or the basic tree.

use super::{Enhancer, StepLimitError};
use crate::conllu::{NodeId, Sentence};
use crate::graph::{Origin, SentenceGraph};

/// One edge of the enhanced graph with its origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedEdge {
    pub dependent: NodeId,
    pub head: NodeId,
    pub label: String,
    pub origin: Origin,
}

impl Enhancer {
    /// Enhances `sentence` and returns every enhanced edge, sorted by dependent, head, label.
    pub fn explain(&self, sentence: &Sentence) -> Result<Vec<ExplainedEdge>, StepLimitError> {
        let mut graph = SentenceGraph::from_basic(sentence);
        self.run(&mut graph)?;
        // Looked up per edge: a map, not a scan of every node (quadratic in a huge sentence).
        let ids: rustc_hash::FxHashMap<_, _> = graph.output_ids().into_iter().collect();
        let id_of = |index| ids.get(&index).copied().unwrap_or_default();
        let mut edges: Vec<ExplainedEdge> = graph
            .nodes()
            .flat_map(|node| {
                let dependent = id_of(node);
                graph
                    .incoming(node)
                    .map(|(_, head, edge)| ExplainedEdge {
                        dependent,
                        head: id_of(head),
                        label: graph.label_text(edge.label).to_string(),
                        origin: edge.origin,
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        edges.sort_by(|a, b| (a.dependent, a.head, &a.label).cmp(&(b.dependent, b.head, &b.label)));
        Ok(edges)
    }
}
