//! The engine's own form of a rule's `do` block: what lowering ([`super::lower`]) makes of the
//! rules' checked actions, and what the apply stage ([`super::apply`]) runs.

use super::pattern::{EdgeVarId, LabelTest, VarId};

/// One action of a rule, run for each match in turn.
#[derive(Clone, Debug)]
pub enum Action {
    /// Adds an enhanced edge (nothing when it is there already).
    AddEdge {
        from: VarId,
        to: VarId,
        label: Template,
    },
    /// Deletes every enhanced edge between the two nodes whose label passes.
    DeleteEdge {
        from: VarId,
        to: VarId,
        label: LabelTest,
    },
    /// Gives every enhanced edge between the two nodes whose label passes a new label.
    Relabel {
        from: VarId,
        to: VarId,
        label: LabelTest,
        new_label: Template,
    },
    /// Adds an empty node next to `anchor`, a copy of `copy_of` (`None`: a blank one), and binds
    /// `var` to it for the actions that follow.
    AddEmptyNode {
        var: VarId,
        copy_of: Option<VarId>,
        place: Place,
        anchor: VarId,
    },
    /// Copies (or moves) the enhanced edges into (out of) `from` whose label passes to `to`.
    TransferEdges {
        mode: TransferMode,
        direction: Direction,
        from: VarId,
        to: VarId,
        matching: LabelTest,
    },
}

/// Where an empty node goes, next to its anchor word.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Before,
    After,
}

/// Whether a transfer keeps the original edges.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TransferMode {
    Copy,
    Move,
}

/// Which edges of a node a transfer takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    Incoming,
    Outgoing,
}

/// How a label is built from a match: its parts, in order.
#[derive(Clone, Debug, Default)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
}

/// One part of a [`Template`].
#[derive(Clone, Debug)]
pub struct TemplatePart {
    pub value: TemplateValue,
    /// Written as `:value`, or not at all when the value is empty.
    pub optional: bool,
}

/// Where a template part's text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateValue {
    Literal(String),
    /// A matched edge's label, or a part of it.
    Edge {
        edge: EdgeVarId,
        part: EdgeLabelPart,
    },
    /// A node's lemma, lower-cased.
    Lemma(VarId),
    /// A node's form, lower-cased.
    Form(VarId),
    /// A node's feature value, lower-cased.
    Feature {
        node: VarId,
        feature: String,
    },
    /// A marker: the word and its basic `fixed` children, joined with `_`, spelt as `spelling` says.
    Marker {
        node: VarId,
        spelling: MarkerSpelling,
    },
}

/// Which part of a matched label a template takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EdgeLabelPart {
    /// The whole label.
    Label,
    /// Before the first `:`.
    Univ,
    /// After the first `:` (empty when there is none).
    Sub,
}

/// How the words of a marker are spelt: by lemma, or by form where these say so, all its words
/// or the first. Lower-cased either way.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MarkerSpelling {
    /// Every word of a marker with `fixed` parts by its form.
    pub fixed_forms: bool,
    /// Words whose UPOS is in this set ([`crate::graph::upos_bit`]) by their form.
    pub form_upos: u32,
    /// The first word only, without its `fixed` parts.
    pub first_word: bool,
}
