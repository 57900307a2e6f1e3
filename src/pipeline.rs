//! Reader → chunks of sentences → enhancement in parallel → writer in input order.
//!
//! Output is identical for any thread count: each sentence is enhanced on its own and chunks
//! are written in input order. Memory is bounded by the chunk size times the chunks in flight,
//! not by the input size.

use crate::conllu::{write_sentence, BlockReader, ChunkReader, EnhancedLayer, ParseError, RawBlock, Sentence};
use crate::engine::{Enhancer, Workspace};
use std::fmt;
use std::cell::RefCell;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum OnError {
    /// Stop at the first invalid sentence with exit code 1.
    #[default]
    Fail,
    /// Write the invalid sentence out unchanged, report it and go on.
    Copy,
}

#[derive(Clone, Debug)]
pub struct PipelineOptions {
    pub on_error: OnError,
    /// Threads that enhance: 1 runs everything on the calling thread; N > 1 (0: one per core)
    /// starts N workers and leaves the calling thread only reading and writing.
    pub threads: usize,
    /// Size of the pieces of input handed to a worker (each holds whole sentences).
    pub chunk_bytes: usize,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions { on_error: OnError::Fail, threads: 0, chunk_bytes: 256 * 1024 }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub sentences: usize,
    pub words: usize,
    /// Invalid sentences written unchanged (`--on-error copy`).
    pub copied_invalid: usize,
    /// Sentences whose rules ran away (reached the engine's limits), written with the basic
    /// copy as DEPS, in either mode.
    pub runaways: usize,
}

impl Summary {
    pub fn add(&mut self, other: &Summary) {
        self.sentences += other.sentences;
        self.words += other.words;
        self.copied_invalid += other.copied_invalid;
        self.runaways += other.runaways;
    }
}

/// A failure that stops the run, as `FILE:LINE: message` or `FILE: message`.
#[derive(Debug)]
pub enum PipelineError {
    Input { file: String, error: ParseError },
    Io { file: String, error: io::Error },
    Output(io::Error),
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::Input { file, error } => write!(f, "{file}:{}: {}", error.line, error.message),
            PipelineError::Io { file, error } => write!(f, "{file}: {error}"),
            PipelineError::Output(error) => write!(f, "writing output: {error}"),
        }
    }
}

impl std::error::Error for PipelineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PipelineError::Io { error, .. } | PipelineError::Output(error) => Some(error),
            PipelineError::Input { .. } => None,
        }
    }
}

/// A piece of input (whole sentences) and what became of it.
#[derive(Default)]
struct Chunk {
    input: Vec<u8>,
    starts_input: bool,
    out: Vec<u8>,
    /// Lines of `input`; line numbers in `errors` count from 1 at the chunk's first line.
    lines: usize,
    summary: Summary,
    /// Invalid sentences, each with the length of `out` before it. Under [`OnError::Fail`]
    /// the chunk stops at the first: the output ends before it.
    errors: Vec<(usize, ParseError)>,
    /// Sentences whose rules ran away, written with basic DEPS: reported, never fatal.
    runaways: Vec<ParseError>,
}

/// Per-thread buffers reused from sentence to sentence.
#[derive(Default)]
struct Scratch {
    block: RawBlock,
    sentence: Sentence,
    layer: EnhancedLayer,
    workspace: Workspace,
}

/// A scratch buffer larger than this is given back after a chunk: otherwise each thread would
/// keep the capacity of the longest sentence it ever held.
const KEEP_BUFFER_BYTES: usize = 64 * 1024;

