//! Validation after UD's `validate.py` at level 2: the basic layer's format and the enhanced layer.
//!
//! Used by `eudify validate FILE...` and by tests that check every file we write. Input is
//! streamed one sentence at a time; every error carries the input line of the offending token.
//!
//! What is checked:
//! - the basic layer and the DEPS syntax, as the CoNLL-U reader parses them (its error becomes a
//!   diagnostic and validation goes on with the next sentence): ten columns, IDs and HEADs as
//!   UD writes numbers (no leading zero), the tree; and the blank line that must end the file;
//! - the basic layer's format at UD level 2: UPOS one of the 17 tags, FEATS sorted `Name=Value`
//!   pairs, DEPREL a universal relation with an optional subtype, multiword token lines `_` but
//!   for ID, FORM and MISC (not checked: MISC, metadata such as `sent_id` and `text`);
//! - per sentence with an enhanced graph: every node has DEPS; DEPS sorted
//!   by head then label, without repeated edges; no self-loop; a `0:root` edge exists, edges from 0
//!   are `root` and `root` edges come from 0; labels have UD's enhanced shape with a known
//!   universal relation; every node is reachable from 0; empty nodes have `_` HEAD and DEPREL;
//! - per file: either every sentence has an enhanced graph or none has (a file
//!   whose DEPS are all `_` is a valid basic-only file), and, as `validate.py` does at level 3,
//!   no `orphan` edge in a file that resolves gapping with empty nodes.

mod checks;

use checks::{has_enhanced_graph, validate_basic, validate_sentence};

use crate::conllu::{input, BlockReader, Limits, ParseError, RawBlock, Sentence, TooLarge};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::Path;

/// How many diagnostics a [`Report`] keeps; all are counted in [`Report::total_errors`].
pub const MAX_DIAGNOSTICS: usize = 1000;

/// One error: the 1-based input line it is about, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The input line (from 1) the error is about, usually the offending token's.
    pub line: usize,
    /// What is wrong, in one line.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

/// The outcome of validating one input.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The file name used in printed lines.
    pub name: String,
    /// Sentences read, including those that failed to parse.
    pub sentences: usize,
    /// The first [`MAX_DIAGNOSTICS`] errors, in input order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every error found, kept or not.
    pub total_errors: usize,
}

impl Report {
    /// Whether no error was found.
    pub fn is_valid(&self) -> bool {
        self.total_errors == 0
    }

    /// Prints `FILE:LINE: message` per kept diagnostic, then a note if some were dropped.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        for d in &self.diagnostics {
            writeln!(out, "{}:{}: {}", self.name, d.line, d.message)?;
        }
        let dropped = self.total_errors.saturating_sub(self.diagnostics.len());
        if dropped > 0 {
            let (dropped, total) = (
                dropped as u64,
                crate::text::thousands(self.total_errors as u64),
            );
            writeln!(
                out,
                "{}: {} not shown ({total} in total)",
                self.name,
                crate::text::count(dropped, "more error")
            )?;
        }
        Ok(())
    }
}

/// Streaming validator of one file: feed it sentences (or their parse errors) in input order.
///
/// It holds the file-level state that single sentences cannot decide: whether the file has an
/// enhanced layer, and whether it has both empty nodes and `orphan` edges.
#[derive(Debug)]
pub(crate) struct Validator {
    report: Report,
    /// Line of the first sentence with an enhanced graph, and of the first without one.
    first_enhanced: Option<usize>,
    first_basic_only: Option<usize>,
    first_empty_node: Option<usize>,
    first_orphan: Option<usize>,
    orphan_reported: bool,
    scratch: Vec<Diagnostic>,
    /// Whether the basic layer's format is checked.
    basic_format: bool,
}

impl Validator {
    pub fn new(name: &str) -> Validator {
        Validator {
            report: Report {
                name: name.to_string(),
                ..Report::default()
            },
            first_enhanced: None,
            first_basic_only: None,
            first_empty_node: None,
            first_orphan: None,
            orphan_reported: false,
            scratch: Vec::new(),
            basic_format: true,
        }
    }

