//! Streaming block reader: one sentence's bytes at a time, exactly as they are in the input.
//!
//! A block is every non-blank line of a sentence followed by the blank lines after it, so that
//! concatenating the blocks gives back the input byte for byte (blank lines at the very start of
//! the input belong to the first block). Nothing here interprets the lines: parsing is
//! [`RawBlock::parse`], which can fail without losing the block (`--on-error copy`).

use super::limits::Limits;
use std::io::{self, BufRead, Read};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The raw bytes of one sentence and where they start in the input.
#[derive(Clone, Debug, Default)]
pub struct RawBlock {
    pub bytes: Vec<u8>,
    /// 1-based line number of the first byte of `bytes`.
    pub first_line: usize,
    /// The block starts the input (a UTF-8 byte-order mark may precede its first line).
    pub starts_input: bool,
}

impl RawBlock {
    /// Only blank lines: what is left of an input that ends, or consists, in blank lines.
    /// It holds no sentence; writers copy it as it is. A byte-order mark that starts the input
    /// does not count as content (an "empty" file saved with a BOM).
    pub fn is_blank(&self) -> bool {
        let bytes = match self.bytes.strip_prefix(BOM) {
            Some(rest) if self.starts_input => rest,
            _ => &self.bytes[..],
        };
        bytes.iter().all(|&b| b == b'\n' || b == b'\r')
    }
}

pub struct BlockReader<R> {
    input: R,
    /// Number of the next line not yet in a block.
    next_line: usize,
    started: bool,
    /// A content line read while looking for more blank lines: the first line of the next
    /// block. Reading ahead a whole line (rather than peeking at the buffer) keeps the block
    /// boundaries independent of where the input's buffer happens to end, e.g. inside `\r\n`.
    /// Read as any line is, so at most `read_cap + 1` bytes of it.
    pending: Vec<u8>,
    /// No block is read whole past this many bytes: the rest of a longer one is skipped.
    read_cap: usize,
    limits: Limits,
}

fn is_blank(line: &[u8]) -> bool {
    matches!(line, b"\n" | b"\r\n")
}

/// A block over [`Limits::max_sentence_bytes`], skipped by [`BlockReader::read_block`]: the
/// [`io::Error`] it returns (of kind [`io::ErrorKind::InvalidData`]) carries one, with the
/// line the block starts on. The reader can go on with the next block.
#[derive(Debug)]
pub struct TooLarge {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The line is the reader's to give (`FILE:LINE:`): [`read_error_message`].
        f.write_str(&self.message)
    }
}

impl std::error::Error for TooLarge {}

impl TooLarge {
    /// The [`TooLarge`] an I/O error from [`BlockReader::read_block`] is, if it is one.
    pub fn of(error: &io::Error) -> Option<&TooLarge> {
        error.get_ref()?.downcast_ref::<TooLarge>()
    }
}

/// An error reading `file`, as messages give it: `FILE:LINE: message` for a block over the
/// size limits (bad input at a line, like any other), else `FILE: error`.
pub fn read_error_message(file: &str, error: &io::Error) -> String {
    match TooLarge::of(error) {
        Some(too_large) => format!("{file}:{}: {}", too_large.line, too_large.message),
        None => format!("{file}: {error}"),
    }
}

impl<R: BufRead> BlockReader<R> {
    /// A reader that holds no block past the default [`Limits`].
    pub fn new(input: R) -> Self {
        Self::with_limits(input, Limits::default())
    }

    /// A reader that holds no block past `limits.max_sentence_bytes`.
    pub fn with_limits(input: R, limits: Limits) -> Self {
        BlockReader { input, next_line: 1, started: false, pending: Vec::new(), read_cap: limits.sentence_bytes(), limits }
    }

    /// A reader for a piece of an input that starts at line `first_line`, cut where a block
    /// ends (see [`ChunkReader`]); it numbers lines and blocks as a reader of the whole would.
    /// The piece is in memory already, so its blocks are read whole whatever their size (the
    /// size is for [`Sentence`](super::Sentence) parsing to check).
    pub fn continuing(input: R, first_line: usize, starts_input: bool) -> Self {
        let limits = Limits::default();
        BlockReader { input, next_line: first_line, started: !starts_input, pending: Vec::new(), read_cap: usize::MAX, limits }
    }

