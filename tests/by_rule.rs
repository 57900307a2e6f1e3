//! `eudify eval --by-rule`: its counts agree with `eval` of the enhanced output on every sample
//! and dev treebank and on real parser output of another tokenization; its usage errors.

use crate::common::{
    dev_files, run, sample_files, shared_root, text, treebank_code, treebank_name,
};
use eudify::eval::{evaluate_readers, EvalOptions};
use eudify::ByRule;
use std::path::Path;

/// ELAS F1 of `system`'s basic trees enhanced by `enhancer`, scored against `gold` by `eval`.
fn enhanced_elas(enhancer: &eudify::Enhancer, gold: &Path, system: &Path) -> f64 {
    let mut out = Vec::new();
    enhancer
        .enhance_reader(&std::fs::read(system).unwrap()[..], &mut out, 1)
        .unwrap_or_else(|e| panic!("{}: {e}", system.display()));
    let gold_text = std::fs::read(gold).unwrap();
    let report = evaluate_readers(
        "gold",
        &gold_text[..],
        "enhanced",
        &out[..],
        &EvalOptions::default(),
    )
    .unwrap();
    report.elas.f1()
}

/// What must hold of any report: every edge correct on one side is correct on the other, ELAS is
/// `eval`'s on the enhanced output, rows come most errors first, each removal is a missing edge.
fn check(result: &ByRule, elas: f64, what: &str) {
    assert_eq!(
        result.report.elas.f1(),
        elas,
        "{what}: ELAS differs from eval of the enhanced output"
    );
    let made: u64 = result.rules.iter().map(|r| r.produced).sum();
    let correct: u64 = result.rules.iter().map(|r| r.correct).sum();
    let wrong: u64 = result.rules.iter().map(|r| r.wrong.len() as u64).sum();
    let gold: u64 = result.missing.iter().map(|r| r.gold).sum();
    let missing: u64 = result.missing.iter().map(|r| r.missing.len() as u64).sum();
    assert_eq!(made - wrong, correct, "{what}");
    assert_eq!(
        gold - missing,
        correct,
        "{what}: correct edges counted differently on the gold side"
    );
    assert!(made > 0 && gold > 0, "{what}");
    assert!(
        result
            .rules
            .windows(2)
            .all(|w| w[0].errors() >= w[1].errors()),
        "{what}: rows not sorted"
    );
    let removed: u64 = result.rules.iter().map(|r| r.removed).sum();
    let removed_edges = result
        .missing
        .iter()
        .flat_map(|r| &r.missing)
        .filter(|e| e.removed_by.is_some())
        .count();
    assert_eq!(removed, removed_edges as u64, "{what}");
    for edge in result.rules.iter().flat_map(|r| &r.wrong) {
        assert!(
            edge.line > 0 && !edge.label.is_empty() && !edge.sent_id.is_empty(),
            "{what}: {edge:?}"
        );
    }
}

#[test]
fn sample_treebanks_agree_with_eval_of_the_enhanced_output() {
    for file in sample_files() {
        let enhancer = eudify::Enhancer::for_profile(&treebank_code(&file), None).unwrap();
        let result = enhancer
            .evaluate_by_rule(&file, &file)
            .unwrap_or_else(|e| panic!("{e}"));
        check(
            &result,
            enhanced_elas(&enhancer, &file, &file),
            &treebank_name(&file),
        );
        // Rules made edges, some of them right: the rows are not all the basic copy's.
        assert!(
            result
                .rules
                .iter()
                .any(|r| r.rule.is_some() && r.correct > 0),
            "{}",
            treebank_name(&file)
        );
    }
}

#[test]
fn every_dev_treebank_agrees_with_eval_of_the_enhanced_output() {
    let Some(files) = dev_files() else { return };
    for file in files {
        let treebank = treebank_name(&file);
        let enhancer = eudify::Enhancer::for_profile(&treebank_code(&file), None).unwrap();
        let result = enhancer
            .evaluate_by_rule(&file, &file)
            .unwrap_or_else(|e| panic!("{treebank}: {e}"));
        check(&result, enhanced_elas(&enhancer, &file, &file), &treebank);
        assert!(
            result.runaways.is_empty(),
            "{treebank}: {:?}",
            result.runaways
        );
    }
}

