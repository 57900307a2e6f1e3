//! Word alignment of a gold and a system file on any tokenization, as the CoNLL 2018 and
//! IWPT 2021 scorers (`conll18_ud_eval.py`, `iwpt21_xud_eval.py`) define it.
//!
//! Both files must hold the same characters once whitespace of Unicode category Zs is removed.
//! Every token is a span of that text; tokens and sentences score by equal spans. Words outside
//! multiword tokens align when their spans are equal; inside a *multiword span* (the smallest
//! stretch of text holding whole multiword tokens of either side), words align by the longest
//! common subsequence of their lower-cased forms.
//!
//! The files are read in *chunks*: a chunk ends where both files end a sentence at the same
//! character and the alignment of the chunk used up the words of both sides, so aligning chunk
//! by chunk gives exactly the alignment of the whole files while memory holds one chunk.

use super::collapse::{universal, CollapsedGraph};
use super::report::{Counts, Metric, Score};
use super::EvalError;
use crate::conllu::id::parse_u32;
use crate::conllu::sentence::{LineKind, DEPREL, FEATS, FORM, LEMMA, UPOS, XPOS};
use crate::conllu::{BlockReader, RawBlock, Sentence};
use std::io::BufRead;

/// Relations whose dependents are content words in CLAS, MLAS and BLEX (CoNLL 2018).
const CONTENT_DEPRELS: &[&str] = &[
    "nsubj",
    "obj",
    "iobj",
    "csubj",
    "ccomp",
    "xcomp",
    "obl",
    "vocative",
    "expl",
    "dislocated",
    "advcl",
    "advmod",
    "discourse",
    "nmod",
    "appos",
    "nummod",
    "acl",
    "amod",
    "conj",
    "fixed",
    "flat",
    "compound",
    "list",
    "parataxis",
    "orphan",
    "goeswith",
    "reparandum",
    "root",
    "dep",
];

/// Relations of the function words that MLAS attaches to their head (CoNLL 2018).
const FUNCTIONAL_DEPRELS: &[&str] = &["aux", "cop", "mark", "det", "clf", "case", "cc"];

/// The universal features UFeats, AllTags and MLAS compare: those of UD v2.2, which the CoNLL
/// 2018 and IWPT 2021 scorers list. Later universal features (`Typo`, `ExtPos`, …, in
/// [`crate::ud::UNIVERSAL_FEATURES`]) are ignored as the official figures ignore them; layered
/// features (`Number[psor]`) are not universal features for the scorer either.
const SCORED_FEATURES: &[&str] = &[
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number",
    "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident",
    "Polarity", "Person", "Polite",
];

/// The largest LCS table (words × words) of one multiword span: the scorer's alignment is
/// quadratic in the span, so a span of tens of thousands of words (a whole file written as one
/// multiword token) is refused instead of exhausting memory. Real spans have a few words.
const MAX_LCS_CELLS: usize = 50_000_000;

/// No aligned word.
pub(crate) const UNALIGNED: u32 = u32::MAX;

/// Whether `c` is whitespace of Unicode category Zs (space separators), which the scorers drop
/// from forms before comparing the two files' text.
fn is_zs(c: char) -> bool {
    matches!(
        c,
        ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// A chunk both files have been read and aligned up to, as [`super::evaluate_chunks`] hands it
/// on once scored: gold's and the system's sentences over the same text, and which words align.
pub(crate) struct AlignedChunk<'c, G, S> {
    pub(super) gold: &'c Side<G>,
    pub(super) system: &'c Side<S>,
}

impl<'c, G, S> AlignedChunk<'c, G, S> {
    /// How many gold sentences the chunk has.
    pub(crate) fn gold_sentences(&self) -> u32 {
        self.gold.chunk_sentences() as u32
    }

    /// Gold sentence `i` of the chunk, from 0.
    pub(crate) fn gold_sentence(&self, i: u32) -> &'c Sentence {
        self.gold.sentence(i)
    }

    /// How many system sentences the chunk has.
    pub(crate) fn system_sentences(&self) -> u32 {
        self.system.chunk_sentences() as u32
    }

    /// Whether the chunk is one sentence on each side, their words aligned one to one in order:
    /// its graphs then compare directly, node ids and all.
    pub(crate) fn one_to_one(&self) -> bool {
        let (gold, system) = (self.gold, self.system);
        gold.chunk_sentences() == 1
            && system.chunk_sentences() == 1
            && gold.words.len() == system.words.len()
            && gold
                .words
                .iter()
                .enumerate()
                .all(|(i, w)| w.aligned as usize == i)
    }

    /// The gold word aligned with word `n` (from 1) of system sentence `s`: its sentence in the
    /// chunk and its number there (from 1), or `None` when it is unaligned.
    pub(crate) fn gold_word(&self, s: u32, n: u32) -> Option<(u32, u32)> {
        aligned_word(self.system, self.gold, s, n)
    }

    /// The system word aligned with word `n` (from 1) of gold sentence `g`: its sentence in the
    /// chunk and its number there (from 1), or `None` when it is unaligned.
    pub(crate) fn system_word(&self, g: u32, n: u32) -> Option<(u32, u32)> {
        aligned_word(self.gold, self.system, g, n)
    }
}

