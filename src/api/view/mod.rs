//! What `eudify view` draws: each sentence's basic tree and enhanced graph, the rule behind
//! every enhanced edge, how the edges compare with gold, and the matches of a search
//! ([`View`]); and the page that draws it ([`View::page_html`], [`View::sentences_html`]).
//!
//! The model is built once, in Rust, from the library's own parts — the engine's trace for the
//! rule behind each edge, [`crate::eval`] for ELAS and the per-phenomenon scores,
//! [`crate::by_rule`] for the errors per rule, [`Pattern`] for the search — so the page shows
//! exactly what `explain`, `eval --by-rule --phenomena` and `grep` print. The page itself is
//! static: the model as JSON inside it, and a small hand-written script (`page.js`) that draws
//! each sentence as SVG when it scrolls into view, so that tens of thousands of sentences load
//! at once from `file://` with nothing fetched.

mod page;

use super::{Enhancer, Pattern};
use crate::by_rule::{evaluate_by_rule, ByRule};
use crate::conllu::sentence::{DEPREL, FORM, LEMMA, UPOS};
use crate::conllu::{
    write_sentence, BlockReader, EnhancedLayer, NodeId, RawBlock, Sentence, Token,
};
use crate::engine::trace::SentenceTrace;
use crate::engine::Engine;
use crate::error::Error;
use crate::eval::phenomena::BasicTree;
use crate::eval::{evaluate_chunks, AlignedChunk, EvalError, EvalOptions, Metric, Report};
use crate::graph::Origin;
use rustc_hash::FxHashMap;
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use std::io::BufRead;

/// Everything the page draws: the sentences, the rules that made their edges, and, with gold,
/// the scores. Serializes to the JSON the page reads ([`View::to_json`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct View {
    /// The input's name.
    pub name: String,
    /// The profile whose rules ran; `None`: the input's own DEPS are drawn.
    pub profile: Option<String>,
    /// The gold file's name, when edges are compared with gold.
    pub gold: Option<String>,
    /// The sentences, in input order.
    pub sentences: Vec<ViewSentence>,
    /// The rules edges point to ([`ViewEdge::rule`]), with their source text.
    pub rules: Vec<ViewRule>,
    /// The scores against gold, when there is gold.
    pub scores: Option<GoldScores>,
    /// What the search found, when a pattern was given.
    pub search: Option<SearchSummary>,
}

/// One sentence, as drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ViewSentence {
    /// Its `# sent_id`, if it has one.
    pub sent_id: Option<String>,
    /// The line of the input where it starts, from 1.
    pub line: usize,
    /// Its `# text`, or its forms joined as MISC's `SpaceAfter` says.
    pub text: String,
    /// Its words and empty nodes, in the order they are written.
    pub words: Vec<ViewWord>,
    /// The basic tree's edges, one per word.
    pub basic: Vec<ViewEdge>,
    /// The enhanced graph's edges, as DEPS has them (sorted by dependent, head, label).
    pub enhanced: Vec<ViewEdge>,
    /// Gold edges the enhanced graph lacks (with gold: those between words of this sentence, as
    /// the scorer aligned the two files' words).
    pub missing: Vec<ViewEdge>,
    /// Gold's empty nodes the output lacks (likewise), drawn among the words so that the
    /// missing edges to and from them show.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gold_nodes: Vec<ViewWord>,
    /// ELAS (F1, in percent) of the stretch of text this sentence is scored in: the sentence
    /// alone unless the two files segment it differently.
    pub elas: Option<f64>,
    /// Whether its edges were compared with gold: by id where it has the words of one gold
    /// sentence; elsewhere (the two files tokenize or segment the text differently) between the
    /// words the scorer aligned, the edges of empty nodes left unmarked.
    pub compared: bool,
    /// The search's matches in it: per match, each variable with the id of its node.
    pub matches: Vec<Vec<(String, String)>>,
    /// Why the rules were stopped on it (it is drawn with the basic copy as `enhance` writes it).
    pub runaway: Option<String>,
}

/// A word or an empty node. Serializes as `[id, form, lemma, upos]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewWord {
    /// Its CoNLL-U id (`5`, `8.1`).
    pub id: String,
    /// FORM, LEMMA, UPOS as written.
    pub form: String,
    #[allow(missing_docs)]
    pub lemma: String,
    #[allow(missing_docs)]
    pub upos: String,
}