/// Splits `chunk` into sentences, enhances them and writes them to `chunk.out`.
fn process(chunk: &mut Chunk, scratch: &mut Scratch, enhancer: &Enhancer, on_error: OnError) {
    chunk.out.clear();
    chunk.errors.clear();
    chunk.runaways.clear();
    chunk.summary = Summary::default();
    let mut reader = BlockReader::continuing(&chunk.input[..], 1, chunk.starts_input);
    let Scratch { block, sentence, layer, workspace } = scratch;
    // Reading from memory cannot fail.
    while reader.read_block(block).unwrap_or(false) {
        if block.is_blank() {
            chunk.out.extend_from_slice(&block.bytes);
            continue;
        }
        let first_line = block.first_line;
        let before = chunk.out.len();
        chunk.summary.sentences += 1;
        let error = match sentence.parse_into(std::mem::take(block)) {
            Err(failed) => {
                let (back, error) = *failed;
                chunk.out.extend_from_slice(&back.bytes);
                *block = back;
                Some(error)
            }
            Ok(()) => {
                chunk.summary.words += sentence.words.len();
                // A runaway leaves the basic copy in `layer`: the sentence is written with it.
                if let Err(message) = enhancer.enhance_with(sentence, layer, workspace) {
                    chunk.runaways.push(ParseError { line: first_line, message });
                    chunk.summary.runaways += 1;
                }
                write_sentence(&mut chunk.out, sentence, Some(&*layer));
                block.bytes = sentence.take_bytes();
                None
            }
        };
        if let Some(error) = error {
            chunk.errors.push((before, error));
            if on_error == OnError::Fail {
                break;
            }
            chunk.summary.copied_invalid += 1;
        }
    }
    chunk.lines = reader.next_line() - 1;
    if block.bytes.capacity() > KEEP_BUFFER_BYTES {
        block.bytes = Vec::new();
    }
}

/// An enhancer with its options and worker threads, ready to run over any number of inputs.
pub struct Pipeline<'e> {
    enhancer: &'e Enhancer,
    options: PipelineOptions,
    /// Workers, when more than one thread enhances.
    pool: Option<rayon::ThreadPool>,
    /// Told the bytes and words of each chunk written (for a progress bar). `Send + Sync` so a
    /// pipeline can be shared between threads (the fuzz targets keep one in a static).
    progress: Option<Box<dyn Fn(u64, u64) + Send + Sync + 'e>>,
}

impl<'e> Pipeline<'e> {
    pub fn new(enhancer: &'e Enhancer, options: PipelineOptions) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = match options.threads {
            1 => None,
            n => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build()?),
        };
        Ok(Pipeline { enhancer, options, pool, progress: None })
    }

    /// Calls `progress(bytes, words)` after each chunk is written.
    pub fn on_progress(&mut self, progress: impl Fn(u64, u64) + Send + Sync + 'e) {
        self.progress = Some(Box::new(progress));
    }

    /// Enhances every sentence of `input` into `out`. `report` receives the diagnostics of
    /// invalid sentences copied under [`OnError::Copy`].
    ///
    /// With workers, this thread only cuts the input into chunks and writes finished chunks in
    /// input order; a few chunks per worker are in flight so that no worker waits for it.
    pub fn run(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        report: &mut dyn FnMut(String),
    ) -> Result<Summary, PipelineError> {
        let mut reader = ChunkReader::new(input);
        let mut writer = ChunkWriter { file, out, report, line: 1, summary: Summary::default(), pipeline: self };
        let target = self.options.chunk_bytes;
        let read_error = |error| PipelineError::Io { file: file.to_string(), error };
        let Some(pool) = &self.pool else {
            let mut chunk = Chunk::default();
            loop {
                chunk.starts_input = reader.read_chunk(&mut chunk.input, target).map_err(read_error)?;
                if chunk.input.is_empty() {
                    return Ok(writer.summary);
                }
                SCRATCH.with(|scratch| process(&mut chunk, &mut scratch.borrow_mut(), self.enhancer, self.options.on_error));
                writer.write(&chunk)?;
                chunk.trim(target);
            }
        };
        let (done_tx, done_rx) = mpsc::channel::<(usize, Chunk)>();
        let in_flight_limit = 2 * pool.current_num_threads() + 2;
        let (enhancer, on_error) = (self.enhancer, self.options.on_error);
        pool.in_place_scope(|scope| {
            let mut spare: Vec<Chunk> = Vec::new();
            // Finished chunks by sequence number, until the ones before them are written.
            let mut finished: std::collections::BTreeMap<usize, Chunk> = Default::default();
            let (mut sent, mut written, mut at_end) = (0, 0, false);
            loop {
                while !at_end && sent - written < in_flight_limit {
                    let mut chunk = spare.pop().unwrap_or_default();
                    chunk.starts_input = reader.read_chunk(&mut chunk.input, target).map_err(read_error)?;
                    if chunk.input.is_empty() {
                        at_end = true;
                        break;
                    }
                    let (done_tx, seq) = (done_tx.clone(), sent);
                    scope.spawn(move |_| {
                        SCRATCH.with(|scratch| process(&mut chunk, &mut scratch.borrow_mut(), enhancer, on_error));
                        // The receiver lives until every spawned chunk is back.
                        let _ = done_tx.send((seq, chunk));
                    });
                    sent += 1;
                }
                if written == sent {
                    return Ok(writer.summary);
                }
                let (seq, chunk) = done_rx.recv().expect("a spawned chunk always comes back");
                finished.insert(seq, chunk);
                while let Some(mut chunk) = finished.remove(&written) {
                    writer.write(&chunk)?;
                    written += 1;
                    chunk.trim(target);
                    spare.push(chunk);
                }
            }
        })
    }
}

