//! `eudify rules export DIR`: an editable copy of the embedded rules.

use super::args::RulesCommand;
use crate::rules::RuleSource;
use anyhow::Result;

pub fn run(command: RulesCommand) -> Result<u8> {
    match command {
        RulesCommand::Export { dir } => {
            let count = RuleSource::export(&dir).map_err(super::Invalid)?;
            eprintln!(
                "wrote {count} files to {0}; use them with `--rules {0}`",
                dir.display()
            );
            Ok(super::EXIT_SUCCESS)
        }
    }
}
