//! The `eudify` command: a thin wrapper around [`cli::run`].

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // A panic outside the workers (which the pipeline turns into an error) is a bug too: exit
    // code 2 like any internal error, not Rust's 101. The panic hook has printed the message.
    let result = match std::panic::catch_unwind(cli::run) {
        Ok(result) => result,
        Err(_) => {
            eprintln!("eudify: internal error (a panic); please report this");
            return ExitCode::from(cli::EXIT_TROUBLE);
        }
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            // `eudify enhance … | head`: a closed pipe is the reader's choice, not our failure.
            if cli::is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            // Input errors already read `FILE:LINE: message`; editors and scripts parse that.
            eprintln!("{}", cli::message(&error));
            ExitCode::from(cli::exit_code(&error))
        }
    }
}
