//! The checked rule IR: what [`crate::rules::check`] lowers a rule to for one profile once
//! *every* error has been ruled out, and what the engine consumes.
//!
//! Node variables are indices ([`VarId`]) into [`CheckedRule::vars`], edge variables are indices
//! ([`EdgeVarId`]) into [`CheckedRule::edge_vars`], regexes are compiled, lexicon lists are
//! resolved to sets, and profile settings are substituted: rules whose `when` guard (or their
//! `phase` line's) is false are left out, label templates hold no setting references and no
//! conditional parts. The raw syntax tree it comes from is [`crate::rules::ast`].
//!
//! Semantics the engine implements (also in `docs/rule-language.md`):
//!
//! * Matching is injective: distinct node variables of one rule (match block and `without`
//!   blocks alike) bind distinct nodes. `A != B` is accepted and only restates it.
//! * `-[..]->` edges are looked up in the basic tree, `=[..]=>` edges in the current enhanced graph.
//!   Actions only ever change the enhanced graph.
//! * A `without` block fails the match when it can be matched (extending the current binding);
//!   each block is independent.
//! * Regexes (node values and labels) are *searched* (unanchored): write `^...$` to anchor.
//! * `A -[l]->{m,n} B` (a descent) holds when B lies m to n basic edges below A on a path whose
//!   every edge passes `l`.
//! * `A.F == B.G` holds when both features are present and their value sets (`Acc,Nom`) share
//!   a value (the engine's `values_agree`); `!=` is its negation.

use super::ast::{Rule, Span};
// Shared with the raw tree (declared there): the IR's readers need only this module.
pub use super::ast::{Direction, EdgeLabelPart, Field, Layer, Place, TransferMode};
use super::text_regex::TextRegex;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// Index into [`CheckedRule::vars`].
pub type VarId = usize;
/// Index into [`CheckedRule::edge_vars`].
pub type EdgeVarId = usize;

/// Every active rule of one profile, grouped in phases in execution order, plus what was resolved
/// to build it. Phases run one after the other; within a phase the engine runs its rules to a
/// fixpoint (order of `rules` = order in the files).
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// The profile's name (`en`, `universal`, `basic`).
    pub profile: String,
    pub description: String,
    /// The resolved settings (after `extends`).
    pub settings: crate::rules::profile::Settings,
    pub phases: Vec<Phase>,
    /// Rules left out because their `when` guard is false under this profile or the profile's
    /// `disable` names them (names only).
    pub inactive: Vec<String>,
    /// The merged lexicon lists of the profile.
    pub lexicons: crate::rules::lexicon::Lexicon,
    /// Every file read, for diagnostics and traces ([`Span::file`] indexes it).
    pub sources: crate::rules::source::SourceMap,
    /// Warnings found while loading (render them with `sources`).
    pub warnings: Vec<crate::rules::diagnostic::Diagnostic>,
}

impl RuleSet {
    /// All rules, phase by phase.
    pub fn rules(&self) -> impl Iterator<Item = &CheckedRule> {
        self.phases.iter().flat_map(|p| p.rules.iter())
    }
}

/// One phase: a name and its rules in file order.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    pub rules: Vec<CheckedRule>,
    /// The phase runs to one fixpoint with the phase before it (a group of the profile's
    /// `phases`): the rules of both are searched in every round.
    pub joined: bool,
}

/// A rule with variables resolved to indices and settings substituted.
#[derive(Clone, Debug)]
pub struct CheckedRule {
    pub name: String,
    pub phase: String,
    /// Display path of the file it comes from.
    pub path: String,
    pub span: Span,
    /// Every node variable. Order: the match block's variables (in order of first mention), then
    /// each `without` block's new variables, then variables bound by `AddEmptyNode` actions.
    pub vars: Vec<VarInfo>,
    /// Edge variables; all are bound by positive edges of the match block.
    pub edge_vars: Vec<EdgeVarInfo>,
    /// The match block. Its `new_vars` is `0..n` for the n match variables.
    pub pattern: CheckedPattern,
    /// Each `without` block: the match fails if the block can be matched extending the binding.
    pub withouts: Vec<CheckedPattern>,
    pub actions: Vec<CheckedAction>,
    /// Examples with expectations filtered for this profile (guards resolved).
    pub examples: Vec<CheckedExample>,
    /// The raw rule, for tracing and `explain`.
    pub source: Rule,
}

/// A node variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    /// Where it is first mentioned.
    pub span: Span,
    pub origin: VarOrigin,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VarOrigin {
    /// Bound by the match block.
    Match,
    /// Bound by the `without` block with this index (local to that block).
    Without(usize),
    /// Created by the action with this index (`E = empty copy of ...`).
    Action(usize),
}

/// An edge variable and the edge of the match block that binds it.
#[derive(Clone, Debug)]
pub struct EdgeVarInfo {
    pub name: String,
    pub span: Span,
    /// Index into `CheckedRule::pattern.edges`.
    pub edge: usize,
}

/// A match or `without` block with variables as indices.
#[derive(Clone, Debug, Default)]
pub struct CheckedPattern {
    /// Variables this block binds (the match block: `0..n`; a `without` block: its new ones).
    /// Variables outside this range that the block mentions are already bound.
    pub new_vars: std::ops::Range<VarId>,
    /// Node tests, at most one per variable (declarations merged); a `without` block may test an
    /// outer variable. Variables without constraints have no entry.
    pub nodes: Vec<NodeTest>,
    pub edges: Vec<EdgeTest>,
    pub order: Vec<OrderTest>,
}

/// All field tests on one node (conjunction).
#[derive(Clone, Debug)]
pub struct NodeTest {
    pub var: VarId,
    pub tests: Vec<FieldTest>,
}

