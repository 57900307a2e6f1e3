//! Compiles a checked rule into a search plan: the order in which its variables are bound,
//! most constrained first, and the tests to run as soon as their variables are bound.
//!
//! Like egg's pattern compiler, the plan starts from the most selective element (an edge with a
//! specific label, whose two ends bind at once) and then follows edges outward from bound nodes,
//! preferring steps with the fewest candidates (a word's one basic head before its children).

use petgraph::stable_graph::NodeIndex;
use crate::graph::{label_bit, relation_bit, relation_code, relation_index, upos_bit, SentenceGraph, OTHER_RELATION, SUBTYPED};
use crate::rules::ast::{
    CheckedPattern, CheckedRule, CheckedValueTest, Depth, EdgeTest, Field, FieldTest, Layer, LabelTest, NodeTest, Operand,
    OrderTest, VarId,
};

/// One step of a search plan: it binds new variables (or checks an edge between bound ones)
/// and may produce several candidates, each tried in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Bind `var` to each node of the sentence (words and empty nodes), or to each empty node
    /// (`empty`: the variable has the test `[empty]`).
    ScanNodes { var: VarId, empty: bool },
    /// Bind both ends of edge `edge` (index into the pattern's edges) to each matching edge.
    /// For a basic edge whose label test narrows its relations ([`RelationFilter::allowed`]),
    /// only the words with one of them are candidates, from the sentence's relation index.
    ScanEdges { edge: usize },
    /// `from` is bound: bind `to` along each matching edge out of it.
    FollowOut { edge: usize },
    /// `to` is bound: bind `from` along each matching edge into it.
    FollowIn { edge: usize },
    /// Both ends bound: each matching edge between them (binds the edge variable, if any).
    Connect { edge: usize },
    /// A descent (`-[..]->+`), whichever of its ends are bound ([`super::descent`]): a step of
    /// its own, so that the other steps pay nothing for it.
    Descend { edge: usize, depth: Depth },
}

/// Tests that can run once the variables bound up to some step are known.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// Indices into the pattern's `nodes`.
    pub node_tests: Vec<usize>,
    /// Indices into the pattern's `edges`, negated ones.
    pub absent_edges: Vec<usize>,
    /// Indices into the pattern's `order`.
    pub order: Vec<usize>,
}

impl Plan {
    /// Whether step `index` is followed by tests.
    pub fn is_filtered(&self, index: usize) -> bool {
        index >= 64 || self.filtered_steps & (1 << index) != 0
    }
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        self.node_tests.is_empty() && self.absent_edges.is_empty() && self.order.is_empty()
    }
}

/// A quick test on an edge's [`relation_code`] (universal relation, and whether the label has a
/// subtype) that runs before, and mostly instead of, the label test itself.
///
/// Sets of relations (bits) are kept apart for labels without a subtype (index 0: `case`) and
/// with one (index 1: `obl:tmod`): `possible` where a label of that kind may pass, `sure`
/// where every such label passes. Between the two, the label's text decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RelationFilter {
    pub possible: [u64; 2],
    pub sure: [u64; 2],
}

impl RelationFilter {
    const ANY: RelationFilter = RelationFilter { possible: [u64::MAX; 2], sure: [u64::MAX; 2] };
    const NONE: RelationFilter = RelationFilter { possible: [0; 2], sure: [0; 2] };
    /// Only the text can tell.
    const UNSURE: RelationFilter = RelationFilter { possible: [u64::MAX; 2], sure: [0; 2] };

    pub fn of(test: &LabelTest) -> RelationFilter {
        let known = |univ: &str| relation_index(univ) != crate::graph::OTHER_RELATION;
        match test {
            LabelTest::Any => RelationFilter::ANY,
            LabelTest::Exact(label) => {
                let code = relation_code(label);
                let bit = 1u64 << (code & !SUBTYPED);
                if code & SUBTYPED != 0 {
                    RelationFilter { possible: [0, bit], sure: [0, 0] }
                } else {
                    // A known bare relation is one exact label; an unknown one shares its code.
                    RelationFilter { possible: [bit, 0], sure: [if known(label) { bit } else { 0 }, 0] }
                }
            }
            LabelTest::Universal(univ) => {
                let bit = relation_bit(univ);
                let sure = if known(univ) { bit } else { 0 };
                RelationFilter { possible: [bit, bit], sure: [sure, sure] }
            }
            // A subtype needs a `:`.
            LabelTest::Subtype(_) => RelationFilter { possible: [0, u64::MAX], sure: [0, 0] },
            LabelTest::Alternatives(options) => options.iter().map(RelationFilter::of).fold(RelationFilter::NONE, |a, f| {
                RelationFilter {
                    possible: [a.possible[0] | f.possible[0], a.possible[1] | f.possible[1]],
                    sure: [a.sure[0] | f.sure[0], a.sure[1] | f.sure[1]],
                }
            }),
            LabelTest::Not(inner) => {
                let f = RelationFilter::of(inner);
                RelationFilter { possible: [!f.sure[0], !f.sure[1]], sure: [!f.possible[0], !f.possible[1]] }
            }
            LabelTest::Regex(regex) => regex.literal_prefix().map_or(RelationFilter::UNSURE, |(prefix, whole)| {
                RelationFilter::of_prefix(&prefix, whole)
            }),
            LabelTest::SameLabel(_) => RelationFilter::UNSURE,
        }
    }

    /// The filter of a regex that asks a label to start with `prefix` (`/^conj:/`); `whole`:
    /// the prefix is all it asks. A prefix up to a `:` names the universal part of a
    /// subtyped label (`conj:`, the subtyped conj labels only); a shorter one, the relations
    /// whose names start with it, and any label not made of a UD relation.
    fn of_prefix(prefix: &str, whole: bool) -> RelationFilter {
        let other = 1u64 << crate::graph::OTHER_RELATION;
        if let Some(colon) = prefix.find(':') {
            let univ = &prefix[..colon];
            let bit = relation_bit(univ);
            // Every label `univ:...` of a known `univ` starts with `univ:`.
            let sure = if whole && colon + 1 == prefix.len() && bit != other { bit } else { 0 };
            return RelationFilter { possible: [0, bit], sure: [0, sure] };
        }
        let named = crate::graph::RELATIONS
            .iter()
            .filter(|r| r.starts_with(prefix))
            .fold(0u64, |bits, r| bits | relation_bit(r));
        let sure = if whole { named & !other } else { 0 };
        RelationFilter { possible: [named | other; 2], sure: [sure; 2] }
    }

    /// Relations a matching label can have, with or without a subtype.
    pub fn allowed(self) -> u64 {
        self.possible[0] | self.possible[1]
    }

    /// Whether a label with this [`relation_code`] can pass.
    pub fn admits(self, code: u8) -> bool {
        self.possible[usize::from(code & SUBTYPED != 0)] & (1u64 << (code & !SUBTYPED)) != 0
    }

    /// Whether every label with this code passes (the code is admitted): no text to compare.
    pub fn is_sure(self, code: u8) -> bool {
        self.sure[usize::from(code & SUBTYPED != 0)] & (1u64 << (code & !SUBTYPED)) != 0
    }

    /// Whether a label passes, the text compared only when the code cannot tell.
    pub fn passes(self, code: u8, text: impl FnOnce() -> bool) -> bool {
        self.admits(code) && (self.is_sure(code) || text())
    }
}

/// A pattern (the match block or a `without` block) compiled to steps.
#[derive(Clone, Debug)]
pub struct Plan {
    pub pattern: CheckedPattern,
    /// `node_tests[i]`: the tests of `pattern.nodes[i]` as the matcher runs them.
    pub node_tests: Vec<NodeChecks>,
    pub steps: Vec<Step>,
    /// `filters[i]` runs after step `i`; `before` runs before the first step (tests on variables
    /// bound outside this pattern).
    pub filters: Vec<Filters>,
    pub before: Filters,
    /// What the matcher reads of each pattern edge at every candidate, packed together.
    pub edge_info: Vec<EdgeInfo>,
    /// Bit `i`: `filters[i]` has tests (steps from 64 on are always tested).
    pub filtered_steps: u64,
    /// `nearest[i]`: step `i` (a [`Step::FollowOut`]) can only bind the nearest candidate
    /// ([`Nearest`]); empty when no step can.
    pub nearest: Vec<Option<Nearest>>,
    /// `between[i]`: for a [`Step::FollowOut`] along basic edges, variables bound before it
    /// that its new variable must follow (`A << X`) and precede (`X << B`): only the children
    /// between them are tried, found by binary search (children are in word order). A
    /// `without` block that looks for a sibling between two nodes then costs the siblings
    /// between them, not all of them.
    pub between: Vec<(Option<VarId>, Option<VarId>)>,
    /// For a `without` block: what the basic tree must hold around the bound variables it
    /// mentions ([`NodeAnchor`]) for it to match. Most blocks match rarely; these bit tests
    /// answer most of them without a search.
    pub outer_anchors: Vec<(VarId, NodeAnchor)>,
}

