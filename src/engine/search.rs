//! Finds every match of a compiled pattern in a sentence graph.
//!
//! Matching is edge-induced and injective: each pattern edge needs a matching graph edge, extra
//! graph edges between matched nodes do not matter, parallel edges give separate matches (when
//! the pattern names the edge), and distinct variables bind distinct nodes. petgraph's
//! isomorphism search is node-induced and confused by parallel edges, hence this matcher.

use super::binding::{edge_label, Binding, EdgeRefId};
use super::checks::{field_test, order_test};
use super::lemmas::Lemmas;
use super::pattern::{Depth, Layer};
use super::plan::{FieldCheck, Filters, Plan, Step};
use super::relation_filter::RelationFilter;
use crate::graph::{Label, SentenceGraph};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, IntoEdgeReferences};

/// The search work a sentence may still do: candidate bindings it may try (a node for a
/// scanned variable, an edge for a pattern edge, whether it then passes its tests or not;
/// `without` searches included). Each candidate costs at most a node's degree more, so the
/// budget bounds the time of any pattern, whatever power of the sentence's length its
/// search would take. Once spent, every search stops at once and says so
/// ([`Budget::exhausted`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    left: u64,
    exhausted: bool,
}

impl Budget {
    pub fn new(candidates: u64) -> Budget {
        Budget {
            left: candidates,
            exhausted: false,
        }
    }

    /// Whether a search wanted to try a candidate past the budget (and was stopped).
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Counts one candidate; false (and exhausted from now on) when none is left.
    #[inline]
    fn spend(&mut self) -> bool {
        if self.left == 0 {
            self.exhausted = true;
            return false;
        }
        self.left -= 1;
        true
    }
}

/// Calls `found` for each complete match of `plan` extending `binding`, until it returns false
/// or `budget` is spent ([`Budget::exhausted`]: the matches found are then not all there are).
/// `withouts` are checked on each complete match (a match of any of them rejects it). Lemma
/// tests read `lemmas`.
pub fn search(
    graph: &SentenceGraph,
    lemmas: &mut Lemmas,
    plan: &Plan,
    withouts: &[Plan],
    binding: &mut Binding,
    budget: &mut Budget,
    found: &mut dyn FnMut(&Binding) -> bool,
) {
    if !plan.before.is_empty() && !passes(graph, lemmas, plan, &plan.before, binding) {
        return;
    }
    Search {
        graph,
        lemmas,
        plan,
        withouts,
        binding,
        budget,
        found,
    }
    .step(0);
}

/// Whether `plan` has at least one match extending `binding` (false as well when `budget` ran
/// out first: the caller reads [`Budget::exhausted`]).
pub fn exists(
    graph: &SentenceGraph,
    lemmas: &mut Lemmas,
    plan: &Plan,
    binding: &mut Binding,
    budget: &mut Budget,
) -> bool {
    let mut any = false;
    search(graph, lemmas, plan, &[], binding, budget, &mut |_| {
        any = true;
        false
    });
    any
}

/// A candidate edge: head, dependent, which edge, the relation code of its label, and the
/// label of an enhanced edge. A basic edge's label is read from its word only when a label test
/// needs the text ([`candidate_label`]): most tests are decided by the relation code.
type Candidate = (NodeIndex, NodeIndex, EdgeRefId, u8, Option<Label>);

fn candidate_label<'g>(graph: &'g SentenceGraph, id: EdgeRefId, label: Option<Label>) -> &'g str {
    match label {
        Some(label) => graph.label_text(label),
        None => edge_label(graph, id),
    }
}

/// One search in progress: what every step reads, in one place rather than passed down each
/// recursive call.
struct Search<'s, 'g> {
    graph: &'s SentenceGraph<'g>,
    lemmas: &'s mut Lemmas,
    plan: &'s Plan,
    withouts: &'s [Plan],
    binding: &'s mut Binding,
    budget: &'s mut Budget,
    found: &'s mut dyn FnMut(&Binding) -> bool,
}

