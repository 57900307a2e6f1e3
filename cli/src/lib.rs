//! The `eudify` command ([`run`]), a client of the `eudify` library's public API. Flags are
//! turned into typed configuration first, then each command calls the library and prints; every
//! failure comes back as an error whose message is what the user sees and whose kind decides
//! the exit code ([`exit_code`], the one place that maps them).

mod args;
mod check;
mod enhance;
mod eval;
mod explain;
mod fit;
mod generate;
mod grep;
mod output;
mod profiles;
mod rules;
mod serve;
mod test;
mod validate;
mod view;

use anyhow::{Context, Result};
use args::{Args, Command};
use clap::Parser;
use std::ffi::OsString;
use std::io::Write;

/// Exit code of success.
pub const EXIT_SUCCESS: u8 = 0;
/// Exit code of invalid input (`FILE:LINE: message`) or a failed check.
pub const EXIT_INVALID: u8 = 1;
/// Exit code of a usage error (clap's own), a file that cannot be read or written, or a bug.
pub const EXIT_TROUBLE: u8 = 2;

/// Runs the `eudify` command with `args` (the program name first, as [`std::env::args_os`]
/// gives them) and returns its exit code: 0 success, 1 invalid input (`FILE:LINE: message` on
/// stderr) or a failed check, 2 a usage error, a file that cannot be read or written, or an
/// internal error (a panic). A closed stdout (`eudify enhance … | head`) ends the run quietly
/// with 0. Output goes to the process's stdout and stderr; stdout is flushed before it returns.
///
/// The `eudify` binary is `ExitCode::from(eudify_cli::run(std::env::args_os()))`; the Python
/// package's console script calls it with `sys.argv`.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    // A panic outside the workers (which the pipeline turns into an error) is a bug too: exit
    // code 2 like any internal error, not Rust's 101. The panic hook has printed the message.
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(args))) {
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

fn dispatch<I, T>(args: I) -> Result<u8>
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
        Command::Grep(a) => grep::run(a),
        Command::View(a) => view::run(a),
        Command::Fit(a) => fit::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Completions(a) => generate::completions(a),
        Command::Man => generate::man(),
    }
}

/// An error in what the user gave that the CLI itself finds (a `--macro` list that does not
/// read): exit code 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Invalid(pub(crate) String);

/// The exit code for `error`: 1 when the input is at fault, 2 otherwise (a file that cannot be
/// read or written, a bug). The library's [`eudify::Error`] says which it is; an I/O error of the
/// CLI's own (opening a file, writing stdout) is the system's fault unless its bytes are corrupt.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    let invalid = error.chain().find_map(|cause| {
        if let Some(e) = cause.downcast_ref::<eudify::Error>() {
            Some(e.is_invalid_input())
        } else if let Some(e) = cause.downcast_ref::<eudify::eval::EvalError>() {
            Some(e.is_invalid_input())
        } else {
            if cause.is::<Invalid>() {
                Some(true)
            } else {
                cause
                    .downcast_ref::<std::io::Error>()
                    .map(eudify::is_invalid_data)
            }
        }
    });
    match invalid {
        Some(true) => EXIT_INVALID,
        _ => EXIT_TROUBLE,
    }
}

