//! Streaming block reader: one sentence's bytes at a time, exactly as they are in the input.
//!
//! A block is every non-blank line of a sentence followed by the blank lines after it, so that
//! concatenating the blocks gives back the input byte for byte (blank lines at the very start of
//! the input belong to the first block). Nothing here interprets the lines: parsing is
//! [`RawBlock::parse`], which can fail without losing the block (`--on-error copy`).

use std::io::{self, BufRead};

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
    pending: Vec<u8>,
}

fn is_blank(line: &[u8]) -> bool {
    matches!(line, b"\n" | b"\r\n")
}

impl<R: BufRead> BlockReader<R> {
    pub fn new(input: R) -> Self {
        BlockReader { input, next_line: 1, started: false, pending: Vec::new() }
    }

    /// Reads the next block into `block` (its buffer is reused). Returns `false` at the end of
    /// input. Blank lines after the last sentence are a block with no content lines.
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
            let start = block.bytes.len();
            let n = self.input.read_until(b'\n', &mut block.bytes)?;
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
                    if self.input.read_until(b'\n', &mut self.pending)? == 0 || !is_blank(&self.pending) {
                        return Ok(true);
                    }
                    block.bytes.append(&mut self.pending);
                    self.next_line += 1;
                }
            }
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
}