/// The word of side `to` aligned with word `n` (from 1) of sentence `s` of side `from`: its
/// sentence in the chunk and its number there, or `None` when it is unaligned.
fn aligned_word<A, B>(from: &Side<A>, to: &Side<B>, s: u32, n: u32) -> Option<(u32, u32)> {
    let base = from.sentence_base(s);
    let aligned = from.words.get((base + n - 1) as usize)?.aligned;
    if aligned == UNALIGNED {
        return None;
    }
    let sentence = to.words[aligned as usize].sentence;
    Some((sentence, aligned - to.sentence_base(sentence) + 1))
}

/// A span of the chunk's text, in bytes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
}

/// A syntactic word of a chunk, with what scoring needs precomputed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Word {
    /// Its token's span (the whole multiword token for a word inside one).
    span: Span,
    multiword: bool,
    /// Index of its sentence in the chunk, and its index in that sentence's words.
    pub(crate) sentence: u32,
    pub(crate) index: u32,
    /// Basic head: 0 for the root, else 1 + the head's index in the chunk's words.
    parent: u32,
    content: bool,
    functional: bool,
    /// Universal features, sorted, joined by `|`, in [`Side::feats`].
    feats: (u32, u32),
    /// Functional children, in [`Side::children`].
    children: (u32, u32),
    /// Index of the aligned word of the other side, or [`UNALIGNED`].
    pub(crate) aligned: u32,
}

/// One input file and the sentences of the current chunk.
pub(crate) struct Side<R> {
    pub(crate) name: String,
    reader: BlockReader<R>,
    pub(crate) done: bool,
    /// Whether `sentences[used]` holds the next sentence, read ahead.
    lookahead: bool,
    /// Line number just past everything read so far.
    end_line: usize,
    /// The chunk's sentences are `sentences[..used]`; the rest are buffers to reuse.
    sentences: Vec<Sentence>,
    graphs: Vec<CollapsedGraph>,
    used: usize,
    /// The chunk's text without Zs whitespace.
    chars: String,
    tokens: Vec<Span>,
    /// The line of each token.
    token_lines: Vec<usize>,
    sentence_spans: Vec<Span>,
    pub(crate) words: Vec<Word>,
    /// Index in `words` of each sentence's first word.
    sentence_bases: Vec<u32>,
    feats: String,
    children: Vec<u32>,
    /// Scratch.
    feat_list: Vec<(u32, u32)>,
    pairs: Vec<(u32, u32)>,
    /// Sentences read in all (for the report).
    pub(crate) total_sentences: u64,
    pub(crate) total_words: u64,
}

impl<R: BufRead> Side<R> {
    pub(crate) fn new(name: &str, input: R) -> Self {
        Side {
            name: name.to_string(),
            reader: BlockReader::new(input),
            done: false,
            lookahead: false,
            end_line: 1,
            sentences: Vec::new(),
            graphs: Vec::new(),
            used: 0,
            chars: String::new(),
            tokens: Vec::new(),
            token_lines: Vec::new(),
            sentence_bases: Vec::new(),
            sentence_spans: Vec::new(),
            words: Vec::new(),
            feats: String::new(),
            children: Vec::new(),
            feat_list: Vec::new(),
            pairs: Vec::new(),
            total_sentences: 0,
            total_words: 0,
        }
    }

    /// Reads the next sentence into the chunk; `false` (and `done`) at the end of input.
    pub(crate) fn read_sentence(&mut self) -> Result<bool, EvalError> {
        if !self.lookahead && !self.read_ahead()? {
            return Ok(false);
        }
        self.lookahead = false;
        self.used += 1;
        self.index_sentence(self.used - 1)?;
        Ok(true)
    }

