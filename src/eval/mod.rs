//! Evaluation against gold: every metric of the CoNLL 2018 and IWPT 2021 shared tasks (Tokens,
//! Sentences, Words, UPOS, XPOS, UFeats, AllTags, Lemmas, UAS, LAS, CLAS, MLAS, BLEX, ELAS,
//! EULAS) computed as `iwpt21_xud_eval.py` does, on any tokenization and sentence segmentation
//! (see `align.rs`), an optional per-phenomenon breakdown (see `docs/phenomena.md`), bootstrap
//! intervals and paired tests (`bootstrap.rs`), and macro averages over pairs of files. The
//! GramEval 2020 score is another scorer's, reproduced as it was: line by line, on its own
//! reader, without alignment or tree checks (`grameval.rs`). What it reports, and how that prints as text or JSON, is in
//! `report.rs`.
//!
//! Eval is a pure scorer: it reads two annotated files and runs no rules. Naming the rule behind
//! each wrong edge (`eudify eval --by-rule`) sits above it and the engine, in `crate::by_rule`,
//! which scores through `evaluate_chunks` and reads each `AlignedChunk`.
//!
//! The files are read a chunk of sentences at a time (where both end a sentence at the same
//! character), so memory grows with the longest stretch of differently segmented text, not with
//! the files. Their text (without whitespace) must be the same; otherwise evaluation is refused
//! with an error pointing at the first difference.
//!
//! Before scoring, empty nodes are collapsed out of both graphs (`collapse.rs`), as the shared
//! task's `enhanced_collapse_empty_nodes.pl` did; the phenomenon breakdown works on the graphs
//! as they are, empty nodes included.

// The scorer's parts, private: what a client needs is re-exported below.
mod align;
mod bootstrap;
mod collapse;
mod grameval;
pub(crate) mod phenomena;
mod report;

pub(crate) use align::AlignedChunk;
pub use bootstrap::{confidence_intervals, paired_test};
pub use report::{
    Comparison, Evaluation, GramEval, Intervals, MacroReport, MeanScore, Metric, MetricComparison,
    PairReport, Phenomenon, PhenomenonScores, Report, Resampling, Score,
};

use crate::conllu::input;
use crate::conllu::NodeId;
use align::{Aligner, Leftover, Side};
use phenomena::MappedEdge;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

/// What to compute besides the IWPT scores.
#[derive(Clone, Debug, Default)]
pub struct EvalOptions {
    /// Also break enhanced edges down by phenomenon.
    pub phenomena: bool,
    /// Score as GramEval 2020's official script does instead (by position, see `grameval.rs`):
    /// the report then holds [`Report::gram_eval`] only.
    pub gram_eval: bool,
    /// Keep the counts of every unit (sentence or group of sentences), which `eudify eval
    /// --bootstrap` resamples; memory grows with the files.
    pub keep_units: bool,
}

/// Why a pair of files could not be evaluated. Displays as `FILE:LINE: message`.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A file could not be opened or read (a sentence over the size limits is reported at its
    /// line: `FILE:LINE: message`).
    #[error("{}", crate::conllu::read_error_message(file, error))]
    Io {
        /// The file's name as given (`<stdin>` for `-`).
        file: String,
        /// The reason.
        error: io::Error,
    },
    /// A sentence of either file is not valid CoNLL-U.
    #[error("{file}:{line}: {message}")]
    Parse {
        /// The file's name as given.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The system file does not have the gold file's sentences and words.
    #[error("{file}:{line}: {message}")]
    Mismatch {
        /// The system file's name.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The first difference, or why the words cannot be aligned.
        message: String,
    },
}

impl EvalError {
    /// The name of the file at fault, as messages give it.
    pub fn file(&self) -> &str {
        match self {
            EvalError::Io { file, .. }
            | EvalError::Parse { file, .. }
            | EvalError::Mismatch { file, .. } => file,
        }
    }

    /// Whether the files are at fault (a sentence that does not read, texts that differ, corrupt
    /// gzip) rather than the system (a file that cannot be read).
    pub fn is_invalid_input(&self) -> bool {
        match self {
            EvalError::Io { error, .. } => crate::error::is_invalid_data(error),
            EvalError::Parse { .. } | EvalError::Mismatch { .. } => true,
        }
    }
}

/// Evaluates the system file against the gold file. Either may be `-` (stdin) and either may
/// be gzip-compressed (recognised by its first bytes).
pub fn evaluate_files(gold: &Path, system: &Path, opts: &EvalOptions) -> Result<Report, EvalError> {
    let (gold_name, gold_reader) = open_named(gold)?;
    let (system_name, system_reader) = open_named(system)?;
    evaluate_readers(&gold_name, gold_reader, &system_name, system_reader, opts)
}

