//! Evaluation: the IWPT 2021 scores against the official scorer's numbers, error reporting, and
//! the report formats.

use crate::common::{dev_file, dev_files, sample_file};
use eudify::eval::{
    evaluate_files, evaluate_readers, EvalError, EvalOptions, Metric, Phenomenon, Report,
};
use std::path::Path;

/// The copy baseline of the shared task: DEPS := `HEAD:DEPREL` on every word, no empty nodes.
fn copy_baseline(gold: &str) -> String {
    let mut out = String::with_capacity(gold.len());
    for line in gold.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let columns: Vec<&str> = content.split('\t').collect();
        if columns.len() != 10 || content.starts_with('#') || columns[0].contains('-') {
            out.push_str(line);
        } else if columns[0].contains('.') {
            // Empty node: dropped.
        } else {
            let deps = format!("{}:{}", columns[6], columns[7]);
            let mut columns = columns;
            columns[8] = &deps;
            out.push_str(&columns.join("\t"));
            out.push_str(&line[content.len()..]);
        }
    }
    out
}

fn evaluate_strings(gold: &str, system: &str, phenomena: bool) -> Result<Report, EvalError> {
    let opts = EvalOptions {
        phenomena,
        ..EvalOptions::default()
    };
    evaluate_readers(
        "gold.conllu",
        gold.as_bytes(),
        "system.conllu",
        system.as_bytes(),
        &opts,
    )
}

/// The copy baseline's scores on a treebank's full dev file, `None` when the dev files are missing.
fn baseline_report(treebank: &str, phenomena: bool) -> Option<Report> {
    let gold = std::fs::read_to_string(dev_file(treebank)?).unwrap();
    let system = copy_baseline(&gold);
    Some(evaluate_strings(&gold, &system, phenomena).unwrap_or_else(|e| panic!("{treebank}: {e}")))
}

/// ELAS F1 and EULAS F1 of the copy baseline, as the official IWPT 2021 scorer reports them.
const OFFICIAL_BASELINE: [(&str, f64, f64); 8] = [
    ("Bulgarian-BTB", 86.11, 97.57),
    ("Czech-CAC", 75.17, 93.01),
    ("Dutch-Alpino", 84.50, 97.78),
    ("Dutch-LassySmall", 82.22, 96.34),
    ("English-EWT", 85.42, 97.07),
    ("Latvian-LVTB", 80.44, 94.86),
    ("Lithuanian-ALKSNIS", 72.33, 95.21),
    ("Ukrainian-IU", 95.35, 95.40),
];