    /// Whether the next sentence (read ahead, not yet in the chunk) starts with a multiword
    /// token; `false` at the end of input.
    pub(crate) fn next_starts_with_multiword(&mut self) -> Result<bool, EvalError> {
        if !self.lookahead && !self.read_ahead()? {
            return Ok(false);
        }
        let next = &self.sentences[self.used];
        let first = next
            .lines
            .iter()
            .find(|l| matches!(l.kind, LineKind::Multiword | LineKind::Word(_)));
        Ok(first.is_some_and(|l| l.kind == LineKind::Multiword))
    }

    /// Parses the next sentence into the slot after the chunk's (`lookahead`); `false` (and
    /// `done`) at the end of input.
    fn read_ahead(&mut self) -> Result<bool, EvalError> {
        let mut block = RawBlock::default();
        loop {
            let more = self
                .reader
                .read_block(&mut block)
                .map_err(|error| EvalError::Io {
                    file: self.name.clone(),
                    error,
                })?;
            if !more {
                self.done = true;
                return Ok(false);
            }
            self.end_line = block.first_line + memchr::memchr_iter(b'\n', &block.bytes).count();
            // Only blank lines (possibly after a byte-order mark): what trails the last sentence.
            let content = block
                .bytes
                .strip_prefix(b"\xEF\xBB\xBF".as_slice())
                .unwrap_or(&block.bytes);
            if content.iter().all(|b| matches!(b, b'\n' | b'\r')) {
                continue;
            }
            if self.used == self.sentences.len() {
                self.sentences.push(Sentence::default());
                self.graphs.push(CollapsedGraph::default());
            }
            let sentence = &mut self.sentences[self.used];
            if let Err(e) = sentence.parse_into(std::mem::take(&mut block)) {
                let (_, error) = *e;
                return Err(EvalError::Parse {
                    file: self.name.clone(),
                    line: error.line,
                    message: error.message,
                });
            }
            if let Err(e) = self.graphs[self.used].build(sentence) {
                return Err(self.too_many_paths(self.used, e));
            }
            self.lookahead = true;
            return Ok(true);
        }
    }
}

impl<R> Side<R> {
    pub(crate) fn sentence(&self, i: u32) -> &Sentence {
        &self.sentences[i as usize]
    }

    pub(crate) fn graph(&self, i: u32) -> &CollapsedGraph {
        &self.graphs[i as usize]
    }

    /// Index in the chunk's words of sentence `i`'s first word.
    pub(crate) fn sentence_base(&self, i: u32) -> u32 {
        self.sentence_bases[i as usize]
    }

    pub(crate) fn chunk_sentences(&self) -> usize {
        self.used
    }

    pub(crate) fn text_len(&self) -> usize {
        self.chars.len()
    }

    /// Forgets the chunk (keeping the buffers and a sentence read ahead).
    pub(crate) fn clear_chunk(&mut self) {
        if self.lookahead {
            self.sentences.swap(0, self.used);
            self.graphs.swap(0, self.used);
        }
        self.used = 0;
        self.chars.clear();
        self.tokens.clear();
        self.token_lines.clear();
        self.sentence_bases.clear();
        self.sentence_spans.clear();
        self.words.clear();
        self.feats.clear();
        self.children.clear();
    }

    fn too_many_paths(&self, sentence: usize, e: super::collapse::TooManyPaths) -> EvalError {
        let s = &self.sentences[sentence];
        let line = (e.word as usize)
            .checked_sub(1)
            .and_then(|i| s.words.get(i))
            .map_or(s.first_line, |w| s.line_of(w));
        let message = format!(
            "collapsing empty nodes takes more than {} steps in this sentence (too many paths through empty nodes)",
            super::collapse::MAX_COLLAPSE_WORK
        );
        EvalError::Parse {
            file: self.name.clone(),
            line,
            message,
        }
    }

    /// Appends a sentence's tokens, words and text to the chunk's tables.
    fn index_sentence(&mut self, s: usize) -> Result<(), EvalError> {
        // Taken out for the loop, which fills the other tables.
        let sentences = std::mem::take(&mut self.sentences);
        let result = self.index_words(&sentences[s], s);
        self.sentences = sentences;
        result
    }