impl Search<'_, '_> {
    /// Runs the plan from step `index`; returns false when the search must stop.
    fn step(&mut self, index: usize) -> bool {
        let (graph, plan) = (self.graph, self.plan);
        let Some(current) = plan.steps.get(index) else {
            for without in self.withouts {
                let binding = &*self.binding;
                let possible = without
                    .outer_anchors
                    .iter()
                    .all(|(v, a)| binding.nodes[*v].is_none_or(|n| a.admits(graph, n)));
                if possible && exists(graph, self.lemmas, without, self.binding, self.budget) {
                    return true;
                }
                // A without search cut short proves nothing: the match is not kept.
                if self.budget.exhausted() {
                    return false;
                }
            }
            return (self.found)(self.binding);
        };
        match *current {
            Step::ScanNodes { var, empty } => {
                // Empty nodes come after the words.
                let skip = if empty {
                    graph.word_count() as usize
                } else {
                    0
                };
                for node in graph.nodes().skip(skip) {
                    if !self.budget.spend() {
                        return false;
                    }
                    if self.binding.is_used(node) {
                        continue;
                    }
                    self.binding.nodes[var] = Some(node);
                    let go_on = (plan.is_filtered(index)
                        && !passes(graph, self.lemmas, plan, &plan.filters[index], self.binding))
                        || self.step(index + 1);
                    self.binding.nodes[var] = None;
                    if !go_on {
                        return false;
                    }
                }
                true
            }
            Step::ScanEdges { edge } => {
                let info = plan.edge_info[edge];
                let filter = info.filter;
                if info.basic && filter.allowed() != u64::MAX {
                    // The relation index gives exactly the words with these relations.
                    graph
                        .words_with_relations(filter.allowed())
                        .filter(|&dependent| filter.admits(graph.basic_code(dependent)))
                        .all(|dependent| self.try_edge(index, edge, basic_edge(graph, dependent)))
                } else {
                    let layer = if info.basic {
                        Layer::Basic
                    } else {
                        Layer::Enhanced
                    };
                    each_edge(graph, layer, None, None, filter, &mut |candidate| {
                        self.try_edge(index, edge, candidate)
                    })
                }
            }
            // (An anchor not bound yet leaves the step to the general ones below.)
            Step::FollowOut { edge }
                if plan
                    .nearest
                    .get(index)
                    .copied()
                    .flatten()
                    .is_some_and(|n| self.binding.nodes[n.anchor].is_some()) =>
            {
                let nearest = plan.nearest[index].expect("checked");
                let info = plan.edge_info[edge];
                let (Some(from), Some(anchor)) = (
                    self.binding.nodes[info.from],
                    self.binding.nodes[nearest.anchor],
                ) else {
                    return true;
                };
                // An empty node has no basic children.
                let Some(head) = graph.word_of(from) else {
                    return true;
                };
                let children = graph.basic_children_for(head, info.filter.allowed());
                let at = graph.position(anchor);
                let binding = &*self.binding;
                let label = &plan.pattern.edges[edge].label;
                let labels = |e: usize| binding.edges[e].map(|id| edge_label(graph, id));
                let passes = |&d: &u32| {
                    let code = graph.basic_code(d);
                    info.filter.admits(code)
                        && (info.filter.is_sure(code)
                            || label.matches(graph.basic_deprel(d), &labels))
                        && !binding.is_used(graph.word_node(d))
                };
                // Children are in word order: the nearest after (before) the anchor.
                let nearest = if nearest.after {
                    let start = children.partition_point(|&c| (c, 0) <= at);
                    children[start..].iter().find(|d| passes(d))
                } else {
                    let end = children.partition_point(|&c| (c, 0) < at);
                    children[..end].iter().rev().find(|d| passes(d))
                };
                match nearest {
                    Some(&d) => self.try_edge(index, edge, basic_edge(graph, d)),
                    None => true,
                }
            }
            Step::FollowOut { edge }
                if plan.between.get(index).is_some_and(|b| *b != (None, None)) =>
            {
                let info = plan.edge_info[edge];
                let Some(head) = self.binding.nodes[info.from].and_then(|f| graph.word_of(f))
                else {
                    return true;
                };
                let children = graph.basic_children_for(head, info.filter.allowed());
                let (after, before) = plan.between[index];
                let position = |v: Option<usize>| {
                    v.and_then(|v| self.binding.nodes[v])
                        .map(|n| graph.position(n))
                };
                let start =
                    position(after).map_or(0, |at| children.partition_point(|&c| (c, 0) <= at));
                let end = position(before).map_or(children.len(), |at| {
                    children.partition_point(|&c| (c, 0) < at)
                });
                children[start..end.max(start)]
                    .iter()
                    .filter(|&&d| info.filter.admits(graph.basic_code(d)))
                    .all(|&d| self.try_edge(index, edge, basic_edge(graph, d)))
            }
            Step::Descend { edge, depth } => self.descend(index, edge, depth),
            Step::FollowIn { edge } | Step::FollowOut { edge } | Step::Connect { edge } => {
                let info = plan.edge_info[edge];
                let layer = if info.basic {
                    Layer::Basic
                } else {
                    Layer::Enhanced
                };
                let (from, to) = (self.binding.nodes[info.from], self.binding.nodes[info.to]);
                each_edge(graph, layer, from, to, info.filter, &mut |candidate| {
                    self.try_edge(index, edge, candidate)
                })
            }
        }
    }

