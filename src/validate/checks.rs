//! Checks of one sentence (UD `validate.py` level 2): the format of the basic layer's UPOS,
//! FEATS and DEPREL and of multiword token lines, and the enhanced graph.
//!
//! IDs, HEADs, the basic tree and the DEPS syntax were already checked by [`Sentence::parse`];
//! everything here assumes a parsed sentence and never panics on one.

use super::Diagnostic;
use crate::conllu::sentence::{COLUMNS, DEPREL, DEPS, FEATS, FORM, HEAD, ID, MISC, UPOS};
use crate::conllu::{LineKind, NodeId, Sentence, Token};
use crate::ud::{
    deprel_problem, enhanced_label_problem as label_problem, feats_problems, universal_part,
    upos_problem,
};

/// The column names, in order, for messages.
const COLUMN_NAMES: [&str; COLUMNS] = [
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
];

/// Appends the basic layer's format errors of `s` to `out`: UPOS one of the 17 tags (`_` too
/// for an empty node), FEATS well-formed and sorted, DEPREL a universal relation with an
/// optional subtype, a multiword token line `_` in every column but ID, FORM and MISC (FEATS
/// may be `Typo=Yes`).
pub fn validate_basic(s: &Sentence, out: &mut Vec<Diagnostic>) {
    for line in &s.lines {
        let number = line.number;
        let mut err = |message: String| {
            out.push(Diagnostic {
                line: number,
                message,
            })
        };
        match line.kind {
            LineKind::Word(_) | LineKind::Empty(_) => {
                let token = match line.kind {
                    LineKind::Word(i) => &s.words[i as usize],
                    LineKind::Empty(i) => &s.empty_nodes[i as usize],
                    _ => unreachable!("matched above"),
                };
                let upos = s.column(token, UPOS);
                let mut problems = feats_problems(s.column(token, FEATS));
                if !(token.id.is_empty_node() && upos == "_") {
                    problems.extend(upos_problem(upos));
                }
                if !token.id.is_empty_node() {
                    problems.extend(deprel_problem(s.column(token, DEPREL)));
                }
                problems.into_iter().for_each(&mut err);
            }
            LineKind::Multiword => {
                let text = s.span(line.bytes).trim_end_matches(['\n', '\r']);
                let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
                for (i, value) in text.split('\t').enumerate() {
                    let free = matches!(i, ID | FORM | MISC) || (i == FEATS && value == "Typo=Yes");
                    if !free && value != "_" && i < COLUMNS {
                        err(format!(
                            "multiword token line with '{value}' as {}: it must be '_' (only ID, FORM and MISC are given)",
                            COLUMN_NAMES[i]
                        ));
                    }
                }
            }
            LineKind::Verbatim => {}
        }
    }
}

/// Whether the sentence has an enhanced graph. As in `validate.py`, an empty node counts: empty
/// nodes exist only in the enhanced graph, so their presence means it must be complete.
pub fn has_enhanced_graph(s: &Sentence) -> bool {
    !s.empty_nodes.is_empty() || s.tokens_in_order().any(|t| s.column(t, DEPS) != "_")
}

/// Appends the enhanced-layer errors of `s` to `out`, in line order.
///
/// A sentence whose every DEPS is `_` and which has no empty node has no enhanced graph and is
/// not checked here (whether that is consistent with the rest of the file is a file-level
/// question, see [`super::Validator`]).
pub fn validate_sentence(s: &Sentence, out: &mut Vec<Diagnostic>) {
    if !has_enhanced_graph(s) {
        return;
    }
    let start = out.len();
    let mut roots = 0usize;
    let mut deps: Vec<(NodeId, &str)> = Vec::new();
    for token in s.tokens_in_order() {
        let line = s.line_of(token);
        let mut err = |message: String| out.push(Diagnostic { line, message });
        if token.id.is_empty_node() {
            // The reader enforces these; re-checked so the validator does not depend on it.
            for (column, name) in [(HEAD, "HEAD"), (DEPREL, "DEPREL")] {
                let value = s.column(token, column);
                if value != "_" {
                    err(format!(
                        "empty node {} must have '_' as {name}, not '{value}'",
                        token.id
                    ));
                }
            }
        }
        deps.clear();
        deps.extend(s.deps(token));
        if deps.is_empty() {
            let what = if token.id.is_empty_node() {
                "empty node"
            } else {
                "node"
            };
            err(format!(
                "{what} {} has no enhanced head (DEPS '_'), but the sentence has an enhanced graph",
                token.id
            ));
            continue;
        }
        check_order(s, token, &deps, &mut err);
        for &(head, label) in &deps {
            if head == token.id {
                err(format!(
                    "self-loop: node {} is its own enhanced head ({head}:{label})",
                    token.id
                ));
            }
            if head.is_root() {
                roots += 1;
                if label != "root" {
                    err(format!(
                        "enhanced edge from 0 to {} must be labelled 'root', not '{label}'",
                        token.id
                    ));
                }
            } else if universal_part(label) == "root" {
                err(format!(
                    "enhanced edge {head}:{label} of {}: only an edge from 0 may be 'root'",
                    token.id
                ));
            }
            if let Some(problem) = label_problem(label) {
                err(problem);
            }
        }
    }
    if roots == 0 {
        // Nothing is reachable then; one error says it better than one per node. (An edge from
        // 0 with another label counts as a root here: its label is the error reported.)
        let line = s
            .tokens_in_order()
            .next()
            .map_or(s.first_line, |t| s.line_of(t));
        out.push(Diagnostic {
            line,
            message: "enhanced graph has no root (no node has '0:root' in DEPS)".into(),
        });
    } else {
        check_reachable(s, out);
    }
    out[start..].sort_by_key(|d| d.line);
}