    fn index_words(&mut self, sentence: &Sentence, s: usize) -> Result<(), EvalError> {
        let base = self.words.len() as u32;
        self.sentence_bases.push(base);
        let sentence_start = self.chars.len();
        // Words up to `multiword_end` belong to the multiword token spanning `multiword_span`.
        let (mut multiword_end, mut multiword_span) = (0u32, Span::default());
        for line in &sentence.lines {
            match line.kind {
                LineKind::Multiword => {
                    let text = sentence.span(line.bytes);
                    let mut columns = text.split('\t');
                    let id = columns.next().unwrap_or("");
                    let form = columns.next().unwrap_or("");
                    multiword_end = id
                        .split_once('-')
                        .and_then(|(_, end)| parse_u32(end))
                        .unwrap_or(0);
                    multiword_span = self.push_token(form, line.number)?;
                }
                LineKind::Word(i) => {
                    let token = &sentence.words[i as usize];
                    let (span, multiword) = if token.id.word <= multiword_end {
                        (multiword_span, true)
                    } else {
                        (
                            self.push_token(sentence.column(token, FORM), line.number)?,
                            false,
                        )
                    };
                    let deprel = universal(sentence.column(token, DEPREL));
                    let feats = self.push_feats(sentence.column(token, FEATS));
                    self.words.push(Word {
                        span,
                        multiword,
                        sentence: s as u32,
                        index: i,
                        parent: if token.head == 0 {
                            0
                        } else {
                            base + token.head
                        },
                        content: CONTENT_DEPRELS.contains(&deprel),
                        functional: FUNCTIONAL_DEPRELS.contains(&deprel),
                        feats,
                        children: (0, 0),
                        aligned: UNALIGNED,
                    });
                }
                _ => {}
            }
        }
        self.sentence_spans.push(Span {
            start: sentence_start,
            end: self.chars.len(),
        });
        // Functional children of each word, in word order (MLAS compares them as lists).
        self.pairs.clear();
        for (i, w) in self.words[base as usize..].iter().enumerate() {
            if w.functional && w.parent != 0 {
                self.pairs.push((w.parent - 1, base + i as u32));
            }
        }
        self.pairs.sort_unstable();
        let mut k = 0;
        while k < self.pairs.len() {
            let parent = self.pairs[k].0;
            let start = self.children.len() as u32;
            while k < self.pairs.len() && self.pairs[k].0 == parent {
                self.children.push(self.pairs[k].1);
                k += 1;
            }
            if let Some(w) = self.words.get_mut(parent as usize) {
                w.children = (start, self.children.len() as u32);
            }
        }
        self.total_sentences += 1;
        self.total_words += sentence.len() as u64;
        Ok(())
    }

    /// Appends a token's form without Zs whitespace to the text.
    fn push_token(&mut self, form: &str, line: usize) -> Result<Span, EvalError> {
        let start = self.chars.len();
        self.chars.extend(form.chars().filter(|&c| !is_zs(c)));
        let span = Span {
            start,
            end: self.chars.len(),
        };
        if span.start == span.end {
            return Err(EvalError::Parse {
                file: self.name.clone(),
                line,
                message: format!(
                    "FORM '{form}' is empty once whitespace is removed: the text cannot be aligned"
                ),
            });
        }
        self.tokens.push(span);
        self.token_lines.push(line);
        Ok(span)
    }

    /// Stores the universal features of a FEATS value, sorted, as the scorer compares them.
    fn push_feats(&mut self, feats: &str) -> (u32, u32) {
        let start = self.feats.len() as u32;
        self.feat_list.clear();
        let mut offset = 0u32;
        for feat in feats.split('|') {
            let name = feat.split_once('=').map_or(feat, |(name, _)| name);
            if SCORED_FEATURES.contains(&name) {
                self.feat_list.push((offset, offset + feat.len() as u32));
            }
            offset += feat.len() as u32 + 1;
        }
        self.feat_list.sort_unstable_by(|a, b| {
            feats[a.0 as usize..a.1 as usize].cmp(&feats[b.0 as usize..b.1 as usize])
        });
        for (n, (a, b)) in self.feat_list.iter().enumerate() {
            if n > 0 {
                self.feats.push('|');
            }
            self.feats.push_str(&feats[*a as usize..*b as usize]);
        }
        (start, self.feats.len() as u32)
    }

    fn feats_of(&self, w: &Word) -> &str {
        &self.feats[w.feats.0 as usize..w.feats.1 as usize]
    }

    fn column(&self, w: &Word, column: usize) -> &str {
        let s = &self.sentences[w.sentence as usize];
        s.column(&s.words[w.index as usize], column)
    }