/// A child step whose candidates a `without` block narrows to one: with `A << X` and
/// `without { P -[L]-> M; A << M; M << X; }`, the only X that can match is the nearest
/// L-child of P after A (any later one has that one between), provided no variable bound
/// after X can be a child of P (else it could take the nearest, and M could not be it). Searching
/// the next sibling of each conjunct then costs a binary search, not a scan of all its
/// siblings: this is what keeps "the next conjunct" linear in a long coordination.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Nearest {
    /// `A`.
    pub anchor: VarId,
    /// X after A (`A << X`); false: X before A (`X << A`, the without block mirrored).
    pub after: bool,
}

/// The field tests of one pattern node, as the matcher runs them.
#[derive(Clone, Debug)]
pub struct NodeChecks {
    pub var: VarId,
    pub checks: Vec<FieldCheck>,
}

/// How the matcher runs one field test of a pattern node.
#[derive(Clone, Debug)]
pub enum FieldCheck {
    /// A lemma test, read through [`super::lemmas::Lemmas`] (which knows a word without a
    /// lemma's stand-in).
    Lemma { test: CheckedValueTest, negated: bool },
    /// Any other test, run on the field's text.
    Text(FieldTest),
}

/// A pattern edge as the matcher's inner loop needs it: a few bytes in one place rather than
/// the checked edge test with its spans and label test.
#[derive(Copy, Clone, Debug)]
pub struct EdgeInfo {
    pub from: VarId,
    pub to: VarId,
    pub var: Option<usize>,
    pub basic: bool,
    pub filter: RelationFilter,
}

/// What a sentence graph holds, as far as anchors ask ([`Anchor::admits`]): read once per round.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Kinds {
    /// Universal relations of the basic tree (bits as in [`relation_bit`]).
    pub basic: u64,
    /// UPOS tags of the words (bits as in [`upos_bit`]).
    pub upos: u32,
    /// Universal relations the enhanced graph's edges may have (a superset of those it has).
    pub enhanced: u64,
    /// Whether the graph has empty nodes.
    pub empty: bool,
}

impl Kinds {
    pub fn of(graph: &crate::graph::SentenceGraph) -> Kinds {
        Kinds {
            basic: graph.basic_relations(),
            upos: graph.upos_tags(),
            enhanced: graph.enhanced_relations(),
            empty: graph.petgraph().node_count() > graph.word_count() as usize + 1,
        }
    }
}

/// What a sentence's basic tree holds beyond [`Kinds`], as far as anchors ask
/// ([`Anchor::admits_tree`]): which labels, and which relations, UPOS tags and child relations
/// come together on one word. Filled once per sentence ([`TreeKinds::fill`]) by one pass over
/// its words, in the engine (the `basic` profile does not pay for it).
#[derive(Clone, Debug)]
pub struct TreeKinds {
    /// Relations some word has with no subtype (bits as in [`relation_bit`]).
    bare: u64,
    /// The other labels of the words (subtyped, or of no universal relation), as [`label_bit`]s.
    labels: u64,
    /// Relations of which some word has two children or more.
    twice: u64,
    /// `upos_of[r]`: UPOS tags (bits as in [`upos_bit`]) of the words of relation `r`.
    upos_of: [u32; 64],
    /// `children_of[r]`: relations of the children of the words of relation `r`.
    children_of: [u64; 64],
    /// `children_of_upos[u]`: relations of the children of the words tagged `u` (the root's
    /// too, under the tag its `_` has).
    children_of_upos: [u64; 32],
    /// `siblings_of[r]`: relations of the children of the heads of the words of relation `r`
    /// (`r` among them).
    siblings_of: [u64; 64],
    /// Scratch space of [`TreeKinds::fill`]: relations of each word's children met so far.
    seen: Vec<u64>,
}

impl Default for TreeKinds {
    fn default() -> Self {
        TreeKinds {
            bare: 0,
            labels: 0,
            twice: 0,
            upos_of: [0; 64],
            children_of: [0; 64],
            children_of_upos: [0; 32],
            siblings_of: [0; 64],
            seen: Vec::new(),
        }
    }
}

impl TreeKinds {
    /// A tree that has everything: every anchor admits it as far as it asks the tree.
    pub fn everything() -> TreeKinds {
        TreeKinds {
            bare: u64::MAX,
            labels: u64::MAX,
            twice: u64::MAX,
            upos_of: [u32::MAX; 64],
            children_of: [u64::MAX; 64],
            children_of_upos: [u64::MAX; 32],
            siblings_of: [u64::MAX; 64],
            seen: Vec::new(),
        }
    }

    /// What `graph`'s basic tree holds.
    pub fn of(graph: &SentenceGraph) -> TreeKinds {
        let mut kinds = TreeKinds::default();
        kinds.fill(graph);
        kinds
    }

    /// Makes `self` what `graph`'s basic tree holds, reusing its buffer.
    pub fn fill(&mut self, graph: &SentenceGraph) {
        let (codes, tags, children) = (graph.basic_codes(), graph.upos_indices(), graph.basic_child_relation_sets());
        let (mut bare, mut labels, mut twice) = (0, 0, 0);
        self.upos_of = [0; 64];
        self.children_of = [0; 64];
        self.children_of_upos = [0; 32];
        self.siblings_of = [0; 64];
        self.seen.clear();
        self.seen.resize(codes.len() + 1, 0);
        let words = codes.iter().zip(tags).zip(&children[1..]).zip(&graph.sentence.words);
        for (n, (((&code, &tag), &below), word)) in (1..).zip(words) {
            // (Masked: the tables' bounds need no check.)
            let (relation, tag) = (usize::from(code & 63), usize::from(tag & 31));
            let bit = 1u64 << relation;
            if code & SUBTYPED != 0 || relation == OTHER_RELATION as usize {
                labels |= graph.basic_label_bit(n);
            } else {
                bare |= bit;
            }
            self.upos_of[relation] |= 1 << tag;
            self.children_of[relation] |= below;
            self.children_of_upos[tag] |= below;
            let head = word.head as usize;
            self.siblings_of[relation] |= children.get(head).copied().unwrap_or(0);
            if let Some(seen) = self.seen.get_mut(head) {
                twice |= *seen & bit;
                *seen |= bit;
            }
        }
        self.children_of_upos[upos_bit("_").trailing_zeros() as usize] |= children[0];
        (self.bare, self.labels, self.twice) = (bare, labels, twice);
    }
}

/// The one answer to "can this pattern match in this graph?", read from the pattern once (like
/// ast-grep's potential kinds): only necessary conditions, each from a positive basic edge or a
/// positive node test of the match block, which every match needs (never a `without` block or a
/// negated test). The engine checks the tree's part once per sentence
/// ([`Anchor::admits_tree`]) and the graph's part in every round ([`Anchor::admits_graph`]),
/// and skips most rules of most sentences without trying them. It asks for
/// - groups of basic relations of which the basic tree must have at least one each (an edge's
///   label test), likewise groups of UPOS tags (a node's), and groups of relations of which
///   the enhanced graph must have an edge each, and an empty node if a node of the pattern is
///   one (`[empty]`) ([`Kinds`]);
/// - groups of whole labels (`N -[acl:relcl]-> V`: a word labelled `acl:relcl`, not any `acl`);
/// - what one word must have together ([`Pair`]): a relation and a UPOS tag (`N -[case]-> C;
///   C [upos=SCONJ]`), a relation and a child's relation (`V1 -[conj]-> V2; V2 -[aux:pass]->
///   A`), a UPOS tag and a child's relation, a child's relation and a sibling's (`V1 -[conj]->
///   V2; V1 -[obj]-> D`);
/// - relations of which one word must have two children (`H -[conj]-> C; H -[conj]-> N`:
///   distinct variables bind distinct words).
///
/// The last three are read from [`TreeKinds`]. The groups of the first sit in small fixed arrays.
/// A pattern with more of them keeps the first [`ANCHOR_GROUPS`]: the anchor stays a necessary
/// condition, only a weaker one.
#[derive(Clone, Debug, Default)]
pub struct Anchor {
    relation_groups: Groups<u64>,
    upos_groups: Groups<u32>,
    enhanced_groups: Groups<u64>,
    empty: bool,
    /// Groups of labels, each as the relations of its labels without a subtype and the
    /// [`label_bit`]s of the others ([`TreeKinds::bare`], [`TreeKinds::labels`]).
    label_groups: Vec<(u64, u64)>,
    pairs: Vec<Pair>,
    /// Relations of which some word must have two children.
    twice: u64,
    /// Whether the anchor asks [`TreeKinds`] anything.
    detailed: bool,
}

