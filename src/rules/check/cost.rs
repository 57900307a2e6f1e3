//! Pass (warnings): patterns whose search grows as a high power of the sentence's length. A
//! variable with no test of its own, tied to the others only by edges any relation passes
//! (`H -[*]-> X`), may be bound to every dependent of its head: k such variables cost n^k
//! bindings on a word with n dependents, and word-order constraints or agreement tested once
//! they are all bound prune nothing before. Two words that must both come immediately before
//! (or after) one word can never be found, yet every combination is tried first. The engine's
//! search budget stops such a search on a long sentence (the sentence is then written with
//! basic DEPS); the warning says so before a treebank meets it.

use super::Scope;
use crate::rules::ast::{LabelPattern, Layer, Name, OrderConstraint, OrderOperand, Pattern};
use crate::rules::diagnostic::Diagnostic;

/// Free variables from which a block is reported: n³ bindings, 512,000 on a word with 80
/// dependents, is where a search starts to cost more than the rest of a sentence's rules.
const REPORTED_POWER: usize = 3;

/// Warns about `pattern` (a match block, or a `without` block whose outer variables are bound
/// already, `outer`): variables tied only by unconstrained edges, and `<` constraints that
/// cannot all hold.
pub fn search_cost(pattern: &Pattern, outer: &Scope) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let free = free_dependents(pattern, outer);
    if free.len() >= REPORTED_POWER {
        let names: Vec<&str> = free.iter().map(|n| n.text.as_str()).collect();
        diagnostics.push(
            Diagnostic::warning(
                free[0].span,
                format!(
                    "`{}` have no test of their own and are tied only by edges any relation passes: \
                     the search tries every combination of a word's dependents for them, n^{} \
                     bindings for a word with n dependents",
                    names.join("`, `"),
                    free.len()
                ),
            )
            .with_note(
                "narrow them: a relation (`-[obj]->`), a field test (`X [upos=NOUN]`) or an edge \
                 of their own; tests on several of them (order, agreement) are made only once all \
                 are bound (a sentence whose search passes the budget is written with basic DEPS)",
            ),
        );
    }
    diagnostics.extend(impossible_adjacency(pattern));
    diagnostics
}

/// Whether a label test lets any relation through, or all but a few (`*`, `!acl`).
fn is_wide(label: &LabelPattern) -> bool {
    match label {
        LabelPattern::Any { .. } | LabelPattern::Not { .. } => true,
        LabelPattern::Alternatives { options, .. } => options.iter().any(is_wide),
        _ => false,
    }
}

/// The variables of `pattern` (not bound outside it) with no positive test of their own, the
/// dependent of some edge, and every edge of which any relation passes: in order of mention.
fn free_dependents<'p>(pattern: &'p Pattern, outer: &Scope) -> Vec<&'p Name> {
    let mut free: Vec<&Name> = Vec::new();
    let positive = || pattern.edges.iter().filter(|e| !e.negated);
    for edge in positive() {
        let x = &edge.to;
        let tested = pattern
            .nodes
            .iter()
            .any(|n| n.var.text == x.text && n.constraints.iter().any(|c| !c.negated));
        let narrowed = positive()
            .any(|e| (e.from.text == x.text || e.to.text == x.text) && !is_wide(&e.label));
        if !outer.contains_key(&x.text)
            && !tested
            && !narrowed
            && !free.iter().any(|f| f.text == x.text)
        {
            free.push(x);
        }
    }
    free
}

/// `A < D; C < D` (or `D < A; D < C`) with A and C two words: no two words are both
/// immediately before (after) one. Words: variables at an end of a basic edge (an empty node
/// may share a word's place).
fn impossible_adjacency(pattern: &Pattern) -> Vec<Diagnostic> {
    let is_word = |name: &Name| {
        pattern.edges.iter().any(|e| {
            !e.negated
                && e.layer == Layer::Basic
                && (e.from.text == name.text || e.to.text == name.text)
        })
    };
    let same = |a: &OrderOperand, b: &OrderOperand| match (a, b) {
        (OrderOperand::Node(a), OrderOperand::Node(b))
        | (OrderOperand::Subtree(a), OrderOperand::Subtree(b)) => a.text == b.text,
        _ => false,
    };
    let adjacent: Vec<(&OrderOperand, &OrderOperand, _)> = pattern
        .order
        .iter()
        .filter_map(|o| match o {
            OrderConstraint::Before {
                left,
                right,
                immediately: true,
                span,
            } => Some((left, right, *span)),
            _ => None,
        })
        .collect();
    let mut diagnostics = Vec::new();
    for (i, &(left, right, span)) in adjacent.iter().enumerate() {
        for &(other_left, other_right, _) in &adjacent[..i] {
            let clash = if same(right, other_right) {
                Some((left, other_left, "before", right))
            } else if same(left, other_left) {
                Some((right, other_right, "after", left))
            } else {
                None
            };
            let Some((OrderOperand::Node(a), OrderOperand::Node(b), side, shared)) = clash else {
                continue;
            };
            if a.text == b.text || !is_word(a) || !is_word(b) {
                continue;
            }
            let shared = match shared {
                OrderOperand::Node(n) => format!("`{}`", n.text),
                OrderOperand::Subtree(n) => format!("`subtree({})`", n.text),
            };
            diagnostics.push(
                Diagnostic::warning(
                    span,
                    format!(
                        "`{}` and `{}` cannot both come immediately {side} {shared}: two words \
                         never do",
                        b.text, a.text
                    ),
                )
                .with_note(
                    "this rule can never match, yet its search tries every binding of its \
                     other variables first",
                ),
            );
        }
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, parse};
    use super::*;

    fn warnings(block: &str) -> Vec<String> {
        let (sources, file) = parse(&format!(
            "phase p\nrule r {{ match {{ {block} }} do {{ }} }}\n"
        ));
        messages(
            &sources,
            &search_cost(&file.rules[0].pattern, &Scope::default()),
        )
    }

    #[test]
    fn unconstrained_dependents_are_reported_from_the_third() {
        assert!(warnings("H -[*]-> A;  H -[*]-> B;  A.Case == B.Case;").is_empty());
        let found = warnings("H -[*]-> A;  H -[*]-> B;  H -[!punct]-> C;  A.Case == C.Case;");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("2:27 warning: `A`, `B`, `C` have no test of their own")
                && found[0].contains("n^3 bindings"),
            "{found:?}"
        );
    }

    #[test]
    fn a_test_a_relation_or_an_edge_of_its_own_narrows_a_dependent() {
        for block in [
            "H -[*]-> A;  H -[*]-> B;  H -[*]-> C;  C [upos=ADP];",
            "H -[*]-> A;  H -[*]-> B;  H -[case]-> C;",
            "H -[*]-> A;  H -[*]-> B;  H -[*]-> C;  C -[fixed]-> F;",
        ] {
            assert!(warnings(block).is_empty(), "{block}");
        }
    }

    #[test]
    fn two_words_immediately_before_one_are_reported() {
        let found = warnings("H -[*]-> A;  H -[obj]-> C;  H -[obl]-> D;  A < D;  C < D;");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("warning: `A` and `C` cannot both come immediately before `D`"),
            "{found:?}"
        );
        let after = warnings("H -[nsubj]-> A;  H -[obj]-> C;  H -[obl]-> D;  D < A;  D < C;");
        assert!(after[0].contains("immediately after `D`"), "{after:?}");
        // A node of the enhanced graph only may be an empty node sharing a word's place.
        assert!(
            warnings("H -[obj]-> A;  H =[obl]=> C;  H -[nmod]-> D;  A < D;  C < D;").is_empty()
        );
    }
}
