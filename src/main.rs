//! The `eudify` command: a thin wrapper around [`cli::run`].

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(error) => {
            // `eudify enhance … | head`: a closed pipe is the reader's choice, not our failure.
            if cli::is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            // Input errors already read `FILE:LINE: message`; editors and scripts parse that.
            eprintln!("{error:#}");
            ExitCode::from(1)
        }
    }
}