/// An edge of the basic tree, of the enhanced graph, or of gold. Serializes as an array,
/// `[head, dep, label, origin, gold, phenomenon, rule, was]` without its trailing nulls, the
/// origin and gold status as their first letter (`c`opy, `a`dded, `r`elabelled; `c`orrect,
/// `w`rong, `m`issing): a page holds hundreds of thousands of edges, and the browser's time
/// to open it grows with their size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewEdge {
    /// The head's id (`0`: the root).
    pub head: String,
    /// The dependent's id.
    pub dep: String,
    #[allow(missing_docs)]
    pub label: String,
    /// Where an enhanced edge comes from (`None` for basic edges, and for enhanced edges when
    /// no rules ran: the input's own DEPS).
    pub origin: Option<EdgeOrigin>,
    /// The rule that added it or last relabelled it: an index into [`View::rules`].
    pub rule: Option<usize>,
    /// The label it had before the rule relabelled it.
    pub was: Option<String>,
    /// How it compares with gold.
    pub gold: Option<GoldStatus>,
    /// The phenomenon class of an enhanced or missing edge, as `eval --phenomena` classifies it
    /// against the basic tree (its one-letter code, `C` for a case label…).
    pub phenomenon: Option<&'static str>,
}

/// Where an enhanced edge comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EdgeOrigin {
    /// The basic tree's edge, copied.
    Copy,
    /// Added by a rule.
    Added,
    /// A basic edge a rule relabelled (its old label in [`ViewEdge::was`]).
    Relabelled,
}

/// An edge compared with gold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GoldStatus {
    /// Gold has it.
    Correct,
    /// Gold does not have it.
    Wrong,
    /// Gold has it and the enhanced graph does not ([`ViewSentence::missing`]).
    Missing,
}

/// A rule an edge points to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ViewRule {
    #[allow(missing_docs)]
    pub name: String,
    /// Its rule file, and the line where it starts.
    pub file: String,
    #[allow(missing_docs)]
    pub line: usize,
    #[allow(missing_docs)]
    pub phase: String,
    /// The rule as written, from `rule` to its closing brace (empty if the file cannot be read
    /// again).
    pub source: String,
}

/// Scores against gold, as `eudify eval --phenomena --by-rule` computes them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GoldScores {
    /// ELAS over the whole file.
    pub elas: ScoreRow,
    /// Per phenomenon class with edges on either side.
    pub phenomena: Vec<ScoreRow>,
    /// Errors per rule, most first (with rules only); the basic copy is a row too.
    pub rules: Vec<RuleErrors>,
}

/// Precision and recall of some edges.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ScoreRow {
    /// The phenomenon's code (`C`) and name (`case label`); `ELAS` for the whole.
    pub code: String,
    #[allow(missing_docs)]
    pub name: String,
    /// Edges in gold, in the output, and in both.
    pub gold: u64,
    #[allow(missing_docs)]
    pub system: u64,
    #[allow(missing_docs)]
    pub correct: u64,
    /// In percent.
    pub precision: f64,
    #[allow(missing_docs)]
    pub recall: f64,
    #[allow(missing_docs)]
    pub f1: f64,
}

/// What one rule (or the basic copy) got wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RuleErrors {
    /// An index into [`View::rules`]; `None`: the basic copy.
    pub rule: Option<usize>,
    /// Edges it made, those gold has, those gold lacks, and gold edges it removed.
    pub produced: u64,
    #[allow(missing_docs)]
    pub correct: u64,
    #[allow(missing_docs)]
    pub wrong: u64,
    #[allow(missing_docs)]
    pub removed: u64,
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchSummary {
    /// Sentences with a match, and matches in all.
    pub sentences: usize,
    #[allow(missing_docs)]
    pub matches: usize,
}