    /// Runs step `index`, a descent along pattern edge `edge` ([`super::descent`]).
    fn descend(&mut self, index: usize, edge: usize, depth: Depth) -> bool {
        let (graph, plan) = (self.graph, self.plan);
        let info = plan.edge_info[edge];
        let (from, to) = (self.binding.nodes[info.from], self.binding.nodes[info.to]);
        let label = &plan.pattern.edges[edge].label;
        // The pairs first, then the search from each: the walk reads the binding the search
        // changes. (Bounded: a subtree's words, or `max` heads per word.)
        let mut pairs: smallvec::SmallVec<[(NodeIndex, NodeIndex); 16]> = smallvec::SmallVec::new();
        {
            let binding = &*self.binding;
            let labels = |e: usize| binding.edges[e].map(|id| edge_label(graph, id));
            let passes = |d: u32| {
                let code = graph.basic_code(d);
                info.filter.admits(code)
                    && (info.filter.is_sure(code)
                        || label.matches(edge_label(graph, EdgeRefId::Basic(d)), &labels))
            };
            super::descent::each_pair(graph, &info, depth, from, to, &passes, &mut |h, d| {
                pairs.push((h, d));
                true
            });
        }
        pairs.into_iter().all(|(h, d)| {
            let Some(word) = graph.word_of(d) else {
                return true;
            };
            self.try_edge(
                index,
                edge,
                (h, d, EdgeRefId::Basic(word), graph.basic_code(word), None),
            )
        })
    }

    /// Tries one candidate edge for pattern edge `edge` at step `index` (its relation already
    /// passed the relation filter); false when the search must stop.
    fn try_edge(
        &mut self,
        index: usize,
        edge: usize,
        (from, to, id, code, label): Candidate,
    ) -> bool {
        if !self.budget.spend() {
            return false;
        }
        let (graph, plan) = (self.graph, self.plan);
        let info = &plan.edge_info[edge];
        if info.from == info.to && from != to {
            return true;
        }
        let binding = &mut *self.binding;
        if !info.filter.is_sure(code) {
            let labels = |e: usize| binding.edges[e].map(|id| edge_label(graph, id));
            if !plan.pattern.edges[edge]
                .label
                .matches(candidate_label(graph, id, label), &labels)
            {
                return true;
            }
        }
        let bind_from = binding.nodes[info.from].is_none();
        let bind_to = binding.nodes[info.to].is_none();
        // Injectivity: a newly bound variable takes a node no other variable has.
        if (bind_from && binding.is_used(from))
            || (bind_to && binding.is_used(to))
            || (bind_from && bind_to && from == to)
        {
            return true;
        }
        if bind_from {
            binding.nodes[info.from] = Some(from);
        }
        if bind_to {
            binding.nodes[info.to] = Some(to);
        }
        let saved = info.var.map(|e| (e, binding.edges[e].replace(id)));
        let go_on = (plan.is_filtered(index)
            && !passes(graph, self.lemmas, plan, &plan.filters[index], binding))
            || self.step(index + 1);
        let binding = &mut *self.binding;
        if bind_from {
            binding.nodes[info.from] = None;
        }
        if bind_to {
            binding.nodes[info.to] = None;
        }
        if let Some((e, previous)) = saved {
            binding.edges[e] = previous;
        }
        go_on
    }
}

