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
    let pipeline = Pipeline::new(&enhancer, options).context("starting worker threads")?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut summary = Summary::default();
    let mut report = |line: String| eprintln!("{line}");
    let files = if args.files.is_empty() { vec!["-".into()] } else { args.files };
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
    if summary.copied_invalid > 0 {
        eprintln!(
            "eudify: {} sentences, {} invalid ones copied unchanged",
            summary.sentences, summary.copied_invalid
        );
    }
    Ok(ExitCode::SUCCESS)
}