/// Scores every (gold, system) pair, in order; with `bootstrap`, each pair's F1 intervals too
/// (`options` must keep units). As in the CoNLL 2017 and IWPT 2021 shared tasks, a system file
/// that cannot be evaluated (missing, unreadable, invalid, another text) scores 0 for its pair,
/// its reason kept in [`PairReport::error`], and the average goes on; a gold file that cannot be
/// read stops everything (there is nothing to score against).
pub fn evaluate_pairs(
    pairs: &[(PathBuf, PathBuf)],
    options: &EvalOptions,
    bootstrap: Option<Resampling>,
) -> Result<MacroReport, EvalError> {
    let mut reports = Vec::with_capacity(pairs.len());
    for (gold, system) in pairs {
        let pair = |report: Report, error: Option<String>| PairReport {
            gold: gold.display().to_string(),
            system: system.display().to_string(),
            intervals: bootstrap
                .filter(|_| error.is_none())
                .map(|resampling| confidence_intervals(&report, resampling)),
            report,
            error,
        };
        reports.push(match evaluate_files(gold, system, options) {
            Ok(report) => pair(report, None),
            Err(error) if error.file() == input::display_name(gold) => return Err(error),
            Err(error) => pair(Report::zero(options), Some(error.to_string())),
        });
    }
    Ok(MacroReport { pairs: reports })
}

/// `path` opened for scoring (`-` is stdin; gzip recognised), with the name messages give it.
pub(crate) fn open_named(path: &Path) -> Result<(String, Box<dyn BufRead>), EvalError> {
    let file = input::display_name(path);
    match input::open(path) {
        Ok(reader) => Ok((file, reader)),
        Err(error) => Err(EvalError::Io { file, error }),
    }
}

/// Evaluates `system` against `gold`; the names are used in error messages.
pub fn evaluate_readers(
    gold_name: &str,
    gold: impl BufRead,
    system_name: &str,
    system: impl BufRead,
    opts: &EvalOptions,
) -> Result<Report, EvalError> {
    if opts.gram_eval {
        let gram_eval = grameval::gram_eval_readers(gold_name, gold, system_name, system)?;
        return Ok(Report::of_gram_eval(gram_eval));
    }
    evaluate_chunks(gold_name, gold, system_name, system, opts, &mut |_| {})
}

/// [`evaluate_readers`], calling `on_chunk` with each aligned chunk once it is scored.
pub(crate) fn evaluate_chunks<G: BufRead, S: BufRead>(
    gold_name: &str,
    gold: G,
    system_name: &str,
    system: S,
    opts: &EvalOptions,
    on_chunk: &mut dyn FnMut(&AlignedChunk<G, S>),
) -> Result<Report, EvalError> {
    let mut gold = Side::new(gold_name, gold);
    let mut system = Side::new(system_name, system);
    let mut report = Report::default();
    if opts.phenomena {
        report.phenomena = Some(PhenomenonScores::default());
    }
    report.keep_units = opts.keep_units;
    let mut aligner = Aligner::default();
    // Text of the current chunk checked equal on both sides so far.
    let mut checked = 0;
    loop {
        let (g_len, s_len) = (gold.text_len(), system.text_len());
        let both_started = gold.chunk_sentences() > 0 && system.chunk_sentences() > 0;
        // Both sides end a sentence at the same character: the chunk may end here, unless the
        // scorer's alignment could carry words left here over into the next chunk.
        if both_started && g_len == s_len {
            let ends = match aligner.align(&mut gold, &mut system)? {
                Leftover::None => true,
                Leftover::Gold => !system.next_starts_with_multiword()?,
                Leftover::System => !gold.next_starts_with_multiword()?,
            };
            if ends {
                let chunk = AlignedChunk {
                    gold: &gold,
                    system: &system,
                };
                finish_chunk(&mut report, &chunk);
                on_chunk(&chunk);
                gold.clear_chunk();
                system.clear_chunk();
                checked = 0;
                continue;
            }
        }
        // Read from the side that is behind (gold first when even).
        let read = if !gold.done && (g_len <= s_len || system.done) {
            gold.read_sentence()?
        } else if !system.done {
            system.read_sentence()?
        } else {
            // Both files are read.
            if g_len != s_len {
                return Err(align::text_mismatch(&gold, &system, g_len.min(s_len)));
            }
            if both_started || gold.chunk_sentences() + system.chunk_sentences() > 0 {
                // The last chunk: whatever is left over stays unaligned.
                aligner.align(&mut gold, &mut system)?;
                let chunk = AlignedChunk {
                    gold: &gold,
                    system: &system,
                };
                finish_chunk(&mut report, &chunk);
                on_chunk(&chunk);
            }
            break;
        };
        if read {
            checked = align::check_text(&gold, &system, checked)?;
        }
    }
    report.sentences = gold.total_sentences;
    report.words = gold.total_words;
    Ok(report)
}

