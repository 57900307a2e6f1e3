//! Applies a rule's actions to the enhanced graph for one match.

use super::matcher::{Binding, EdgeRefId};
use crate::graph::{Label, Node, Origin, SentenceGraph};
use crate::rules::ast::{CheckedAction, Direction, LabelTest, Place, Template, TemplateValue, TransferMode};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};

/// What a round of rewriting changed: which relations' enhanced edges (bits of
/// [`crate::graph::relation_bit`]), and whether nodes were added.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub relations: u64,
    pub nodes: bool,
}

impl Changes {
    pub fn any(self) -> bool {
        self.relations != 0 || self.nodes
    }
}

/// Applies `actions` for `binding` (extended with the empty nodes the actions create),
/// recording what changed in `changes`. Returns whether the graph changed.
pub fn apply(
    graph: &mut SentenceGraph,
    actions: &[CheckedAction],
    binding: &mut Binding,
    origin: Origin,
    changes: &mut Changes,
    label: &mut String,
) -> bool {
    let mut changed = false;
    let note = |changes: &mut Changes, label: &str, did: bool| {
        if did {
            changes.relations |= crate::graph::relation_bit(label);
        }
        did
    };
    for action in actions {
        match action {
            CheckedAction::AddEdge { from, to, label: template } => {
                let (from, to) = (binding.node(*from), binding.node(*to));
                if from != to && render(graph, template, binding, label) {
                    let did = graph.add_edge(from, to, crate::graph::label(label), origin);
                    changed |= note(changes, label, did);
                }
            }
            CheckedAction::DeleteEdge { from, to, label: test } => {
                for edge in matching_edges(graph, binding.node(*from), binding.node(*to), test, binding) {
                    let old = graph.edge(edge).map(|(_, _, e)| e.label.clone()).unwrap_or_default();
                    let did = graph.remove_edge(edge);
                    changed |= note(changes, &old, did);
                }
            }
            CheckedAction::Relabel { from, to, label: test, new_label } => {
                if render(graph, new_label, binding, label) {
                    for edge in matching_edges(graph, binding.node(*from), binding.node(*to), test, binding) {
                        let old = graph.edge(edge).map(|(_, _, e)| e.label.clone()).unwrap_or_default();
                        let did = graph.relabel(edge, crate::graph::label(label), origin);
                        changed |= note(changes, &old, did);
                        changed |= note(changes, label, did);
                    }
                }
            }
            CheckedAction::AddEmptyNode { var, copy_of, place, anchor } => {
                let copy_of = match graph.node(binding.node(*copy_of)) {
                    Node::Word(n) => n,
                    Node::Empty { copy_of, .. } => copy_of,
                    Node::Root => 0,
                };
                let after = match (graph.node(binding.node(*anchor)), place) {
                    (Node::Word(n), Place::After) => n,
                    (Node::Word(n), Place::Before) => n - 1,
                    (Node::Empty { after, .. }, _) => after,
                    (Node::Root, _) => 0,
                };
                let node = graph.add_empty_node(after, copy_of);
                binding.nodes[*var] = Some(node);
                changes.nodes = true;
                changed = true;
            }
            CheckedAction::TransferEdges { mode, direction, from, to, matching } => {
                let (from, to) = (binding.node(*from), binding.node(*to));
                let edges: Vec<(EdgeIndex, NodeIndex, Label)> = match direction {
                    Direction::Incoming => graph.incoming(from).map(|(id, other, e)| (id, other, e.label.clone())).collect(),
                    Direction::Outgoing => graph.outgoing(from).map(|(id, other, e)| (id, other, e.label.clone())).collect(),
                };
                let labels = bound_labels(binding);
                for (id, other, edge_label) in edges {
                    if !matching.matches(&edge_label, &labels) || other == to {
                        continue;
                    }
                    let did = match direction {
                        Direction::Incoming => graph.add_edge(other, to, edge_label.clone(), origin),
                        Direction::Outgoing => graph.add_edge(to, other, edge_label.clone(), origin),
                    };
                    changed |= note(changes, &edge_label, did);
                    if *mode == TransferMode::Move {
                        let did = graph.remove_edge(id);
                        changed |= note(changes, &edge_label, did);
                    }
                }
            }
        }
    }
    changed
}

