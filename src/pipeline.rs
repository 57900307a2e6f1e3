//! Reader → chunks of sentences → enhancement in parallel → writer in input order.
//!
//! Output is identical for any thread count: each sentence is enhanced on its own and chunks
//! are written in input order. Memory is bounded by the chunk size times the chunks in flight,
//! not by the input size.

use crate::text::{count, thousands};
use crate::conllu::{write_sentence, BlockReader, ChunkReader, EnhancedLayer, Limits, ParseError, RawBlock, Sentence};
use crate::engine::lemmas::without_lemma;
use crate::engine::{Engine, StepLimitError, Workspace};
use crate::error::Error;
use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// What a run does with a sentence that is not valid CoNLL-U.
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

/// What a run did: counts of what was read, and of what was repaired or left alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Sentences read.
    pub sentences: usize,
    /// Words read (not counting multiword tokens and empty nodes).
    pub words: usize,
    /// Invalid sentences written unchanged (`--on-error copy`).
    pub copied_invalid: usize,
    /// Of those, the sentences over a size limit ([`Limits`]): a line, the comments or the
    /// sentence too long, or too many lines.
    pub too_large: usize,
    /// Words without a lemma (LEMMA `_`), whose lower-cased form lemma tests and labels read
    /// instead (`engine::lemmas::without_lemma`).
    pub without_lemma: usize,
    /// Labels repaired to UD's shape, by kind (`ROOT → root`, `marker text cleaned`…).
    pub repairs: crate::ud::Repairs,
    /// Sentences whose rules ran away (reached the engine's limits), written with the basic
    /// copy as DEPS, in either mode.
    pub runaways: usize,
}

impl Summary {
    /// Adds the counts of `other` (another chunk or file).
    pub fn add(&mut self, other: &Summary) {
        self.sentences += other.sentences;
        self.words += other.words;
        self.copied_invalid += other.copied_invalid;
        self.too_large += other.too_large;
        self.runaways += other.runaways;
        self.without_lemma += other.without_lemma;
        self.repairs.add_all(&other.repairs);
    }

    /// The line a run ends with when something was not enhanced as given, never silently:
    /// sentences copied unchanged for being invalid, labels repaired to UD's shape (`eudify:
    /// 2,077 sentences; 2,077 labels repaired (ROOT → root)`), sentences whose rules ran away
    /// and were written with the basic copy as DEPS. `None` when all went as given.
    pub fn report_line(&self) -> Option<String> {
        if self.copied_invalid == 0 && self.runaways == 0 && self.repairs.is_empty() {
            return None;
        }
        let mut line = format!("eudify: {}", count(self.sentences as u64, "sentence"));
        if self.copied_invalid > 0 {
            line += &format!(", {} copied unchanged", count(self.copied_invalid as u64, "invalid one"));
            if self.too_large > 0 {
                line += &format!(" ({} over the size limits)", thousands(self.too_large as u64));
            }
        }
        if self.runaways > 0 {
            let verb = if self.runaways == 1 { "was" } else { "were" };
            line += &format!(", {} with runaway rules {verb} written with basic DEPS", thousands(self.runaways as u64));
        }
        if !self.repairs.is_empty() {
            line += &format!("; {}", self.repairs);
        }
        Some(line)
    }

    /// The warning for a file whose words lack lemmas, if some do.
    pub fn lemma_warning(&self, file: &str) -> Option<String> {
        (self.without_lemma > 0).then(|| {
            let (n, of) = (self.without_lemma, self.words);
            let (verb, pronoun) = if n == 1 { ("has", "its") } else { ("have", "their") };
            format!(
                "warning: {file}: {} of {} {verb} no lemma (LEMMA _); lemma tests and markers used {pronoun} lower-cased {}",
                thousands(n as u64),
                count(of as u64, "word"),
                if n == 1 { "form" } else { "forms" },
            )
        })
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
    runaways: Vec<Runaway>,
}

/// A sentence whose rules ran away (reached the engine's limits): it was written with the basic
/// copy as DEPS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runaway {
    /// The line where the sentence starts (from 1; within its chunk until the chunk is written).
    pub line: usize,
    pub sent_id: Option<String>,
    /// The rule that was stopped, where, and the limit reached.
    pub stopped: StepLimitError,
}