#[test]
fn real_parser_output_of_another_tokenization_is_attributed_through_the_alignment() {
    let Some(_) = dev_files() else { return };
    let root = shared_root().join("data");
    let pairs = [
        (
            "cs_cac",
            "ud/Czech-CAC/dev.conllu",
            "eval-reference/Czech-CAC-cs_core_news_sm/parsed.conllu",
        ),
        (
            "fr_sequoia",
            "ud/French-Sequoia/dev.conllu",
            "eval-reference/French-Sequoia-fr_core_news_md/parsed.conllu",
        ),
        (
            "en",
            "eval-reference/English-EWT-perturbed/gold.conllu",
            "eval-reference/English-EWT-perturbed/system.conllu",
        ),
        (
            "lv",
            "eval-reference/Latvian-LVTB-perturbed/gold.conllu",
            "eval-reference/Latvian-LVTB-perturbed/system.conllu",
        ),
    ];
    for (code, gold, system) in pairs {
        let (gold, system) = (root.join(gold), root.join(system));
        let enhancer = eudify::Enhancer::for_profile(code, None).unwrap();
        let result = enhancer
            .evaluate_by_rule(&gold, &system)
            .unwrap_or_else(|e| panic!("{e}"));
        check(
            &result,
            enhanced_elas(&enhancer, &gold, &system),
            &system.display().to_string(),
        );
        // The parser's own errors are the basic copy's.
        let basic = result.rules.iter().find(|r| r.rule.is_none()).unwrap();
        assert!(!basic.wrong.is_empty(), "{}", system.display());
    }
}