/// Writes finished chunks in order, numbering their lines and reporting or failing on invalid
/// sentences.
struct ChunkWriter<'a, 'p> {
    file: &'a str,
    out: &'a mut dyn Write,
    report: &'a mut dyn FnMut(String),
    /// Line number of the next chunk's first line.
    line: usize,
    summary: Summary,
    pipeline: &'a Pipeline<'p>,
}

impl ChunkWriter<'_, '_> {
    fn write(&mut self, chunk: &Chunk) -> Result<(), PipelineError> {
        let absolute = |error: &ParseError, base: usize| ParseError { line: base + error.line - 1, ..error.clone() };
        let output = |e| PipelineError::Output(e);
        let fail = self.pipeline.options.on_error == OnError::Fail;
        // (Under `fail` a chunk stops at its first error: its runaways all come before it.)
        let mut reports: Vec<(usize, &str, &str)> = (chunk.runaways.iter().map(|e| (e.line, &e.message[..], "written with basic DEPS")))
            .chain(chunk.errors.iter().take(if fail { 0 } else { usize::MAX }).map(|(_, e)| (e.line, &e.message[..], "copied unchanged")))
            .collect();
        reports.sort_by_key(|&(line, _, _)| line);
        for (line, message, outcome) in reports {
            (self.report)(format!("{}:{}: {} (sentence {outcome})", self.file, self.line + line - 1, message));
        }
        match chunk.errors.first() {
            Some((before, error)) if fail => {
                self.out.write_all(&chunk.out[..*before]).map_err(output)?;
                return Err(PipelineError::Input { file: self.file.to_string(), error: absolute(error, self.line) });
            }
            _ => {}
        }
        self.out.write_all(&chunk.out).map_err(output)?;
        self.summary.add(&chunk.summary);
        self.line += chunk.lines;
        if let Some(progress) = &self.pipeline.progress {
            progress(chunk.input.len() as u64, chunk.summary.words as u64);
        }
        Ok(())
    }
}

impl Chunk {
    /// Gives back buffers much larger than a chunk (left by an unusually long sentence).
    fn trim(&mut self, target: usize) {
        let keep = 4 * target.max(KEEP_BUFFER_BYTES);
        for buffer in [&mut self.input, &mut self.out] {
            if buffer.capacity() > keep {
                *buffer = Vec::new();
            }
        }
    }
}

thread_local! {
    /// Each thread's buffers, reused from sentence to sentence.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}
