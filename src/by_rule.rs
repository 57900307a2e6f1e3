//! `eudify eval --by-rule`: which rule made each wrong enhanced edge, and which gold edges no
//! rule made, by phenomenon — the diagnostic the accuracy work lives on.
//!
//! It sits above both the engine and eval, which know nothing of each other: it runs the rules
//! and hands the output to the scorer as the system file, then reads each aligned chunk the
//! scorer passes back ([`AlignedChunk`]).
//!
//! The system input's basic trees are enhanced here, with each output edge's origin (the rule
//! that added it or last changed its label, or the basic copy) and each rule application's
//! removals ([`Engine::trace`]). The enhanced text is then scored against gold as `eval` does,
//! on any tokenization (`src/eval/align.rs`), and per chunk of aligned sentences each system edge
//! is matched with the gold edges: one that matches none is *wrong* and counts against its
//! origin; a gold edge that no system edge matches is *missing*, counted under its phenomenon
//! ([`Phenomenon`], classified against the gold tree as `--phenomena` does) and against the
//! rule that removed it or relabelled it away, if one did.
//!
//! Edges are compared as `--phenomena` compares them, on the graphs as they are (empty nodes
//! included, by id); where the two files' words do not align one to one, system edges are
//! carried into gold's numbering through the alignment, and an edge with an empty node or an
//! unaligned word at either end matches nothing.

use crate::conllu::{write_sentence, BlockReader, EnhancedLayer, NodeId, RawBlock, Sentence};
use crate::engine::Engine;
use crate::eval::phenomena::BasicTree;
use crate::eval::{
    evaluate_chunks, open_named, AlignedChunk, EvalError, EvalOptions, Metric, Phenomenon, Report,
};
use crate::graph::Origin;
use crate::text::thousands;
use rustc_hash::FxHashMap;
use serde::{Serialize, Serializer};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::rc::Rc;

/// Examples listed per rule and per phenomenon in the text report (the JSON lists all).
const TEXT_EXAMPLES: usize = 5;

/// A rule as the report names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    pub name: String,
    /// `rules/universal/case.rules:28`.
    pub location: String,
    pub phase: String,
}

/// An edge of the system's output that gold does not have, in the system input's numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongEdge {
    pub sent_id: String,
    /// Line of the dependent in the system input (the sentence's first line for an empty node).
    pub line: usize,
    pub dependent: NodeId,
    pub head: NodeId,
    pub label: String,
    pub phenomenon: Phenomenon,
    /// The labels gold has between the same two nodes, if any (`obl` where the rule wrote
    /// `obl:in`).
    pub gold_labels: Vec<String>,
}

/// A gold edge that is not in the system's output, in gold's numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingEdge {
    pub sent_id: String,
    /// Line of the dependent in the gold file.
    pub line: usize,
    pub dependent: NodeId,
    pub head: NodeId,
    pub label: String,
    pub phenomenon: Phenomenon,
    /// The rule whose application removed the edge or relabelled it away (the last one, if
    /// several did), as an index into [`ByRule::rules`]; `None`: no rule made it.
    pub removed_by: Option<usize>,
    /// The labels the system gives the same two nodes, if any.
    pub system_labels: Vec<String>,
}

/// What one origin (a rule, or the basic copy) contributed to the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRow {
    /// `None`: the basic tree's edges, copied.
    pub rule: Option<RuleInfo>,
    /// Edges of the output it made (added, or last relabelled).
    pub produced: u64,
    /// Of those, the ones gold has.
    pub correct: u64,
    /// Of those, the ones gold does not have.
    pub wrong: Vec<WrongEdge>,
    /// Gold edges missing from the output because it removed them or relabelled them away.
    pub removed: u64,
}

impl RuleRow {
    /// Wrong edges made plus gold edges removed: how the rows are ranked.
    pub fn errors(&self) -> u64 {
        self.wrong.len() as u64 + self.removed
    }

    fn name(&self) -> &str {
        self.rule.as_ref().map_or("basic", |r| &r.name)
    }

