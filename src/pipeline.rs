//! Reader → batches of sentences → enhancement in parallel → writer in input order.
//!
//! Output is identical for any thread count: each sentence is enhanced on its own and the
//! batch is written in input order. Memory is bounded by the batch size, not the input size.

use crate::conllu::{write_sentence, BlockReader, EnhancedLayer, ParseError, RawBlock, Sentence};
use crate::engine::{Enhancer, Workspace};
use rayon::prelude::*;
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
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Sentences read before a batch is enhanced in parallel.
    pub batch_sentences: usize,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions { on_error: OnError::Fail, threads: 0, batch_sentences: 256 }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub sentences: usize,
    pub words: usize,
    /// Invalid sentences written unchanged (`--on-error copy`).
    pub copied_invalid: usize,
}

impl Summary {
    pub fn add(&mut self, other: &Summary) {
        self.sentences += other.sentences;
        self.words += other.words;
        self.copied_invalid += other.copied_invalid;
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

#[derive(Default)]
struct Slot {
    block: RawBlock,
    out: Vec<u8>,
    words: usize,
    error: Option<ParseError>,
}

/// Per-thread buffers reused from sentence to sentence.
#[derive(Default)]
struct Scratch {
    sentence: Sentence,
    layer: EnhancedLayer,
    workspace: Workspace,
}

fn process(slot: &mut Slot, scratch: &mut Scratch, enhancer: &Enhancer) {
    slot.out.clear();
    slot.words = 0;
    slot.error = None;
    if slot.block.is_blank() {
        slot.out.extend_from_slice(&slot.block.bytes);
        return;
    }
    let block = std::mem::take(&mut slot.block);
    let first_line = block.first_line;
    match scratch.sentence.parse_into(block) {
        Err(failed) => {
            let (block, error) = *failed;
            slot.out.extend_from_slice(&block.bytes);
            slot.block = block;
            slot.error = Some(error);
        }
        Ok(()) => {
            let sentence = &scratch.sentence;
            slot.words = sentence.words.len();
            match enhancer.enhance_with(sentence, &mut scratch.layer, &mut scratch.workspace) {
                Ok(()) => write_sentence(&mut slot.out, sentence, Some(&scratch.layer)),
                Err(message) => {
                    write_sentence(&mut slot.out, sentence, None);
                    slot.error = Some(ParseError { line: first_line, message });
                }
            }
            let starts_input = false;
            slot.block = RawBlock { bytes: scratch.sentence.take_bytes(), first_line, starts_input };
        }
    }
}

/// An enhancer with its options and worker threads, ready to run over any number of inputs.
pub struct Pipeline<'e> {
    enhancer: &'e Enhancer,
    options: PipelineOptions,
    pool: rayon::ThreadPool,
    /// Told the bytes and words of each batch written (for a progress bar). `Send + Sync` so a
    /// pipeline can be shared between threads (the fuzz targets keep one in a static).
    progress: Option<Box<dyn Fn(u64, u64) + Send + Sync + 'e>>,
}

impl<'e> Pipeline<'e> {
    pub fn new(enhancer: &'e Enhancer, options: PipelineOptions) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(options.threads).build()?;
        Ok(Pipeline { enhancer, options, pool, progress: None })
    }

    /// Calls `progress(bytes, words)` after each batch is written.
    pub fn on_progress(&mut self, progress: impl Fn(u64, u64) + Send + Sync + 'e) {
        self.progress = Some(Box::new(progress));
    }

