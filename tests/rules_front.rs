//! The rule-language front-end: embedded rules check clean, broken rules give the right errors.

use eudify::rules::ast::{CheckedAction, TemplatePart, TemplateValue};
use eudify::rules::diagnostic::render_all;
use eudify::rules::lexicon::Lexicon;
use eudify::rules::load::check_text;
use eudify::rules::profile::glob_matches;
use eudify::rules::{check_all, list_profiles, load_ruleset, resolve_profile, RuleSource};

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

/// A throwaway rules tree on disk (`DIR/rules`, `DIR/lexicons`) for the directory backend.
struct TempTree(std::path::PathBuf);

impl TempTree {
    fn new(name: &str, files: &[(&str, &str)]) -> TempTree {
        let root =
            std::env::temp_dir().join(format!("eudify-rules-front-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        TempTree(root)
    }

    fn source(&self) -> RuleSource {
        RuleSource::from_dir(&self.0.join("rules")).unwrap()
    }

    /// Rendered diagnostics with the temporary path replaced by `DIR`.
    fn render(&self, error: &eudify::rules::LoadError) -> String {
        error.render().replace(&self.0.display().to_string(), "DIR")
    }
}

impl Drop for TempTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const UNIVERSAL_LEXICON: &str = "[control]\nsubject = []\nobject = []\n";
const SIMPLE_RULES: &str =
    "phase one\nrule r {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n";

#[test]
fn lexicon_errors_have_line_and_column() {
    let tree = TempTree::new(
        "lexicon",
        &[
            ("lexicons/universal.toml", UNIVERSAL_LEXICON),
            ("lexicons/xx.toml", "[control]\nsubject = [\"a\"]\nobjekt = [\"b\"]\n"),
            ("lexicons/yy.toml", "[control]\nsubject = [\"a\", 3]\n"),
            ("rules/set/a.rules", SIMPLE_RULES),
            (
                "rules/profiles/xx.toml",
                "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\nlexicons = [\"xx\", \"yy\", \"zz\"]\n",
            ),
        ],
    );
    let error = load_ruleset(&tree.source(), "xx").expect_err("broken lexicons");
    let rendered = tree.render(&error);
    assert!(
        rendered.contains("DIR/lexicons/xx.toml:3:1: error: unknown lexicon list `control.objekt`"),
        "{rendered}"
    );
    assert!(rendered.contains("DIR/lexicons/yy.toml:2:"), "{rendered}");
    assert!(
        rendered.contains("DIR/rules/profiles/xx.toml:4:"),
        "{rendered}"
    );
    assert!(rendered.contains("no lexicon `zz`"), "{rendered}");
    snapshot!("lexicon_errors", rendered);
}

#[test]
fn profile_errors_have_line_and_column() {
    let tree = TempTree::new(
        "profile",
        &[
            ("lexicons/universal.toml", UNIVERSAL_LEXICON),
            ("rules/set/a.rules", SIMPLE_RULES),
            ("rules/profiles/unknown_field.toml", "name = \"unknown_field\"\ndescription = \"x\"\nrulez = []\n"),
            (
                "rules/profiles/bad_setting.toml",
                "name = \"bad_setting\"\ndescription = \"x\"\n[settings]\ncase_feature = \"yes\"\n",
            ),
            (
                "rules/profiles/bad_glob.toml",
                "name = \"bad_glob\"\ndescription = \"x\"\nrules = [\"nothing/*.rules\"]\nphases = [\"two\"]\n",
            ),
            ("rules/profiles/no_parent.toml", "name = \"no_parent\"\ndescription = \"x\"\nextends = \"ghost\"\n"),
            ("rules/profiles/loop_a.toml", "name = \"loop_a\"\ndescription = \"x\"\nextends = \"loop_b\"\n"),
            ("rules/profiles/loop_b.toml", "name = \"loop_b\"\ndescription = \"x\"\nextends = \"loop_a\"\n"),
            (
                "rules/profiles/missing_phase.toml",
                "name = \"missing_phase\"\ndescription = \"x\"\nrules = [\"set/*.rules\"]\nphases = [\"two\"]\n",
            ),
        ],
    );
    let source = tree.source();
    let mut all = String::new();
    for name in [
        "unknown_field",
        "bad_setting",
        "bad_glob",
        "no_parent",
        "loop_a",
        "missing_phase",
    ] {
        let error = load_ruleset(&source, name).expect_err(name);
        all.push_str(&format!("== {name}\n{}\n", tree.render(&error)));
    }
    assert!(
        all.contains("DIR/rules/profiles/unknown_field.toml:3:1: error: unknown field `rulez`"),
        "{all}"
    );
    assert!(
        all.contains("DIR/rules/profiles/bad_setting.toml:4:16: error:"),
        "{all}"
    );
    assert!(
        all.contains("`nothing/*.rules` matches no rule file"),
        "{all}"
    );
    assert!(all.contains("cycle"), "{all}");
    assert!(
        all.contains("phase `one` is not in the `phases` list"),
        "{all}"
    );
    snapshot!("profile_errors", all);
}

#[test]
fn profile_resolution_falls_back_with_warnings() {
    let source = RuleSource::embedded();
    assert_eq!(resolve_profile(&source, "en"), ("en".to_string(), None));
    assert_eq!(resolve_profile(&source, "EN").0, "en");
    let (name, warning) = resolve_profile(&source, "en_ewt");
    assert_eq!(name, "en");
    assert!(warning.unwrap().contains("`en_ewt`"));
    let (name, warning) = resolve_profile(&source, "xx_tb");
    assert_eq!(name, "universal");
    assert!(warning.unwrap().contains("`xx`"));
    let (name, warning) = resolve_profile(&source, "zz");
    assert_eq!(name, "universal");
    assert!(warning.is_some());
}

#[test]
fn profiles_are_listed_with_descriptions() {
    let profiles = list_profiles(&RuleSource::embedded())
        .unwrap_or_else(|(s, d)| panic!("{}", render_all(&d, &s)));
    let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
    for name in ["basic", "en", "universal"] {
        assert!(names.contains(&name), "{names:?}");
    }
    assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted: {names:?}");
    assert!(profiles
        .iter()
        .all(|p| !p.description.is_empty() && !p.description.contains('\n')));
    let en = profiles.iter().find(|p| p.name == "en").unwrap();
    assert_eq!(en.extends.as_deref(), Some("universal"));
}

#[test]
fn rule_sets_resolve_settings_and_phases() {
    let source = RuleSource::embedded();
    let basic = load_ruleset(&source, "basic").unwrap();
    assert!(basic.phases.is_empty(), "basic applies no rule");

    let en = load_ruleset(&source, "en").unwrap();
    let phases: Vec<&str> = en.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        phases,
        ["case", "relative", "gapping", "coordination", "coordination_labels", "control", "cleanup"]
    );
    assert_eq!(en.settings.xsubj_label, "nsubj:xsubj");
    assert!(
        en.rules().any(|r| r.name == "conj_label"),
        "conj_subtype is on for en"
    );
    assert!(en.inactive.contains(&"case_feature_label".to_string()));
    assert!(en
        .lexicons
        .get("control.object")
        .unwrap()
        .contains("persuade"));
    // The setting is substituted into the template.
    let rule = en.rules().find(|r| r.name == "xsubj_subject").unwrap();
    let CheckedAction::AddEdge { label, .. } = &rule.actions[0] else {
        panic!("{:?}", rule.actions)
    };
    assert!(
        matches!(&label.parts[..], [TemplatePart { value: TemplateValue::Literal(l), .. }] if l == "nsubj:xsubj")
    );
    // Expectations are filtered by profile guards.
    assert_eq!(
        rule.examples[0].expect,
        [("1".to_string(), "2:nsubj|3:nsubj:xsubj".to_string())]
    );

    let universal = load_ruleset(&source, "universal").unwrap();
    assert!(!universal.rules().any(|r| r.name == "conj_label"));
    let rule = universal
        .rules()
        .find(|r| r.name == "xsubj_subject")
        .unwrap();
    assert_eq!(
        rule.examples[0].expect,
        [("1".to_string(), "2:nsubj|3:nsubj".to_string())]
    );
}

#[test]
fn directory_backend_matches_embedded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let from_disk = load_ruleset(&RuleSource::from_dir(&dir).unwrap(), "en").unwrap();
    let embedded = load_ruleset(&RuleSource::embedded(), "en").unwrap();
    let names =
        |set: &eudify::rules::RuleSet| set.rules().map(|r| r.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&from_disk), names(&embedded));
    assert!(RuleSource::from_dir(&dir.join("no-such-dir")).is_err());
}