impl View {
    /// Reads `input` (named `name` in errors) and builds what the page draws. With `enhancer`,
    /// the rules run on each basic tree (the input's DEPS are ignored, as `enhance` ignores
    /// them) and each enhanced edge names its rule; without, the input's own DEPS are drawn.
    /// `gold` (a name and its text) is compared with the enhanced graphs; with `enhancer` and
    /// no `gold`, an input that has DEPS of its own is its own gold. `grep` marks its matches.
    /// Bad input is an [`Error::Input`] at its line; a gold file of another text an
    /// [`Error::Input`] at the first difference.
    pub fn build(
        enhancer: Option<&Enhancer>,
        name: &str,
        mut input: impl BufRead,
        gold: Option<(&str, &mut dyn BufRead)>,
        grep: Option<&Pattern>,
    ) -> Result<View, Error> {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes).map_err(|error| Error::Io {
            file: name.to_string(),
            error,
        })?;
        let gold = match gold {
            Some((gold_name, reader)) => {
                let mut text = Vec::new();
                reader.read_to_end(&mut text).map_err(|error| Error::Io {
                    file: gold_name.to_string(),
                    error,
                })?;
                Some((gold_name.to_string(), text))
            }
            None if enhancer.is_some() && has_own_deps(&bytes) => {
                Some((name.to_string(), bytes.clone()))
            }
            None => None,
        };
        let engine = enhancer.map(|e| &e.engine);
        let mut rules = RuleTable::default();
        let mut view = View {
            name: name.to_string(),
            profile: enhancer.map(|e| e.profile().to_string()),
            gold: gold.as_ref().map(|(n, _)| n.clone()),
            ..View::default()
        };
        let system = draw_all(engine, name, &bytes, &mut rules, &mut view.sentences)?;
        if let Some((gold_name, gold_text)) = &gold {
            let report = compare(gold_name, gold_text, name, &system, &mut view.sentences)?;
            let by_rule = match engine {
                Some(engine) => Some(
                    evaluate_by_rule(gold_name, &gold_text[..], name, &bytes[..], engine)
                        .map_err(eval_error)?,
                ),
                None => None,
            };
            view.scores = Some(scores(&report, by_rule.as_ref(), engine, &mut rules));
        }
        if let Some(pattern) = grep {
            view.search = Some(mark_matches(pattern, name, &bytes, &mut view.sentences)?);
        }
        view.rules = rules.rules;
        Ok(view)
    }

    /// The model as the JSON the page reads (the live server sends it too).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a view serializes")
    }
}

impl Serialize for ViewWord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.id, &self.form, &self.lemma, &self.upos).serialize(serializer)
    }
}

impl Serialize for ViewEdge {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let origin = self.origin.map(|o| match o {
            EdgeOrigin::Copy => "c",
            EdgeOrigin::Added => "a",
            EdgeOrigin::Relabelled => "r",
        });
        let gold = self.gold.map(|g| match g {
            GoldStatus::Correct => "c",
            GoldStatus::Wrong => "w",
            GoldStatus::Missing => "m",
        });
        let given = [
            origin.is_some(),
            gold.is_some(),
            self.phenomenon.is_some(),
            self.rule.is_some(),
            self.was.is_some(),
        ];
        let length = 3 + given.iter().rposition(|&g| g).map_or(0, |last| last + 1);
        let mut seq = serializer.serialize_seq(Some(length))?;
        seq.serialize_element(&self.head)?;
        seq.serialize_element(&self.dep)?;
        seq.serialize_element(&self.label)?;
        if length > 3 {
            seq.serialize_element(&origin)?;
        }
        if length > 4 {
            seq.serialize_element(&gold)?;
        }
        if length > 5 {
            seq.serialize_element(&self.phenomenon)?;
        }
        if length > 6 {
            seq.serialize_element(&self.rule)?;
        }
        if length > 7 {
            seq.serialize_element(&self.was)?;
        }
        seq.end()
    }
}

/// Whether any word or empty node of `conllu` has a DEPS column other than `_`.
fn has_own_deps(conllu: &[u8]) -> bool {
    conllu.split(|&b| b == b'\n').any(|line| {
        !line.starts_with(b"#")
            && line
                .split(|&b| b == b'\t')
                .nth(8)
                .is_some_and(|deps| !deps.trim_ascii().is_empty() && deps.trim_ascii() != b"_")
    })
}

/// An invalid sentence as the library's error.
fn input_error(file: &str, error: &crate::conllu::ParseError) -> Error {
    Error::Input {
        file: file.to_string(),
        line: error.line,
        message: error.message.clone(),
    }
}