    /// Writes into `out` the form the scorer compares inside multiword spans: without Zs
    /// whitespace outside multiword tokens (where the scorer removed it), lower-cased as a whole
    /// (as Python's `str.lower`, so a final `Σ` becomes `ς`).
    fn lcs_form(&self, w: &Word, scratch: &mut String, out: &mut String) {
        scratch.clear();
        scratch.extend(
            self.column(w, FORM)
                .chars()
                .filter(|&c| w.multiword || !is_zs(c)),
        );
        out.clear();
        out.push_str(&scratch.to_lowercase());
    }

    /// The line of the token holding text offset `at` (the last token when `at` is past the end).
    fn line_at(&self, at: usize) -> usize {
        let i = self.tokens.partition_point(|t| t.end <= at);
        self.token_lines
            .get(i)
            .or(self.token_lines.last())
            .map_or(self.end_line, |&line| line)
    }

    /// Up to 20 characters of the text from `at`.
    fn text_at(&self, at: usize) -> String {
        self.chars[at..].chars().take(20).collect()
    }
}

/// Checks that the text both sides have read so far agrees from `checked` on; returns how far
/// it was checked.
pub(crate) fn check_text<G, S>(
    gold: &Side<G>,
    system: &Side<S>,
    checked: usize,
) -> Result<usize, EvalError> {
    let n = gold.chars.len().min(system.chars.len());
    let (g, s) = (
        &gold.chars.as_bytes()[checked..n],
        &system.chars.as_bytes()[checked..n],
    );
    match g.iter().zip(s).position(|(a, b)| a != b) {
        None => Ok(n),
        Some(k) => {
            // Back to the start of the differing character (the bytes before are equal).
            let mut at = checked + k;
            while !gold.chars.is_char_boundary(at) {
                at -= 1;
            }
            Err(text_mismatch(gold, system, at))
        }
    }
}

/// The error for text that differs (or ends on one side) at offset `at` of the chunk.
pub(crate) fn text_mismatch<G, S>(gold: &Side<G>, system: &Side<S>, at: usize) -> EvalError {
    let (gold_line, system_line) = (gold.line_at(at), system.line_at(at));
    let message = if at >= system.chars.len() {
        format!(
            "the system file ends, but gold's text goes on with '{}' ({}:{})",
            gold.text_at(at),
            gold.name,
            gold_line
        )
    } else if at >= gold.chars.len() {
        format!(
            "the system file's text goes on past the end of gold's: '{}'",
            system.text_at(at)
        )
    } else {
        format!(
            "the text differs from gold's ({}:{}): gold has '{}', system has '{}'",
            gold.name,
            gold_line,
            gold.text_at(at),
            system.text_at(at)
        )
    };
    EvalError::Mismatch {
        file: system.name.clone(),
        line: system_line,
        message,
    }
}

/// Scratch of the LCS table, reused.
#[derive(Default)]
pub(crate) struct Aligner {
    lcs: Vec<u32>,
    /// Lower-cased forms of the span's gold and system words (buffers reused).
    gold_forms: Vec<String>,
    system_forms: Vec<String>,
    scratch: String,
}

/// Which words the alignment of a chunk left unvisited at its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Leftover {
    /// None: the scorer's one pass over the whole files would reach the next chunk's first
    /// words on both sides at once, so the next chunk can be aligned on its own.
    None,
    /// Some gold words: the scorer would go on past them only if the system's next word is not
    /// in a multiword token. If it is, the multiword span it starts could take these gold words
    /// in (the scorer's span search skips one word before a multiword token, then takes every
    /// word that ends before the span's end), so the chunk must go on.
    Gold,
    /// Some system words: the same, the other way round.
    System,
}