    fn push(&mut self, diagnostic: Diagnostic) {
        self.report.total_errors += 1;
        if self.report.diagnostics.len() < MAX_DIAGNOSTICS {
            self.report.diagnostics.push(diagnostic);
        }
    }

    /// A sentence that did not parse: its error is a diagnostic.
    pub fn parse_error(&mut self, error: &ParseError) {
        self.report.sentences += 1;
        self.push(Diagnostic {
            line: error.line,
            message: error.message.clone(),
        });
    }

    /// Checks a parsed sentence and its consistency with the sentences before it.
    pub fn sentence(&mut self, s: &Sentence) {
        self.report.sentences += 1;
        let mut found = std::mem::take(&mut self.scratch);
        found.clear();
        self.file_level(s, &mut found);
        if self.basic_format {
            validate_basic(s, &mut found);
        }
        validate_sentence(s, &mut found);
        found.sort_by_key(|d| d.line);
        for d in found.drain(..) {
            self.push(d);
        }
        self.scratch = found;
    }

    fn file_level(&mut self, s: &Sentence, out: &mut Vec<Diagnostic>) {
        let Some(first) = s.tokens_in_order().next() else {
            return;
        };
        let line = s.line_of(first);
        // Like validate.py, report only the first switch each way: one error is enough to show
        // the file is inconsistent, and thousands of copies would hide the other errors.
        if has_enhanced_graph(s) {
            if self.first_enhanced.is_none() {
                self.first_enhanced = Some(line);
                if let Some(basic) = self.first_basic_only {
                    let message = format!(
                        "sentence has an enhanced graph, but the sentence at line {basic} has none (all DEPS '_'): \
                         a file must have the enhanced layer in every sentence or in none"
                    );
                    out.push(Diagnostic { line, message });
                }
            }
        } else if self.first_basic_only.is_none() {
            self.first_basic_only = Some(line);
            if let Some(enhanced) = self.first_enhanced {
                let message = format!(
                    "sentence has no enhanced graph (all DEPS '_'), but the sentence at line {enhanced} has one: \
                     a file must have the enhanced layer in every sentence or in none"
                );
                out.push(Diagnostic { line, message });
            }
        }
        if self.orphan_reported {
            return;
        }
        // validate.py (level 3): empty nodes mean gapping is resolved, so no orphan may remain.
        if self.first_empty_node.is_none() {
            self.first_empty_node = s.empty_nodes.first().map(|e| s.line_of(e));
        }
        if self.first_orphan.is_none() {
            self.first_orphan = s.tokens_in_order().find_map(|t| {
                s.deps(t)
                    .any(|(_, label)| crate::ud::universal_part(label) == "orphan")
                    .then(|| s.line_of(t))
            });
        }
        if let (Some(empty), Some(orphan)) = (self.first_empty_node, self.first_orphan) {
            self.orphan_reported = true;
            let message = format!(
                "the file has an empty node (line {empty}), so gapping is resolved, but also an 'orphan' enhanced \
                 edge (line {orphan}); orphan must not appear in the enhanced graph then"
            );
            out.push(Diagnostic {
                line: empty.max(orphan),
                message,
            });
        }
    }

    /// The input ended: the errors found. (The final blank line is checked by
    /// [`validate_reader`], which sees the bytes.)
    pub fn finish(self) -> Report {
        self.report
    }
}

/// Whether a block's bytes end with a blank line (`\n` or `\r\n` alone on its line).
fn ends_with_blank_line(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_suffix(b"\n") else {
        return false;
    };
    let rest = rest.strip_suffix(b"\r").unwrap_or(rest);
    rest.is_empty() || rest.ends_with(b"\n")
}

/// Whether a block has no content line (only blank lines, as the reader defines them).
fn is_blank_block(bytes: &[u8]) -> bool {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .all(|line| line == b"\n" || line == b"\r\n")
}

/// What a validation checks beyond the parse and the enhanced layer, and how large a sentence
/// may be. The default is what `eudify validate` checks: UD level 2 on both layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The basic layer's format at UD level 2: UPOS, FEATS, DEPREL, multiword token lines.
    pub basic_format: bool,
    /// Caps on line, comment and sentence size: a sentence past one is an error, and one over
    /// [`Limits::max_sentence_bytes`] is skipped without being held whole.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            basic_format: true,
            limits: Limits::default(),
        }
    }
}