/// Something one word must have: a relation in `first` or UPOS tag in `first` (as `table`
/// says) together with a UPOS tag or a child's relation in `second`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Pair {
    table: Table,
    first: u64,
    second: u64,
}

/// Which [`TreeKinds`] table a [`Pair`] reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Table {
    /// Relation, and the word's UPOS tag ([`TreeKinds::upos_of`]).
    UposOf,
    /// Relation, and a child's relation ([`TreeKinds::children_of`]).
    ChildrenOf,
    /// UPOS tag, and a child's relation ([`TreeKinds::children_of_upos`]).
    ChildrenOfUpos,
    /// Relation, and a sibling's relation ([`TreeKinds::siblings_of`]).
    SiblingsOf,
}

impl Pair {
    fn met(&self, tree: &TreeKinds) -> bool {
        let mut found = 0;
        let mut first = self.first;
        while first != 0 {
            let i = first.trailing_zeros() as usize;
            found |= match self.table {
                Table::UposOf => u64::from(tree.upos_of[i]),
                Table::ChildrenOf => tree.children_of[i],
                Table::ChildrenOfUpos => tree.children_of_upos[i],
                Table::SiblingsOf => tree.siblings_of[i],
            };
            first &= first - 1;
        }
        found & self.second != 0
    }
}

const ANCHOR_GROUPS: usize = 4;
/// A [`Pair`] reads one table entry per bit of its `first`: pairs of wider sets are left out
/// (they rule out little anyway).
const PAIR_WIDTH: u32 = 8;

/// Unused slots hold all bits, which any non-empty set meets: the check is a fixed number of
/// tests with no data-dependent branch (anchors are checked for every rule of every sentence).
#[derive(Clone, Copy, Debug)]
struct Groups<T> {
    groups: [T; ANCHOR_GROUPS],
    len: u8,
}

impl<T: GroupBits> Default for Groups<T> {
    fn default() -> Self {
        Groups { groups: [T::ALL; ANCHOR_GROUPS], len: 0 }
    }
}

trait GroupBits: Copy + PartialEq + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> {
    const ALL: Self;
    const NONE: Self;
    fn count_ones(self) -> u32;
}

impl GroupBits for u64 {
    const ALL: u64 = u64::MAX;
    const NONE: u64 = 0;
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
}

impl GroupBits for u32 {
    const ALL: u32 = u32::MAX;
    const NONE: u32 = 0;
    fn count_ones(self) -> u32 {
        u32::count_ones(self)
    }
}

impl<T: GroupBits> Groups<T> {
    /// Whether no set meets the groups (one of them is empty).
    fn unmet(&self) -> bool {
        self.groups[..usize::from(self.len)].contains(&T::NONE)
    }

    /// The groups of one bit each, together: what every graph that meets the groups has.
    fn singles(&self) -> T {
        self.groups[..usize::from(self.len)].iter().filter(|g| g.count_ones() == 1).fold(T::NONE, |all, &g| all | g)
    }

    /// Adds a group (one of all bits asks nothing).
    fn push(&mut self, group: T) {
        let len = usize::from(self.len);
        if len < ANCHOR_GROUPS && group != T::ALL && !self.groups[..len].contains(&group) {
            self.groups[len] = group;
            self.len += 1;
        }
    }

    /// Whether `present` meets every group.
    fn met(&self, present: T) -> bool {
        if present == T::NONE {
            return self.len == 0;
        }
        self.groups.iter().fold(true, |ok, &g| ok & (g & present != T::NONE))
    }
}

/// What a graph must have, every one of them: relations of the basic tree and UPOS tags (bits
/// as in [`Kinds`]), relations of the enhanced graph, an empty node. The part of an anchor a
/// group of rules shares ([`Needs::and`]): a graph without it can match none of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Needs {
    relations: u64,
    upos: u32,
    enhanced: u64,
    empty: bool,
}

impl Needs {
    /// What a group of no rules needs (the start of [`Needs::and`]).
    pub const ALL: Needs = Needs { relations: u64::MAX, upos: u32::MAX, enhanced: u64::MAX, empty: true };

    /// What both need.
    pub fn and(self, other: Needs) -> Needs {
        Needs {
            relations: self.relations & other.relations,
            upos: self.upos & other.upos,
            enhanced: self.enhanced & other.enhanced,
            empty: self.empty & other.empty,
        }
    }

    /// Whether a basic tree with `kinds` has the tree's part.
    pub fn tree_met(self, kinds: Kinds) -> bool {
        kinds.basic & self.relations == self.relations && kinds.upos & self.upos == self.upos
    }

    /// Whether a graph with `kinds` has the enhanced graph's part.
    pub fn graph_met(self, kinds: Kinds) -> bool {
        kinds.enhanced & self.enhanced == self.enhanced && (kinds.empty || !self.empty)
    }
}

impl Anchor {
    /// What every graph the anchor admits has: its groups of one relation or tag each (all of
    /// [`Needs::ALL`] for an anchor no graph meets, such as a rule's whose lexicon list the
    /// profile leaves empty: it must not lower what its stage needs).
    pub fn needs(&self) -> Needs {
        if self.relation_groups.unmet() || self.upos_groups.unmet() || self.enhanced_groups.unmet() {
            return Needs::ALL;
        }
        Needs {
            relations: self.relation_groups.singles(),
            upos: self.upos_groups.singles(),
            enhanced: self.enhanced_groups.singles(),
            empty: self.empty,
        }
    }

    /// Whether a graph that holds `kinds`, of a basic tree that holds `tree`, can hold a match.
    pub fn admits(&self, kinds: Kinds, tree: &TreeKinds) -> bool {
        self.admits_tree(kinds, tree) && self.admits_graph(kinds)
    }

    /// The part of [`Anchor::admits`] the basic tree decides (relations, UPOS tags and what
    /// [`TreeKinds`] tells): it holds for a sentence's every round once it holds for the
    /// sentence.
    pub fn admits_tree(&self, kinds: Kinds, tree: &TreeKinds) -> bool {
        self.relation_groups.met(kinds.basic)
            && self.upos_groups.met(kinds.upos)
            && (!self.detailed
                || (self.twice & tree.twice == self.twice
                    && self.label_groups.iter().all(|&(bare, labels)| bare & tree.bare != 0 || labels & tree.labels != 0)
                    && self.pairs.iter().all(|p| p.met(tree))))
    }

    /// The part of [`Anchor::admits`] the rounds change: enhanced relations, empty nodes.
    pub fn admits_graph(&self, kinds: Kinds) -> bool {
        self.enhanced_groups.met(kinds.enhanced) && (kinds.empty || !self.empty)
    }
}

/// The relations a label test can accept (all when it does not narrow them).
fn label_relations(test: &LabelTest) -> u64 {
    RelationFilter::of(test).allowed()
}

/// The edge variables a label test compares with (`e.label`).
fn label_edge_vars(test: &LabelTest, out: &mut Vec<usize>) {
    match test {
        LabelTest::SameLabel(v) => out.push(*v),
        LabelTest::Alternatives(options) => options.iter().for_each(|o| label_edge_vars(o, out)),
        LabelTest::Not(inner) => label_edge_vars(inner, out),
        _ => {}
    }
}

/// How selective a label test is: lower is better.
fn label_cost(test: &LabelTest) -> u32 {
    match test {
        LabelTest::Exact(_) => 1,
        LabelTest::Universal(_) => 2,
        // Never worse than any label: a long relation list still uses the children index.
        LabelTest::Alternatives(options) => (options.iter().map(label_cost).sum::<u32>() + 1).min(19),
        // A regex that names one relation by its prefix (`/^conj:/`) narrows like a universal.
        LabelTest::Regex(_) if RelationFilter::of(test).allowed().count_ones() == 1 => 2,
        LabelTest::Subtype(_) | LabelTest::Regex(_) | LabelTest::SameLabel(_) => 8,
        LabelTest::Not(_) | LabelTest::Any => 20,
    }
}

