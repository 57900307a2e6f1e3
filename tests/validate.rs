//! The enhanced-layer validator: every gold file passes, and each error class is reported on the
//! line of the offending token.

use eudify::validate::{validate_file, validate_reader, Diagnostic, Report, MAX_DIAGNOSTICS};

use crate::common::{dev_files, sample_files};
use std::path::PathBuf;

#[test]
fn every_gold_dev_file_is_valid() {
    if let Some(files) = dev_files() {
        all_valid(&files);
    }
}

#[test]
fn every_gold_sample_file_is_valid() {
    all_valid(&sample_files());
}

fn all_valid(files: &[PathBuf]) {
    let mut failures = Vec::new();
    for file in files {
        let report = validate_file(file).unwrap();
        assert!(report.sentences > 0, "{}", file.display());
        if !report.is_valid() {
            let mut text = Vec::new();
            report.write_to(&mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            failures.push(text.lines().take(10).collect::<Vec<_>>().join("\n"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A word line; FORM and the other columns are filler.
fn word(id: &str, head: &str, deprel: &str, deps: &str) -> String {
    format!("{id}\tw{id}\t_\tX\t_\t_\t{head}\t{deprel}\t{deps}\t_\n")
}

/// An empty-node line: HEAD and DEPREL are `_`.
fn empty(id: &str, deps: &str) -> String {
    format!("{id}\te{id}\t_\tX\t_\t_\t_\t_\t{deps}\t_\n")
}

/// `# text` on line 1, then words 1..3 on lines 2..4 with the given DEPS, then a blank line.
/// The basic tree is 1 ← 2 → 3 with 2 the root.
fn three(deps1: &str, deps2: &str, deps3: &str) -> String {
    let mut s = String::from("# text = a b c\n");
    s += &word("1", "2", "nsubj", deps1);
    s += &word("2", "0", "root", deps2);
    s += &word("3", "2", "obj", deps3);
    s + "\n"
}

fn check(input: &str) -> Report {
    validate_reader("t.conllu", input.as_bytes()).unwrap()
}

/// Asserts exactly one diagnostic, on `line`, mentioning `fragment`.
fn assert_one(input: &str, line: usize, fragment: &str) {
    let report = check(input);
    assert_eq!(report.total_errors, 1, "{:?}\n{input}", report.diagnostics);
    let d = &report.diagnostics[0];
    assert_eq!(d.line, line, "{d:?}");
    assert!(d.message.contains(fragment), "{d:?} lacks {fragment:?}");
}

fn has(report: &Report, line: usize, fragment: &str) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.line == line && d.message.contains(fragment))
}

#[test]
fn valid_enhanced_and_basic_only_sentences_pass() {
    let report = check(&three("2:nsubj", "0:root", "2:obj"));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    assert_eq!(report.sentences, 1);
    // Several heads per node, sorted; case-marker labels in any script; 'ref'.
    let report = check(&three(
        "2:nsubj|3:nsubj:xsubj",
        "0:root",
        "1:ref|2:obl:v_rámci:gen|2:xcomp",
    ));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    let report = check(&three("2:nmod:до", "0:root", "2:obl:πριν"));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    // No enhanced layer at all: fine, in every sentence of the file.
    let basic = three("_", "_", "_");
    let report = check(&format!("{basic}{basic}"));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    assert_eq!(report.sentences, 2);
}

#[test]
fn parse_errors_are_reported_and_validation_goes_on() {
    let bad_deps = three("2:nsubj", "0:root", "2:");
    let bad_head = three("2:nsubj", "0:root", "7:obj");
    let unsorted = three("2:nsubj", "0:root", "2:obj|1:dep");
    let report = check(&format!("{bad_deps}{bad_head}{unsorted}"));
    assert_eq!(report.sentences, 3);
    assert_eq!(report.total_errors, 3, "{:?}", report.diagnostics);
    assert!(
        has(&report, 4, "malformed DEPS"),
        "{:?}",
        report.diagnostics
    );
    assert!(
        has(&report, 9, "not in the sentence"),
        "{:?}",
        report.diagnostics
    );
    assert!(
        has(&report, 14, "not sorted by head"),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn deps_must_be_sorted_by_head_then_label() {
    assert_one(
        &three("2:nsubj", "0:root", "2:obj|1:dep"),
        4,
        "not sorted by head",
    );
    assert_one(
        &three("3:dep|2:nsubj", "0:root", "2:obj"),
        2,
        "not sorted by head",
    );
    assert_one(
        &three("2:nsubj", "0:root", "2:obj|2:dep"),
        4,
        "not sorted by label",
    );
    assert_one(
        &three("2:nsubj", "0:root", "2:obl:b|2:obl:a"),
        4,
        "not sorted by label",
    );
    assert_one(
        &three("2:nsubj", "0:root", "2:obj|2:obj"),
        4,
        "repeat the edge 2:obj",
    );
    // A repeat is found even when the list is unsorted as well.
    let report = check(&three("2:nsubj", "0:root", "2:obj|1:dep|2:obj"));
    assert!(has(&report, 4, "not sorted by head") && has(&report, 4, "repeat the edge 2:obj"));
}

/// Word 1, ten empty nodes 1.1..1.10 (each a dependent of word 1), then words 2 and 3.
fn with_ten_empty_nodes(deps3: &str) -> String {
    let mut s = word("1", "2", "nsubj", "2:nsubj");
    for k in 1..=10 {
        s += &empty(&format!("1.{k}"), "1:dep");
    }
    s += &word("2", "0", "root", "0:root");
    s += &word("3", "2", "obj", deps3);
    s + "\n"
}

#[test]
fn heads_sort_as_integer_pairs() {
    let report = check(&with_ten_empty_nodes("1.2:dep|1.10:dep|2:obj"));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    // Word 3 is on line 1 + 10 + 2 = 13.
    assert_one(
        &with_ten_empty_nodes("1.10:dep|1.2:dep|2:obj"),
        13,
        "not sorted by head",
    );
    assert_one(
        &with_ten_empty_nodes("1.10:dep|1:dep|2:obj"),
        13,
        "not sorted by head",
    );
}

#[test]
fn self_loops_are_errors() {
    assert_one(
        &three("2:nsubj", "0:root", "2:obj|3:dep"),
        4,
        "self-loop: node 3",
    );
}

#[test]
fn every_node_needs_an_enhanced_head() {
    assert_one(
        &three("_", "0:root", "2:obj"),
        2,
        "node 1 has no enhanced head",
    );
    // An empty node alone makes an enhanced graph, so the words need DEPS too.
    let mut s = word("1", "0", "root", "_");
    s += &empty("1.1", "_");
    let report = check(&(s + "\n"));
    assert!(
        has(&report, 1, "node 1 has no enhanced head"),
        "{:?}",
        report.diagnostics
    );
    assert!(
        has(&report, 2, "empty node 1.1 has no enhanced head"),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn unreachable_nodes_are_reported_each_on_its_line() {
    // 1 and 3 head each other: a cycle that 0 does not reach.
    let report = check(&three("3:nsubj", "0:root", "1:obj"));
    assert_eq!(report.total_errors, 2, "{:?}", report.diagnostics);
    assert!(has(&report, 2, "node 1 is not reachable"));
    assert!(has(&report, 4, "node 3 is not reachable"));
    // An empty node that nothing heads is fine (it is a dependent); one under the cycle is not.
    let mut s = word("1", "2", "nsubj", "1.1:nsubj");
    s += &empty("1.1", "1:dep");
    s += &word("2", "0", "root", "0:root");
    let report = check(&(s + "\n"));
    assert_eq!(report.total_errors, 2, "{:?}", report.diagnostics);
    assert!(
        has(&report, 1, "node 1 is not reachable") && has(&report, 2, "node 1.1 is not reachable")
    );
}

#[test]
fn root_edges_come_from_zero_and_only_from_zero() {
    assert_one(&three("2:nsubj", "1:nsubj", "2:obj"), 2, "no root");
    // The graph is still rooted in 0; the wrong label is the one error.
    assert_one(
        &three("2:nsubj", "0:dep", "2:obj"),
        3,
        "must be labelled 'root', not 'dep'",
    );
    assert_one(
        &three("2:nsubj", "0:root", "2:root"),
        4,
        "only an edge from 0 may be 'root'",
    );
    assert_one(
        &three("2:nsubj", "0:root", "2:obj|2:root:x"),
        4,
        "only an edge from 0 may be 'root'",
    );
    // Two roots are allowed in the enhanced graph.
    let report = check(&three("2:nsubj", "0:root", "0:root|2:obj"));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
}

#[test]
fn labels_must_have_the_enhanced_shape() {
    assert_one(
        &three("2:nsubj", "0:root", "2:Obj"),
        4,
        "enhanced label 'Obj' is malformed",
    );
    assert_one(&three("2:nsubj", "0:root", "2:obl:_x"), 4, "malformed");
    assert_one(&three("2:nsubj", "0:root", "2:obl:a:b:c:d"), 4, "malformed");
    assert_one(&three("2:nsubj", "0:root", "2:obl:Při:loc"), 4, "malformed");
    assert_one(
        &three("2:subj", "0:root", "2:obj"),
        2,
        "unknown universal relation 'subj'",
    );
}

#[test]
fn empty_nodes_need_the_enhanced_layer_and_underscore_head() {
    // A basic-only sentence with an empty node: the empty node is the problem.
    let mut s = word("1", "0", "root", "_");
    s += &empty("1.1", "_");
    let report = check(&(s + "\n"));
    assert!(
        has(&report, 2, "empty node 1.1 has no enhanced head"),
        "{:?}",
        report.diagnostics
    );
    // HEAD of an empty node must be '_' (the reader's error, on the empty node's line).
    let mut s = word("1", "0", "root", "0:root");
    s += "1.1\te\t_\tX\t_\t_\t1\t_\t1:dep\t_\n";
    assert_one(&(s + "\n"), 2, "'_' as HEAD and DEPREL");
    // Out of order empty node IDs (reader), on its line.
    let mut s = word("1", "0", "root", "0:root");
    s += &empty("1.2", "1:dep");
    assert_one(&(s + "\n"), 2, "out of order");
}

#[test]
fn a_file_has_the_enhanced_layer_everywhere_or_nowhere() {
    let enhanced = three("2:nsubj", "0:root", "2:obj");
    let basic = three("_", "_", "_");
    let report = check(&format!("{enhanced}{basic}{basic}"));
    assert_eq!(report.total_errors, 1, "{:?}", report.diagnostics);
    assert!(
        has(&report, 7, "no enhanced graph"),
        "{:?}",
        report.diagnostics
    );
    let report = check(&format!("{basic}{basic}{enhanced}"));
    assert_eq!(report.total_errors, 1, "{:?}", report.diagnostics);
    assert!(
        has(&report, 12, "but the sentence at line 2 has none"),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn orphan_edges_and_empty_nodes_do_not_mix_in_a_file() {
    let orphan = three("2:nsubj", "0:root", "2:orphan");
    let mut gapped = word("1", "0", "root", "0:root");
    gapped += &empty("1.1", "1:conj");
    gapped += "\n";
    assert!(check(&orphan).is_valid());
    assert!(check(&gapped).is_valid());
    let report = check(&format!("{orphan}{gapped}"));
    assert_eq!(report.total_errors, 1, "{:?}", report.diagnostics);
    assert!(
        has(&report, 7, "'orphan' enhanced edge (line 4)"),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn the_file_ends_with_a_blank_line() {
    let good = three("2:nsubj", "0:root", "2:obj");
    let cut = good.trim_end_matches('\n').to_string() + "\n";
    assert_one(&cut, 4, "missing blank line");
    assert_one(good.trim_end_matches('\n'), 4, "missing blank line");
    // Extra blank lines at the end are not a sentence.
    let report = check(&format!("{good}\n\n"));
    assert!(
        report.is_valid() && report.sentences == 1,
        "{:?}",
        report.diagnostics
    );
    let report = check(&good.replace('\n', "\r\n"));
    assert!(report.is_valid(), "{:?}", report.diagnostics);
    assert!(check("").is_valid() && check("\n\n").is_valid());
}

#[test]
fn diagnostics_are_capped_but_all_counted_and_printed_with_file_and_line() {
    let bad = three("2:nsubj", "0:root", "2:obj|3:dep");
    let input = bad.repeat(MAX_DIAGNOSTICS + 5);
    let report = check(&input);
    assert_eq!(report.sentences, MAX_DIAGNOSTICS + 5);
    assert_eq!(report.total_errors, MAX_DIAGNOSTICS + 5);
    assert_eq!(report.diagnostics.len(), MAX_DIAGNOSTICS);
    assert_eq!(
        report.diagnostics[1],
        Diagnostic {
            line: 9,
            message: report.diagnostics[0].message.clone()
        }
    );
    let mut out = Vec::new();
    report.write_to(&mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("t.conllu:4: self-loop: node 3"), "{out}");
    assert!(
        out.ends_with("t.conllu: 5 more errors not shown (1,005 in total)\n"),
        "{out}"
    );
}

#[test]
fn never_panics_on_mangled_input() {
    let base = format!(
        "{}{}",
        three("2:nsubj|3:nsubj:xsubj", "0:root", "2:obj"),
        with_ten_empty_nodes("1.2:dep|1.10:dep|2:obj")
    )
    .into_bytes();
    let alphabet: &[&[u8]] = &[
        b"\t",
        b"\n",
        b"\r",
        b":",
        b"|",
        b"0",
        b"1",
        b"2",
        b".",
        b"_",
        b"-",
        b"x",
        b"\xc3\xa9",
        b"\xff",
        b"",
        b"9",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut errors = 0;
    for _ in 0..3000 {
        let mut input = base.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % input.len();
            let with = alphabet[(next() as usize) % alphabet.len()];
            input.splice(at..at + 1, with.iter().copied());
        }
        let report = validate_reader("fuzz", &input[..]).unwrap();
        errors += report.total_errors;
    }
    assert!(errors > 0);
}

#[test]
fn a_lone_carriage_return_at_the_end_is_content_not_a_blank_line() {
    let good = three("2:nsubj", "0:root", "2:obj");
    let report = check(&format!("{good}\r"));
    assert!(!report.is_valid(), "{:?}", report.diagnostics);
    assert_eq!(report.diagnostics[0].line, 6);
}

/// `input` checked as `eudify validate` checks it: the basic layer's format too.
fn check_all(input: &str) -> Report {
    eudify::validate::validate_reader_with("t.conllu", input.as_bytes(), &Default::default())
        .unwrap()
}

/// IDs and HEADs as UD's validator reads them (level 1–2): no leading zero.
#[test]
fn ids_and_heads_with_a_leading_zero_are_errors() {
    let cases = [
        (word("01", "0", "root", "_"), "malformed ID '01'"),
        (word("004", "0", "root", "_"), "malformed ID '004'"),
        (
            word("1", "00", "root", "_"),
            "HEAD '00' is not a word number",
        ),
        (
            word("1", "0", "root", "_") + &word("2", "01", "dep", "_"),
            "HEAD '01' is not a word number",
        ),
        (
            word("1", "0", "root", "0:root") + &word("2", "1", "dep", "01:dep"),
            "head '01' is not a node ID",
        ),
    ];
    for (sentence, fragment) in cases {
        let input = format!("{sentence}\n");
        let line = if sentence.lines().count() == 1 { 1 } else { 2 };
        assert_one(&input, line, fragment);
    }
}

/// The basic layer's format at level 2, each error on its line, as `udvalidate --level 2`
/// reports them (unknown-upos, unsorted-features, invalid-feature, invalid-feature-value,
/// unsorted-feature-values, repeated-feature, invalid-deprel, unknown-udeprel,
/// mwt-nonempty-field).
#[test]
fn the_basic_layer_format_is_checked_at_level_2() {
    let line = |id: &str, upos: &str, feats: &str, head: &str, deprel: &str| {
        format!("{id}\tw\tw\t{upos}\t_\t{feats}\t{head}\t{deprel}\t_\t_\n")
    };
    let root = line("1", "NOUN", "Case=Nom|Number=Sing", "0", "root");
    assert!(check_all(&format!("{root}\n")).is_valid());
    let cases = [
        (
            line("2", "CONJ", "_", "1", "dep"),
            "unknown UPOS tag 'CONJ'",
        ),
        (
            line("2", "noun", "_", "1", "dep"),
            "unknown UPOS tag 'noun'",
        ),
        (
            line("2", "X", "Number=Sing|Case=Nom", "1", "dep"),
            "features not sorted",
        ),
        (
            line("2", "X", "case=Nom", "1", "dep"),
            "malformed feature 'case=Nom'",
        ),
        (
            line("2", "X", "Case", "1", "dep"),
            "malformed feature 'Case'",
        ),
        (
            line("2", "X", "Case=nom", "1", "dep"),
            "malformed value 'nom'",
        ),
        (
            line("2", "X", "Case=Nom,Acc", "1", "dep"),
            "values of feature Case not sorted",
        ),
        (
            line("2", "X", "Case=Acc|Case=Nom", "1", "dep"),
            "a feature named twice",
        ),
        (line("2", "X", "_", "1", "Dep"), "malformed DEPREL 'Dep'"),
        (line("2", "X", "_", "1", "nmod:poss:x"), "malformed DEPREL"),
        (line("2", "X", "_", "1", "foo"), "unknown DEPREL 'foo'"),
        (line("2", "X", "_", "1", "ref"), "unknown DEPREL 'ref'"),
    ];
    for (second, fragment) in cases {
        let input = format!("{root}{second}\n");
        let report = check_all(&input);
        assert_eq!(report.total_errors, 1, "{:?}\n{input}", report.diagnostics);
        assert_eq!(report.diagnostics[0].line, 2);
        assert!(
            report.diagnostics[0].message.contains(fragment),
            "{:?} lacks {fragment:?}",
            report.diagnostics[0]
        );
        // What eudify writes is checked without the basic layer's format.
        assert!(check(&input).is_valid(), "{input}");
    }
    let mwt = "1-2\tab\tab\t_\t_\t_\t_\t_\t_\t_\n";
    let report = check_all(&format!("{mwt}{root}{}\n", line("2", "X", "_", "1", "dep")));
    assert_eq!(report.total_errors, 1, "{:?}", report.diagnostics);
    assert!(report.diagnostics[0]
        .message
        .contains("multiword token line with 'ab' as LEMMA"));
    let typo = "1-2\tab\t_\t_\t_\tTypo=Yes\t_\t_\t_\tSpaceAfter=No\n";
    let input = format!("{typo}{root}{}\n", line("2", "X", "_", "1", "dep"));
    assert!(
        check_all(&input).is_valid(),
        "{:?}",
        check_all(&input).diagnostics
    );
    // An empty node may leave UPOS empty ('_').
    let input = format!(
        "{}{}{}\n",
        word("1", "0", "root", "0:root"),
        empty("1.1", "1:dep"),
        word("2", "1", "dep", "1:dep")
    );
    assert!(
        check_all(&input).is_valid(),
        "{:?}",
        check_all(&input).diagnostics
    );
}

/// A sentence over a size limit is one error on its first line, and validation goes on; one
/// over the byte limit is skipped without being held.
#[test]
fn a_sentence_over_a_size_limit_is_an_error_and_validation_goes_on() {
    use eudify::files::Limits;
    use eudify::validate::{validate_reader_with, Options};
    let good = three("2:nsubj", "0:root", "2:obj");
    let long = format!("# {}\n{good}", "x".repeat(2_000));
    let input = format!("{good}{long}{good}");
    let (defaults, cap) = (Limits::default(), 1_000);
    let bytes = Limits {
        max_sentence_bytes: cap,
        ..defaults
    };
    let line = Limits {
        max_line_bytes: cap,
        ..defaults
    };
    for (limits, message) in [
        (bytes, "sentence longer than 1,000 bytes"),
        (line, "line of 2,003 bytes"),
    ] {
        let options = Options {
            limits,
            ..Options::default()
        };
        let report = validate_reader_with("t", input.as_bytes(), &options).unwrap();
        assert_eq!(report.sentences, 3);
        assert_eq!(report.total_errors, 1, "{:?}", report.diagnostics);
        assert_eq!(report.diagnostics[0].line, 6);
        assert!(
            report.diagnostics[0].message.starts_with(message),
            "{:?}",
            report.diagnostics
        );
    }
}