#[test]
fn glob_matching() {
    assert!(glob_matches("universal/*.rules", "universal/case.rules"));
    assert!(!glob_matches("universal/*.rules", "universal/x/case.rules"));
    assert!(glob_matches("**/*.rules", "a/b/c.rules"));
    assert!(glob_matches("**/*.rules", "c.rules"));
    assert!(glob_matches("u?/c.rules", "un/c.rules"));
    assert!(!glob_matches("en/*.rules", "universal/case.rules"));
}

/// Every prefix of every embedded rule file, and some mangled copies, parse and check without
/// panicking.
#[test]
fn never_panics_on_damaged_input() {
    let lexicon = embedded_lexicon();
    let source = RuleSource::embedded();
    for path in source
        .list("rules/")
        .iter()
        .filter(|p| p.ends_with(".rules"))
    {
        let text = source.read(path).unwrap();
        let cuts: Vec<usize> = (0..text.len())
            .step_by(13)
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for cut in cuts {
            let _ = check_text(path, &text[..cut], &lexicon);
            let mangled = format!("{}{{]}}\t\"/{}", &text[..cut], &text[cut..]);
            let _ = check_text(path, &mangled, &lexicon);
        }
    }
}

/// Every construct of docs/rule-language.md parses and checks.
#[test]
fn documented_syntax_checks() {
    let text = r#"
phase demo
rule everything when not profile.case_feature and (profile.conj_subtype or "case" in profile.annotates) {
  match {
    e: H -[obl:*|nmod:tmod|*:pass|/^x/]-> N;  H =[e.label]=> N;  N -[!(case|mark)]-> C;
    N [upos=NOUN|PROPN, lemma!=be, form~=Which, xpos!~=X, lemma=/^(wh|th)/, form=/which/i,
       lemma !in @control.object, PronType, !Number, Case=Gen, Number[psor]=Sing,
       misc.SpaceAfter=No, misc=/Foo/, LEMMA="that one"];
    A !-[obj]-> N;  A !=[obj]=> N;  A << N;  A < subtree(N);  N >> A;  C > A;  A != C;
  }
  without { N -[case]-> C2;  C2 << C; }
  without { H [upos=VERB]; }
  do {
    add H =[{profile.xsubj_label}]=> N;
    add H =[conj{?lemma(C)}]=> N;
    relabel H =[e.label]=> N as "{e.univ}:{marker(C)}{?feat(N, Case) when profile.case_feature}{e.sub}{form(C)}{"x" when profile.conj_subtype}";
    delete H =[obl:*]=> N;
    E = empty copy of H after N;
    F = empty copy of H before A;
    copy incoming of N to E matching obl:*;
    copy outgoing of N to E;
    move incoming of A to F matching !punct;
    move outgoing of A to F;
    add E =[dep]=> F;
  }
  example {
    # text = a b
    1 a a NOUN _ _ 0 root _ _
    2 b b NOUN _ _ 1 nmod _ _
  } expect {
    2	1:nmod
    2.1	_
  } expect when profile.case_feature {
    1	0:root
  }
}
"#;
    if let Err(e) = check_text("doc.rules", text, &embedded_lexicon()) {
        panic!("{}", e.render());
    }
}