/// Validates every sentence of `input`, reading it one block at a time: the parse and the
/// enhanced layer only, the layer eudify writes (the basic layer's UPOS, FEATS and DEPREL are
/// whatever the input gave); [`validate_reader_with`] checks them too.
pub fn validate_reader(name: &str, input: impl BufRead) -> io::Result<Report> {
    let options = Options {
        basic_format: false,
        ..Options::default()
    };
    validate_reader_with(name, input, &options)
}

/// Validates every sentence of `input` as `options` say, reading it one block at a time.
pub fn validate_reader_with(
    name: &str,
    input: impl BufRead,
    options: &Options,
) -> io::Result<Report> {
    let limits = options.limits;
    let mut reader = BlockReader::with_limits(input, limits);
    let mut validator = Validator::new(name);
    validator.basic_format = options.basic_format;
    let mut sentence = Sentence::default();
    sentence.set_limits(limits);
    let mut block = RawBlock::default();
    // The last block with content: where it starts, its line count and whether it ended blank.
    let mut last: Option<(usize, usize, bool)> = None;
    loop {
        match reader.read_block(&mut block) {
            Ok(true) => {}
            Ok(false) => break,
            Err(error) => match TooLarge::of(&error) {
                Some(too_large) => {
                    // Skipped: whether it ended in a blank line is not known.
                    let error = ParseError::too_large(too_large.line, too_large.message.clone());
                    validator.parse_error(&error);
                    last = None;
                    continue;
                }
                None => return Err(error),
            },
        }
        if is_blank_block(&block.bytes) {
            continue; // blank lines after the last sentence
        }
        let lines = block.bytes.iter().filter(|&&b| b == b'\n').count()
            + usize::from(!block.bytes.ends_with(b"\n"));
        last = Some((block.first_line, lines, ends_with_blank_line(&block.bytes)));
        // On success the sentence keeps the block's bytes; on failure they come back and the
        // buffer is reused for the next read.
        match sentence.parse_into(std::mem::take(&mut block)) {
            Ok(()) => validator.sentence(&sentence),
            Err(failed) => {
                let (returned, error) = *failed;
                validator.parse_error(&error);
                block = returned;
            }
        }
    }
    if let Some((first_line, lines, false)) = last {
        let line = first_line + lines.saturating_sub(1);
        validator.push(Diagnostic {
            line,
            message: "missing blank line after the last sentence".into(),
        });
    }
    Ok(validator.finish())
}

/// Validates a file, `-` for stdin, gzip-compressed or not (recognised by its first bytes),
/// as `eudify validate` does (UD level 2 on both layers, [`Options::default`]); its path (or
/// `<stdin>`) is the name in the report.
pub fn validate_file(path: &Path) -> io::Result<Report> {
    validate_file_with(path, &Options::default())
}

/// [`validate_file`] as `options` say.
pub fn validate_file_with(path: &Path, options: &Options) -> io::Result<Report> {
    validate_reader_with(&input::display_name(path), input::open(path)?, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Moved from tests/validate.rs: `validate_sentence` is crate-private.
    #[test]
    fn validate_sentence_works_on_a_parsed_sentence() {
        let word = |id: &str, head: &str, deprel: &str, deps: &str| {
            format!("{id}\tw{id}\t_\tX\t_\t_\t{head}\t{deprel}\t{deps}\t_\n")
        };
        let text = format!(
            "# text = a b c\n{}{}{}\n",
            word("1", "2", "nsubj", "2:nsubj"),
            word("2", "0", "root", "0:root"),
            word("3", "2", "obj", "2:obj|3:dep")
        );
        let block = RawBlock {
            bytes: text.into_bytes(),
            first_line: 10,
            starts_input: false,
        };
        let sentence = Sentence::parse(block).unwrap();
        let mut out = Vec::new();
        validate_sentence(&sentence, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].line, 13);
    }
}
