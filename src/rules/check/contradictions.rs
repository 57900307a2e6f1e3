//! Pass: blocks that can never match — no value satisfies a field's tests, a feature both
//! required and absent, a node with two basic heads, one basic edge with two labels, an edge both
//! required and forbidden, a word-order cycle — and `without` blocks that are empty or always
//! match. It reads the lowered blocks (values lower-cased, regexes compiled, lexicon lists
//! resolved), so that a value is tested as the engine would test it.

use super::squash;
use crate::rules::ast::{EdgePattern, Field, Layer, OrderConstraint, Pattern, Rule, Span};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::ir::{
    CheckedPattern, CheckedValueTest, EdgeTest, FieldTest, LabelTest, Operand, OrderTest, VarId,
    VarInfo,
};
use crate::rules::source::SourceMap;
use rustc_hash::{FxHashMap, FxHashSet};

/// Reports what makes a block impossible: `blocks` are the patterns whose constraints hold
/// together (the match block, plus the `without` block being checked), `checked` the block's
/// compiled form (plus, for a `without`, the match's).
pub fn block(
    blocks: &[&Pattern],
    checked: &CheckedPattern,
    vars: &[VarInfo],
    sources: &SourceMap,
    consequence: &str,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    // Field tests of each node across the blocks.
    let mut tests: FxHashMap<VarId, Vec<&FieldTest>> = FxHashMap::default();
    for node in &checked.nodes {
        tests.entry(node.var).or_default().extend(node.tests.iter());
    }
    let mut tested: Vec<VarId> = tests.keys().copied().collect();
    tested.sort_unstable();
    for var in tested {
        let var_tests = &tests[&var];
        let mut fields: Vec<&Field> = var_tests.iter().map(|t| &t.field).collect();
        fields.dedup();
        let mut reported = FxHashSet::default();
        for field in fields {
            if !reported.insert(field.clone()) {
                continue;
            }
            let on_field: Vec<&FieldTest> = var_tests
                .iter()
                .copied()
                .filter(|t| t.field == *field)
                .collect();
            if let Some(reason) = field_contradiction(&on_field) {
                let span = on_field.last().map_or(Span::default(), |t| t.span);
                let name = &vars[var].name;
                diagnostics.push(
                    Diagnostic::error(
                        span,
                        format!("contradictory constraints on `{field}` of `{name}`: {reason}"),
                    )
                    .with_note(consequence.to_string()),
                );
            }
        }
    }
    // Basic tree: one head per node, one label per edge; required vs forbidden edges.
    let edges: Vec<&EdgeTest> = checked.edges.iter().collect();
    let raw_edges: Vec<&EdgePattern> = blocks.iter().flat_map(|b| b.edges.iter()).collect();
    for (i, a) in edges.iter().enumerate() {
        for b in &edges[i + 1..] {
            if a.negated
                || b.negated
                || a.depth.is_some()
                || b.depth.is_some()
                || a.layer != Layer::Basic
                || b.layer != Layer::Basic
                || a.to != b.to
            {
                continue;
            }
            if a.from != b.from {
                let name = &vars[a.to].name;
                diagnostics.push(
                    Diagnostic::error(
                        b.span,
                        format!("`{name}` would need two heads in the basic tree"),
                    )
                    .with_note(consequence.to_string()),
                );
            } else if let (LabelTest::Exact(x), LabelTest::Exact(y)) = (&a.label, &b.label) {
                if x != y {
                    diagnostics.push(
                        Diagnostic::error(
                            b.span,
                            format!("a basic edge cannot be both `{x}` and `{y}`"),
                        )
                        .with_note(consequence.to_string()),
                    );
                }
            }
        }
    }
    for neg in raw_edges.iter().filter(|e| e.negated) {
        let same = raw_edges.iter().find(|pos| {
            !pos.negated
                && pos.layer == neg.layer
                && pos.from.text == neg.from.text
                && pos.to.text == neg.to.text
                && squash(sources.text(pos.label.span())) == squash(sources.text(neg.label.span()))
        });
        if same.is_some() {
            diagnostics.push(
                Diagnostic::error(neg.span, "this edge is both required and forbidden")
                    .with_note(consequence.to_string()),
            );
        }
    }
    // Word-order cycles among plain nodes.
    let before: Vec<(VarId, VarId)> = checked
        .order
        .iter()
        .filter_map(|o| match o {
            OrderTest::Before { left, right, .. } => {
                let var = |o: &Operand| match o {
                    Operand::Node(v) | Operand::Subtree(v) => *v,
                };
                Some((var(left), var(right)))
            }
            OrderTest::Distinct(..) | OrderTest::Agree { .. } => None,
        })
        .filter(|(a, b)| a != b)
        .collect();
    if let Some(cycle_at) = order_cycle(&before) {
        let span = blocks
            .iter()
            .flat_map(|b| b.order.iter())
            .find_map(|o| match o {
                OrderConstraint::Before { left, span, .. }
                    if left.var().text == vars[cycle_at].name =>
                {
                    Some(*span)
                }
                _ => None,
            });
        if let Some(span) = span {
            diagnostics.push(
                Diagnostic::error(span, "these word-order constraints form a cycle")
                    .with_note(consequence.to_string()),
            );
        }
    }
    diagnostics
}

