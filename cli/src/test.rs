//! `eudify test`: run every example of every rule, under every profile that includes the rule.

use super::args::RulesArgs;
use anyhow::Result;

pub fn run(args: RulesArgs) -> Result<u8> {
    let report = eudify::test_examples(args.rules.as_deref())?;
    for failure in &report.failures {
        match &failure.error {
            Some(message) => println!("FAIL {}: {message}", failure.place),
            None => {
                println!("FAIL {}", failure.place);
                for (id, expected, actual) in &failure.mismatches {
                    println!("  node {id}\n  - expected {expected}\n  + actual   {actual}");
                }
            }
        }
    }
    println!(
        "{} passed, {} failed, {} skipped (a lexicon list the profile leaves empty)",
        report.passed,
        report.failures.len(),
        report.skipped
    );
    Ok(if report.failures.is_empty() {
        super::EXIT_SUCCESS
    } else {
        super::EXIT_INVALID
    })
}
