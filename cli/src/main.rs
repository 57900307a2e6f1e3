//! The `eudify` command: a thin wrapper around [`eudify_cli::run`].

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(eudify_cli::run(std::env::args_os()))
}
