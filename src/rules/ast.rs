//! The rule language's syntax tree, and the checked form the engine consumes.
//!
//! Two layers, staged like pest_meta (parse → validate collecting every error → AST):
//!
//! * **Raw AST** ([`RuleFile`], [`Rule`], [`Pattern`], [`Action`], ...): what the parser builds.
//!   Every element carries a [`Span`]; variables are still names ([`Name`]); regexes are text;
//!   profile conditions ([`Guard`]) are unevaluated. Used for diagnostics and tracing.
//! * **Checked form** ([`RuleSet`], [`CheckedRule`], [`CheckedPattern`], [`CheckedAction`], ...):
//!   what [`crate::rules::check`] produces for one profile once *every* error has been ruled out.
//!   Node variables are indices ([`VarId`]) into [`CheckedRule::vars`], edge variables are
//!   indices ([`EdgeVarId`]) into [`CheckedRule::edge_vars`], regexes are compiled, lexicon lists
//!   are resolved to sets, and profile settings are substituted: rules whose `when` guard is
//!   false are left out, label templates hold no setting references and no conditional parts.
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
//!   a value ([`values_agree`]); `!=` is its negation.

use super::text_regex::TextRegex;
use rustc_hash::FxHashSet;
use std::fmt;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Source positions
// ---------------------------------------------------------------------------------------------

/// Index of a source file in a [`crate::rules::source::SourceMap`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range in one source file, with the 1-based line and column (in characters) of its start.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, counted in characters.
    pub col: u32,
}

/// An identifier as written, with its position (node variables, edge variables, setting names,
/// phase and rule names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

// ---------------------------------------------------------------------------------------------
// Raw AST
// ---------------------------------------------------------------------------------------------

/// One parsed `.rules` file.
#[derive(Clone, Debug)]
pub struct RuleFile {
    pub file: FileId,
    /// Display path, e.g. `rules/universal/case.rules`.
    pub path: String,
    /// `phase NAME` lines in the order they appear.
    pub phases: Vec<Name>,
    pub rules: Vec<Rule>,
}

/// `rule NAME [when GUARD] { match {..} without {..}* do {..} (example {..} expect {..}+)* }`
#[derive(Clone, Debug)]
pub struct Rule {
    pub name: Name,
    pub file: FileId,
    /// From `rule` to the closing brace.
    pub span: Span,
    /// The phase in force where the rule is written (the last `phase` line above it).
    pub phase: Name,
    /// `when GUARD`: the rule only exists in profiles whose settings make the guard true.
    pub guard: Option<Guard>,
    /// The `match` block (one per rule; required).
    pub pattern: Pattern,
    /// `without` blocks, each an independent negated sub-pattern over old and new variables.
    pub withouts: Vec<Pattern>,
    /// The `do` block, in order.
    pub actions: Vec<Action>,
    pub examples: Vec<Example>,
}

/// The contents of a `match` or `without` block.
#[derive(Clone, Debug, Default)]
pub struct Pattern {
    /// `N [upos=NOUN, Case=Gen];` — a node may be declared several times; the checker merges.
    /// A bare `N;` declares a node with no constraint.
    pub nodes: Vec<NodeDecl>,
    pub edges: Vec<EdgePattern>,
    pub order: Vec<OrderConstraint>,
    /// The whole block including the keyword.
    pub span: Span,
}

/// `VAR [constraint, constraint, ...]`
#[derive(Clone, Debug)]
pub struct NodeDecl {
    pub var: Name,
    pub constraints: Vec<Constraint>,
    pub span: Span,
}

/// One test on one field of a node: `upos=NOUN|PROPN`, `lemma!=be`, `form=/which/i`,
/// `form~=Which`, `Case=Gen`, `!Number`, `PronType`, `lemma in @control.object`,
/// `misc.SpaceAfter=No`.
#[derive(Clone, Debug)]
pub struct Constraint {
    pub field: Field,
    pub test: ValueTest,
    /// `!=`, `!~=`, `!in`, `!Feature`: the test must fail. A missing value (feature absent,
    /// `_` in the column) fails every positive test, so every negated test holds on it.
    pub negated: bool,
    /// The whole constraint.
    pub span: Span,
    /// Just the field name (for "unknown field" diagnostics).
    pub field_span: Span,
}

