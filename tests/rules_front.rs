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
