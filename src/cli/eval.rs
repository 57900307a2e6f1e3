//! `eudify eval`: the CoNLL 2018 / IWPT 2021 metrics of a system file against a gold file, on any
//! tokenization.

use super::args::EvalArgs;
use super::output::Output;
use anyhow::{bail, Result};
use eudify::eval::{evaluate_files, EvalOptions};
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: EvalArgs) -> Result<ExitCode> {
    if super::is_stdin(&args.gold) && super::is_stdin(&args.system) {
        bail!("gold and system cannot both be `-`: stdin is one input");
    }
    let options = EvalOptions { phenomena: args.phenomena, gram_eval: false };
    let report = evaluate_files(&args.gold, &args.system, &options)?;
    let mut out = Output::create(args.output.as_deref())?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report.to_json())?)?;
    } else {
        write!(out, "{report}")?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
