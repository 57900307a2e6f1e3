//! Writes a sentence back: every line as it was read, except DEPS and the empty-node lines when
//! an enhanced layer replaces them.

use super::id::NodeId;
use super::sentence::{LineKind, Sentence, DEPS};
use std::ops::Range;

/// An enhanced layer to write in place of the input's: DEPS of every word and the empty nodes.
/// Filled by the sentence graph; its buffers are reused from sentence to sentence.
#[derive(Clone, Debug, Default)]
pub struct EnhancedLayer {
    text: Vec<u8>,
    word_deps: Vec<Range<u32>>,
    empty_nodes: Vec<EmptyNodeLine>,
}

#[derive(Clone, Debug)]
struct EmptyNodeLine {
    id: NodeId,
    /// Everything after the ID column: `\tFORM\t...\tMISC`, without the line terminator.
    rest: Range<u32>,
}

impl EnhancedLayer {
    pub fn clear(&mut self) {
        self.text.clear();
        self.word_deps.clear();
        self.empty_nodes.clear();
    }

    /// Buffer to append a DEPS value to, followed by [`EnhancedLayer::end_word_deps`].
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.text
    }

    pub fn mark(&self) -> u32 {
        self.text.len() as u32
    }

    /// Records the bytes appended since `start` as the DEPS of the next word (words in order).
    pub fn end_word_deps(&mut self, start: u32) {
        self.word_deps.push(start..self.text.len() as u32);
    }

    /// Records the bytes appended since `start` as the columns after ID of empty node `id`.
    /// Empty nodes must be added in `NodeId` order.
    pub fn end_empty_node(&mut self, id: NodeId, start: u32) {
        debug_assert!(self.empty_nodes.last().is_none_or(|e| e.id < id));
        self.empty_nodes.push(EmptyNodeLine { id, rest: start..self.text.len() as u32 });
    }

    pub fn word_deps(&self, n: u32) -> &[u8] {
        let r = &self.word_deps[n as usize - 1];
        &self.text[r.start as usize..r.end as usize]
    }
}

/// Appends `sentence` to `out`, with `layer` replacing DEPS and empty nodes if given.
pub fn write_sentence(out: &mut Vec<u8>, sentence: &Sentence, layer: Option<&EnhancedLayer>) {
    let bytes = sentence.bytes();
    let Some(layer) = layer else {
        out.extend_from_slice(bytes);
        return;
    };
    debug_assert_eq!(layer.word_deps.len(), sentence.words.len());
    let mut empties = layer.empty_nodes.iter().peekable();
    let mut last_terminator: &[u8] = b"\n";
    for line in &sentence.lines {
        let line_bytes = &bytes[line.bytes.range()];
        match line.kind {
            LineKind::Verbatim | LineKind::Multiword => out.extend_from_slice(line_bytes),
            LineKind::Empty(_) => {}
            LineKind::Word(i) => {
                let word = &sentence.words[i as usize];
                let n = word.id.word;
                if n == 1 {
                    while let Some(e) = empties.next_if(|e| e.id.word == 0) {
                        write_empty_node(out, layer, e, terminator(line_bytes));
                    }
                }
                let deps = word.columns[DEPS].range();
                let line_start = line.bytes.start as usize;
                out.extend_from_slice(&bytes[line_start..deps.start]);
                out.extend_from_slice(layer.word_deps(n));
                out.extend_from_slice(&bytes[deps.end..line.bytes.end as usize]);
                let mut term = terminator(line_bytes);
                if empties.peek().is_some_and(|e| e.id.word == n) && term.is_empty() {
                    // The input's last line had no terminator; an empty node follows it now.
                    term = last_terminator;
                    out.extend_from_slice(term);
                }
                while let Some(e) = empties.next_if(|e| e.id.word == n) {
                    write_empty_node(out, layer, e, term);
                }
                if !term.is_empty() {
                    last_terminator = term;
                }
            }
        }
    }
}

fn terminator(line: &[u8]) -> &[u8] {
    if line.ends_with(b"\r\n") {
        b"\r\n"
    } else if line.ends_with(b"\n") {
        b"\n"
    } else {
        b""
    }
}

fn write_empty_node(out: &mut Vec<u8>, layer: &EnhancedLayer, e: &EmptyNodeLine, terminator: &[u8]) {
    e.id.write_to(out);
    out.extend_from_slice(&layer.text[e.rest.start as usize..e.rest.end as usize]);
    out.extend_from_slice(if terminator.is_empty() { b"\n" } else { terminator });
}

#[cfg(test)]
mod tests {
    use super::write_sentence;
    use crate::conllu::{BlockReader, RawBlock, Sentence};

    /// `input` read block by block and each sentence written back without a new layer.
    fn round_trip(input: &[u8]) -> Vec<u8> {
        let mut reader = BlockReader::new(input);
        let mut block = RawBlock::default();
        let mut out = Vec::new();
        while reader.read_block(&mut block).unwrap() {
            if block.is_blank() {
                out.extend_from_slice(&block.bytes);
                continue;
            }
            let sentence = Sentence::parse(block.clone()).unwrap_or_else(|e| panic!("{}", e.1));
            write_sentence(&mut out, &sentence, None);
        }
        out
    }

    #[test]
    fn crlf_bom_and_missing_final_newline_round_trip() {
        let input = b"\xEF\xBB\xBF# text = a\r\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\r\n\r\n\n1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n1.1\te\te\tX\t_\t_\t_\t_\t1:x\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\tSpaceAfter=No";
        assert_eq!(round_trip(input), input.to_vec());
    }

    /// Every `*/dev.conllu` under `root`, each asserted to round-trip; how many there were.
    fn round_trips_under(root: &std::path::Path) -> usize {
        let mut files = 0;
        for treebank in std::fs::read_dir(root).unwrap() {
            let file = treebank.unwrap().path().join("dev.conllu");
            if let Ok(input) = std::fs::read(&file) {
                assert!(round_trip(&input) == input, "{} changed on a round trip", file.display());
                files += 1;
            }
        }
        files
    }

    /// The sample treebanks shipped in tests/data/ud, then the full dev treebanks of the shared
    /// data (`$EUDIFY_SHARED`, else `../shared`; see README "Test data"), which a checkout may
    /// lack: the test then says it skipped them, except under CI, which must run everything.
    #[test]
    fn every_sample_and_dev_file_round_trips_byte_for_byte() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let sample = round_trips_under(&manifest.join("tests/data/ud"));
        assert!(sample >= 3, "expected the sample treebanks in tests/data/ud, found {sample}");
        let shared = std::env::var_os("EUDIFY_SHARED").map_or(manifest.join("../shared"), Into::into);
        let dev = shared.join("data/ud");
        if dev.is_dir() {
            let files = round_trips_under(&dev);
            assert!(files >= 20, "expected the dev treebanks in {}, found {files}", dev.display());
        } else {
            let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
            let why = format!("{} not found (the full UD dev treebanks; see README \"Test data\")", dev.display());
            assert!(!ci, "{why}: CI must run every test");
            // Past the harness's capture, so that the skip is seen.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "conllu::writer round trip: skipped the dev treebanks: {why}");
        }
    }
}