/// Reports a `without` block that is empty, that can never match together with the match
/// block (only what involves the block itself: the match block's own contradictions are
/// reported once, by [`block`]), or that only repeats the match block.
pub fn without(
    rule: &Rule,
    without: &Pattern,
    checked: &CheckedPattern,
    matched: &CheckedPattern,
    vars: &[VarInfo],
    sources: &SourceMap,
) -> Vec<Diagnostic> {
    if without.nodes.is_empty() && without.edges.is_empty() && without.order.is_empty() {
        return vec![Diagnostic::error(
            without.span,
            "an empty `without` block always matches, so the rule could never apply",
        )];
    }
    // Together with the match block: if impossible, the block never matches.
    let mut combined = matched.clone();
    combined.nodes.extend(checked.nodes.iter().cloned());
    combined.edges.extend(checked.edges.iter().cloned());
    combined.order.extend(checked.order.iter().cloned());
    let wspan = without.span;
    let mut diagnostics: Vec<Diagnostic> = block(
        &[&rule.pattern, without],
        &combined,
        vars,
        sources,
        "so this `without` block can never match and has no effect",
    )
    .into_iter()
    .filter(|d| {
        d.span
            .is_some_and(|s| s.start >= wspan.start && s.end <= wspan.end)
    })
    .collect();
    // Always matches: nothing new, and every item repeats the match block.
    if checked.new_vars.is_empty() {
        let match_items: FxHashSet<String> = items_text(sources, &rule.pattern);
        let own: FxHashSet<String> = items_text(sources, without);
        if own.iter().all(|item| match_items.contains(item)) {
            diagnostics.push(Diagnostic::error(wspan, "this `without` block only repeats the match block, so it always matches and the rule could never apply"));
        }
    }
    diagnostics
}

/// Every item of a block as squashed text (for "repeats the match block").
fn items_text(sources: &SourceMap, pattern: &Pattern) -> FxHashSet<String> {
    let mut items = FxHashSet::default();
    for node in &pattern.nodes {
        for c in &node.constraints {
            items.insert(format!(
                "{}[{}]",
                node.var.text,
                squash(sources.text(c.span))
            ));
        }
        if node.constraints.is_empty() {
            items.insert(node.var.text.clone());
        }
    }
    for edge in &pattern.edges {
        let text = squash(sources.text(edge.span));
        // Drop an `e:` prefix: a named edge and an unnamed one test the same thing.
        let text = match &edge.var {
            Some(v) => text
                .strip_prefix(&format!("{}:", v.text))
                .unwrap_or(&text)
                .to_string(),
            None => text,
        };
        items.insert(text);
    }
    for order in &pattern.order {
        let span = match order {
            OrderConstraint::Before { span, .. }
            | OrderConstraint::Distinct { span, .. }
            | OrderConstraint::Agree { span, .. } => *span,
        };
        items.insert(squash(sources.text(span)));
    }
    items
}

/// The first variable on a cycle of `before` pairs, if any.
fn order_cycle(before: &[(VarId, VarId)]) -> Option<VarId> {
    let nodes: FxHashSet<VarId> = before.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let mut nodes: Vec<VarId> = nodes.into_iter().collect();
    nodes.sort_unstable();
    // 0 = unvisited, 1 = on the stack, 2 = done.
    fn visit(n: VarId, before: &[(VarId, VarId)], state: &mut FxHashMap<VarId, u8>) -> bool {
        match state.get(&n) {
            Some(1) => return true,
            Some(2) => return false,
            _ => {}
        }
        state.insert(n, 1);
        for (_, next) in before.iter().filter(|(a, _)| *a == n) {
            if visit(*next, before, state) {
                return true;
            }
        }
        state.insert(n, 2);
        false
    }
    let mut state = FxHashMap::default();
    nodes.into_iter().find(|&n| {
        let mut fresh = FxHashMap::default();
        let cyclic = visit(n, before, &mut fresh);
        state.extend(fresh);
        cyclic
    })
}

