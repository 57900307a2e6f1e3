//! Evaluation of enhanced graphs against gold: the IWPT 2021 shared-task scores (ELAS, EULAS,
//! LAS) computed exactly as `iwpt21_xud_eval.py` does with gold tokenization, and an optional
//! per-phenomenon breakdown (see `docs/phenomena.md`).
//!
//! Both files are read sentence by sentence in lockstep, so memory does not grow with their size.
//! Words must align 1:1: the files must have the same sentences with the same words (same count,
//! same FORMs), otherwise evaluation is refused with an error pointing into the system file.
//!
//! Before scoring, empty nodes are collapsed out of both graphs ([`collapse`]), as the shared
//! task's `enhanced_collapse_empty_nodes.pl` did; the phenomenon breakdown works on the graphs
//! as they are, empty nodes included.

pub mod collapse;
pub mod phenomena;
pub mod score;

pub use phenomena::{Phenomenon, PhenomenonScores};
pub use score::{Report, Score};

use crate::conllu::sentence::FORM;
use crate::conllu::{input, BlockReader, RawBlock, Sentence};
use collapse::CollapsedGraph;
use std::io::{self, BufRead};
use std::path::Path;

/// What to compute besides the IWPT scores.
#[derive(Clone, Debug, Default)]
pub struct EvalOptions {
    /// Also break enhanced edges down by phenomenon.
    pub phenomena: bool,
}

/// Why a pair of files could not be evaluated. Displays as `FILE:LINE: message`.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A file could not be opened or read.
    #[error("{file}: {error}")]
    Io { file: String, error: io::Error },
    /// A sentence of either file is not valid CoNLL-U.
    #[error("{file}:{line}: {message}")]
    Parse {
        file: String,
        line: usize,
        message: String,
    },
    /// The system file does not have the gold file's sentences and words.
    #[error("{file}:{line}: {message}")]
    Mismatch {
        file: String,
        line: usize,
        message: String,
    },
}

/// Evaluates the system file against the gold file. Either may be `-` (stdin) and either may
/// be gzip-compressed (see [`crate::conllu::input`]).
pub fn evaluate_files(gold: &Path, system: &Path, opts: &EvalOptions) -> Result<Report, EvalError> {
    let open = |path: &Path| {
        let file = input::display_name(path);
        match input::open(path) {
            Ok(reader) => Ok((file, reader)),
            Err(error) => Err(EvalError::Io { file, error }),
        }
    };
    let (gold_name, gold_reader) = open(gold)?;
    let (system_name, system_reader) = open(system)?;
    evaluate_readers(&gold_name, gold_reader, &system_name, system_reader, opts)
}

/// Evaluates `system` against `gold`; the names are used in error messages.
pub fn evaluate_readers(
    gold_name: &str,
    gold: impl BufRead,
    system_name: &str,
    system: impl BufRead,
    opts: &EvalOptions,
) -> Result<Report, EvalError> {
    let mut gold = SentenceSource::new(gold_name, gold);
    let mut system = SentenceSource::new(system_name, system);
    let mut report = Report::default();
    if opts.phenomena {
        report.phenomena = Some(PhenomenonScores::default());
    }
    let (mut gold_graph, mut system_graph) = (CollapsedGraph::default(), CollapsedGraph::default());
    loop {
        let has_gold = gold.advance()?;
        let has_system = system.advance()?;
        match (has_gold, has_system) {
            (false, false) => break,
            (true, false) => {
                let message = format!(
                    "system file ends after {}, but gold has more (next at {}:{})",
                    crate::text::count(report.sentences, "sentence"), gold.name, gold.sentence.first_line
                );
                return Err(system.mismatch(system.end_line, message));
            }
            (false, true) => {
                let message = format!(
                    "system file has more sentences than gold ({})",
                    report.sentences
                );
                return Err(system.mismatch(system.sentence.first_line, message));
            }
            (true, true) => {}
        }
        check_alignment(&gold, &system, report.sentences + 1)?;
        let (g, s) = (&gold.sentence, &system.sentence);
        gold_graph.build(g).map_err(|e| gold.too_many_paths(e))?;
        system_graph
            .build(s)
            .map_err(|e| system.too_many_paths(e))?;
        let (elas, eulas) = score::enhanced_scores(&gold_graph, &system_graph);
        report.elas.add(elas);
        report.eulas.add(eulas);
        report.las.add(score::basic_score(g, s));
        if let Some(phenomena) = &mut report.phenomena {
            phenomena.add_sentence(g, s);
        }
        report.sentences += 1;
        report.words += g.len() as u64;
    }
    Ok(report)
}

/// Refuses sentence pairs whose words do not correspond: same count and same FORMs.
fn check_alignment<G, S>(
    gold: &SentenceSource<G>,
    system: &SentenceSource<S>,
    number: u64,
) -> Result<(), EvalError> {
    let (g, s) = (&gold.sentence, &system.sentence);
    let which = match g.comment("sent_id") {
        Some(id) => format!("sentence {number} (gold sent_id {id})"),
        None => format!("sentence {number}"),
    };
    if g.len() != s.len() {
        let message = format!(
            "{which} has {} words in the system file but {} in gold ({}:{})",
            s.len(),
            g.len(),
            gold.name,
            g.first_line
        );
        return Err(system.mismatch(s.first_line, message));
    }
    for (gw, sw) in g.words.iter().zip(&s.words) {
        let (gold_form, system_form) = (g.column(gw, FORM), s.column(sw, FORM));
        if gold_form != system_form {
            let message = format!(
                "{which}, word {}: FORM '{system_form}' differs from gold '{gold_form}' ({}:{})",
                sw.id,
                gold.name,
                g.line_of(gw)
            );
            return Err(system.mismatch(s.line_of(sw), message));
        }
    }
    Ok(())
}

/// One input file, read a sentence at a time into reused buffers.
struct SentenceSource<R> {
    name: String,
    reader: BlockReader<R>,
    sentence: Sentence,
    /// Line number just past everything read so far.
    end_line: usize,
}

impl<R: BufRead> SentenceSource<R> {
    fn new(name: &str, input: R) -> Self {
        SentenceSource {
            name: name.to_string(),
            reader: BlockReader::new(input),
            sentence: Sentence::default(),
            end_line: 1,
        }
    }

    /// Reads and parses the next sentence into `self.sentence`; `false` at the end of input.
    fn advance(&mut self) -> Result<bool, EvalError> {
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
            return match self.sentence.parse_into(std::mem::take(&mut block)) {
                Ok(()) => Ok(true),
                Err(e) => {
                    let (_, error) = *e;
                    Err(EvalError::Parse {
                        file: self.name.clone(),
                        line: error.line,
                        message: error.message,
                    })
                }
            };
        }
    }
}

impl<R> SentenceSource<R> {
    fn mismatch(&self, line: usize, message: String) -> EvalError {
        EvalError::Mismatch {
            file: self.name.clone(),
            line,
            message,
        }
    }

    fn too_many_paths(&self, e: collapse::TooManyPaths) -> EvalError {
        let line = (e.word as usize)
            .checked_sub(1)
            .and_then(|i| self.sentence.words.get(i))
            .map_or(self.sentence.first_line, |w| self.sentence.line_of(w));
        let message = format!(
            "collapsing empty nodes takes more than {} steps in this sentence (too many paths through empty nodes)",
            collapse::MAX_COLLAPSE_WORK
        );
        EvalError::Parse {
            file: self.name.clone(),
            line,
            message,
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
