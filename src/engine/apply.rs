//! Applies a rule's actions to the enhanced graph for one match, and builds the labels they
//! write.

use super::action::{
    Action, Direction, EdgeLabelPart, MarkerSpelling, Place, Template, TemplatePart, TemplateValue,
    TransferMode,
};
use super::binding::Binding;
use super::changes::Changes;
use super::lemmas::Lemmas;
use super::pattern::LabelTest;
use crate::graph::{upos_bit, Label, Node, Origin, SentenceGraph};
use crate::ud::{push_feature_value, push_label_text, TextFix};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};

/// Longest label a rule may make, in bytes (the dev treebanks' longest is 25): a label that grows
/// at each step would otherwise cost time and memory quadratic in the steps. A longer one is cut
/// to its longest prefix of whole parts that fits (`within_label_limit`).
pub const MAX_LABEL_BYTES: usize = 200;

/// Applies `actions` for `binding` (extended with the empty nodes the actions create),
/// recording what changed in `changes`. Returns whether the graph changed. Lemmas in labels
/// are read through `lemmas`.
pub fn apply(
    graph: &mut SentenceGraph,
    lemmas: &Lemmas,
    actions: &[Action],
    binding: &mut Binding,
    origin: Origin,
    changes: &mut Changes,
    label: &mut String,
) -> bool {
    let mut changed = false;
    for action in actions {
        match action {
            Action::AddEdge {
                from,
                to,
                label: template,
            } => {
                let (from, to) = (binding.node(*from), binding.node(*to));
                if from == to {
                    continue;
                }
                if let Some(label) = label_of(graph, lemmas, template, binding, label) {
                    if let Some(code) = graph.add_edge(from, to, label, origin) {
                        changes.added(from, to, code, label);
                        changed = true;
                    }
                }
            }
            Action::DeleteEdge {
                from,
                to,
                label: test,
            } => {
                for edge in
                    matching_edges(graph, binding.node(*from), binding.node(*to), test, binding)
                {
                    let old = graph.edge(edge).map_or(0, |(_, _, e)| e.code);
                    if graph.remove_edge(edge) {
                        changes.removed(old);
                        changed = true;
                    }
                }
            }
            Action::Relabel {
                from,
                to,
                label: test,
                new_label,
            } => {
                if let Some(label) = label_of(graph, lemmas, new_label, binding, label) {
                    let (from, to) = (binding.node(*from), binding.node(*to));
                    for edge in matching_edges(graph, from, to, test, binding) {
                        if let Some((old, new)) = graph.relabel(edge, label, origin) {
                            changes.removed(old);
                            changes.added(from, to, new, label);
                            changed = true;
                        }
                    }
                }
            }
            Action::AddEmptyNode {
                var,
                copy_of,
                place,
                anchor,
            } => {
                // A blank node (no word to copy) shows `_` in every column: copy_of 0.
                let copy_of = match copy_of.map(|v| graph.node(binding.node(v))) {
                    Some(Node::Word(n)) => n,
                    Some(Node::Empty { copy_of, .. }) => copy_of,
                    Some(Node::Root | Node::Given(_)) | None => 0,
                };
                let after = match (graph.node(binding.node(*anchor)), place) {
                    (Node::Word(n), Place::After) => n,
                    (Node::Word(n), Place::Before) => n - 1,
                    (Node::Empty { after, .. }, _) => after,
                    (Node::Root, _) => 0,
                    (Node::Given(_), _) => graph.position(binding.node(*anchor)).0,
                };
                let node = graph.add_empty_node(after, copy_of);
                binding.nodes[*var] = Some(node);
                changes.nodes = true;
                changed = true;
            }
            Action::TransferEdges {
                mode,
                direction,
                from,
                to,
                matching,
            } => {
                let (from, to) = (binding.node(*from), binding.node(*to));
                // The edges to transfer, chosen before any is changed.
                let edges: Vec<(EdgeIndex, NodeIndex, Label, u8)> = {
                    let labels = bound_labels(graph, binding);
                    let chosen = |&(_, other, e): &(EdgeIndex, NodeIndex, &crate::graph::Edge)| {
                        other != to && matching.matches(graph.label_text(e.label), &labels)
                    };
                    let keep = |(id, other, e): (EdgeIndex, NodeIndex, &crate::graph::Edge)| {
                        (id, other, e.label, e.code)
                    };
                    match direction {
                        Direction::Incoming => {
                            graph.incoming(from).filter(chosen).map(keep).collect()
                        }
                        Direction::Outgoing => {
                            graph.outgoing(from).filter(chosen).map(keep).collect()
                        }
                    }
                };
                for (id, other, edge_label, code) in edges {
                    let (head, dependent) = match direction {
                        Direction::Incoming => (other, to),
                        Direction::Outgoing => (to, other),
                    };
                    if let Some(code) = graph.add_edge(head, dependent, edge_label, origin) {
                        changes.added(head, dependent, code, edge_label);
                        changed = true;
                    }
                    if *mode == TransferMode::Move && graph.remove_edge(id) {
                        changes.removed(code);
                        changed = true;
                    }
                }
            }
        }
    }
    changed
}