    /// How many wrong edges fall in each phenomenon, in [`Phenomenon::ALL`] order, zeros left out.
    pub fn wrong_by_phenomenon(&self) -> Vec<(Phenomenon, u64)> {
        Phenomenon::ALL
            .iter()
            .map(|&p| {
                (
                    p,
                    self.wrong.iter().filter(|e| e.phenomenon == p).count() as u64,
                )
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// The gold edges of one phenomenon, and those missing from the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingRow {
    pub phenomenon: Phenomenon,
    pub gold: u64,
    pub missing: Vec<MissingEdge>,
}

/// The per-rule breakdown of a system's enhanced edges against gold.
#[derive(Clone, Debug)]
pub struct ByRule {
    /// The scores of the enhanced output, as `eudify eval` gives them.
    pub report: Report,
    /// The profile whose rules ran.
    pub profile: String,
    /// The gold file's name in messages.
    pub gold_name: String,
    /// The system file's name in messages.
    pub system_name: String,
    /// Every origin that made or removed an edge, most errors first (then most edges made);
    /// the basic copy is a row too.
    pub rules: Vec<RuleRow>,
    /// One row per phenomenon gold has edges of, most missing edges first.
    pub missing: Vec<MissingRow>,
    /// Sentences whose rules ran away (`FILE:LINE: message`), scored with their basic copy.
    pub runaways: Vec<String>,
}

/// [`evaluate_by_rule`] on files: either may be `-` (stdin, not both) or gzip-compressed, and
/// `system` may be `gold` itself (its basic trees enhanced, its DEPS the gold).
pub fn evaluate_files_by_rule(
    gold: &Path,
    system: &Path,
    enhancer: &Engine,
) -> Result<ByRule, EvalError> {
    let (gold_name, gold_reader) = open_named(gold)?;
    let (system_name, system_reader) = open_named(system)?;
    evaluate_by_rule(
        &gold_name,
        gold_reader,
        &system_name,
        system_reader,
        enhancer,
    )
}

/// Enhances the basic trees of `system` (`system_name` in messages) with `enhancer` and breaks
/// the output's errors against `gold` down by rule and phenomenon. The system's DEPS and empty
/// nodes are ignored, as `eudify enhance` ignores them; its text must be gold's, as for `eval`.
pub fn evaluate_by_rule(
    gold_name: &str,
    gold: impl BufRead,
    system_name: &str,
    system: impl BufRead,
    enhancer: &Engine,
) -> Result<ByRule, EvalError> {
    let shared = Rc::new(RefCell::new(Shared::default()));
    let reader = EnhancingReader {
        blocks: BlockReader::new(system),
        block: RawBlock::default(),
        layer: EnhancedLayer::default(),
        out: Vec::new(),
        pos: 0,
        enhancer,
        name: system_name.to_string(),
        shared: Rc::clone(&shared),
    };
    let mut tally = Tally::new(enhancer);
    let result = evaluate_chunks(
        gold_name,
        gold,
        system_name,
        reader,
        &EvalOptions::default(),
        &mut |chunk| {
            let mut shared = shared.borrow_mut();
            tally.add_chunk(chunk, &mut shared.produced);
        },
    );
    let mut shared = shared.borrow_mut();
    // An input error of the system side is reported as its own, not as a read error.
    if let Some(error) = shared.error.take() {
        return Err(error);
    }
    let report = result?;
    Ok(tally.finish(
        report,
        enhancer,
        gold_name,
        system_name,
        std::mem::take(&mut shared.runaways),
    ))
}

/// An enhanced edge the rules made, or one a rule removed, in the system input's numbering.
struct SystemEdge {
    dependent: NodeId,
    head: NodeId,
    label: String,
    /// The edge's origin; for a removed edge, the rule that removed it.
    origin: Origin,
    line: usize,
}

/// One system sentence as enhanced.
struct Produced {
    sent_id: Option<String>,
    edges: Vec<SystemEdge>,
    removed: Vec<SystemEdge>,
}

/// What the enhancing reader hands over to the scoring.
#[derive(Default)]
struct Shared {
    /// Sentences enhanced and not yet scored, in input order.
    produced: VecDeque<Produced>,
    /// The system input's first invalid sentence.
    error: Option<EvalError>,
    runaways: Vec<String>,
}

/// The system input with its basic trees enhanced, sentence by sentence as it is read: the
/// scorer reads the enhanced text while the edges' origins queue up in [`Shared`].
struct EnhancingReader<'e, R> {
    blocks: BlockReader<R>,
    block: RawBlock,
    layer: EnhancedLayer,
    out: Vec<u8>,
    pos: usize,
    enhancer: &'e Engine,
    name: String,
    shared: Rc<RefCell<Shared>>,
}

impl<R: BufRead> EnhancingReader<'_, R> {
    /// Enhances the sentence in `block` into `out`.
    fn enhance(&mut self) -> io::Result<()> {
        let sentence = match Sentence::parse_ignoring_deps(std::mem::take(&mut self.block)) {
            Ok(sentence) => sentence,
            Err(e) => {
                let error = EvalError::Parse {
                    file: self.name.clone(),
                    line: e.1.line,
                    message: e.1.message,
                };
                let text = error.to_string();
                self.shared.borrow_mut().error = Some(error);
                return Err(io::Error::other(text));
            }
        };
        let trace = self.enhancer.trace(&sentence, &mut self.layer);
        write_sentence(&mut self.out, &sentence, Some(&self.layer));
        let line_of = |id: NodeId| match id.word {
            n if id.is_empty_node() || n == 0 => sentence.first_line,
            n => sentence.line_of(sentence.word(n)),
        };
        let edges = trace
            .edges
            .into_iter()
            .map(|e| SystemEdge {
                line: line_of(e.dependent),
                dependent: e.dependent,
                head: e.head,
                label: e.label,
                origin: e.origin,
            })
            .collect();
        let mut removed = Vec::new();
        let mut shared = self.shared.borrow_mut();
        match &trace.runaway {
            // Scored with the basic copy, which no rule removed from.
            Some(runaway) => {
                let id = sentence
                    .comment("sent_id")
                    .map_or(String::new(), |id| format!("sentence {id}: "));
                shared.runaways.push(format!(
                    "{}:{}: {id}{runaway}",
                    self.name, sentence.first_line
                ));
            }
            None => {
                for application in &trace.applications {
                    let origin = Origin::Rule(application.rule);
                    let gone = application.removed.iter().map(|e| (e, e.label.clone()));
                    let relabelled = application
                        .relabelled
                        .iter()
                        .map(|(e, old)| (e, old.clone()));
                    for (e, label) in gone.chain(relabelled) {
                        removed.push(SystemEdge {
                            dependent: e.dependent,
                            head: e.head,
                            label,
                            origin,
                            line: line_of(e.dependent),
                        });
                    }
                }
            }
        }
        shared.produced.push_back(Produced {
            sent_id: sentence.comment("sent_id").map(str::to_string),
            edges,
            removed,
        });
        Ok(())
    }
}

/// Blank lines and nothing else (a byte-order mark aside), as the scorer skips them.
fn is_blank(bytes: &[u8]) -> bool {
    let content = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(bytes);
    content.iter().all(|b| matches!(b, b'\n' | b'\r'))
}

impl<R: BufRead> Read for EnhancingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for EnhancingReader<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos == self.out.len() {
            self.out.clear();
            self.pos = 0;
            if !self.blocks.read_block(&mut self.block)? {
                break;
            }
            if is_blank(&self.block.bytes) {
                self.out.extend_from_slice(&self.block.bytes);
            } else {
                self.enhance()?;
            }
        }
        Ok(&self.out[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.out.len());
    }
}