/// The message for `error`: its chain joined by `: `, leaving out a cause whose text the
/// message already holds (an error that shows its source and also returns it from `source()`
/// would otherwise print `Is a directory (os error 21)` twice).
fn message(error: &anyhow::Error) -> String {
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

/// The enhancer for `--lang CODE` (and `--rules DIR`): the profile it resolves to (with a
/// warning on stderr when it falls back), its rules loaded and checked.
fn load_enhancer(rules: Option<&std::path::Path>, code: &str) -> Result<eudify::Enhancer> {
    let enhancer = eudify::Enhancer::for_profile(code, rules)?;
    if let Some(warning) = enhancer.warning() {
        eprintln!("warning: {warning}");
    }
    Ok(enhancer)
}

/// Stdin's first sentences, read to choose the profile, and the rest of it: read it whole
/// again with [`Replay::into_reader`].
pub(crate) struct Replay {
    sample: Vec<u8>,
    rest: Box<dyn std::io::BufRead>,
}

impl Replay {
    pub(crate) fn into_reader(self) -> impl std::io::BufRead {
        use std::io::Read;
        std::io::Cursor::new(self.sample).chain(self.rest)
    }
}

/// The code to load for `--lang` (as given, in silence) or, without it, for the profile that
/// `files` show (`eudify::detect_profile`), said on stderr as `eudify: profile cs (why)`. Inputs
/// that show different profiles, or too little, are an error asking for `--lang`. Stdin (`-`,
/// at most once) is read once: its first sentences come back in the [`Replay`].
fn profile_code(
    lang: Option<&str>,
    rules: Option<&std::path::Path>,
    files: &[std::path::PathBuf],
) -> Result<(String, Option<Replay>)> {
    if let Some(code) = lang {
        return Ok((code.to_string(), None));
    }
    let mut replay = None;
    let mut detections: Vec<(String, eudify::Detection)> = Vec::new();
    for path in files {
        let name = eudify::files::display_name(path);
        // Opened and read as the command reads its inputs, for the same messages.
        let mut rest = eudify::files::open(path).with_context(|| format!("{name}: cannot read"))?;
        let sample = eudify::detect::read_sample(&mut rest)
            .with_context(|| format!("{name}: cannot read"))?;
        let detection = eudify::detect_profile(&name, &sample, rules)?;
        if eudify::files::is_stdin(path) {
            replay = Some(Replay { sample, rest });
        }
        detections.push((name, detection));
    }
    // An input without words has no say when others have words.
    if detections
        .iter()
        .any(|(_, d)| d.evidence != eudify::detect::Evidence::NoWords)
    {
        detections.retain(|(_, d)| d.evidence != eudify::detect::Evidence::NoWords);
    }
    let Some((_, first)) = detections.first() else {
        anyhow::bail!(Invalid(
            "no input to choose a profile from: give --lang CODE".into()
        ));
    };
    if detections.iter().any(|(_, d)| d.profile != first.profile) {
        let each: Vec<String> = detections
            .iter()
            .map(|(name, d)| format!("{name}: {d}"))
            .collect();
        anyhow::bail!(Invalid(format!(
            "the inputs need different profiles; give --lang CODE, or enhance them one at a time:\n  {}",
            each.join("\n  ")
        )));
    }
    let others = match detections.len() {
        1 => String::new(),
        n => format!(" and the {} other inputs agree", n - 1),
    };
    eprintln!("eudify: {first}{others}");
    Ok((first.profile.clone(), replay))
}

/// Whether an error comes from writing to a closed pipe, anywhere in its chain.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<eudify::Error>()
                .is_some_and(eudify::Error::is_broken_pipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eudify::eval::EvalError;
    use std::io;

    #[test]
    fn each_kind_of_failure_has_its_exit_code() {
        let io = |kind| io::Error::new(kind, "x");
        let file = || "f".to_string();
        let cases: Vec<(anyhow::Error, u8)> = vec![
            (
                eudify::Error::Input {
                    file: file(),
                    line: 3,
                    message: "bad".into(),
                }
                .into(),
                EXIT_INVALID,
            ),
            (eudify::Error::Rules("bad".into()).into(), EXIT_INVALID),
            (
                eudify::Error::NoSuchSentence {
                    file: file(),
                    sent_id: "s1".into(),
                }
                .into(),
                EXIT_INVALID,
            ),
            (
                eudify::Error::Internal {
                    file: file(),
                    message: "boom".into(),
                }
                .into(),
                EXIT_TROUBLE,
            ),
            (
                eudify::Error::Output(io(io::ErrorKind::StorageFull)).into(),
                EXIT_TROUBLE,
            ),
            (
                eudify::Error::Io {
                    file: file(),
                    error: io(io::ErrorKind::InvalidData),
                }
                .into(),
                EXIT_INVALID,
            ),
            (
                eudify::Error::Io {
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
            (Invalid("pairs".into()).into(), EXIT_INVALID),
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

    #[test]
    fn a_closed_pipe_is_no_failure() {
        let pipe = || io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(is_broken_pipe(&eudify::Error::Output(pipe()).into()));
        assert!(is_broken_pipe(
            &anyhow::Error::from(pipe()).context("stdout")
        ));
        assert!(!is_broken_pipe(
            &eudify::Error::Output(io::Error::from(io::ErrorKind::StorageFull)).into()
        ));
    }
}
