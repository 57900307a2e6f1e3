//! `eudify check`: every rule file, lexicon and profile, every error at once.

use super::args::RulesArgs;
use super::rule_source;
use crate::rules::check_all;
use anyhow::Result;

pub fn run(args: RulesArgs) -> Result<u8> {
    let source = rule_source(args.rules.as_deref())?;
    // check_all loads every profile too, and reports each diagnostic once.
    match check_all(&source) {
        Ok(warnings) => warnings.iter().for_each(|w| eprintln!("{w}")),
        Err(error) => {
            eprint!("{}", error.render());
            return Ok(super::EXIT_INVALID);
        }
    }
    println!("rules, lexicons and profiles: no errors");
    Ok(super::EXIT_SUCCESS)
}