/// The counts, summed chunk by chunk.
struct Tally {
    /// Row 0 is the basic copy, row `r + 1` rule `r`.
    rows: Vec<Row>,
    gold: [u64; Phenomenon::ALL.len()],
    missing: Vec<MissingEdge>,
    /// Sentences scored before the current chunk, on each side (for sentences without
    /// `# sent_id`, named by their number).
    gold_sentences: u64,
    system_sentences: u64,
}

#[derive(Default)]
struct Row {
    produced: u64,
    correct: u64,
    wrong: Vec<WrongEdge>,
    removed: u64,
}

/// A gold edge of the chunk: (gold sentence, dependent, head, label).
type Key<'a> = (u32, NodeId, NodeId, &'a str);

fn row_of(origin: Origin) -> usize {
    match origin {
        Origin::Basic => 0,
        Origin::Rule(r) => r as usize + 1,
    }
}

impl Tally {
    fn new(enhancer: &Engine) -> Tally {
        Tally {
            rows: (0..=enhancer.rules.len()).map(|_| Row::default()).collect(),
            gold: [0; Phenomenon::ALL.len()],
            missing: Vec::new(),
            gold_sentences: 0,
            system_sentences: 0,
        }
    }

    /// Matches the system edges of an aligned chunk with its gold edges; `produced` holds the
    /// chunk's system sentences first.
    fn add_chunk<G, S>(&mut self, chunk: &AlignedChunk<G, S>, produced: &mut VecDeque<Produced>) {
        let direct = chunk.one_to_one();
        let trees: Vec<BasicTree> = (0..chunk.gold_sentences())
            .map(|gs| BasicTree::new(chunk.gold_sentence(gs)))
            .collect();
        // Gold edges: how many times each occurs, and how many of those the system matched.
        let mut gold_edges: FxHashMap<Key, (u32, u32)> = FxHashMap::default();
        let mut gold_pairs: FxHashMap<(u32, NodeId, NodeId), Vec<&str>> = FxHashMap::default();
        for gs in 0..chunk.gold_sentences() {
            let sentence = chunk.gold_sentence(gs);
            for token in sentence.tokens_in_order() {
                for (head, label) in sentence.deps(token) {
                    gold_edges.entry((gs, token.id, head, label)).or_default().0 += 1;
                    gold_pairs
                        .entry((gs, token.id, head))
                        .or_default()
                        .push(label);
                }
            }
        }
        let map =
            |si: u32, dependent: NodeId, head: NodeId| map_edge(chunk, direct, si, dependent, head);
        let system_sentences: Vec<Produced> = produced
            .drain(..(chunk.system_sentences() as usize).min(produced.len()))
            .collect();
        let mut system_pairs: FxHashMap<(u32, NodeId, NodeId), Vec<&str>> = FxHashMap::default();
        let mut removals: FxHashMap<Key, usize> = FxHashMap::default();
        for (si, sentence) in system_sentences.iter().enumerate() {
            let sent_id = sentence_name(
                sentence.sent_id.as_deref(),
                self.system_sentences + si as u64,
            );
            for edge in &sentence.edges {
                let row = &mut self.rows[row_of(edge.origin)];
                row.produced += 1;
                let mapped = map(si as u32, edge.dependent, edge.head);
                if let Some((gs, d, h)) = mapped {
                    system_pairs
                        .entry((gs, d, h))
                        .or_default()
                        .push(&edge.label);
                    if let Some((count, matched)) = gold_edges.get_mut(&(gs, d, h, &edge.label[..]))
                    {
                        if matched < count {
                            *matched += 1;
                            row.correct += 1;
                            continue;
                        }
                    }
                }
                let phenomenon = match mapped {
                    Some((gs, d, h)) => trees[gs as usize].classify_edge(d, h, &edge.label),
                    None if edge.dependent.is_empty_node() || edge.head.is_empty_node() => {
                        Phenomenon::EmptyNode
                    }
                    None => Phenomenon::Other,
                };
                let gold_labels = mapped
                    .and_then(|(gs, d, h)| gold_pairs.get(&(gs, d, h)))
                    .map_or_else(Vec::new, |labels| {
                        labels.iter().map(|l| l.to_string()).collect()
                    });
                row.wrong.push(WrongEdge {
                    sent_id: sent_id.clone(),
                    line: edge.line,
                    dependent: edge.dependent,
                    head: edge.head,
                    label: edge.label.clone(),
                    phenomenon,
                    gold_labels,
                });
            }
            for edge in &sentence.removed {
                if let (Some((gs, d, h)), Origin::Rule(r)) =
                    (map(si as u32, edge.dependent, edge.head), edge.origin)
                {
                    // The last removal wins: an edge removed, added back and removed again.
                    removals.insert((gs, d, h, &edge.label[..]), r as usize);
                }
            }
        }
        for gs in 0..chunk.gold_sentences() {
            let sentence = chunk.gold_sentence(gs);
            let sent_id =
                sentence_name(sentence.comment("sent_id"), self.gold_sentences + gs as u64);
            for token in sentence.tokens_in_order() {
                for (head, label) in sentence.deps(token) {
                    let phenomenon = trees[gs as usize].classify_edge(token.id, head, label);
                    self.gold[phenomenon as usize] += 1;
                    let (_, matched) = gold_edges
                        .get_mut(&(gs, token.id, head, label))
                        .expect("every gold edge is counted");
                    if *matched > 0 {
                        *matched -= 1;
                        continue;
                    }
                    let removed_by = removals.get(&(gs, token.id, head, label)).copied();
                    if let Some(r) = removed_by {
                        self.rows[r + 1].removed += 1;
                    }
                    let system_labels = system_pairs
                        .get(&(gs, token.id, head))
                        .map_or_else(Vec::new, |labels| {
                            labels.iter().map(|l| l.to_string()).collect()
                        });
                    self.missing.push(MissingEdge {
                        sent_id: sent_id.clone(),
                        line: sentence.line_of(token),
                        dependent: token.id,
                        head,
                        label: label.to_string(),
                        phenomenon,
                        removed_by,
                        system_labels,
                    });
                }
            }
        }
        self.gold_sentences += u64::from(chunk.gold_sentences());
        self.system_sentences += u64::from(chunk.system_sentences());
    }