impl Runaway {
    /// Why the rules were stopped, as a notice says it after `FILE:LINE: `.
    pub fn message(&self) -> String {
        match &self.sent_id {
            Some(id) => format!("sentence {id}: {}", self.stopped),
            None => self.stopped.to_string(),
        }
    }
}

/// What a run tells its caller about a sentence, in input order: one copied unchanged
/// ([`OnError::Copy`]) or written with basic DEPS because its rules ran away.
pub struct Notice<'a> {
    /// `FILE:LINE: message (sentence …)`, as the command prints it.
    pub text: String,
    /// The runaway this notice reports, with its line counted in the whole input.
    pub runaway: Option<&'a Runaway>,
}

/// Per-thread buffers reused from sentence to sentence.
#[derive(Default)]
struct Scratch {
    block: RawBlock,
    sentence: Sentence,
    layer: EnhancedLayer,
    workspace: Workspace,
}

/// Input bytes in flight (sent to workers, not yet written) past which no more chunks are sent.
/// Half the default sentence cap: a sentence near the cap (which costs up to ~10 times its bytes
/// once parsed and enhanced) is then enhanced alone, and a run stays near 160 MB whatever its
/// input; ordinary chunks (256 KB, a few per thread) never come near it.
const MAX_IN_FLIGHT_BYTES: usize = 8 << 20;

/// A scratch buffer larger than this is given back after a chunk: otherwise each thread would
/// keep the capacity of the longest sentence it ever held.
const KEEP_BUFFER_BYTES: usize = 64 * 1024;

/// [`process`] on this thread's buffers, with a panic caught and turned into its message: a
/// worker that panicked would otherwise leave the thread waiting for its chunk waiting forever.
fn process_caught(chunk: &mut Chunk, pipeline: &Pipeline) -> Result<(), String> {
    let run = || SCRATCH.with(|scratch| process(chunk, &mut scratch.borrow_mut(), pipeline));
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).map_err(|payload| {
        // The buffers may be left half-way: the next chunk on this thread starts on new ones.
        SCRATCH.with(|scratch| *scratch.borrow_mut() = Scratch::default());
        match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
            (Some(message), _) => message.to_string(),
            (_, Some(message)) => message.clone(),
            _ => "no message".to_string(),
        }
    })
}

/// Splits `chunk` into sentences, enhances them and writes them to `chunk.out`.
fn process(chunk: &mut Chunk, scratch: &mut Scratch, pipeline: &Pipeline) {
    let (enhancer, on_error) = (pipeline.enhancer, pipeline.options.on_error);
    scratch.sentence.set_limits(pipeline.limits);
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
        // The enhanced layer is recomputed: whatever the input's DEPS hold does not matter.
        let error = match sentence.parse_into_ignoring_deps(std::mem::take(block)) {
            Err(failed) => {
                let (back, error) = *failed;
                chunk.out.extend_from_slice(&back.bytes);
                *block = back;
                Some(error)
            }
            Ok(()) => {
                #[cfg(test)]
                if let Some(hook) = pipeline.test_hook {
                    hook(sentence);
                }
                chunk.summary.words += sentence.words.len();
                chunk.summary.without_lemma += words_without_lemma(sentence);
                // A runaway leaves the basic copy in `layer`: the sentence is written with it.
                if let Err(stopped) = enhancer.enhance_with(sentence, layer, workspace) {
                    let sent_id = sentence.comment("sent_id").map(str::to_string);
                    chunk.runaways.push(Runaway { line: first_line, sent_id, stopped });
                    chunk.summary.runaways += 1;
                }
                write_sentence(&mut chunk.out, sentence, Some(&*layer));
                block.bytes = sentence.take_bytes();
                None
            }
        };
        if let Some(error) = error {
            let too_large = usize::from(error.too_large);
            chunk.errors.push((before, error));
            if on_error == OnError::Fail {
                break;
            }
            chunk.summary.copied_invalid += 1;
            chunk.summary.too_large += too_large;
        }
    }
    workspace.take_repairs(&mut chunk.summary.repairs);
    chunk.lines = reader.next_line() - 1;
    if block.bytes.capacity() > KEEP_BUFFER_BYTES {
        block.bytes = Vec::new();
    }
}

