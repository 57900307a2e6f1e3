//! The engine's per-sentence limits and what a runaway costs: rule applications, nodes and
//! edges gained, label length; a runaway sentence is written with the basic copy as DEPS,
//! reported with its rule, file:line and sentence, and counted, in both `--on-error` modes.
//! And big sentences of several shapes under every shipped profile: output valid, sentences
//! kept (times are measured by `scripts`/benchmarks, not asserted here).

use crate::common::{all_but_deps, run, text};
use eudify::repair_kinds::LABEL_SHORTENED;
use eudify::validate::validate_reader;
use eudify::{Enhancer, OnError, RunOptions, Summary};
use std::path::PathBuf;

/// A rules folder written by the test: `DIR/profiles/test.toml` running `DIR/test/test.rules`
/// (whose text is `rules`), lexicons from the embedded ones' declarations.
fn rules_folder(name: &str, rules: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("limits_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let files = [
        ("rules/test/test.rules", rules.to_string()),
        (
            "rules/profiles/test.toml",
            "name = \"test\"\ndescription = \"limits\"\nrules = [\"test/*.rules\"]\n".to_string(),
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
    dir.join("rules")
}

fn enhancer(rules: &std::path::Path) -> Enhancer {
    Enhancer::for_profile("test", Some(rules)).unwrap_or_else(|e| panic!("{e}"))
}

/// A profile of the embedded rules.
fn embedded(profile: &str) -> Enhancer {
    Enhancer::for_profile(profile, None).unwrap_or_else(|e| panic!("{profile}: {e}"))
}

/// A sentence of `n` words: word 1 the root, every other word its `rel` child.
fn flat(id: Option<&str>, n: usize, rel: &str) -> String {
    let mut s = id.map_or(String::new(), |id| format!("# sent_id = {id}\n"));
    s.push_str("1\tw\tw\tNOUN\t_\t_\t0\troot\t_\t_\n");
    for i in 2..=n {
        s.push_str(&format!("{i}\tw\tw\tNOUN\t_\t_\t1\t{rel}\t_\t_\n"));
    }
    s.push('\n');
    s
}

struct Run {
    out: Vec<u8>,
    reports: Vec<String>,
    result: Result<Summary, String>,
}

fn enhance(enhancer: &Enhancer, on_error: OnError, input: &str) -> Run {
    let options = RunOptions {
        threads: 1,
        on_error,
    };
    let runner = enhancer.runner(options).unwrap();
    let (mut out, mut reports) = (Vec::new(), Vec::new());
    let result = runner
        .enhance("in.conllu", input.as_bytes(), &mut out, &mut |r| {
            reports.push(r)
        })
        .map_err(|e| e.to_string());
    Run {
        out,
        reports,
        result,
    }
}

/// The `basic` profile's output for `input`: what a runaway sentence must be written as.
fn basic(input: &str) -> Vec<u8> {
    let basic = embedded("basic");
    enhance(&basic, OnError::Fail, input).out
}

fn assert_valid(out: &[u8]) {
    let report = validate_reader("out", out).unwrap();
    let mut rendered = Vec::new();
    report.write_to(&mut rendered).unwrap();
    assert!(report.is_valid(), "{}", text(&rendered));
}

/// Each new edge's label is one byte longer than its match's: a label that grows each step.
/// (A letter more in the marker part: text built from a matched label stays valid.)
const GROWING_LABEL: &str = "phase grow\n\nrule longer {\n  match { e: H =[obj:*]=> N; }\n  do    { add H =[{e.univ}:{e.sub}x]=> N; }\n}\n\n\
     rule start {\n  match { H -[obj]-> N; }\n  do    { add H =[obj:x]=> N; }\n}\n";

/// The label that would pass the limit is cut to its relation (the basic copy has it already):
/// the growth ends there, the sentence keeps every label made before, and the cut is a repair.
#[test]
fn a_label_that_grows_each_step_is_cut_at_the_label_limit() {
    let rules = rules_folder("label", GROWING_LABEL);
    let enhancer = enhancer(&rules);
    let input = flat(Some("long"), 2, "obj");
    let run = enhance(&enhancer, OnError::Fail, &input);
    let summary = run.result.unwrap();
    assert_eq!((summary.sentences, summary.runaways), (1, 0));
    assert!(run.reports.is_empty(), "{:?}", run.reports);
    assert_eq!(summary.repairs.count(LABEL_SHORTENED), 1);
    assert_valid(&run.out);
    let out = text(&run.out);
    let deps = out.lines().nth(2).unwrap().split('\t').nth(8).unwrap();
    // `obj`, then `obj:x` … up to the longest that fits: 200 bytes, `obj:` and 196 letters.
    let labels: Vec<&str> = deps.split('|').map(|d| &d[2..]).collect();
    assert_eq!(labels.len(), 1 + 196, "{deps}");
    assert!(labels
        .iter()
        .all(|l| l.len() <= eudify::engine::MAX_LABEL_BYTES));
    assert_eq!(labels.iter().map(|l| l.len()).max(), Some(200));
}

/// One marker of 100 words makes one label over the limit: that edge keeps `obl`, and the rest
/// of the sentence is enhanced (the second verb shares the subject).
#[test]
fn a_long_marker_costs_one_label_not_the_sentence() {
    let mut input = String::from("# sent_id = marker\n");
    word(&mut input, 1, "She", "PRON", "_", 2, "nsubj");
    word(&mut input, 2, "came", "VERB", "_", 0, "root");
    word(&mut input, 3, "and", "CCONJ", "_", 4, "cc");
    word(&mut input, 4, "left", "VERB", "_", 2, "conj");
    word(&mut input, 5, "in", "ADP", "_", 106, "case");
    for k in 6..106 {
        word(&mut input, k, "front", "ADP", "_", 5, "fixed");
    }
    word(&mut input, 106, "town", "NOUN", "_", 4, "obl");
    input.push('\n');
    let run = enhance(&embedded("en"), OnError::Fail, &input);
    let summary = run.result.unwrap();
    assert_eq!(
        (summary.runaways, summary.repairs.count(LABEL_SHORTENED)),
        (0, 1)
    );
    assert_valid(&run.out);
    let deps = crate::common::deps_by(&run.out, 0);
    assert_eq!(deps["1"], "2:nsubj|4:nsubj", "{deps:?}");
    assert_eq!(deps["106"], "4:obl", "{deps:?}");
}

/// Every pair of edges from one head is a match: a word with 200 children has 40,000, more
/// than the 11,000 steps its sentence is allowed. They are refused as they are found.
#[test]
fn matches_beyond_the_step_limit_stop_the_sentence_while_they_are_found() {
    let rules = rules_folder(
        "steps",
        "phase pairs\n\nrule pairs {\n  match { e: A =[dep]=> B;  f: A =[dep]=> C; }\n  do    { relabel A =[e.label]=> B as \"dep:pair\"; }\n}\n",
    );
    let input = flat(None, 201, "dep");
    let run = enhance(&enhancer(&rules), OnError::Copy, &input);
    assert_eq!(run.result.unwrap().runaways, 1);
    assert_eq!(run.reports.len(), 1, "{:?}", run.reports);
    // No sent_id: the sentence is known by its line.
    assert!(
        run.reports[0]
            .starts_with("in.conllu:1: rules do not terminate: step limit (11050) reached"),
        "{}",
        run.reports[0]
    );
    assert!(
        run.reports[0].contains("last rule applied: pairs ("),
        "{}",
        run.reports[0]
    );
    assert_eq!(text(&run.out), text(&basic(&input)));
}

/// A rule that gives every enhanced edge a new empty node grows the graph without end; the
/// sentence stops at the growth limit (nodes and edges gained), long before the step limit.
#[test]
fn a_graph_that_grows_without_end_is_stopped_at_the_growth_limit() {
    let rules = rules_folder(
        "growth",
        "phase grow\n\nrule grow {\n  match { A =[*]=> B; }\n  do    { E = empty copy of B after B;  add A =[dep]=> E; }\n}\n",
    );
    let input = flat(Some("g"), 10, "obj");
    let run = enhance(&enhancer(&rules), OnError::Fail, &input);
    assert_eq!(run.result.unwrap().runaways, 1);
    assert!(
        run.reports[0]
            .contains("growth limit (1100 nodes and edges gained) reached in phase 'grow'"),
        "{}",
        run.reports[0]
    );
    assert_eq!(text(&run.out), text(&basic(&input)));
}

/// The report of an enhance call names each runaway's line in the whole input, its sent_id and
/// the rule stopped, from the run itself (a file and a string alike, threads or not).
#[test]
fn a_report_names_each_runaway_with_its_line_sentence_and_rule() {
    let rules = rules_folder(
        "report",
        "phase grow\n\nrule grow {\n  match { A =[obj]=> B; }\n  do    { E = empty copy of B after B;  add A =[obj]=> E; }\n}\n",
    );
    let enhancer = enhancer(&rules);
    let input = [
        flat(Some("a"), 3, "dep"),
        flat(Some("b"), 3, "obj"),
        flat(None, 2, "obj"),
    ]
    .concat();
    let (out, report) = enhancer.enhance_str_with_report(&input).unwrap();
    assert_eq!(text(out.as_bytes()), text(&basic(&input)));
    let found: Vec<_> = report
        .runaways
        .iter()
        .map(|r| {
            (
                r.line,
                r.sent_id.as_deref(),
                &r.rule.name[..],
                &r.rule.phase[..],
                r.rule.line,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (6, Some("b"), "grow", "grow", 3),
            (11, None, "grow", "grow", 3)
        ]
    );
    assert!(
        report.runaways[0]
            .message
            .starts_with("sentence b: rules do not terminate: growth limit"),
        "{}",
        report.runaways[0].message
    );
    assert!(
        report.runaways[0].rule.file.ends_with("test.rules"),
        "{}",
        report.runaways[0].rule.file
    );
    assert_eq!(report.summary.runaways, 2);
    let src = rules.join("report.conllu");
    std::fs::write(&src, &input).unwrap();
    for threads in [1, 2] {
        let from_file = enhancer
            .enhance_file_with_report(&src, &rules.join("out.conllu"), threads)
            .unwrap();
        assert_eq!(from_file.runaways, report.runaways, "{threads} threads");
    }
}

/// A runaway costs only its sentence, in both modes: the sentences around it are enhanced,
/// reports come in input order with invalid sentences (copy mode), and under `fail` an invalid
/// sentence after a runaway still stops the run after the runaway was reported.
#[test]
fn a_runaway_costs_only_its_sentence_in_both_modes() {
    let rules = rules_folder(
        "modes",
        "phase one\n\nrule obj_plus {\n  match { H -[obj]-> N; }\n  do    { add H =[obj:plus]=> N; }\n}\n\n\
         rule grow {\n  match { A =[nsubj]=> B; }\n  do    { E = empty copy of B after B;  add A =[nsubj]=> E; }\n}\n",
    );
    let enhancer = enhancer(&rules);
    let good = |id: &str| flat(Some(id), 3, "obj");
    let runaway = flat(Some("away"), 3, "nsubj");
    let invalid = "# sent_id = bad\n1\tw\tw\tNOUN\t_\t_\t5\troot\t_\t_\n\n";
    let input = [good("a"), runaway.clone(), good("b")].concat();
    for on_error in [OnError::Fail, OnError::Copy] {
        let run = enhance(&enhancer, on_error, &input);
        let summary = run.result.unwrap();
        assert_eq!(
            (summary.sentences, summary.runaways, summary.copied_invalid),
            (3, 1, 0)
        );
        assert_eq!(run.reports.len(), 1);
        assert!(
            run.reports[0]
                .starts_with("in.conllu:6: sentence away: rules do not terminate: growth limit"),
            "{}",
            run.reports[0]
        );
        let out = text(&run.out);
        assert_eq!(out.matches("1:obj|1:obj:plus").count(), 4, "{out}");
        assert!(out.contains(&text(&basic(&runaway))), "{out}");
        assert_valid(&run.out);
        assert_eq!(all_but_deps(&run.out), all_but_deps(input.as_bytes()));
    }
    let input = [good("a"), runaway.clone(), invalid.to_string(), good("b")].concat();
    let run = enhance(&enhancer, OnError::Copy, &input);
    assert_eq!(
        run.result
            .as_ref()
            .map(|s| (s.sentences, s.runaways, s.copied_invalid)),
        Ok((4, 1, 1))
    );
    assert_eq!(run.reports.len(), 2, "{:?}", run.reports);
    assert!(
        run.reports[0].contains("sentence away")
            && run.reports[1].starts_with("in.conllu:12: HEAD 5"),
        "{:?}",
        run.reports
    );
    let run = enhance(&enhancer, OnError::Fail, &input);
    assert!(run.result.unwrap_err().starts_with("in.conllu:12: HEAD 5"));
    assert_eq!(run.reports.len(), 1, "{:?}", run.reports);
    assert!(
        text(&run.out).contains("# sent_id = away") && !text(&run.out).contains("sent_id = bad")
    );
}

/// The command line, at the default search budget: exit 0 in the default mode, each runaway on
/// stderr with its rule and file:line, a summary line.
#[test]
fn the_command_line_reports_a_runaway_and_goes_on() {
    let input = [flat(Some("x"), 20, "dep"), flat(Some("y"), 20, "dep")].concat();
    let out = run(
        &[
            "enhance",
            "--rules",
            SEARCH_BUDGET_RULES,
            "--lang",
            "costly",
        ],
        input.as_bytes(),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for (line, id) in [(1, "x"), (23, "y")] {
        let report = format!(
            "<stdin>:{line}: sentence {id}: rules search too long: search budget (300000 candidate bindings) spent in phase 'costly'; \
             rule searched: five_children (tests/data/search_budget/costly/costly.rules:8) (sentence written with basic DEPS)\n"
        );
        assert!(stderr.contains(&report), "{stderr}");
    }
    assert!(
        stderr.contains("eudify: 2 sentences, 2 with runaway rules were written with basic DEPS"),
        "{stderr}"
    );
    assert_eq!(text(&out.stdout), text(&basic(&input)));
}

/// `--search-budget` sets the candidates per word: a budget that lets the costly rule finish
/// on a 6-word sentence writes what the rule adds; a lower one makes the sentence a runaway.
#[test]
fn the_search_budget_is_a_flag() {
    let input = flat(Some("x"), 5, "dep");
    let enhance = |budget: &str| {
        let args = [
            "enhance",
            "--rules",
            SEARCH_BUDGET_RULES,
            "--lang",
            "costly",
            "--search-budget",
            budget,
        ];
        run(&args, input.as_bytes())
    };
    let low = enhance("1");
    assert_eq!(low.status.code(), Some(0));
    assert!(
        text(&low.stderr).contains("search budget (15 candidate bindings)"),
        "{}",
        text(&low.stderr)
    );
    assert_eq!(text(&low.stdout), text(&basic(&input)));
    let high = enhance("100000");
    assert!(
        !text(&high.stderr).contains("search budget"),
        "{}",
        text(&high.stderr)
    );
    let explain = [
        "explain",
        "--rules",
        SEARCH_BUDGET_RULES,
        "--lang",
        "costly",
        "--search-budget",
        "1",
        "-",
    ];
    let out = run(&explain, input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("search budget"),
        "{}",
        text(&out.stderr)
    );
}

/// Rules `eudify check` accepts whose search grows as n⁵ and n⁴ (tests/data/search_budget).
const SEARCH_BUDGET_RULES: &str = "tests/data/search_budget";

/// `check` accepts the costly rules (exit 0) and warns about each, saying why its search grows
/// as a power of the sentence (`snapshots/limits/`).
#[test]
fn check_warns_about_searches_that_grow_as_a_high_power() {
    let out = run(&["check", "--rules", SEARCH_BUDGET_RULES], b"");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    insta::with_settings!({snapshot_path => "../snapshots/limits", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("check_search_budget", format!("{stderr}{stdout}"));
    });
}

/// Each costly rule meets a sentence it would search for hours: the search stops when the
/// sentence's budget is spent, and the sentence is a runaway like any other (basic DEPS,
/// reported, counted), the short sentence after it enhanced. The budget is lowered to keep the
/// test short; the runaway is the same at the default.
#[test]
fn a_search_over_budget_stops_its_sentence_only() {
    let rules = std::path::Path::new(SEARCH_BUDGET_RULES);
    for (profile, rule, line) in [
        ("costly", "five_children", 8),
        ("order", "impossible_order", 5),
    ] {
        let enhancer = Enhancer::for_profile(profile, Some(rules))
            .unwrap_or_else(|e| panic!("{e}"))
            .with_search_budget(100);
        let short = flat(Some("short"), 3, "dep");
        let input = [flat(Some("long"), 80, "dep"), short.clone()].concat();
        for on_error in [OnError::Fail, OnError::Copy] {
            let run = enhance(&enhancer, on_error, &input);
            let summary = run.result.unwrap();
            assert_eq!((summary.sentences, summary.runaways), (2, 1), "{profile}");
            assert_eq!(run.reports.len(), 1, "{:?}", run.reports);
            let report = &run.reports[0];
            assert!(
                report.starts_with(&format!(
                    "in.conllu:1: sentence long: rules search too long: search budget (9000 candidate bindings) spent in phase '{profile}'; rule searched: {rule} (tests/data/search_budget/costly/"
                )) && report.contains(&format!(".rules:{line})")),
                "{report}"
            );
            assert_valid(&run.out);
            assert_eq!(text(&run.out), text(&basic(&input)));
        }
        // `explain` stops with the same message.
        let explained = enhancer.explain(&input).unwrap();
        assert_eq!(explained.len(), 2);
        assert!(explained[0]
            .runaway
            .as_deref()
            .is_some_and(|r| r.contains("search budget (9000 candidate bindings)")));
        assert_eq!(explained[1].runaway, None);
    }
}

// ---------------------------------------------------------------------------------------------
// Big shapes under every shipped profile

/// One CoNLL-U line.
fn word(out: &mut String, id: usize, form: &str, upos: &str, feats: &str, head: usize, rel: &str) {
    out.push_str(&format!(
        "{id}\t{form}\t{form}\t{upos}\t_\t{feats}\t{head}\t{rel}\t_\t_\n"
    ));
}

/// "saw x0 , x1 , … and xN": a coordination of `items` nouns, the object of a verb; `cc_every`
/// conjunct has a coordinator (1: all of them; `items`: only the last).
fn coordination(items: usize, cc_every: usize) -> String {
    let mut s = String::from("# sent_id = coordination\n");
    word(&mut s, 1, "I", "PRON", "_", 2, "nsubj");
    word(&mut s, 2, "saw", "VERB", "_", 0, "root");
    word(&mut s, 3, "x0", "NOUN", "_", 2, "obj");
    let mut id = 4;
    for k in 1..items {
        let (form, rel, upos) = if k % cc_every == 0 || k == items - 1 {
            ("and", "cc", "CCONJ")
        } else {
            (",", "punct", "PUNCT")
        };
        word(&mut s, id, form, upos, "_", id + 1, rel);
        word(&mut s, id + 1, "x", "NOUN", "_", 3, "conj");
        id += 2;
    }
    s.push('\n');
    s
}

/// Verbs sharing one subject and one object: "I v0 v1 … and vN it".
fn coordinated_verbs(items: usize) -> String {
    let mut s = String::from("# sent_id = verbs\n");
    word(&mut s, 1, "I", "PRON", "_", 2, "nsubj");
    word(&mut s, 2, "v", "VERB", "_", 0, "root");
    let mut id = 3;
    for _ in 1..items {
        word(&mut s, id, "v", "VERB", "_", 2, "conj");
        id += 1;
    }
    word(&mut s, id, "and", "CCONJ", "_", id - 1, "cc");
    word(&mut s, id + 1, "it", "PRON", "_", 2, "obj");
    s.push('\n');
    s
}

/// A head with `n` children of relation `rel` before it ("case" markers, or "fixed" words of
/// one marker).
fn many_children(n: usize, rel: &str) -> String {
    let mut s = format!("# sent_id = {rel}\n");
    word(&mut s, 1, "go", "VERB", "_", 0, "root");
    if rel == "fixed" {
        word(&mut s, 2, "in", "ADP", "_", n + 3, "case");
        for k in 0..n {
            word(&mut s, 3 + k, "in", "ADP", "_", 2, "fixed");
        }
        word(&mut s, n + 3, "town", "NOUN", "Case=Loc", 1, "obl");
    } else {
        for k in 0..n {
            word(&mut s, 2 + k, "in", "ADP", "_", n + 2, rel);
        }
        word(&mut s, n + 2, "town", "NOUN", "Case=Loc", 1, "obl");
    }
    s.push('\n');
    s
}

/// "Mary gave Ann apples , Sue Bob pears , …": `n` gapped clauses, each a conjunct of the verb
/// with two `orphan`s (an empty node each where the profile resolves gapping, both remnants
/// moved to it by `gapping_empty_node`).
fn gapped_clauses(n: usize) -> String {
    let mut s = String::from("# sent_id = gapping\n");
    word(&mut s, 1, "Mary", "PROPN", "_", 2, "nsubj");
    word(&mut s, 2, "gave", "VERB", "_", 0, "root");
    word(&mut s, 3, "Ann", "PROPN", "_", 2, "iobj");
    word(&mut s, 4, "apples", "NOUN", "_", 2, "obj");
    for k in 0..n {
        let id = 5 + 4 * k;
        word(&mut s, id, ",", "PUNCT", "_", id + 1, "punct");
        word(&mut s, id + 1, "Sue", "PROPN", "_", 2, "conj");
        word(&mut s, id + 2, "Bob", "PROPN", "_", id + 1, "orphan");
        word(&mut s, id + 3, "pears", "NOUN", "_", id + 1, "orphan");
    }
    s.push('\n');
    s
}

/// Each word the child of the one before, relations in turn.
fn chain(n: usize) -> String {
    let mut s = String::from("# sent_id = chain\n");
    word(&mut s, 1, "w", "NOUN", "_", 0, "root");
    let rels = [
        "nmod",
        "conj",
        "xcomp",
        "acl:relcl",
        "obl",
        "ccomp",
        "advcl",
        "cc",
    ];
    for k in 2..=n {
        word(
            &mut s,
            k,
            "w",
            if k % 2 == 1 { "VERB" } else { "NOUN" },
            "_",
            k - 1,
            rels[k % rels.len()],
        );
    }
    s.push('\n');
    s
}

/// One noun with `n` relative clauses, each "who ran"; or nested, each clause's object
/// modified by the next.
fn relative_clauses(n: usize, nested: bool) -> String {
    let mut s = String::from("# sent_id = relcl\n");
    word(&mut s, 1, "saw", "VERB", "_", 0, "root");
    word(&mut s, 2, "man", "NOUN", "_", 1, "obj");
    let (mut id, mut head) = (3, 2);
    for _ in 0..n {
        word(&mut s, id, "who", "PRON", "PronType=Rel", id + 1, "nsubj");
        word(&mut s, id + 1, "ran", "VERB", "_", head, "acl:relcl");
        id += 2;
        if nested {
            word(&mut s, id, "man", "NOUN", "_", id - 1, "obj");
            head = id;
            id += 1;
        }
    }
    s.push('\n');
    s
}

/// A relative clause whose verb has `n` obliques, each with a relative pronoun inside (what
/// `relative_pronoun_nested`'s descent walks), or a nominal root with `n` orphans (what the
/// blank-predicate rules resolve).
fn wide_clause(n: usize, orphans: bool) -> String {
    let mut s = String::from("# sent_id = wide\n");
    if orphans {
        word(&mut s, 1, "man", "NOUN", "Case=Nom", 0, "root");
        for k in 0..n {
            word(&mut s, 2 + k, "there", "ADV", "_", 1, "orphan");
        }
    } else {
        word(&mut s, 1, "man", "NOUN", "_", 0, "root");
        word(&mut s, 2, "ran", "VERB", "_", 1, "acl:relcl");
        for k in 0..n {
            let id = 3 + 2 * k;
            word(
                &mut s,
                id,
                "whose",
                "PRON",
                "PronType=Rel",
                id + 1,
                "nmod:poss",
            );
            word(&mut s, id + 1, "house", "NOUN", "_", 2, "obl");
        }
    }
    s.push('\n');
    s
}

/// Sentences of 4,000 words (or items) of each shape, through every shipped profile: the
/// output is valid, the sentence is kept with every column but DEPS, and only the flat
/// sentence (whose coordination shares every later dependent with every conjunct: a quadratic
/// graph) and the 16,000-word marker may run away — then it is written as the basic copy.
#[test]
fn big_sentences_of_every_shape_under_every_profile() {
    const N: usize = 4_000;
    let mut flat_sentence = String::from("# sent_id = flat\n");
    word(&mut flat_sentence, 1, "w", "NOUN", "_", 0, "root");
    let rels = [
        "nmod", "amod", "obl", "advmod", "punct", "det", "case", "nsubj", "obj", "mark", "cc",
        "conj", "flat", "dep",
    ];
    for k in 2..=N {
        word(
            &mut flat_sentence,
            k,
            "w",
            "NOUN",
            "_",
            1,
            rels[k % rels.len()],
        );
    }
    flat_sentence.push('\n');
    let shapes = [
        ("coordination, one cc", coordination(N, N), false),
        ("coordination, cc on every other", coordination(N, 2), false),
        ("coordination, cc on all", coordination(N, 1), false),
        ("coordinated verbs", coordinated_verbs(N), false),
        ("case children", many_children(N, "case"), false),
        // A marker of 4,000 words would be a label of 8,000 bytes: over the label limit.
        ("fixed children", many_children(N, "fixed"), true),
        ("chain", chain(N), false),
        ("relative clauses", relative_clauses(N, false), false),
        (
            "nested relative clauses",
            relative_clauses(N / 3, true),
            false,
        ),
        ("gapped clauses", gapped_clauses(N / 4), false),
        (
            "relative pronouns below a wide clause",
            wide_clause(N / 2, false),
            false,
        ),
        ("orphans of a nominal root", wide_clause(N, true), false),
        ("flat", flat_sentence, true),
    ];
    let profiles = eudify::profiles(None).unwrap();
    assert!(
        profiles.len() >= 19,
        "every shipped profile: {}",
        profiles.len()
    );
    for profile in profiles {
        let enhancer = embedded(&profile.name);
        for (shape, input, may_run_away) in &shapes {
            let run = enhance(&enhancer, OnError::Fail, input);
            let summary = run
                .result
                .unwrap_or_else(|e| panic!("{} {shape}: {e}", profile.name));
            assert_eq!(summary.sentences, 1, "{} {shape}", profile.name);
            assert!(
                summary.runaways == 0 || *may_run_away,
                "{} {shape}: {:?}",
                profile.name,
                run.reports
            );
            if summary.runaways == 1 {
                assert_eq!(run.out, basic(input), "{} {shape}", profile.name);
            }
            assert_valid(&run.out);
            assert_eq!(
                all_but_deps(&run.out),
                all_but_deps(input.as_bytes()),
                "{} {shape}",
                profile.name
            );
        }
    }
}

/// Every clause of a long list of gapped clauses gets its empty node, with the remnants as in
/// a short list (the remnant rules of rules/universal/gapping.rules are reached from the empty
/// node, not from the verb's thousands of conjuncts).
#[test]
fn a_long_list_of_gapped_clauses_is_resolved_clause_by_clause() {
    let enhancer = embedded("en");
    let short = text(&enhance(&enhancer, OnError::Fail, &gapped_clauses(1)).out);
    assert!(short.contains("\n6.1\tgave\t"), "{short}");
    let long = text(&enhance(&enhancer, OnError::Fail, &gapped_clauses(2_000)).out);
    assert_eq!(
        long.lines()
            .filter(|l| l.split('\t').next().is_some_and(|id| id.contains('.')))
            .count(),
        2_000
    );
    let deps = |out: &str, id: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{id}\t")))
            .unwrap()
            .rsplit('\t')
            .nth(1)
            .unwrap()
            .to_string()
    };
    // The first clause's remnants in the long list are attached as in the one-clause sentence.
    for id in ["5", "6", "7", "8", "6.1"] {
        assert_eq!(deps(&long, id), deps(&short, id), "{id}");
    }
}

/// Coordinator subtypes in a long list come out as in a short one: every conjunct without a
/// coordinator takes the one of the next conjunct that has one.
#[test]
fn a_long_coordination_labels_every_conjunct_with_the_next_coordinator() {
    let enhancer = embedded("en");
    let mut input = coordination(2_000, 2_000);
    // One "or" in the middle: the conjuncts before it take "or", those after it "and".
    input = input.replacen(
        "\t,\t,\tPUNCT\t_\t_\t1003\tpunct",
        "\tor\tor\tCCONJ\t_\t_\t1003\tcc",
        1,
    );
    let run = enhance(&enhancer, OnError::Fail, &input);
    assert_eq!(run.result.unwrap().runaways, 0);
    let out = text(&run.out);
    let deps: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\tconj\t"))
        .map(|l| l.split('\t').nth(8).unwrap())
        .collect();
    assert_eq!(deps.len(), 1_999);
    let or = deps.iter().take_while(|d| d.contains(":conj:or")).count();
    let and = deps
        .iter()
        .skip(or)
        .filter(|d| d.contains(":conj:and"))
        .count();
    assert_eq!((or, and), (500, 1_499), "{:?}", &deps[495..505]);
}