    fn finish(
        self,
        report: Report,
        enhancer: &Engine,
        gold_name: &str,
        system_name: &str,
        runaways: Vec<String>,
    ) -> ByRule {
        let info = |r: usize| {
            let rule = &enhancer.rules[r].rule;
            RuleInfo {
                name: rule.name.to_string(),
                location: format!("{}:{}", rule.path, rule.span.line),
                phase: enhancer.phase_of(r as u32).to_string(),
            }
        };
        let mut rules: Vec<(usize, RuleRow)> = self
            .rows
            .into_iter()
            .enumerate()
            .filter(|(_, row)| row.produced > 0 || row.removed > 0)
            .map(|(i, row)| {
                let rule = i.checked_sub(1).map(info);
                (
                    i,
                    RuleRow {
                        rule,
                        produced: row.produced,
                        correct: row.correct,
                        wrong: row.wrong,
                        removed: row.removed,
                    },
                )
            })
            .collect();
        rules.sort_by(|(_, a), (_, b)| {
            b.errors()
                .cmp(&a.errors())
                .then(b.produced.cmp(&a.produced))
                .then_with(|| a.name().cmp(b.name()))
        });
        // Missing edges name their remover by its place in the sorted rows.
        let row_index: FxHashMap<usize, usize> = rules
            .iter()
            .enumerate()
            .map(|(place, (i, _))| (*i, place))
            .collect();
        let rules: Vec<RuleRow> = rules.into_iter().map(|(_, row)| row).collect();
        let mut missing: Vec<MissingRow> = Phenomenon::ALL
            .iter()
            .filter(|&&p| self.gold[p as usize] > 0)
            .map(|&phenomenon| MissingRow {
                phenomenon,
                gold: self.gold[phenomenon as usize],
                missing: Vec::new(),
            })
            .collect();
        for mut edge in self.missing {
            edge.removed_by = edge
                .removed_by
                .and_then(|r| row_index.get(&(r + 1)).copied());
            if let Some(row) = missing
                .iter_mut()
                .find(|row| row.phenomenon == edge.phenomenon)
            {
                row.missing.push(edge);
            }
        }
        missing.sort_by(|a, b| {
            b.missing
                .len()
                .cmp(&a.missing.len())
                .then(a.phenomenon.cmp(&b.phenomenon))
        });
        ByRule {
            report,
            profile: enhancer.profile.clone(),
            gold_name: gold_name.to_string(),
            system_name: system_name.to_string(),
            rules,
            missing,
            runaways,
        }
    }
}