/// Words of `sentence` without a lemma.
fn words_without_lemma(sentence: &Sentence) -> usize {
    use crate::conllu::sentence::{DEPREL, FORM, LEMMA};
    let column = |word, c| sentence.column(word, c);
    // LEMMA's bytes first (no UTF-8 boundary checks): the other columns are read only for words
    // without one.
    let bytes = sentence.bytes();
    sentence
        .words
        .iter()
        .filter(|w| bytes[w.columns[LEMMA].range()] == *b"_" && without_lemma("_", column(w, FORM), column(w, DEPREL)))
        .count()
}

/// An enhancer with its options and worker threads, ready to run over any number of inputs.
pub struct Pipeline<'e> {
    enhancer: &'e Engine,
    options: PipelineOptions,
    /// Workers, when more than one thread enhances.
    pool: Option<rayon::ThreadPool>,
    /// Told the bytes and words of each chunk written (for a progress bar). `Send + Sync` so a
    /// pipeline can be shared between threads (the fuzz targets keep one in a static).
    progress: Option<Box<dyn Fn(u64, u64) + Send + Sync + 'e>>,
    /// Caps on line, comment and sentence size.
    limits: Limits,
    /// Called on each parsed sentence before it is enhanced: tests make a worker panic with it.
    #[cfg(test)]
    test_hook: Option<fn(&Sentence)>,
}

