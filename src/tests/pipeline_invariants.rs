//! Invariants of enhancement, over all the shared data and over random trees, for every profile:
//! the pipeline's promises (sentences and every column but DEPS kept, output valid, the same
//! bytes for any thread count and chunk size, the basic tree alone read) and the engine's
//! (semi-naive rounds give what exhaustive search gives).
//!
//! For each `../shared/data/ud/<Lang>-<TB>/dev.conllu` (skipped when missing) and each sample
//! treebank in `tests/data/ud` (always), made basic-only in memory (DEPS `_`,
//! empty nodes removed), and each of the profiles its treebank code resolves to, `universal`
//! and `basic`:
//! - as many sentences out as in, and every column but DEPS byte-identical line by line (empty
//!   nodes aside), line terminators included;
//! - the output validates with zero diagnostics;
//! - 1 and 2 threads (with different chunk sizes) give the same bytes;
//! - the gold file, with its own DEPS and empty nodes, gives the same bytes as its basic-only
//!   version: enhancement reads the basic tree only.
//!
//! Property test: random valid trees (random UPOS, FEATS, real universal relations with
//! subtypes, lemmas from every lexicon) through every profile: no error, the output validates,
//! sentences and every column but DEPS kept, gold DEPS ignored.

use super::common::{
    all_but_deps, dev_files, dev_scores_file, read_scores, sample_files, sample_scores_file,
    treebank_code,
};
use super::pipeline_robustness::{random_heads, Rng};
use crate::conllu::{BlockReader, RawBlock};
use crate::engine::Engine;
use crate::pipeline::{OnError, Pipeline, PipelineOptions};
use crate::rules::{list_profiles, load_ruleset, resolve_profile, RuleSet, RuleSource};
use crate::validate::validate_reader;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------------
// Helpers

fn rule_set(name: &str) -> RuleSet {
    load_ruleset(&RuleSource::embedded(), name)
        .unwrap_or_else(|e| panic!("profile {name}: {}", e.render()))
}

fn pipeline(enhancer: &Engine, threads: usize, chunk_bytes: usize) -> Pipeline<'_> {
    Pipeline::new(
        enhancer,
        PipelineOptions {
            on_error: OnError::Fail,
            threads,
            chunk_bytes,
        },
    )
    .expect("thread pool")
}

/// Enhances `input`; any error or report is a failure.
fn enhance(pipeline: &Pipeline, name: &str, input: &[u8]) -> Result<(Vec<u8>, usize), String> {
    let mut out = Vec::new();
    let mut reports = Vec::new();
    let summary = pipeline
        .run(name, input, &mut out, &mut |r| reports.push(r))
        .map_err(|e| e.to_string())?;
    if !reports.is_empty() {
        return Err(reports.join("\n"));
    }
    Ok((out, summary.sentences))
}

/// Sentences (blocks with content) of `input`.
fn sentence_count(input: &[u8]) -> usize {
    let mut reader = BlockReader::new(input);
    let mut block = RawBlock::default();
    let mut n = 0;
    while reader.read_block(&mut block).unwrap() {
        n += usize::from(!block.is_blank());
    }
    n
}

/// `input` made basic-only: DEPS `_` on every word and multiword-token line, empty-node lines
/// removed. Everything else, terminators included, is kept.
fn basic_only(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    for line in input.split_inclusive(|&b| b == b'\n') {
        if super::common::is_empty_node_line(line) {
            continue;
        }
        let mut cols: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        if cols.len() == 10 && !line.starts_with(b"#") {
            cols[8] = b"_";
        }
        out.extend_from_slice(&cols.join(&b'\t'));
    }
    out
}

/// Where two outputs first differ, as `line N: A ≠ B`.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (la, lb): (Vec<&[u8]>, Vec<&[u8]>) = (
        a.split(|&x| x == b'\n').collect(),
        b.split(|&x| x == b'\n').collect(),
    );
    for (i, (x, y)) in la.iter().zip(&lb).enumerate() {
        if x != y {
            return format!(
                "line {}: {:?} ≠ {:?}",
                i + 1,
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
        }
    }
    format!("{} lines ≠ {} lines", la.len(), lb.len())
}

/// Zero diagnostics from the validator, or the first few.
fn validates(name: &str, output: &[u8]) -> Result<usize, String> {
    let report = validate_reader(name, output).unwrap();
    if report.is_valid() {
        return Ok(report.sentences);
    }
    let mut text = Vec::new();
    report.write_to(&mut text).unwrap();
    let text = String::from_utf8_lossy(&text);
    let shown: Vec<&str> = text.lines().take(10).collect();
    Err(format!(
        "{} diagnostics:\n{}",
        report.total_errors,
        shown.join("\n")
    ))
}