/// A sentence's `# sent_id`, or `#N` (its number in its file, from 1) when it has none.
fn sentence_name(sent_id: Option<&str>, index: u64) -> String {
    sent_id.map_or_else(|| format!("#{}", index + 1), str::to_string)
}

/// System sentence `si`'s edge `head → dependent` in the numbering of a gold sentence of the
/// chunk: `(gold sentence, dependent, head)`, or `None` when it has no counterpart there (an
/// unaligned word or an empty node at either end, or a head in another gold sentence).
fn map_edge<G, S>(
    chunk: &AlignedChunk<G, S>,
    direct: bool,
    si: u32,
    dependent: NodeId,
    head: NodeId,
) -> Option<(u32, NodeId, NodeId)> {
    if direct {
        return Some((0, dependent, head));
    }
    if dependent.is_empty_node() || head.is_empty_node() {
        return None;
    }
    let (gs, d) = chunk.gold_word(si, dependent.word)?;
    if head.is_root() {
        return Some((gs, NodeId::word(d), NodeId::ROOT));
    }
    let (head_gs, h) = chunk.gold_word(si, head.word)?;
    (head_gs == gs).then(|| (gs, NodeId::word(d), NodeId::word(h)))
}

/// The JSON: `eval --json`'s object of the scores, plus `by_rule`. Its objects list their keys
/// in sorted order, as the report's do (`src/eval/report.rs`).
#[derive(Serialize)]
struct ByRuleJson<'a> {
    #[serde(flatten)]
    report: &'a Report,
    by_rule: BodyJson<'a>,
}

#[derive(Serialize)]
struct BodyJson<'a> {
    gold: &'a str,
    missing: Vec<MissingRowJson<'a>>,
    profile: &'a str,
    rules: Vec<RuleJson<'a>>,
    runaways: &'a [String],
    system: &'a str,
}

#[derive(Serialize)]
struct RuleJson<'a> {
    correct: u64,
    errors: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    phase: Option<&'a str>,
    produced: u64,
    removed: u64,
    rule: &'a str,
    wrong: Vec<WrongJson<'a>>,
    wrong_by_phenomenon: BTreeMap<&'static str, u64>,
    wrong_count: usize,
}

#[derive(Serialize)]
struct WrongJson<'a> {
    #[serde(serialize_with = "shown")]
    dependent: NodeId,
    gold_labels: &'a [String],
    #[serde(serialize_with = "shown")]
    head: NodeId,
    label: &'a str,
    line: usize,
    phenomenon: &'static str,
    sent_id: &'a str,
}

#[derive(Serialize)]
struct MissingRowJson<'a> {
    gold: u64,
    missing: Vec<MissingJson<'a>>,
    missing_count: usize,
    name: &'static str,
    phenomenon: &'static str,
}

#[derive(Serialize)]
struct MissingJson<'a> {
    #[serde(serialize_with = "shown")]
    dependent: NodeId,
    #[serde(serialize_with = "shown")]
    head: NodeId,
    label: &'a str,
    line: usize,
    removed_by: Option<&'a str>,
    sent_id: &'a str,
    system_labels: &'a [String],
}

/// A node id as CoNLL-U writes it (`4`, `8.1`).
fn shown<S: Serializer>(id: &NodeId, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(id)
}

/// The scores (as `eval --json`), then `by_rule`: `rules` and `missing`, every wrong and
/// missing edge listed.
impl Serialize for ByRule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rules = self
            .rules
            .iter()
            .map(|row| RuleJson {
                correct: row.correct,
                errors: row.errors(),
                location: row.rule.as_ref().map(|r| &r.location[..]),
                phase: row.rule.as_ref().map(|r| &r.phase[..]),
                produced: row.produced,
                removed: row.removed,
                rule: row.name(),
                wrong: row
                    .wrong
                    .iter()
                    .map(|e| WrongJson {
                        dependent: e.dependent,
                        gold_labels: &e.gold_labels,
                        head: e.head,
                        label: &e.label,
                        line: e.line,
                        phenomenon: e.phenomenon.code(),
                        sent_id: &e.sent_id,
                    })
                    .collect(),
                wrong_by_phenomenon: row
                    .wrong_by_phenomenon()
                    .into_iter()
                    .map(|(p, n)| (p.code(), n))
                    .collect(),
                wrong_count: row.wrong.len(),
            })
            .collect();
        let missing = self
            .missing
            .iter()
            .map(|row| MissingRowJson {
                gold: row.gold,
                missing: row
                    .missing
                    .iter()
                    .map(|e| MissingJson {
                        dependent: e.dependent,
                        head: e.head,
                        label: &e.label,
                        line: e.line,
                        removed_by: e.removed_by.map(|i| self.rules[i].name()),
                        sent_id: &e.sent_id,
                        system_labels: &e.system_labels,
                    })
                    .collect(),
                missing_count: row.missing.len(),
                name: row.phenomenon.name(),
                phenomenon: row.phenomenon.code(),
            })
            .collect();
        let body = BodyJson {
            gold: &self.gold_name,
            missing,
            profile: &self.profile,
            rules,
            runaways: &self.runaways,
            system: &self.system_name,
        };
        ByRuleJson {
            report: &self.report,
            by_rule: body,
        }
        .serialize(serializer)
    }
}

