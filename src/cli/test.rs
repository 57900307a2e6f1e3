//! `eudify test`: run every example of every rule, under every profile that includes the rule.

use super::args::RulesArgs;
use super::rule_source;
use super::Invalid;
use crate::engine::Enhancer;
use crate::rules::{list_profiles, load_ruleset};
use anyhow::Result;
use std::collections::HashSet;

pub fn run(args: RulesArgs) -> Result<u8> {
    let source = rule_source(args.rules.as_deref())?;
    let profiles = list_profiles(&source).map_err(|(sources, d)| {
        Invalid(
            crate::rules::diagnostic::render_all(&d, &sources)
                .trim_end()
                .to_string(),
        )
    })?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    // The same example of the same rule with the same expectations and the same outcome under
    // two profiles is one test. The outcome is part of the key: settings, lexicons and guarded
    // label parts can make the rule behave differently under a profile whose expectations are
    // the same, and that profile's failure must not hide behind another's pass.
    let mut seen = HashSet::new();
    for profile in profiles {
        let rule_set = load_ruleset(&source, &profile.name)
            .map_err(|e| Invalid(e.render().trim_end().to_string()))?;
        let enhancer = Enhancer::new(&rule_set);
        for (index, compiled) in enhancer.rules.iter().enumerate() {
            let rule = &compiled.rule;
            for example in &rule.examples {
                if example.expect.is_empty() {
                    continue;
                }
                if enhancer.needs_missing_lexicon(index) {
                    skipped += 1;
                    continue;
                }
                let result = enhancer.run_example(index, example);
                let outcome = match &result {
                    Ok(result) => result.output.clone(),
                    Err(message) => message.clone(),
                };
                let key = (
                    rule.path.clone(),
                    rule.name.clone(),
                    example.span.start,
                    example.expect.clone(),
                    outcome,
                );
                if !seen.insert(key) {
                    continue;
                }
                let place = format!(
                    "{}:{}: rule {} (profile {})",
                    rule.path, example.span.line, rule.name, profile.name
                );
                match result {
                    Ok(result) if result.passed() => passed += 1,
                    Ok(result) => {
                        failed += 1;
                        println!("FAIL {place}");
                        for (id, expected, actual) in &result.mismatches {
                            println!("  node {id}\n  - expected {expected}\n  + actual   {actual}");
                        }
                    }
                    Err(message) => {
                        failed += 1;
                        println!("FAIL {place}: {message}");
                    }
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped (a lexicon list the profile leaves empty)");
    Ok(if failed == 0 {
        super::EXIT_SUCCESS
    } else {
        super::EXIT_INVALID
    })
}
