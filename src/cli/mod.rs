//! Subcommands. Flags are turned into typed configuration first, then each command runs;
//! every failure comes back as an error whose message is what the user sees.

mod args;
mod check;
mod enhance;
mod explain;
mod test;
mod eval;
mod profiles;
mod rules;
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
        Command::Check(a) => check::run(a),
        Command::Test(a) => test::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Rules(a) => rules::run(a),
    }
}

/// The embedded rules, or an edited copy in `dir`.
fn rule_source(dir: Option<&std::path::Path>) -> Result<eudify::rules::RuleSource> {
    match dir {
        None => Ok(eudify::rules::RuleSource::embedded()),
        Some(dir) => eudify::rules::RuleSource::from_dir(dir).map_err(anyhow::Error::msg),
    }
}

/// The enhancer for `--lang CODE`: the profile it resolves to (with a warning on stderr when
/// it falls back), its rules loaded and checked.
fn load_enhancer(source: &eudify::rules::RuleSource, code: &str) -> Result<eudify::engine::Enhancer> {
    let (profile, warning) = eudify::rules::resolve_profile(source, code);
    if let Some(warning) = warning {
        eprintln!("warning: {warning}");
    }
    let rule_set = eudify::rules::load_ruleset(source, &profile).map_err(|e| anyhow::anyhow!("{}", e.render().trim_end()))?;
    Ok(eudify::engine::Enhancer::new(&rule_set))
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
