//! The rule-language front-end: embedded rules check clean, broken rules give the right errors.

use eudify::rules::lexicon::Lexicon;
use eudify::rules::load::check_text;
use eudify::rules::{check_all, load_ruleset, RuleSource};

fn embedded_lexicon() -> Lexicon {
    let mut sources = eudify::rules::SourceMap::new();
    let names = vec![("en".to_string(), None)];
    let (lexicon, errors) = Lexicon::load(&RuleSource::embedded(), &names, &mut sources);
    assert!(errors.is_empty(), "{errors:?}");
    lexicon
}

#[test]
fn embedded_rules_check_clean() {
    match check_all(&RuleSource::embedded()) {
        Ok(warnings) => assert!(warnings.is_empty(), "{}", warnings.join("\n")),
        Err(e) => panic!("{}", e.render()),
    }
}

#[test]
fn embedded_profiles_load() {
    for name in ["basic", "universal", "en"] {
        if let Err(e) = load_ruleset(&RuleSource::embedded(), name) {
            panic!("{name}: {}", e.render());
        }
    }
}

#[test]
fn check_broken_debug() {
    let lexicon = embedded_lexicon();
    let _ = check_text("x.rules", "", &lexicon);
}
