//! Subcommands. Flags are turned into typed configuration first, then each command runs;
//! every failure comes back as an error whose message is what the user sees.

mod args;
mod enhance;
mod eval;
mod profiles;
mod validate;

use anyhow::Result;
use args::{Args, Command};
use clap::Parser;
use std::process::ExitCode;

pub fn run() -> Result<ExitCode> {
    let args = Args::parse();
    match args.command {
        Command::Enhance(a) => enhance::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Profiles(a) => profiles::run(a),
    }
}

/// The embedded rules, or an edited copy in `dir`.
fn rule_source(dir: Option<&std::path::Path>) -> Result<eudify::rules::RuleSource> {
    match dir {
        None => Ok(eudify::rules::RuleSource::embedded()),
        Some(dir) => eudify::rules::RuleSource::from_dir(dir).map_err(anyhow::Error::msg),
    }
}

/// Whether an error comes from writing to a closed pipe, anywhere in its chain.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<eudify::pipeline::PipelineError>()
                .is_some_and(|e| matches!(e, eudify::pipeline::PipelineError::Output(io) if io.kind() == std::io::ErrorKind::BrokenPipe))
    })
}