    /// Number of the next line not yet in a block.
    pub fn next_line(&self) -> usize {
        self.next_line
    }

    /// Appends the next line to `buf`, but no more than makes `buf` one byte longer than the
    /// cap: a long line is never read whole. Returns the bytes read (0 at the end of input).
    fn read_line(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let room = self.read_cap.saturating_add(1).saturating_sub(buf.len());
        (&mut self.input).take(room as u64).read_until(b'\n', buf)
    }

    /// Reads the next block into `block` (its buffer is reused). Returns `false` at the end of
    /// input. Blank lines after the last sentence are a block with no content lines.
    ///
    /// A block longer than the reader's cap is skipped to its end without being held whole,
    /// and reported as an [`io::ErrorKind::InvalidData`] error holding a [`TooLarge`]; reading
    /// can go on after it.
    pub fn read_block(&mut self, block: &mut RawBlock) -> io::Result<bool> {
        block.bytes.clear();
        block.first_line = self.next_line;
        block.starts_input = !self.started;
        self.started = true;
        let mut seen_content = !self.pending.is_empty();
        if seen_content {
            block.bytes.append(&mut self.pending);
            self.next_line += 1;
        }
        loop {
            if block.bytes.len() > self.read_cap {
                return Err(self.skip_block(block, seen_content));
            }
            let start = block.bytes.len();
            let n = self.read_line(&mut block.bytes)?;
            if n == 0 {
                return Ok(!block.bytes.is_empty());
            }
            self.next_line += 1;
            if !is_blank(&block.bytes[start..]) {
                seen_content = true;
                continue;
            }
            if seen_content {
                // Take every further blank line too, so the next block starts with content.
                loop {
                    let mut pending = std::mem::take(&mut self.pending);
                    let n = self.read_line(&mut pending)?;
                    self.pending = pending;
                    if n == 0 || !is_blank(&self.pending) {
                        return Ok(true);
                    }
                    block.bytes.append(&mut self.pending);
                    self.next_line += 1;
                    if block.bytes.len() > self.read_cap {
                        return Err(self.skip_block(block, true));
                    }
                }
            }
        }
    }

    /// Reads past the rest of a block found longer than the cap (`block` holds its start, the
    /// last line counted, complete or not), leaving the next block's first line in `pending`.
    /// Returns the error that reports it.
    fn skip_block(&mut self, block: &mut RawBlock, seen_content: bool) -> io::Error {
        let error = TooLarge { line: block.first_line, message: self.limits.sentence_bytes_message() };
        match self.skip_rest(block, seen_content) {
            Ok(()) => io::Error::new(io::ErrorKind::InvalidData, error),
            Err(e) => e,
        }
    }

    fn skip_rest(&mut self, block: &mut RawBlock, mut seen_content: bool) -> io::Result<()> {
        let bytes = std::mem::take(&mut block.bytes);
        let last_line_start = memchr::memrchr(b'\n', &bytes[..bytes.len().saturating_sub(1)]).map_or(0, |i| i + 1);
        let last_line = &bytes[last_line_start..];
        let mut after_blank = false;
        if last_line == b"\r" && self.input.fill_buf()?.first() == Some(&b'\n') {
            // A blank `\r\n` cut in two.
            self.input.consume(1);
            after_blank = seen_content;
        } else if !last_line.ends_with(b"\n") {
            // Cut inside a line: a content line (a blank one is too short to be cut).
            seen_content = true;
            self.skip_line()?;
        } else if is_blank(last_line) {
            after_blank = seen_content;
        } else {
            seen_content = true;
        }
        block.bytes = bytes;
        block.bytes.clear();
        loop {
            // Two bytes tell a blank line (`\n`, `\r\n`) from the start of any other.
            self.pending.clear();
            let mut head = std::mem::take(&mut self.pending);
            let n = (&mut self.input).take(2).read_until(b'\n', &mut head)?;
            self.pending = head;
            if n == 0 {
                return Ok(());
            }
            if is_blank(&self.pending) {
                self.next_line += 1;
                after_blank = seen_content;
                continue;
            }
            if after_blank {
                // The next block's first line: kept, as `read_block` keeps it.
                if !self.pending.ends_with(b"\n") {
                    let mut pending = std::mem::take(&mut self.pending);
                    self.read_line(&mut pending)?;
                    self.pending = pending;
                }
                return Ok(());
            }
            seen_content = true;
            if !self.pending.ends_with(b"\n") {
                self.skip_line()?;
            }
            self.next_line += 1;
            self.pending.clear();
        }
    }

