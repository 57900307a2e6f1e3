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

/// Snapshots live in the top-level `snapshots/` folder.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// Each broken rule file fails to check; the rendered diagnostics are snapshotted.
#[test]
fn broken_rules_report_every_error() {
    let lexicon = embedded_lexicon();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/broken_rules");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert!(paths.len() >= 9, "broken rule files are missing");
    for path in paths {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let display = format!("tests/data/broken_rules/{stem}.rules");
        let error = match check_text(&display, &text, &lexicon) {
            Ok(_) => panic!("{display} checked clean"),
            Err(e) => e,
        };
        assert!(error.errors().count() > 0, "{display}: only warnings");
        snapshot!(format!("broken_{stem}"), error.render());
    }
}
