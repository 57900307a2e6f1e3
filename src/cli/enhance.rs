//! `eudify enhance`: read CoNLL-U, write it back with the enhanced layer recomputed.

use super::args::{EnhanceArgs, OnErrorArg};
use anyhow::{Context, Result};
use eudify::pipeline::{OnError, Pipeline, PipelineOptions, Summary};
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::process::ExitCode;

pub fn run(args: EnhanceArgs) -> Result<ExitCode> {
    let source = super::rule_source(args.rules.as_deref())?;
    let enhancer = super::load_enhancer(&source, &args.lang)?;
    let options = PipelineOptions {
        threads: args.threads.unwrap_or(0),
        on_error: match args.on_error {
            OnErrorArg::Fail => OnError::Fail,
            OnErrorArg::Copy => OnError::Copy,
        },
        ..PipelineOptions::default()
    };
    let mut pipeline = Pipeline::new(&enhancer, options).context("starting worker threads")?;
    let files = if args.files.is_empty() { vec!["-".into()] } else { args.files };
    let bar = progress_bar(&files, args.progress);
    if let Some(bar) = &bar {
        let bar = bar.clone();
        let total_words = std::sync::atomic::AtomicU64::new(0);
        pipeline.on_progress(move |bytes, words| {
            let words = total_words.fetch_add(words, std::sync::atomic::Ordering::Relaxed) + words;
            let rate = words as f64 / bar.elapsed().as_secs_f64().max(1e-3);
            bar.inc(bytes);
            bar.set_message(format!("{words} tokens, {rate:.0} tokens/s"));
        });
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut summary = Summary::default();
    let mut report = |line: String| eprintln!("{line}");
    for path in &files {
        let name = path.display().to_string();
        let file_summary = if name == "-" {
            let stdin = io::stdin();
            pipeline.run("<stdin>", stdin.lock(), &mut out, &mut report)?
        } else {
            let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
            let input = BufReader::with_capacity(1 << 16, file);
            pipeline.run(&name, input, &mut out, &mut report)?
        };
        summary.add(&file_summary);
    }
    out.flush()?;
    if let Some(bar) = bar {
        bar.finish();
    }
    if summary.copied_invalid > 0 {
        eprintln!(
            "eudify: {} sentences, {} invalid ones copied unchanged",
            summary.sentences, summary.copied_invalid
        );
    }
    if summary.runaways > 0 {
        eprintln!(
            "eudify: {} sentences, {} with runaway rules written with basic DEPS",
            summary.sentences, summary.runaways
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Large inputs: files over this size get a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 50_000_000;

/// A progress bar over the input bytes, when asked for or when the input is large and stderr
/// is a terminal; nothing on stderr otherwise.
fn progress_bar(files: &[std::path::PathBuf], asked: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    let sizes: Option<u64> = files
        .iter()
        .map(|f| if f.as_os_str() == "-" { None } else { std::fs::metadata(f).ok().map(|m| m.len()) })
        .sum();
    let large = sizes.is_some_and(|total| total > PROGRESS_THRESHOLD);
    let shown = asked || (large && io::stderr().is_terminal());
    if !shown {
        return None;
    }
    let bar = match sizes {
        Some(total) => indicatif::ProgressBar::new(total).with_style(
            indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} (eta {eta})")
                .expect("a valid template"),
        ),
        None => indicatif::ProgressBar::new_spinner()
            .with_style(indicatif::ProgressStyle::with_template("{spinner} {bytes} {msg}").expect("a valid template")),
    };
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    Some(bar)
}