/// Whether pattern edge `e` is an enhanced edge only subtyped labels pass (`=[conj:*]=>` is
/// not; `=[/^conj:/]=>`, `=[nsubj:pass]=>` are), with no basic edge between the same nodes
/// that names the same relations. Such edges are few when a rule's first search runs: the
/// enhanced graph starts as a copy of the basic tree, whose labels are mostly bare, and rules
/// write the subtypes (conj:and; a rule that waits for one, conj_label_shared_cc_chain, then
/// ends its search at once instead of pairing up every conjunct). A scan of the enhanced
/// edges costs a byte test per edge. (The relation index serves the basic edge, if any.)
fn rare_enhanced(pattern: &CheckedPattern, e: usize) -> bool {
    let edge = &pattern.edges[e];
    let filter = RelationFilter::of(&edge.label);
    let copied = pattern.edges.iter().any(|b| {
        let basic = RelationFilter::of(&b.label);
        b.layer == Layer::Basic && !b.negated && (b.from, b.to) == (edge.from, edge.to) && basic.possible[1] & filter.possible[1] != 0
    });
    edge.layer == Layer::Enhanced && !edge.negated && filter.possible[0] == 0 && filter.possible[1] != u64::MAX && !copied
}

fn node_cost(tests: Option<&NodeTest>) -> u32 {
    let Some(tests) = tests else { return 100 };
    let positive = |t: &&crate::rules::ast::FieldTest| !t.negated;
    let best = tests
        .tests
        .iter()
        .filter(positive)
        .map(|t| match (&t.field, &t.test) {
            (Field::Form | Field::Lemma, CheckedValueTest::Equals { .. } | CheckedValueTest::InLexicon { .. }) => 5,
            // Empty nodes are few, and scanned apart from the words.
            (Field::Empty, _) => 5,
            (Field::Upos | Field::Xpos, CheckedValueTest::Equals { .. }) => 20,
            (Field::Feature(_), CheckedValueTest::Equals { .. }) => 30,
            _ => 60,
        })
        .min();
    best.unwrap_or(90)
}

pub fn anchor_of(pattern: &CheckedPattern) -> Anchor {
    let mut anchor = Anchor::default();
    // A pattern no graph can match (an empty profile list): a group no relation meets says so.
    if never_matches(pattern) {
        anchor.relation_groups.push(0);
        return anchor;
    }
    for edge in pattern.edges.iter().filter(|e| !e.negated) {
        let bits = label_relations(&edge.label);
        match edge.layer {
            Layer::Basic => anchor.relation_groups.push(bits),
            Layer::Enhanced => anchor.enhanced_groups.push(bits),
        }
    }
    // What each variable must be: the relations of its basic edge (`own`), its UPOS tags.
    let vars = pattern.edges.iter().map(|e| e.from.max(e.to) + 1).chain(pattern.nodes.iter().map(|n| n.var + 1)).max().unwrap_or(0);
    let mut own = vec![u64::MAX; vars];
    let mut tags = vec![u64::MAX; vars];
    for node in &pattern.nodes {
        // An empty node's UPOS need not be any word's (the words' tags are what `Kinds` has).
        let empty = node.tests.iter().any(|t| t.field == Field::Empty && !t.negated);
        anchor.empty |= empty;
        for test in node.tests.iter().filter(|_| !empty) {
            if let (Field::Upos, CheckedValueTest::Equals { values, case_insensitive: false }, false) =
                (&test.field, &test.test, test.negated)
            {
                let bits = values.iter().fold(0, |acc, v| acc | upos_bit(v));
                anchor.upos_groups.push(bits);
                tags[node.var] &= u64::from(bits);
            }
        }
    }
    // Positive basic edges between two variables. Every edge of a descent passes its label
    // test: its dependent's own edge, and the first edge below its head, as a single edge's.
    let basic = || pattern.edges.iter().filter(|e| e.layer == Layer::Basic && !e.negated && e.from != e.to);
    for edge in basic() {
        own[edge.to] &= label_relations(&edge.label);
        if let Some(group) = exact_labels(&edge.label).filter(|&(_, labels)| labels != 0) {
            anchor.label_groups.push(group);
        }
    }
    let mut pairs = Vec::new();
    let mut push = |table: Table, first: u64, second: u64| {
        let pair = Pair { table, first, second };
        if first.count_ones() <= PAIR_WIDTH && second != u64::MAX && !pairs.contains(&pair) {
            pairs.push(pair);
        }
    };
    for v in 0..vars {
        if own[v] != u64::MAX {
            push(Table::UposOf, own[v], tags[v]);
        }
        for edge in basic().filter(|e| e.from == v) {
            let children = label_relations(&edge.label);
            // (With neither its relation nor its tags, the tree's relations say it all.)
            if own[v] != u64::MAX {
                push(Table::ChildrenOf, own[v], children);
            } else if tags[v] != u64::MAX {
                push(Table::ChildrenOfUpos, tags[v], children);
            }
            // Two edges of relations neither of which includes the other: children of one word
            // (perhaps one child, through two descents).
            for other in basic().filter(|e| e.from == v) {
                let siblings = label_relations(&other.label);
                let narrower = (children.count_ones(), children) < (siblings.count_ones(), siblings);
                if children & siblings != children && children & siblings != siblings && narrower {
                    push(Table::SiblingsOf, children, siblings);
                }
            }
            // Two single edges of one relation to two variables: two children of one word.
            let single = |e: &EdgeTest| e.depth.is_none() && label_relations(&e.label).count_ones() == 1;
            if single(edge) && basic().any(|e| e.from == v && e.to != edge.to && single(e) && label_relations(&e.label) == children) {
                anchor.twice |= children;
            }
        }
    }
    anchor.pairs = pairs;
    anchor.detailed = anchor.twice != 0 || !anchor.label_groups.is_empty() || !anchor.pairs.is_empty();
    anchor
}

/// The labels a label test accepts when it names them all (`acl:relcl`, `obl|obl:arg`): the
/// relations of those without a subtype, and the [`label_bit`]s of the others.
fn exact_labels(test: &LabelTest) -> Option<(u64, u64)> {
    match test {
        LabelTest::Exact(label) => {
            let code = relation_code(label);
            Some(if code & SUBTYPED == 0 && u32::from(code) != OTHER_RELATION { (1 << code, 0) } else { (0, label_bit(label)) })
        }
        LabelTest::Alternatives(options) => {
            options.iter().map(exact_labels).try_fold((0, 0), |(bare, labels), o| o.map(|(b, l)| (bare | b, labels | l)))
        }
        _ => None,
    }
}

