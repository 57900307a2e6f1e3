//! `eudify check`: every rule file, lexicon and profile, every error at once.

use super::args::RulesArgs;
use anyhow::Result;

pub fn run(args: RulesArgs) -> Result<u8> {
    // check_rules loads every profile too, and reports each diagnostic once.
    match eudify::check_rules(args.rules.as_deref()) {
        Ok(warnings) => warnings.iter().for_each(|w| eprintln!("{w}")),
        Err(eudify::Error::Rules(errors)) => {
            // Rendered diagnostics end with their own line break; a folder that is none does not.
            match errors.ends_with('\n') {
                true => eprint!("{errors}"),
                false => eprintln!("{errors}"),
            }
            return Ok(super::EXIT_INVALID);
        }
        Err(other) => return Err(other.into()),
    }
    println!("rules, lexicons and profiles: no errors");
    Ok(super::EXIT_SUCCESS)
}
