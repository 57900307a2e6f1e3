//! The compiled rule: the engine's own form of a rule, as lowering ([`super::lower`]) makes it
//! once per rule set, with its plans, anchor and actions. The search, apply and rounds stages
//! read only this form.

use super::action::Action;
use super::anchor::{Anchor, NodeAnchor};
use super::changes::Changes;
use super::plan::Plan;
use crate::graph::SentenceGraph;
use crate::rules::ir::CheckedRule;
use petgraph::stable_graph::NodeIndex;

/// A plan seeded with an added edge for pattern edge `edge`: its two ends are bound before the
/// search starts.
#[derive(Clone, Debug)]
pub struct DeltaPlan {
    pub edge: usize,
    pub plan: Plan,
    /// The anchors of the edge's two ends.
    pub ends: [NodeAnchor; 2],
}

impl DeltaPlan {
    /// Whether an added edge from `head` to `dependent` with this [`relation_code`](crate::graph::relation_code) can seed a
    /// match: its relation passes the pattern edge's filter, its ends are what the pattern's
    /// basic edges ask of them, and it is no loop where the pattern edge joins two variables
    /// (injectivity, which the search does not check for the seeded ends).
    pub fn admits_seed(
        &self,
        graph: &SentenceGraph,
        head: NodeIndex,
        dependent: NodeIndex,
        code: u8,
    ) -> bool {
        let info = &self.plan.edge_info[self.edge];
        (info.from == info.to || head != dependent)
            && info.filter.admits(code)
            && self.ends[0].admits(graph, head)
            && self.ends[1].admits(graph, dependent)
    }
}

/// A rule ready to run: its plans and what the sentence must contain for it to match.
#[derive(Clone, Debug)]
pub struct CompiledRule {
    /// The checked rule this one was lowered from: its name, file, line and examples, for
    /// reports and `eudify test`. No stage of the engine reads it.
    pub rule: CheckedRule,
    /// Node variables: the match block's (`0..match_vars`), the `without` blocks' new ones,
    /// then those the actions bind.
    pub vars: usize,
    pub match_vars: usize,
    pub edge_vars: usize,
    pub plan: Plan,
    pub withouts: Vec<Plan>,
    /// What a graph must hold for the rule to match.
    pub anchor: Anchor,
    /// Relations of enhanced edges whose *removal* can create a match anywhere (edges of
    /// `without` blocks, "no such edge" tests of the match block): the rule is then searched
    /// whole again.
    pub removal_sensitive: u64,
    /// Relations of enhanced edges whose *addition* can create a match anywhere ("no such
    /// edge" tests inside `without` blocks).
    pub addition_sensitive: u64,
    /// Whether a plan scans all nodes (new empty nodes can then create matches anywhere).
    pub scans_nodes: bool,
    /// For each positive enhanced edge of the match block, a plan that starts with that edge's
    /// two ends bound: later rounds seed it with the edges the previous round added, instead
    /// of searching the whole sentence again (semi-naive evaluation).
    pub delta_plans: Vec<DeltaPlan>,
    /// The rule is searched once per phase, in the first round (no delta plans, nothing that
    /// makes it searched whole again), and that search finds each match once (every edge of
    /// the match block is a basic edge, named, or has a test only one label passes: the
    /// graph has no two edges with one label between two nodes). Its matches need not be
    /// recorded to fire once.
    pub searched_once: bool,
    pub actions: Vec<Action>,
}

impl CompiledRule {
    /// After a round that made `last`, whether the rule must be searched whole rather than
    /// from the added edges only: new nodes it could scan, or a change to an edge it tests
    /// negatively (a removed edge can make a `without` block fail anywhere).
    pub fn must_search_whole(&self, last: &Changes) -> bool {
        (last.nodes && self.scans_nodes)
            || last.removed & self.removal_sensitive != 0
            || last.added_relations & self.addition_sensitive != 0
    }
}
