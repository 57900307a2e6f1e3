//! The rules themselves, as a client sees them: the profiles there are, every error of a rules
//! folder at once (`eudify check`), the examples rule files carry run as tests (`eudify test`),
//! and an editable copy of the embedded rules (`eudify rules export`).

use crate::engine;
use crate::error::Error;
use crate::rules::{self, RuleSource};
use std::collections::HashSet;
use std::path::Path;

/// The embedded rules, or an edited copy of the `rules/` directory in `dir`.
pub(crate) fn rule_source(dir: Option<&Path>) -> Result<RuleSource, Error> {
    match dir {
        None => Ok(RuleSource::embedded()),
        Some(dir) => RuleSource::from_dir(dir).map_err(Error::Rules),
    }
}

/// A language profile, as `eudify profiles` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The name [`super::Enhancer::for_profile`] takes (`cs`, `en`, `universal`…).
    pub name: String,
    /// What it annotates, in one line.
    pub description: String,
    /// The profile it builds on, if any.
    pub extends: Option<String>,
}

/// Every profile of the embedded rules, or of `rules` (an edited copy of the `rules/`
/// directory), sorted by name. A profile file that does not read is an [`Error::Rules`] with
/// every diagnostic.
pub fn profiles(rules: Option<&Path>) -> Result<Vec<Profile>, Error> {
    let source = rule_source(rules)?;
    let list = rules::list_profiles(&source).map_err(|(sources, diagnostics)| {
        Error::Rules(
            rules::diagnostic::render_all(&diagnostics, &sources)
                .trim_end()
                .to_string(),
        )
    })?;
    Ok(list
        .into_iter()
        .map(|p| Profile {
            name: p.name,
            description: p.description,
            extends: p.extends,
        })
        .collect())
}

/// Checks every rule file, lexicon and profile of the embedded rules or of `rules`, and every
/// profile's rules as loaded: the warnings, rendered, or an [`Error::Rules`] with every error
/// (each diagnostic once, however many profiles it concerns).
pub fn check_rules(rules: Option<&Path>) -> Result<Vec<String>, Error> {
    let source = rule_source(rules)?;
    rules::check_all(&source).map_err(|e| Error::Rules(e.render()))
}

/// Writes the embedded rules, profiles, vocabulary and lexicons into the new (or empty) folder
/// `dir`, in the layout `rules` arguments read, to edit them. Returns the number of files.
pub fn export_rules(dir: &Path) -> Result<usize, Error> {
    RuleSource::export(dir).map_err(Error::Rules)
}

/// What [`test_examples`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExampleReport {
    /// Examples whose expectations held.
    pub passed: usize,
    /// Examples that failed, in the order run (profile by profile, rule by rule).
    pub failures: Vec<ExampleFailure>,
    /// Examples not run: their rule reads a lexicon list the profile leaves empty.
    pub skipped: usize,
}

/// An example whose expectations did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleFailure {
    /// Where: `FILE:LINE: rule NAME (profile PROFILE)`.
    pub place: String,
    /// Each node whose DEPS differ: its id, the expected and the actual DEPS.
    pub mismatches: Vec<(String, String, String)>,
    /// Why the example could not run at all (its sentence does not read, the rules ran away).
    pub error: Option<String>,
}

/// Runs every example that carries expectations, of every rule, under every profile that
/// includes the rule (an example with the same expectations and outcome under two profiles
/// counts once).
pub fn test_examples(rules: Option<&Path>) -> Result<ExampleReport, Error> {
    let source = rule_source(rules)?;
    let profiles = rules::list_profiles(&source).map_err(|(sources, d)| {
        Error::Rules(
            rules::diagnostic::render_all(&d, &sources)
                .trim_end()
                .to_string(),
        )
    })?;
    let mut report = ExampleReport::default();
    // The same example of the same rule with the same expectations and the same outcome under
    // two profiles is one test. The outcome is part of the key: settings, lexicons and guarded
    // label parts can make the rule behave differently under a profile whose expectations are
    // the same, and that profile's failure must not hide behind another's pass.
    let mut seen = HashSet::new();
    for profile in profiles {
        let rule_set = rules::load_ruleset(&source, &profile.name)
            .map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
        let enhancer = engine::Engine::new(&rule_set);
        for (index, compiled) in enhancer.rules.iter().enumerate() {
            let rule = &compiled.rule;
            for example in &rule.examples {
                if example.expect.is_empty() {
                    continue;
                }
                if enhancer.needs_missing_lexicon(index) {
                    report.skipped += 1;
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
                    Ok(result) if result.passed() => report.passed += 1,
                    Ok(result) => report.failures.push(ExampleFailure {
                        place,
                        mismatches: result
                            .mismatches
                            .iter()
                            .map(|(id, expected, actual)| {
                                (id.to_string(), expected.to_string(), actual.to_string())
                            })
                            .collect(),
                        error: None,
                    }),
                    Err(message) => report.failures.push(ExampleFailure {
                        place,
                        mismatches: Vec::new(),
                        error: Some(message),
                    }),
                }
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_lists_the_embedded_profiles_with_their_parents() {
        let list = profiles(None).unwrap();
        let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        let cs = list.iter().find(|p| p.name == "cs").expect("a cs profile");
        assert!(cs.extends.is_some() && !cs.description.is_empty(), "{cs:?}");
        assert!(matches!(
            profiles(Some(Path::new("/no/such/rules"))),
            Err(Error::Rules(_))
        ));
    }

    #[test]
    fn the_embedded_rules_check_and_their_examples_pass() {
        check_rules(None).unwrap();
        let report = test_examples(None).unwrap();
        assert!(
            report.passed > 100 && report.failures.is_empty(),
            "{report:?}"
        );
    }

    #[test]
    fn a_rules_folder_that_is_not_one_is_a_rules_error() {
        let missing = Some(Path::new("/no/such/rules"));
        assert!(matches!(check_rules(missing), Err(Error::Rules(_))));
        assert!(matches!(test_examples(missing), Err(Error::Rules(_))));
    }
}
