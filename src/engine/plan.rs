//! Plans: the order in which a pattern's variables are bound, most constrained first, and the
//! tests to run as soon as their variables are bound.
//!
//! Like egg's pattern compiler, a plan starts from the most selective element (an edge with a
//! specific label, whose two ends bind at once) and then follows edges outward from bound nodes,
//! preferring steps with the fewest candidates (a word's one basic head before its children).

use super::anchor::NodeAnchor;
use super::pattern::{
    Depth, Field, LabelTest, Layer, NodeTest, Operand, OrderTest, Pattern, ValueTest, VarId,
};
use super::relation_filter::RelationFilter;

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

/// A pattern (the match block or a `without` block) compiled to steps.
#[derive(Clone, Debug)]
pub struct Plan {
    pub pattern: Pattern,
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
    Lemma { test: ValueTest, negated: bool },
    /// Any other test, run on the field's text.
    Text(super::pattern::FieldTest),
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
        LabelTest::Alternatives(options) => {
            (options.iter().map(label_cost).sum::<u32>() + 1).min(19)
        }
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
fn rare_enhanced(pattern: &Pattern, e: usize) -> bool {
    let edge = &pattern.edges[e];
    let filter = RelationFilter::of(&edge.label);
    let copied = pattern.edges.iter().any(|b| {
        let basic = RelationFilter::of(&b.label);
        b.layer == Layer::Basic
            && !b.negated
            && (b.from, b.to) == (edge.from, edge.to)
            && basic.possible[1] & filter.possible[1] != 0
    });
    edge.layer == Layer::Enhanced
        && !edge.negated
        && filter.possible[0] == 0
        && filter.possible[1] != u64::MAX
        && !copied
}

fn node_cost(tests: Option<&NodeTest>) -> u32 {
    let Some(tests) = tests else { return 100 };
    let positive = |t: &&super::pattern::FieldTest| !t.negated;
    let best = tests
        .tests
        .iter()
        .filter(positive)
        .map(|t| match (&t.field, &t.test) {
            (Field::Form | Field::Lemma, ValueTest::Equals { .. } | ValueTest::InLexicon(_)) => 5,
            // Empty nodes are few, and scanned apart from the words.
            (Field::Empty, _) => 5,
            (Field::Upos | Field::Xpos, ValueTest::Equals { .. }) => 20,
            (Field::Feature(_), ValueTest::Equals { .. }) => 30,
            _ => 60,
        })
        .min();
    best.unwrap_or(90)
}

/// Compiles `pattern`, given the node variables bound before it starts (`bound_before[v]`)
/// and whether its edge variables are (`edge_vars_before[e]`).
pub fn plan(pattern: &Pattern, bound_before: &[bool], edge_vars_before: &[bool]) -> Plan {
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
    let is_empty = |v: VarId| {
        node_test(v).is_some_and(|n| {
            n.tests
                .iter()
                .any(|t| t.field == Field::Empty && !t.negated)
        })
    };
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
        let ready = |e: usize, edge_vars_bound: &[bool]| {
            waits_for[e]
                .iter()
                .all(|&v| edge_vars_bound.get(v).copied().unwrap_or(true))
        };
        let connected = (0..pattern.edges.len())
            .filter(|&e| !used[e] && ready(e, &edge_vars_bound))
            .filter_map(|e| {
                let edge = &pattern.edges[e];
                // A descent walks a path, not one edge: down from a word it costs a subtree.
                let walk = if edge.depth.is_some() { 15 } else { 0 };
                let cost = walk
                    + match (bound[edge.from], bound[edge.to]) {
                        (true, true) if edge.layer == Layer::Basic => 0,
                        (true, true) => 48, // after a child step with a specific label (40 + 1 + node)
                        (false, true) if edge.layer == Layer::Basic => 10 + label_cost(&edge.label),
                        (false, true) => 30 + label_cost(&edge.label),
                        (true, false) => {
                            40 + label_cost(&edge.label) + node_cost(node_test(edge.to)) / 10
                        }
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
            let best_edge = (0..pattern.edges.len())
                .filter(|&e| !used[e] && ready(e, &edge_vars_bound))
                .min_by_key(|&e| scan_cost(e));
            let best_node = pattern
                .new_vars
                .clone()
                .filter(|&v| !bound[v])
                .min_by_key(|&v| node_cost(node_test(v)));
            match (best_edge, best_node) {
                // Empty nodes are few: scanned unless a basic edge names one relation. A word
                // pinned by its lemma costs a text test per word: scanned unless some edge
                // names one relation (a byte test per edge, enhanced edges too).
                (Some(e), Some(v))
                    if node_cost(node_test(v)) <= 5
                        && if is_empty(v) {
                            scan_cost(e) > 1
                        } else {
                            label_cost(&pattern.edges[e].label) > 2
                        } =>
                {
                    Step::ScanNodes {
                        var: v,
                        empty: is_empty(v),
                    }
                }
                (Some(e), _) => Step::ScanEdges { edge: e },
                (None, Some(v)) => Step::ScanNodes {
                    var: v,
                    empty: is_empty(v),
                },
                // Only edges still waiting for an edge variable that nothing binds (the checker
                // rejects that): schedule them anyway rather than drop a pattern edge.
                (None, None) => match (0..pattern.edges.len()).find(|&e| !used[e]) {
                    Some(e) => Step::Connect { edge: e },
                    None => break,
                },
            }
        };
        let step = match step {
            Step::ScanEdges { edge, .. }
            | Step::FollowIn { edge }
            | Step::FollowOut { edge }
            | Step::Connect { edge } => match pattern.edges[edge].depth {
                Some(depth) => Step::Descend { edge, depth },
                None => step,
            },
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
                    OrderTest::Before {
                        left: Operand::Node(l),
                        right: Operand::Node(r),
                        immediately: false,
                    } => {
                        let (other, new) = if want_left { (l, r) } else { (r, l) };
                        (new == x && other != x && bound[other]).then_some(other)
                    }
                    _ => None,
                };
                (
                    pattern.order.iter().find_map(|o| bound_before(o, true)),
                    pattern.order.iter().find_map(|o| bound_before(o, false)),
                )
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
    let filtered_steps = filters.iter().enumerate().fold(0u64, |bits, (i, f)| {
        if i >= 64 || f.is_empty() {
            bits
        } else {
            bits | 1 << i
        }
    });
    let node_tests = pattern
        .nodes
        .iter()
        .map(|n| NodeChecks {
            var: n.var,
            checks: n
                .tests
                .iter()
                .map(|t| match t.field {
                    Field::Lemma => FieldCheck::Lemma {
                        test: t.test.clone(),
                        negated: t.negated,
                    },
                    _ => FieldCheck::Text(t.clone()),
                })
                .collect(),
        })
        .collect();
    let nearest = Vec::new();
    let outer_anchors = Vec::new();
    Plan {
        pattern: pattern.clone(),
        node_tests,
        steps,
        filters,
        before,
        edge_info,
        filtered_steps,
        nearest,
        between,
        outer_anchors,
    }
}

/// The steps of `plan` that a `without` block narrows to the nearest candidate ([`Nearest`]).
pub fn nearest_steps(plan: &Plan, withouts: &[Plan]) -> Vec<Option<Nearest>> {
    let before = |left: VarId, right: VarId| {
        move |o: &OrderTest| {
            matches!(o, OrderTest::Before { left: Operand::Node(l), right: Operand::Node(r), immediately: false }
                if (*l, *r) == (left, right))
        }
    };
    let nearest = |index: usize| -> Option<Nearest> {
        let Step::FollowOut { edge } = plan.steps[index] else {
            return None;
        };
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
        (LabelTest::Exact(x), LabelTest::Exact(y))
        | (LabelTest::Universal(x), LabelTest::Universal(y)) => x == y,
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
    fn newly_testable(&mut self, pattern: &Pattern, bound: &[bool]) -> Filters {
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
            if order.vars().iter().all(|&v| bound[v]) && !self.order.contains(&i) {
                self.order.push(i);
                filters.order.push(i);
            }
        }
        filters
    }
}

/// What checking a `without` plan at one candidate match roughly costs, for running the
/// blocks cheapest first (their order does not change the result: any match rejects): tests
/// alone, then edges between bound nodes, a word's one head, children, scans, and descents
/// (a walk up the heads or down a subtree) last.
pub fn without_cost(plan: &Plan) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lower::compile_text;

    /// A search starts from an enhanced edge only subtyped labels pass (rules write those),
    /// unless a basic edge between the same nodes names its relations (the relation index
    /// serves that one); a bare-or-subtyped `conj:*` is no such edge.
    #[test]
    fn plans_start_from_an_enhanced_edge_only_subtypes_pass() {
        let rules = compile_text(
            "phase p\n\
             rule chained { match { H -[conj]-> C;  H =[conj]=> C;  H -[conj]-> N;  e: H =[/^conj:/]=> N; } do { add H =[dep]=> C; } }\n\
             rule copied { match { V -[expl:pv]-> R;  e: V =[expl:pv]=> R; } do { add R =[dep]=> V; } }\n\
             rule wide { match { H -[conj]-> C;  H =[conj:*]=> C; } do { add C =[dep]=> H; } }\n",
        );
        let first = |r: usize| rules[r].plan.steps[0].clone();
        assert_eq!(first(0), Step::ScanEdges { edge: 3 });
        assert_eq!(first(1), Step::ScanEdges { edge: 0 });
        assert_eq!(first(2), Step::ScanEdges { edge: 0 });
    }

    /// A node pinned by its lemma is scanned only when no edge names one relation: an edge
    /// scan with a byte test per edge costs less than a lemma test per word, enhanced edges
    /// included (the control rules' `V =[xcomp]=> X; V [lemma in @control.subject]`).
    #[test]
    fn plans_scan_a_narrow_edge_before_a_lemma_pinned_node() {
        let rules = compile_text(
            "phase p\n\
             rule narrow { match { V =[xcomp]=> X;  V [lemma=want]; } do { add X =[dep]=> V; } }\n\
             rule wide { match { V -[obl|nmod|iobj]-> X;  V [lemma=want]; } do { add X =[dep]=> V; } }\n",
        );
        let narrow = &rules[0];
        assert!(
            matches!(narrow.plan.steps[0], Step::ScanEdges { .. }),
            "{:?}",
            narrow.plan.steps
        );
        assert!(matches!(rules[1].plan.steps[0], Step::ScanNodes { .. }));
    }

    /// A pattern whose only selective element is an empty node (`E [empty]`) starts by scanning
    /// the empty nodes, not every word.
    #[test]
    fn plans_start_from_the_empty_nodes_of_a_pattern_anchored_on_one() {
        let rules = compile_text(
            "phase p\nrule mark_empty { match { E [empty];  H =[obj]=> E; } do { add H =[dep:empty]=> E; } }\n",
        );
        assert!(
            matches!(rules[0].plan.steps[0], Step::ScanNodes { empty: true, .. }),
            "{:?}",
            rules[0].plan.steps
        );
    }

    /// The next-conjunct search of the coordinator rules binds only the nearest sibling, in the
    /// first search and in the searches from added edges, and children between two bound nodes
    /// are found by binary search: what keeps a long coordination linear.
    #[test]
    fn the_next_conjunct_is_found_without_scanning_the_siblings() {
        let source = crate::rules::source::RuleSource::embedded();
        let rule_set = crate::rules::load::load_ruleset(&source, "en")
            .unwrap_or_else(|e| panic!("{}", e.render()));
        for name in ["conj_label_shared_cc", "conj_label_shared_cc_chain"] {
            let checked = rule_set.rules().find(|r| r.name == name).expect(name);
            let rule = crate::engine::lower::compile(checked);
            let plans = std::iter::once(&rule.plan).chain(rule.delta_plans.iter().map(|d| &d.plan));
            for plan in plans {
                assert!(
                    plan.nearest.iter().any(Option::is_some),
                    "{name}: {:?}",
                    plan.steps
                );
            }
            // The without block's sibling between two conjuncts: a bounded range of children.
            assert!(
                rule.withouts[2]
                    .between
                    .iter()
                    .any(|&(after, before)| after.is_some() && before.is_some()),
                "{name}"
            );
        }
    }
}