/// A compiled [`Constraint`](crate::rules::ast::Constraint).
#[derive(Clone, Debug)]
pub struct FieldTest {
    pub field: Field,
    pub test: CheckedValueTest,
    pub negated: bool,
    pub span: Span,
}

/// A compiled [`ValueTest`](crate::rules::ast::ValueTest).
#[derive(Clone, Debug)]
pub enum CheckedValueTest {
    /// The value equals one of these (`case_insensitive`: compare lower-cased; then `values` are
    /// already lower-cased).
    Equals {
        values: Vec<String>,
        case_insensitive: bool,
    },
    /// Compiled (with `(?i)` when case-insensitive); use `is_match` (search).
    Regex(TextRegex),
    /// The value is in this lexicon list (exact comparison).
    InLexicon {
        path: String,
        words: Arc<FxHashSet<String>>,
    },
    /// The field has a value.
    Present,
}

/// A compiled [`EdgePattern`](crate::rules::ast::EdgePattern).
#[derive(Clone, Debug)]
pub struct EdgeTest {
    pub var: Option<EdgeVarId>,
    /// A descent: `to` lies `min..=max` basic edges below `from`, every edge on the path
    /// passing `label` (only for positive basic edges without an edge variable).
    pub depth: Option<Depth>,
    pub from: VarId,
    pub to: VarId,
    pub layer: Layer,
    pub label: LabelTest,
    pub negated: bool,
    pub span: Span,
}

/// The checked bounds of a descent: `1 <= min <= max <= Repeat::LIMIT`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Depth {
    pub min: u8,
    pub max: u8,
}

/// A compiled [`LabelPattern`](crate::rules::ast::LabelPattern).
#[derive(Clone, Debug)]
pub enum LabelTest {
    Any,
    Exact(String),
    /// Universal part equals this (label is `univ` or starts with `univ:`).
    Universal(String),
    /// Subtype (after the first `:`) equals this.
    Subtype(String),
    Regex(TextRegex),
    /// Same label as the edge bound to this edge variable.
    SameLabel(EdgeVarId),
    Alternatives(Vec<LabelTest>),
    Not(Box<LabelTest>),
}

/// A compiled [`OrderConstraint`](crate::rules::ast::OrderConstraint).
#[derive(Clone, Debug)]
pub enum OrderTest {
    Before {
        left: Operand,
        right: Operand,
        immediately: bool,
    },
    Distinct(VarId, VarId),
    /// `A.F == B.G` (`negated`: `!=`); the engine's `values_agree` decides it.
    Agree {
        left: VarId,
        left_feature: String,
        right: VarId,
        right_feature: String,
        negated: bool,
    },
}

/// A compiled [`OrderOperand`](crate::rules::ast::OrderOperand).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Node(VarId),
    Subtree(VarId),
}

/// A compiled [`Action`](crate::rules::ast::Action).
#[derive(Clone, Debug)]
pub enum CheckedAction {
    AddEdge {
        from: VarId,
        to: VarId,
        label: Template,
    },
    DeleteEdge {
        from: VarId,
        to: VarId,
        label: LabelTest,
    },
    Relabel {
        from: VarId,
        to: VarId,
        label: LabelTest,
        new_label: Template,
    },
    AddEmptyNode {
        var: VarId,
        /// `None`: a blank empty node.
        copy_of: Option<VarId>,
        place: Place,
        anchor: VarId,
    },
    TransferEdges {
        mode: TransferMode,
        direction: Direction,
        from: VarId,
        to: VarId,
        matching: LabelTest,
    },
}

/// A label template with settings substituted and guarded parts resolved.
#[derive(Clone, Debug, Default)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
}

/// One part of a [`Template`].
#[derive(Clone, Debug)]
pub struct TemplatePart {
    pub value: TemplateValue,
    /// See [`LabelPart::optional`](crate::rules::ast::LabelPart::optional): written as `:value`, or nothing when empty.
    pub optional: bool,
}

/// A resolved [`PartValue`](crate::rules::ast::PartValue) (settings are now literals).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateValue {
    Literal(String),
    Edge {
        edge: EdgeVarId,
        part: EdgeLabelPart,
    },
    /// Lower-cased lemma.
    Lemma(VarId),
    /// Lower-cased form.
    Form(VarId),
    /// Lower-cased feature value.
    Feature {
        node: VarId,
        feature: String,
    },
    /// Lower-cased marker: the word + its basic `fixed` children, joined with `_`, each word
    /// spelt as the profile says.
    Marker {
        node: VarId,
        spelling: MarkerSpelling,
    },
}

/// How the profile spells the words of a marker (settings `fixed_marker_forms`,
/// `marker_form_upos` and `fixed_marker_first`): by lemma, or by form where these say so, all
/// its words or the first. Lower-cased either way.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MarkerSpelling {
    /// Every word of a marker with `fixed` parts by its form (`na_základě`, not `na_základ`).
    pub fixed_forms: bool,
    /// Words whose UPOS is in this set ([`crate::graph::upos_bit`]) by their form
    /// (`including`, not `include`).
    pub form_upos: u32,
    /// The first word only, without its `fixed` parts (bg `за да` → `за`).
    pub first_word: bool,
}

/// An example with its expectations for this profile.
#[derive(Clone, Debug)]
pub struct CheckedExample {
    /// CoNLL-U text of the input sentence (DEPS `_`, or the enhanced graph to start from).
    pub conllu: String,
    /// `(node id as written, expected DEPS)`, from every expectation whose guard holds.
    pub expect: Vec<(String, String)>,
    pub span: Span,
}
