//! The `eudify` command ([`run_cli`]). Flags are turned into typed configuration first, then
//! each command runs; every failure comes back as an error whose message is what the user sees,
//! and whose kind decides the exit code ([`exit_code`]).

mod args;
mod check;
mod enhance;
mod eval;
mod explain;
mod output;
mod profiles;
mod rules;
mod test;
mod validate;

use crate::eval::EvalError;
use crate::pipeline::PipelineError;
use anyhow::Result;
use args::{Args, Command};
use clap::Parser;
use std::ffi::OsString;
use std::io::Write;

pub(crate) use crate::conllu::input::is_stdin;

/// Exit code of success.
pub(crate) const EXIT_SUCCESS: u8 = 0;
/// Exit code of invalid input (`FILE:LINE: message`) or a failed check.
pub(crate) const EXIT_INVALID: u8 = 1;
/// Exit code of a usage error (clap's own), a file that cannot be read or written, or a bug.
pub(crate) const EXIT_TROUBLE: u8 = 2;

/// Runs the `eudify` command with `args` (the program name first, as [`std::env::args_os`]
/// gives them) and returns its exit code: 0 success, 1 invalid input (`FILE:LINE: message` on
/// stderr) or a failed check, 2 a usage error, a file that cannot be read or written, or an
/// internal error (a panic). A closed stdout (`eudify enhance … | head`) ends the run quietly
/// with 0. Output goes to the process's stdout and stderr; stdout is flushed before it returns.
///
/// The `eudify` binary is `ExitCode::from(eudify::run_cli(std::env::args_os()))`; the Python
/// package's console script calls it with `sys.argv`.
pub fn run_cli<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    // A panic outside the workers (which the pipeline turns into an error) is a bug too: exit
    // code 2 like any internal error, not Rust's 101. The panic hook has printed the message.
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(args))) {
        Ok(result) => result,
        Err(_) => {
            eprintln!("eudify: internal error (a panic); please report this");
            return EXIT_TROUBLE;
        }
    };
    // What a command wrote to stdout without flushing must be out before the code is returned
    // (a host process such as Python does not flush Rust's stdout when it exits).
    let result = result.and_then(|code| {
        std::io::stdout().flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(error) => {
            // `eudify enhance … | head`: a closed pipe is the reader's choice, not our failure.
            if is_broken_pipe(&error) {
                return EXIT_SUCCESS;
            }
            // Input errors already read `FILE:LINE: message`; editors and scripts parse that.
            eprintln!("{}", message(&error));
            exit_code(&error)
        }
    }
}

fn run<I, T>(args: I) -> Result<u8>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args = match Args::try_parse_from(args) {
        Ok(args) => args,
        // `--help`, `--version` (exit 0, on stdout) and usage errors (exit 2, on stderr) as
        // clap's `parse` would print them, without it ending the process.
        Err(error) => {
            error.print()?;
            return Ok(error.exit_code().try_into().unwrap_or(EXIT_TROUBLE));
        }
    };
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
pub(crate) struct Invalid(pub(crate) String);

/// The exit code for `error`: 1 when the input is at fault, 2 otherwise (a file that cannot be
/// read or written, a bug). The first error in the chain that tells decides.
pub(crate) fn exit_code(error: &anyhow::Error) -> u8 {
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
        if let Some(e) = cause.downcast_ref::<crate::Error>() {
            return match e {
                crate::Error::Input { .. } | crate::Error::Rules(_) => EXIT_INVALID,
                crate::Error::Io { error, .. } => io_code(error),
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
pub(crate) fn message(error: &anyhow::Error) -> String {
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
fn rule_source(dir: Option<&std::path::Path>) -> Result<crate::rules::RuleSource> {
    match dir {
        None => Ok(crate::rules::RuleSource::embedded()),
        Some(dir) => crate::rules::RuleSource::from_dir(dir).map_err(|e| Invalid(e).into()),
    }
}

/// The enhancer for `--lang CODE` (and `--rules DIR`): the profile it resolves to (with a
/// warning on stderr when it falls back), its rules loaded and checked.
fn load_enhancer(rules: Option<&std::path::Path>, code: &str) -> Result<crate::Enhancer> {
    let enhancer = crate::Enhancer::for_profile(code, rules).map_err(|e| match e {
        crate::Error::Rules(message) => anyhow::Error::from(Invalid(message)),
        other => other.into(),
    })?;
    if let Some(warning) = enhancer.warning() {
        eprintln!("warning: {warning}");
    }
    Ok(enhancer)
}

/// Whether an error comes from writing to a closed pipe, anywhere in its chain.
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<crate::pipeline::PipelineError>()
                .is_some_and(|e| matches!(e, crate::pipeline::PipelineError::Output(io) if io.kind() == std::io::ErrorKind::BrokenPipe))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conllu::ParseError;
    use std::io;

    #[test]
    fn each_kind_of_failure_has_its_exit_code() {
        let parse = ParseError {
            line: 3,
            message: "bad".into(),
        };
        let io = |kind| io::Error::new(kind, "x");
        let file = || "f".to_string();
        let cases: Vec<(anyhow::Error, u8)> = vec![
            (
                PipelineError::Input {
                    file: file(),
                    error: parse.clone(),
                }
                .into(),
                EXIT_INVALID,
            ),
            (
                PipelineError::Panic {
                    file: file(),
                    message: "boom".into(),
                }
                .into(),
                EXIT_TROUBLE,
            ),
            (
                PipelineError::Output(io(io::ErrorKind::StorageFull)).into(),
                EXIT_TROUBLE,
            ),
            (
                PipelineError::Io {
                    file: file(),
                    error: io(io::ErrorKind::InvalidData),
                }
                .into(),
                EXIT_INVALID,
            ),
            (
                PipelineError::Io {
                    file: file(),
                    error: io(io::ErrorKind::PermissionDenied),
                }
                .into(),
                EXIT_TROUBLE,
            ),
            (
                EvalError::Parse {
                    file: file(),
                    line: 3,
                    message: "bad".into(),
                }
                .into(),
                EXIT_INVALID,
            ),
            (
                EvalError::Mismatch {
                    file: file(),
                    line: 3,
                    message: "bad".into(),
                }
                .into(),
                EXIT_INVALID,
            ),
            (
                EvalError::Io {
                    file: file(),
                    error: io(io::ErrorKind::NotFound),
                }
                .into(),
                EXIT_TROUBLE,
            ),
            (
                anyhow::Error::from(io(io::ErrorKind::NotFound)).context("f: cannot read"),
                EXIT_TROUBLE,
            ),
            (
                anyhow::Error::from(io(io::ErrorKind::InvalidData)).context("f: cannot read"),
                EXIT_INVALID,
            ),
            (Invalid("rules".into()).into(), EXIT_INVALID),
            (
                crate::Error::Input {
                    file: file(),
                    line: 3,
                    message: "bad".into(),
                }
                .into(),
                EXIT_INVALID,
            ),
            (crate::Error::Rules("bad".into()).into(), EXIT_INVALID),
            (
                crate::Error::Io {
                    file: file(),
                    error: io(io::ErrorKind::NotFound),
                }
                .into(),
                EXIT_TROUBLE,
            ),
            (
                crate::Error::Output(io(io::ErrorKind::StorageFull)).into(),
                EXIT_TROUBLE,
            ),
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