    /// Enhances every sentence of `input` into `out`. `report` receives the diagnostics of
    /// invalid sentences copied under [`OnError::Copy`].
    ///
    /// This thread reads and writes; the pool enhances. While batch k is enhanced, batch k+1
    /// is read and batch k-1 written, so I/O overlaps the work.
    pub fn run(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        report: &mut dyn FnMut(String),
    ) -> Result<Summary, PipelineError> {
        let mut reader = BlockReader::new(input);
        let batch_size = self.options.batch_sentences.max(1);
        let mut summary = Summary::default();
        let mut spare: Vec<Batch> = Vec::new();
        let (done_tx, done_rx) = mpsc::channel::<Batch>();
        let enhancer = self.enhancer;
        self.pool.in_place_scope(|scope| {
            let mut in_flight = false;
            loop {
                let mut batch = spare.pop().unwrap_or_default();
                batch.fill(&mut reader, batch_size).map_err(|error| PipelineError::Io { file: file.to_string(), error })?;
                let at_end = batch.len < batch_size;
                let finished = if in_flight { Some(done_rx.recv().expect("a spawned batch always comes back")) } else { None };
                in_flight = batch.len > 0;
                if in_flight {
                    let done_tx = done_tx.clone();
                    scope.spawn(move |_| {
                        batch.slots[..batch.len].par_iter_mut().for_each(|slot| {
                            SCRATCH.with(|scratch| process(slot, &mut scratch.borrow_mut(), enhancer))
                        });
                        // The receiver lives until every spawned batch is back.
                        let _ = done_tx.send(batch);
                    });
                }
                if let Some(mut done) = finished {
                    self.write(file, &done, out, report, &mut summary)?;
                    done.trim();
                    spare.push(done);
                }
                if at_end {
                    if in_flight {
                        let done = done_rx.recv().expect("a spawned batch always comes back");
                        self.write(file, &done, out, report, &mut summary)?;
                    }
                    return Ok(summary);
                }
            }
        })
    }

    /// Writes a processed batch in order, reporting or failing on invalid sentences.
    fn write(
        &self,
        file: &str,
        batch: &Batch,
        out: &mut dyn Write,
        report: &mut dyn FnMut(String),
        summary: &mut Summary,
    ) -> Result<(), PipelineError> {
        let (mut bytes, mut words) = (0, 0);
        for slot in &batch.slots[..batch.len] {
            bytes += slot.block.bytes.len() as u64;
            words += slot.words as u64;
            if let Some(error) = &slot.error {
                if self.options.on_error == OnError::Fail {
                    return Err(PipelineError::Input { file: file.to_string(), error: error.clone() });
                }
                report(format!("{file}:{}: {} (sentence copied unchanged)", error.line, error.message));
                summary.copied_invalid += 1;
            }
            if !slot.block.is_blank() {
                summary.sentences += 1;
                summary.words += slot.words;
            }
            out.write_all(&slot.out).map_err(PipelineError::Output)?;
        }
        if let Some(progress) = &self.progress {
            progress(bytes, words);
        }
        Ok(())
    }
}

/// Up to `batch_sentences` blocks, with their buffers kept for the next batch.
#[derive(Default)]
struct Batch {
    slots: Vec<Slot>,
    len: usize,
}

/// A slot buffer larger than this is given back after use: otherwise every slot would keep
/// the capacity of the longest sentence it ever held, and memory would creep towards
/// `slots × longest sentence` on long inputs.
const KEEP_BUFFER_BYTES: usize = 8 * 1024;

impl Batch {
    fn trim(&mut self) {
        for slot in &mut self.slots {
            if slot.out.capacity() > KEEP_BUFFER_BYTES {
                slot.out = Vec::new();
            }
            if slot.block.bytes.capacity() > KEEP_BUFFER_BYTES {
                slot.block.bytes = Vec::new();
            }
        }
    }

    fn fill(&mut self, reader: &mut BlockReader<impl BufRead>, size: usize) -> std::io::Result<()> {
        self.len = 0;
        while self.len < size {
            if self.len == self.slots.len() {
                self.slots.push(Slot::default());
            }
            if !reader.read_block(&mut self.slots[self.len].block)? {
                break;
            }
            self.len += 1;
        }
        Ok(())
    }
}

thread_local! {
    /// Each worker thread's buffers, reused from sentence to sentence.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}
