//! Descent inside a clause: `A -[label]->{min,max} B` binds B to the words `min..=max` basic
//! edges below A along a path whose every edge passes the label test (`-[!acl|advcl]->+`: the
//! edges a descent may not cross stop it). The basic tree has one path between two words, so a
//! pair is found at most once. Each walk is bounded by the depth: up from a word costs at most
//! `max` steps, down from one at most its subtree.

use super::pattern::Depth;
use super::plan::EdgeInfo;
use crate::graph::SentenceGraph;
use petgraph::stable_graph::NodeIndex;

/// Calls `visit(head, dependent)` for each pair of nodes a descent joins with the bound ends
/// `from` and `to` (either, both or neither bound), until it returns false; returns false then.
/// `passes(d)` tells whether the basic edge into word `d` passes the descent's label test.
pub(crate) fn each_pair(
    graph: &SentenceGraph,
    info: &EdgeInfo,
    depth: Depth,
    from: Option<NodeIndex>,
    to: Option<NodeIndex>,
    passes: &dyn Fn(u32) -> bool,
    visit: &mut dyn FnMut(NodeIndex, NodeIndex) -> bool,
) -> bool {
    // Empty nodes have no basic edges: a bound one ends nothing.
    let word = |n: NodeIndex| graph.word_of(n);
    match (from, to) {
        (Some(f), Some(t)) => {
            let (Some(f), Some(t)) = (word(f), word(t)) else {
                return true;
            };
            let mut found = false;
            up(graph, depth, t, passes, &mut |h| {
                found = h == f;
                !found
            });
            !found || visit(graph.word_node(f), graph.word_node(t))
        }
        (None, Some(t)) => match word(t) {
            Some(t) => up(graph, depth, t, passes, &mut |h| {
                visit(graph.word_node(h), graph.word_node(t))
            }),
            None => true,
        },
        (Some(f), None) => match word(f) {
            Some(f) => down(graph, info, depth, f, passes, &mut |d| {
                visit(graph.word_node(f), graph.word_node(d))
            }),
            None => true,
        },
        // Each word as the lower end, walking up: O(words × depth).
        (None, None) => (1..=graph.word_count()).filter(|&t| passes(t)).all(|t| {
            up(graph, depth, t, passes, &mut |h| {
                visit(graph.word_node(h), graph.word_node(t))
            })
        }),
    }
}

/// The heads above word `t` (the root included) that a descent reaches it from, nearest first.
fn up(
    graph: &SentenceGraph,
    depth: Depth,
    t: u32,
    passes: &dyn Fn(u32) -> bool,
    visit: &mut dyn FnMut(u32) -> bool,
) -> bool {
    let mut below = t;
    for k in 1..=depth.max {
        if below == 0 || !passes(below) {
            return true;
        }
        let head = graph.basic_head(below);
        if k >= depth.min && !visit(head) {
            return false;
        }
        below = head;
    }
    true
}

/// The words below word `f` that a descent reaches, depth first in word order.
fn down(
    graph: &SentenceGraph,
    info: &EdgeInfo,
    depth: Depth,
    f: u32,
    passes: &dyn Fn(u32) -> bool,
    visit: &mut dyn FnMut(u32) -> bool,
) -> bool {
    // (word, its depth below f); a stack on the stack for the usual shallow clause.
    let mut stack: smallvec::SmallVec<[(u32, u8); 32]> = smallvec::SmallVec::new();
    let push_children = |stack: &mut smallvec::SmallVec<[(u32, u8); 32]>, w: u32, k: u8| {
        // Reversed, so that the stack pops them in word order. Every edge of the path passes
        // the label test, so the relation index may narrow every level.
        stack.extend(
            graph
                .basic_children_for(w, info.filter.allowed())
                .iter()
                .rev()
                .filter(|&&c| passes(c))
                .map(|&c| (c, k + 1)),
        );
    };
    push_children(&mut stack, f, 0);
    while let Some((w, k)) = stack.pop() {
        if k >= depth.min && !visit(w) {
            return false;
        }
        if k < depth.max {
            push_children(&mut stack, w, k);
        }
    }
    true
}
