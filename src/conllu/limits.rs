//! How large one line, one sentence's comments and one sentence may be.
//!
//! Memory is bounded across sentences by streaming; these caps bound it within one. Without
//! them a file with no blank line (or a gzip bomb of comment lines) is one sentence the size of
//! the input, held whole. The defaults are far above any treebank (UD's longest lines are a few
//! KB, its longest sentences some hundred KB and a few thousand words), and low enough that any
//! input stays within about 256 MB at the defaults (a sentence costs up to about nine times its
//! bytes once parsed and enhanced); each can be changed (`--max-line-bytes` … in the CLI,
//! [`Limits`] in the library). `docs/limits.md` lists them with the memory they allow.

/// Caps on the size of what is read as one sentence. A sentence past one is invalid input:
/// `FILE:LINE:` error, or copied through unchanged with `--on-error copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one line, its line end included.
    pub max_line_bytes: usize,
    /// Bytes of the comment lines (`# …`) of one sentence together.
    pub max_comment_bytes: usize,
    /// Bytes of one sentence: its lines and the blank lines after it.
    pub max_sentence_bytes: usize,
    /// Lines of one sentence (comments, words, multiword tokens, empty nodes).
    pub max_sentence_lines: usize,
}

/// The longest sentence that can be read at all: spans into a sentence are `u32` offsets.
pub const MAX_BLOCK_BYTES: usize = u32::MAX as usize;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line_bytes: 1 << 20,
            max_comment_bytes: 1 << 20,
            max_sentence_bytes: 16 << 20,
            max_sentence_lines: 500_000,
        }
    }
}

impl Limits {
    /// No cap but what a sentence can hold ([`MAX_BLOCK_BYTES`]): what a [`Sentence`](super::Sentence)
    /// parses with unless told otherwise (tests, rule examples, a reader that caps already).
    pub const NONE: Limits = Limits {
        max_line_bytes: usize::MAX,
        max_comment_bytes: usize::MAX,
        max_sentence_bytes: MAX_BLOCK_BYTES,
        max_sentence_lines: usize::MAX,
    };

    /// The sentence byte cap, never above what a sentence can hold ([`MAX_BLOCK_BYTES`]).
    pub fn sentence_bytes(&self) -> usize {
        self.max_sentence_bytes.min(MAX_BLOCK_BYTES)
    }

    /// The message for a sentence longer than [`Limits::max_sentence_bytes`].
    pub fn sentence_bytes_message(&self) -> String {
        format!(
            "sentence longer than {} bytes (the limit; --max-sentence-bytes changes it)",
            crate::text::thousands(self.sentence_bytes() as u64)
        )
    }

    /// The message for a line longer than [`Limits::max_line_bytes`].
    pub fn line_bytes_message(&self, bytes: usize) -> String {
        format!(
            "line of {} bytes: longer than {} (the limit; --max-line-bytes changes it)",
            crate::text::thousands(bytes as u64),
            crate::text::thousands(self.max_line_bytes as u64)
        )
    }

    /// The message for comments longer than [`Limits::max_comment_bytes`].
    pub fn comment_bytes_message(&self) -> String {
        format!(
            "comment lines of the sentence longer than {} bytes together (the limit; --max-comment-bytes changes it)",
            crate::text::thousands(self.max_comment_bytes as u64)
        )
    }

    /// The message for a sentence of more than [`Limits::max_sentence_lines`] lines.
    pub fn sentence_lines_message(&self) -> String {
        format!(
            "sentence of more than {} lines (the limit; --max-sentence-lines changes it)",
            crate::text::thousands(self.max_sentence_lines as u64)
        )
    }
}