/// `dependent head:label`, as the dependent's DEPS shows the edge.
struct EdgeShown<'a>(NodeId, NodeId, &'a str);

impl fmt::Display for EdgeShown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}:{}", self.0, self.1, self.2)
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    format!("{:.2}", 100.0 * part as f64 / whole as f64)
}

impl fmt::Display for ByRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let elas = self.report.score(Metric::Elas);
        let (edges_gold, edges_made) = (
            self.missing.iter().map(|r| r.gold).sum::<u64>(),
            self.rules.iter().map(|r| r.produced).sum::<u64>(),
        );
        let edges_wrong = self.rules.iter().map(|r| r.wrong.len() as u64).sum::<u64>();
        let edges_missing = self
            .missing
            .iter()
            .map(|r| r.missing.len() as u64)
            .sum::<u64>();
        if self.system_name == self.gold_name {
            writeln!(
                f,
                "Profile {} on the basic trees of {}, against its DEPS",
                self.profile, self.gold_name
            )?;
        } else {
            writeln!(
                f,
                "Profile {} on the basic trees of {}, against {}",
                self.profile, self.system_name, self.gold_name
            )?;
        }
        writeln!(
            f,
            "{}, {}; ELAS {:.2} (P {:.2}, R {:.2})",
            crate::text::count(self.report.sentences, "sentence"),
            crate::text::count(self.report.words, "word"),
            elas.f1(),
            elas.precision(),
            elas.recall()
        )?;
        writeln!(
            f,
            "Enhanced edges (empty nodes not collapsed): {} made, {} wrong; {} in gold, {} missing",
            thousands(edges_made),
            thousands(edges_wrong),
            thousands(edges_gold),
            thousands(edges_missing)
        )?;
        for runaway in &self.runaways {
            writeln!(f, "runaway, scored with the basic copy: {runaway}")?;
        }
        writeln!(f)?;
        writeln!(f, "Rules by errors (wrong: made, not in gold; removed: a gold edge it removed or relabelled away)")?;
        writeln!(
            f,
            "{:>7} {:>7} {:>7} {:>8} {:>7}  {:<32} where",
            "errors", "wrong", "removed", "made", "prec%", "rule"
        )?;
        let mut clean = (0, 0);
        for row in &self.rules {
            if row.errors() == 0 {
                clean = (clean.0 + 1, clean.1 + row.produced);
                continue;
            }
            let place = row
                .rule
                .as_ref()
                .map_or(String::new(), |r| format!("{} ({})", r.location, r.phase));
            writeln!(
                f,
                "{:>7} {:>7} {:>7} {:>8} {:>7}  {:<32} {place}",
                thousands(row.errors()),
                thousands(row.wrong.len() as u64),
                thousands(row.removed),
                thousands(row.produced),
                percent(row.correct, row.produced),
                row.name(),
            )?;
        }
        if clean.0 > 0 {
            writeln!(
                f,
                "({} more made {} edges, none wrong)",
                crate::text::count(clean.0, "rule"),
                thousands(clean.1)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Missing gold edges by phenomenon (in gold, not in the output)"
        )?;
        writeln!(
            f,
            "{:>7} {:>8} {:>7}  {:<20} removed by a rule",
            "missing", "gold", "recall%", "phenomenon"
        )?;
        for row in &self.missing {
            let removed = row
                .missing
                .iter()
                .filter(|e| e.removed_by.is_some())
                .count() as u64;
            writeln!(
                f,
                "{:>7} {:>8} {:>7}  {:<20} {}",
                thousands(row.missing.len() as u64),
                thousands(row.gold),
                percent(row.gold - row.missing.len() as u64, row.gold),
                format!("{} {}", row.phenomenon.code(), row.phenomenon.name()),
                thousands(removed),
            )?;
        }
        // Examples: FILE:LINE first, so that an editor can jump there.
        for row in self.rules.iter().filter(|r| r.errors() > 0) {
            writeln!(f)?;
            let classes: Vec<String> = row
                .wrong_by_phenomenon()
                .iter()
                .map(|(p, n)| format!("{} {}", p.code(), thousands(*n)))
                .collect();
            let classes = if classes.is_empty() {
                String::new()
            } else {
                format!(" ({})", classes.join(", "))
            };
            writeln!(
                f,
                "{}: {} wrong{classes}, {} removed",
                row.name(),
                thousands(row.wrong.len() as u64),
                thousands(row.removed)
            )?;
            for e in row.wrong.iter().take(TEXT_EXAMPLES) {
                let gold = if e.gold_labels.is_empty() {
                    String::new()
                } else {
                    format!("; gold: {}", e.gold_labels.join(", "))
                };
                writeln!(
                    f,
                    "  {}:{}: {} wrong {} [{}]{gold}",
                    self.system_name,
                    e.line,
                    e.sent_id,
                    EdgeShown(e.dependent, e.head, &e.label),
                    e.phenomenon.code()
                )?;
            }
            let index = self.rules.iter().position(|r| std::ptr::eq(r, row));
            let removed = self
                .missing
                .iter()
                .flat_map(|r| &r.missing)
                .filter(|e| e.removed_by.is_some() && e.removed_by == index);
            for e in removed.take(TEXT_EXAMPLES) {
                self.write_missing(f, e, "removed")?;
            }
        }
        for row in self.missing.iter().filter(|r| !r.missing.is_empty()) {
            writeln!(f)?;
            writeln!(
                f,
                "missing {} {}: {}",
                row.phenomenon.code(),
                row.phenomenon.name(),
                thousands(row.missing.len() as u64)
            )?;
            for e in row.missing.iter().take(TEXT_EXAMPLES) {
                self.write_missing(f, e, "missing")?;
            }
        }
        Ok(())
    }
}

