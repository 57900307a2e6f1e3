//! `eudify eval` and `eudify validate` as users call them.

use crate::common::{dev_file, run, text};

fn json(stdout: &[u8]) -> serde_json::Value {
    serde_json::from_slice(stdout).unwrap_or_else(|e| panic!("{e}: {}", text(stdout)))
}

#[test]
fn eval_of_the_basic_profile_gives_the_official_copy_baseline() {
    // The official figures are for the full dev file.
    let Some(gold) = dev_file("Czech-CAC") else { return };
    let gold = gold.to_str().unwrap();
    let system = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cac-basic.conllu");
    let enhanced = run(&["enhance", "--lang", "basic", gold], b"");
    assert!(enhanced.status.success());
    std::fs::write(&system, &enhanced.stdout).unwrap();
    let out = run(&["eval", gold, system.to_str().unwrap(), "--json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let scores = json(&out.stdout);
    for (metric, f1) in [("ELAS", 75.17), ("EULAS", 93.01), ("LAS", 100.0)] {
        let got = scores[metric]["f1"].as_f64().unwrap();
        assert!((got - f1).abs() < 0.005, "{metric}: {got} != {f1}");
        for key in ["p", "r"] {
            assert!(scores[metric][key].is_f64(), "{metric}.{key} missing");
        }
    }
    assert!(scores.get("phenomena").is_none());
}

#[test]
fn eval_phenomena_are_in_the_json_and_the_table() {
    let gold = "tests/data/sample.conllu";
    let system = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample-en.conllu");
    let gold_enhanced = run(&["enhance", "--lang", "en", gold], b"");
    std::fs::write(&system, &gold_enhanced.stdout).unwrap();
    let system = system.to_str().unwrap();
    // The enhanced sample scored against itself: everything found, class by class.
    let out = run(&["eval", system, system, "--json", "--phenomena"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let scores = json(&out.stdout);
    assert_eq!(scores["ELAS"]["f1"].as_f64(), Some(100.0));
    let phenomena = scores["phenomena"].as_object().expect("a phenomena object");
    for class in ["B", "C", "P", "S", "X", "R", "G"] {
        let gold = phenomena[class]["gold"].as_u64().unwrap();
        assert!(gold > 0, "class {class} has examples in the sample");
        assert_eq!(phenomena[class]["correct"].as_u64(), Some(gold), "{class}");
    }
    let table = run(&["eval", system, system, "--phenomena"], b"");
    assert!(text(&table.stdout).contains("ELAS"), "{}", text(&table.stdout));
}

#[test]
fn eval_refuses_files_that_do_not_correspond() {
    let gold = "tests/data/sample.conllu";
    let shorter = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample-shorter.conllu");
    let text_in = std::fs::read_to_string(gold).unwrap();
    let first_two: Vec<&str> = text_in.split("\n\n").take(2).collect();
    std::fs::write(&shorter, first_two.join("\n\n") + "\n\n").unwrap();
    let out = run(&["eval", gold, shorter.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("sample-shorter.conllu:"), "{stderr}");

    let changed = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample-changed.conllu");
    std::fs::write(&changed, text_in.replacen("\tShe\t", "\tHe\t", 1)).unwrap();
    let out = run(&["eval", gold, changed.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
fn validate_exits_1_with_file_and_line_on_an_invalid_enhanced_layer() {
    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("self-loop.conllu");
    std::fs::write(&bad, "1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t2:dep\t_\n\n").unwrap();
    let bad = bad.to_str().unwrap();
    let out = run(&["validate", bad], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with(&format!("{bad}:2: ")), "{stderr}");
    let good = run(&["validate", "tests/data/sample.conllu"], b"");
    assert!(good.status.success(), "{}", text(&good.stderr));
}

/// `enhance` warns once per file with words without a lemma, counting neither a word whose form
/// is `_` too nor the second part of a split word (`goeswith`: its lemma is on the first).
#[test]
fn enhance_warns_once_per_file_of_words_without_a_lemma() {
    let dir = std::env::temp_dir().join(format!("eudify-cli-lemmas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, body: &str| {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        path.display().to_string()
    };
    let lemmatised = write("lemmatised.conllu", "1\tGo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\thome\thome\tADV\t_\t_\t1\tadvmod\t_\t_\n\n");
    let one = write(
        "one.conllu",
        "1\tGo\t_\tVERB\t_\t_\t0\troot\t_\t_\n2\tho\thome\tADV\t_\t_\t1\tadvmod\t_\t_\n3\tme\t_\tX\t_\t_\t2\tgoeswith\t_\t_\n\
         4\t_\t_\tSYM\t_\t_\t1\tpunct\t_\t_\n\n",
    );
    let two = write("two.conllu", "1\tGo\t_\tVERB\t_\t_\t0\troot\t_\t_\n2\thome\t_\tADV\t_\t_\t1\tadvmod\t_\t_\n\n");
    let out = run(&["enhance", "--lang", "en", &lemmatised, &one, &two, &lemmatised], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "warning: {one}: 1 of 4 words has no lemma (LEMMA _); lemma tests and markers used its lower-cased form\n\
             warning: {two}: 2 of 2 words have no lemma (LEMMA _); lemma tests and markers used their lower-cased forms\n"
        )
    );
    let stdin = run(&["enhance", "--lang", "en"], std::fs::read(&two).unwrap().as_slice());
    assert!(text(&stdin.stderr).starts_with("warning: <stdin>: 2 of 2 words have no lemma"), "{}", text(&stdin.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
