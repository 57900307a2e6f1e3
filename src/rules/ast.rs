//! The rule language's raw syntax tree: what [`crate::rules::parser`] builds from a `.rules`
//! file ([`RuleFile`], [`Rule`], [`Pattern`], [`Action`], ...).
//!
//! Every element carries a [`Span`]; variables are still names ([`Name`]); regexes are text;
//! profile conditions ([`Guard`]) are unevaluated. Used for diagnostics and tracing.
//! [`crate::rules::check`] validates it and lowers it to the checked IR of [`crate::rules::ir`].

use std::fmt;


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
    /// `phase NAME [when GUARD]` lines in the order they appear.
    pub phases: Vec<PhaseLine>,
    pub rules: Vec<Rule>,
}

/// `phase NAME [when GUARD]`: the rules below it, up to the next `phase` line, belong to phase
/// NAME and exist only in profiles where GUARD holds (as if each rule's own `when` were ANDed
/// with it). The guard belongs to this line, not to the phase in other files or lines.
#[derive(Clone, Debug)]
pub struct PhaseLine {
    pub name: Name,
    pub guard: Option<Guard>,
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
    /// The guard of the `phase` line in force ([`PhaseLine::guard`]): the rule also needs it.
    pub phase_guard: Option<Guard>,
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

impl Pattern {
    /// Every mention of a node variable (declarations, edge ends, both sides of order and
    /// agreement items), in source order: the order variables are bound in.
    pub fn mentions(&self) -> Vec<&Name> {
        let mut mentions: Vec<&Name> = self.nodes.iter().map(|n| &n.var).collect();
        for edge in &self.edges {
            mentions.extend([&edge.from, &edge.to]);
        }
        for order in &self.order {
            match order {
                OrderConstraint::Before { left, right, .. } => {
                    mentions.extend([left.var(), right.var()])
                }
                OrderConstraint::Distinct { a, b, .. } => mentions.extend([a, b]),
                OrderConstraint::Agree { left, right, .. } => {
                    mentions.extend([&left.var, &right.var])
                }
            }
        }
        mentions.sort_by_key(|n| n.span.start);
        mentions
    }
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
    Agree {
        left: AgreeOperand,
        right: AgreeOperand,
        negated: bool,
        span: Span,
    },
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