/// Compiles `pattern`, given the node variables bound before it starts (`bound_before[v]`)
/// and whether its edge variables are (`edge_vars_before[e]`).
pub fn plan(pattern: &CheckedPattern, bound_before: &[bool], edge_vars_before: &[bool]) -> Plan {
    let mut bound = bound_before.to_vec();
    let mut edge_vars_bound = edge_vars_before.to_vec();
    // An edge whose label compares with an edge variable waits until that variable is bound.
    let waits_for: Vec<Vec<usize>> = pattern
        .edges
        .iter()
        .map(|e| {
            let mut vars = Vec::new();
            label_edge_vars(&e.label, &mut vars);
            vars
        })
        .collect();
    let node_test = |v: VarId| pattern.nodes.iter().find(|n| n.var == v);
    let is_empty = |v: VarId| node_test(v).is_some_and(|n| n.tests.iter().any(|t| t.field == Field::Empty && !t.negated));
    let mut used: Vec<bool> = pattern.edges.iter().map(|e| e.negated).collect();
    let mut done = Done::default();
    let before = done.newly_testable(pattern, &bound);
    let mut steps = Vec::new();
    let mut between = Vec::new();
    let mut filters = Vec::new();
    loop {
        // The cheapest edge that touches a bound node: basic checks first, then a dependent's
        // one basic head, then enhanced heads, then children; an enhanced edge between bound
        // nodes after a selective basic step (it mostly holds: the enhanced graph starts as a
        // copy of the basic tree).
        let ready = |e: usize, edge_vars_bound: &[bool]| waits_for[e].iter().all(|&v| edge_vars_bound.get(v).copied().unwrap_or(true));
        let connected = (0..pattern.edges.len())
            .filter(|&e| !used[e] && ready(e, &edge_vars_bound))
            .filter_map(|e| {
                let edge = &pattern.edges[e];
                // A descent walks a path, not one edge: down from a word it costs a subtree.
                let walk = if edge.depth.is_some() { 15 } else { 0 };
                let cost = walk + match (bound[edge.from], bound[edge.to]) {
                    (true, true) if edge.layer == Layer::Basic => 0,
                    (true, true) => 48,  // after a child step with a specific label (40 + 1 + node)
                    (false, true) if edge.layer == Layer::Basic => 10 + label_cost(&edge.label),
                    (false, true) => 30 + label_cost(&edge.label),
                    (true, false) => 40 + label_cost(&edge.label) + node_cost(node_test(edge.to)) / 10,
                    (false, false) => return None,
                };
                Some((cost, e))
            })
            .min();
        let step = if let Some((_, e)) = connected {
            let edge = &pattern.edges[e];
            match (bound[edge.from], bound[edge.to]) {
                (true, true) => Step::Connect { edge: e },
                (false, true) => Step::FollowIn { edge: e },
                _ => Step::FollowOut { edge: e },
            }
        } else {
            // Nothing connected: start a new component from an edge with a selective label,
            // unless some node is pinned down by its lemma or form.
            // Basic edges come from a per-sentence relation index; enhanced ones are all scanned.
            let scan_cost = |e: usize| {
                let edge = &pattern.edges[e];
                if rare_enhanced(pattern, e) {
                    return 0;
                }
                label_cost(&edge.label) + if edge.layer == Layer::Enhanced { 10 } else { 0 }
            };
            let best_edge = (0..pattern.edges.len()).filter(|&e| !used[e] && ready(e, &edge_vars_bound)).min_by_key(|&e| scan_cost(e));
            let best_node = pattern.new_vars.clone().filter(|&v| !bound[v]).min_by_key(|&v| node_cost(node_test(v)));
            match (best_edge, best_node) {
                // Empty nodes are few: scanned unless a basic edge names one relation. A word
                // pinned by its lemma costs a text test per word: scanned unless some edge
                // names one relation (a byte test per edge, enhanced edges too).
                (Some(e), Some(v))
                    if node_cost(node_test(v)) <= 5
                        && if is_empty(v) { scan_cost(e) > 1 } else { label_cost(&pattern.edges[e].label) > 2 } =>
                {
                    Step::ScanNodes { var: v, empty: is_empty(v) }
                }
                (Some(e), _) => Step::ScanEdges { edge: e },
                (None, Some(v)) => Step::ScanNodes { var: v, empty: is_empty(v) },
                // Only edges still waiting for an edge variable that nothing binds (the checker
                // rejects that): schedule them anyway rather than drop a pattern edge.
                (None, None) => match (0..pattern.edges.len()).find(|&e| !used[e]) {
                    Some(e) => Step::Connect { edge: e },
                    None => break,
                },
            }
        };
        let step = match step {
            Step::ScanEdges { edge, .. } | Step::FollowIn { edge } | Step::FollowOut { edge } | Step::Connect { edge } => {
                match pattern.edges[edge].depth {
                    Some(depth) => Step::Descend { edge, depth },
                    None => step,
                }
            }
            other => other,
        };
        match step {
            Step::ScanNodes { var, .. } => bound[var] = true,
            Step::ScanEdges { edge: e }
            | Step::FollowIn { edge: e }
            | Step::FollowOut { edge: e }
            | Step::Connect { edge: e }
            | Step::Descend { edge: e, .. } => {
                used[e] = true;
                if let Some(v) = pattern.edges[e].var {
                    if let Some(slot) = edge_vars_bound.get_mut(v) {
                        *slot = true;
                    }
                }
                bound[pattern.edges[e].from] = true;
                bound[pattern.edges[e].to] = true;
            }
        }
        between.push(match step {
            Step::FollowOut { edge } if pattern.edges[edge].layer == Layer::Basic => {
                let x = pattern.edges[edge].to;
                let bound_before = |o: &OrderTest, want_left: bool| match *o {
                    OrderTest::Before { left: Operand::Node(l), right: Operand::Node(r), immediately: false } => {
                        let (other, new) = if want_left { (l, r) } else { (r, l) };
                        (new == x && other != x && bound[other]).then_some(other)
                    }
                    _ => None,
                };
                (pattern.order.iter().find_map(|o| bound_before(o, true)), pattern.order.iter().find_map(|o| bound_before(o, false)))
            }
            _ => (None, None),
        });
        steps.push(step);
        filters.push(done.newly_testable(pattern, &bound));
    }
    let edge_info = pattern
        .edges
        .iter()
        .map(|e| EdgeInfo {
            from: e.from,
            to: e.to,
            var: e.var,
            basic: e.layer == Layer::Basic,
            filter: RelationFilter::of(&e.label),
        })
        .collect();
    let filtered_steps = filters
        .iter()
        .enumerate()
        .fold(0u64, |bits, (i, f)| if i >= 64 || f.is_empty() { bits } else { bits | 1 << i });
    let node_tests = pattern
        .nodes
        .iter()
        .map(|n| NodeChecks {
            var: n.var,
            checks: n
                .tests
                .iter()
                .map(|t| match t.field {
                    Field::Lemma => FieldCheck::Lemma { test: t.test.clone(), negated: t.negated },
                    _ => FieldCheck::Text(t.clone()),
                })
                .collect(),
        })
        .collect();
    let nearest = Vec::new();
    let outer_anchors = Vec::new();
    Plan { pattern: pattern.clone(), node_tests, steps, filters, before, edge_info, filtered_steps, nearest, between, outer_anchors }
}

/// The steps of `plan` that a `without` block narrows to the nearest candidate ([`Nearest`]).
fn nearest_steps(plan: &Plan, withouts: &[Plan]) -> Vec<Option<Nearest>> {
    let before = |left: VarId, right: VarId| {
        move |o: &OrderTest| {
            matches!(o, OrderTest::Before { left: Operand::Node(l), right: Operand::Node(r), immediately: false }
                if (*l, *r) == (left, right))
        }
    };
    let nearest = |index: usize| -> Option<Nearest> {
        let Step::FollowOut { edge } = plan.steps[index] else { return None };
        let test = &plan.pattern.edges[edge];
        // A variable bound later along a basic edge from another node than P has another
        // basic head: it cannot take a child of P.
        let later_bind_no_child = plan.steps[index + 1..].iter().all(|s| match *s {
            Step::Connect { .. } => true,
            Step::FollowOut { edge } => {
                let e = &plan.pattern.edges[edge];
                e.layer == Layer::Basic && !e.negated && e.from != test.from
            }
            _ => false,
        });
        if test.layer != Layer::Basic || test.negated || !later_bind_no_child {
            return None;
        }
        let x = test.to;
        // Each order test `A << X` or `X << A` of the pattern, with a without block that says
        // no L-child of P lies between.
        plan.pattern.order.iter().find_map(|o| {
            let OrderTest::Before { left: Operand::Node(l), right: Operand::Node(r), immediately: false } = *o else {
                return None;
            };
            let (anchor, after) = if r == x { (l, true) } else if l == x { (r, false) } else { return None };
            withouts
                .iter()
                .map(|w| &w.pattern)
                .any(|w| {
                    let m = w.new_vars.start;
                    let between = if after { [before(anchor, m), before(m, x)] } else { [before(x, m), before(m, anchor)] };
                    w.new_vars.len() == 1
                        && w.nodes.is_empty()
                        && w.order.len() == 2
                        && between.iter().all(|b| w.order.iter().any(b))
                        && matches!(&w.edges[..], [e] if e.layer == Layer::Basic && !e.negated && (e.from, e.to) == (test.from, m)
                            && same_label_test(&e.label, &test.label))
                })
                .then_some(Nearest { anchor, after })
        })
    };
    (0..plan.steps.len()).map(nearest).collect()
}

/// Whether two label tests are the same test (for the tests [`nearest_steps`] compares).
fn same_label_test(a: &LabelTest, b: &LabelTest) -> bool {
    match (a, b) {
        (LabelTest::Any, LabelTest::Any) => true,
        (LabelTest::Exact(x), LabelTest::Exact(y)) | (LabelTest::Universal(x), LabelTest::Universal(y)) => x == y,
        _ => false,
    }
}

/// Which tests of a pattern are already scheduled.
#[derive(Default)]
struct Done {
    nodes: Vec<usize>,
    edges: Vec<usize>,
    order: Vec<usize>,
}

impl Done {
    /// The tests whose variables are all bound now and that were not scheduled before.
    fn newly_testable(&mut self, pattern: &CheckedPattern, bound: &[bool]) -> Filters {
        let mut filters = Filters::default();
        for (i, n) in pattern.nodes.iter().enumerate() {
            if bound[n.var] && !self.nodes.contains(&i) {
                self.nodes.push(i);
                filters.node_tests.push(i);
            }
        }
        for (i, edge) in pattern.edges.iter().enumerate() {
            if edge.negated && bound[edge.from] && bound[edge.to] && !self.edges.contains(&i) {
                self.edges.push(i);
                filters.absent_edges.push(i);
            }
        }
        for (i, order) in pattern.order.iter().enumerate() {
            if order_vars(order).iter().all(|&v| bound[v]) && !self.order.contains(&i) {
                self.order.push(i);
                filters.order.push(i);
            }
        }
        filters
    }
}