    /// Reads past the rest of the current line, its `\n` included, a buffer at a time.
    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            let buffer = self.input.fill_buf()?;
            if buffer.is_empty() {
                return Ok(());
            }
            match memchr::memchr(b'\n', buffer) {
                Some(i) => {
                    self.input.consume(i + 1);
                    return Ok(());
                }
                None => {
                    let n = buffer.len();
                    self.input.consume(n);
                }
            }
        }
    }
}

/// Reads an input in pieces of about `target` bytes that end where a block ends, so that the
/// pieces can be split into blocks independently (on other threads) with the same result as
/// reading the whole. Finding a cut looks at the bytes after `target` only: lines are not
/// copied one by one as [`BlockReader`] does.
pub struct ChunkReader<R> {
    input: R,
    /// Bytes read past the last cut: the start of the next chunk.
    carry: Vec<u8>,
    at_start: bool,
    eof: bool,
    /// A chunk never grows this far past its target: the block that would make it is over
    /// [`Limits::max_sentence_bytes`].
    block_cap: usize,
    /// `carry` starts with a block over the cap (and whether that block starts the input),
    /// to be passed on by [`ChunkReader::pass_oversized_block`].
    oversized: Option<bool>,
}

/// Bytes read at a time past the target size while looking for the end of a block.
const READ_AHEAD: usize = 4096;

/// Where a chunk can end.
enum Cut {
    At(usize),
    /// The bytes so far end before a cut could be decided: read more.
    NeedMore,
    /// No block ends in these bytes (at the end of input: the rest is one chunk).
    None,
}

/// How far the search for a cut has got in a growing chunk. The search resumes where it
/// stopped when more bytes come, so a block of any length is scanned once (a file with no
/// blank line used to be rescanned from the target on every read: quadratic).
#[derive(Clone, Copy, Debug)]
enum CutSearch {
    /// At the start of the input, in its leading blank lines (they belong to the first block).
    Leading(usize),
    /// In the first content line of the input: no cut before its end.
    FirstLine(usize),
    /// Looking for a newline at or after this position that ends a blank line.
    Lines(usize),
    /// After a blank line: this position starts a line, and the cut is at the first line
    /// here or later that is not blank.
    AfterBlank(usize),
}

impl<R: BufRead> ChunkReader<R> {
    /// A reader whose chunks hold no block over the default [`Limits`].
    pub fn new(input: R) -> Self {
        Self::with_limits(input, Limits::default())
    }

    /// A reader whose chunks hold no block over `limits.max_sentence_bytes`.
    pub fn with_limits(input: R, limits: Limits) -> Self {
        ChunkReader { input, carry: Vec::new(), at_start: true, eof: false, block_cap: limits.sentence_bytes(), oversized: None }
    }

    /// Replaces `chunk` with the next piece of input: whole blocks, at least `target` bytes
    /// unless the input ends first or a block over the size cap follows. Returns whether it
    /// starts the input; `chunk` is empty at the end of input.
    ///
    /// When a block over the cap comes, the chunk ends before it (it may be empty then) and
    /// [`ChunkReader::at_oversized_block`] says so: the block must be passed on with
    /// [`ChunkReader::pass_oversized_block`] before the next chunk is read.
    pub fn read_chunk(&mut self, chunk: &mut Vec<u8>, target: usize) -> io::Result<bool> {
        debug_assert!(self.oversized.is_none(), "an oversized block was not passed on");
        chunk.clear();
        std::mem::swap(chunk, &mut self.carry);
        let starts_input = std::mem::replace(&mut self.at_start, false);
        let target = target.max(1);
        let mut search = if starts_input { CutSearch::Leading(0) } else { CutSearch::Lines(target - 1) };
        loop {
            if chunk.len() >= target || self.eof {
                match find_cut(chunk, &mut search, target, self.eof) {
                    Cut::At(at) => {
                        self.carry.extend_from_slice(&chunk[at..]);
                        chunk.truncate(at);
                        return Ok(starts_input);
                    }
                    Cut::None if self.eof => return Ok(starts_input),
                    Cut::None | Cut::NeedMore => {}
                }
                // No cut since the target: the last block is longer than the bytes past it.
                if chunk.len() - target.min(chunk.len()) > self.block_cap {
                    let at = last_block_start(chunk, starts_input);
                    self.carry.extend_from_slice(&chunk[at..]);
                    chunk.truncate(at);
                    self.oversized = Some(starts_input && at == 0);
                    return Ok(starts_input);
                }
            }
            let buffer = self.input.fill_buf()?;
            if buffer.is_empty() {
                self.eof = true;
                continue;
            }
            // Take no more than needed: an input in memory offers all of itself at once,
            // and what is past the cut is copied again into the next chunk. Past the target
            // (a long block), take what grows with the chunk, so that it takes few reads.
            let want = target.saturating_sub(chunk.len()).max(READ_AHEAD).max(chunk.len() / 8);
            let n = buffer.len().min(want);
            chunk.extend_from_slice(&buffer[..n]);
            self.input.consume(n);
        }
    }
}

