//! Bindings: the nodes and edges a search has bound to a rule's variables, which the apply
//! stage then reads.

use crate::graph::{Label, SentenceGraph};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};

/// A matched edge: which one, and its label when matched.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EdgeRefId {
    /// The basic edge into word `n`.
    Basic(u32),
    Enhanced(EdgeIndex),
}

/// Variables bound so far: `nodes[v]` for node variable `v`, `edges[e]` for edge variable `e`.
/// Plain vectors, not small-vectors: the matcher indexes them at every step, and a binding
/// lives in a reused workspace, so their allocation is paid once.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    pub nodes: Vec<Option<NodeIndex>>,
    pub edges: Vec<Option<EdgeRefId>>,
    /// The labels of `edges` when the match was kept ([`Binding::capture_labels`]): actions
    /// see the labels as matched, whatever earlier actions of the round changed. The search
    /// itself reads labels from the graph, which does not change while it runs.
    pub labels: Vec<Label>,
}

impl Binding {
    /// Makes `self` the match `found` holds, with its labels captured, reusing `self`'s buffers.
    pub fn keep(&mut self, found: &Binding, graph: &SentenceGraph) {
        self.nodes.clone_from(&found.nodes);
        self.edges.clone_from(&found.edges);
        self.capture_labels(graph);
    }

    /// Copies the labels of the bound enhanced edges out of the graph (see
    /// [`Binding::labels`]); basic labels never change and are read from the tree.
    pub fn capture_labels(&mut self, graph: &SentenceGraph) {
        self.labels.clear();
        if !self
            .edges
            .iter()
            .any(|e| matches!(e, Some(EdgeRefId::Enhanced(_))))
        {
            return;
        }
        self.labels.extend(self.edges.iter().map(|e| {
            match *e {
                Some(EdgeRefId::Enhanced(id)) => graph
                    .edge(id)
                    .map_or(Label::EMPTY, |(_, _, edge)| edge.label),
                _ => Label::EMPTY,
            }
        }));
    }

    /// The label of bound edge variable `e` as matched, once captured.
    pub fn label_id(&self, graph: &SentenceGraph, e: usize) -> Option<Label> {
        match self.edges[e]? {
            EdgeRefId::Basic(n) => Some(graph.basic_label(n)),
            EdgeRefId::Enhanced(_) => self.labels.get(e).copied(),
        }
    }

    /// The text of [`Binding::label_id`].
    pub fn label<'a>(&self, graph: &'a SentenceGraph, e: usize) -> Option<&'a str> {
        self.label_id(graph, e).map(|l| graph.label_text(l))
    }

    /// Unbinds everything and sizes the binding for a rule's variables, keeping its buffers.
    /// A search unbinds what it binds, so only a resized tail needs writing.
    pub fn reset(&mut self, vars: usize, edge_vars: usize) {
        debug_assert!(
            self.nodes.iter().all(Option::is_none) && self.edges.iter().all(Option::is_none)
        );
        self.nodes.truncate(vars);
        self.nodes.resize(vars, None);
        self.edges.truncate(edge_vars);
        self.edges.resize(edge_vars, None);
        self.labels.clear();
    }

    pub fn node(&self, var: usize) -> NodeIndex {
        self.nodes[var].expect("the checker guarantees variables are bound before use")
    }

    /// Whether a variable is bound to `node`. Every variable is compared, with no early exit:
    /// a rule has a handful of variables, and a data-dependent exit mispredicts.
    pub fn is_used(&self, node: NodeIndex) -> bool {
        self.nodes
            .iter()
            .fold(false, |used, n| used | (*n == Some(node)))
    }
}

/// The current label of a matched edge.
pub fn edge_label<'a>(graph: &'a SentenceGraph, id: EdgeRefId) -> &'a str {
    match id {
        // As interned: a DEPREL that is not a UD label is seen as its repair, as in DEPS.
        EdgeRefId::Basic(n) => graph.label_text(graph.basic_label(n)),
        EdgeRefId::Enhanced(e) => graph
            .edge(e)
            .map_or("", |(_, _, edge)| graph.label_text(edge.label)),
    }
}