/// DEPS sorted by head (integer-pair order), then by label; no repeated `head:label` pair.
fn check_order(s: &Sentence, token: &Token, deps: &[(NodeId, &str)], err: &mut impl FnMut(String)) {
    let text = s.column(token, DEPS);
    if deps.windows(2).any(|w| w[1].0 < w[0].0) {
        err(format!("DEPS of {} not sorted by head: '{text}'", token.id));
    } else if let Some(w) = deps
        .windows(2)
        .find(|w| w[1].0 == w[0].0 && w[1].1 < w[0].1)
    {
        err(format!(
            "DEPS of {} pointing to head {} not sorted by label: '{text}'",
            token.id, w[0].0
        ));
    }
    // Duplicates are looked for in a sorted copy, so unsorted DEPS are covered too and a
    // pathological line with thousands of edges stays O(n log n).
    let mut sorted = deps.to_vec();
    sorted.sort_unstable();
    let mut reported: Option<(NodeId, &str)> = None;
    for w in sorted.windows(2) {
        if w[0] == w[1] && reported != Some(w[0]) {
            err(format!(
                "DEPS of {} repeat the edge {}:{}: '{text}'",
                token.id, w[0].0, w[0].1
            ));
            reported = Some(w[0]);
        }
    }
}

/// Index of a node in `0..=words + empty nodes`: 0 is the root, `n` word `n`, then empty nodes.
fn node_index(s: &Sentence, id: NodeId) -> Option<usize> {
    if id.is_empty_node() {
        let i = s.empty_nodes.binary_search_by(|t| t.id.cmp(&id)).ok()?;
        Some(s.words.len() + 1 + i)
    } else {
        let n = id.word as usize;
        (n <= s.words.len()).then_some(n)
    }
}

/// Every node with an enhanced head must be reachable from 0 (nodes with none were reported).
fn check_reachable(s: &Sentence, out: &mut Vec<Diagnostic>) {
    let count = s.words.len() + s.empty_nodes.len() + 1;
    // Edges as (head, dependent) sorted by head, with `first[h]` the start of h's run: a CSR
    // adjacency without one allocation per node.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for token in s.tokens_in_order() {
        let Some(dep) = node_index(s, token.id) else {
            continue;
        };
        for (head, _) in s.deps(token) {
            if let Some(head) = node_index(s, head) {
                edges.push((head, dep));
            }
        }
    }
    edges.sort_unstable();
    let mut first = vec![0usize; count + 1];
    for &(head, _) in &edges {
        first[head + 1] += 1;
    }
    for i in 0..count {
        first[i + 1] += first[i];
    }
    let mut reached = vec![false; count];
    reached[0] = true;
    let mut stack = vec![0usize];
    while let Some(node) = stack.pop() {
        for &(_, dep) in &edges[first[node]..first[node + 1]] {
            if !reached[dep] {
                reached[dep] = true;
                stack.push(dep);
            }
        }
    }
    for token in s.tokens_in_order() {
        let Some(i) = node_index(s, token.id) else {
            continue;
        };
        if !reached[i] && s.deps(token).next().is_some() {
            let message = format!(
                "node {} is not reachable from the root 0 in the enhanced graph",
                token.id
            );
            out.push(Diagnostic {
                line: s.line_of(token),
                message,
            });
        }
    }
}