fn order_vars(order: &OrderTest) -> Vec<VarId> {
    let var = |o: &Operand| match o {
        Operand::Node(v) | Operand::Subtree(v) => *v,
    };
    match order {
        OrderTest::Before { left, right, .. } => vec![var(left), var(right)],
        OrderTest::Distinct(a, b) | OrderTest::Agree { left: a, right: b, .. } => vec![*a, *b],
    }
}

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
    /// Whether an added edge from `head` to `dependent` with this [`relation_code`] can seed a
    /// match: its relation passes the pattern edge's filter, its ends are what the pattern's
    /// basic edges ask of them, and it is no loop where the pattern edge joins two variables
    /// (injectivity, which the search does not check for the seeded ends).
    pub fn admits_seed(&self, graph: &SentenceGraph, head: NodeIndex, dependent: NodeIndex, code: u8) -> bool {
        let info = &self.plan.edge_info[self.edge];
        (info.from == info.to || head != dependent)
            && info.filter.admits(code)
            && self.ends[0].admits(graph, head)
            && self.ends[1].admits(graph, dependent)
    }
}

/// The anchor of one pattern variable: what the basic tree must hold around a word for the
/// variable to bind it (its own relation, relations of which it must have a child each), from
/// the pattern's basic edges. Read where a search starts from nodes bound in advance (the
/// seeds of later rounds): most seeds are rejected without a search.
#[derive(Copy, Clone, Debug)]
pub struct NodeAnchor {
    /// Filters the word's own relation must pass (`possible` only); `None`: no basic head asked.
    relation: Option<RelationFilter>,
    children: Groups<u64>,
}

impl NodeAnchor {
    /// The anchor of `var` in `pattern`.
    pub fn of(pattern: &CheckedPattern, var: VarId) -> NodeAnchor {
        let mut anchor = NodeAnchor { relation: None, children: Groups::default() };
        for e in pattern.edges.iter().filter(|e| e.layer == Layer::Basic && !e.negated && e.from != e.to) {
            let filter = RelationFilter::of(&e.label);
            if e.to == var {
                let own = anchor.relation.get_or_insert(RelationFilter::ANY);
                own.possible = [own.possible[0] & filter.possible[0], own.possible[1] & filter.possible[1]];
            }
            if e.from == var {
                anchor.children.push(filter.allowed());
            }
        }
        anchor
    }

    /// Whether `node` can be bound to the variable (an empty node has no basic edges).
    pub fn admits(&self, graph: &SentenceGraph, node: NodeIndex) -> bool {
        if self.relation.is_none() && self.children.len == 0 {
            return true;
        }
        let Some(word) = graph.word_of(node) else { return false };
        self.relation.is_none_or(|filter| word != 0 && filter.admits(graph.basic_code(word)))
            && self.children.met(graph.basic_child_relations(word))
    }
}

/// A rule ready to run: its plans and what the sentence must contain for it to match.
#[derive(Clone, Debug)]
pub struct CompiledRule {
    pub rule: CheckedRule,
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
}

impl CompiledRule {
    /// After a round that made `last`, whether the rule must be searched whole rather than
    /// from the added edges only: new nodes it could scan, or a change to an edge it tests
    /// negatively (a removed edge can make a `without` block fail anywhere).
    pub fn must_search_whole(&self, last: &super::rewrite::Changes) -> bool {
        (last.nodes && self.scans_nodes)
            || last.removed & self.removal_sensitive != 0
            || last.added_relations & self.addition_sensitive != 0
    }
}

/// Whether a pattern can match no graph at all: a positive edge no label passes (a label list
/// the profile leaves empty: `-[@profile.conj_parent_unshared_clauses]->`), or a value test no
/// value passes (`[upos in @profile.conj_predicate_upos]`, likewise).
fn never_matches(pattern: &CheckedPattern) -> bool {
    let no_label = pattern.edges.iter().any(|e| !e.negated && RelationFilter::of(&e.label).allowed() == 0);
    let no_value = pattern.nodes.iter().flat_map(|n| &n.tests).any(|t| {
        !t.negated
            && match &t.test {
                CheckedValueTest::InLexicon { words, .. } => words.is_empty(),
                CheckedValueTest::Equals { values, .. } => values.is_empty(),
                _ => false,
            }
    });
    no_label || no_value
}

/// What checking a `without` plan at one candidate match roughly costs, for running the
/// blocks cheapest first (their order does not change the result: any match rejects): tests
/// alone, then edges between bound nodes, a word's one head, children, scans, and descents
/// (a walk up the heads or down a subtree) last.
fn without_cost(plan: &Plan) -> u32 {
    plan.steps
        .iter()
        .map(|step| match *step {
            Step::Connect { .. } => 1,
            Step::FollowIn { edge } if plan.edge_info[edge].basic => 2,
            Step::FollowIn { .. } => 3,
            Step::FollowOut { .. } => 4,
            Step::Descend { .. } => 10,
            Step::ScanEdges { .. } | Step::ScanNodes { .. } => 20,
        })
        .sum()
}