/// An evaluation's failure as the library's error.
fn eval_error(error: EvalError) -> Error {
    match error {
        EvalError::Io { file, error } => Error::Io { file, error },
        EvalError::Parse {
            file,
            line,
            message,
        }
        | EvalError::Mismatch {
            file,
            line,
            message,
        } => Error::Input {
            file,
            line,
            message,
        },
    }
}

/// Draws every sentence of `bytes` into `sentences`; returns the text the drawings show (the
/// input, or its enhanced form), which gold is compared with.
fn draw_all(
    engine: Option<&Engine>,
    name: &str,
    bytes: &[u8],
    rules: &mut RuleTable,
    sentences: &mut Vec<ViewSentence>,
) -> Result<Vec<u8>, Error> {
    let mut system = Vec::with_capacity(bytes.len() + bytes.len() / 4);
    let mut reader = BlockReader::new(bytes);
    let mut block = RawBlock::default();
    let mut layer = EnhancedLayer::default();
    let io = |error| Error::Io {
        file: name.to_string(),
        error,
    };
    while reader.read_block(&mut block).map_err(io)? {
        if block.is_blank() {
            system.extend_from_slice(&block.bytes);
            continue;
        }
        let Some(engine) = engine else {
            let sentence =
                Sentence::parse(std::mem::take(&mut block)).map_err(|e| input_error(name, &e.1))?;
            system.extend_from_slice(sentence.text().as_bytes());
            sentences.push(draw(&sentence, sentence.first_line, None));
            continue;
        };
        let starts_input = block.starts_input;
        let sentence = Sentence::parse_ignoring_deps(std::mem::take(&mut block))
            .map_err(|e| input_error(name, &e.1))?;
        let trace = engine.trace(&sentence, &mut layer);
        let mut enhanced = Vec::new();
        write_sentence(&mut enhanced, &sentence, Some(&layer));
        system.extend_from_slice(&enhanced);
        // The enhanced sentence read back: the graph exactly as `enhance` writes it.
        let written = Sentence::parse(RawBlock {
            bytes: enhanced,
            first_line: sentence.first_line,
            starts_input,
        })
        .map_err(|e| input_error(name, &e.1))?;
        let origins = Origins {
            engine,
            trace: &trace,
            rules,
        };
        let mut drawn = draw(&written, sentence.first_line, Some(origins));
        drawn.runaway = trace.runaway.map(|e| e.to_string());
        sentences.push(drawn);
    }
    Ok(system)
}

/// The trace of a sentence's enhancement, to name the rule behind each edge.
struct Origins<'a> {
    engine: &'a Engine,
    trace: &'a SentenceTrace,
    rules: &'a mut RuleTable,
}

fn view_word(sentence: &Sentence, token: &Token) -> ViewWord {
    ViewWord {
        id: token.id.to_string(),
        form: sentence.column(token, FORM).to_string(),
        lemma: sentence.column(token, LEMMA).to_string(),
        upos: sentence.column(token, UPOS).to_string(),
    }
}

/// One sentence as drawn; `origins`, when its rules ran.
fn draw(sentence: &Sentence, line: usize, origins: Option<Origins>) -> ViewSentence {
    let tree = BasicTree::new(sentence);
    let tokens: Vec<_> = sentence.tokens_in_order().collect();
    let words = tokens.iter().map(|t| view_word(sentence, t)).collect();
    let basic = tokens
        .iter()
        .filter(|t| !t.id.is_empty_node())
        .map(|t| ViewEdge {
            head: t.head.to_string(),
            dep: t.id.to_string(),
            label: sentence.column(t, DEPREL).to_string(),
            ..ViewEdge::default()
        })
        .collect();
    let mut origins = origins;
    let mut enhanced: Vec<ViewEdge> = Vec::new();
    for token in &tokens {
        for (head, label) in sentence.deps(token) {
            let mut edge = ViewEdge {
                head: head.to_string(),
                dep: token.id.to_string(),
                label: label.to_string(),
                phenomenon: Some(tree.classify_edge(token.id, head, label).code()),
                ..ViewEdge::default()
            };
            if let Some(origins) = origins.as_mut() {
                origins.attribute(&mut edge, token.id, head, label);
            }
            enhanced.push(edge);
        }
    }
    ViewSentence {
        sent_id: sentence.comment("sent_id").map(str::to_string),
        line,
        text: sentence
            .comment("text")
            .map_or_else(|| sentence.surface_text(), str::to_string),
        words,
        basic,
        enhanced,
        ..ViewSentence::default()
    }
}

