//! Applies a rule's actions to the enhanced graph for one match.

use super::lemmas::Lemmas;
use super::matcher::{Binding, EdgeRefId};
use crate::graph::{upos_bit, Label, Node, Origin, SentenceGraph};
use crate::ud::{push_feature_value, push_label_text, TextFix};
use crate::rules::ast::{
    CheckedAction, Direction, EdgeLabelPart, LabelTest, MarkerSpelling, Place, Template, TemplatePart, TemplateValue,
    TransferMode,
};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};

/// What a round of rewriting changed, for deciding what the next round must search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Relations (bits of [`crate::graph::relation_bit`]) of edges removed, or relabelled
    /// away from.
    pub removed: u64,
    /// Relations of edges added, or relabelled to.
    pub added_relations: u64,
    /// Whether empty nodes were added.
    pub nodes: bool,
    /// Edges added or given a new label (when `seeds` is set).
    pub added: Vec<AddedEdge>,
    /// Whether to record `added`: the seeds of the next round's delta plans. A phase whose
    /// rules have none needs only the relation sets.
    pub seeds: bool,
    /// An action made a label longer than [`super::MAX_LABEL_BYTES`] (and was skipped): the
    /// engine stops the sentence as a runaway.
    pub label_too_long: bool,
}

/// An edge a round added or relabelled: a seed for the next round's delta plans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddedEdge {
    pub head: NodeIndex,
    pub dependent: NodeIndex,
    /// [`crate::graph::relation_code`] of `label`.
    pub code: u8,
    pub label: Label,
}

impl Changes {
    pub fn any(&self) -> bool {
        self.removed != 0 || self.added_relations != 0 || self.nodes
    }

    pub fn clear(&mut self) {
        self.removed = 0;
        self.added_relations = 0;
        self.nodes = false;
        self.added.clear();
        self.label_too_long = false;
    }

    /// An edge with this [`crate::graph::relation_code`] was removed or relabelled away from.
    fn removed(&mut self, code: u8) {
        self.removed |= 1u64 << (code & !crate::graph::SUBTYPED);
    }

    /// An edge was added, or relabelled to `label` (whose relation code is `code`).
    fn added(&mut self, head: NodeIndex, dependent: NodeIndex, code: u8, label: Label) {
        self.added_relations |= 1u64 << (code & !crate::graph::SUBTYPED);
        if self.seeds {
            self.added.push(AddedEdge { head, dependent, code, label });
        }
    }
}

/// Applies `actions` for `binding` (extended with the empty nodes the actions create),
/// recording what changed in `changes`. Returns whether the graph changed. Lemmas in labels
/// are read through `lemmas`.
pub fn apply(
    graph: &mut SentenceGraph,
    lemmas: &Lemmas,
    actions: &[CheckedAction],
    binding: &mut Binding,
    origin: Origin,
    changes: &mut Changes,
    label: &mut String,
) -> bool {
    let mut changed = false;
    for action in actions {
        match action {
            CheckedAction::AddEdge { from, to, label: template } => {
                let (from, to) = (binding.node(*from), binding.node(*to));
                if from == to {
                    continue;
                }
                if let Some(label) = label_of(graph, lemmas, template, binding, label, changes) {
                    if let Some(code) = graph.add_edge(from, to, label, origin) {
                        changes.added(from, to, code, label);
                        changed = true;
                    }
                }
            }
            CheckedAction::DeleteEdge { from, to, label: test } => {
                for edge in matching_edges(graph, binding.node(*from), binding.node(*to), test, binding) {
                    let old = graph.edge(edge).map_or(0, |(_, _, e)| e.code);
                    if graph.remove_edge(edge) {
                        changes.removed(old);
                        changed = true;
                    }
                }
            }
            CheckedAction::Relabel { from, to, label: test, new_label } => {
                if let Some(label) = label_of(graph, lemmas, new_label, binding, label, changes) {
                    let (from, to) = (binding.node(*from), binding.node(*to));
                    for edge in matching_edges(graph, from, to, test, binding) {
                        if let Some((old, new)) = graph.relabel(edge, label, origin) {
                            changes.removed(old);
                            changes.added(from, to, new, label);
                            changed = true;
                        }
                    }
                }
            }
            CheckedAction::AddEmptyNode { var, copy_of, place, anchor } => {
                // A blank node (no word to copy) shows `_` in every column: copy_of 0.
                let copy_of = match copy_of.map(|v| graph.node(binding.node(v))) {
                    Some(Node::Word(n)) => n,
                    Some(Node::Empty { copy_of, .. }) => copy_of,
                    Some(Node::Root) | None => 0,
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
                // The edges to transfer, chosen before any is changed.
                let edges: Vec<(EdgeIndex, NodeIndex, Label, u8)> = {
                    let labels = bound_labels(graph, binding);
                    let chosen = |&(_, other, e): &(EdgeIndex, NodeIndex, &crate::graph::Edge)| {
                        other != to && matching.matches(graph.label_text(e.label), &labels)
                    };
                    let keep = |(id, other, e): (EdgeIndex, NodeIndex, &crate::graph::Edge)| (id, other, e.label, e.code);
                    match direction {
                        Direction::Incoming => graph.incoming(from).filter(chosen).map(keep).collect(),
                        Direction::Outgoing => graph.outgoing(from).filter(chosen).map(keep).collect(),
                    }
                };
                for (id, other, edge_label, code) in edges {
                    let (head, dependent) = match direction {
                        Direction::Incoming => (other, to),
                        Direction::Outgoing => (to, other),
                    };
                    if let Some(code) = graph.add_edge(head, dependent, edge_label, origin) {
                        changes.added(head, dependent, code, edge_label);
                        changed = true;
                    }
                    if *mode == TransferMode::Move && graph.remove_edge(id) {
                        changes.removed(code);
                        changed = true;
                    }
                }
            }
        }
    }
    changed
}

fn bound_labels<'b>(graph: &'b SentenceGraph, binding: &'b Binding) -> impl Fn(usize) -> Option<&'b str> + 'b {
    |e| binding.label(graph, e)
}

