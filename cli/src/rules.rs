//! `eudify rules export DIR`: an editable copy of the embedded rules.

use super::args::RulesCommand;
use anyhow::Result;

pub fn run(command: RulesCommand) -> Result<u8> {
    match command {
        RulesCommand::Export { dir } => {
            let count = eudify::export_rules(&dir)?;
            eprintln!(
                "wrote {count} files to {0}; use them with `--rules {0}`",
                dir.display()
            );
            Ok(super::EXIT_SUCCESS)
        }
    }
}