fn basic_edge(graph: &SentenceGraph, dependent: u32) -> Candidate {
    let head = graph.basic_head(dependent);
    let code = graph.basic_code(dependent);
    (
        graph.word_node(head),
        graph.word_node(dependent),
        EdgeRefId::Basic(dependent),
        code,
        None,
    )
}

/// Calls `visit` on each edge of `layer` from `from` (if bound) to `to` (if bound) that
/// `filter` admits, until it returns false; returns false then.
/// Edges are offered directly from the graph, not collected first.
fn each_edge(
    graph: &SentenceGraph,
    layer: Layer,
    from: Option<NodeIndex>,
    to: Option<NodeIndex>,
    filter: RelationFilter,
    visit: &mut impl FnMut(Candidate) -> bool,
) -> bool {
    let admits = |code: u8| filter.admits(code);
    match layer {
        Layer::Basic => {
            let word_of = |node: NodeIndex| match graph.node(node) {
                crate::graph::Node::Word(n) => Some(n),
                crate::graph::Node::Root => Some(0),
                crate::graph::Node::Empty { .. } | crate::graph::Node::Given(_) => None,
            };
            match (from, to) {
                (_, Some(t)) => match word_of(t) {
                    Some(d) if d != 0 && admits(graph.basic_code(d)) => {
                        if from.is_none_or(|f| word_of(f) == Some(graph.basic_head(d))) {
                            return visit(basic_edge(graph, d));
                        }
                        true
                    }
                    _ => true,
                },
                (Some(f), None) => match word_of(f) {
                    Some(h) => graph
                        .basic_children_for(h, filter.allowed())
                        .iter()
                        .filter(|&&d| admits(graph.basic_code(d)))
                        .all(|&d| visit(basic_edge(graph, d))),
                    None => true,
                },
                (None, None) => (1..=graph.word_count())
                    .filter(|&d| admits(graph.basic_code(d)))
                    .all(|d| visit(basic_edge(graph, d))),
            }
        }
        Layer::Enhanced => match (from, to) {
            // A dependent has few heads; a head may have many dependents.
            (Some(f), Some(t)) => graph
                .edges_between(f, t)
                .filter(|(_, e)| admits(e.code))
                .all(|(id, e)| visit((f, t, EdgeRefId::Enhanced(id), e.code, Some(e.label)))),
            (None, Some(t)) => graph
                .incoming(t)
                .filter(|(_, _, e)| admits(e.code))
                .all(|(id, h, e)| visit((h, t, EdgeRefId::Enhanced(id), e.code, Some(e.label)))),
            (Some(f), None) => graph
                .outgoing(f)
                .filter(|(_, _, e)| admits(e.code))
                .all(|(id, d, e)| visit((f, d, EdgeRefId::Enhanced(id), e.code, Some(e.label)))),
            (None, None) => graph
                .petgraph()
                .edge_references()
                .filter(|e| admits(e.weight().code))
                .all(|e| {
                    let w = e.weight();
                    visit((
                        e.source(),
                        e.target(),
                        EdgeRefId::Enhanced(e.id()),
                        w.code,
                        Some(w.label),
                    ))
                }),
        },
    }
}