impl Origins<'_> {
    /// Names the rule that added `edge` or last relabelled it, if one did.
    fn attribute(&mut self, edge: &mut ViewEdge, dependent: NodeId, head: NodeId, label: &str) {
        // The trace lists the edges sorted as DEPS writes them.
        let found = self
            .trace
            .edges
            .binary_search_by(|e| {
                (e.dependent, e.head, &e.label[..]).cmp(&(dependent, head, label))
            })
            .ok()
            .map(|i| &self.trace.edges[i]);
        let Some(Origin::Rule(rule)) = found.map(|e| e.origin) else {
            edge.origin = Some(EdgeOrigin::Copy);
            return;
        };
        // The last application of that rule that touched the edge says how.
        let relabelled = self.trace.applications.iter().rev().find_map(|a| {
            if a.rule != rule {
                return None;
            }
            if a.added
                .iter()
                .any(|e| e.dependent == dependent && e.head == head && e.label == label)
            {
                return Some(None);
            }
            a.relabelled
                .iter()
                .find(|(e, _)| e.dependent == dependent && e.head == head && e.label == label)
                .map(|(_, old)| Some(old.clone()))
        });
        match relabelled.flatten() {
            Some(old) => {
                edge.origin = Some(EdgeOrigin::Relabelled);
                edge.was = Some(old);
            }
            None => edge.origin = Some(EdgeOrigin::Added),
        }
        edge.rule = Some(self.rules.index(self.engine, rule as usize));
    }
}

/// The rules edges point to, each once, with their source text.
#[derive(Default)]
struct RuleTable {
    rules: Vec<ViewRule>,
    /// Engine rule number → index in `rules`.
    index: FxHashMap<usize, usize>,
    /// Rule files read, by path.
    files: FxHashMap<String, Option<String>>,
}

impl RuleTable {
    /// The index of the engine's rule `rule`, added on first use.
    fn index(&mut self, engine: &Engine, rule: usize) -> usize {
        if let Some(&i) = self.index.get(&rule) {
            return i;
        }
        let compiled = &engine.rules[rule].rule;
        let file = self
            .files
            .entry(compiled.path.clone())
            .or_insert_with(|| read_rule_file(&compiled.path));
        let source = file
            .as_deref()
            .and_then(|text| text.get(compiled.span.start..compiled.span.end))
            .unwrap_or_default()
            .to_string();
        self.rules.push(ViewRule {
            name: compiled.name.clone(),
            file: compiled.path.clone(),
            line: compiled.span.line as usize,
            phase: engine.phase_of(rule as u32).to_string(),
            source,
        });
        self.index.insert(rule, self.rules.len() - 1);
        self.rules.len() - 1
    }
}

/// A rule file's text: an embedded one by its virtual path, an edited copy's on disk.
fn read_rule_file(path: &str) -> Option<String> {
    let embedded = crate::rules::RuleSource::embedded();
    match embedded.exists(path) {
        true => embedded.read(path).ok().map(|text| text.into_owned()),
        false => std::fs::read_to_string(path).ok(),
    }
}

/// How a stretch of the system text lines up with gold, as the scorer aligned it.
struct Chunk {
    /// The chunk's first system sentence.
    first: usize,
    /// What each of its system sentences compares with, in order (one per sentence).
    gold: Vec<SentenceGold>,
}

/// Gold's part of one system sentence.
struct SentenceGold {
    /// Gold's enhanced edges in the system sentence's numbering: those whose two ends align
    /// with words of this sentence.
    edges: GoldEdges,
    /// Gold's empty nodes, when the sentence and its gold sentence have the same words.
    nodes: Vec<ViewWord>,
    /// Whether empty nodes compare by id (the same words on both sides); elsewhere the edges
    /// of empty nodes are left unmarked, as the scorer compares them through paths.
    by_id: bool,
}