fn bound_labels<'b>(
    graph: &'b SentenceGraph,
    binding: &'b Binding,
) -> impl Fn(usize) -> Option<&'b str> + 'b {
    |e| binding.label(graph, e)
}

fn matching_edges(
    graph: &SentenceGraph,
    from: NodeIndex,
    to: NodeIndex,
    test: &LabelTest,
    binding: &Binding,
) -> smallvec::SmallVec<[EdgeIndex; 4]> {
    // A test only one label passes finds at most one edge (the graph has no two edges with one
    // label between two nodes): the label is read once, not tested edge by edge.
    let single = match test {
        // A label the graph never had is on no edge.
        LabelTest::Exact(label) => Some(graph.find_label(label)),
        LabelTest::SameLabel(e) => Some(binding.label_id(graph, *e)),
        _ => None,
    };
    if let Some(label) = single {
        return label
            .and_then(|label| graph.find_edge(from, to, label))
            .into_iter()
            .collect();
    }
    let labels = bound_labels(graph, binding);
    graph
        .edges_between(from, to)
        .filter(|(_, e)| test.matches(graph.label_text(e.label), &labels))
        .map(|(id, _)| id)
        .collect()
}

/// The label a template gives for `binding` (`None`: a required part has no value, and the
/// action is skipped for this match). `out` holds the text while it is built.
fn label_of(
    graph: &mut SentenceGraph,
    lemmas: &Lemmas,
    template: &Template,
    binding: &Binding,
    out: &mut String,
) -> Option<Label> {
    // `{e.label}` alone, as in `H =[e.label]=> N`: the matched label itself, no text built.
    if let [TemplatePart {
        value:
            TemplateValue::Edge {
                edge,
                part: EdgeLabelPart::Label,
            },
        optional: false,
    }] = template.parts[..]
    {
        return binding.label_id(graph, edge).filter(|&l| l != Label::EMPTY);
    }
    let mut fixes = TextFixes::default();
    let rendered = render(graph, lemmas, template, binding, out, &mut fixes);
    // (Text cleaned for a label that is not written is no repair.)
    if fixes.cleaned && rendered {
        graph.note_repair(crate::ud::repairs::TEXT_CLEANED);
    }
    if fixes.dropped {
        graph.note_repair(crate::ud::repairs::TEXT_DROPPED);
    }
    if !rendered {
        return None;
    }
    // Cut before interning: a label that grows each step is never stored.
    if out.len() > MAX_LABEL_BYTES {
        graph.note_repair(crate::ud::repairs::LABEL_SHORTENED);
        let kept = within_label_limit(out)?;
        out.truncate(kept);
    }
    // Interning repairs what the parts' cleaning cannot see: a label of too many parts.
    Some(graph.intern(out))
}

/// The length of the longest prefix of whole parts of `label` (`obl`, `obl:arg`…) that fits in
/// [`MAX_LABEL_BYTES`]: an over-long label keeps its relation and the subtypes before the part
/// that made it too long (most often a marker of many words: `obl:arg:<marker>` → `obl:arg`),
/// as a linguist would rather have the edge with a coarser label than lose it. `None` when not
/// even the relation fits (the action is then skipped).
fn within_label_limit(label: &str) -> Option<usize> {
    // A colon just past the limit still ends a prefix that fits.
    label.as_bytes()[..label.len().min(MAX_LABEL_BYTES + 1)]
        .iter()
        .rposition(|&b| b == b':')
        .filter(|&colon| colon > 0)
}

/// What cleaning the input text in a label's parts did ([`crate::ud::push_label_text`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TextFixes {
    /// Some text lost characters or was normalized.
    pub cleaned: bool,
    /// Some part had text of which nothing was left: it is left out (a required part: the
    /// action is skipped, and the edge keeps its bare label).
    pub dropped: bool,
}

impl TextFixes {
    fn note(&mut self, fix: TextFix) {
        match fix {
            TextFix::Kept => {}
            TextFix::Cleaned => self.cleaned = true,
            TextFix::Dropped => self.dropped = true,
        }
    }
}