impl Aligner {
    /// Aligns the chunk's words (setting `Word::aligned` on both sides); says which side's words
    /// were left at the end (see [`Leftover`]).
    pub(crate) fn align<G, S>(
        &mut self,
        gold: &mut Side<G>,
        system: &mut Side<S>,
    ) -> Result<Leftover, EvalError> {
        for w in gold.words.iter_mut().chain(system.words.iter_mut()) {
            w.aligned = UNALIGNED;
        }
        let (ng, ns) = (gold.words.len(), system.words.len());
        let (mut gi, mut si) = (0, 0);
        while gi < ng && si < ns {
            let (g, s) = (gold.words[gi], system.words[si]);
            if g.multiword || s.multiword {
                let (gs, ss);
                (gs, ss, gi, si) = multiword_span(&gold.words, &system.words, gi, si);
                if gi > gs && si > ss {
                    if (gi - gs).saturating_mul(si - ss) > MAX_LCS_CELLS {
                        let w = &system.words[ss];
                        let sentence = &system.sentences[w.sentence as usize];
                        return Err(EvalError::Mismatch {
                            file: system.name.clone(),
                            line: sentence.line_of(&sentence.words[w.index as usize]),
                            message: format!(
                                "a multiword span of {} gold and {} system words is too long to align",
                                gi - gs,
                                si - ss
                            ),
                        });
                    }
                    self.align_lcs(gold, system, gs..gi, ss..si);
                }
            } else if g.span == s.span {
                link(gold, system, gi, si);
                gi += 1;
                si += 1;
            } else if g.span.start <= s.span.start {
                gi += 1;
            } else {
                si += 1;
            }
        }
        Ok(if gi < ng {
            Leftover::Gold
        } else if si < ns {
            Leftover::System
        } else {
            Leftover::None
        })
    }

    /// Aligns the words of a multiword span by the LCS of their lower-cased forms, taking
    /// matches greedily from the start as the scorer does.
    fn align_lcs<G, S>(
        &mut self,
        gold: &mut Side<G>,
        system: &mut Side<S>,
        gr: std::ops::Range<usize>,
        sr: std::ops::Range<usize>,
    ) {
        let (n, m) = (gr.len(), sr.len());
        for (forms, count) in [(&mut self.gold_forms, n), (&mut self.system_forms, m)] {
            if forms.len() < count {
                forms.resize(count, String::new());
            }
        }
        for (k, w) in gold.words[gr.clone()].iter().enumerate() {
            gold.lcs_form(w, &mut self.scratch, &mut self.gold_forms[k]);
        }
        for (k, w) in system.words[sr.clone()].iter().enumerate() {
            system.lcs_form(w, &mut self.scratch, &mut self.system_forms[k]);
        }
        let (gold_forms, system_forms) = (&self.gold_forms, &self.system_forms);
        let same = |g: usize, s: usize| gold_forms[g] == system_forms[s];
        // lcs[g * (m + 1) + s]: LCS length of gold words g.. and system words s..
        self.lcs.clear();
        self.lcs.resize((n + 1) * (m + 1), 0);
        let at = |g: usize, s: usize| g * (m + 1) + s;
        for g in (0..n).rev() {
            for s in (0..m).rev() {
                let mut v = if same(g, s) {
                    1 + self.lcs[at(g + 1, s + 1)]
                } else {
                    0
                };
                v = v.max(self.lcs[at(g + 1, s)]).max(self.lcs[at(g, s + 1)]);
                self.lcs[at(g, s)] = v;
            }
        }
        let (mut g, mut s) = (0, 0);
        while g < n && s < m {
            if same(g, s) {
                link(gold, system, gr.start + g, sr.start + s);
                g += 1;
                s += 1;
            } else if self.lcs[at(g, s)] == self.lcs[at(g + 1, s)] {
                g += 1;
            } else {
                s += 1;
            }
        }
    }
}

fn link<G, S>(gold: &mut Side<G>, system: &mut Side<S>, g: usize, s: usize) {
    gold.words[g].aligned = s as u32;
    system.words[s].aligned = g as u32;
}

/// The multiword span starting at `gi`/`si` (one of which is in a multiword token): the words
/// `gs..gi` and `ss..si` it holds, as the scorer delimits it.
fn multiword_span(
    gold: &[Word],
    system: &[Word],
    mut gi: usize,
    mut si: usize,
) -> (usize, usize, usize, usize) {
    let mut end;
    if gold[gi].multiword {
        end = gold[gi].span.end;
        if !system[si].multiword && system[si].span.start < gold[gi].span.start {
            si += 1;
        }
    } else {
        end = system[si].span.end;
        if !gold[gi].multiword && gold[gi].span.start < system[si].span.start {
            gi += 1;
        }
    }
    let (gs, ss) = (gi, si);
    let beyond = |words: &[Word], i: usize, end: usize| match words.get(i) {
        None => true,
        Some(w) if w.multiword => w.span.start >= end,
        Some(w) => w.span.end > end,
    };
    let extend = |w: &Word, end: usize| {
        if w.multiword {
            end.max(w.span.end)
        } else {
            end
        }
    };
    while !beyond(gold, gi, end) || !beyond(system, si, end) {
        if gi < gold.len() && (si >= system.len() || gold[gi].span.start <= system[si].span.start) {
            end = extend(&gold[gi], end);
            gi += 1;
        } else {
            end = extend(&system[si], end);
            si += 1;
        }
    }
    (gs, ss, gi, si)
}

