//! The `eudify` command: a thin wrapper around [`eudify::run_cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(eudify::run_cli(std::env::args_os()))
}