/// Which part of a word a [`Constraint`] looks at.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Form,
    Lemma,
    Upos,
    Xpos,
    /// A morphological feature of FEATS, by name (`Case`, `Number[psor]`).
    Feature(String),
    /// `misc` alone: the whole MISC column; `misc.Key`: the value of attribute `Key` in MISC.
    Misc(Option<String>),
    /// `empty`: whether the node is an empty node (presence only: `[empty]`, `[!empty]`).
    Empty,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Form => f.write_str("form"),
            Field::Lemma => f.write_str("lemma"),
            Field::Upos => f.write_str("upos"),
            Field::Xpos => f.write_str("xpos"),
            Field::Feature(name) => f.write_str(name),
            Field::Misc(None) => f.write_str("misc"),
            Field::Misc(Some(key)) => write!(f, "misc.{key}"),
            Field::Empty => f.write_str("empty"),
        }
    }
}

/// The test of a [`Constraint`]. Negation lives in [`Constraint::negated`], so
/// `NotEqual` = `Equals` + negated and `Absent` = `Present` + negated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueTest {
    /// `=a` (one value) or `=a|b|c` (alternatives); `~=` sets `case_insensitive`.
    Equals {
        values: Vec<String>,
        case_insensitive: bool,
    },
    /// `=/pattern/` or `=/pattern/i`. Searched, not anchored.
    Regex {
        pattern: String,
        case_insensitive: bool,
        span: Span,
    },
    /// `in @group.list`.
    InLexicon(LexiconRef),
    /// `in @profile.NAME`: a list setting of the profile (resolved when the profile is loaded).
    InSetting(Name),
    /// A bare field name: the field has a value (feature present; for form/lemma/...: not `_`).
    Present,
}

/// `@group.list`, e.g. `@control.object`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexiconRef {
    /// `group.list` without the `@`.
    pub path: String,
    pub span: Span,
}

/// The bounds of a descent `A -[label]->{min,max} B` as written (`->+` is 1 to
/// [`Repeat::DEFAULT_MAX`]); the checker bounds them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    pub min: u32,
    pub max: u32,
    pub span: Span,
}

impl Repeat {
    /// `->+` descends at most this many edges.
    pub const DEFAULT_MAX: u32 = 8;
    /// No descent may go deeper: the cost of one stays a bounded walk per anchor.
    pub const LIMIT: u32 = 16;
}

/// Which graph an edge pattern is looked up in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// `-[..]->`: the basic tree (HEAD/DEPREL), never changed by rules.
    Basic,
    /// `=[..]=>`: the enhanced graph as it is when the rule is tried.
    Enhanced,
}

/// `[e:] FROM -[label]-> TO`, `FROM =[label]=> TO`, `FROM !-[label]-> TO` (no such edge).
#[derive(Clone, Debug)]
pub struct EdgePattern {
    /// `e:` — names the matched edge so label templates and `SameLabel` can use its label.
    pub var: Option<Name>,
    /// `->+`, `->{m,n}`: a descent, a path of `min..=max` edges each passing the label test.
    pub repeat: Option<Repeat>,
    pub from: Name,
    pub to: Name,
    pub layer: Layer,
    pub label: LabelPattern,
    /// `!-[..]->` / `!=[..]=>`: there is no edge from `from` to `to` whose label matches.
    pub negated: bool,
    pub span: Span,
}