/// How many spans of gold and system coincide (start and end), as `spans_score` counts them.
fn spans_score(gold: &[Span], system: &[Span]) -> Score {
    let (mut gi, mut si, mut correct) = (0, 0, 0);
    while gi < gold.len() && si < system.len() {
        if system[si].start < gold[gi].start {
            si += 1;
        } else if gold[gi].start < system[si].start {
            gi += 1;
        } else {
            correct += u64::from(gold[gi].end == system[si].end);
            gi += 1;
            si += 1;
        }
    }
    Score {
        gold: gold.len() as u64,
        system: system.len() as u64,
        correct,
        aligned: 0,
    }
}

/// The gold word a system head stands for: 0 for the root, 1 + its index, or [`UNALIGNED`].
fn map_parent<S>(system: &Side<S>, parent: u32) -> u32 {
    if parent == 0 {
        0
    } else {
        system.words[parent as usize - 1].aligned.saturating_add(1)
    }
}

/// Scores an aligned chunk.
pub(crate) fn score_chunk<G, S>(gold: &Side<G>, system: &Side<S>) -> Counts {
    let mut c = Counts::default();
    c[Metric::Tokens.index()] = spans_score(&gold.tokens, &system.tokens);
    c[Metric::Sentences.index()] = spans_score(&gold.sentence_spans, &system.sentence_spans);
    // Totals of each side.
    for (words, side_is_gold) in [(&gold.words, true), (&system.words, false)] {
        let mut add = |metric: Metric, n: u64| {
            let score = &mut c[metric.index()];
            if side_is_gold {
                score.gold += n;
            } else {
                score.system += n;
            }
        };
        let n = words.len() as u64;
        let content = words.iter().filter(|w| w.content).count() as u64;
        for metric in Metric::ALL {
            match metric {
                Metric::Tokens | Metric::Sentences | Metric::Elas | Metric::Eulas => {}
                Metric::Clas | Metric::Mlas | Metric::Blex => add(metric, content),
                _ => add(metric, n),
            }
        }
        let edges = if side_is_gold {
            (0..gold.used)
                .map(|i| gold.graphs[i].edge_count())
                .sum::<usize>()
        } else {
            (0..system.used)
                .map(|i| system.graphs[i].edge_count())
                .sum::<usize>()
        } as u64;
        add(Metric::Elas, edges);
        add(Metric::Eulas, edges);
    }
    let (mut gold_keys, mut system_keys) = (Vec::new(), Vec::new());
    for g in &gold.words {
        if g.aligned == UNALIGNED {
            continue;
        }
        let s = &system.words[g.aligned as usize];
        c[Metric::Words.index()].correct += 1;
        let mut hit = |metric: Metric, correct: bool| {
            let score = &mut c[metric.index()];
            score.aligned += 1;
            score.correct += u64::from(correct);
        };
        let col = |column| (gold.column(g, column), system.column(s, column));
        let (upos, xpos, feats) = (col(UPOS), col(XPOS), (gold.feats_of(g), system.feats_of(s)));
        let lemma_ok = {
            let (gl, sl) = col(LEMMA);
            gl == "_" || gl == sl
        };
        let deprel_ok = universal(gold.column(g, DEPREL)) == universal(system.column(s, DEPREL));
        let head_ok = g.parent == map_parent(system, s.parent);
        hit(Metric::Upos, upos.0 == upos.1);
        hit(Metric::Xpos, xpos.0 == xpos.1);
        hit(Metric::UFeats, feats.0 == feats.1);
        hit(
            Metric::AllTags,
            upos.0 == upos.1 && xpos.0 == xpos.1 && feats.0 == feats.1,
        );
        hit(Metric::Lemmas, lemma_ok);
        hit(Metric::Uas, head_ok);
        hit(Metric::Las, head_ok && deprel_ok);
        if g.content {
            let las = head_ok && deprel_ok;
            hit(Metric::Clas, las);
            let children_ok = {
                let gc = &gold.children[g.children.0 as usize..g.children.1 as usize];
                let sc = &system.children[s.children.0 as usize..s.children.1 as usize];
                gc.len() == sc.len()
                    && gc.iter().zip(sc).all(|(&a, &b)| {
                        let (ga, sb) = (&gold.words[a as usize], &system.words[b as usize]);
                        sb.aligned == a
                            && universal(gold.column(ga, DEPREL))
                                == universal(system.column(sb, DEPREL))
                            && gold.column(ga, UPOS) == system.column(sb, UPOS)
                            && gold.feats_of(ga) == system.feats_of(sb)
                    })
            };
            hit(
                Metric::Mlas,
                las && upos.0 == upos.1 && feats.0 == feats.1 && children_ok,
            );
            hit(Metric::Blex, las && lemma_ok);
        }
        let (elas, eulas) = enhanced_matches(gold, system, g, s, &mut gold_keys, &mut system_keys);
        c[Metric::Elas.index()].correct += elas;
        c[Metric::Eulas.index()].correct += eulas;
        c[Metric::Elas.index()].aligned += 1;
        c[Metric::Eulas.index()].aligned += 1;
    }
    c
}

