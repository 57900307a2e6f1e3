//! The rule-language front-end: embedded rules check clean, broken rules give the right errors.

use super::common::TempTree;
use crate::rules::diagnostic::render_all;
use crate::rules::ir::{CheckedAction, TemplatePart, TemplateValue};
use crate::rules::lexicon::Lexicon;
use crate::rules::load::check_text;
use crate::rules::profile::glob_matches;
use crate::rules::{check_all, list_profiles, load_ruleset, resolve_profile, RuleSource};

fn embedded_lexicon() -> Lexicon {
    let mut sources = crate::rules::SourceMap::new();
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

/// Snapshots live in `snapshots/rules_front/`.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../../snapshots/rules_front", prepend_module_to_snapshot => false }, {
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

/// A throwaway rules folder on disk ([`TempTree`]'s `DIR/rules`) read by the directory backend.
trait RulesTree {
    fn source(&self) -> RuleSource;
    /// Rendered diagnostics with the temporary path replaced by `DIR`.
    fn render(&self, error: &crate::rules::LoadError) -> String;
}

impl RulesTree for TempTree {
    fn source(&self) -> RuleSource {
        RuleSource::from_dir(&self.0.join("rules")).unwrap()
    }

    fn render(&self, error: &crate::rules::LoadError) -> String {
        self.hide_path(&error.render())
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
            ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
            ("rules/lexicons/xx.toml", "[control]\nsubject = [\"a\"]\nobjekt = [\"b\"]\n"),
            ("rules/lexicons/yy.toml", "[control]\nsubject = [\"a\", 3]\n"),
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
        rendered.contains(
            "DIR/rules/lexicons/xx.toml:3:1: error: unknown lexicon list `control.objekt`"
        ),
        "{rendered}"
    );
    assert!(
        rendered.contains("DIR/rules/lexicons/yy.toml:2:"),
        "{rendered}"
    );
    assert!(
        rendered.contains("DIR/rules/profiles/xx.toml:4:"),
        "{rendered}"
    );
    assert!(rendered.contains("no lexicon `zz`"), "{rendered}");
    snapshot!("lexicon_errors", rendered);
}

/// `[lemmas]` entries are lower-case words, each form with one lemma per file (another file may
/// give it another: the later one wins); `[lemmas]` is no list rules can name.
#[test]
fn lexicon_lemma_errors_have_line_and_column() {
    let lexicon = "[lemmas]\nv = [\"ve\", \"Ve\", \"v\"]\nz = [\"ve\", \"ze\"]\nKo = [\"ku\"]\nk = [\"k e\"]\n";
    let tree = TempTree::new(
        "lexicon-lemmas",
        &[
            ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
            ("rules/lexicons/xx.toml", lexicon),
            ("rules/lexicons/yy.toml", "[lemmas]\nw = [\"we\"]\n"),
            ("rules/lexicons/zz.toml", "[lemmas]\nz = [\"we\"]\n"),
            ("rules/set/a.rules", SIMPLE_RULES),
            ("rules/set/b.rules", "phase one\nrule l {\n  match { H -[obl]-> N; N [lemma in @lemmas.v]; }\n  do { add H =[obl]=> N; }\n}\n"),
            ("rules/profiles/xx.toml", "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/a.rules\"]\nlexicons = [\"xx\"]\n"),
            ("rules/profiles/yz.toml", "name = \"yz\"\ndescription = \"test\"\nrules = [\"set/a.rules\"]\nlexicons = [\"yy\", \"zz\"]\n"),
            ("rules/profiles/list.toml", "name = \"list\"\ndescription = \"test\"\nrules = [\"set/b.rules\"]\nlexicons = [\"yy\"]\n"),
        ],
    );
    let rendered = tree.render(&load_ruleset(&tree.source(), "xx").expect_err("broken [lemmas]"));
    for expected in [
        "DIR/rules/lexicons/xx.toml:2:12: error: form `Ve` has upper-case letters",
        "DIR/rules/lexicons/xx.toml:2:18: error: form `v` is its own lemma",
        "DIR/rules/lexicons/xx.toml:3:6: error: form `ve` is given lemma `z` here and `v` before",
        "DIR/rules/lexicons/xx.toml:4:1: error: lemma `Ko` has upper-case letters",
        "DIR/rules/lexicons/xx.toml:5:6: error: `k e` is no form",
    ] {
        assert!(rendered.contains(expected), "{expected}\n{rendered}");
    }
    assert_eq!(rendered.matches(": error: ").count(), 5, "{rendered}");
    let yz = load_ruleset(&tree.source(), "yz").unwrap_or_else(|e| panic!("{}", tree.render(&e)));
    assert_eq!(yz.lexicons.form_lemmas.get("we"), Some("z"));
    assert_eq!(yz.lexicons.form_lemmas.get("ze"), None);
    let list = tree.render(&load_ruleset(&tree.source(), "list").expect_err("[lemmas] is no list"));
    assert!(list.contains("unknown lexicon list `@lemmas.v`"), "{list}");
}

#[test]
fn profile_errors_have_line_and_column() {
    let tree = TempTree::new(
        "profile",
        &[
            ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
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
    let (name, warning) = resolve_profile(&source, "en_lines");
    assert_eq!(name, "en");
    assert!(warning.unwrap().contains("`en_lines`"));
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
        [
            "case",
            "relative",
            "gapping",
            "coordination",
            "coordination_labels",
            "control",
            "cleanup"
        ]
    );
    assert_eq!(en.settings.text("xsubj_label"), Some("nsubj:xsubj"));
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
        |set: &crate::rules::RuleSet| set.rules().map(|r| r.name.clone()).collect::<Vec<_>>();
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
    H -[advmod]-> A;  A !-[obj]-> N;  A !=[obj]=> N;  A << N;  A < subtree(N);  N >> A;  C > A;  A != C;
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

// ---- vocabulary, folders, and what `check` reports -----------------------------------------

/// A rules folder with one profile `xx` over `set/*.rules` holding `rules`, and the universal
/// lexicon; `extra` adds or replaces files.
fn folder(name: &str, rules: &str, extra: &[(&str, &str)]) -> TempTree {
    let mut files = vec![
        ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
        ("rules/set/a.rules", rules),
        (
            "rules/profiles/xx.toml",
            "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n",
        ),
    ];
    for (path, text) in extra {
        files.retain(|(p, _)| p != path);
        files.push((path, text));
    }
    TempTree::new(name, &files)
}

/// `check_all` of the folder: the rendered diagnostics, which must include an error.
fn check_errors(tree: &TempTree) -> String {
    match check_all(&tree.source()) {
        Ok(warnings) => panic!("checked clean: {}", warnings.join("\n")),
        Err(e) => {
            assert!(e.errors().count() > 0);
            tree.render(&e)
        }
    }
}

#[test]
fn unknown_relation_is_an_error() {
    let tree = folder(
        "relation",
        "phase one\nrule r {\n  match { H -[acll:relcl]-> N; H -[obl:*|nmood]-> M; }\n  do { add H =[acl:relcl]=> N; add H =[ob:tmod]=> M; }\n}\n",
        &[],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("unknown UD relation `acll`"),
        "{rendered}"
    );
    assert!(rendered.contains("did you mean `acl`?"), "{rendered}");
    assert!(
        rendered.contains("unknown UD relation `nmood`"),
        "{rendered}"
    );
    assert!(rendered.contains("unknown UD relation `ob`"), "{rendered}");
    snapshot!("vocabulary_unknown_relation", rendered);
}

#[test]
fn unknown_feature_is_an_error_unless_the_profile_declares_it() {
    let rules = "phase one\nrule r {\n  match { H -[obl]-> N; N [PronTyp=Rel, NumForm=Digit]; }\n  do { add H =[obl:{feat(N, Styl)}]=> N; }\n}\n";
    let tree = folder("feature", rules, &[]);
    let rendered = check_errors(&tree);
    assert!(rendered.contains("unknown feature `PronTyp`"), "{rendered}");
    assert!(rendered.contains("did you mean `PronType`?"), "{rendered}");
    assert!(rendered.contains("unknown feature `NumForm`"), "{rendered}");
    assert!(rendered.contains("unknown feature `Styl`"), "{rendered}");
    snapshot!("vocabulary_unknown_feature", rendered);

    // Declared by the profile: only the typo is left, and it suggests the declared name.
    let tree = folder(
        "feature_declared",
        rules,
        &[(
            "rules/profiles/xx.toml",
            "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\nfeatures = [\"NumForm\", \"Style\"]\n",
        )],
    );
    let rendered = check_errors(&tree);
    assert!(!rendered.contains("`NumForm`"), "{rendered}");
    assert!(rendered.contains("unknown feature `Styl`"), "{rendered}");
    assert!(rendered.contains("did you mean `Style`?"), "{rendered}");
}

#[test]
fn unknown_enhancement_in_when_is_an_error() {
    let tree = folder(
        "enhancement_when",
        "phase one\nrule r when \"gaping\" in profile.annotates {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n",
        &[],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("unknown enhancement `gaping`"),
        "{rendered}"
    );
    assert!(rendered.contains("did you mean `gapping`?"), "{rendered}");
    snapshot!("vocabulary_unknown_enhancement_when", rendered);
}

#[test]
fn unknown_enhancement_in_annotates_is_an_error() {
    let tree = folder(
        "enhancement_annotates",
        SIMPLE_RULES,
        &[(
            "rules/profiles/xx.toml",
            "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\nannotates = [\"case\", \"gaping\", \"zzz\"]\n",
        )],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("profiles/xx.toml:5:22: error: unknown enhancement `gaping`"),
        "{rendered}"
    );
    assert!(rendered.contains("did you mean `gapping`?"), "{rendered}");
    assert!(rendered.contains("unknown enhancement `zzz`"), "{rendered}");
    snapshot!("vocabulary_unknown_enhancement_annotates", rendered);
}

/// The embedded vocabulary with `enhancements` (TOML lines) as its `[enhancements]`.
fn own_vocabulary(enhancements: &str) -> String {
    let embedded = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules/vocabulary.toml"
    ))
    .unwrap();
    let start = embedded.find("[enhancements]\n").unwrap() + "[enhancements]\n".len();
    let end = start + embedded[start..].find("\n\n").unwrap() + 1;
    format!("{}{enhancements}{}", &embedded[..start], &embedded[end..])
}

/// The enhancement names are data: a folder's own vocabulary.toml replaces the embedded one.
#[test]
fn enhancement_names_come_from_the_vocabulary_file() {
    let rules = "phase one\nrule r when \"mine\" in profile.annotates {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n";
    let tree = folder("vocabulary_own", rules, &[]);
    assert!(check_errors(&tree).contains("unknown enhancement `mine`"));
    let tree = folder(
        "vocabulary_own_declared",
        rules,
        &[(
            "rules/vocabulary.toml",
            &own_vocabulary("mine = \"a test enhancement\"\n"),
        )],
    );
    if let Err(e) = check_all(&tree.source()) {
        panic!("{}", tree.render(&e));
    }
    // Without `annotates`, a profile annotates every declared enhancement.
    let set = load_ruleset(&tree.source(), "xx").unwrap();
    assert_eq!(set.settings.list("annotates"), ["mine"]);
    assert!(set.rules().any(|r| r.name == "r"));
}

#[test]
fn rule_enabled_by_no_profile_is_a_warning() {
    let rules = "phase one\nrule on {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\nrule off when profile.conj_root {\n  match { H -[nmod]-> N; }\n  do { add H =[nmod]=> N; }\n}\n";
    let tree = folder(
        "no_profile_enables",
        rules,
        &[(
            "rules/other/b.rules",
            "phase one\nrule unused {\n  match { H -[obl]-> N; }\n  do { add H =[dep]=> N; }\n}\n",
        )],
    );
    let warnings = match check_all(&tree.source()) {
        Ok(warnings) => warnings,
        Err(e) => panic!("{}", tree.render(&e)),
    };
    let rendered = warnings
        .join("\n")
        .replace(&tree.0.display().to_string(), "DIR");
    assert_eq!(warnings.len(), 2, "{rendered}");
    assert!(
        rendered.contains("rule `off` is enabled by no profile"),
        "{rendered}"
    );
    assert!(
        rendered.contains("rule `unused` is enabled by no profile"),
        "{rendered}"
    );
    assert!(!rendered.contains("rule `on`"), "{rendered}");
    snapshot!("vocabulary_rule_enabled_by_no_profile", rendered);
}

#[test]
fn deep_nesting_is_a_caret_error_not_a_crash() {
    let not_chain = format!(
        "phase one\nrule r when {}profile.conj_root {{\n  match {{ H -[obl]-> N; }}\n  do {{ add H =[obl]=> N; }}\n}}\n",
        "not ".repeat(20_000)
    );
    let parens = format!(
        "phase one\nrule r {{\n  match {{ H -[{}obl{}]-> N; }}\n  do {{ add H =[obl]=> N; }}\n}}\n",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let lexicon = embedded_lexicon();
    let mut all = String::new();
    for (name, text) in [("not", &not_chain), ("parens", &parens)] {
        let error = check_text(&format!("{name}.rules"), text, &lexicon).expect_err(name);
        let rendered = error.render();
        assert!(
            rendered.contains("nesting deeper than 64 levels"),
            "{rendered}"
        );
        all.push_str(&rendered);
    }
    snapshot!("nesting_too_deep", all);
    // The limit itself still parses, in guards, templates and label patterns.
    let at_limit = format!(
        "phase one\nrule r when {0}profile.conj_root{1} {{\n  match {{ H -[{2}obl{3}]-> N; }}\n  do {{ add H =[obl{{?lemma(N) when {0}profile.conj_root{1}}}]=> N; }}\n}}\n",
        "(".repeat(64),
        ")".repeat(64),
        "(".repeat(63),
        ")".repeat(63)
    );
    if let Err(e) = check_text("limit.rules", &at_limit, &lexicon) {
        panic!("{}", e.render());
    }
}

#[test]
fn unconnected_variables_are_an_error() {
    let lexicon = embedded_lexicon();
    let five = "phase one\nrule r {\n  match { A [upos=NOUN]; B [upos=NOUN]; C; D; E; A -[nmod]-> B; D -[amod]-> E; }\n  do { add A =[dep]=> C; }\n}\n";
    let error = check_text("five.rules", five, &lexicon).expect_err("unconnected");
    let rendered = error.render();
    assert_eq!(error.errors().count(), 2, "{rendered}");
    assert!(
        rendered.contains("`C` is not connected to `A`, `B`"),
        "{rendered}"
    );
    assert!(
        rendered.contains("`D`, `E` are not connected"),
        "{rendered}"
    );
    // A `without` block's new variables must hang on the match's by edges too.
    let without = "phase one\nrule r {\n  match { A -[nmod]-> B; }\n  without { X [upos=VERB]; X << A; }\n  do { add A =[dep]=> B; }\n}\n";
    let error = check_text("without.rules", without, &lexicon).expect_err("unconnected without");
    let both = format!("{rendered}\n{}", error.render());
    assert!(
        both.contains("`X` is not connected to `A` by an edge"),
        "{both}"
    );
    snapshot!("unconnected_variables", both);
    // Connected through a chain (and through the match, for a without): fine.
    let chain = "phase one\nrule r {\n  match { A -[nmod]-> B; B -[amod]-> C; }\n  without { B -[case]-> X; }\n  do { add A =[dep]=> C; }\n}\n";
    if let Err(e) = check_text("chain.rules", chain, &lexicon) {
        panic!("{}", e.render());
    }
}

#[test]
fn long_lines_are_cut_around_the_caret() {
    let long = format!(
        "phase one\nrule r {{\n  match {{ H -[obl]-> N; {} N [upos=NOUN] C; }}\n  do {{ add H =[obl]=> N; }}\n}}\n",
        "N [upos=NOUN]; ".repeat(700_000)
    );
    assert!(long.len() > 10_000_000);
    let error = check_text("long.rules", &long, &embedded_lexicon()).expect_err("syntax error");
    let rendered = error.render();
    assert!(rendered.len() < 1_000, "{} bytes", rendered.len());
    let lines: Vec<&str> = rendered.lines().collect();
    // The caret still points at the reported column, and the line is cut on both sides.
    let reported: usize = lines[0].split(':').nth(2).unwrap().parse().unwrap();
    assert!(reported > 10_000_000, "{rendered}");
    let expected = long.lines().nth(2).unwrap().chars().nth(reported - 1);
    let caret = lines.iter().position(|l| l.contains('^')).unwrap();
    let column = lines[caret].chars().position(|c| c == '^').unwrap();
    assert_eq!(lines[caret - 1].chars().nth(column), expected, "{rendered}");
    assert!(lines[caret - 1].contains(" | …"), "{rendered}");
    snapshot!("long_line_cut", rendered);
}

#[test]
fn syntax_errors_say_what_was_expected_in_words() {
    let lexicon = embedded_lexicon();
    let mut all = String::new();
    for (name, text) in [
        (
            "no_match",
            "phase one\nrule r {\n  mach { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n",
        ),
        ("no_phase_name", "phase\nrule r {}\n"),
        (
            "keyword_as_name",
            "phase one\nrule r {\n  match { H -[obl]-> not; }\n  do { add H =[obl]=> N; }\n}\n",
        ),
        (
            "bad_action",
            "phase one\nrule r {\n  match { H -[obl]-> N; }\n  do { ad H =[obl]=> N; }\n}\n",
        ),
    ] {
        let error = check_text(&format!("{name}.rules"), text, &lexicon).expect_err(name);
        let rendered = error.render();
        assert!(
            !rendered.contains("kw_") && !rendered.contains("_block"),
            "{rendered}"
        );
        all.push_str(&rendered);
        all.push('\n');
    }
    assert!(all.contains("expected `match`"), "{all}");
    snapshot!("syntax_expectations_in_words", all);
}

/// An exported folder (`eudify rules export DIR`) reads unchanged: it checks clean and every
/// profile loads the same rules, settings and lexicons as the embedded one. (The command itself,
/// and `test --rules DIR`, are tested in tests/rules_front.rs.)
#[test]
fn exported_rules_load_like_the_embedded_ones() {
    let dir = std::env::temp_dir().join(format!("eudify-rules-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    RuleSource::export(&dir).unwrap();
    assert!(dir.join("profiles/en.toml").is_file());
    assert!(dir.join("lexicons/en.toml").is_file());
    assert!(dir.join("vocabulary.toml").is_file());
    let exported = RuleSource::from_dir(&dir).unwrap();
    if let Err(e) = check_all(&exported) {
        panic!("{}", e.render());
    }
    let embedded = RuleSource::embedded();
    let profiles =
        list_profiles(&embedded).unwrap_or_else(|(s, d)| panic!("{}", render_all(&d, &s)));
    for profile in profiles {
        let a = load_ruleset(&embedded, &profile.name).unwrap();
        let b = load_ruleset(&exported, &profile.name).unwrap();
        let names = |set: &crate::rules::RuleSet| {
            set.rules()
                .map(|r| (r.name.clone(), r.examples.len()))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&a), names(&b), "{}", profile.name);
        assert_eq!(a.settings, b.settings, "{}", profile.name);
        assert_eq!(a.lexicons.loaded, b.lexicons.loaded, "{}", profile.name);
        for list in a.lexicons.names() {
            assert_eq!(a.lexicons.sorted(list), b.lexicons.sorted(list), "{list}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of `rules/` alone (no `lexicons/` inside) uses the embedded lexicons; a copy that
/// brings its own uses those. (The README's recipe with the command: tests/rules_front.rs.)
#[test]
fn a_copy_of_rules_alone_uses_the_embedded_lexicons() {
    let dir = std::env::temp_dir().join(format!("eudify-rules-copy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let source = RuleSource::embedded();
    for path in source.list("rules/") {
        let target = dir.join(path.strip_prefix("rules/").unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(&target, source.read(&path).unwrap().as_ref()).unwrap();
    }
    let copy = RuleSource::from_dir(&dir).unwrap();
    if let Err(e) = check_all(&copy) {
        panic!("{}", e.render());
    }
    let en = load_ruleset(&copy, "en").unwrap();
    assert!(en
        .lexicons
        .get("control.object")
        .unwrap()
        .contains("persuade"));
    // Its own lexicons folder wins.
    std::fs::create_dir_all(dir.join("lexicons")).unwrap();
    std::fs::write(
        dir.join("lexicons/universal.toml"),
        "[control]\nsubject = []\nobject = [\"mine\"]\n",
    )
    .unwrap();
    let error =
        load_ruleset(&RuleSource::from_dir(&dir).unwrap(), "en").expect_err("no en lexicon");
    assert!(
        error.render().contains("no lexicon `en`"),
        "{}",
        error.render()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- settings as data (rules/vocabulary.toml) -----------------------------------------------

/// The settings table of docs/rule-language.md, rendered from the vocabulary's declarations.
fn settings_table(vocabulary: &crate::rules::vocabulary::Vocabulary) -> String {
    use crate::rules::profile::SettingValue;
    let mut out = String::from("| setting | type | default | what it does |\n|---|---|---|---|\n");
    for (name, decl) in &vocabulary.settings {
        let mut kind = match decl.kind {
            crate::rules::profile::SettingType::List => format!("list of {}", decl.items.name()),
            crate::rules::profile::SettingType::Text if decl.items.name() != "text" => {
                format!("string ({})", decl.items.name())
            }
            other => other.name().to_string(),
        };
        if !decl.values.is_empty() {
            let values: Vec<String> = decl.values.iter().map(|v| format!("`{v}`")).collect();
            kind += &format!(": {}", values.join(", "));
        }
        let default = match &decl.default {
            SettingValue::Bool(b) => b.to_string(),
            SettingValue::Text(t) => format!("{t:?}"),
            SettingValue::List(items) => format!("{items:?}"),
        };
        out.push_str(&format!(
            "| `{name}` | {kind} | `{default}` | {} |\n",
            decl.doc.replace('|', "\\|")
        ));
    }
    out
}

/// The docs' list of settings is the vocabulary's: `EUDIFY_UPDATE_DOCS=1 cargo test
/// settings_are_documented` rewrites it.
#[test]
fn settings_are_documented() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rule-language.md");
    let docs = std::fs::read_to_string(path).unwrap();
    let begin = "<!-- settings: generated from rules/vocabulary.toml";
    let end = "<!-- /settings -->";
    let start = docs
        .find(begin)
        .expect("the settings markers in docs/rule-language.md");
    let start = start + docs[start..].find('\n').unwrap() + 1;
    let stop = docs
        .find(end)
        .expect("the end marker of the settings table");
    let table = settings_table(&crate::rules::vocabulary::Vocabulary::embedded());
    if docs[start..stop] != table {
        if std::env::var_os("EUDIFY_UPDATE_DOCS").is_some() {
            std::fs::write(path, format!("{}{table}{}", &docs[..start], &docs[stop..])).unwrap();
        } else {
            panic!(
                "docs/rule-language.md's settings differ from rules/vocabulary.toml \
                 (EUDIFY_UPDATE_DOCS=1 cargo test settings_are_documented rewrites them); expected:\n{table}"
            );
        }
    }
}

/// Every declared setting has its default in a profile that sets nothing, and profiles
/// override them through `extends`.
#[test]
fn settings_take_declared_defaults_and_inherit() {
    let vocabulary = crate::rules::vocabulary::Vocabulary::embedded();
    let universal = load_ruleset(&RuleSource::embedded(), "universal").unwrap();
    let cs = load_ruleset(&RuleSource::embedded(), "cs").unwrap();
    assert_eq!(universal.settings.iter().count(), vocabulary.settings.len());
    for (name, decl) in &vocabulary.settings {
        assert_eq!(decl.default.kind(), decl.kind, "{name}");
        assert_eq!(
            cs.settings.get(name).map(|v| v.kind()),
            Some(decl.kind),
            "{name}"
        );
    }
    assert!(!universal.settings.flag("conj_root") && cs.settings.flag("conj_root"));
    assert_eq!(universal.settings.text("xsubj_label"), Some("nsubj"));
    assert!(
        universal.settings.flag("case_with_marker"),
        "the declared default"
    );
}

/// Every shipped string setting says what it holds (`values`, or `items` of a checked kind), so
/// that a misspelt value in a profile or a rule is an error rather than a value no rule tests.
#[test]
fn shipped_string_settings_declare_their_values() {
    use crate::rules::profile::SettingType;
    use crate::rules::vocabulary::Items;
    let vocabulary = crate::rules::vocabulary::Vocabulary::embedded();
    let unchecked: Vec<&String> = vocabulary
        .settings
        .iter()
        .filter(|(_, d)| {
            d.kind == SettingType::Text && d.values.is_empty() && d.items == Items::Text
        })
        .map(|(name, _)| name)
        .collect();
    assert!(
        unchecked.is_empty(),
        "string settings without `values` or `items` in rules/vocabulary.toml: {unchecked:?}"
    );
    assert!(vocabulary
        .settings
        .values()
        .any(|d| d.kind == SettingType::Text));
}

/// Unknown settings, wrong types and bad list items in a profile; a vocabulary that declares a
/// setting wrongly.
#[test]
fn setting_errors_are_located() {
    let rules = "phase one\nrule r when profile.conj_root {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n";
    let tree = folder(
        "settings_errors",
        rules,
        &[(
            "rules/profiles/xx.toml",
            "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\nconj_rot = true\nxsubj_label = [\"nsubj\"]\nannotates = [\"case\", \"xsubjj\"]\nconj_root = 1\n",
        )],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("unknown profile setting `conj_rot`"),
        "{rendered}"
    );
    assert!(rendered.contains("did you mean `conj_root`?"), "{rendered}");
    assert!(
        rendered.contains("setting `xsubj_label` is a string, not a list of strings"),
        "{rendered}"
    );
    assert!(
        rendered.contains("unknown enhancement `xsubjj`"),
        "{rendered}"
    );
    snapshot!("settings_profile_errors", rendered);

    let vocabulary = own_vocabulary("mine = \"x\"\n")
        + "\n[settings.broken]\ntype = \"number\"\ndoc = \"x\"\n\n[settings.no_default]\ntype = \"bool\"\ndoc = \"x\"\n\n[settings.wrong_default]\ntype = \"list\"\nitems = \"relation\"\ndefault = [\"obj\", \"objj\"]\ndoc = \"x\"\n";
    let tree = folder(
        "settings_vocabulary",
        rules,
        &[("rules/vocabulary.toml", &vocabulary)],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("unknown setting type `number`"),
        "{rendered}"
    );
    assert!(
        rendered.contains("setting `no_default` has no `default`"),
        "{rendered}"
    );
    assert!(
        rendered.contains("unknown UD relation `objj`"),
        "{rendered}"
    );
    snapshot!("settings_vocabulary_errors", rendered);
}

/// String settings take only their declared `values` or values of their `items` kind: a
/// profile's misspelt value and a rule comparing a setting with a text it cannot hold are errors
/// at FILE:LINE:COL with a did-you-mean (`eudify check` and loading the profile both exit 1),
/// where before a misspelt value quietly acted as the default or another value.
#[test]
fn string_setting_values_are_checked() {
    let rules = "phase one\nrule r when profile.gapping_node_place == \"befor_first\" or \"obll:*\" in profile.shared_after or \"ADJ\" in profile.shared_subject_upos {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n";
    let tree = folder(
        "setting_values",
        rules,
        &[(
            "rules/profiles/xx.toml",
            "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\ngapping_node_place = \"after_frist\"\nclause_marker_words = \"joint\"\nrelative_adverb_label = \"advmd\"\nxsubj_label = \"nsubj:xsbuj\"\n",
        )],
    );
    let rendered = check_errors(&tree);
    for wanted in [
        "profiles/xx.toml:5:22: error: `after_frist` is not a value of setting `gapping_node_place`",
        "did you mean `after_first`?",
        "profiles/xx.toml:6:23: error: `joint` is not a value of setting `clause_marker_words`",
        "its values (declared in rules/vocabulary.toml) are `first`, `last`, `joined`",
        "profiles/xx.toml:7:25: error: enhanced label 'advmd' has unknown universal relation 'advmd'",
        "did you mean `advmod`?",
        "profiles/xx.toml:8:15: error: `nsubj:xsbuj` is not a value of setting `xsubj_label`",
        "did you mean `nsubj:xsubj`?",
        "set/a.rules:2:43: error: `befor_first` is not a value of setting `gapping_node_place`",
        "did you mean `before_first`?",
        "set/a.rules:2:60: error: unknown UD relation `obll`",
    ] {
        assert!(rendered.contains(wanted), "{wanted}\n{rendered}");
    }
    // The UPOS tag compared with a list of UPOS items is a good one.
    assert!(!rendered.contains("`ADJ`"), "{rendered}");
    snapshot!("settings_string_values", rendered);

    // Loading the profile to enhance with it reports them too (the CLI's exit: tests/rules_front.rs).
    let error = load_ruleset(&tree.source(), "xx").unwrap_err();
    assert!(tree.render(&error).contains("`after_frist` is not a value"));

    // Each shipped value is accepted.
    for (setting, value) in [
        ("gapping_node_place", "before_first"),
        ("clause_marker_words", "joined"),
        ("relative_adverb_label", "obl:tmod"),
        ("xsubj_label", "nsubj:xsubj"),
    ] {
        let tree = folder(
            &format!("setting_values_{setting}"),
            SIMPLE_RULES,
            &[(
                "rules/profiles/xx.toml",
                &format!("name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\n{setting} = \"{value}\"\n"),
            )],
        );
        let set =
            load_ruleset(&tree.source(), "xx").unwrap_or_else(|e| panic!("{}", tree.render(&e)));
        assert_eq!(set.settings.text(setting), Some(value));
    }
}

/// `values` and `items` of a string are declared soundly: not on a bool, not empty, each of the
/// declared kind, the default among them.
#[test]
fn setting_values_are_declared_soundly() {
    let vocabulary = own_vocabulary("mine = \"x\"\n")
        + "\n[settings.flag_values]\ntype = \"bool\"\nvalues = [\"yes\"]\ndefault = false\ndoc = \"x\"\n"
        + "\n[settings.no_values]\ntype = \"string\"\nvalues = []\ndefault = \"a\"\ndoc = \"x\"\n"
        + "\n[settings.bad_label]\ntype = \"string\"\nitems = \"label\"\nvalues = [\"obl\", \"Obl:x\"]\ndefault = \"obl\"\ndoc = \"x\"\n"
        + "\n[settings.bad_default]\ntype = \"string\"\nvalues = [\"left\", \"right\"]\ndefault = \"rigth\"\ndoc = \"x\"\n"
        + "\n[settings.upos_list]\ntype = \"list\"\nitems = \"upos\"\nvalues = [\"NOUN\", \"VERB\"]\ndefault = [\"NOUN\", \"ADJ\"]\ndoc = \"x\"\n";
    let tree = folder(
        "settings_values_declared",
        SIMPLE_RULES,
        &[("rules/vocabulary.toml", &vocabulary)],
    );
    let rendered = check_errors(&tree);
    // Errors are located after the embedded declarations: cut the line numbers, which move
    // whenever a setting is added to the embedded file.
    for wanted in [
        "error: a bool has no `values` (a string or a list has)",
        "error: `values` lists one value or more",
        "error: enhanced label 'Obl:x' is malformed",
        "error: `rigth` is not a value of setting `bad_default`",
        "did you mean `right`?",
        "error: `ADJ` is not a value of setting `upos_list`",
    ] {
        assert!(rendered.contains(wanted), "{wanted}\n{rendered}");
    }
    assert_eq!(rendered.matches(": error: ").count(), 5, "{rendered}");
}

/// `disable` switches single rules off, inherited through `extends`; an unknown name is an
/// error with a did-you-mean.
#[test]
fn profiles_disable_rules_by_name() {
    let rules = "phase one\nrule keep {\n  match { H -[obl]-> N; }\n  do { add H =[dep]=> N; }\n}\nrule drop_me {\n  match { H -[nmod]-> N; }\n  do { add H =[dep]=> N; }\n}\n";
    let tree = folder(
        "disable",
        rules,
        &[
            ("rules/profiles/xx.toml", "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\ndisable = [\"drop_me\"]\n"),
            ("rules/profiles/yy.toml", "name = \"yy\"\ndescription = \"test\"\nextends = \"xx\"\n"),
            ("rules/profiles/zz.toml", "name = \"zz\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n"),
        ],
    );
    for (profile, has_drop) in [("xx", false), ("yy", false), ("zz", true)] {
        let set =
            load_ruleset(&tree.source(), profile).unwrap_or_else(|e| panic!("{}", tree.render(&e)));
        assert!(set.rules().any(|r| r.name == "keep"), "{profile}");
        assert_eq!(
            set.rules().any(|r| r.name == "drop_me"),
            has_drop,
            "{profile}"
        );
        assert_eq!(
            set.inactive.contains(&"drop_me".to_string()),
            !has_drop,
            "{profile}"
        );
    }
    let tree = folder(
        "disable_unknown",
        rules,
        &[("rules/profiles/xx.toml", "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\ndisable = [\"drop_mee\"]\n")],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("`disable` names `drop_mee`, which is no rule of this profile"),
        "{rendered}"
    );
    snapshot!("settings_disable_unknown", rendered);
}

// ---- profile lists in patterns (@profile.NAME) ---------------------------------------------

/// The embedded vocabulary plus a relation list `rels` and a text list `words`.
fn vocabulary_with_lists() -> String {
    own_vocabulary("case = \"x\"\n")
        + "\n[settings.rels]\ntype = \"list\"\nitems = \"relation\"\ndefault = [\"obj\"]\ndoc = \"x\"\n"
        + "\n[settings.words]\ntype = \"list\"\ndefault = [\"in\"]\ndoc = \"x\"\n"
}

/// The DEPS column of an enhanced sentence, one entry per word.
fn deps_of(conllu: &str) -> Vec<String> {
    conllu
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').nth(8).unwrap().to_string())
        .collect()
}

/// `-[@profile.rels]->` and `lemma in @profile.words` are the profile's lists, resolved when it
/// is loaded to a plain alternation and a word set.
#[test]
fn profile_lists_stand_in_patterns() {
    use crate::rules::ir::LabelTest;
    let rules = "phase one\nrule r {\n  match { H -[@profile.rels]-> N;  N -[case]-> C;  C [lemma in @profile.words]; }\n  do { add H =[dep]=> N; }\n}\n";
    let vocabulary = vocabulary_with_lists();
    let tree = folder(
        "profile_lists",
        rules,
        &[
            ("rules/vocabulary.toml", &vocabulary),
            (
                "rules/profiles/yy.toml",
                "name = \"yy\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\nrels = [\"obl:*\", \"nmod:poss\"]\nwords = [\"on\", \"in\"]\n",
            ),
        ],
    );
    let yy = load_ruleset(&tree.source(), "yy").unwrap_or_else(|e| panic!("{}", tree.render(&e)));
    let rule = yy.rules().next().unwrap();
    match &rule.pattern.edges[0].label {
        LabelTest::Alternatives(options) => assert!(
            matches!(&options[..], [LabelTest::Universal(u), LabelTest::Exact(e)] if u == "obl" && e == "nmod:poss"),
            "{options:?}"
        ),
        other => panic!("{other:?}"),
    }
    let sentence = "1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\tin\tin\tADP\t_\t_\t3\tcase\t_\t_\n3\ttown\ttown\tNOUN\t_\t_\t1\tobl\t_\t_\n4\ton\ton\tADP\t_\t_\t5\tcase\t_\t_\n5\tit\tit\tPRON\t_\t_\t1\tobj\t_\t_\n\n";
    let dir = tree.0.join("rules");
    let enhance = |profile: &str| {
        let enhancer = crate::Enhancer::for_profile(profile, Some(&dir)).unwrap();
        deps_of(&enhancer.enhance_str(sentence).unwrap().0)
    };
    // xx: the defaults (obj; in): the obj's marker `on` is not listed.
    assert_eq!(
        enhance("xx"),
        ["0:root", "3:case", "1:obl", "5:case", "1:obj"]
    );
    // yy: obl with `in` listed.
    assert_eq!(
        enhance("yy"),
        ["0:root", "3:case", "1:dep|1:obl", "5:case", "1:obj"]
    );
}

/// An unknown list, a list of the wrong kind, and a setting that is no list.
#[test]
fn profile_list_errors() {
    let rules = "phase one\nrule r {\n  match { H -[@profile.relz]-> N;  H -[@profile.words]-> M;  N [lemma in @profile.rels];  M [upos in @profile.xsubj_label]; }\n  do { add H =[dep]=> N; }\n}\n";
    let vocabulary = vocabulary_with_lists();
    let tree = folder(
        "profile_list_errors",
        rules,
        &[("rules/vocabulary.toml", &vocabulary)],
    );
    let rendered = check_errors(&tree);
    assert!(
        rendered.contains("unknown profile setting `relz`"),
        "{rendered}"
    );
    assert!(
        rendered.contains("did you mean `@profile.rels`?"),
        "{rendered}"
    );
    assert!(rendered.contains("`@profile.words` is a list of text items, but an edge pattern needs a list of relation items"), "{rendered}");
    assert!(rendered.contains("`@profile.rels` is a list of relation items, but a node constraint needs a list of text or upos items"), "{rendered}");
    assert!(
        rendered.contains("`@profile.xsubj_label` is a string"),
        "{rendered}"
    );
    snapshot!("profile_list_errors", rendered);
}

/// Markers as the treebank writes them: Czech fixed expressions and nominal markers by form,
/// the Case of a fixed expression's last preposition; English VERB markers by form.
#[test]
fn markers_are_spelt_as_the_profile_says() {
    let czech = "1\tjednal\tjednat\tVERB\t_\t_\t0\troot\t_\t_\n\
                 2\tna\tna\tADP\t_\tCase=Loc\t4\tcase\t_\t_\n\
                 3\tzákladě\tzáklad\tNOUN\t_\tCase=Loc\t2\tfixed\t_\t_\n\
                 4\tzákona\tzákon\tNOUN\t_\tCase=Gen\t1\tobl\t_\t_\n\
                 5\tVe\tv\tADP\t_\tCase=Loc\t8\tcase\t_\t_\n\
                 6\tspolupráci\tspolupráce\tNOUN\t_\tCase=Loc\t5\tfixed\t_\t_\n\
                 7\ts\ts\tADP\t_\tCase=Ins\t5\tfixed\t_\t_\n\
                 8\tVÚV\tVÚV\tPROPN\t_\t_\t1\tobl\t_\t_\n\
                 9\tvlivem\tvliv\tNOUN\t_\tCase=Ins\t10\tcase\t_\t_\n\
                 10\tdeště\tdéšť\tNOUN\t_\tCase=Gen\t1\tobl\t_\t_\n\
                 11\tve\tv\tADP\t_\tCase=Loc\t12\tcase\t_\t_\n\
                 12\tměstě\tměsto\tNOUN\t_\tCase=Loc\t1\tobl\t_\t_\n\n";
    let enhance = |profile: &str, text: &str| {
        deps_of(
            &crate::Enhancer::for_profile(profile, None)
                .unwrap()
                .enhance_str(text)
                .unwrap()
                .0,
        )
    };
    let cs = enhance("cs", czech);
    assert_eq!(cs[3], "1:obl:na_základě:gen");
    assert_eq!(cs[7], "1:obl:ve_spolupráci_s:ins");
    assert_eq!(cs[9], "1:obl:vlivem:gen");
    assert_eq!(cs[11], "1:obl:v:loc", "a single adposition keeps its lemma");
    // Lithuanian spells markers by lemma (and takes Case values the same way).
    let lt = enhance("lt", czech);
    assert_eq!(lt[3], "1:obl:na_základ:gen");
    assert_eq!(lt[7], "1:obl:v_spolupráce_s:ins");
    assert_eq!(lt[9], "1:obl:vliv:gen");
    let english = "1\titems\titem\tNOUN\t_\t_\t0\troot\t_\t_\n\
                   2\tincluding\tinclude\tVERB\t_\t_\t3\tcase\t_\t_\n\
                   3\tbooks\tbook\tNOUN\t_\t_\t1\tnmod\t_\t_\n\
                   4\tb/c\tbecause\tADP\t_\t_\t6\tcase\t_\t_\n\
                   5\tof\tof\tADP\t_\t_\t4\tfixed\t_\t_\n\
                   6\train\train\tNOUN\t_\t_\t1\tnmod\t_\t_\n\n";
    let en = enhance("en", english);
    assert_eq!(en[2], "1:nmod:including");
    assert_eq!(en[5], "1:nmod:because_of");
    assert_eq!(enhance("it", english)[2], "1:nmod:include");
}

#[test]
fn rule_text_over_the_limit_is_refused_before_it_is_read_whole() {
    use crate::rules::load::MAX_RULE_BYTES;
    // Comments only: what is refused is the size, before any parsing.
    let big = "# filler\n".repeat(MAX_RULE_BYTES / 9 + 1);
    let tree = folder("too_large", &big, &[]);
    let rendered = check_errors(&tree);
    assert!(
        rendered
            .contains("a.rules: error: rule files loaded together are limited to 4194304 bytes"),
        "{rendered}"
    );
    // Just under the limit loads.
    let under = "# filler\n".repeat(MAX_RULE_BYTES / 9 - 1);
    let tree = folder("under_limit", &under, &[]);
    assert!(load_ruleset(&tree.source(), "xx").is_ok());
}

#[test]
fn a_syntax_error_after_other_rules_points_where_it_is() {
    // Rules are parsed one at a time; positions and messages are those of the whole file.
    let rule = |name: &str| {
        format!("rule {name} {{\n  match {{ H -[obl]-> N; }}\n  do {{ add H =[obl]=> N; }}\n}}\n")
    };
    let text = format!(
        "phase one\n{}# comment\n\n{}rule c {{\n  match {{ H -[obl]-> N; }}\n  do {{ bogus }}\n}}\n",
        rule("a"),
        rule("b")
    );
    let lexicon = embedded_lexicon();
    let error = check_text("third.rules", &text, &lexicon).expect_err("syntax error");
    let rendered = error.render();
    assert!(
        rendered.starts_with("third.rules:14:8: error: syntax error: expected an action"),
        "{rendered}"
    );
    let junk = format!("phase one\n{}junk\n", rule("a"));
    let rendered = check_text("junk.rules", &junk, &lexicon)
        .expect_err("junk")
        .render();
    assert!(
        rendered.starts_with(
            "junk.rules:6:1: error: syntax error: expected end of file, `phase` or `rule`"
        ),
        "{rendered}"
    );
}