/// Adds an aligned chunk's counts to the report.
fn finish_chunk<G, S>(report: &mut Report, chunk: &AlignedChunk<G, S>) {
    let (gold, system) = (chunk.gold, chunk.system);
    // Gold sentences before this chunk.
    let first_sentence = gold.total_sentences - gold.chunk_sentences() as u64;
    report.add(first_sentence, &align::score_chunk(gold, system));
    if let Some(phenomena) = &mut report.phenomena {
        phenomena_of_chunk(phenomena, chunk);
    }
}

/// The phenomenon breakdown of a chunk. A gold sentence and a system sentence whose words
/// align one to one in order compare directly; otherwise system edges are carried into each gold
/// sentence's numbering through the alignment ([`phenomena::add_mapped`]).
fn phenomena_of_chunk<G, S>(phenomena: &mut PhenomenonScores, chunk: &AlignedChunk<G, S>) {
    let (gold, system) = (chunk.gold, chunk.system);
    if chunk.one_to_one() {
        phenomena::add_sentence(phenomena, gold.sentence(0), system.sentence(0));
        return;
    }
    let (mut edges, mut aligned) = (Vec::new(), Vec::new());
    for gs in 0..gold.chunk_sentences() as u32 {
        let sentence = gold.sentence(gs);
        let base = gold.sentence_base(gs);
        edges.clear();
        aligned.clear();
        aligned.resize(sentence.len() + 1, false);
        for d in 1..=sentence.len() as u32 {
            let g = &gold.words[(base + d - 1) as usize];
            if g.aligned == align::UNALIGNED {
                continue;
            }
            aligned[d as usize] = true;
            let s = &system.words[g.aligned as usize];
            let (ss, s_base) = (
                system.sentence(s.sentence),
                system.sentence_base(s.sentence),
            );
            for (head, label) in ss.deps(&ss.words[s.index as usize]) {
                let mapped = if head.is_root() {
                    Some(NodeId::ROOT)
                } else if head.is_empty_node() {
                    None
                } else {
                    let target = system.words[(s_base + head.word - 1) as usize].aligned;
                    (target != align::UNALIGNED && gold.words[target as usize].sentence == gs)
                        .then(|| NodeId::word(target - base + 1))
                };
                edges.push(MappedEdge {
                    dep: d,
                    head: mapped,
                    head_is_empty: head.is_empty_node(),
                    label,
                });
            }
        }
        phenomena::add_mapped(phenomena, sentence, &edges, &aligned);
    }
    // System edges into unaligned words and into empty nodes match nothing.
    for s in system
        .words
        .iter()
        .filter(|w| w.aligned == align::UNALIGNED)
    {
        let ss = system.sentence(s.sentence);
        for (head, _) in ss.deps(&ss.words[s.index as usize]) {
            phenomena::add_unmatched_system(phenomena, head.is_empty_node());
        }
    }
    for i in 0..system.chunk_sentences() as u32 {
        let ss = system.sentence(i);
        for empty in &ss.empty_nodes {
            for _ in ss.deps(empty) {
                phenomena::add_unmatched_system(phenomena, true);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    use crate::conllu::{RawBlock, Sentence};

    /// Builds a sentence from `(id, head, deprel, deps)` rows; FORM is `w` + ID.
    pub fn sentence(rows: &[(&str, &str, &str, &str)]) -> Sentence {
        let mut text = String::new();
        for (id, head, deprel, deps) in rows {
            text.push_str(&format!(
                "{id}\tw{id}\t_\t_\t_\t_\t{head}\t{deprel}\t{deps}\t_\n"
            ));
        }
        text.push('\n');
        let block = RawBlock {
            bytes: text.into_bytes(),
            first_line: 1,
            starts_input: true,
        };
        match Sentence::parse(block) {
            Ok(s) => s,
            Err(e) => panic!("test sentence does not parse: {}", e.1),
        }
    }
}
