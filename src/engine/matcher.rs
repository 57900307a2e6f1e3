//! Finds every match of a compiled pattern in a sentence graph.
//!
//! Matching is edge-induced and injective: each pattern edge needs a matching graph edge, extra
//! graph edges between matched nodes do not matter, parallel edges give separate matches (when
//! the pattern names the edge), and distinct variables bind distinct nodes. petgraph's
//! isomorphism search is node-induced and confused by parallel edges, hence this matcher.

use super::compile::{Plan, Step};
use crate::graph::{feature_value, Label, SentenceGraph};
use crate::conllu::sentence::{FEATS, FORM, LEMMA, MISC, UPOS, XPOS};
use crate::rules::ast::{CheckedValueTest, Field, FieldTest, Layer, OrderTest, Operand};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeRef, IntoEdgeReferences};
use smallvec::SmallVec;

/// A matched edge: which one, and its label when matched.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EdgeRefId {
    /// The basic edge into word `n`.
    Basic(u32),
    Enhanced(EdgeIndex),
}

/// Variables bound so far: `nodes[v]` for node variable `v`, `edges[e]` for edge variable `e`.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    pub nodes: SmallVec<[Option<NodeIndex>; 8]>,
    pub edges: SmallVec<[Option<(EdgeRefId, Label)>; 2]>,
}

impl Binding {
    pub fn new(vars: usize, edge_vars: usize) -> Binding {
        Binding { nodes: smallvec::smallvec![None; vars], edges: smallvec::smallvec![None; edge_vars] }
    }

    pub fn node(&self, var: usize) -> NodeIndex {
        self.nodes[var].expect("the checker guarantees variables are bound before use")
    }

    fn is_used(&self, node: NodeIndex) -> bool {
        self.nodes.iter().any(|n| *n == Some(node))
    }
}

/// Calls `found` for each complete match of `plan` extending `binding`, until it returns false.
/// `withouts` are checked on each complete match (a match of any of them rejects it).
pub fn search(
    graph: &SentenceGraph,
    plan: &Plan,
    withouts: &[Plan],
    binding: &mut Binding,
    found: &mut dyn FnMut(&Binding) -> bool,
) {
    if !passes(graph, plan, &plan.before, binding) {
        return;
    }
    step(graph, plan, withouts, 0, binding, found);
}

/// Whether `plan` has at least one match extending `binding`.
pub fn exists(graph: &SentenceGraph, plan: &Plan, binding: &mut Binding) -> bool {
    let mut any = false;
    search(graph, plan, &[], binding, &mut |_| {
        any = true;
        false
    });
    any
}

/// A candidate edge: head, dependent, which edge, its label and the label's relation index.
type Candidate<'g> = (NodeIndex, NodeIndex, EdgeRefId, &'g str, u8);
type Candidates<'g> = SmallVec<[Candidate<'g>; 8]>;

/// Returns false when the search must stop.
fn step(
    graph: &SentenceGraph,
    plan: &Plan,
    withouts: &[Plan],
    index: usize,
    binding: &mut Binding,
    found: &mut dyn FnMut(&Binding) -> bool,
) -> bool {
    let Some(current) = plan.steps.get(index) else {
        for without in withouts {
            if exists(graph, without, binding) {
                return true;
            }
        }
        return found(binding);
    };
    match *current {
        Step::ScanNodes { var } => {
            for node in graph.nodes() {
                if binding.is_used(node) {
                    continue;
                }
                binding.nodes[var] = Some(node);
                let go_on = !passes(graph, plan, &plan.filters[index], binding)
                    || step(graph, plan, withouts, index + 1, binding, found);
                binding.nodes[var] = None;
                if !go_on {
                    return false;
                }
            }
            true
        }
        Step::ScanEdges { edge, relations } => {
            let test = &plan.pattern.edges[edge];
            let mut candidates = Candidates::new();
            match relations {
                Some(bits) if test.layer == Layer::Basic => {
                    for dependent in graph.words_with_relations(bits) {
                        candidates.push(basic_edge(graph, dependent));
                    }
                }
                _ => edge_candidates(graph, test.layer, None, None, &mut candidates),
            }
            try_edges(graph, plan, withouts, index, binding, found, edge, &candidates)
        }
        Step::FollowIn { edge } | Step::FollowOut { edge } | Step::Connect { edge } => {
            let test = &plan.pattern.edges[edge];
            let mut candidates = Candidates::new();
            edge_candidates(graph, test.layer, binding.nodes[test.from], binding.nodes[test.to], &mut candidates);
            try_edges(graph, plan, withouts, index, binding, found, edge, &candidates)
        }
    }
}