fn passes(
    graph: &SentenceGraph,
    lemmas: &mut Lemmas,
    plan: &Plan,
    filters: &Filters,
    binding: &Binding,
) -> bool {
    let pattern = &plan.pattern;
    filters.node_tests.iter().all(|&i| {
        let node_tests = &plan.node_tests[i];
        let node = binding.node(node_tests.var);
        node_tests.checks.iter().all(|check| match check {
            FieldCheck::Lemma { test, negated } => lemmas.passes(graph, node, test) != *negated,
            FieldCheck::Text(test) => field_test(graph, node, test),
        })
    }) && filters.absent_edges.iter().all(|&i| {
        let test = &pattern.edges[i];
        let filter = plan.edge_info[i].filter;
        let labels = |e: usize| binding.edges[e].map(|id| edge_label(graph, id));
        // No edge passes the test: the visit stops (false) at the first that does.
        each_edge(
            graph,
            test.layer,
            binding.nodes[test.from],
            binding.nodes[test.to],
            filter,
            &mut |(_, _, id, code, label)| {
                !(filter.is_sure(code)
                    || test
                        .label
                        .matches(candidate_label(graph, id, label), &labels))
            },
        )
    }) && filters
        .order
        .iter()
        .all(|&i| order_test(graph, &pattern.order[i], binding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lower::compile_text;

    /// A `without` block is searched only when its bound nodes have the basic relations and
    /// children it asks: a block that matches (as a dependent, as a head) still rejects.
    #[test]
    fn without_blocks_prefiltered_by_their_bound_nodes_still_reject() {
        use crate::conllu::reader::RawBlock;
        use crate::conllu::Sentence;
        let rules = compile_text(
            "phase p\n\
             rule r { match { H -[conj]-> C; }  without { C -[cc]-> X; }  without { V -[obj]-> H; }  do { add C =[dep]=> H; } }\n",
        );
        let compiled = &rules[0];
        assert!(
            compiled
                .withouts
                .iter()
                .all(|w| !w.outer_anchors.is_empty()),
            "{:?}",
            compiled.withouts
        );
        let matches = |rows: &[String]| {
            let text: String = rows
                .iter()
                .enumerate()
                .map(|(i, r)| format!("{}\t{r}\t_\t_\n", i + 1))
                .collect::<String>()
                + "\n";
            let sentence = Sentence::parse(RawBlock {
                bytes: text.into_bytes(),
                first_line: 1,
                starts_input: true,
            })
            .unwrap();
            let graph = SentenceGraph::from_basic(&sentence);
            let mut lemmas = Lemmas::default();
            let mut binding = Binding::default();
            binding.reset(compiled.vars, compiled.edge_vars);
            let mut count = 0;
            search(
                &graph,
                &mut lemmas,
                &compiled.plan,
                &compiled.withouts,
                &mut binding,
                &mut Budget::new(u64::MAX),
                &mut |_| {
                    count += 1;
                    true
                },
            );
            count
        };
        let word = |form: &str, upos: &str, head: u32, rel: &str| {
            format!("{form}\t{form}\t{upos}\t_\t_\t{head}\t{rel}")
        };
        let own_cc = [
            word("cats", "NOUN", 0, "root"),
            word("and", "CCONJ", 3, "cc"),
            word("dogs", "NOUN", 1, "conj"),
        ];
        let object = [
            word("saw", "VERB", 0, "root"),
            word("cats", "NOUN", 1, "obj"),
            word(",", "PUNCT", 4, "punct"),
            word("dogs", "NOUN", 2, "conj"),
        ];
        let neither = [
            word("cats", "NOUN", 0, "root"),
            word(",", "PUNCT", 3, "punct"),
            word("dogs", "NOUN", 1, "conj"),
        ];
        assert_eq!(matches(&own_cc), 0);
        assert_eq!(matches(&object), 0);
        assert_eq!(matches(&neither), 1);
    }
}
