//! Subcommands. Flags are turned into typed configuration first, then each command runs;
//! every failure comes back as an error whose message is what the user sees, and whose kind
//! decides the exit code ([`exit_code`]).

mod args;
mod check;
mod enhance;
mod explain;
mod output;
mod test;
mod eval;
mod profiles;
mod rules;
mod validate;

use anyhow::Result;
use args::{Args, Command};
use clap::Parser;
use eudify::eval::EvalError;
use eudify::pipeline::PipelineError;
use std::process::ExitCode;

pub use eudify::conllu::input::is_stdin;

/// Exit code of invalid input (`FILE:LINE: message`) or a failed check.
pub const EXIT_INVALID: u8 = 1;
/// Exit code of a usage error (clap's own), a file that cannot be read or written, or a bug.
pub const EXIT_TROUBLE: u8 = 2;

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

/// An error in what the user gave (rules, a sentence, a sent_id that is not there), found by
/// the CLI itself: exit code 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

/// The exit code for `error`: 1 when the input is at fault, 2 otherwise (a file that cannot be
/// read or written, a bug). The first error in the chain that tells decides.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    let io_code = |e: &std::io::Error| match e.kind() {
        // Bytes that are not what they claim to be (corrupt gzip): the input is at fault.
        std::io::ErrorKind::InvalidData => EXIT_INVALID,
        _ => EXIT_TROUBLE,
    };
    for cause in error.chain() {
        if let Some(e) = cause.downcast_ref::<PipelineError>() {
            return match e {
                PipelineError::Input { .. } => EXIT_INVALID,
                PipelineError::Io { error, .. } => io_code(error),
                PipelineError::Output(_) | PipelineError::Panic { .. } => EXIT_TROUBLE,
            };
        }
        if let Some(e) = cause.downcast_ref::<eudify::Error>() {
            return match e {
                eudify::Error::Input { .. } | eudify::Error::Rules(_) => EXIT_INVALID,
                eudify::Error::Io { error, .. } => io_code(error),
                _ => EXIT_TROUBLE,
            };
        }
        if let Some(e) = cause.downcast_ref::<EvalError>() {
            return match e {
                EvalError::Io { error, .. } => io_code(error),
                EvalError::Parse { .. } | EvalError::Mismatch { .. } => EXIT_INVALID,
            };
        }
        if cause.is::<Invalid>() {
            return EXIT_INVALID;
        }
        if let Some(e) = cause.downcast_ref::<std::io::Error>() {
            return io_code(e);
        }
    }
    EXIT_TROUBLE
}

/// The message for `error`: its chain joined by `: `, leaving out a cause whose text the
/// message already holds (an error that shows its source and also returns it from `source()`
/// would otherwise print `Is a directory (os error 21)` twice).
pub fn message(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

/// The embedded rules, or an edited copy in `dir`.
fn rule_source(dir: Option<&std::path::Path>) -> Result<eudify::rules::RuleSource> {
    match dir {
        None => Ok(eudify::rules::RuleSource::embedded()),
        Some(dir) => eudify::rules::RuleSource::from_dir(dir).map_err(|e| Invalid(e).into()),
    }
}

/// The enhancer for `--lang CODE` (and `--rules DIR`): the profile it resolves to (with a
/// warning on stderr when it falls back), its rules loaded and checked.
fn load_enhancer(rules: Option<&std::path::Path>, code: &str) -> Result<eudify::Enhancer> {
    let enhancer = eudify::Enhancer::for_profile(code, rules).map_err(|e| match e {
        eudify::Error::Rules(message) => anyhow::Error::from(Invalid(message)),
        other => other.into(),
    })?;
    if let Some(warning) = enhancer.warning() {
        eprintln!("warning: {warning}");
    }
    Ok(enhancer)
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

#[cfg(test)]
mod tests {
    use super::*;
    use eudify::conllu::ParseError;
    use std::io;

    #[test]
    fn each_kind_of_failure_has_its_exit_code() {
        let parse = ParseError { line: 3, message: "bad".into() };
        let io = |kind| io::Error::new(kind, "x");
        let file = || "f".to_string();
        let cases: Vec<(anyhow::Error, u8)> = vec![
            (PipelineError::Input { file: file(), error: parse.clone() }.into(), EXIT_INVALID),
            (PipelineError::Panic { file: file(), message: "boom".into() }.into(), EXIT_TROUBLE),
            (PipelineError::Output(io(io::ErrorKind::StorageFull)).into(), EXIT_TROUBLE),
            (PipelineError::Io { file: file(), error: io(io::ErrorKind::InvalidData) }.into(), EXIT_INVALID),
            (PipelineError::Io { file: file(), error: io(io::ErrorKind::PermissionDenied) }.into(), EXIT_TROUBLE),
            (EvalError::Parse { file: file(), line: 3, message: "bad".into() }.into(), EXIT_INVALID),
            (EvalError::Mismatch { file: file(), line: 3, message: "bad".into() }.into(), EXIT_INVALID),
            (EvalError::Io { file: file(), error: io(io::ErrorKind::NotFound) }.into(), EXIT_TROUBLE),
            (anyhow::Error::from(io(io::ErrorKind::NotFound)).context("f: cannot read"), EXIT_TROUBLE),
            (anyhow::Error::from(io(io::ErrorKind::InvalidData)).context("f: cannot read"), EXIT_INVALID),
            (Invalid("rules".into()).into(), EXIT_INVALID),
            (eudify::Error::Input { file: file(), line: 3, message: "bad".into() }.into(), EXIT_INVALID),
            (eudify::Error::Rules("bad".into()).into(), EXIT_INVALID),
            (eudify::Error::Io { file: file(), error: io(io::ErrorKind::NotFound) }.into(), EXIT_TROUBLE),
            (eudify::Error::Output(io(io::ErrorKind::StorageFull)).into(), EXIT_TROUBLE),
            (anyhow::anyhow!("something else"), EXIT_TROUBLE),
        ];
        for (error, code) in cases {
            assert_eq!(exit_code(&error), code, "{error:#}");
        }
    }

    /// An error that shows its source and also returns it from `source()`.
    #[derive(Debug, thiserror::Error)]
    #[error("f: {0}")]
    struct ShowsItsSource(#[source] io::Error);

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let os = || io::Error::from_raw_os_error(21);
        let error = anyhow::Error::from(ShowsItsSource(os()));
        assert_eq!(message(&error), format!("f: {}", os()));
        let error = anyhow::Error::from(os()).context("f: cannot read");
        assert_eq!(message(&error), format!("f: cannot read: {}", os()));
    }
}