/// Compiles `rule`.
pub fn compile(rule: &CheckedRule) -> CompiledRule {
    let var_count = rule.vars.len();
    let bound = vec![false; var_count];
    let no_edge_vars = vec![false; rule.edge_vars.len()];
    let mut match_bound = bound.clone();
    for v in rule.pattern.new_vars.clone() {
        match_bound[v] = true;
    }
    // Edge variables are all bound by the match block.
    let all_edge_vars = vec![true; rule.edge_vars.len()];
    // Every candidate match runs the `without` blocks in turn until one matches: the cheapest
    // first, and none that cannot match (an empty profile list).
    let mut withouts: Vec<Plan> =
        rule.withouts.iter().filter(|w| !never_matches(w)).map(|w| self::plan(w, &match_bound, &all_edge_vars)).collect();
    withouts.sort_by_key(without_cost);
    for w in &mut withouts {
        let mut outer: Vec<VarId> = w.pattern.edges.iter().flat_map(|e| [e.from, e.to]).filter(|v| !w.pattern.new_vars.contains(v)).collect();
        outer.sort_unstable();
        outer.dedup();
        w.outer_anchors = outer
            .into_iter()
            .map(|v| (v, NodeAnchor::of(&w.pattern, v)))
            .filter(|(_, a)| a.relation.is_some() || a.children.len > 0)
            .collect();
    }
    let mut plan = plan(&rule.pattern, &bound, &no_edge_vars);
    plan.nearest = nearest_steps(&plan, &withouts);
    let anchor = anchor_of(&rule.pattern);
    let relations_of = |e: &crate::rules::ast::EdgeTest| match &e.label {
        // The same label as a matched edge: that edge's own test says which relations.
        LabelTest::SameLabel(v) => rule.edge_vars.get(*v).map_or(u64::MAX, |info| label_relations(&rule.pattern.edges[info.edge].label)),
        other => label_relations(other),
    };
    let without_edges = || withouts.iter().flat_map(|p| p.pattern.edges.iter()).filter(|e| e.layer == Layer::Enhanced);
    let removal_sensitive = without_edges()
        .filter(|e| !e.negated)
        .chain(plan.pattern.edges.iter().filter(|e| e.negated && e.layer == Layer::Enhanced))
        .map(relations_of)
        .fold(0, |acc, bits| acc | bits);
    let addition_sensitive = without_edges().filter(|e| e.negated).map(relations_of).fold(0, |acc, bits| acc | bits);
    let scans_nodes =
        std::iter::once(&plan).chain(&withouts).any(|p| p.steps.iter().any(|s| matches!(s, Step::ScanNodes { .. })));
    let delta_plans = rule
        .pattern
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.layer == Layer::Enhanced && !e.negated)
        .map(|(i, e)| {
            let mut seeded = vec![false; var_count];
            seeded[e.from] = true;
            seeded[e.to] = true;
            let mut plan = self::plan(&rule.pattern, &seeded, &no_edge_vars);
            plan.nearest = nearest_steps(&plan, &withouts);
            let ends = [NodeAnchor::of(&rule.pattern, e.from), NodeAnchor::of(&rule.pattern, e.to)];
            DeltaPlan { edge: i, plan, ends }
        })
        .collect::<Vec<_>>();
    let unique_matches = rule.pattern.edges.iter().filter(|e| !e.negated).all(|e| {
        e.layer == Layer::Basic || e.var.is_some() || matches!(e.label, LabelTest::Exact(_) | LabelTest::SameLabel(_))
    });
    let searched_once =
        delta_plans.is_empty() && removal_sensitive == 0 && addition_sensitive == 0 && !scans_nodes && unique_matches;
    CompiledRule {
        rule: rule.clone(),
        plan,
        withouts,
        anchor,
        removal_sensitive,
        addition_sensitive,
        scans_nodes,
        delta_plans,
        searched_once,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LabelTest::*;

    /// The relation filter never rejects a label the test accepts, and when it says it
    /// decides, it accepts exactly the labels the test accepts.
    #[test]
    fn relation_filters_agree_with_label_tests() {
        let labels = [
            "case", "case:x", "obl", "obl:tmod", "obl:arg", "obl:arg:x", "conj", "conj:and", "root", "ref", "nsubj",
            "nsubj:pass", "nsubj:xsubj", "foo", "foo:bar", "bar", "conj:and", "conj:x:y", "nsubjx", "nsubjx:y", "nmod",
            ":x",
        ];
        let exact = |l: &str| Exact(l.to_string());
        let universal = |l: &str| Universal(l.to_string());
        let mut tests: Vec<LabelTest> = labels.iter().map(|l| exact(l)).collect();
        tests.extend(["obl", "nsubj", "foo", "case"].map(universal));
        tests.extend([
            Any,
            Subtype("pass".into()),
            Regex(crate::rules::text_regex::TextRegex::new("^n").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^conj:").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^conj:a").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^nsubj").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^nsubj:").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^obl:[^:]*_").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^foo:").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^:").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^(?i)conj:").unwrap()),
            Regex(crate::rules::text_regex::TextRegex::new("^co|^ns").unwrap()),
            Not(Box::new(Regex(crate::rules::text_regex::TextRegex::new("^conj:").unwrap()))),
            Not(Box::new(Regex(crate::rules::text_regex::TextRegex::new("^nsubj").unwrap()))),
            Alternatives(vec![exact("obl"), exact("nmod"), exact("obl:arg")]),
            Alternatives(vec![universal("conj"), exact("case")]),
            Not(Box::new(exact("root"))),
            Not(Box::new(exact("obl:arg"))),
            Not(Box::new(Alternatives(vec![exact("root"), universal("conj"), exact("punct"), exact("ref")]))),
            Not(Box::new(Alternatives(vec![exact("mark"), exact("obl:arg")]))),
            Not(Box::new(Subtype("pass".into()))),
            Not(Box::new(Not(Box::new(Alternatives(vec![exact("case"), exact("foo")]))))),
        ]);
        let mut decided = 0;
        for test in &tests {
            let filter = RelationFilter::of(test);
            for label in labels {
                let matches = test.matches(label, &|_| None);
                let admits = filter.admits(relation_code(label));
                assert!(admits || !matches, "{test:?} matches {label} but the filter rejects it");
                if filter.is_sure(relation_code(label)) && admits {
                    decided += 1;
                    assert!(matches, "{test:?} rejects {label} but the filter is sure it matches");
                }
            }
        }
        assert!(decided > 50, "the filters decide too little: {decided}");
    }

    /// `without` blocks that no graph can match (an empty profile list, on an edge or a node)
    /// are dropped, and the others run cheapest first: tests, an edge between bound nodes, a
    /// word's head, children, descents. A rule keeps every block that can match.
    #[test]
    fn withouts_that_cannot_match_are_dropped_the_rest_cheapest_first() {
        let lexicon = crate::rules::lexicon::Lexicon::default();
        let rules = crate::rules::load::check_text(
            "t.rules",
            "phase p\n\
             rule r { match { P -[obj]-> C1;  C1 -[conj]-> C2; }\n\
               without { C1 -[*]->+ P; }\n\
               without { C1 -[@profile.conj_parent_unshared_clauses]-> Y;  Y -[*]->+ P; }\n\
               without { C2 -[cc]-> X; }\n\
               without { C0 =[conj]=> C1; }\n\
               without { P =[nsubj]=> C2; }\n\
               without { C2 [upos in @profile.conj_predicate_upos]; }\n\
               without { C2 [upos=VERB]; }\n\
               do { add P =[dep]=> C2; } }\n",
            &lexicon,
        )
        .unwrap_or_else(|e| panic!("{}", e.render()));
        let compiled = compile(&rules[0]);
        let kinds: Vec<Vec<Step>> = compiled.withouts.iter().map(|w| w.steps.clone()).collect();
        let first_edge = |w: &Plan| w.pattern.edges.first().map(|e| (e.from, e.to));
        assert_eq!(compiled.withouts.len(), 5, "{kinds:?}");
        assert!(kinds[0].is_empty(), "tests alone first: {kinds:?}");
        assert!(matches!(kinds[1][..], [Step::Connect { .. }]), "{kinds:?}");
        assert!(matches!(kinds[2][..], [Step::FollowIn { .. }]), "{kinds:?}");
        assert!(matches!(kinds[3][..], [Step::FollowOut { .. }]), "{kinds:?}");
        assert!(matches!(kinds[4][..], [Step::Descend { .. }]), "{kinds:?}");
        // The kept descent is the one from C1 to P, not the one behind the empty list.
        assert_eq!(first_edge(&compiled.withouts[4]), Some((1, 0)));
    }

    /// A `without` block is searched only when its bound nodes have the basic relations and
    /// children it asks: a block that matches (as a dependent, as a head) still rejects.
    #[test]
    fn without_blocks_prefiltered_by_their_bound_nodes_still_reject() {
        use crate::conllu::reader::RawBlock;
        use crate::conllu::Sentence;
        let lexicon = crate::rules::lexicon::Lexicon::default();
        let rules = crate::rules::load::check_text(
            "t.rules",
            "phase p\n\
             rule r { match { H -[conj]-> C; }  without { C -[cc]-> X; }  without { V -[obj]-> H; }  do { add C =[dep]=> H; } }\n",
            &lexicon,
        )
        .unwrap_or_else(|e| panic!("{}", e.render()));
        let compiled = compile(&rules[0]);
        assert!(compiled.withouts.iter().all(|w| !w.outer_anchors.is_empty()), "{:?}", compiled.withouts);
        let matches = |rows: &[String]| {
            let text: String = rows.iter().enumerate().map(|(i, r)| format!("{}\t{r}\t_\t_\n", i + 1)).collect::<String>() + "\n";
            let sentence = Sentence::parse(RawBlock { bytes: text.into_bytes(), first_line: 1, starts_input: true }).unwrap();
            let graph = SentenceGraph::from_basic(&sentence);
            let mut lemmas = super::super::lemmas::Lemmas::default();
            let mut binding = super::super::matcher::Binding::default();
            binding.reset(compiled.rule.vars.len(), compiled.rule.edge_vars.len());
            let mut count = 0;
            super::super::matcher::search(&graph, &mut lemmas, &compiled.plan, &compiled.withouts, &mut binding, &mut |_| {
                count += 1;
                true
            });
            count
        };
        let word = |form: &str, upos: &str, head: u32, rel: &str| format!("{form}\t{form}\t{upos}\t_\t_\t{head}\t{rel}");
        let own_cc = [word("cats", "NOUN", 0, "root"), word("and", "CCONJ", 3, "cc"), word("dogs", "NOUN", 1, "conj")];
        let object = [word("saw", "VERB", 0, "root"), word("cats", "NOUN", 1, "obj"), word(",", "PUNCT", 4, "punct"), word("dogs", "NOUN", 2, "conj")];
        let neither = [word("cats", "NOUN", 0, "root"), word(",", "PUNCT", 3, "punct"), word("dogs", "NOUN", 1, "conj")];
        assert_eq!(matches(&own_cc), 0);
        assert_eq!(matches(&object), 0);
        assert_eq!(matches(&neither), 1);
    }

    /// A search starts from an enhanced edge only subtyped labels pass (rules write those),
    /// unless a basic edge between the same nodes names its relations (the relation index
    /// serves that one); a bare-or-subtyped `conj:*` is no such edge.
    #[test]
    fn plans_start_from_an_enhanced_edge_only_subtypes_pass() {
        let lexicon = crate::rules::lexicon::Lexicon::default();
        let rules = crate::rules::load::check_text(
            "t.rules",
            "phase p\n\
             rule chained { match { H -[conj]-> C;  H =[conj]=> C;  H -[conj]-> N;  e: H =[/^conj:/]=> N; } do { add H =[dep]=> C; } }\n\
             rule copied { match { V -[expl:pv]-> R;  e: V =[expl:pv]=> R; } do { add R =[dep]=> V; } }\n\
             rule wide { match { H -[conj]-> C;  H =[conj:*]=> C; } do { add C =[dep]=> H; } }\n",
            &lexicon,
        )
        .unwrap_or_else(|e| panic!("{}", e.render()));
        let first = |r: usize| compile(&rules[r]).plan.steps[0].clone();
        assert_eq!(first(0), Step::ScanEdges { edge: 3 });
        assert_eq!(first(1), Step::ScanEdges { edge: 0 });
        assert_eq!(first(2), Step::ScanEdges { edge: 0 });
    }

    /// A node pinned by its lemma is scanned only when no edge names one relation: an edge
    /// scan with a byte test per edge costs less than a lemma test per word, enhanced edges
    /// included (the control rules' `V =[xcomp]=> X; V [lemma in @control.subject]`).
    #[test]
    fn plans_scan_a_narrow_edge_before_a_lemma_pinned_node() {
        let lexicon = crate::rules::lexicon::Lexicon::default();
        let rules = crate::rules::load::check_text(
            "t.rules",
            "phase p\n\
             rule narrow { match { V =[xcomp]=> X;  V [lemma=want]; } do { add X =[dep]=> V; } }\n\
             rule wide { match { V -[obl|nmod|iobj]-> X;  V [lemma=want]; } do { add X =[dep]=> V; } }\n",
            &lexicon,
        )
        .unwrap_or_else(|e| panic!("{}", e.render()));
        let narrow = compile(&rules[0]);
        assert!(matches!(narrow.plan.steps[0], Step::ScanEdges { .. }), "{:?}", narrow.plan.steps);
        assert!(matches!(compile(&rules[1]).plan.steps[0], Step::ScanNodes { .. }));
    }
}