/// ELAS and EULAS matches of one aligned word pair: every (gold edge, system edge) pair with
/// the same path whose heads are both the root or aligned to each other, as the scorer's nested
/// loop counts them. `gk` and `sk` are scratch.
fn enhanced_matches<'a, G, S>(
    gold: &'a Side<G>,
    system: &'a Side<S>,
    g: &Word,
    s: &Word,
    gk: &mut Vec<(u32, &'a str)>,
    sk: &mut Vec<(u32, &'a str)>,
) -> (u64, u64) {
    let (gg, sg) = (gold.graph(g.sentence), system.graph(s.sentence));
    let gold_base = gold.sentence_bases[g.sentence as usize];
    let system_base = system.sentence_bases[s.sentence as usize];
    let gold_head = |h: u32| if h == 0 { 0 } else { gold_base + h };
    let system_head = |h: u32| {
        if h == 0 {
            0
        } else {
            system.words[(system_base + h - 1) as usize]
                .aligned
                .saturating_add(1)
        }
    };
    let (ge, se) = (gg.edges_into(g.index + 1), sg.edges_into(s.index + 1));
    let mut count = |universal_paths: bool| {
        gk.clear();
        gk.extend(ge.iter().map(|e| {
            (
                gold_head(e.head),
                if universal_paths {
                    gg.universal_path(e)
                } else {
                    gg.path(e)
                },
            )
        }));
        sk.clear();
        sk.extend(se.iter().map(|e| {
            (
                system_head(e.head),
                if universal_paths {
                    sg.universal_path(e)
                } else {
                    sg.path(e)
                },
            )
        }));
        matching_pairs(gk, sk)
    };
    (count(false), count(true))
}

/// How many (gold, system) pairs have equal keys, i.e. what the official scorer's nested loop
/// counts, computed as the sum over keys of gold count × system count in O(n log n) so that
/// adversarial input with thousands of edges per word cannot make it quadratic.
fn matching_pairs<K: Ord + Copy>(gold: &mut [K], system: &mut [K]) -> u64 {
    gold.sort_unstable();
    system.sort_unstable();
    let (mut i, mut j, mut pairs) = (0, 0, 0u64);
    while i < gold.len() && j < system.len() {
        match gold[i].cmp(&system[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let key = gold[i];
                let gold_run = gold[i..].iter().take_while(|&&k| k == key).count();
                let system_run = system[j..].iter().take_while(|&&k| k == key).count();
                pairs += (gold_run * system_run) as u64;
                i += gold_run;
                j += system_run;
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pairs_counts_like_a_nested_loop() {
        let mut gold = [3, 1, 2, 2, 5];
        let mut system = [2, 2, 2, 1, 4];
        let nested = gold
            .iter()
            .map(|g| system.iter().filter(|&s| s == g).count() as u64)
            .sum::<u64>();
        assert_eq!(matching_pairs(&mut gold, &mut system), nested);
        assert_eq!(nested, 7);
    }

    #[test]
    fn scored_features_are_universal_features() {
        for feature in SCORED_FEATURES {
            assert!(crate::ud::is_universal_feature(feature), "{feature}");
        }
    }

    #[test]
    fn zs_whitespace_is_space_separators_only() {
        assert!(is_zs(' ') && is_zs('\u{A0}') && is_zs('\u{3000}') && is_zs('\u{2009}'));
        assert!(!is_zs('\t') && !is_zs('\u{2028}') && !is_zs('a') && !is_zs('\u{200B}'));
    }
}
