//! Anchors: what a graph must hold for a pattern to match, read from the pattern once when a
//! rule is lowered and checked before any search ([`Anchor`], [`Needs`]), and the same for one
//! variable where a search starts from nodes bound in advance ([`NodeAnchor`]).

use super::kinds::{Kinds, TreeKinds};
use super::pattern::{EdgeTest, Field, LabelTest, Layer, Pattern, ValueTest, VarId};
use super::relation_filter::{label_relations, RelationFilter};
use crate::graph::{label_bit, relation_code, upos_bit, SentenceGraph, OTHER_RELATION, SUBTYPED};
use petgraph::stable_graph::NodeIndex;

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
        Groups {
            groups: [T::ALL; ANCHOR_GROUPS],
            len: 0,
        }
    }
}

trait GroupBits:
    Copy + PartialEq + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self>
{
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
        self.groups[..usize::from(self.len)]
            .iter()
            .filter(|g| g.count_ones() == 1)
            .fold(T::NONE, |all, &g| all | g)
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
        self.groups
            .iter()
            .fold(true, |ok, &g| ok & (g & present != T::NONE))
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
    pub const ALL: Needs = Needs {
        relations: u64::MAX,
        upos: u32::MAX,
        enhanced: u64::MAX,
        empty: true,
    };

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
        if self.relation_groups.unmet() || self.upos_groups.unmet() || self.enhanced_groups.unmet()
        {
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
                    && self
                        .label_groups
                        .iter()
                        .all(|&(bare, labels)| bare & tree.bare != 0 || labels & tree.labels != 0)
                    && self.pairs.iter().all(|p| p.met(tree))))
    }

    /// The part of [`Anchor::admits`] the rounds change: enhanced relations, empty nodes.
    pub fn admits_graph(&self, kinds: Kinds) -> bool {
        self.enhanced_groups.met(kinds.enhanced) && (kinds.empty || !self.empty)
    }
}

pub fn anchor_of(pattern: &Pattern) -> Anchor {
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
    let vars = pattern
        .edges
        .iter()
        .map(|e| e.from.max(e.to) + 1)
        .chain(pattern.nodes.iter().map(|n| n.var + 1))
        .max()
        .unwrap_or(0);
    let mut own = vec![u64::MAX; vars];
    let mut tags = vec![u64::MAX; vars];
    for node in &pattern.nodes {
        // An empty node's UPOS need not be any word's (the words' tags are what `Kinds` has).
        let empty = node
            .tests
            .iter()
            .any(|t| t.field == Field::Empty && !t.negated);
        anchor.empty |= empty;
        for test in node.tests.iter().filter(|_| !empty) {
            if let (
                Field::Upos,
                ValueTest::Equals {
                    values,
                    case_insensitive: false,
                },
                false,
            ) = (&test.field, &test.test, test.negated)
            {
                let bits = values.iter().fold(0, |acc, v| acc | upos_bit(v));
                anchor.upos_groups.push(bits);
                tags[node.var] &= u64::from(bits);
            }
        }
    }
    // Positive basic edges between two variables. Every edge of a descent passes its label
    // test: its dependent's own edge, and the first edge below its head, as a single edge's.
    let basic = || {
        pattern
            .edges
            .iter()
            .filter(|e| e.layer == Layer::Basic && !e.negated && e.from != e.to)
    };
    for edge in basic() {
        own[edge.to] &= label_relations(&edge.label);
        if let Some(group) = exact_labels(&edge.label).filter(|&(_, labels)| labels != 0) {
            anchor.label_groups.push(group);
        }
    }
    let mut pairs = Vec::new();
    let mut push = |table: Table, first: u64, second: u64| {
        let pair = Pair {
            table,
            first,
            second,
        };
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
                let narrower =
                    (children.count_ones(), children) < (siblings.count_ones(), siblings);
                if children & siblings != children && children & siblings != siblings && narrower {
                    push(Table::SiblingsOf, children, siblings);
                }
            }
            // Two single edges of one relation to two variables: two children of one word.
            let single =
                |e: &EdgeTest| e.depth.is_none() && label_relations(&e.label).count_ones() == 1;
            if single(edge)
                && basic().any(|e| {
                    e.from == v
                        && e.to != edge.to
                        && single(e)
                        && label_relations(&e.label) == children
                })
            {
                anchor.twice |= children;
            }
        }
    }
    anchor.pairs = pairs;
    anchor.detailed =
        anchor.twice != 0 || !anchor.label_groups.is_empty() || !anchor.pairs.is_empty();
    anchor
}