impl<'e> Pipeline<'e> {
    pub fn new(enhancer: &'e Engine, options: PipelineOptions) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = match options.threads {
            1 => None,
            n => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build()?),
        };
        Ok(Pipeline {
            enhancer,
            options,
            pool,
            progress: None,
            limits: Limits::default(),
            #[cfg(test)]
            test_hook: None,
        })
    }

    /// Calls `progress(bytes, words)` after each chunk is written.
    pub fn on_progress(&mut self, progress: impl Fn(u64, u64) + Send + Sync + 'e) {
        self.progress = Some(Box::new(progress));
    }

    /// Checks the size of lines, comments and sentences against `limits` (the default ones
    /// otherwise).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Enhances every sentence of `input` into `out`. `report` receives the diagnostics of
    /// invalid sentences copied under [`OnError::Copy`].
    ///
    /// A sentence over the size limits is never held whole: the chunks before it are written,
    /// then it is an error or, under [`OnError::Copy`], copied through a piece at a time.
    ///
    /// With workers, this thread only cuts the input into chunks and writes finished chunks in
    /// input order; a few chunks per worker are in flight so that no worker waits for it.
    ///
    /// A panic while enhancing (a bug) ends the run with [`Error::Internal`] once the
    /// chunks before the one it happened in are written, whatever the thread count.
    pub fn run(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        report: &mut dyn FnMut(String),
    ) -> Result<Summary, Error> {
        self.run_noting(file, input, out, &mut |notice| report(notice.text))
    }

    /// [`Pipeline::run`], with each notice's runaway (line, `sent_id`, rule stopped) beside its
    /// text.
    pub fn run_noting(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        report: &mut dyn FnMut(Notice),
    ) -> Result<Summary, Error> {
        let mut reader = ChunkReader::with_limits(input, self.limits);
        let mut writer = ChunkWriter { file, out, report, line: 1, summary: Summary::default(), pipeline: self };
        let target = self.options.chunk_bytes;
        let read_error = |error| Error::Io { file: file.to_string(), error };
        let panicked = |message| Error::Internal { file: file.to_string(), message };
        let Some(pool) = &self.pool else {
            let mut chunk = Chunk::default();
            loop {
                chunk.starts_input = reader.read_chunk(&mut chunk.input, target).map_err(read_error)?;
                if !chunk.input.is_empty() {
                    process_caught(&mut chunk, self).map_err(panicked)?;
                    writer.write(&chunk)?;
                    chunk.trim(target);
                } else if !reader.at_oversized_block() {
                    return Ok(writer.summary);
                }
                writer.pass_oversized(&mut reader)?;
            }
        };
        let (done_tx, done_rx) = mpsc::channel::<(usize, Chunk, Result<(), String>)>();
        let in_flight_limit = 2 * pool.current_num_threads() + 2;
        pool.in_place_scope(|scope| {
            let mut spare: Vec<Chunk> = Vec::new();
            // Finished chunks by sequence number, until the ones before them are written.
            let mut finished: std::collections::BTreeMap<usize, (Chunk, Result<(), String>)> = Default::default();
            let (mut sent, mut written, mut at_end) = (0, 0, false);
            // A block over the size limit comes next: it is passed on once every chunk before
            // it is written.
            let mut at_oversized = false;
            // Input bytes of the chunks sent and not yet written: a few long sentences must
            // not fill every slot with chunks of megabytes.
            let mut in_flight_bytes = 0;
            loop {
                while !at_end && !at_oversized && sent - written < in_flight_limit && (sent == written || in_flight_bytes < MAX_IN_FLIGHT_BYTES) {
                    let mut chunk = spare.pop().unwrap_or_default();
                    chunk.starts_input = reader.read_chunk(&mut chunk.input, target).map_err(read_error)?;
                    at_oversized = reader.at_oversized_block();
                    if chunk.input.is_empty() {
                        at_end = !at_oversized;
                        spare.push(chunk);
                        break;
                    }
                    in_flight_bytes += chunk.input.len();
                    let (done_tx, seq) = (done_tx.clone(), sent);
                    scope.spawn(move |_| {
                        let result = process_caught(&mut chunk, self);
                        // The receiver lives until every spawned chunk is back.
                        let _ = done_tx.send((seq, chunk, result));
                    });
                    sent += 1;
                }
                if written == sent {
                    if !at_oversized {
                        return Ok(writer.summary);
                    }
                    writer.pass_oversized(&mut reader)?;
                    at_oversized = false;
                    continue;
                }
                // Every spawned chunk comes back, even from a worker that panicked.
                let (seq, chunk, result) = done_rx.recv().expect("a spawned chunk always comes back");
                finished.insert(seq, (chunk, result));
                while let Some((mut chunk, result)) = finished.remove(&written) {
                    result.map_err(panicked)?;
                    writer.write(&chunk)?;
                    written += 1;
                    in_flight_bytes -= chunk.input.len();
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
    report: &'a mut dyn FnMut(Notice),
    /// Line number of the next chunk's first line.
    line: usize,
    summary: Summary,
    pipeline: &'a Pipeline<'p>,
}

impl ChunkWriter<'_, '_> {
    fn write(&mut self, chunk: &Chunk) -> Result<(), Error> {
        let absolute = |error: &ParseError, base: usize| ParseError { line: base + error.line - 1, ..error.clone() };
        let output = Error::Output;
        let fail = self.pipeline.options.on_error == OnError::Fail;
        // (Under `fail` a chunk stops at its first error: its runaways all come before it.)
        let runaways = chunk.runaways.iter().map(|r| (r.line, r.message(), Some(r)));
        let copied = chunk.errors.iter().take(if fail { 0 } else { usize::MAX }).map(|(_, e)| (e.line, e.message.clone(), None));
        let mut reports: Vec<_> = runaways.chain(copied).collect();
        reports.sort_by_key(|&(line, _, _)| line);
        for (line, message, runaway) in reports {
            let line = self.line + line - 1;
            let outcome = if runaway.is_some() { "written with basic DEPS" } else { "copied unchanged" };
            let runaway = runaway.map(|r| Runaway { line, ..r.clone() });
            let text = format!("{}:{line}: {message} (sentence {outcome})", self.file);
            (self.report)(Notice { text, runaway: runaway.as_ref() });
        }
        match chunk.errors.first() {
            Some((before, error)) if fail => {
                self.out.write_all(&chunk.out[..*before]).map_err(output)?;
                let error = absolute(error, self.line);
                return Err(Error::Input { file: self.file.to_string(), line: error.line, message: error.message });
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

impl ChunkWriter<'_, '_> {
    /// The block over the size limit the reader stopped before (if it did; the chunks before
    /// it are written): an error, or under [`OnError::Copy`] copied through a piece at a time
    /// and reported.
    fn pass_oversized(&mut self, reader: &mut ChunkReader<impl BufRead>) -> Result<(), Error> {
        if !reader.at_oversized_block() {
            return Ok(());
        }
        let message = self.pipeline.limits.sentence_bytes_message();
        if self.pipeline.options.on_error == OnError::Fail {
            return Err(Error::Input { file: self.file.to_string(), line: self.line, message });
        }
        let text = format!("{}:{}: {message} (sentence copied unchanged)", self.file, self.line);
        (self.report)(Notice { text, runaway: None });
        let file = self.file;
        let out = &mut *self.out;
        let lines = reader.pass_oversized_block(|bytes| out.write_all(bytes).map_err(Error::Output), |error| Error::Io { file: file.to_string(), error })?;
        self.line += lines;
        self.summary.sentences += 1;
        self.summary.copied_invalid += 1;
        self.summary.too_large += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const GOOD: &str = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n";
    const BOOM: &str = "# sent_id = boom\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n";

    fn boom(sentence: &Sentence) {
        if sentence.comment("sent_id") == Some("boom") {
            panic!("boom on purpose");
        }
    }

    /// A worker that panics ends the run with an error and the output of the chunks before
    /// it, never a hang (the thread that writes used to wait forever for the lost chunk).
    #[test]
    fn a_panicking_worker_ends_the_run_with_an_error() {
        let enhancer: &'static Engine = Box::leak(Box::new(Engine::basic()));
        let input = format!("{}{BOOM}{}", GOOD.repeat(50), GOOD.repeat(50));
        let before = GOOD.replace("root\t_", "root\t0:root").repeat(50);
        for threads in [1, 2, 4] {
            for chunk_bytes in [1, 64, 1 << 16] {
                let options = PipelineOptions { threads, chunk_bytes, ..PipelineOptions::default() };
                let mut pipeline = Pipeline::new(enhancer, options).unwrap();
                pipeline.test_hook = Some(boom);
                let input = input.clone();
                let (tx, rx) = mpsc::channel();
                std::thread::spawn(move || {
                    let mut out = Vec::new();
                    let result = pipeline.run("in", input.as_bytes(), &mut out, &mut |_| {});
                    let _ = tx.send((result, out));
                });
                let (result, out) = match rx.recv_timeout(Duration::from_secs(120)) {
                    Ok(done) => done,
                    Err(mpsc::RecvTimeoutError::Timeout) => panic!("threads {threads}, chunks of {chunk_bytes} bytes: the run hangs"),
                    Err(mpsc::RecvTimeoutError::Disconnected) => panic!("threads {threads}: the panic was not caught"),
                };
                let error = result.expect_err("a panic is an error").to_string();
                assert_eq!(error, "in: internal error: enhancing a sentence panicked (boom on purpose); please report this");
                let out = String::from_utf8(out).unwrap();
                assert!(before.starts_with(&out), "threads {threads}: only sentences before the panic are written");
                if chunk_bytes == 1 {
                    assert_eq!(out, before, "threads {threads}: every chunk before the panic is written");
                }
            }
        }
    }

    #[test]
    fn the_lemma_warning_groups_thousands_and_agrees_in_number() {
        let summary = |without_lemma, words| Summary { words, without_lemma, ..Summary::default() };
        assert_eq!(summary(0, 40_000).lemma_warning("p.conllu"), None);
        assert_eq!(
            summary(12_345, 40_000).lemma_warning("parsed.conllu").unwrap(),
            "warning: parsed.conllu: 12,345 of 40,000 words have no lemma (LEMMA _); lemma tests and markers used their lower-cased forms"
        );
        assert_eq!(
            summary(1, 1).lemma_warning("a").unwrap(),
            "warning: a: 1 of 1 word has no lemma (LEMMA _); lemma tests and markers used its lower-cased form"
        );
        assert_eq!(summary(1_234_567, 100_000_000).lemma_warning("b").unwrap().split(' ').take(4).collect::<Vec<_>>(), ["warning:", "b:", "1,234,567", "of"]);
        assert!(summary(999, 1_000).lemma_warning("c").unwrap().contains(" 999 of 1,000 words "));
    }
}

