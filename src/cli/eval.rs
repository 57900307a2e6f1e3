//! `eudify eval`: ELAS, EULAS and LAS of a system file against a gold file.

use super::args::EvalArgs;
use anyhow::Result;
use eudify::eval::{evaluate_files, EvalOptions};
use std::io::{self, Write};
use std::process::ExitCode;

pub fn run(args: EvalArgs) -> Result<ExitCode> {
    let options = EvalOptions { phenomena: args.phenomena };
    let report = evaluate_files(&args.gold, &args.system, &options)?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report.to_json())?)?;
    } else {
        write!(out, "{report}")?;
    }
    Ok(ExitCode::SUCCESS)
}