/// Tries each candidate edge for pattern edge `test` at step `index`; false when the search
/// must stop.
#[allow(clippy::too_many_arguments)]
fn try_edges(
    graph: &SentenceGraph,
    plan: &Plan,
    withouts: &[Plan],
    index: usize,
    binding: &mut Binding,
    found: &mut dyn FnMut(&Binding) -> bool,
    edge: usize,
    candidates: &[Candidate],
) -> bool {
    let test = &plan.pattern.edges[edge];
    let filter = plan.relation_filters[edge];
    let bind_from = binding.nodes[test.from].is_none();
    let bind_to = binding.nodes[test.to].is_none();
    for &(from, to, id, label, relation) in candidates {
        if test.from == test.to && from != to {
            continue;
        }
        let labels = |e: usize| binding.edges[e].as_ref().map(|(_, l)| l.as_str());
        if !filter.check(relation).unwrap_or_else(|| test.label.matches(label, &labels)) {
            continue;
        }
        // Injectivity: a newly bound variable takes a node no other variable has.
        if (bind_from && binding.is_used(from)) || (bind_to && binding.is_used(to)) || (bind_from && bind_to && from == to) {
            continue;
        }
        if bind_from {
            binding.nodes[test.from] = Some(from);
        }
        if bind_to {
            binding.nodes[test.to] = Some(to);
        }
        let saved = test.var.map(|e| (e, binding.edges[e].replace((id, crate::graph::label(label)))));
        let go_on = !passes(graph, plan, &plan.filters[index], binding)
            || step(graph, plan, withouts, index + 1, binding, found);
        if bind_from {
            binding.nodes[test.from] = None;
        }
        if bind_to {
            binding.nodes[test.to] = None;
        }
        if let Some((e, previous)) = saved {
            binding.edges[e] = previous;
        }
        if !go_on {
            return false;
        }
    }
    true
}

fn basic_edge<'g>(graph: &SentenceGraph<'g>, dependent: u32) -> Candidate<'g> {
    let head = graph.basic_head(dependent);
    let relation = graph.basic_relation(dependent);
    (graph.word_node(head), graph.word_node(dependent), EdgeRefId::Basic(dependent), graph.basic_deprel(dependent), relation)
}

/// Edges of `layer` from `from` (if bound) to `to` (if bound).
fn edge_candidates<'g>(
    graph: &'g SentenceGraph,
    layer: Layer,
    from: Option<NodeIndex>,
    to: Option<NodeIndex>,
    out: &mut Candidates<'g>,
) {
    match layer {
        Layer::Basic => {
            let word_of = |node: NodeIndex| match graph.node(node) {
                crate::graph::Node::Word(n) => Some(n),
                crate::graph::Node::Root => Some(0),
                crate::graph::Node::Empty { .. } => None,
            };
            match (from, to) {
                (_, Some(t)) => {
                    if let Some(d) = word_of(t).filter(|&d| d != 0) {
                        if from.is_none_or(|f| word_of(f) == Some(graph.basic_head(d))) {
                            out.push(basic_edge(graph, d));
                        }
                    }
                }
                (Some(f), None) => {
                    if let Some(h) = word_of(f) {
                        out.extend(graph.basic_children(h).iter().map(|&d| basic_edge(graph, d)));
                    }
                }
                (None, None) => out.extend((1..=graph.word_count()).map(|d| basic_edge(graph, d))),
            }
        }
        Layer::Enhanced => match (from, to) {
            // A dependent has few heads; a head may have many dependents.
            (Some(f), Some(t)) => out.extend(
                graph
                    .incoming(t)
                    .filter(|(_, h, _)| *h == f)
                    .map(|(id, h, e)| (h, t, EdgeRefId::Enhanced(id), e.label.as_str(), e.relation)),
            ),
            (None, Some(t)) => {
                out.extend(graph.incoming(t).map(|(id, h, e)| (h, t, EdgeRefId::Enhanced(id), e.label.as_str(), e.relation)))
            }
            (Some(f), None) => {
                out.extend(graph.outgoing(f).map(|(id, d, e)| (f, d, EdgeRefId::Enhanced(id), e.label.as_str(), e.relation)))
            }
            (None, None) => out.extend(
                graph
                    .petgraph()
                    .edge_references()
                    .map(|e| {
                        let w = e.weight();
                        (e.source(), e.target(), EdgeRefId::Enhanced(e.id()), w.label.as_str(), w.relation)
                    }),
            ),
        },
    }
}

