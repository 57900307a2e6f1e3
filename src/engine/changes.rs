//! The change log of a round: what its rule applications changed, written by the apply stage
//! ([`super::apply`]) and read by the rounds ([`super::rounds`]) and by each compiled rule
//! ([`super::rule::CompiledRule::must_search_whole`]) to decide what the next round searches.

use crate::graph::{Label, SUBTYPED};
use petgraph::stable_graph::NodeIndex;

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
    }

    /// An edge with this [`crate::graph::relation_code`] was removed or relabelled away from.
    pub fn removed(&mut self, code: u8) {
        self.removed |= 1u64 << (code & !SUBTYPED);
    }

    /// An edge was added, or relabelled to `label` (whose relation code is `code`).
    pub fn added(&mut self, head: NodeIndex, dependent: NodeIndex, code: u8, label: Label) {
        self.added_relations |= 1u64 << (code & !SUBTYPED);
        if self.seeds {
            self.added.push(AddedEdge {
                head,
                dependent,
                code,
                label,
            });
        }
    }
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