#[cfg(test)]
mod anchor_tests {
    use super::*;
    use crate::conllu::reader::RawBlock;
    use crate::conllu::Sentence;

    /// A sentence from rows `FORM UPOS HEAD DEPREL` (lemma: the form).
    fn sentence(rows: &[&str]) -> Sentence {
        let mut text = String::new();
        for (i, row) in rows.iter().enumerate() {
            let [form, upos, head, deprel] = row.split(' ').collect::<Vec<_>>()[..] else { panic!("{row}") };
            text += &format!("{}\t{form}\t{form}\t{upos}\t_\t_\t{head}\t{deprel}\t_\t_\n", i + 1);
        }
        Sentence::parse(RawBlock { bytes: (text + "\n").into_bytes(), first_line: 1, starts_input: true }).unwrap()
    }

    /// Each kind of condition the anchor reads from a pattern: it admits a sentence where the
    /// rule matches (were a condition unsound, the first sentence would be rejected), and it
    /// rejects one the coarse anchor (relations and UPOS tags anywhere in the tree) admits but
    /// the rule cannot match, for want of that one condition.
    #[test]
    fn sharper_anchors_admit_every_sentence_with_a_match_and_reject_near_misses() {
        let lexicon = crate::rules::lexicon::Lexicon::default();
        let rules = crate::rules::load::check_text(
            "t.rules",
            "phase p\n\
             rule label { match { N -[acl:relcl|nmod:poss]-> V; } do { add V =[dep]=> N; } }\n\
             rule upos_of { match { N -[case]-> C;  C [upos=SCONJ|CCONJ]; } do { add C =[dep]=> N; } }\n\
             rule children_of { match { V1 -[conj]-> V2;  V2 -[aux:pass]-> A; } do { add A =[dep]=> V1; } }\n\
             rule children_of_upos { match { V -[obj]-> O;  V [upos=VERB]; } do { add O =[dep]=> V; } }\n\
             rule siblings_of { match { V1 -[conj]-> V2;  V1 -[obj]-> D; } do { add V2 =[dep]=> D; } }\n\
             rule twice { match { H -[conj]-> C;  H -[conj]-> N; } do { add N =[dep]=> C; } }\n\
             rule descent { match { N -[acl:relcl]-> V;  V -[obj]->{1,3} X;  V -[nsubj]-> S;  X [upos=PRON]; } do { add X =[dep]=> S; } }\n",
            &lexicon,
        )
        .unwrap_or_else(|e| panic!("{}", e.render()));
        let rule = |name: &str| compile(rules.iter().find(|r| r.name == name).expect("a test rule"));
        let cases: [(&str, &[&str], &[&str]); 7] = [
            (
                "label",
                &["a NOUN 0 root", "b VERB 1 nmod:poss"],
                &["a NOUN 0 root", "b VERB 1 acl", "c NOUN 1 obl:tmod"],
            ),
            (
                "upos_of",
                &["a NOUN 0 root", "b SCONJ 1 case"],
                &["a NOUN 0 root", "b ADP 1 case", "c SCONJ 1 mark"],
            ),
            (
                "children_of",
                &["a VERB 0 root", "b VERB 1 conj", "c AUX 2 aux:pass"],
                &["a VERB 0 root", "b VERB 1 conj", "c AUX 1 aux:pass"],
            ),
            (
                "children_of_upos",
                &["a VERB 0 root", "b NOUN 1 obj"],
                &["a NOUN 0 root", "b NOUN 1 obj", "c VERB 1 acl"],
            ),
            (
                "siblings_of",
                &["a VERB 0 root", "b NOUN 1 obj", "c VERB 1 conj"],
                &["a VERB 0 root", "b VERB 1 conj", "c NOUN 2 obj"],
            ),
            (
                "twice",
                &["a NOUN 0 root", "b NOUN 1 conj", "c NOUN 1 conj"],
                &["a NOUN 0 root", "b NOUN 1 conj", "c NOUN 2 conj"],
            ),
            (
                // Through a descent: X is two edges below V, and V's `obj` child is not X.
                "descent",
                &["a NOUN 0 root", "b VERB 1 acl:relcl", "c NOUN 2 nsubj", "d NOUN 2 obj", "e PRON 4 obj"],
                &["a NOUN 0 root", "b VERB 1 acl:relcl", "c NOUN 2 nsubj", "d NOUN 2 obj", "e PRON 4 nmod"],
            ),
        ];
        for (name, matching, missing) in cases {
            let compiled = rule(name);
            assert!(compiled.anchor.detailed, "{name}: the anchor asks the tree nothing more");
            for (rows, matches) in [(matching, true), (missing, false)] {
                let sentence = sentence(rows);
                let graph = SentenceGraph::from_basic(&sentence);
                let mut binding = crate::engine::matcher::Binding::default();
                binding.reset(compiled.rule.vars.len(), compiled.rule.edge_vars.len());
                let mut lemmas = crate::engine::lemmas::Lemmas::default();
                let found = crate::engine::matcher::exists(&graph, &mut lemmas, &compiled.plan, &mut binding);
                assert_eq!(found, matches, "{name}: {rows:?}");
                let kinds = Kinds::of(&graph);
                assert!(compiled.anchor.relation_groups.met(kinds.basic) && compiled.anchor.upos_groups.met(kinds.upos));
                assert_eq!(compiled.anchor.admits(kinds, &TreeKinds::of(&graph)), matches, "{name}: {rows:?}");
            }
        }
    }

    /// A table filled for one sentence is refilled for the next, not added to.
    #[test]
    fn tree_kinds_are_refilled_from_sentence_to_sentence() {
        let long = sentence(&["a VERB 0 root", "b VERB 1 conj", "c VERB 1 conj", "d AUX 2 aux:pass", "e SCONJ 1 case"]);
        let short = sentence(&["a NOUN 0 root", "b NOUN 1 nmod"]);
        let mut reused = TreeKinds::of(&SentenceGraph::from_basic(&long));
        reused.fill(&SentenceGraph::from_basic(&short));
        let fresh = TreeKinds::of(&SentenceGraph::from_basic(&short));
        assert_eq!((reused.bare, reused.labels, reused.twice), (fresh.bare, fresh.labels, fresh.twice));
        assert_eq!((reused.upos_of, reused.children_of), (fresh.upos_of, fresh.children_of));
        assert_eq!((reused.children_of_upos, reused.siblings_of), (fresh.children_of_upos, fresh.siblings_of));
        assert_eq!(fresh.twice, 0);
        assert_eq!(fresh.siblings_of[relation_index("nmod") as usize], relation_bit("nmod"));
    }
}
