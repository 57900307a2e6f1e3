//! The tests a search runs on bound variables: a node's fields, and word order, distinctness
//! and agreement between two nodes. (Label tests and absent edges are the search's own: they
//! walk the graph's edges.)

use super::binding::Binding;
use super::pattern::{values_agree, Field, FieldTest, Operand, OrderTest};
use crate::conllu::sentence::{FEATS, FORM, LEMMA, MISC, UPOS, XPOS};
use crate::graph::{feature_value, SentenceGraph};
use petgraph::stable_graph::NodeIndex;

/// The value a field test looks at; `None` when absent (`_`, or a feature not in FEATS).
pub fn field_value<'s>(
    graph: &SentenceGraph<'s>,
    node: NodeIndex,
    field: &Field,
) -> Option<&'s str> {
    let column = |c: usize| Some(graph.column(node, c)).filter(|v| *v != "_");
    match field {
        Field::Form => column(FORM),
        Field::Lemma => column(LEMMA),
        Field::Upos => column(UPOS),
        Field::Xpos => column(XPOS),
        Field::Feature(name) => feature_value(graph.column(node, FEATS), name),
        Field::Misc(None) => column(MISC),
        Field::Misc(Some(key)) => feature_value(graph.column(node, MISC), key),
        // Present (any value) on an empty node only.
        Field::Empty => graph.word_of(node).is_none().then_some(""),
    }
}

pub fn field_test(graph: &SentenceGraph, node: NodeIndex, test: &FieldTest) -> bool {
    let holds = field_value(graph, node, &test.field).is_some_and(|value| test.test.holds(value));
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
            let crate::graph::Node::Word(root) = graph.node(node) else {
                return (p, p);
            };
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

pub fn order_test(graph: &SentenceGraph, test: &OrderTest, binding: &Binding) -> bool {
    match test {
        OrderTest::Distinct(a, b) => binding.nodes[*a] != binding.nodes[*b],
        OrderTest::Agree {
            left,
            left_feature,
            right,
            right_feature,
            negated,
        } => {
            let value = |v: usize, feature: &str| graph.feature(binding.node(v), feature);
            values_agree(value(*left, left_feature), value(*right, right_feature)) != *negated
        }
        OrderTest::Before {
            left,
            right,
            immediately,
        } => {
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
