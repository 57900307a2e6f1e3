//! Pass: every variable of a block tied to the others by its edges. A variable no chain of edges
//! reaches would be searched for separately, multiplying the matcher's work by the sentence
//! length for each such group.

use super::Scope;
use crate::rules::ast::{Name, Pattern};
use crate::rules::diagnostic::Diagnostic;
use rustc_hash::{FxHashMap, FxHashSet};

/// Reports variables of `pattern` that no chain of its edges ties to the others (or, in a
/// `without` block, to the match's variables in `outer`): the matcher would try every word
/// for each separate group, multiplying the work by the sentence length each time.
pub fn connected(pattern: &Pattern, outer: &Scope) -> Vec<Diagnostic> {
    // Union-find over the block's variables; the outer ones are one group already bound.
    let mut names: Vec<&Name> = Vec::new();
    let mut diagnostics = Vec::new();
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    for name in pattern.mentions() {
        if !index.contains_key(name.text.as_str()) {
            index.insert(&name.text, names.len());
            names.push(name);
        }
    }
    let mut parent: Vec<usize> = (0..names.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let position = |text: &str| index.get(text).copied();
    let bound: Vec<usize> = (0..names.len())
        .filter(|&i| outer.contains_key(&names[i].text))
        .collect();
    for pair in bound.windows(2) {
        let (a, b) = (root(&mut parent, pair[0]), root(&mut parent, pair[1]));
        parent[a] = b;
    }
    for edge in pattern.edges.iter().filter(|e| !e.negated) {
        if let (Some(a), Some(b)) = (position(&edge.from.text), position(&edge.to.text)) {
            let (a, b) = (root(&mut parent, a), root(&mut parent, b));
            parent[a] = b;
        }
    }
    let main = match bound.first() {
        Some(&b) => root(&mut parent, b),
        None if names.is_empty() => return diagnostics,
        None => root(&mut parent, 0),
    };
    let roots: Vec<usize> = (0..names.len()).map(|i| root(&mut parent, i)).collect();
    let members = |r: usize| -> Vec<&str> {
        (0..names.len())
            .filter(|&j| roots[j] == r)
            .map(|j| names[j].text.as_str())
            .collect()
    };
    let others = members(main);
    // Each group once, in order of first mention; a few are enough to show the problem.
    const SHOWN: usize = 5;
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let firsts: Vec<usize> = (0..names.len())
        .filter(|&i| roots[i] != main && seen.insert(roots[i]))
        .collect();
    for (k, &i) in firsts.iter().take(SHOWN).enumerate() {
        let group = members(roots[i]);
        let what = if group.len() == 1 {
            format!("`{}` is", group[0])
        } else {
            format!("`{}` are", group.join("`, `"))
        };
        let d = Diagnostic::error(
            names[i].span,
            format!(
                "{what} not connected to `{}` by an edge: the matcher would try every word \
                 for each unconnected group, multiplying the work by the sentence length",
                others.join("`, `")
            ),
        );
        let mut d = d.with_note(format!(
            "link it with an edge of this block, e.g. `{} -[dep]-> {}` or a chain of edges \
             (order constraints such as `<<` do not connect)",
            others.first().copied().unwrap_or("H"),
            group[0]
        ));
        if k + 1 == SHOWN && firsts.len() > SHOWN {
            d = d.with_note(format!(
                "and {} more unconnected groups",
                firsts.len() - SHOWN
            ));
        }
        diagnostics.push(d);
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, parse};
    use super::*;

    fn unconnected(block: &str) -> Vec<String> {
        let (sources, file) = parse(&format!(
            "phase p\nrule r {{ match {{ {block} }} do {{ }} }}\n"
        ));
        messages(
            &sources,
            &connected(&file.rules[0].pattern, &Scope::default()),
        )
    }

    #[test]
    fn a_chain_of_edges_connects() {
        assert!(unconnected("H -[obj]-> N;  N -[case]-> C;  C [upos=ADP];").is_empty());
    }

    #[test]
    fn order_constraints_do_not_connect() {
        let found = unconnected("H -[obj]-> N;  M [upos=NOUN];  M << N;");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("2:33 error: `M` is not connected to `H`, `N` by an edge"),
            "{found:?}"
        );
    }

    #[test]
    fn a_negated_edge_does_not_connect() {
        let found = unconnected("H -[obj]-> N;  H !-[nsubj]-> S;");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("2:47 error: `S` is not connected"),
            "{found:?}"
        );
    }

    #[test]
    fn a_without_block_may_lean_on_the_match_variables() {
        let (sources, file) = parse("phase p\nrule r { match { H -[obj]-> N; } without { N -[case]-> C;  H -[nsubj]-> S; } do { } }\n");
        let rule = &file.rules[0];
        let outer: Scope = [("H".to_string(), 0), ("N".to_string(), 1)]
            .into_iter()
            .collect();
        assert!(messages(&sources, &connected(&rule.withouts[0], &outer)).is_empty());
        let alone = connected(&rule.withouts[0], &Scope::default());
        assert_eq!(messages(&sources, &alone).len(), 1);
    }
}