#[test]
fn copy_baseline_matches_the_official_scorer() {
    let mut failures = Vec::new();
    for (treebank, elas, eulas) in OFFICIAL_BASELINE {
        let Some(report) = baseline_report(treebank, false) else {
            return;
        };
        let (got_elas, got_eulas) = (report.elas.f1(), report.eulas.f1());
        if (got_elas - elas).abs() > 0.01 || (got_eulas - eulas).abs() > 0.01 {
            failures.push(format!("{treebank}: ELAS {got_elas:.2} (official {elas}), EULAS {got_eulas:.2} (official {eulas})"));
        }
        // With gold tokenization and a copied tree, the basic tree is perfect.
        assert_eq!(report.las.correct, report.las.gold, "{treebank}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn identical_files_score_100_everywhere() {
    let gold = std::fs::read_to_string(sample_file("Czech-CAC")).unwrap();
    let report = evaluate_strings(&gold, &gold, true).unwrap();
    for score in [report.elas, report.eulas, report.las] {
        assert_eq!(
            (score.precision(), score.recall(), score.f1()),
            (100.0, 100.0, 100.0)
        );
    }
    let phenomena = report.phenomena.unwrap();
    for (class, score) in phenomena.iter() {
        assert_eq!(
            (score.gold, score.system),
            (score.correct, score.correct),
            "{class:?}"
        );
    }
    // Czech-CAC has empty nodes, so the empty-node classes are exercised.
    assert!(phenomena.get(Phenomenon::EmptyNode).gold > 0);
    assert!(phenomena.get(Phenomenon::ReplacedByEmptyNode).gold > 0);
}

#[test]
fn files_on_disk_are_read_and_missing_files_are_reported() {
    let path = sample_file("English-EWT");
    let report = evaluate_files(&path, &path, &EvalOptions::default()).unwrap();
    assert_eq!(report.elas.f1(), 100.0);
    assert!(report.phenomena.is_none());
    let missing = Path::new("/nonexistent/gold.conllu");
    let err = evaluate_files(missing, &path, &EvalOptions::default()).unwrap_err();
    assert!(
        err.to_string().starts_with("/nonexistent/gold.conllu: "),
        "{err}"
    );
}

const GOLD: &str = "# sent_id = a
# text = He left
1\tHe\the\tPRON\t_\t_\t2\tnsubj\t2:nsubj\t_
2\tleft\tleave\tVERB\t_\t_\t0\troot\t0:root\t_

# sent_id = b
1\tGo\tgo\tVERB\t_\t_\t0\troot\t0:root\t_
2\thome\thome\tADV\t_\t_\t1\tadvmod\t1:advmod\t_

";

#[test]
fn text_that_differs_is_refused_with_both_lines_and_characters() {
    let first_only: String = GOLD.split_inclusive('\n').take(5).collect();
    let err = evaluate_strings(GOLD, &first_only, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:6: the system file ends, but gold's text goes on with 'Gohome' (gold.conllu:7)"
    );
    let err = evaluate_strings(&first_only, GOLD, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:7: the system file's text goes on past the end of gold's: 'Gohome'"
    );
    let other_form = GOLD.replace("2\thome\thome", "2\tHome\thome");
    let err = evaluate_strings(GOLD, &other_form, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:8: the text differs from gold's (gold.conllu:8): gold has 'home', system has 'Home'"
    );
    // A character of several bytes that differs in its last byte: reported whole.
    let err = evaluate_strings(
        &GOLD.replace("home\thome", "hømé\thome"),
        &GOLD.replace("home\thome", "hømè\thome"),
        false,
    )
    .unwrap_err();
    assert!(
        err.to_string().ends_with("gold has 'é', system has 'è'"),
        "{err}"
    );
}

/// GOLD with the two sentences joined, `left` split into `le`+`ft`, and a system-only
/// multiword token `Go` = `G` + `o` (two words): what a real tokenizer may do.
const RETOKENIZED: &str = "# sent_id = x
1\tHe\the\tPRON\t_\t_\t2\tnsubj\t2:nsubj\t_
2\tle\tle\tVERB\t_\t_\t0\troot\t0:root\t_
3\tft\tft\tX\t_\t_\t2\tdep\t2:dep\t_
4-5\tGo\t_\t_\t_\t_\t_\t_\t_\t_
4\tgo\tgo\tVERB\t_\t_\t2\tparataxis\t2:parataxis\t_
5\tx\tx\tX\t_\t_\t4\tdep\t4:dep\t_
6\thome\thome\tADV\t_\t_\t4\tadvmod\t4:advmod\t_

";

#[test]
fn different_tokenization_and_segmentation_are_aligned_by_characters() {
    let report = evaluate_strings(GOLD, RETOKENIZED, false).unwrap();
    let score = |m: Metric| {
        let s = report.score(m);
        (s.gold, s.system, s.correct, s.aligned)
    };
    // Tokens: He, left, Go, home against He, le, ft, Go, home: He, Go, home agree.
    assert_eq!(score(Metric::Tokens), (4, 5, 3, 0));
    assert_eq!(score(Metric::Sentences), (2, 1, 0, 0));
    // Words: He and home by span, Go with go by lower-cased form inside the multiword token.
    assert_eq!(score(Metric::Words), (4, 6, 3, 0));
    // He's head (left) is not aligned; Go is a root in gold, not in the system; home's head
    // is Go in both.
    assert_eq!(score(Metric::Uas), (4, 6, 1, 3));
    assert_eq!(score(Metric::Lemmas), (4, 6, 3, 3));
    assert_eq!(score(Metric::Upos), (4, 6, 3, 3));
    assert_eq!(score(Metric::Elas), (4, 6, 1, 3));
    assert_eq!(report.sentences, 2);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["Words"]["aligned_acc"], serde_json::Value::Null);
    assert_eq!(json["UAS"]["aligned_acc"], 100.0 / 3.0);
}

#[test]
fn parse_errors_carry_file_and_line() {
    let broken = GOLD.replace(
        "0\troot\t0:root\t_\n\n# sent_id = b",
        "0\troot\t0:root\n\n# sent_id = b",
    );
    let err = evaluate_strings(GOLD, &broken, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:4: expected 10 tab-separated columns, found 9"
    );
    let err = evaluate_strings(&broken, GOLD, false).unwrap_err();
    assert!(err.to_string().starts_with("gold.conllu:4: "), "{err}");
}

#[test]
fn trailing_blank_lines_and_crlf_do_not_matter() {
    let system = format!("{}\n\n\n", GOLD.replace('\n', "\r\n"));
    let report = evaluate_strings(GOLD, &system, false).unwrap();
    assert_eq!((report.sentences, report.words), (2, 4));
    assert_eq!(report.elas.f1(), 100.0);
    let empty = evaluate_strings("", "\n", false).unwrap();
    assert_eq!((empty.sentences, empty.elas.f1()), (0, 0.0));
}

#[test]
fn empty_nodes_are_collapsed_before_scoring() {
    // Gold attaches "bronze" through an empty node; the system attaches it directly.
    let gold = "1\tA\t_\t_\t_\t_\t0\troot\t0:root\t_
2\tgold\t_\t_\t_\t_\t1\tobj\t1:obj\t_
3\tB\t_\t_\t_\t_\t1\tconj\t3.1:nsubj\t_
3.1\twon\t_\t_\t_\t_\t_\t_\t1:conj\t_
4\tbronze\t_\t_\t_\t_\t3\torphan\t3.1:obj\t_

";
    let system = "1\tA\t_\t_\t_\t_\t0\troot\t0:root\t_
2\tgold\t_\t_\t_\t_\t1\tobj\t1:obj\t_
3\tB\t_\t_\t_\t_\t1\tconj\t1:conj>nsubj\t_
4\tbronze\t_\t_\t_\t_\t3\torphan\t3:orphan\t_

";
    let report = evaluate_strings(gold, system, true).unwrap();
    // Gold collapsed: root, obj, 1 -conj>nsubj-> 3, 1 -conj>obj-> 4. System matches three.
    assert_eq!(
        (report.elas.gold, report.elas.system, report.elas.correct),
        (4, 4, 3)
    );
    let phenomena = report.phenomena.unwrap();
    assert_eq!(phenomena.get(Phenomenon::EmptyNode).gold, 3);
    assert_eq!(phenomena.get(Phenomenon::ReplacedByEmptyNode).gold, 2);
    assert_eq!(phenomena.get(Phenomenon::Basic).system, 3); // 0→1, 1→2, 3→4 orphan
}

#[test]
fn report_formats() {
    let report = evaluate_strings(GOLD, GOLD, true).unwrap();
    let json = serde_json::to_value(&report).unwrap();
    for metric in ["ELAS", "EULAS", "LAS"] {
        for key in ["p", "r", "f1"] {
            assert_eq!(json[metric][key], 100.0, "{metric} {key}");
        }
    }
    assert_eq!(json["phenomena"]["B"]["gold"], 4);
    assert_eq!(json["phenomena"]["B"]["f1"], 100.0);
    assert_eq!(json["phenomena"]["M"]["f1"], 0.0);
    let text = report.to_string();
    assert!(text.contains("ELAS"), "{text}");
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("B basic")),
        "{text}"
    );
    let plain = evaluate_strings(GOLD, GOLD, false).unwrap();
    assert!(serde_json::to_value(&plain)
        .unwrap()
        .get("phenomena")
        .is_none());
}

