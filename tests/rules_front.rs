//! The rule-language front-end as a client meets it: `eudify check`, `test`, `profiles`,
//! `rules export` and `--rules DIR` on folders made for the test. The front-end's own tests
//! (every diagnostic, settings, lists, the IR) are unit tests in `src/rules/tests_front.rs`.

use crate::common::{run, text, TempTree};
use std::path::{Path, PathBuf};

/// Snapshots live in `snapshots/rules_front/`, beside the unit tests' ones.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../snapshots/rules_front", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

const UNIVERSAL_LEXICON: &str = "[control]\nsubject = []\nobject = []\n";
const SIMPLE_RULES: &str =
    "phase one\nrule r {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n";

/// `check_rules` of the folder `DIR/rules`: the rendered errors, with the path as `DIR`.
fn check_errors(tree: &TempTree) -> String {
    match eudify::check_rules(Some(&tree.0.join("rules"))) {
        Ok(warnings) => panic!("checked clean: {}", warnings.join("\n")),
        Err(e) => tree.hide_path(&e.to_string()),
    }
}

#[test]
fn each_diagnostic_is_reported_once_however_many_profiles_share_the_file() {
    let profile = |name: &str| {
        format!("name = \"{name}\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n")
    };
    // Only p1 declares NumForm: the other two meet an error that the check of every file
    // (which knows every declared feature) does not.
    let p1 = format!("{}features = [\"NumForm\"]\n", profile("p1"));
    let (p2, p3) = (profile("p2"), profile("p3"));
    let tree = TempTree::new(
        "once",
        &[
            ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
            ("rules/set/a.rules", "phase one\nrule r {\n  match { H -[obl]-> N; N [NumForm=Digit]; }\n  do { add H =[obl]=> X; }\n}\n"),
            ("rules/set/b.rules", "phase one\nrule s {\n  match { H -[obl]-> N; }\n  do { add H =[nmod]=> N }\n  oops\n}\n"),
            ("rules/profiles/p1.toml", &p1),
            ("rules/profiles/p2.toml", &p2),
            ("rules/profiles/p3.toml", &p3),
        ],
    );
    let rendered = check_errors(&tree);
    assert_eq!(
        rendered.matches("unknown node variable `X`").count(),
        1,
        "{rendered}"
    );
    assert_eq!(rendered.matches("syntax error").count(), 1, "{rendered}");
    assert_eq!(
        rendered.matches("unknown feature `NumForm`").count(),
        1,
        "{rendered}"
    );
    assert!(
        rendered.contains("= note: in profiles p2, p3"),
        "{rendered}"
    );
    snapshot!("diagnostic_once_across_profiles", rendered);
    // `eudify check` prints exactly that, and exits 1.
    let out = run(
        &["check", "--rules", tree.0.join("rules").to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(tree.hide_path(&text(&out.stderr)), rendered);
}

#[test]
fn a_folder_without_profiles_is_refused() {
    let tree = TempTree::new("no_profiles", &[("rules/set/a.rules", SIMPLE_RULES)]);
    let dir = tree.0.join("rules");
    let error = eudify::profiles(Some(&dir)).expect_err("no profile");
    let rendered = tree.hide_path(&error.to_string());
    assert!(rendered.contains("no profile"), "{rendered}");
    snapshot!("folder_without_profiles", rendered);
    // Every subcommand that reads rules says so and exits 1.
    let dir = dir.to_str().unwrap();
    for args in [
        vec!["check", "--rules", dir],
        vec!["test", "--rules", dir],
        vec!["profiles", "--rules", dir],
        vec!["enhance", "--rules", dir, "tests/data/sample.conllu"],
    ] {
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("no profile"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `rules export DIR` writes a folder that `test --rules DIR` reads with the embedded results
/// (that every profile loads the same rules, settings and lexicons is a unit test); a second
/// export refuses to overwrite.
#[test]
fn exported_rules_test_like_the_embedded_ones() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-export");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["rules", "export", dir.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.join("profiles/en.toml").is_file());
    assert!(eudify::check_rules(Some(&dir)).is_ok());
    let embedded_test = run(&["test"], b"");
    let exported_test = run(&["test", "--rules", dir.to_str().unwrap()], b"");
    assert!(exported_test.status.success());
    assert_eq!(
        text(&embedded_test.stdout),
        text(&exported_test.stdout).replace(dir.to_str().unwrap(), "rules")
    );
    let again = run(&["rules", "export", dir.to_str().unwrap()], b"");
    assert_eq!(again.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the folder `from` into `to`, recursively.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target: PathBuf = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The README's recipe, `cp -r rules my-rules; eudify enhance --rules my-rules ...`: a copy of
/// `rules/` alone (no lexicons inside) enhances as the embedded rules do, with no warning.
#[test]
fn a_copy_of_rules_alone_enhances_like_the_embedded_rules() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-copy-alone");
    let _ = std::fs::remove_dir_all(&dir);
    copy_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), &dir);
    assert!(!dir.join("lexicons").exists());
    let sample = "tests/data/sample.conllu";
    let embedded = run(&["enhance", "--lang", "en", sample], b"");
    let copied = run(
        &[
            "enhance",
            "--lang",
            "en",
            "--rules",
            dir.to_str().unwrap(),
            sample,
        ],
        b"",
    );
    assert!(copied.status.success(), "{}", text(&copied.stderr));
    assert!(copied.stderr.is_empty(), "{}", text(&copied.stderr));
    assert_eq!(embedded.stdout, copied.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A profile's misspelt setting value stops `eudify check` and `enhance` with exit 1 at
/// FILE:LINE:COL (every such diagnostic is a unit test).
#[test]
fn a_misspelt_setting_value_stops_check_and_enhance() {
    let tree = TempTree::new(
        "setting_values_cli",
        &[
            ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
            ("rules/set/a.rules", SIMPLE_RULES),
            (
                "rules/profiles/xx.toml",
                "name = \"xx\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\ngapping_node_place = \"after_frist\"\n",
            ),
        ],
    );
    let dir = tree.0.join("rules");
    for args in [
        &["check", "--rules"][..],
        &["enhance", "--lang", "xx", "--rules"],
    ] {
        let args: Vec<&str> = args
            .iter()
            .copied()
            .chain([dir.to_str().unwrap()])
            .collect();
        let out = run(&args, b"1\ta\ta\tNOUN\t_\t_\t0\troot\t_\t_\n\n");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            text(&out.stderr).contains("xx.toml:5:22: error: `after_frist`"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// The README's rule, pasted where the README says into an export of the shipped rules, checks
/// clean, its example passes under `test`, and `enhance` gives the label it promises.
#[test]
fn the_readmes_first_rule_works_when_pasted() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    // "`my-rules/en/passive_agent.rules`:" then the rule in a fence.
    let (before, after) = readme
        .split_once(".rules`:\n\n```\n")
        .expect("README names a rule file and shows the rule");
    let path = &before[before.rfind('`').unwrap() + 1..];
    let path = format!("{path}.rules");
    let rule = &after[..after.find("```").unwrap()];
    let relative = path.strip_prefix("my-rules/").expect("a file in my-rules/");

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-first-rule");
    let _ = std::fs::remove_dir_all(&dir);
    let export = run(&["rules", "export", dir.to_str().unwrap()], b"");
    assert!(export.status.success(), "{}", text(&export.stderr));
    std::fs::write(dir.join(relative), rule).unwrap();

    let warnings = eudify::check_rules(Some(&dir)).unwrap_or_else(|e| panic!("{e}"));
    assert!(warnings.is_empty(), "{}", warnings.join("\n"));
    let shipped = eudify::test_examples(None).unwrap();
    let with_rule = eudify::test_examples(Some(&dir)).unwrap();
    assert!(with_rule.failures.is_empty(), "{:?}", with_rule.failures);
    assert_eq!(with_rule.passed, shipped.passed + 1);

    // The example's sentence, as a CoNLL-U file (tabs, no DEPS), enhanced with the copy.
    let example = rule
        .split_once("example {\n")
        .and_then(|(_, rest)| rest.split_once("\n  }"))
        .expect("the rule has an example")
        .0;
    let mut conllu = String::new();
    for line in example.lines() {
        let mut columns: Vec<&str> = line.split_whitespace().collect();
        columns[8] = "_";
        conllu.push_str(&columns.join("\t"));
        conllu.push('\n');
    }
    conllu.push('\n');
    let out = run(
        &["enhance", "--lang", "en", "--rules", dir.to_str().unwrap()],
        conllu.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let enhanced = text(&out.stdout);
    assert!(enhanced.contains("\tobl\t4:obl:agent\t"), "{enhanced}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A phase no profile lists is one error however many profiles load the file, with a
/// did-you-mean and where phases are listed; `enhance` with one profile says the same.
#[test]
fn an_unlisted_phase_is_reported_once_with_where_phases_are_listed() {
    let base = "name = \"base\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\nphases = [\"case\", \"cleanup\"]\n";
    let child =
        |name: &str| format!("name = \"{name}\"\ndescription = \"test\"\nextends = \"base\"\n");
    let own = "name = \"own\"\ndescription = \"test\"\nextends = \"base\"\nrules = [\"own/*.rules\"]\nphases = [\"case\", \"late\", \"cleanup\"]\n";
    let tree = TempTree::new(
        "unlisted_phase",
        &[
            ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
            (
                "rules/set/a.rules",
                "phase cas\nrule r {\n  match { H -[obl]-> N; }\n  do { add H =[obl]=> N; }\n}\n\
                 phase case\nrule s {\n  match { H -[nmod]-> N; }\n  do { add H =[nmod]=> N; }\n}\n\
                 phase cleanup\nrule t {\n  match { H -[obj]-> N; }\n  do { add H =[obj]=> N; }\n}\n",
            ),
            (
                "rules/own/b.rules",
                "phase late\nrule u {\n  match { H -[iobj]-> N; }\n  do { add H =[iobj]=> N; }\n}\n",
            ),
            ("rules/profiles/base.toml", base),
            ("rules/profiles/c1.toml", &child("c1")),
            ("rules/profiles/c2.toml", &child("c2")),
            ("rules/profiles/own.toml", own),
        ],
    );
    let rendered = check_errors(&tree);
    assert_eq!(rendered.matches("error:").count(), 1, "{rendered}");
    assert!(rendered.contains("did you mean `case`?"), "{rendered}");
    assert!(
        rendered.contains("DIR/rules/profiles/base.toml"),
        "{rendered}"
    );
    snapshot!("unlisted_phase_once", rendered);
    let out = run(
        &[
            "enhance",
            "--lang",
            "c1",
            "--rules",
            tree.0.join("rules").to_str().unwrap(),
            "tests/data/sample.conllu",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = tree.hide_path(&text(&out.stderr));
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    assert!(
        stderr.contains("`phases` in DIR/rules/profiles/base.toml: case, cleanup"),
        "{stderr}"
    );
}

/// Feature values: UD's universal ones are built in, a profile's `[features]` table declares
/// language-specific ones (and extra values of universal features), the list form any value; a
/// typo is an error at the value with a did-you-mean.
#[test]
fn feature_values_are_checked_against_ud_and_the_profile() {
    // `p` declares values in the table form, `q` adds a feature in the list form (any value).
    let profile = "name = \"p\"\ndescription = \"test\"\n\n[features]\nAdpType = [\"Prep\", \"Voc\"]\nVerbForm = [\"Stem\"]\n";
    let listed = "name = \"q\"\ndescription = \"test\"\nextends = \"p\"\nrules = [\"set/*.rules\"]\nfeatures = [\"Clitic\"]\n";
    let rule = |constraints: &str| {
        format!("phase one\nrule r {{\n  match {{ H -[obl]-> N; N [{constraints}]; }}\n  do {{ add H =[obl]=> N; }}\n}}\n")
    };
    let tree_with = |name: &str, constraints: &str| {
        TempTree::new(
            name,
            &[
                ("rules/lexicons/universal.toml", UNIVERSAL_LEXICON),
                ("rules/set/a.rules", &rule(constraints)),
                ("rules/profiles/p.toml", profile),
                ("rules/profiles/q.toml", listed),
            ],
        )
    };
    let good = tree_with(
        "good_values",
        "VerbForm=Ger|Stem, AdpType=Voc, Clitic=Ka, PronType=\"Int,Rel\", Case~=acc, Number[psor]=Sing",
    );
    assert!(eudify::check_rules(Some(&good.0.join("rules"))).is_ok());
    let bad = tree_with(
        "bad_values",
        "VerbForm=Gerr, AdpType=Vocc, PronType=\"Int,Rell\", Case=Xyz",
    );
    let rendered = check_errors(&bad);
    for expected in [
        "3:37: error: unknown value `Gerr` of feature `VerbForm`",
        "did you mean `Ger`?",
        "unknown value `Vocc` of feature `AdpType`",
        "did you mean `Voc`?",
        "unknown value `Int,Rell` of feature `PronType`",
        "did you mean `Rel`?",
        "unknown value `Xyz` of feature `Case`",
    ] {
        assert!(rendered.contains(expected), "{expected}: {rendered}");
    }
    snapshot!("feature_values", rendered);
}

/// A user's rule named like a shipped one is one error, at the user's file, with a note at the
/// shipped rule (not a second error at the shipped file pointing back).
#[test]
fn a_name_clash_with_a_shipped_rule_is_reported_at_the_users_file() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("name-clash");
    let _ = std::fs::remove_dir_all(&dir);
    let export = run(&["rules", "export", dir.to_str().unwrap()], b"");
    assert!(export.status.success(), "{}", text(&export.stderr));
    let rule = "phase case\n\nrule case_label {\n  match { H -[obl]-> N; }\n  do { relabel H =[obl]=> N as \"obl:x\"; }\n}\n";
    std::fs::write(dir.join("en/mine.rules"), rule).unwrap();
    let error = eudify::check_rules(Some(&dir))
        .expect_err("a clash is an error")
        .to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(error.matches("duplicate rule name").count(), 1, "{error}");
    assert!(
        error.contains("en/mine.rules:3:6: error: duplicate rule name `case_label`"),
        "{error}"
    );
    assert!(
        error.contains("first defined at ") && error.contains("universal/case.rules:"),
        "{error}"
    );
}
