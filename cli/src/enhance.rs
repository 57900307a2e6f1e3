//! `eudify enhance`: read CoNLL-U, write it back with the enhanced layer recomputed.

use super::args::{EnhanceArgs, OnErrorArg};
use super::output::Output;
use anyhow::{Context, Result};
use eudify::files::{display_name, is_gzip_file, is_stdin, open};
use eudify::{worker_threads, OnError, RunOptions, Summary};
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub fn run(args: EnhanceArgs) -> Result<u8> {
    let files = if args.files.is_empty() {
        vec!["-".into()]
    } else {
        args.files
    };
    if files.iter().any(|f| is_stdin(f)) && io::stdin().is_terminal() {
        // Nothing is piped in: say what the command waits for instead of seeming to hang.
        eprintln!(
            "eudify enhance: reading CoNLL-U from the terminal; end it with Ctrl-D (or give FILE: eudify enhance --help)"
        );
    }
    let (code, mut replay) =
        super::profile_code(args.lang.as_deref(), args.rules.as_deref(), &files)?;
    let mut enhancer = super::load_enhancer(args.rules.as_deref(), &code)?;
    if let Some(per_word) = args.search_budget {
        enhancer = enhancer.with_search_budget(per_word);
    }
    let (threads, warning) = worker_threads(args.threads);
    if let Some(warning) = warning {
        eprintln!("warning: {warning}");
    }
    let options = RunOptions {
        threads,
        on_error: match args.on_error {
            OnErrorArg::Fail => OnError::Fail,
            OnErrorArg::Copy => OnError::Copy,
        },
    };
    let mut runner = enhancer.runner(options)?;
    runner.set_limits(args.limits.limits());
    let progress = Progress::for_files(&files, args.progress);
    if let Some(progress) = &progress {
        let progress = progress.clone();
        runner.on_progress(move |bytes, words| progress.advance(bytes, words));
    }
    let mut out = Output::create(args.output.as_deref())?;
    let mut summary = Summary::default();
    let mut notice = |line: String| eprintln!("{line}");
    for path in &files {
        let name = display_name(path);
        let reader: Box<dyn io::BufRead> = match replay.take_if(|_| is_stdin(path)) {
            Some(replay) => Box::new(replay.into_reader()),
            None => open(path).with_context(|| format!("{name}: cannot read"))?,
        };
        let file_summary = runner.enhance(&name, reader, &mut out, &mut notice)?;
        if file_summary.sentences == 0 {
            notice(format!("warning: {name}: no sentences (empty input)"));
        }
        summary.add(&file_summary);
    }
    out.finish()?;
    if let Some(progress) = progress {
        progress.finish();
    }
    if let Some(line) = summary.report_line() {
        eprintln!("{line}");
    }
    Ok(super::EXIT_SUCCESS)
}

/// Large inputs: files over this size get a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 50_000_000;
/// How often `--progress` writes a line when stderr is not a terminal (a log file, CI).
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Progress on stderr: a bar on a terminal, plain lines elsewhere (only when asked for).
#[derive(Clone)]
enum Progress {
    Bar(indicatif::ProgressBar, std::sync::Arc<AtomicU64>),
    Lines(std::sync::Arc<PlainProgress>),
}

/// `--progress` on a stderr that is not a terminal: a line every few seconds and at the end.
struct PlainProgress {
    start: Instant,
    total: Option<u64>,
    /// Bytes and words so far, and when the last line was written.
    state: Mutex<(u64, u64, Instant)>,
}

impl Progress {
    /// Progress over the input bytes, when asked for, or when the input is large and stderr is
    /// a terminal; nothing otherwise.
    fn for_files(files: &[PathBuf], asked: bool) -> Option<Progress> {
        let sizes: Option<u64> = files
            .iter()
            .map(|f| {
                if is_stdin(f) {
                    None
                } else {
                    std::fs::metadata(f).ok().map(|m| m.len())
                }
            })
            .sum();
        let large = sizes.is_some_and(|total| total > PROGRESS_THRESHOLD);
        let terminal = io::stderr().is_terminal();
        // Progress counts decompressed bytes: the size of a gzip file is no total for them.
        let total = sizes.filter(|_| !files.iter().any(|f| is_gzip_file(f)));
        if asked && !terminal {
            let now = Instant::now();
            return Some(Progress::Lines(std::sync::Arc::new(PlainProgress {
                start: now,
                total,
                state: Mutex::new((0, 0, now)),
            })));
        }
        if !(asked || (large && terminal)) {
            return None;
        }
        let bar = match total {
            Some(total) => indicatif::ProgressBar::new(total).with_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {msg} (eta {eta})",
                )
                .expect("a valid template"),
            ),
            None => indicatif::ProgressBar::new_spinner().with_style(
                indicatif::ProgressStyle::with_template("{spinner} {bytes} {msg}")
                    .expect("a valid template"),
            ),
        };
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        Some(Progress::Bar(bar, Default::default()))
    }

    fn advance(&self, bytes: u64, words: u64) {
        match self {
            Progress::Bar(bar, total_words) => {
                let words = total_words.fetch_add(words, Ordering::Relaxed) + words;
                let rate = words as f64 / bar.elapsed().as_secs_f64().max(1e-3);
                bar.inc(bytes);
                bar.set_message(format!("{words} tokens, {rate:.0} tokens/s"));
            }
            Progress::Lines(plain) => {
                let mut state = plain.state.lock().unwrap_or_else(|e| e.into_inner());
                state.0 += bytes;
                state.1 += words;
                if state.2.elapsed() >= PLAIN_PROGRESS_EVERY {
                    state.2 = Instant::now();
                    eprintln!("{}", plain.line(state.0, state.1));
                }
            }
        }
    }

    fn finish(self) {
        match self {
            Progress::Bar(bar, _) => bar.finish(),
            Progress::Lines(plain) => {
                let state = plain.state.lock().unwrap_or_else(|e| e.into_inner());
                eprintln!("{}", plain.line(state.0, state.1));
            }
        }
    }
}

impl PlainProgress {
    /// `eudify: 12,345,678 of 50,000,000 bytes (24 %), 1,234,567 tokens, 987,654 tokens/s`.
    fn line(&self, bytes: u64, words: u64) -> String {
        use eudify::text::thousands;
        let seconds = self.start.elapsed().as_secs_f64().max(1e-3);
        let read = match self.total {
            Some(total) if total > 0 => format!(
                "{} of {} bytes ({} %)",
                thousands(bytes),
                thousands(total),
                bytes * 100 / total
            ),
            _ => format!("{} bytes", thousands(bytes)),
        };
        format!(
            "eudify: {read}, {} tokens, {} tokens/s",
            thousands(words),
            thousands((words as f64 / seconds) as u64)
        )
    }
}