#[test]
fn too_many_paths_through_empty_nodes_is_an_error_not_a_hang() {
    // 1.k hangs twice from 1.(k-1): 2^40 paths from word 1 down to word 2.
    let mut gold = String::from("1\ta\t_\t_\t_\t_\t0\troot\t0:root\t_\n");
    for k in 1..=40 {
        let parent = if k == 1 {
            "1".to_string()
        } else {
            format!("1.{}", k - 1)
        };
        gold.push_str(&format!(
            "1.{k}\te\t_\t_\t_\t_\t_\t_\t{parent}:a|{parent}:b\t_\n"
        ));
    }
    gold.push_str("2\tb\t_\t_\t_\t_\t1\tdep\t1.40:dep\t_\n\n");
    let err = evaluate_strings(&gold, &gold, false).unwrap_err();
    assert!(err.to_string().starts_with("gold.conllu:42: "), "{err}");
}

/// The pairs of `eval-reference` (real parser output and perturbed tokenization), with the
/// official IWPT 2021 scorer's figures, or `None` (skipped, with a message) without shared data.
fn reference_pairs() -> Option<(std::path::PathBuf, serde_json::Value)> {
    dev_files()?;
    let root = crate::common::shared_root().join("data/eval-reference");
    let expected = std::fs::read_to_string(root.join("expected.json"))
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()));
    Some((root, serde_json::from_str(&expected).unwrap()))
}