/// The labels a label test accepts when it names them all (`acl:relcl`, `obl|obl:arg`): the
/// relations of those without a subtype, and the [`label_bit`]s of the others.
fn exact_labels(test: &LabelTest) -> Option<(u64, u64)> {
    match test {
        LabelTest::Exact(label) => {
            let code = relation_code(label);
            Some(
                if code & SUBTYPED == 0 && u32::from(code) != OTHER_RELATION {
                    (1 << code, 0)
                } else {
                    (0, label_bit(label))
                },
            )
        }
        LabelTest::Alternatives(options) => options
            .iter()
            .map(exact_labels)
            .try_fold((0, 0), |(bare, labels), o| {
                o.map(|(b, l)| (bare | b, labels | l))
            }),
        _ => None,
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
    pub fn of(pattern: &Pattern, var: VarId) -> NodeAnchor {
        let mut anchor = NodeAnchor {
            relation: None,
            children: Groups::default(),
        };
        for e in pattern
            .edges
            .iter()
            .filter(|e| e.layer == Layer::Basic && !e.negated && e.from != e.to)
        {
            let filter = RelationFilter::of(&e.label);
            if e.to == var {
                let own = anchor.relation.get_or_insert(RelationFilter::ANY);
                own.possible = [
                    own.possible[0] & filter.possible[0],
                    own.possible[1] & filter.possible[1],
                ];
            }
            if e.from == var {
                anchor.children.push(filter.allowed());
            }
        }
        anchor
    }

    /// Whether the anchor asks anything of a word.
    pub fn asks_anything(&self) -> bool {
        self.relation.is_some() || self.children.len > 0
    }

    /// Whether `node` can be bound to the variable (an empty node has no basic edges).
    pub fn admits(&self, graph: &SentenceGraph, node: NodeIndex) -> bool {
        if !self.asks_anything() {
            return true;
        }
        let Some(word) = graph.word_of(node) else {
            return false;
        };
        self.relation
            .is_none_or(|filter| word != 0 && filter.admits(graph.basic_code(word)))
            && self.children.met(graph.basic_child_relations(word))
    }
}

/// Whether a pattern can match no graph at all: a positive edge no label passes (a label list
/// the profile leaves empty: `-[@profile.conj_parent_unshared_clauses]->`), or a value test no
/// value passes (`[upos in @profile.conj_predicate_upos]`, likewise).
pub fn never_matches(pattern: &Pattern) -> bool {
    let no_label = pattern
        .edges
        .iter()
        .any(|e| !e.negated && RelationFilter::of(&e.label).allowed() == 0);
    let no_value = pattern
        .nodes
        .iter()
        .flat_map(|n| &n.tests)
        .any(|t| !t.negated && t.test.passes_nothing());
    no_label || no_value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kinds::tests::sentence;
    use crate::engine::lower::compile_text;

    /// Each kind of condition the anchor reads from a pattern: it admits a sentence where the
    /// rule matches (were a condition unsound, the first sentence would be rejected), and it
    /// rejects one the coarse anchor (relations and UPOS tags anywhere in the tree) admits but
    /// the rule cannot match, for want of that one condition.
    #[test]
    fn sharper_anchors_admit_every_sentence_with_a_match_and_reject_near_misses() {
        let rules = compile_text(
            "phase p\n\
             rule label { match { N -[acl:relcl|nmod:poss]-> V; } do { add V =[dep]=> N; } }\n\
             rule upos_of { match { N -[case]-> C;  C [upos=SCONJ|CCONJ]; } do { add C =[dep]=> N; } }\n\
             rule children_of { match { V1 -[conj]-> V2;  V2 -[aux:pass]-> A; } do { add A =[dep]=> V1; } }\n\
             rule children_of_upos { match { V -[obj]-> O;  V [upos=VERB]; } do { add O =[dep]=> V; } }\n\
             rule siblings_of { match { V1 -[conj]-> V2;  V1 -[obj]-> D; } do { add V2 =[dep]=> D; } }\n\
             rule twice { match { H -[conj]-> C;  H -[conj]-> N; } do { add N =[dep]=> C; } }\n\
             rule descent { match { N -[acl:relcl]-> V;  V -[obj]->{1,3} X;  V -[nsubj]-> S;  X [upos=PRON]; } do { add X =[dep]=> S; } }\n",
        );
        let rule = |name: &str| {
            rules
                .iter()
                .find(|r| r.rule.name == name)
                .expect("a test rule")
        };
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
                &[
                    "a NOUN 0 root",
                    "b VERB 1 acl:relcl",
                    "c NOUN 2 nsubj",
                    "d NOUN 2 obj",
                    "e PRON 4 obj",
                ],
                &[
                    "a NOUN 0 root",
                    "b VERB 1 acl:relcl",
                    "c NOUN 2 nsubj",
                    "d NOUN 2 obj",
                    "e PRON 4 nmod",
                ],
            ),
        ];
        for (name, matching, missing) in cases {
            let compiled = rule(name);
            assert!(
                compiled.anchor.detailed,
                "{name}: the anchor asks the tree nothing more"
            );
            for (rows, matches) in [(matching, true), (missing, false)] {
                let sentence = sentence(rows);
                let graph = SentenceGraph::from_basic(&sentence);
                let mut binding = crate::engine::binding::Binding::default();
                binding.reset(compiled.vars, compiled.edge_vars);
                let mut lemmas = crate::engine::lemmas::Lemmas::default();
                let found = crate::engine::search::exists(
                    &graph,
                    &mut lemmas,
                    &compiled.plan,
                    &mut binding,
                    &mut crate::engine::search::Budget::new(u64::MAX),
                );
                assert_eq!(found, matches, "{name}: {rows:?}");
                let kinds = Kinds::of(&graph);
                assert!(
                    compiled.anchor.relation_groups.met(kinds.basic)
                        && compiled.anchor.upos_groups.met(kinds.upos)
                );
                assert_eq!(
                    compiled.anchor.admits(kinds, &TreeKinds::of(&graph)),
                    matches,
                    "{name}: {rows:?}"
                );
            }
        }
    }
}
