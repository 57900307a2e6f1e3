//! `eudify enhance`: read CoNLL-U, write it back with the enhanced layer recomputed.

use super::args::{EnhanceArgs, OnErrorArg};
use super::output::Output;
use crate::conllu::input;
use crate::pipeline::{OnError, Pipeline, PipelineOptions, Summary};
use crate::text::{count, thousands};
use anyhow::{Context, Result};
use std::io;
use std::path::PathBuf;

pub fn run(args: EnhanceArgs) -> Result<u8> {
    let enhancer = super::load_enhancer(args.rules.as_deref(), &args.lang)?;
    let options = PipelineOptions {
        threads: threads(args.threads),
        on_error: match args.on_error {
            OnErrorArg::Fail => OnError::Fail,
            OnErrorArg::Copy => OnError::Copy,
        },
        ..PipelineOptions::default()
    };
    let mut pipeline =
        Pipeline::new(enhancer.engine(), options).context("starting worker threads")?;
    let files = if args.files.is_empty() {
        vec!["-".into()]
    } else {
        args.files
    };
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
    let mut out = Output::create(args.output.as_deref())?;
    let mut summary = Summary::default();
    let mut report = |line: String| eprintln!("{line}");
    for path in &files {
        let name = input::display_name(path);
        let reader = input::open(path).with_context(|| format!("{name}: cannot read"))?;
        let file_summary = pipeline.run(&name, reader, &mut out, &mut report)?;
        if let Some(warning) = file_summary.lemma_warning(&name) {
            report(warning);
        }
        summary.add(&file_summary);
    }
    out.finish()?;
    if let Some(bar) = bar {
        bar.finish();
    }
    if let Some(line) = summary_line(&summary) {
        eprintln!("{line}");
    }
    Ok(super::EXIT_SUCCESS)
}

/// The line `enhance` ends with on stderr when something was not enhanced as given, never
/// silently: sentences copied unchanged for being invalid, labels repaired to UD's shape
/// (`eudify: 2,077 sentences; 2,077 labels repaired (ROOT → root)`), sentences whose rules ran
/// away and were written with the basic copy as DEPS.
pub fn summary_line(summary: &Summary) -> Option<String> {
    if summary.copied_invalid == 0 && summary.runaways == 0 && summary.repairs.is_empty() {
        return None;
    }
    let mut line = format!("eudify: {}", count(summary.sentences as u64, "sentence"));
    if summary.copied_invalid > 0 {
        line += &format!(
            ", {} copied unchanged",
            count(summary.copied_invalid as u64, "invalid one")
        );
    }
    if summary.runaways > 0 {
        let verb = if summary.runaways == 1 { "was" } else { "were" };
        line += &format!(
            ", {} with runaway rules {verb} written with basic DEPS",
            thousands(summary.runaways as u64)
        );
    }
    if !summary.repairs.is_empty() {
        line += &format!("; {}", summary.repairs);
    }
    Some(line)
}

/// The worker threads for `--threads N`: N, but no more than the cores (more only costs memory
/// and, in the thousands, aborts the process when the system refuses a thread's stack guard).
fn threads(asked: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        None | Some(0) => cores,
        Some(n) if n > cores => {
            eprintln!(
                "warning: --threads {n} is more than the {}; using {cores}",
                count(cores as u64, "core")
            );
            cores
        }
        Some(n) => n,
    }
}

/// Large inputs: files over this size get a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 50_000_000;

/// A progress bar over the input bytes, when asked for or when the input is large and stderr
/// is a terminal; nothing on stderr otherwise.
fn progress_bar(files: &[PathBuf], asked: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    let sizes: Option<u64> = files
        .iter()
        .map(|f| {
            if input::is_stdin(f) {
                None
            } else {
                std::fs::metadata(f).ok().map(|m| m.len())
            }
        })
        .sum();
    let large = sizes.is_some_and(|total| total > PROGRESS_THRESHOLD);
    let shown = asked || (large && io::stderr().is_terminal());
    if !shown {
        return None;
    }
    // Progress counts decompressed bytes: the size of a gzip file is no total for them.
    let total = sizes.filter(|_| !files.iter().any(|f| input::is_gzip_file(f)));
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
    Some(bar)
}