fn passes(graph: &SentenceGraph, plan: &Plan, filters: &super::compile::Filters, binding: &Binding) -> bool {
    let pattern = &plan.pattern;
    filters.node_tests.iter().all(|&i| {
        let test = &pattern.nodes[i];
        let node = binding.node(test.var);
        test.tests.iter().all(|t| field_test(graph, node, t))
    }) && filters.absent_edges.iter().all(|&i| {
        let test = &pattern.edges[i];
        let filter = plan.relation_filters[i];
        let mut candidates = Candidates::new();
        edge_candidates(graph, test.layer, binding.nodes[test.from], binding.nodes[test.to], &mut candidates);
        let labels = |e: usize| binding.edges[e].as_ref().map(|(_, l)| l.as_str());
        !candidates
            .iter()
            .any(|&(_, _, _, label, relation)| filter.check(relation).unwrap_or_else(|| test.label.matches(label, &labels)))
    }) && filters.order.iter().all(|&i| order_test(graph, &pattern.order[i], binding))
}

/// The value a field test looks at; `None` when absent (`_`, or a feature not in FEATS).
pub fn field_value<'s>(graph: &SentenceGraph<'s>, node: NodeIndex, field: &Field) -> Option<&'s str> {
    let column = |c: usize| Some(graph.column(node, c)).filter(|v| *v != "_");
    match field {
        Field::Form => column(FORM),
        Field::Lemma => column(LEMMA),
        Field::Upos => column(UPOS),
        Field::Xpos => column(XPOS),
        Field::Feature(name) => feature_value(graph.column(node, FEATS), name),
        Field::Misc(None) => column(MISC),
        Field::Misc(Some(key)) => feature_value(graph.column(node, MISC), key),
    }
}

fn field_test(graph: &SentenceGraph, node: NodeIndex, test: &FieldTest) -> bool {
    let holds = match field_value(graph, node, &test.field) {
        None => false,
        Some(value) => match &test.test {
            CheckedValueTest::Equals { values, case_insensitive: false } => values.iter().any(|v| v == value),
            CheckedValueTest::Equals { values, case_insensitive: true } => {
                let lower = value.to_lowercase();
                values.iter().any(|v| *v == lower)
            }
            CheckedValueTest::Regex(re) => re.is_match(value),
            CheckedValueTest::InLexicon { words, .. } => words.contains(value),
            CheckedValueTest::Present => true,
        },
    };
    holds != test.negated
}

/// First and last position covered by an operand: a node, or its basic subtree.
fn extent(graph: &SentenceGraph, operand: &Operand, binding: &Binding) -> ((u32, u32), (u32, u32)) {
    match *operand {
        Operand::Node(v) => {
            let p = graph.position(binding.node(v));
            (p, p)
        }
        Operand::Subtree(v) => {
            let node = binding.node(v);
            let p = graph.position(node);
            let crate::graph::Node::Word(root) = graph.node(node) else { return (p, p) };
            let (mut first, mut last) = (root, root);
            let mut stack = vec![root];
            while let Some(w) = stack.pop() {
                first = first.min(w);
                last = last.max(w);
                stack.extend_from_slice(graph.basic_children(w));
            }
            ((first, 0), (last, 0))
        }
    }
}

fn order_test(graph: &SentenceGraph, test: &OrderTest, binding: &Binding) -> bool {
    match test {
        OrderTest::Distinct(a, b) => binding.nodes[*a] != binding.nodes[*b],
        OrderTest::Before { left, right, immediately } => {
            let (_, left_last) = extent(graph, left, binding);
            let (right_first, _) = extent(graph, right, binding);
            if *immediately {
                // Counted in words: empty nodes between two words do not separate them.
                left_last.0 + 1 == right_first.0 && right_first.1 == 0
            } else {
                left_last < right_first
            }
        }
    }
}