/// Gold's enhanced edges of a sentence: (dependent, head, label, phenomenon).
type GoldEdges = Vec<(String, String, String, &'static str)>;

/// Scores `system` against gold with the evaluator, marks each enhanced edge of a sentence
/// correct or wrong and adds gold's missing edges (by id where a sentence has gold's words, else
/// between the words the scorer aligned, as far as both ends of an edge fall in one sentence),
/// and gives each sentence the ELAS of the stretch of text it is scored in.
fn compare(
    gold_name: &str,
    gold: &[u8],
    system_name: &str,
    system: &[u8],
    sentences: &mut [ViewSentence],
) -> Result<Report, Error> {
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut seen = 0;
    let options = EvalOptions {
        phenomena: true,
        keep_units: true,
        ..EvalOptions::default()
    };
    let report = evaluate_chunks(
        gold_name,
        gold,
        system_name,
        system,
        &options,
        &mut |chunk| {
            let count = chunk.system_sentences() as usize;
            let gold = match chunk.one_to_one() {
                true => vec![same_words_gold(chunk.gold_sentence(0))],
                false => aligned_gold(chunk),
            };
            chunks.push(Chunk { first: seen, gold });
            seen += count;
        },
    )
    .map_err(eval_error)?;
    for (chunk, unit) in chunks.iter().zip(report.units()) {
        let elas = unit.counts[Metric::Elas.index()].f1();
        let end = (chunk.first + chunk.gold.len()).min(sentences.len());
        for sentence in &mut sentences[chunk.first.min(end)..end] {
            sentence.elas = Some(elas);
        }
        for (i, gold) in chunk.gold.iter().enumerate() {
            let Some(sentence) = sentences.get_mut(chunk.first + i) else {
                break;
            };
            mark_edges(sentence, &gold.edges, gold.by_id);
            sentence.gold_nodes = gold
                .nodes
                .iter()
                .filter(|node| !sentence.words.iter().any(|w| w.id == node.id))
                .cloned()
                .collect();
        }
    }
    Ok(report)
}

/// A gold sentence with the system sentence's words: its edges and empty nodes as they are.
fn same_words_gold(sentence: &Sentence) -> SentenceGold {
    let nodes = sentence
        .empty_nodes
        .iter()
        .map(|t| view_word(sentence, t))
        .collect();
    let tree = BasicTree::new(sentence);
    let mut edges = Vec::new();
    for token in sentence.tokens_in_order() {
        for (head, label) in sentence.deps(token) {
            let phenomenon = tree.classify_edge(token.id, head, label).code();
            edges.push((
                token.id.to_string(),
                head.to_string(),
                label.to_string(),
                phenomenon,
            ));
        }
    }
    SentenceGold {
        edges,
        nodes,
        by_id: true,
    }
}

/// Gold's edges of a chunk tokenized or segmented differently, per system sentence: each edge
/// between two words (or a word and the root) whose aligned words lie in one system sentence,
/// in that sentence's numbering.
fn aligned_gold<G, S>(chunk: &AlignedChunk<'_, G, S>) -> Vec<SentenceGold> {
    let mut gold: Vec<SentenceGold> = (0..chunk.system_sentences())
        .map(|_| SentenceGold {
            edges: Vec::new(),
            nodes: Vec::new(),
            by_id: false,
        })
        .collect();
    for g in 0..chunk.gold_sentences() {
        let sentence = chunk.gold_sentence(g);
        let tree = BasicTree::new(sentence);
        for token in sentence.tokens_in_order() {
            if token.id.is_empty_node() {
                continue;
            }
            let Some((s, dependent)) = chunk.system_word(g, token.id.word) else {
                continue;
            };
            for (head, label) in sentence.deps(token) {
                let head_id = match head {
                    _ if head.is_empty_node() => continue,
                    _ if head.is_root() => NodeId::ROOT,
                    _ => match chunk.system_word(g, head.word) {
                        Some((hs, h)) if hs == s => NodeId::word(h),
                        _ => continue,
                    },
                };
                let phenomenon = tree.classify_edge(token.id, head, label).code();
                gold[s as usize].edges.push((
                    NodeId::word(dependent).to_string(),
                    head_id.to_string(),
                    label.to_string(),
                    phenomenon,
                ));
            }
        }
    }
    gold
}

/// Marks each enhanced edge of `sentence` correct or wrong against `gold_edges` (as a
/// multiset: each gold edge matches one system edge) and lists the gold edges left missing.
fn mark_edges(sentence: &mut ViewSentence, gold_edges: &GoldEdges, by_id: bool) {
    let mut unmatched: FxHashMap<(&str, &str, &str), u32> = FxHashMap::default();
    for (dep, head, label, _) in gold_edges {
        *unmatched.entry((dep, head, label)).or_default() += 1;
    }
    for edge in &mut sentence.enhanced {
        if !by_id && (edge.dep.contains('.') || edge.head.contains('.')) {
            continue;
        }
        let left = unmatched.get_mut(&(&edge.dep[..], &edge.head[..], &edge.label[..]));
        edge.gold = Some(match left {
            Some(n) if *n > 0 => {
                *n -= 1;
                GoldStatus::Correct
            }
            _ => GoldStatus::Wrong,
        });
    }
    for (dep, head, label, phenomenon) in gold_edges {
        let Some(n) = unmatched.get_mut(&(&dep[..], &head[..], &label[..])) else {
            continue;
        };
        if *n > 0 {
            *n -= 1;
            sentence.missing.push(ViewEdge {
                head: head.clone(),
                dep: dep.clone(),
                label: label.clone(),
                gold: Some(GoldStatus::Missing),
                phenomenon: Some(phenomenon),
                ..ViewEdge::default()
            });
        }
    }
    sentence.compared = true;
}

/// The page's score tables: ELAS, precision and recall per phenomenon, errors per rule.
fn scores(
    report: &Report,
    by_rule: Option<&ByRule>,
    engine: Option<&Engine>,
    rules: &mut RuleTable,
) -> GoldScores {
    let row = |code: &str, name: &str, score: &crate::eval::Score| ScoreRow {
        code: code.to_string(),
        name: name.to_string(),
        gold: score.gold,
        system: score.system,
        correct: score.correct,
        precision: score.precision(),
        recall: score.recall(),
        f1: score.f1(),
    };
    let phenomena = report
        .phenomena
        .iter()
        .flat_map(|p| p.iter())
        .filter(|(_, s)| s.gold > 0 || s.system > 0)
        .map(|(p, s)| row(p.code(), p.name(), s))
        .collect();
    let mut rule_rows = Vec::new();
    if let (Some(by_rule), Some(engine)) = (by_rule, engine) {
        // by_rule names a rule by its location; the engine's rules are found by it.
        let by_location: FxHashMap<String, usize> = engine
            .rules
            .iter()
            .enumerate()
            .map(|(r, c)| (format!("{}:{}", c.rule.path, c.rule.span.line), r))
            .collect();
        for row in &by_rule.rules {
            let rule = row
                .rule
                .as_ref()
                .and_then(|info| by_location.get(&info.location))
                .map(|&r| rules.index(engine, r));
            rule_rows.push(RuleErrors {
                rule,
                produced: row.produced,
                correct: row.correct,
                wrong: row.wrong.len() as u64,
                removed: row.removed,
            });
        }
    }
    GoldScores {
        elas: row("ELAS", "all edges", &report.elas),
        phenomena,
        rules: rule_rows,
    }
}

/// Marks the matches of `pattern` in `sentences` (found by the line they start at).
fn mark_matches(
    pattern: &Pattern,
    name: &str,
    bytes: &[u8],
    sentences: &mut [ViewSentence],
) -> Result<SearchSummary, Error> {
    let by_line: FxHashMap<usize, usize> = sentences
        .iter()
        .enumerate()
        .map(|(i, s)| (s.line, i))
        .collect();
    let counts = pattern.search_each(name, bytes, &mut |found| {
        if let Some(&i) = by_line.get(&found.line) {
            sentences[i].matches = found
                .matches
                .iter()
                .map(|m| {
                    m.nodes
                        .iter()
                        .map(|n| (n.variable.clone(), n.id.clone()))
                        .collect()
                })
                .collect();
        }
        Ok(true)
    })?;
    Ok(SearchSummary {
        sentences: counts.sentences_matched,
        matches: counts.matches,
    })
}

#[cfg(test)]
mod tests;
