//! Why each enhanced edge is there: the rule that created or last changed it, or the basic tree;
//! and what each rule application did, in order.
//!
//! The origin of an edge is kept on the edge itself ([`Origin`]); the applications come from
//! the log the graph keeps when asked ([`SentenceGraph::record_changes`]): off when enhancing,
//! so the fast path pays one test per change.

use super::{Engine, StepLimitError};
use crate::conllu::{EnhancedLayer, NodeId, Sentence};
use crate::graph::{Change, Origin, SentenceGraph};
use petgraph::stable_graph::NodeIndex;

/// One edge of the enhanced graph with its origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedEdge {
    pub dependent: NodeId,
    pub head: NodeId,
    pub label: String,
    pub origin: Origin,
}

/// An edge named as it is written: dependent, head and label.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeText {
    pub dependent: NodeId,
    pub head: NodeId,
    pub label: String,
}

/// What one rule application changed, in the output's node ids.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Application {
    /// Index of the rule in [`Engine::rules`].
    pub rule: u32,
    pub added: Vec<EdgeText>,
    pub removed: Vec<EdgeText>,
    /// Edges given a new label: the edge with its new label, and the old label.
    pub relabelled: Vec<(EdgeText, String)>,
    pub empty_nodes: Vec<NodeId>,
}

/// A sentence's enhancement, explained.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SentenceTrace {
    /// Every edge of the enhanced graph written out, with its origin, sorted by dependent,
    /// head, label.
    pub edges: Vec<ExplainedEdge>,
    /// The rule applications that changed the graph, in the order they were made (one that
    /// changed nothing, its edges being there already, is left out).
    pub applications: Vec<Application>,
    /// The rules ran away: the applications are those made before they were stopped, and
    /// `edges` (like `layer`) the basic copy, as `eudify enhance` writes such a sentence.
    pub runaway: Option<StepLimitError>,
}

impl Engine {
    /// Enhances `sentence` and returns every enhanced edge, sorted by dependent, head, label.
    pub fn explain(&self, sentence: &Sentence) -> Result<Vec<ExplainedEdge>, StepLimitError> {
        let trace = self.trace(sentence, &mut EnhancedLayer::default());
        match trace.runaway {
            Some(error) => Err(error),
            None => Ok(trace.edges),
        }
    }

    /// Enhances `sentence` into `layer`, as [`Engine::enhance`] does, recording what each
    /// rule application did and where each edge of the result comes from.
    pub fn trace(&self, sentence: &Sentence, layer: &mut EnhancedLayer) -> SentenceTrace {
        let mut graph = SentenceGraph::from_basic(sentence);
        graph.record_changes();
        let runaway = self.run(&mut graph).err();
        // Looked up per edge: a map, not a scan of every node (quadratic in a huge sentence).
        // Nodes are never removed: every node a change names has an id on output.
        let ids: rustc_hash::FxHashMap<_, _> = graph.output_ids().into_iter().collect();
        let id_of = |index: NodeIndex| ids.get(&index).copied().unwrap_or_default();
        let text = |graph: &SentenceGraph, head, dependent, label| EdgeText {
            dependent: id_of(dependent),
            head: id_of(head),
            label: graph.label_text(label).to_string(),
        };
        let mut applications: Vec<Application> = Vec::new();
        for &change in graph.changes() {
            if let Change::Apply(rule) = change {
                applications.push(Application {
                    rule,
                    ..Application::default()
                });
                continue;
            }
            let Some(application) = applications.last_mut() else {
                continue; // (Nothing changes the graph outside an application.)
            };
            match change {
                Change::Apply(_) => {}
                Change::Added {
                    head,
                    dependent,
                    label,
                } => application.added.push(text(&graph, head, dependent, label)),
                Change::Removed {
                    head,
                    dependent,
                    label,
                } => application
                    .removed
                    .push(text(&graph, head, dependent, label)),
                Change::Relabelled {
                    head,
                    dependent,
                    from,
                    to,
                } => application.relabelled.push((
                    text(&graph, head, dependent, to),
                    graph.label_text(from).to_string(),
                )),
                Change::EmptyNode(node) => application.empty_nodes.push(id_of(node)),
            }
        }
        applications.retain(|a| {
            !(a.added.is_empty()
                && a.removed.is_empty()
                && a.relabelled.is_empty()
                && a.empty_nodes.is_empty())
        });
        if runaway.is_some() {
            // What `enhance` writes for a runaway: the basic copy.
            graph = SentenceGraph::from_basic(sentence);
        }
        graph.write_layer(layer);
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
        SentenceTrace {
            edges,
            applications,
            runaway,
        }
    }

    /// The phase rule `rule` belongs to.
    pub fn phase_of(&self, rule: u32) -> &str {
        let rule = rule as usize;
        self.phases
            .iter()
            .find(|(_, range)| range.contains(&rule))
            .map_or("", |(name, _)| name)
    }
}