fn matching_edges(
    graph: &SentenceGraph,
    from: NodeIndex,
    to: NodeIndex,
    test: &LabelTest,
    binding: &Binding,
) -> smallvec::SmallVec<[EdgeIndex; 4]> {
    // A test only one label passes finds at most one edge (the graph has no two edges with one
    // label between two nodes): the label is read once, not tested edge by edge.
    let single = match test {
        // A label the graph never had is on no edge.
        LabelTest::Exact(label) => Some(graph.find_label(label)),
        LabelTest::SameLabel(e) => Some(binding.label_id(graph, *e)),
        _ => None,
    };
    if let Some(label) = single {
        return label.and_then(|label| graph.find_edge(from, to, label)).into_iter().collect();
    }
    let labels = bound_labels(graph, binding);
    graph.edges_between(from, to).filter(|(_, e)| test.matches(graph.label_text(e.label), &labels)).map(|(id, _)| id).collect()
}

/// The label a template gives for `binding` (`None`: a required part has no value, or the
/// label is too long — noted in `changes` — and the action is skipped for this match). `out`
/// holds the text while it is built.
fn label_of(
    graph: &mut SentenceGraph,
    lemmas: &Lemmas,
    template: &Template,
    binding: &Binding,
    out: &mut String,
    changes: &mut Changes,
) -> Option<Label> {
    // `{e.label}` alone, as in `H =[e.label]=> N`: the matched label itself, no text built.
    if let [TemplatePart { value: TemplateValue::Edge { edge, part: EdgeLabelPart::Label }, optional: false }] = template.parts[..] {
        return binding.label_id(graph, edge).filter(|&l| l != Label::EMPTY);
    }
    let mut fixes = TextFixes::default();
    let rendered = render(graph, lemmas, template, binding, out, &mut fixes);
    // (Text cleaned for a label that is not written is no repair.)
    if fixes.cleaned && rendered {
        graph.note_repair(crate::ud::repairs::TEXT_CLEANED);
    }
    if fixes.dropped {
        graph.note_repair(crate::ud::repairs::TEXT_DROPPED);
    }
    if !rendered {
        return None;
    }
    // Checked before interning: a label that grows each step is never stored.
    if out.len() > super::MAX_LABEL_BYTES {
        changes.label_too_long = true;
        return None;
    }
    // Interning repairs what the parts' cleaning cannot see: a label of too many parts.
    Some(graph.intern(out))
}

/// What cleaning the input text in a label's parts did ([`crate::ud::push_label_text`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TextFixes {
    /// Some text lost characters or was normalized.
    pub cleaned: bool,
    /// Some part had text of which nothing was left: it is left out (a required part: the
    /// action is skipped, and the edge keeps its bare label).
    pub dropped: bool,
}

impl TextFixes {
    fn note(&mut self, fix: TextFix) {
        match fix {
            TextFix::Kept => {}
            TextFix::Cleaned => self.cleaned = true,
            TextFix::Dropped => self.dropped = true,
        }
    }
}

/// Writes the label a template gives for `binding` into `out`; false when a required part has
/// no value (the action is then skipped for this match). Text from the input (lemmas, forms,
/// feature values) goes in cleaned ([`crate::ud::push_label_text`]); `fixes` tells what that did.
pub fn render(
    graph: &SentenceGraph,
    lemmas: &Lemmas,
    template: &Template,
    binding: &Binding,
    out: &mut String,
    fixes: &mut TextFixes,
) -> bool {
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
                if let Some(label) = binding.label(graph, *edge) {
                    // A byte scan: labels are short, and str::split_once(char) is slower here.
                    let colon = || label.bytes().position(|b| b == b':');
                    out.push_str(match part {
                        crate::rules::ast::EdgeLabelPart::Label => label,
                        crate::rules::ast::EdgeLabelPart::Univ => colon().map_or(label, |i| &label[..i]),
                        crate::rules::ast::EdgeLabelPart::Sub => colon().map_or("", |i| &label[i + 1..]),
                    });
                }
            }
            TemplateValue::Lemma(v) => fixes.note(push_lemma(out, graph, lemmas, binding.node(*v))),
            TemplateValue::Form(v) => fixes.note(push_label_text(out, graph.form(binding.node(*v)))),
            TemplateValue::Feature { node, feature } => {
                if let Some(value) = graph.feature(binding.node(*node), feature) {
                    fixes.note(push_feature_value(out, value));
                }
            }
            TemplateValue::Marker { node, spelling } => {
                fixes.note(push_marker(graph, lemmas, binding.node(*node), *spelling, out))
            }
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