/// Why the tests of one field of one node can never hold together, if they cannot.
fn field_contradiction(tests: &[&FieldTest]) -> Option<String> {
    let absent = tests
        .iter()
        .any(|t| t.negated && matches!(t.test, CheckedValueTest::Present));
    let requires_value = tests.iter().any(|t| !t.negated);
    if absent && requires_value {
        return Some("required to be absent and to have a value".to_string());
    }
    // Candidate values: the intersection of the positive case-sensitive alternatives.
    let mut candidates: Option<Vec<&str>> = None;
    for t in tests {
        if let (
            false,
            CheckedValueTest::Equals {
                values,
                case_insensitive: false,
            },
        ) = (t.negated, &t.test)
        {
            candidates = Some(match candidates {
                None => values.iter().map(String::as_str).collect(),
                Some(c) => c
                    .into_iter()
                    .filter(|v| values.iter().any(|w| w == v))
                    .collect(),
            });
        }
    }
    let candidates = candidates?;
    let survivors: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|v| tests.iter().all(|t| value_passes(t, v)))
        .collect();
    if survivors.is_empty() {
        let mut shown = candidates.clone();
        shown.dedup();
        if shown.is_empty() {
            return Some("the alternatives have no value in common".to_string());
        }
        return Some(format!(
            "no value satisfies them all (candidates: {})",
            shown.join(", ")
        ));
    }
    None
}

fn value_passes(test: &FieldTest, value: &str) -> bool {
    let positive = match &test.test {
        CheckedValueTest::Equals {
            values,
            case_insensitive,
        } => {
            if *case_insensitive {
                let lower = value.to_lowercase();
                values.contains(&lower)
            } else {
                values.iter().any(|v| v == value)
            }
        }
        CheckedValueTest::Regex(re) => re.is_match(value),
        CheckedValueTest::InLexicon { words, .. } => words.contains(value),
        CheckedValueTest::Present => true,
    };
    positive != test.negated
}

#[cfg(test)]
mod tests {
    use super::super::test_support::check;

    fn contradictions(blocks: &str) -> Vec<String> {
        check(&format!(
            "phase p\nrule r {{ {blocks} do {{ add H =[dep]=> N; }} }}\n"
        ))
    }

    #[test]
    fn no_value_satisfies_the_tests_of_a_field() {
        assert_eq!(
            contradictions("match { H -[obl]-> N;  N [upos=NOUN];  N [upos=VERB]; }"),
            ["2:52 error: contradictory constraints on `upos` of `N`: the alternatives have no value in common"]
        );
        assert_eq!(
            contradictions("match { H -[obl]-> N;  N [lemma=a|b, lemma!=a, lemma!=b]; }"),
            ["2:57 error: contradictory constraints on `lemma` of `N`: no value satisfies them all (candidates: a, b)"]
        );
        assert!(contradictions("match { H -[obl]-> N;  N [lemma=a|b, lemma!=a]; }").is_empty());
    }

    #[test]
    fn a_feature_required_and_absent() {
        assert_eq!(
            contradictions("match { H -[obl]-> N;  N [Case=Gen, !Case]; }"),
            ["2:46 error: contradictory constraints on `Case` of `N`: required to be absent and to have a value"]
        );
    }

    #[test]
    fn the_basic_tree_gives_one_head_and_one_label() {
        assert_eq!(
            contradictions("match { H -[obl]-> N;  G -[nmod]-> N;  H -[obj]-> G; }"),
            ["2:33 error: `N` would need two heads in the basic tree"]
        );
        assert_eq!(
            contradictions("match { H -[obl]-> N;  H -[nmod]-> N; }"),
            ["2:33 error: a basic edge cannot be both `obl` and `nmod`"]
        );
    }

    #[test]
    fn an_edge_required_and_forbidden_and_an_order_cycle() {
        assert_eq!(
            contradictions("match { H -[obl]-> N;  H !-[obl]-> N; }"),
            ["2:33 error: this edge is both required and forbidden"]
        );
        assert_eq!(
            contradictions("match { H -[obl]-> N;  H << N;  N << H; }"),
            ["2:33 error: these word-order constraints form a cycle"]
        );
    }

    #[test]
    fn without_blocks_that_cannot_matter() {
        assert_eq!(
            contradictions("match { H -[obl]-> N; } without { }"),
            ["2:34 error: an empty `without` block always matches, so the rule could never apply"]
        );
        assert_eq!(
            contradictions("match { H -[obl]-> N; } without { H -[obl]->  N; }"),
            ["2:34 error: this `without` block only repeats the match block, so it always matches and the rule could never apply"]
        );
        assert_eq!(
            contradictions("match { H -[obl]-> N;  N [upos=NOUN]; } without { N [upos=VERB]; }"),
            ["2:63 error: contradictory constraints on `upos` of `N`: the alternatives have no value in common"]
        );
        assert!(contradictions("match { H -[obl]-> N; } without { N -[case]-> C; }").is_empty());
    }
}
