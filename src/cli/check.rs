//! `eudify check`: every rule file, lexicon and profile, every error at once.

use super::args::RulesArgs;
use super::rule_source;
use anyhow::Result;
use eudify::rules::{check_all, list_profiles, load_ruleset};
use eudify::rules::diagnostic::render_all;
use std::process::ExitCode;

pub fn run(args: RulesArgs) -> Result<ExitCode> {
    let source = rule_source(args.rules.as_deref())?;
    let mut failed = false;
    match check_all(&source) {
        Ok(warnings) => warnings.iter().for_each(|w| eprintln!("{w}")),
        Err(error) => {
            eprint!("{}", error.render());
            failed = true;
        }
    }
    // Each profile on its own: its settings decide which rules exist and what labels they build.
    match list_profiles(&source) {
        Ok(profiles) => {
            for profile in profiles {
                if let Err(error) = load_ruleset(&source, &profile.name) {
                    eprintln!("in profile `{}`:", profile.name);
                    eprint!("{}", error.render());
                    failed = true;
                }
            }
        }
        Err((sources, diagnostics)) => {
            eprint!("{}", render_all(&diagnostics, &sources));
            failed = true;
        }
    }
    if failed {
        return Ok(ExitCode::from(super::EXIT_INVALID));
    }
    println!("rules, lexicons and profiles: no errors");
    Ok(ExitCode::SUCCESS)
}