#[test]
fn cli_prints_a_table_or_json_and_reads_a_rules_folder() {
    let file = crate::common::sample_file("English-EWT");
    let file = file.to_str().unwrap();
    let out = run(&["eval", "--by-rule", "--lang", "en", file], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    for part in [
        "Rules by errors",
        "Missing gold edges by phenomenon",
        "case_label",
        "rules/universal/case.rules:",
    ] {
        assert!(table.contains(part), "{part:?} not in\n{table}");
    }
    let out = run(
        &["eval", "--by-rule", "--lang", "en", "--json", file, file],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = json["by_rule"]["rules"].as_array().unwrap();
    assert!(rules
        .iter()
        .any(|r| r["rule"] == "case_label" && r["produced"].as_u64() > Some(0)));
    assert!(json["ELAS"]["f1"].as_f64().unwrap() > 90.0);
    // An exported copy of the rules gives the same counts.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("by-rule-rules");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(run(&["rules", "export", dir.to_str().unwrap()], b"")
        .status
        .success());
    let out = run(
        &[
            "eval",
            "--by-rule",
            "--lang",
            "en",
            "--rules",
            dir.to_str().unwrap(),
            "--json",
            file,
        ],
        b"",
    );
    let copy: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts = |j: &serde_json::Value| {
        j["by_rule"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["rule"].clone(), r["errors"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(counts(&copy), counts(&json));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_usage_and_input_errors() {
    let file = crate::common::sample_file("English-EWT");
    let file = file.to_str().unwrap();
    let fails = |args: &[&str], code: i32, message: &str| {
        let out = run(args, b"");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{args:?}: {message:?} not in {stderr}"
        );
    };
    // Without --lang, the profile GOLD shows, said (no silent profile).
    let chosen = run(&["eval", "--by-rule", file], b"");
    assert!(chosen.status.success(), "{}", text(&chosen.stderr));
    assert!(
        text(&chosen.stderr).starts_with("eudify: profile en (identified from the text: "),
        "{}",
        text(&chosen.stderr)
    );
    fails(&["eval", "--lang", "en", file, file], 2, "--by-rule");
    fails(
        &["eval", "--by-rule", "--lang", "en", "--phenomena", file],
        2,
        "--phenomena",
    );
    fails(
        &["eval", "--by-rule", "--lang", "en", "-"],
        2,
        "GOLD cannot be `-`",
    );
    fails(
        &["eval", "--by-rule", "--lang", "en", file, file, file],
        2,
        "GOLD [SYSTEM]",
    );
    // A system input that is not CoNLL-U: its file and line.
    let bad = Path::new(env!("CARGO_TARGET_TMPDIR")).join("by-rule-bad.conllu");
    let sample = std::fs::read_to_string(file).unwrap();
    std::fs::write(&bad, sample.replacen("\t0\troot\t", "\t999\troot\t", 1)).unwrap();
    let line = sample
        .lines()
        .position(|l| l.contains("\t0\troot\t"))
        .unwrap()
        + 1;
    fails(
        &[
            "eval",
            "--by-rule",
            "--lang",
            "en",
            file,
            bad.to_str().unwrap(),
        ],
        1,
        &format!("by-rule-bad.conllu:{line}: "),
    );
    // Another text: refused as eval refuses it.
    let other = Path::new(env!("CARGO_TARGET_TMPDIR")).join("by-rule-other.conllu");
    std::fs::write(&other, sample.replacen("\tFrom\t", "\tFrim\t", 1)).unwrap();
    fails(
        &[
            "eval",
            "--by-rule",
            "--lang",
            "en",
            file,
            other.to_str().unwrap(),
        ],
        1,
        "by-rule-other.conllu:",
    );
}

/// Each `obj` edge gets a new empty node with an `obj` edge of its own: a rule that runs away
/// (the growth limit) on any `obj`.
const GROWING_GRAPH: &str = "phase grow\n\nrule grow {\n  match { A =[obj]=> B; }\n  do    { E = empty copy of B after B;  add A =[obj]=> E; }\n}\n";

#[test]
fn a_runaway_sentence_is_scored_with_its_basic_copy_and_reported() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("by-rule-runaway");
    let _ = std::fs::remove_dir_all(&dir);
    let files = [
        ("rules/test/test.rules", GROWING_GRAPH.to_string()),
        (
            "rules/profiles/test.toml",
            "name = \"test\"\ndescription = \"runaway\"\nrules = [\"test/*.rules\"]\n".to_string(),
        ),
        (
            "lexicons/universal.toml",
            std::fs::read_to_string("lexicons/universal.toml").unwrap(),
        ),
    ];
    for (path, content) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    let enhancer = eudify::Enhancer::for_profile("test", Some(&dir.join("rules"))).unwrap();
    // Gold DEPS are the basic copy: the runaway sentence, scored as written, is all right.
    let gold = "# sent_id = away\n1\tw\tw\tVERB\t_\t_\t0\troot\t0:root\t_\n2\tw\tw\tNOUN\t_\t_\t1\tobj\t1:obj\t_\n\n";
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("by-rule-runaway.conllu");
    std::fs::write(&path, gold).unwrap();
    let result = enhancer.evaluate_by_rule(&path, &path).unwrap();
    assert_eq!(result.runaways.len(), 1, "{:?}", result.runaways);
    assert!(
        result.runaways[0].contains("by-rule-runaway.conllu:1: sentence away: ")
            && result.runaways[0].contains("grow (")
    );
    assert_eq!(result.report.elas.f1(), 100.0);
    assert_eq!(
        result
            .rules
            .iter()
            .map(|r| (r.rule.is_none(), r.produced, r.correct))
            .collect::<Vec<_>>(),
        [(true, 2, 2)]
    );
    // explain says so too, with the applications made before the rules were stopped.
    let sentences = enhancer.explain(gold).unwrap();
    assert!(sentences[0]
        .runaway
        .as_deref()
        .is_some_and(|r| r.contains("growth limit")));
    assert!(sentences[0].edges.iter().all(|e| e.rule.is_none()));
    assert!(sentences[0]
        .applications
        .iter()
        .any(|a| a.rule.name == "grow"));
    let _ = std::fs::remove_dir_all(&dir);
}