impl ByRule {
    fn write_missing(
        &self,
        f: &mut fmt::Formatter<'_>,
        e: &MissingEdge,
        what: &str,
    ) -> fmt::Result {
        let system = if e.system_labels.is_empty() {
            String::new()
        } else {
            format!("; output: {}", e.system_labels.join(", "))
        };
        let by = match e.removed_by {
            Some(i) if what != "removed" => format!("; removed by {}", self.rules[i].name()),
            _ => String::new(),
        };
        writeln!(
            f,
            "  {}:{}: {} {what} {} [{}]{by}{system}",
            self.gold_name,
            e.line,
            e.sent_id,
            EdgeShown(e.dependent, e.head, &e.label),
            e.phenomenon.code()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load_ruleset, RuleSource};
    use serde_json::json;

    fn enhancer(profile: &str) -> Engine {
        let rules = load_ruleset(&RuleSource::embedded(), profile)
            .unwrap_or_else(|e| panic!("{}", e.render()));
        Engine::new(&rules)
    }

    fn by_rule(gold: &str, system: &str) -> ByRule {
        evaluate_by_rule(
            "gold",
            gold.as_bytes(),
            "system",
            system.as_bytes(),
            &enhancer("en"),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn row<'a>(result: &'a ByRule, name: &str) -> &'a RuleRow {
        result
            .rules
            .iter()
            .find(|r| r.name() == name)
            .unwrap_or_else(|| panic!("no row {name}: {:?}", result.rules))
    }

    fn missing(
        result: &ByRule,
        phenomenon: Phenomenon,
    ) -> Vec<(String, String, &str, Option<&str>)> {
        let row = result.missing.iter().find(|r| r.phenomenon == phenomenon);
        row.map_or_else(Vec::new, |row| {
            row.missing
                .iter()
                .map(|e| {
                    (
                        e.dependent.to_string(),
                        e.head.to_string(),
                        &e.label[..],
                        e.removed_by.map(|i| result.rules[i].name()),
                    )
                })
                .collect()
        })
    }

    /// Mary sang and danced in Prague, with gold DEPS: `in Prague` is shared by both verbs and
    /// keeps the bare `obl` (as no English treebank has it: the rules make `obl:in`).
    const GOLD: &str = "# sent_id = s1\n\
        1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj|4:nsubj\t_\n\
        2\tsang\tsing\tVERB\t_\t_\t0\troot\t0:root\t_\n\
        3\tand\tand\tCCONJ\t_\t_\t4\tcc\t4:cc\t_\n\
        4\tdanced\tdance\tVERB\t_\t_\t2\tconj\t2:conj:and\t_\n\
        5\tin\tin\tADP\t_\t_\t6\tcase\t6:case\t_\n\
        6\tPrague\tPrague\tPROPN\t_\t_\t4\tobl\t2:obl|4:obl\t_\n\n";

    #[test]
    fn wrong_edges_count_against_their_rule_and_missing_ones_by_phenomenon() {
        let result = by_rule(GOLD, GOLD);
        // case_label made 4 → 6 obl:in: wrong, and it relabelled the gold edge obl away.
        let case = row(&result, "case_label");
        assert_eq!((case.produced, case.correct, case.removed), (1, 0, 1));
        let wrong = &case.wrong[0];
        assert_eq!(
            (
                wrong.sent_id.as_str(),
                wrong.line,
                wrong.dependent.to_string(),
                wrong.head.to_string(),
                wrong.label.as_str()
            ),
            ("s1", 7, "6".to_string(), "4".to_string(), "obl:in")
        );
        assert_eq!(
            (wrong.phenomenon, &wrong.gold_labels[..]),
            (Phenomenon::CaseLabel, &["obl".to_string()][..])
        );
        // Right edges count as correct for the rule that made them, the basic copy included.
        for (name, made) in [("shared_subject", 1), ("conj_label", 1), ("basic", 4)] {
            let r = row(&result, name);
            assert_eq!(
                (r.produced, r.correct, r.wrong.len(), r.removed),
                (made, made, 0, 0),
                "{name}"
            );
        }
        assert_eq!(result.rules[0].name(), "case_label", "most errors first");
        // The gold edges no rule made, by phenomenon; the one removed names its remover.
        assert_eq!(
            missing(&result, Phenomenon::Basic),
            [("6".to_string(), "4".to_string(), "obl", Some("case_label"))]
        );
        assert_eq!(
            missing(&result, Phenomenon::SharedDependent),
            [("6".to_string(), "2".to_string(), "obl", None)]
        );
        let shared = &result
            .missing
            .iter()
            .find(|r| r.phenomenon == Phenomenon::SharedDependent)
            .unwrap();
        assert_eq!(
            (
                shared.gold,
                shared.missing[0].line,
                &shared.missing[0].system_labels[..]
            ),
            (2, 7, &[][..])
        );
        let basic = &result
            .missing
            .iter()
            .find(|r| r.phenomenon == Phenomenon::Basic)
            .unwrap()
            .missing[0];
        assert_eq!(basic.system_labels, ["obl:in"]);
        assert_eq!(result.report.elas.f1(), 2.0 * 6.0 / (8.0 + 7.0) * 100.0);
        // Both renderings say the same.
        let written = serde_json::to_string_pretty(&result).unwrap();
        // `Value` sorts its keys: written the same iff they were written sorted, as `eval
        // --json` has always had them.
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(serde_json::to_string_pretty(&json).unwrap(), written);
        assert_eq!(json["by_rule"]["rules"][0]["rule"], "case_label");
        assert_eq!(
            json["by_rule"]["rules"][0]["wrong"][0]["gold_labels"],
            json!(["obl"])
        );
        let text = result.to_string();
        assert!(
            text.contains("system:7: s1 wrong 6 4:obl:in [C]; gold: obl"),
            "{text}"
        );
        assert!(text.contains("gold:7: s1 missing 6 2:obl [S]"), "{text}");
    }

    #[test]
    fn system_edges_are_carried_into_gold_sentences_through_the_alignment() {
        // Gold has two sentences; the system input one, the second clause joined by parataxis.
        let gold = "# sent_id = g1\n1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n\
            2\tsang\tsing\tVERB\t_\t_\t0\troot\t0:root\t_\n\n\
            # sent_id = g2\n1\tPeter\tPeter\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n\
            2\tdanced\tdance\tVERB\t_\t_\t0\troot\t0:root\t_\n\n";
        let system = "# sent_id = joined\n1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t_\t_\n\
            2\tsang\tsing\tVERB\t_\t_\t0\troot\t_\t_\n\
            3\tPeter\tPeter\tPROPN\t_\t_\t4\tnsubj\t_\t_\n\
            4\tdanced\tdance\tVERB\t_\t_\t2\tparataxis\t_\t_\n\n";
        let result = by_rule(gold, system);
        let basic = row(&result, "basic");
        assert_eq!((basic.produced, basic.correct), (4, 3));
        // In the system's numbering; its head is in the other gold sentence: no phenomenon.
        let wrong = &basic.wrong[0];
        assert_eq!(
            (
                wrong.sent_id.as_str(),
                wrong.line,
                wrong.dependent.to_string(),
                wrong.head.to_string(),
                wrong.phenomenon
            ),
            (
                "joined",
                5,
                "4".to_string(),
                "2".to_string(),
                Phenomenon::Other
            )
        );
        // In gold's numbering.
        assert_eq!(
            missing(&result, Phenomenon::Basic),
            [("2".to_string(), "0".to_string(), "root", None)]
        );
        let edge = &result.missing[0].missing[0];
        assert_eq!((edge.sent_id.as_str(), edge.line), ("g2", 7));
    }

    #[test]
    fn invalid_system_input_is_reported_as_its_own_error() {
        let system = GOLD.replace("\t0\troot\t", "\t9\troot\t");
        match evaluate_by_rule(
            "gold",
            GOLD.as_bytes(),
            "system",
            system.as_bytes(),
            &enhancer("en"),
        ) {
            Err(EvalError::Parse { file, line, .. }) => {
                assert_eq!((file.as_str(), line), ("system", 3))
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }
}