/// Writes the label a template gives for `binding` into `out`; false when a required part has
/// no value (the action is then skipped for this match). Text from the input (lemmas, forms,
/// feature values) goes in cleaned ([`crate::ud::push_label_text`]); `fixes` tells what that did.
pub fn render(
    graph: &SentenceGraph,
    lemmas: &Lemmas,
    template: &Template,
    binding: &Binding,
    out: &mut String,
    fixes: &mut TextFixes,
) -> bool {
    out.clear();
    for part in &template.parts {
        let start = out.len();
        if part.optional {
            out.push(':');
        }
        let value_start = out.len();
        match &part.value {
            TemplateValue::Literal(text) => out.push_str(text),
            TemplateValue::Edge { edge, part } => {
                if let Some(label) = binding.label(graph, *edge) {
                    // A byte scan: labels are short, and str::split_once(char) is slower here.
                    let colon = || label.bytes().position(|b| b == b':');
                    out.push_str(match part {
                        EdgeLabelPart::Label => label,
                        EdgeLabelPart::Univ => colon().map_or(label, |i| &label[..i]),
                        EdgeLabelPart::Sub => colon().map_or("", |i| &label[i + 1..]),
                    });
                }
            }
            TemplateValue::Lemma(v) => fixes.note(push_lemma(out, graph, lemmas, binding.node(*v))),
            TemplateValue::Form(v) => {
                fixes.note(push_label_text(out, graph.form(binding.node(*v))))
            }
            TemplateValue::Feature { node, feature } => {
                if let Some(value) = graph.feature(binding.node(*node), feature) {
                    fixes.note(push_feature_value(out, value));
                }
            }
            TemplateValue::Marker { node, spelling } => fixes.note(push_marker(
                graph,
                lemmas,
                binding.node(*node),
                *spelling,
                out,
            )),
        }
        if out.len() == value_start {
            if part.optional {
                out.truncate(start);
            } else if !matches!(part.value, TemplateValue::Literal(_)) {
                return false;
            }
        }
    }
    !out.is_empty()
}

/// A node's lemma as a label part ([`Lemmas::push_label_lemma`]).
fn push_lemma(
    out: &mut String,
    graph: &SentenceGraph,
    lemmas: &Lemmas,
    node: NodeIndex,
) -> TextFix {
    lemmas.push_label_lemma(out, graph, node)
}