impl<R: BufRead> ChunkReader<R> {
    /// Whether the last [`ChunkReader::read_chunk`] stopped before a block over the size cap.
    pub fn at_oversized_block(&self) -> bool {
        self.oversized.is_some()
    }

    /// Hands the block over the size cap that [`ChunkReader::read_chunk`] stopped before to
    /// `sink`, a piece at a time (never held whole), and returns how many line ends it held.
    /// Errors reading are turned into `E` by `read_error`.
    pub fn pass_oversized_block<E>(
        &mut self,
        mut sink: impl FnMut(&[u8]) -> Result<(), E>,
        read_error: impl Fn(io::Error) -> E,
    ) -> Result<usize, E> {
        let Some(starts_input) = self.oversized.take() else {
            return Ok(0);
        };
        let mut bytes = std::mem::take(&mut self.carry);
        let mut search = if starts_input { CutSearch::Leading(0) } else { CutSearch::Lines(0) };
        let mut lines = 0;
        // Hands on the first `to` bytes.
        let mut pass = |bytes: &mut Vec<u8>, to: usize, lines: &mut usize| -> Result<(), E> {
            *lines += memchr::memchr_iter(b'\n', &bytes[..to]).count();
            sink(&bytes[..to])?;
            bytes.drain(..to);
            Ok(())
        };
        loop {
            let (to, done) = match find_cut(&bytes, &mut search, 1, self.eof) {
                Cut::At(at) => (at, true),
                Cut::None => (bytes.len(), true),
                // What the search has passed goes on, but the two bytes before it: whether a
                // line is blank is told by the bytes before its `\n`.
                Cut::NeedMore => (search.position().saturating_sub(2), false),
            };
            pass(&mut bytes, to, &mut lines)?;
            if done {
                self.carry = bytes;
                return Ok(lines);
            }
            search = search.moved_back(to);
            let buffer = self.input.fill_buf().map_err(&read_error)?;
            if buffer.is_empty() {
                self.eof = true;
                continue;
            }
            let n = buffer.len().min(16 * READ_AHEAD);
            bytes.extend_from_slice(&buffer[..n]);
            self.input.consume(n);
        }
    }
}

impl CutSearch {
    /// Where the search has got to.
    fn position(self) -> usize {
        match self {
            CutSearch::Leading(at) | CutSearch::FirstLine(at) | CutSearch::Lines(at) | CutSearch::AfterBlank(at) => at,
        }
    }

    /// The same search in the bytes with the first `by` removed.
    fn moved_back(self, by: usize) -> CutSearch {
        match self {
            CutSearch::Leading(at) => CutSearch::Leading(at - by),
            CutSearch::FirstLine(at) => CutSearch::FirstLine(at - by),
            CutSearch::Lines(at) => CutSearch::Lines(at - by),
            CutSearch::AfterBlank(at) => CutSearch::AfterBlank(at - by),
        }
    }
}

/// Where the last block that starts in `bytes` starts (blocks as [`BlockReader`] cuts them;
/// `starts_input`: `bytes` are the start of the input).
fn last_block_start(bytes: &[u8], starts_input: bool) -> usize {
    let mut search = if starts_input { CutSearch::Leading(0) } else { CutSearch::Lines(0) };
    let mut start = 0;
    while let Cut::At(at) = find_cut(bytes, &mut search, start + 1, false) {
        start = at;
        search = CutSearch::Lines(at);
    }
    start
}