/// Every invariant of one input and its basic-only version under one enhancer. `gold` may be
/// the basic-only input itself.
fn check_invariants(
    name: &str,
    enhancer: &Engine,
    gold: &[u8],
    basic: &[u8],
) -> Result<(), String> {
    let sentences = sentence_count(basic);
    let (out, summarised) = enhance(&pipeline(enhancer, 1, 256 * 1024), name, basic)?;
    if summarised != sentences {
        return Err(format!(
            "{name}: {sentences} sentences in, the summary counts {summarised}"
        ));
    }
    if sentence_count(&out) != sentences {
        return Err(format!(
            "{name}: {sentences} sentences in, {} out",
            sentence_count(&out)
        ));
    }
    let (kept, wrote) = (all_but_deps(basic), all_but_deps(&out));
    if kept != wrote {
        let line = kept
            .iter()
            .zip(&wrote)
            .position(|(a, b)| a != b)
            .unwrap_or(kept.len().min(wrote.len()));
        let show = |v: &[Vec<u8>]| v.get(line).map(|l| String::from_utf8_lossy(l).into_owned());
        return Err(format!(
            "{name}: a column other than DEPS changed at non-empty line {}: {:?} became {:?}",
            line + 1,
            show(&kept),
            show(&wrote)
        ));
    }
    let validated =
        validates(name, &out).map_err(|e| format!("{name}: the output does not validate: {e}"))?;
    if validated != sentences {
        return Err(format!(
            "{name}: the validator read {validated} sentences of {sentences}"
        ));
    }
    // One pass checks two invariants, the thread count and the gold DEPS and empty nodes
    // making no difference (the dev treebanks are read under three profiles: this pass is a
    // third of the time). Only when it fails is the other one run, to say which broke.
    let (two_from_gold, _) = enhance(&pipeline(enhancer, 2, 7), name, gold)?;
    if two_from_gold != out {
        let (two, _) = enhance(&pipeline(enhancer, 2, 7), name, basic)?;
        return Err(if two != out {
            format!(
                "{name}: 1 and 2 threads disagree at {}",
                first_difference(&out, &two)
            )
        } else {
            format!(
                "{name}: the gold DEPS or empty nodes changed the output at {}",
                first_difference(&out, &two_from_gold)
            )
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The shared data

/// The profile `--lang CODE` selects: a treebank or language profile, never the fallback.
fn resolved_profile(code: &str) -> String {
    let (profile, warning) = resolve_profile(&RuleSource::embedded(), code);
    if let Some(warning) = warning {
        assert!(
            warning.starts_with("no profile for treebank"),
            "{code}: {warning}"
        );
    }
    profile
}

/// Runs [`check_invariants`] on every treebank with the profile `choose` picks for its code,
/// collecting every failure before failing.
fn every_treebank(files: &[PathBuf], choose: impl Fn(&str) -> String) {
    let mut enhancers: Vec<(String, Engine)> = Vec::new();
    let mut failures = Vec::new();
    for file in files {
        let code = treebank_code(file);
        let profile = choose(&code);
        if !enhancers.iter().any(|(n, _)| *n == profile) {
            enhancers.push((profile.clone(), Engine::new(&rule_set(&profile))));
        }
        let enhancer = &enhancers.iter().find(|(n, _)| *n == profile).unwrap().1;
        let gold = std::fs::read(file).unwrap();
        let basic = basic_only(&gold);
        assert!(
            basic != gold,
            "{code}: the gold file has no enhanced layer to strip"
        );
        let name = format!("{code} ({profile})");
        if let Err(e) = check_invariants(&name, enhancer, &gold, &basic) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn resolved_profile_keeps_the_invariants_on_every_treebank() {
    if let Some(files) = dev_files() {
        every_treebank(&files, resolved_profile);
    }
}

#[test]
fn universal_profile_keeps_the_invariants_on_every_treebank() {
    if let Some(files) = dev_files() {
        every_treebank(&files, |_| "universal".to_string());
    }
}

#[test]
fn basic_profile_keeps_the_invariants_on_every_treebank() {
    if let Some(files) = dev_files() {
        every_treebank(&files, |_| "basic".to_string());
    }
}

#[test]
fn every_profile_keeps_the_invariants_on_the_sample() {
    let files = sample_files();
    every_treebank(&files, resolved_profile);
    every_treebank(&files, |_| "universal".to_string());
    every_treebank(&files, |_| "basic".to_string());
}

/// Later rounds search only from the edges the last round added, after cheap checks on each
/// such edge (label tests, basic edges around it). Searching every rule whole in every round
/// must give the same bytes on every treebank: a check that wrongly drops a seed shows here.
#[test]
fn semi_naive_rounds_match_exhaustive_search_on_every_treebank() {
    if let Some(files) = dev_files() {
        semi_naive_matches_exhaustive(&files);
    }
}

#[test]
fn semi_naive_rounds_match_exhaustive_search_on_the_sample() {
    semi_naive_matches_exhaustive(&sample_files());
}

fn semi_naive_matches_exhaustive(files: &[PathBuf]) {
    let mut failures = Vec::new();
    for file in files {
        let code = treebank_code(file);
        let profile = resolved_profile(&code);
        let semi_naive = Engine::new(&rule_set(&profile));
        let mut exhaustive = Engine::new(&rule_set(&profile));
        exhaustive.exhaustive_rounds = true;
        let basic = basic_only(&std::fs::read(file).unwrap());
        let name = format!("{code} ({profile})");
        let (fast, _) = enhance(&pipeline(&semi_naive, 2, 64 * 1024), &name, &basic).unwrap();
        let (reference, _) = enhance(&pipeline(&exhaustive, 2, 64 * 1024), &name, &basic).unwrap();
        if fast != reference {
            failures.push(format!(
                "{name}: differs from exhaustive search at {}",
                first_difference(&reference, &fast)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every code in the score files (the map from treebanks to codes) picks a profile of its own
/// treebank or language, never the fallback.
#[test]
fn every_treebank_code_resolves_to_its_own_profile() {
    for file in [dev_scores_file(), sample_scores_file()] {
        for row in read_scores(&file) {
            let (code, profile) = (&row.code, resolved_profile(&row.code));
            assert!(
                code == &profile || code.starts_with(&format!("{profile}_")),
                "{code} resolves to {profile}"
            );
        }
    }
}

#[test]
fn basic_only_strips_deps_and_empty_nodes_only() {
    let gold = b"# text = a b\r\n1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\r\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\tSpaceAfter=No\r\n\
                 1.1\te\te\tX\t_\t_\t_\t_\t1:dep\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep|1.1:x\t_\n\n";
    let basic = b"# text = a b\r\n1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\r\n1\ta\ta\tX\t_\t_\t0\troot\t_\tSpaceAfter=No\r\n\
                  2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n";
    assert_eq!(
        String::from_utf8_lossy(&basic_only(gold)),
        String::from_utf8_lossy(basic)
    );
}

// ---------------------------------------------------------------------------------------------
// Property test: random trees through every profile

const UPOS: &[&str] = &[
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
    "PUNCT", "SCONJ", "SYM", "VERB", "X",
];

/// The universal relations with common subtypes; the first ones (those rules look at) are
/// drawn more often.
const FREQUENT: &[&str] = &[
    "conj",
    "cc",
    "orphan",
    "acl:relcl",
    "acl",
    "xcomp",
    "obl",
    "obl:arg",
    "nmod",
    "case",
    "mark",
    "fixed",
    "nsubj",
    "nsubj:pass",
    "obj",
    "iobj",
    "advcl",
    "ccomp",
    "csubj",
    "cop",
    "aux",
    "nmod:poss",
];
const RARE: &[&str] = &[
    "obl:tmod",
    "obl:agent",
    "obl:npmod",
    "nmod:arg",
    "nmod:tmod",
    "csubj:pass",
    "expl",
    "expl:pv",
    "vocative",
    "dislocated",
    "advmod",
    "advmod:emph",
    "discourse",
    "aux:pass",
    "appos",
    "nummod",
    "nummod:gov",
    "amod",
    "det",
    "det:poss",
    "det:numgov",
    "clf",
    "cc:preconj",
    "flat",
    "flat:name",
    "flat:foreign",
    "compound",
    "compound:prt",
    "list",
    "parataxis",
    "goeswith",
    "reparandum",
    "punct",
    "dep",
    "advcl:relcl",
];
/// Lemmas the rules name, besides the lexicons' words: markers, subtypes-to-be (with spaces,
/// digits, symbols, nothing), `_`.
const LEMMAS: &[&str] = &[
    "a",
    "that",
    "to",
    "of",
    "in",
    "v",
    "na",
    "podle",
    "att",
    "да",
    "dat wil zeggen",
    "5",
    "§",
    "_",
    "kter",
];
const FEATS: &[&str] = &[
    "_",
    "_",
    "Case=Nom",
    "Case=Acc",
    "Case=Gen",
    "Case=Dat",
    "Case=Ins",
    "Case=Loc",
    "PronType=Rel",
    "PronType=Int",
    "Case=Acc|PronType=Rel",
    "VerbForm=Inf",
    "VerbForm=Fin",
    "Case=Gen|Number=Sing",
    "PronType=Int,Rel",
];

/// One valid basic tree of 1..=max words; DEPS `_` or, now and then, the basic tree (to check
/// that enhancement ignores it). Returns the sentence.
// `w` is the word's number in the sentence as much as an index into `head`.
#[allow(clippy::needless_range_loop)]
fn random_sentence(rng: &mut Rng, index: usize, max_words: usize, lemmas: &[&str]) -> String {
    let n = 1 + rng.below(max_words);
    let head = random_heads(rng, n);
    let with_deps = rng.chance(25);
    let mut s = format!("# sent_id = r{index}\n");
    let mut mwt_until = 0;
    for w in 1..=n {
        let rel = match (head[w], rng.below(3)) {
            (0, _) => "root",
            (_, 0) => rng.pick(RARE),
            _ => rng.pick(FREQUENT),
        };
        let lemma = if rng.chance(60) {
            lemmas[rng.below(lemmas.len())]
        } else {
            rng.pick(LEMMAS)
        };
        let form = if rng.chance(80) { lemma } else { "Form" };
        if w > mwt_until && w < n && rng.chance(8) {
            mwt_until = w + 1;
            s.push_str(&format!("{w}-{mwt_until}\tmwt\t_\t_\t_\t_\t_\t_\t_\t_\n"));
        }
        let deps = if with_deps {
            format!("{}:{rel}", head[w])
        } else {
            "_".into()
        };
        let (upos, feats) = (rng.pick(UPOS), rng.pick(FEATS));
        s.push_str(&format!(
            "{w}\t{form}\t{lemma}\t{upos}\t_\t{feats}\t{}\t{rel}\t{deps}\t_\n",
            head[w]
        ));
    }
    s.push('\n');
    s
}

/// Every word of every lexicon list of every profile.
fn lexicon_words(rule_sets: &[RuleSet]) -> Vec<String> {
    let mut words: Vec<String> = rule_sets
        .iter()
        .flat_map(|r| {
            r.lexicons
                .names()
                .flat_map(|list| r.lexicons.sorted(list).unwrap())
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    words.sort();
    words.dedup();
    words
}

#[test]
fn random_trees_keep_the_invariants_under_every_profile() {
    let source = RuleSource::embedded();
    let names: Vec<String> = list_profiles(&source)
        .expect("profiles load")
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    let rule_sets: Vec<RuleSet> = names.iter().map(|n| rule_set(n)).collect();
    let words = lexicon_words(&rule_sets);
    assert!(
        words.len() > 50,
        "the lexicons hold only {} words",
        words.len()
    );
    let lemmas: Vec<&str> = words.iter().map(String::as_str).collect();
    let enhancers: Vec<Engine> = rule_sets.iter().map(Engine::new).collect();
    let config = Config {
        cases: 200,
        failure_persistence: None,
        ..Config::default()
    };
    let strategy = (1..=4usize, 1..=20usize, any::<u64>());
    TestRunner::new(config)
        .run(&strategy, |(sentences, max_words, seed)| {
            let mut rng = Rng(seed | 1);
            let input: String = (0..sentences)
                .map(|i| random_sentence(&mut rng, i, max_words, &lemmas))
                .collect();
            let basic = basic_only(input.as_bytes());
            for (name, enhancer) in names.iter().zip(&enhancers) {
                check_invariants(name, enhancer, input.as_bytes(), &basic)
                    .map_err(|e| TestCaseError::fail(format!("{e}\ninput:\n{input}")))?;
            }
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------------------------
// Regressions

/// Regression: the progress callback (`Box<dyn Fn>`) made `Pipeline` neither `Send` nor `Sync`,
/// which broke the fuzz targets that keep their pipelines in a `static`.
#[test]
fn pipeline_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Pipeline<'static>>();
}
