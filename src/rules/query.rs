//! Search patterns (`eudify grep`): a `match` block and its `without` blocks, written as in a
//! rule and checked by the same passes, so a pattern that searches is one a rule could match
//! with, and a mistake gets the same caret diagnostic `check` gives.

use super::check::{self, Context};
use super::diagnostic::Diagnostic;
use super::ir::CheckedRule;
use super::lexicon::Lexicon;
use super::load::{declared_features, every_lexicon, LoadError};
use super::parser::parse_query;
use super::profile::{load_profile, Settings};
use super::source::{RuleSource, SourceMap};
use super::vocabulary::Vocabulary;
use std::sync::Arc;

/// A checked search pattern, with what its lemma tests read.
#[derive(Debug)]
pub struct CheckedQuery {
    /// The pattern as a rule named `query` with no actions.
    pub rule: CheckedRule,
    /// The `[lemmas]` of the lexicons it was checked with: how a word without a lemma reads.
    pub form_lemmas: Arc<super::lexicon::FormLemmas>,
}

/// Checks the search pattern `text` (shown as `name` in diagnostics) against `source`: its
/// vocabulary, and the settings and lexicons of `profile` (`@profile.NAME` lists and lexicon
/// names resolve as that profile's rules see them), or without one the default settings and
/// every lexicon. Feature names are UD's universal ones and those any profile declares.
pub fn check_query(
    text: &str,
    name: &str,
    source: &RuleSource,
    profile: Option<&str>,
) -> Result<CheckedQuery, LoadError> {
    let mut sources = SourceMap::new();
    let fail = |sources, diagnostics| {
        Err(LoadError {
            sources,
            diagnostics,
        })
    };
    let vocabulary = match Vocabulary::load(source, &mut sources) {
        Ok(vocabulary) => vocabulary,
        Err(diagnostics) => return fail(sources, diagnostics),
    };
    let features = declared_features(source, &vocabulary);
    let (settings, lexicon_names) = match profile {
        Some(profile) => match load_profile(source, profile, &vocabulary, &mut sources) {
            Ok(loaded) => {
                let names = loaded
                    .lexicons
                    .iter()
                    .map(|l| (l.text.clone(), Some(l.span)))
                    .collect();
                (loaded.settings, names)
            }
            Err(diagnostics) => return fail(sources, diagnostics),
        },
        None => (Settings::defaults(&vocabulary), every_lexicon(source)),
    };
    let (lexicon, mut diagnostics) = Lexicon::load(source, &lexicon_names, &mut sources);
    let file = sources.add(name, text);
    let (rule, errors) = parse_query(&sources, file);
    diagnostics.extend(errors);
    let ctx = Context {
        sources: &sources,
        lexicon: &lexicon,
        settings: &settings,
        vocabulary: &vocabulary,
        features: &features,
    };
    let checked = rule.and_then(|rule| check::lower::query(&rule, name, &ctx, &mut diagnostics));
    match checked {
        Some(rule) if !diagnostics.iter().any(Diagnostic::is_error) => Ok(CheckedQuery {
            rule,
            form_lemmas: Arc::clone(&lexicon.form_lemmas),
        }),
        _ => fail(sources, diagnostics),
    }
}

#[cfg(test)]
mod tests {
    use super::check_query;
    use crate::rules::source::RuleSource;

    fn errors(text: &str) -> String {
        match check_query(text, "<pattern>", &RuleSource::Embedded, None) {
            Ok(_) => String::new(),
            Err(e) => e.render(),
        }
    }

    #[test]
    fn a_pattern_checks_as_a_rule_block() {
        let rule = check_query(
            "match { H -[nsubj]-> S; H =[conj]=> C; S [upos=PRON]; } without { H -[aux:pass]-> A; }",
            "<pattern>",
            &RuleSource::Embedded,
            None,
        )
        .unwrap_or_else(|e| panic!("{}", e.render()))
        .rule;
        let names: Vec<&str> = rule.vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["H", "S", "C", "A"]);
        assert_eq!(rule.withouts.len(), 1);
        assert!(rule.actions.is_empty());
    }

    #[test]
    fn mistakes_get_caret_diagnostics() {
        let syntax = errors("match { H -[nsubj]- S; }");
        assert!(
            syntax.contains("<pattern>:1:") && syntax.contains("syntax error"),
            "{syntax}"
        );
        let unknown = errors("match { H -[nsubjj]-> S; }");
        assert!(
            unknown.contains("nsubjj") && unknown.contains('^'),
            "{unknown}"
        );
        let field = errors("match { H [upos=NOUNN]; }");
        assert!(field.contains("NOUNN"), "{field}");
        assert!(errors("match { H -[nsubj]-> S; } do { }").contains("syntax error"));
    }

    #[test]
    fn profile_lists_resolve_in_the_named_profile() {
        let text = "match { H -[conj]-> C; C [upos in @profile.conj_predicate_upos]; }";
        assert!(check_query(text, "<pattern>", &RuleSource::Embedded, Some("en")).is_ok());
        let unknown = check_query(
            text,
            "<pattern>",
            &RuleSource::Embedded,
            Some("no-such-profile"),
        );
        assert!(unknown.is_err());
    }
}