fn bound_labels<'b>(binding: &'b Binding) -> impl Fn(usize) -> Option<&'b str> + 'b {
    |e| binding.edges[e].as_ref().map(|(_, l)| l.as_str())
}

fn matching_edges(
    graph: &SentenceGraph,
    from: NodeIndex,
    to: NodeIndex,
    test: &LabelTest,
    binding: &Binding,
) -> smallvec::SmallVec<[EdgeIndex; 4]> {
    let labels = bound_labels(binding);
    graph
        .outgoing(from)
        .filter(|(_, d, e)| *d == to && test.matches(&e.label, &labels))
        .map(|(id, _, _)| id)
        .collect()
}

/// Writes the label a template gives for `binding` into `out`; false when a required part has
/// no value (the action is then skipped for this match).
pub fn render(graph: &SentenceGraph, template: &Template, binding: &Binding, out: &mut String) -> bool {
    out.clear();
    for part in &template.parts {
        let start = out.len();
        if part.optional {
            out.push(':');
        }
        let value_start = out.len();
        match &part.value {
            TemplateValue::Literal(text) => out.push_str(text),
            TemplateValue::Edge { edge, part } => {
                if let Some((_, label)) = &binding.edges[*edge] {
                    let (univ, sub) = label.split_once(':').unwrap_or((label, ""));
                    out.push_str(match part {
                        crate::rules::ast::EdgeLabelPart::Label => label,
                        crate::rules::ast::EdgeLabelPart::Univ => univ,
                        crate::rules::ast::EdgeLabelPart::Sub => sub,
                    });
                }
            }
            TemplateValue::Lemma(v) => push_lower(out, graph.lemma(binding.node(*v))),
            TemplateValue::Form(v) => push_lower(out, graph.form(binding.node(*v))),
            TemplateValue::Feature { node, feature } => {
                if let Some(value) = graph.feature(binding.node(*node), feature) {
                    push_lower(out, value);
                }
            }
            TemplateValue::Marker(v) => push_marker(graph, binding.node(*v), out),
        }
        if out.len() == value_start {
            if part.optional {
                out.truncate(start);
            } else if !matches!(part.value, TemplateValue::Literal(_)) {
                return false;
            }
        }
    }
    !out.is_empty()
}

fn push_lower(out: &mut String, value: &str) {
    if value == "_" {
        return;
    }
    if value.bytes().all(|b| !b.is_ascii_uppercase() && b.is_ascii()) {
        out.push_str(value);
    } else {
        out.extend(value.chars().flat_map(char::to_lowercase));
    }
}

/// Lemma of a marker word plus the lemmas of its basic `fixed` children, joined with `_`.
fn push_marker(graph: &SentenceGraph, node: NodeIndex, out: &mut String) {
    push_lower(out, graph.lemma(node));
    if let Node::Word(n) = graph.node(node) {
        for &child in graph.basic_children(n) {
            if graph.basic_deprel(child) == "fixed" {
                out.push('_');
                push_lower(out, graph.lemma(graph.word_node(child)));
            }
        }
    }
}

/// A rule and the nodes and edges of one of its matches.
pub type MatchKey = smallvec::SmallVec<[u32; 12]>;

/// Identity of a binding's match-block part, so a rule fires once per match.
pub fn match_key(rule: u32, binding: &Binding, match_vars: usize) -> MatchKey {
    let mut key = MatchKey::new();
    key.push(rule);
    key.extend(binding.nodes[..match_vars].iter().map(|n| n.map_or(u32::MAX, |n| n.index() as u32)));
    key.extend(binding.edges.iter().map(|e| match *e {
        Some((EdgeRefId::Basic(n), _)) => n,
        Some((EdgeRefId::Enhanced(id), _)) => (1 << 31) | id.index() as u32,
        None => u32::MAX,
    }));
    key
}