/// Goes on with `search` through `bytes` (which only grew since the last call): the first
/// position where blank lines that end at or after `target` stop and a content line starts,
/// which is where the block before ends. Leading blank lines of the input and its first
/// content line are never cut (`BlockReader` puts them in the first block).
fn find_cut(bytes: &[u8], search: &mut CutSearch, target: usize, eof: bool) -> Cut {
    let end_of_bytes = if eof { Cut::None } else { Cut::NeedMore };
    loop {
        match *search {
            CutSearch::Leading(at) => match &bytes[at..] {
                [] => return end_of_bytes,
                [b'\n', ..] => *search = CutSearch::Leading(at + 1),
                [b'\r', b'\n', ..] => *search = CutSearch::Leading(at + 2),
                [b'\r'] if !eof => return Cut::NeedMore,
                _ => *search = CutSearch::FirstLine(at),
            },
            CutSearch::FirstLine(at) => match memchr::memchr(b'\n', &bytes[at..]) {
                None => {
                    *search = CutSearch::FirstLine(bytes.len());
                    return end_of_bytes;
                }
                Some(i) => *search = CutSearch::Lines((at + i + 1).max(target) - 1),
            },
            CutSearch::Lines(from) => {
                let from = from.min(bytes.len());
                let Some(j) = memchr::memchr(b'\n', &bytes[from..]).map(|i| from + i) else {
                    *search = CutSearch::Lines(bytes.len());
                    return end_of_bytes;
                };
                // Is the line ending at `j` blank: "\n" or "\r\n" right after another line's "\n"?
                let blank = (j >= 1 && bytes[j - 1] == b'\n') || (j >= 2 && bytes[j - 1] == b'\r' && bytes[j - 2] == b'\n');
                *search = if blank { CutSearch::AfterBlank(j + 1) } else { CutSearch::Lines(j + 1) };
            }
            CutSearch::AfterBlank(at) => match &bytes[at..] {
                [] => return end_of_bytes,
                [b'\n', ..] => *search = CutSearch::AfterBlank(at + 1),
                [b'\r', b'\n', ..] => *search = CutSearch::AfterBlank(at + 2),
                [b'\r'] if !eof => return Cut::NeedMore,
                _ => return Cut::At(at),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(input: &[u8]) -> Vec<(usize, Vec<u8>)> {
        let mut reader = BlockReader::new(input);
        let mut block = RawBlock::default();
        let mut out = Vec::new();
        while reader.read_block(&mut block).unwrap() {
            out.push((block.first_line, block.bytes.clone()));
        }
        out
    }

    #[test]
    fn splits_on_blank_lines_and_keeps_every_byte() {
        let input = b"\n# a\n1\tx\n\n\n2\ty\r\n\r\n3\tz";
        let got = blocks(input);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (1, b"\n# a\n1\tx\n\n\n".to_vec()));
        assert_eq!(got[1], (6, b"2\ty\r\n\r\n".to_vec()));
        assert_eq!(got[2], (8, b"3\tz".to_vec()));
        let joined: Vec<u8> = got.into_iter().flat_map(|(_, b)| b).collect();
        assert_eq!(joined, input);
    }

    /// Blocks of `input` read chunk by chunk (chunks of about `target` bytes, the input
    /// buffered `capacity` bytes at a time), numbered as a reader of the whole numbers them.
    fn blocks_by_chunks(input: &[u8], target: usize, capacity: usize) -> Vec<(usize, Vec<u8>)> {
        let mut chunks = ChunkReader::new(std::io::BufReader::with_capacity(capacity, input));
        let mut chunk = Vec::new();
        let mut out = Vec::new();
        let mut line = 1;
        loop {
            let starts_input = chunks.read_chunk(&mut chunk, target).unwrap();
            if chunk.is_empty() {
                return out;
            }
            let mut reader = BlockReader::continuing(&chunk[..], line, starts_input);
            let mut block = RawBlock::default();
            while reader.read_block(&mut block).unwrap() {
                assert_eq!(block.starts_input, out.is_empty());
                out.push((block.first_line, block.bytes.clone()));
            }
            line = reader.next_line();
        }
    }

    #[test]
    fn chunks_split_into_the_same_blocks_as_the_whole() {
        let inputs: [&[u8]; 9] = [
            b"\n# a\n1\tx\n\n\n2\ty\r\n\r\n3\tz",
            b"\n\n\r\n1\tx\n\n2\ty\n\n",
            b"1\tx\n\n\r",
            b"1\tx\n\n\r\n\rz\n\n\n",
            b"1\n\n2\n\n3\n\n4\n\n5\n",
            b"\xEF\xBB\xBF\n\n1\n\n",
            b"\n\n\n",
            b"",
            b"1\r\n\r\n\r\n2\r\n\r\n",
        ];
        for input in inputs {
            let whole = blocks(input);
            for target in [1, 2, 3, 5, 8, 1000] {
                for capacity in [1, 2, 7, 64] {
                    assert_eq!(blocks_by_chunks(input, target, capacity), whole, "{input:?} target {target} capacity {capacity}");
                }
            }
        }
    }

    fn small(max_sentence_bytes: usize) -> Limits {
        Limits { max_sentence_bytes, ..Limits::default() }
    }

    /// A block over the cap is skipped and reported on its first line; the blocks around it
    /// are read as without a cap, numbered as before. Whatever the buffer size.
    #[test]
    fn a_block_over_the_cap_is_skipped_and_reading_goes_on() {
        let long = "x".repeat(100);
        let inputs = [
            (format!("1\ta\n\n# {long}\n1\tb\n\n1\tc\n\n"), 3, vec![(1, "1\ta\n\n"), (6, "1\tc\n\n")]),
            (format!("1\ta\n\n1\t{long}"), 3, vec![(1, "1\ta\n\n")]),
            (format!("1\ta\n{}1\tc\n", "\n".repeat(100)), 1, vec![(102, "1\tc\n")]),
            (format!("1\ta\n\n{long}\r\n\r\n\r\n2\tb\n"), 3, vec![(1, "1\ta\n\n"), (6, "2\tb\n")]),
        ];
        for (input, too_large_at, expected) in inputs {
            for capacity in [1, 3, 64] {
                let mut reader = BlockReader::with_limits(std::io::BufReader::with_capacity(capacity, input.as_bytes()), small(20));
                let mut block = RawBlock::default();
                let (mut got, mut errors) = (Vec::new(), Vec::new());
                loop {
                    match reader.read_block(&mut block) {
                        Ok(true) => got.push((block.first_line, String::from_utf8(block.bytes.clone()).unwrap())),
                        Ok(false) => break,
                        Err(e) => errors.push(TooLarge::of(&e).expect("a TooLarge").line),
                    }
                }
                let expected: Vec<(usize, String)> = expected.iter().map(|(l, b)| (*l, b.to_string())).collect();
                assert_eq!((got, errors), (expected, vec![too_large_at]), "{input:?} capacity {capacity}");
            }
        }
    }

    /// A chunk stops before a block over the cap; the block is passed on in pieces, all of it
    /// and nothing more, and the chunks after it are cut as before.
    #[test]
    fn a_chunk_stops_before_a_block_over_the_cap_which_is_passed_on() {
        let long = format!("# {}\n1\tb\n\n", "x".repeat(5000));
        let input = format!("{}{long}{}", "1\ta\n\n".repeat(10), "1\tc\n\n".repeat(10));
        for target in [1, 7, 64] {
            for starts_with_it in [false, true] {
                let input = if starts_with_it { format!("{long}1\tc\n\n") } else { input.clone() };
                let mut chunks = ChunkReader::with_limits(std::io::BufReader::with_capacity(100, input.as_bytes()), small(1000));
                let (mut chunk, mut joined, mut passed) = (Vec::new(), Vec::new(), Vec::new());
                loop {
                    chunks.read_chunk(&mut chunk, target).unwrap();
                    joined.extend_from_slice(&chunk);
                    if chunks.at_oversized_block() {
                        let mut pieces = Vec::new();
                        let lines = chunks.pass_oversized_block(|bytes| -> Result<(), ()> {
                            pieces.extend_from_slice(bytes);
                            Ok(())
                        }, |_| ()).unwrap();
                        assert_eq!(lines, 3);
                        joined.extend_from_slice(&pieces);
                        passed.push(pieces);
                    } else if chunk.is_empty() {
                        break;
                    }
                }
                assert_eq!(String::from_utf8(joined).unwrap(), input, "target {target}");
                assert_eq!(passed, vec![long.as_bytes().to_vec()], "target {target}");
            }
        }
    }
}