/// Lemma of a marker word plus the lemmas of its basic `fixed` children, joined with `_` (a
/// word of which nothing is left as a label part is left out, with its joint); forms, lower-cased,
/// instead of lemmas, or the first word alone, where `spelling` says so.
fn push_marker(
    graph: &SentenceGraph,
    lemmas: &Lemmas,
    node: NodeIndex,
    spelling: MarkerSpelling,
    out: &mut String,
) -> TextFix {
    const FIXED: u8 = crate::graph::bare_relation_code("fixed");
    let start = out.len();
    let children: &[u32] = match graph.node(node) {
        Node::Word(n) if !spelling.first_word => graph.basic_children(n),
        _ => &[],
    };
    let all_forms = spelling.fixed_forms && children.iter().any(|&c| graph.basic_code(c) == FIXED);
    let push_word = |out: &mut String, word: NodeIndex| {
        if all_forms
            || (spelling.form_upos != 0 && spelling.form_upos & upos_bit(graph.upos(word)) != 0)
        {
            push_label_text(out, graph.form(word))
        } else {
            push_lemma(out, graph, lemmas, word)
        }
    };
    let mut fix = push_word(out, node);
    for &child in children {
        if graph.basic_code(child) == FIXED {
            let joint = out.len();
            if joint > start {
                out.push('_');
            }
            let word = out.len();
            fix = fix.max(push_word(out, graph.word_node(child)));
            if out.len() == word {
                out.truncate(joint);
            }
        }
    }
    // Some words dropped but others left: the marker was cleaned, not dropped.
    match fix {
        TextFix::Dropped if out.len() > start => TextFix::Cleaned,
        _ => fix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conllu::{RawBlock, Sentence};
    use crate::engine::binding::EdgeRefId;
    use crate::engine::Engine;
    use crate::rules::{list_profiles, load_ruleset, RuleSource};

    /// A sentence from `(form, lemma, upos, feats, head, deprel)` rows.
    fn sentence(words: &[(&str, &str, &str, &str, u32, &str)]) -> String {
        let mut s = String::new();
        for (i, (form, lemma, upos, feats, head, deprel)) in words.iter().enumerate() {
            s += &format!(
                "{}\t{form}\t{lemma}\t{upos}\t_\t{feats}\t{head}\t{deprel}\t_\t_\n",
                i + 1
            );
        }
        s + "\n"
    }

    /// Every label template of every shipped profile's rules, rendered with hostile texts for its
    /// values and hostile DEPRELs for its edges, gives a label `validate` accepts.
    #[test]
    fn every_shipped_template_gives_valid_labels_from_hostile_text() {
        let hostile = sentence(&[
            (
                "X„",
                "x|3:nsubj",
                "ADP",
                "Case=Acc,Nom|PronType=Rel",
                0,
                "ROOT",
            ),
            ("ǅ", "ℂ", "ADP", "Case=Gen2", 1, "fixed"),
            ("how come", "how come", "ADV", "Case=Loc", 1, "obj|1:nsubj"),
            ("?", "?", "PUNCT", "Case=ž", 1, "obl:Tmod2"),
            ("na\u{301}", "en/of", "CCONJ", "Case=Gen", 1, "obl:arg"),
            ("_", "_", "X", "Case=", 1, "_"),
            ("y", "y", "X", "Case=Gen", 1, "obl:arg:na:gen"),
        ]);
        let parsed = Sentence::parse(RawBlock {
            bytes: hostile.into_bytes(),
            first_line: 1,
            starts_input: true,
        })
        .unwrap();
        let source = RuleSource::embedded();
        let (mut templates, mut rendered, mut repaired) = (0, 0, 0);
        for profile in list_profiles(&source).unwrap() {
            let enhancer = match profile.name.as_str() {
                "basic" => Engine::basic(),
                name => Engine::new(&load_ruleset(&source, name).unwrap()),
            };
            for compiled in &enhancer.rules {
                let rule = &compiled.rule;
                for action in &compiled.actions {
                    let template = match action {
                        Action::AddEdge { label, .. } => label,
                        Action::Relabel { new_label, .. } => new_label,
                        _ => continue,
                    };
                    templates += 1;
                    // Every way of binding the rule's nodes to the hostile words (rotated) and its
                    // edges to their hostile DEPRELs.
                    for shift in 0..7u32 {
                        let mut graph = SentenceGraph::from_basic(&parsed);
                        let lemmas = Lemmas::default();
                        let mut binding = Binding::default();
                        binding.reset(compiled.vars, compiled.edge_vars);
                        for (i, node) in binding.nodes.iter_mut().enumerate() {
                            *node = Some(graph.word_node((i as u32 + shift) % 7 + 1));
                        }
                        for (i, edge) in binding.edges.iter_mut().enumerate() {
                            *edge = Some(EdgeRefId::Basic((i as u32 + shift) % 7 + 1));
                        }
                        let mut out = String::new();
                        if !render(
                            &graph,
                            &lemmas,
                            template,
                            &binding,
                            &mut out,
                            &mut TextFixes::default(),
                        ) {
                            continue;
                        }
                        rendered += 1;
                        // Too many parts (`{e.label}` already marked): only the table's repair helps.
                        if !crate::ud::is_enhanced_label(&out) {
                            repaired += 1;
                        }
                        let label = graph.intern(&out);
                        let text = graph.label_text(label);
                        assert_eq!(
                            crate::ud::enhanced_label_problem(text),
                            None,
                            "{} {}: {out:?}",
                            profile.name,
                            rule.name
                        );
                        assert!(!text.is_empty());
                    }
                }
            }
        }
        assert!(
            templates > 50 && rendered > 100 && repaired > 0,
            "{templates} templates, {rendered} rendered, {repaired} repaired"
        );
    }

    /// An over-long label keeps its longest prefix of whole parts within the limit; one whose
    /// relation alone is too long has none.
    #[test]
    fn an_over_long_label_is_cut_after_its_last_whole_part_that_fits() {
        let marker = "x".repeat(MAX_LABEL_BYTES);
        fn cut(label: &str) -> Option<&str> {
            within_label_limit(label).map(|n| &label[..n])
        }
        assert_eq!(cut(&format!("obl:arg:{marker}")), Some("obl:arg"));
        assert_eq!(cut(&format!("obl:{marker}")), Some("obl"));
        // A label of exactly the limit before its last colon keeps everything before it.
        let fits = format!("obl:{}", "y".repeat(MAX_LABEL_BYTES - 4));
        assert_eq!(cut(&format!("{fits}:z")), Some(fits.as_str()));
        assert_eq!(cut(&marker), None);
        assert_eq!(cut(&format!(":{marker}")), None);
    }
}
