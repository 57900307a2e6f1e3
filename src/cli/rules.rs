//! `eudify rules export DIR`: an editable copy of the embedded rules.

use super::args::RulesCommand;
use anyhow::Result;
use eudify::rules::RuleSource;
use std::process::ExitCode;

pub fn run(command: RulesCommand) -> Result<ExitCode> {
    match command {
        RulesCommand::Export { dir } => {
            let count = RuleSource::export(&dir).map_err(super::Invalid)?;
            eprintln!(
                "wrote {count} files to {0}; use them with `--rules {0}`",
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