/// A test on a dependency label (`obl:tmod`: universal part `obl`, subtype `tmod`; the
/// subtype is everything after the first `:`).
#[derive(Clone, Debug)]
pub enum LabelPattern {
    /// `*`: any label.
    Any { span: Span },
    /// `obl:tmod`: exactly this label.
    Exact { label: String, span: Span },
    /// `obl:*`: universal part is `obl`, with or without a subtype (obl, obl:tmod, obl:from).
    Universal { univ: String, span: Span },
    /// `*:pass`: any label whose subtype is exactly `pass` (nsubj:pass, aux:pass).
    Subtype { sub: String, span: Span },
    /// `/^nmod:(poss|tmod)$/`: searched, not anchored.
    Regex { pattern: String, span: Span },
    /// `e.label`: the same label as the edge bound to edge variable `e`.
    SameLabel { edge: Name, span: Span },
    /// `@profile.NAME`: any relation of a list setting of the profile (resolved to
    /// alternatives when the profile is loaded).
    Setting { name: Name, span: Span },
    /// `a|b:*|/re/`: any of these.
    Alternatives {
        options: Vec<LabelPattern>,
        span: Span,
    },
    /// `!a`, `!(a|b)`: the label does not match.
    Not {
        inner: Box<LabelPattern>,
        span: Span,
    },
}

impl LabelPattern {
    pub fn span(&self) -> Span {
        match self {
            LabelPattern::Any { span }
            | LabelPattern::Exact { span, .. }
            | LabelPattern::Universal { span, .. }
            | LabelPattern::Subtype { span, .. }
            | LabelPattern::Regex { span, .. }
            | LabelPattern::SameLabel { span, .. }
            | LabelPattern::Setting { span, .. }
            | LabelPattern::Alternatives { span, .. }
            | LabelPattern::Not { span, .. } => *span,
        }
    }
}

/// Word order, distinctness and agreement: `A << B`, `A < B`, `A >> B`, `A > B`, `A << subtree(B)`,
/// `A != B`, `A.Case == B.Case`. The parser normalises `>>`/`>` by swapping the operands, so only "before" remains.
#[derive(Clone, Debug)]
pub enum OrderConstraint {
    /// `left << right` (`immediately: false`): every word of `left` precedes every word of
    /// `right`. `left < right` (`immediately: true`): the last word of `left` is directly
    /// followed by the first word of `right` (empty nodes are skipped when counting).
    Before {
        left: OrderOperand,
        right: OrderOperand,
        immediately: bool,
        span: Span,
    },
    /// `A != B`: distinct nodes (already implied by injective matching; accepted as documentation).
    Distinct { a: Name, b: Name, span: Span },
    /// `A.Case == B.Case` (`negated`: `!=`): agreement of two bound nodes in a feature. Kept
    /// with the order constraints: like them it tests two bound nodes and connects nothing.
    Agree { left: AgreeOperand, right: AgreeOperand, negated: bool, span: Span },
}

/// One side of an agreement: `N.Case`, `N.Number[psor]`.
#[derive(Clone, Debug)]
pub struct AgreeOperand {
    pub var: Name,
    /// The feature name as written (`Number[psor]`).
    pub feature: Name,
}

/// One side of an order constraint.
#[derive(Clone, Debug)]
pub enum OrderOperand {
    /// The node itself.
    Node(Name),
    /// `subtree(N)`: N and all its descendants in the basic tree.
    Subtree(Name),
}

impl OrderOperand {
    pub fn var(&self) -> &Name {
        match self {
            OrderOperand::Node(n) | OrderOperand::Subtree(n) => n,
        }
    }
}