#[test]
fn every_reference_pair_matches_the_official_scorer_to_0_01() {
    let Some((root, expected)) = reference_pairs() else {
        return;
    };
    let pairs = expected["pairs"].as_array().unwrap();
    assert!(pairs.len() >= 12, "expected.json has {} pairs", pairs.len());
    let mut failures = Vec::new();
    let mut figures = 0;
    for pair in pairs {
        let name = pair["name"].as_str().unwrap();
        let gold = root.join(pair["gold"].as_str().unwrap());
        let system = root.join(pair["system"].as_str().unwrap());
        let report = evaluate_files(&gold, &system, &EvalOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let json = serde_json::to_value(&report).unwrap();
        for (metric, want) in pair["metrics"].as_object().unwrap() {
            for key in ["p", "r", "f1", "aligned_acc"] {
                let got = &json[metric.as_str()][key];
                let ok = match (want[key].as_f64(), got.as_f64()) {
                    (Some(w), Some(g)) => (w - g).abs() < 0.005 + 1e-9,
                    (None, None) => true,
                    _ => false,
                };
                figures += 1;
                if !ok {
                    failures.push(format!(
                        "{name} {metric} {key}: {got} (official {})",
                        want[key]
                    ));
                }
            }
        }
    }
    assert!(figures >= 12 * 15 * 4, "only {figures} figures compared");
    assert!(
        failures.is_empty(),
        "{} of {figures} figures differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Gold for the GramEval tests: a multiword token, an empty node, a `_` lemma, `ё`.
const GRAM_EVAL_GOLD: &str = "# sent_id = 1
1-2\tЁжик\t_\t_\t_\t_\t_\t_\t_\t_
1\tЁж\tёж\tNOUN\t_\tCase=Nom|Number=Sing\t3\tnsubj\t_\t_
2\tик\t_\tPART\t_\t_\t1\tdiscourse\t_\t_
3\tспит\tспать\tVERB\t_\tAspect=Imp\t0\troot\t_\t_
3.1\tспит\tспать\tVERB\t_\t_\t_\t_\t3:conj\t_
4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

1\tЁлка\tёлка\tNOUN\t_\tCase=Nom\t2\tnsubj\t_\t_
2\tрастёт\tрасти\tVERB\t_\t_\t0\troot\t_\t_

1\tда\tда\tPART\t_\t_\t0\troot\t_\t_
2\tнет\tнет\tPART\t_\t_\t1\tconj\t_\t_

1\tВсё\tвсё\tPRON\t_\t_\t0\troot\t_\t_

";

/// A system for [`GRAM_EVAL_GOLD`]: no empty node, a cycle (sentence 2), two roots (sentence 3),
/// no fourth sentence.
const GRAM_EVAL_SYSTEM: &str = "1-2\tЁжик\t_\t_\t_\t_\t_\t_\t_\t_
1\tЁж\tЕж\tnoun\t_\tNumber=Sing\t3\tNSUBJ\t_\t_
2\tик\tик\tPART\t_\t_\t1\tdiscourse\t_\t_
3\tспит\tспать\tVERB\t_\tAspect=Imp|Mood=Ind\t0\troot:x\t_\t_
4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

1\tЁлка\tЁлка\tNOUN\t_\tCase=Nom|Case=Gen\t2\tnsubj\t_\t_
2\tрастёт\tрасти\tVERB\t_\t_\t1\troot\t_\t_

1\tда\tда\tPART\t_\t_\t0\troot\t_\t_
2\tнет\tнет\tPART\t_\t_\t0\troot\t_\t_

";

fn gram_eval_strings(gold: &str, system: &str) -> Result<Report, EvalError> {
    let opts = EvalOptions {
        gram_eval: true,
        ..EvalOptions::default()
    };
    evaluate_readers(
        "gold.conllu",
        gold.as_bytes(),
        "system.conllu",
        system.as_bytes(),
        &opts,
    )
}

#[test]
fn gram_eval_scores_line_by_line_as_the_official_script() {
    // The official script (codalab_private_evaluate.py with pyconll 2.2.1) on these files gives
    // UPOS 63.6364, Feats 68.1819, Lemmas 45.4545, LAS 36.3636, Quality 53.4091. By hand, line
    // by line (lemma, UPOS, LAS, features):
    // sentence 1, gold lines against the system's at the same position:
    //   1-2   multiword line: `_` lemma, UPOS, HEAD never equal: 0 0 0; no gold features: 1
    //   1 Ёж  ёж = Еж (ё→е, lower case), NOUN = noun, 3 nsubj = 3 NSUBJ: 1 1 1; Number of 2: ½
    //   2 ик  gold lemma `_`: 0; 1 1; 1
    //   3     root ≠ root:x: 1 1 0; 1
    //   3.1   against the system's `4 .`: 0 0 0 (HEAD `_`); no gold features: 1
    //   4 .   the system has no sixth line: 0 0 0; 0
    // sentence 2 (a cycle in the system): Ёлка's `ёлка` ≠ `Ёлка` (ё replaced before lower-casing:
    //   `ёлка` ≠ `елка`) 0 1 1, Case Nom ≠ Gen (the last Case wins) 0; растёт 1 1 0 (HEAD 0 ≠ 1); 1
    // sentence 3 (two roots): да 1 1 1 1; нет 1 1 0 1
    // sentence 4, missing from the system: 0 0 0 0
    let report = gram_eval_strings(GRAM_EVAL_GOLD, GRAM_EVAL_SYSTEM).unwrap();
    let g = report.gram_eval.clone().unwrap();
    assert_eq!(
        (g.sentences, g.words, g.lemmas, g.upos, g.las),
        (4, 11, 5, 7, 4)
    );
    let epsilon = 0.00001;
    let feats =
        1.0 + (1.0 + epsilon) / (2.0 + epsilon) + 3.0 + epsilon / (1.0 + epsilon) + 1.0 + 2.0;
    assert!((g.feats - feats).abs() < 1e-9, "{}", g.feats);
    let json = serde_json::to_value(&report).unwrap();
    let figures = &json["GramEval"];
    for (key, official) in [
        ("UPOS", 63.6364),
        ("Feats", 68.1819),
        ("Lemmas", 45.4545),
        ("LAS", 36.3636),
        ("Quality", 53.4091),
    ] {
        let ours = figures[key].as_f64().unwrap();
        assert!(
            (ours - official).abs() < 1e-4,
            "{key}: {ours}, official {official}"
        );
    }
    assert_eq!(
        (figures["Tokens"].as_u64(), figures["Sentences"].as_u64()),
        (Some(11), Some(4))
    );
    // GramEval's figures only: the IWPT metrics are another scorer's.
    assert_eq!(json.as_object().unwrap().len(), 1, "{json}");
    assert!(report.to_string().starts_with("GramEval 2020"));
}

#[test]
fn gram_eval_reads_lines_as_pyconll_does_and_refuses_what_it_refuses() {
    // CRLF and a lone CR end lines; spaces around a line are ignored; a line of spaces ends
    // a sentence; `_ _` is an underscore token whose lemma `_` is a real lemma.
    let gold = "1\t_\t_\tPUNCT\t_\t_\t0\troot\t_\t_\r\n  \n1\ta\ta\tX\t_\t_\t0\troot\t_\t_  \r";
    let system = "1\t_\t_\tPUNCT\t_\t_\t0\troot\t_\t_\n\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n";
    let g = gram_eval_strings(gold, system).unwrap().gram_eval.unwrap();
    assert_eq!(
        (g.sentences, g.words, g.lemmas, g.upos, g.las),
        (2, 2, 2, 2, 2)
    );
    let err = gram_eval_strings(GRAM_EVAL_GOLD, "1\tx\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:1: expected 10 tab-separated columns, found 2"
    );
    let bad_feature = GRAM_EVAL_SYSTEM.replace("Aspect=Imp|Mood=Ind", "Aspect=Imp|Mood");
    let err = gram_eval_strings(GRAM_EVAL_GOLD, &bad_feature).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:4: malformed feature 'Mood' in FEATS"
    );
}

/// A one-sentence CoNLL-U file from tokens: `"ab"` is a word, `"ab a b"` a multiword token
/// `ab` of words `a` and `b`. Every word hangs from the first.
fn tokens_file(tokens: &[&str]) -> String {
    let (mut out, mut n) = (String::new(), 0);
    let word = |out: &mut String, n: &mut u32, form: &str| {
        *n += 1;
        let head = u32::from(*n > 1);
        let deprel = if head == 0 { "root" } else { "dep" };
        out.push_str(&format!(
            "{n}\t{form}\t_\t_\t_\t_\t{head}\t{deprel}\t{head}:{deprel}\t_\n"
        ));
    };
    for token in tokens {
        let parts: Vec<&str> = token.split(' ').collect();
        if parts.len() == 1 {
            word(&mut out, &mut n, parts[0]);
        } else {
            out.push_str(&format!(
                "{}-{}\t{}\t_\t_\t_\t_\t_\t_\t_\t_\n",
                n + 1,
                n + parts.len() as u32 - 1,
                parts[0]
            ));
            for part in &parts[1..] {
                word(&mut out, &mut n, part);
            }
        }
    }
    out + "\n"
}

/// The words aligned between two token lists (the cases of the CoNLL 2018 scorer's own tests).
fn aligned_words(gold: &[&str], system: &[&str]) -> u64 {
    let report = evaluate_strings(&tokens_file(gold), &tokens_file(system), false).unwrap();
    report.score(Metric::Words).correct
}

#[test]
fn words_align_like_the_conll_2018_scorer() {
    assert_eq!(aligned_words(&["a"], &["a"]), 1);
    assert_eq!(aligned_words(&["a", "b", "c"], &["a", "b", "c"]), 3);
    // Multiword tokens against plain tokens and against other multiword tokens.
    assert_eq!(aligned_words(&["abc a b c"], &["a", "b", "c"]), 3);
    assert_eq!(
        aligned_words(&["a", "bc b c", "d"], &["a", "b", "c", "d"]),
        4
    );
    assert_eq!(aligned_words(&["abcd a b c d"], &["ab a b", "cd c d"]), 4);
    assert_eq!(
        aligned_words(&["abc a b c", "de d e"], &["a", "bcd b c d", "e"]),
        5
    );
    // Plain tokens align only on equal spans.
    assert_eq!(aligned_words(&["abcd"], &["a", "b", "c", "d"]), 0);
    assert_eq!(aligned_words(&["abc", "d"], &["a", "b", "c", "d"]), 1);
    assert_eq!(aligned_words(&["a", "bc", "d"], &["a", "b", "c", "d"]), 2);
    assert_eq!(aligned_words(&["a", "bc b c", "d"], &["a", "b", "cd"]), 2);
    // Inside multiword spans, by LCS of lower-cased forms.
    assert_eq!(
        aligned_words(
            &["abc a BX c", "def d EX f"],
            &["ab a b", "cd c d", "ef e f"]
        ),
        4
    );
    assert_eq!(aligned_words(&["ab a b", "cd bc d"], &["a", "bc", "d"]), 2);
    assert_eq!(
        aligned_words(&["a", "bc b c", "d"], &["ab AX BX", "cd CX a"]),
        1
    );
    // Text that differs is refused.
    assert!(evaluate_strings(&tokens_file(&["a"]), &tokens_file(&["b"]), false).is_err());
}

fn tmp_file(name: &str, content: &str) -> std::path::PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", crate::common::text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The sample with every third word's head and label changed: a worse system.
fn worse_sample() -> String {
    let sample = std::fs::read_to_string("tests/data/sample.conllu").unwrap();
    let mut n = 0;
    let mut out = String::new();
    for line in sample.split_inclusive('\n') {
        let columns: Vec<&str> = line.trim_end_matches('\n').split('\t').collect();
        if columns.len() == 10 && columns[0].parse::<u32>().is_ok() && columns[6] != "0" {
            n += 1;
            if n % 3 == 0 {
                let mut c = columns.clone();
                c[7] = "dep";
                c[8] = "_";
                out.push_str(&c.join("\t"));
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

#[test]
fn cli_macro_averages_pairs_given_as_arguments_or_as_a_tsv() {
    use crate::common::{run, text};
    let gold = tmp_file("macro-gold.conllu", GOLD);
    let system = tmp_file("macro-system.conllu", RETOKENIZED);
    let (g, s) = (gold.to_str().unwrap(), system.to_str().unwrap());
    let pairs = json_of(&run(&["eval", "--macro", g, g, g, s, "--json"], b""));
    let words = |v: &serde_json::Value| v["Words"]["f1"].as_f64().unwrap();
    let (first, second) = (words(&pairs["pairs"][0]), words(&pairs["pairs"][1]));
    assert_eq!(first, 100.0);
    assert!((words(&pairs["macro"]) - (first + second) / 2.0).abs() < 1e-9);
    // The same pairs from a TSV, paths relative to it.
    let tsv = tmp_file("macro-pairs.tsv", "# gold\tsystem\nmacro-gold.conllu\tmacro-gold.conllu\nmacro-gold.conllu\tmacro-system.conllu\n");
    let from_tsv = json_of(&run(
        &["eval", "--macro", tsv.to_str().unwrap(), "--json"],
        b"",
    ));
    assert_eq!(from_tsv["macro"], pairs["macro"]);
    let table = run(&["eval", "--macro", tsv.to_str().unwrap()], b"");
    let lines: Vec<String> = text(&table.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[3].starts_with("Macro average (2 pairs)\t"),
        "{lines:?}"
    );
    // A bad TSV line and an odd number of files are refused.
    let bad = tmp_file("macro-bad.tsv", "macro-gold.conllu\n");
    let out = run(&["eval", "--macro", bad.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("macro-bad.tsv:1: expected GOLD<TAB>SYSTEM, found 1 field"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["eval", "--macro", g, g, g], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cli_bootstrap_intervals_are_reproducible_and_compare_finds_real_differences() {
    use crate::common::run;
    let gold = "tests/data/sample.conllu";
    let worse = tmp_file("bootstrap-worse.conllu", &worse_sample());
    let worse = worse.to_str().unwrap();
    let args = [
        "eval",
        gold,
        worse,
        "--json",
        "--bootstrap",
        "300",
        "--seed",
        "5",
    ];
    let once = json_of(&run(&args, b""));
    assert_eq!(once, json_of(&run(&args, b"")));
    let (low, high) = (
        once["LAS"]["f1_ci"][0].as_f64().unwrap(),
        once["LAS"]["f1_ci"][1].as_f64().unwrap(),
    );
    let las = once["LAS"]["f1"].as_f64().unwrap();
    assert!(low < las && las < high && las < 90.0, "{low} {las} {high}");
    assert_eq!(once["UPOS"]["f1_ci"], serde_json::json!([100.0, 100.0]));
    // Gold against the worse system: LAS differs significantly, UPOS (unchanged) does not.
    let compared = json_of(&run(
        &["eval", gold, gold, "--compare", worse, "--json"],
        b"",
    ));
    let metrics = &compared["compare"]["metrics"];
    assert_eq!(metrics["LAS"]["significant"], true);
    assert!(metrics["LAS"]["p"].as_f64().unwrap() < 0.05);
    assert_eq!(metrics["UPOS"]["significant"], false);
    assert_eq!(metrics["UPOS"]["p"], 1.0);
    assert_eq!(compared["compare"]["samples"], 1000);
}

#[test]
fn words_left_at_a_sentence_end_can_align_into_the_next_multiword_span_as_the_scorer_does() {
    // Gold `a bcd | de(d e)`, system `ab c d | de`. The scorer aligns the files in one pass: at
    // the first sentence's end the system words `c` and `d` are still unvisited, and the multiword
    // span of gold's `de` skips `c` and takes `d` in, where LCS aligns it with gold's `d`.
    let gold = "1\ta\t_\t_\t_\t_\t0\troot\t0:root\t_
2\tbcd\t_\t_\t_\t_\t1\tdep\t1:dep\t_

1-2\tde\t_\t_\t_\t_\t_\t_\t_\t_
1\td\t_\t_\t_\t_\t0\troot\t0:root\t_
2\te\t_\t_\t_\t_\t1\tdep\t1:dep\t_

";
    let system = "1\tab\t_\t_\t_\t_\t0\troot\t0:root\t_
2\tc\t_\t_\t_\t_\t1\tdep\t1:dep\t_
3\td\t_\t_\t_\t_\t1\tdep\t1:dep\t_

1\tde\t_\t_\t_\t_\t0\troot\t0:root\t_

";
    let report = evaluate_strings(gold, system, false).unwrap();
    assert_eq!(report.score(Metric::Words).correct, 1);
    // Without the multiword token nothing is carried over: `d` and `de` do not align.
    let plain = gold.replace("1-2\tde\t_\t_\t_\t_\t_\t_\t_\t_\n1\td\t", "1\td\t");
    assert_eq!(
        evaluate_strings(&plain, system, false)
            .unwrap()
            .score(Metric::Words)
            .correct,
        0
    );
}

#[test]
fn a_multiword_span_too_long_to_align_is_an_error_not_an_exhausted_memory() {
    // 8,000 words as one multiword token against 8,000 one-letter tokens: 64 million LCS cells.
    let n = 8000;
    let mut gold = format!("1-{n}\t{}\t_\t_\t_\t_\t_\t_\t_\t_\n", "a".repeat(n));
    let mut system = String::new();
    for i in 1..=n {
        let (head, deprel) = if i == 1 { (0, "root") } else { (1, "dep") };
        gold.push_str(&format!(
            "{i}\ta\t_\t_\t_\t_\t{head}\t{deprel}\t{head}:{deprel}\t_\n"
        ));
        system.push_str(&format!(
            "{i}\ta\t_\t_\t_\t_\t{head}\t{deprel}\t{head}:{deprel}\t_\n"
        ));
    }
    gold.push('\n');
    system.push('\n');
    let err = evaluate_strings(&gold, &system, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system.conllu:1: a multiword span of 8000 gold and 8000 system words is too long to align"
    );
    // Half as long (16 million cells) is aligned.
    let half: String = gold
        .lines()
        .take(1)
        .map(|_| format!("1-4000\t{}\t_\t_\t_\t_\t_\t_\t_\t_\n", "a".repeat(4000)))
        .collect::<String>()
        + &gold
            .lines()
            .skip(1)
            .take(4000)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
        + "\n";
    let half_system: String = system
        .lines()
        .take(4000)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "\n";
    assert_eq!(
        evaluate_strings(&half, &half_system, false)
            .unwrap()
            .score(Metric::Words)
            .correct,
        4000
    );
}

#[test]
fn phenomena_count_system_edges_through_the_alignment() {
    let report = evaluate_strings(GOLD, RETOKENIZED, true).unwrap();
    let p = report.phenomena.unwrap();
    let counts = |class| {
        let s = p.get(class);
        (s.gold, s.system, s.correct)
    };
    // Only `home → Go advmod` survives retokenization: `Go` is aligned to the system's `go`
    // inside the multiword token, so the system edge is read in gold's numbering and matches.
    assert_eq!(counts(Phenomenon::Basic), (4, 1, 1));
    // The system edges from or into unaligned words (`le`, `ft`, `x`) match nothing.
    assert_eq!(counts(Phenomenon::Other), (0, 5, 0));
    // He and Go lost their basic heads in the system graph.
    assert_eq!(counts(Phenomenon::Missing), (0, 2, 0));
}

#[test]
fn forms_in_multiword_spans_are_lower_cased_as_whole_words() {
    // Python's `str.lower` gives a final sigma `ς`: `ΣΤΟΣ` lower-cased is `στος`.
    // (Lower-cased letter by letter, `ΣΤΟΣ` would be `στοσ` and only one pair would align.)
    assert_eq!(
        aligned_words(&["ΣΤΟΣΤΟΣ ΣΤΟΣ στος"], &["ΣΤΟΣΤΟΣ στος ΣΤΟΣ"]),
        2
    );
}

/// A folder with `files` written into it.
fn folder_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn cli(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = crate::common::eudify()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn macro_scores_an_invalid_or_missing_system_file_0_and_goes_on() {
    let broken = GOLD.replace("2\thome\thome", "2\thome");
    let dir = folder_with(&[
        ("gold.conllu", GOLD),
        ("broken.conllu", &broken),
        ("other.conllu", &GOLD.replace("home", "away")),
    ]);
    let args = [
        "eval",
        "--macro",
        "--json",
        "gold.conllu",
        "gold.conllu",
        "gold.conllu",
        "broken.conllu",
        "gold.conllu",
        "missing.conllu",
        "gold.conllu",
        "other.conllu",
    ];
    let (code, stdout, stderr) = cli(dir.path(), &args);
    assert_eq!(code, Some(0), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs[0]["LAS"]["f1"], 100.0);
    assert!(pairs[0].get("error").is_none());
    for (pair, reason) in [
        (
            &pairs[1],
            "broken.conllu:8: expected 10 tab-separated columns, found 9",
        ),
        (&pairs[2], "missing.conllu: "),
        (&pairs[3], "other.conllu:8: the text differs from gold's"),
    ] {
        assert_eq!(pair["LAS"]["f1"], 0.0);
        let error = pair["error"].as_str().unwrap();
        assert!(error.starts_with(reason), "{error}");
        assert!(
            stderr.contains(&format!("{error} (the pair scores 0)")),
            "{stderr}"
        );
    }
    assert_eq!(json["macro"]["LAS"]["f1"], 25.0);
    // The same with the text table: every pair has its line.
    let (code, stdout, _) = cli(
        dir.path(),
        &args
            .iter()
            .filter(|a| **a != "--json")
            .copied()
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, Some(0));
    assert!(stdout.contains("missing.conllu\t0.00\t"), "{stdout}");
    // A single pair keeps its error and exit code; a gold file that cannot be read stops the
    // macro average (there is nothing to score against).
    let (code, _, stderr) = cli(dir.path(), &["eval", "gold.conllu", "broken.conllu"]);
    assert_eq!(code, Some(1), "{stderr}");
    let (code, _, stderr) = cli(
        dir.path(),
        &[
            "eval",
            "--macro",
            "missing.conllu",
            "gold.conllu",
            "gold.conllu",
            "gold.conllu",
        ],
    );
    assert_ne!(code, Some(0));
    assert!(stderr.contains("missing.conllu"), "{stderr}");
}

#[test]
fn macro_shows_what_bootstrap_and_phenomena_add_and_refuses_what_it_cannot_do() {
    let dir = folder_with(&[("gold.conllu", GOLD)]);
    let pair = ["gold.conllu", "gold.conllu"];
    let with = |flags: &[&str]| {
        let mut args = vec!["eval", "--macro"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&pair);
        cli(dir.path(), &args)
    };
    let (code, stdout, stderr) = with(&["--bootstrap", "20"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("95% confidence intervals of F1 (20 resamplings"),
        "{stdout}"
    );
    let (code, stdout, stderr) = with(&["--phenomena"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("Phenomena (see docs/phenomena.md)"),
        "{stdout}"
    );
    for flags in [
        &["--compare", "gold.conllu"][..],
        &["--by-rule", "--lang", "en"][..],
        &["--gram-eval", "--phenomena"][..],
        &["--gram-eval", "--bootstrap", "10"][..],
    ] {
        let (code, _, stderr) = with(flags);
        assert_eq!(code, Some(2), "{flags:?}: {stderr}");
        assert!(
            stderr.contains("cannot be used with") || stderr.contains("does not combine"),
            "{stderr}"
        );
    }
    let (code, _, stderr) = cli(
        dir.path(),
        &[
            "eval",
            "--bootstrap",
            "100001",
            "gold.conllu",
            "gold.conllu",
        ],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("at most 100000 resamplings"), "{stderr}");
}

#[test]
fn json_carries_the_counts_the_table_shows() {
    let report = evaluate_strings(GOLD, &GOLD.replace("1\tadvmod", "1\tobj"), false).unwrap();
    let json = serde_json::to_value(&report).unwrap();
    let text = report.to_string();
    for metric in Metric::ALL {
        let score = report.score(metric);
        let figures = &json[metric.name()];
        assert_eq!(
            (
                figures["gold"].as_u64(),
                figures["system"].as_u64(),
                figures["correct"].as_u64()
            ),
            (Some(score.gold), Some(score.system), Some(score.correct)),
            "{}",
            metric.name()
        );
        let row = format!(
            "{:>8} {:>8} {:>8}\n",
            score.gold, score.system, score.correct
        );
        assert!(text.contains(&row), "{text}");
    }
    assert_eq!(json["LAS"]["correct"], 3);
    // ELAS's aligned accuracy is the official scorer's: correct edges per aligned word.
    let multi = GOLD.replace("2:nsubj\t", "2:nsubj|1:dep\t");
    let report = evaluate_strings(&multi, &multi, false).unwrap();
    let elas = report.score(Metric::Elas);
    assert_eq!((elas.correct, elas.aligned), (5, 4));
    assert_eq!(elas.aligned_accuracy(), 125.0);
    assert!(report
        .to_string()
        .contains("ELAS and EULAS AlignedAcc: correct edges per aligned word"));
}

#[test]
fn eval_stops_at_the_first_text_difference() {
    // Past the difference both files go on with a sentence that does not read: eval must not
    // reach it (it would report that instead).
    let garbage = "1\tnot\tten\tcolumns\n\n";
    let gold = format!("{GOLD}{garbage}");
    let system = format!("{}{garbage}", GOLD.replace("1\tHe\the", "1\tShe\tshe"));
    let err = evaluate_strings(&gold, &system, false).unwrap_err();
    assert!(matches!(err, EvalError::Mismatch { line: 3, .. }), "{err}");
}