/// A node's lemma as a label part ([`Lemmas::push_label_lemma`]).
fn push_lemma(out: &mut String, graph: &SentenceGraph, lemmas: &Lemmas, node: NodeIndex) -> TextFix {
    lemmas.push_label_lemma(out, graph, node)
}

/// Lemma of a marker word plus the lemmas of its basic `fixed` children, joined with `_` (a
/// word of which nothing is left as a label part is left out, with its joint); forms, lower-cased,
/// instead of lemmas, or the first word alone, where `spelling` says so.
fn push_marker(
    graph: &SentenceGraph,
    lemmas: &Lemmas,
    node: NodeIndex,
    spelling: MarkerSpelling,
    out: &mut String,
) -> TextFix {
    const FIXED: u8 = crate::graph::bare_relation_code("fixed");
    let start = out.len();
    let children: &[u32] = match graph.node(node) {
        Node::Word(n) if !spelling.first_word => graph.basic_children(n),
        _ => &[],
    };
    let all_forms = spelling.fixed_forms && children.iter().any(|&c| graph.basic_code(c) == FIXED);
    let push_word = |out: &mut String, word: NodeIndex| {
        if all_forms || (spelling.form_upos != 0 && spelling.form_upos & upos_bit(graph.upos(word)) != 0) {
            push_label_text(out, graph.form(word))
        } else {
            push_lemma(out, graph, lemmas, word)
        }
    };
    let mut fix = push_word(out, node);
    for &child in children {
        if graph.basic_code(child) == FIXED {
            let joint = out.len();
            if joint > start {
                out.push('_');
            }
            let word = out.len();
            fix = fix.max(push_word(out, graph.word_node(child)));
            if out.len() == word {
                out.truncate(joint);
            }
        }
    }
    // Some words dropped but others left: the marker was cleaned, not dropped.
    match fix {
        TextFix::Dropped if out.len() > start => TextFix::Cleaned,
        _ => fix,
    }
}

/// The matches applied in a phase, so that a rule fires once per match. A match is known by
/// its rule and the nodes and edges of its match block; these keys sit end to end in one
/// buffer, found through a hash table of their ranges: recording a match allocates nothing.
#[derive(Default)]
pub struct Fired {
    keys: Vec<u32>,
    table: hashbrown::HashTable<(u32, u32)>,
}

impl std::fmt::Debug for Fired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fired({} matches)", self.table.len())
    }
}

impl Fired {
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    pub fn clear(&mut self) {
        self.keys.clear();
        self.table.clear();
    }

    /// Records the match of rule `rule` that `binding` holds (its first `match_vars` node
    /// variables and every edge variable); false if it was recorded before.
    pub fn insert(&mut self, rule: u32, binding: &Binding, match_vars: usize) -> bool {
        let start = self.keys.len();
        self.keys.push(rule);
        self.keys.extend(binding.nodes[..match_vars].iter().map(|n| n.map_or(u32::MAX, |n| n.index() as u32)));
        self.keys.extend(binding.edges.iter().map(|e| match *e {
            Some(EdgeRefId::Basic(n)) => n,
            Some(EdgeRefId::Enhanced(id)) => (1 << 31) | id.index() as u32,
            None => u32::MAX,
        }));
        let end = self.keys.len();
        let keys = &self.keys;
        let key = &keys[start..end];
        let hash = key_hash(key);
        if self.table.find(hash, |&(s, e)| &keys[s as usize..e as usize] == key).is_some() {
            self.keys.truncate(start);
            return false;
        }
        self.table.insert_unique(hash, (start as u32, end as u32), |&(s, e)| key_hash(&keys[s as usize..e as usize]));
        true
    }
}

fn key_hash(key: &[u32]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    for &k in key {
        hasher.write_u32(k);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::Changes;
    use crate::graph::{relation_bit, relation_code};

    /// Removing a subtyped edge marks its universal relation (the code's subtype bit is not a
    /// relation: shifting by it overflows).
    #[test]
    fn removals_are_recorded_by_universal_relation() {
        let mut changes = Changes::default();
        changes.removed(relation_code("obl:tmod"));
        changes.removed(relation_code("case"));
        assert_eq!(changes.removed, relation_bit("obl") | relation_bit("case"));
    }
}