/// A condition on the profile's settings (`when` on a rule, on a label part, on an expectation).
#[derive(Clone, Debug)]
pub struct Guard {
    pub kind: GuardKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum GuardKind {
    /// `profile.case_feature`: a boolean setting is true.
    Setting(Name),
    /// `profile.xsubj_label == "nsubj:xsubj"`: a string setting equals the text (its span
    /// covers the quotes).
    Equals {
        setting: Name,
        value: Name,
    },
    /// `"case" in profile.annotates`: a list setting contains the text.
    Contains {
        setting: Name,
        value: Name,
    },
    Not(Box<Guard>),
    And(Vec<Guard>),
    Or(Vec<Guard>),
}

/// A label template: `"{e.univ}:{marker(C)}{?feat(N, Case) when profile.case_feature}"` or,
/// unquoted inside `=[..]=>`, `nsubj`, `{profile.xsubj_label}`, `conj{?lemma(CC)}`.
/// The label is the concatenation of the parts.
#[derive(Clone, Debug)]
pub struct LabelExpr {
    pub parts: Vec<LabelPart>,
    pub span: Span,
}

/// One `{...}` part or a run of literal text.
#[derive(Clone, Debug)]
pub struct LabelPart {
    pub value: PartValue,
    /// `{?...}`: when the value is non-empty it is written as `:value`; when it is empty (feature
    /// absent, no marker) nothing is written. A non-optional part without a value makes the
    /// action fail for that match (the engine skips the action).
    pub optional: bool,
    /// `{... when GUARD}`: the part is only written under profiles where the guard is true.
    pub guard: Option<Guard>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum PartValue {
    /// Literal text (outside braces, or `{"text"}` inside).
    Literal(String),
    /// `{e.label}`, `{e.univ}`, `{e.sub}`.
    Edge { edge: Name, part: EdgeLabelPart },
    /// `{lemma(N)}`, lower-cased.
    Lemma(Name),
    /// `{form(N)}`, lower-cased.
    Form(Name),
    /// `{feat(N, Case)}`: the feature's value, lower-cased.
    Feature { node: Name, feature: Name },
    /// `{marker(C)}`: lemma of C plus the lemmas of C's basic `fixed` children (in word order),
    /// joined with `_`, lower-cased: `out_of`, `because_of` (forms where the profile says so).
    Marker(Name),
    /// `{profile.xsubj_label}`: a string setting.
    Setting(Name),
}

/// Which part of an edge's label a template uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EdgeLabelPart {
    /// The whole label.
    Label,
    /// The universal part: before the first `:`.
    Univ,
    /// The subtype: after the first `:` (empty when there is none).
    Sub,
}

/// One statement of a `do` block. Actions change the enhanced graph only.
#[derive(Clone, Debug)]
pub struct Action {
    pub kind: ActionKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ActionKind {
    /// `add FROM =[label-expr]=> TO;` (no-op when the edge already exists).
    AddEdge {
        from: Name,
        to: Name,
        label: LabelExpr,
    },
    /// `delete FROM =[label-pattern]=> TO;`: deletes every matching enhanced edge.
    DeleteEdge {
        from: Name,
        to: Name,
        label: LabelPattern,
    },
    /// `relabel FROM =[label-pattern]=> TO as label-expr;`: every matching enhanced edge gets the
    /// new label.
    Relabel {
        from: Name,
        to: Name,
        label: LabelPattern,
        new_label: LabelExpr,
    },
    /// `E = empty copy of V after N;` / `before N`: a new empty node copying FORM, LEMMA, UPOS,
    /// XPOS and FEATS of `copy_of`, placed right after (before) word `anchor`; `E = empty after
    /// N;` a blank one (FORM, LEMMA, ... `_`: an elided predicate with no word to copy). Binds
    /// `var` for the actions that follow.
    AddEmptyNode {
        var: Name,
        /// `None`: `E = empty after N;`, a blank empty node (every column `_`).
        copy_of: Option<Name>,
        place: Place,
        anchor: Name,
    },
    /// `copy|move incoming|outgoing of A to B [matching label-pattern];`
    /// copy: for each enhanced edge X→A (incoming) or A→X (outgoing) whose label matches, add
    /// X→B (or B→X) with the same label; move: also delete the original.
    TransferEdges {
        mode: TransferMode,
        direction: Direction,
        from: Name,
        to: Name,
        matching: Option<LabelPattern>,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Before,
    After,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TransferMode {
    Copy,
    Move,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Incoming,
    Outgoing,
}

/// `example { CoNLL-U } expect { ID DEPS ... }` (one or more `expect` blocks).
#[derive(Clone, Debug)]
pub struct Example {
    /// The input as CoNLL-U: one line per word, columns tab-separated (the parser normalises
    /// space-separated columns and strips the indentation), ending with a newline. DEPS may be `_`.
    pub conllu: String,
    /// For each line of `conllu`, the source line it came from (to report errors at it).
    pub source_lines: Vec<u32>,
    pub expects: Vec<Expectation>,
    pub span: Span,
}

/// `expect [when GUARD] { ID DEPS ... }`: after running the rule alone on the example (enhanced
/// graph seeded from the basic tree, or from the example's DEPS and empty nodes where it has them,
/// rule applied to a fixpoint), each listed node has exactly
/// these DEPS. Unlisted nodes are not checked. A listed empty node (`4.1`) must exist.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// Only checked under profiles where the guard is true.
    pub guard: Option<Guard>,
    pub lines: Vec<ExpectLine>,
    pub span: Span,
}

/// `2  3:obl:in|5:conj` — node ID and its full expected DEPS value (`_` for none).
#[derive(Clone, Debug)]
pub struct ExpectLine {
    /// `2` or `4.1`, as written.
    pub id: String,
    pub deps: String,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Checked form (what the engine consumes)
// ---------------------------------------------------------------------------------------------

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

/// A compiled [`Constraint`].
#[derive(Clone, Debug)]
pub struct FieldTest {
    pub field: Field,
    pub test: CheckedValueTest,
    pub negated: bool,
    pub span: Span,
}

/// A compiled [`ValueTest`].
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

impl CheckedValueTest {
    /// Whether a present value passes the test (an absent one passes none).
    pub fn holds(&self, value: &str) -> bool {
        match self {
            CheckedValueTest::Equals { values, case_insensitive: false } => values.iter().any(|v| v == value),
            // `values` are lower-cased. An ASCII value is compared byte by byte, lower-casing as it
            // goes; only other values are lower-cased into a new string (Unicode lower-casing
            // depends on context: a final sigma).
            CheckedValueTest::Equals { values, case_insensitive: true } if value.is_ascii() => values
                .iter()
                .any(|v| v.len() == value.len() && v.bytes().zip(value.bytes()).all(|(a, b)| a == b.to_ascii_lowercase())),
            CheckedValueTest::Equals { values, case_insensitive: true } => values.contains(&value.to_lowercase()),
            CheckedValueTest::Regex(re) => re.is_match(value),
            CheckedValueTest::InLexicon { words, .. } => words.contains(value),
            CheckedValueTest::Present => true,
        }
    }
}

/// A compiled [`EdgePattern`].
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

/// A compiled [`LabelPattern`].
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

impl LabelTest {
    /// Whether `label` passes, given the labels bound to edge variables so far.
    pub fn matches<'l>(&self, label: &str, edge_labels: &dyn Fn(EdgeVarId) -> Option<&'l str>) -> bool {
        match self {
            LabelTest::Any => true,
            LabelTest::Exact(l) => label == l,
            LabelTest::Universal(u) => label
                .strip_prefix(u.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(':')),
            LabelTest::Subtype(s) => label.bytes().position(|b| b == b':').is_some_and(|i| label[i + 1..] == **s),
            LabelTest::Regex(re) => re.is_match(label),
            LabelTest::SameLabel(e) => edge_labels(*e).is_some_and(|l| l == label),
            // Exact labels compared here, not by a recursive call: most alternatives are exact
            // labels, and label tests run for most candidate edges.
            LabelTest::Alternatives(options) => options.iter().any(|o| match o {
                LabelTest::Exact(l) => l == label,
                other => other.matches(label, edge_labels),
            }),
            LabelTest::Not(inner) => !inner.matches(label, edge_labels),
        }
    }
}

/// A compiled [`OrderConstraint`].
#[derive(Clone, Debug)]
pub enum OrderTest {
    Before {
        left: Operand,
        right: Operand,
        immediately: bool,
    },
    Distinct(VarId, VarId),
    /// `A.F == B.G` (`negated`: `!=`); see [`values_agree`].
    Agree { left: VarId, left_feature: String, right: VarId, right_feature: String, negated: bool },
}

/// Whether two feature values agree: both present and sharing a value, a multi-value
/// (`Case=Acc,Nom`, a syncretic form) agreeing with each of its values. `None` is an absent
/// feature, which agrees with nothing (so `!=` holds on it, as every negated test does).
pub fn values_agree(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b || a.split(',').any(|x| b.split(',').any(|y| x == y)),
        _ => false,
    }
}

/// A compiled [`OrderOperand`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Node(VarId),
    Subtree(VarId),
}

/// A compiled [`Action`].
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
    /// See [`LabelPart::optional`]: written as `:value`, or nothing when empty.
    pub optional: bool,
}

/// A resolved [`PartValue`] (settings are now literals).
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
