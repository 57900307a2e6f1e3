//! Robustness as the command line shows it: every file of the bad-input corpus through
//! `--on-error copy` (exit 0, every sentence kept, one notice, the summary line), empty and
//! blank inputs, CRLF/LF and comments enhanced, DEPS that enhance ignores but validate does not,
//! lines of spaces, 16 MB without a blank line.
//!
//! The reader, parser and pipeline themselves (round trips, buffer and chunk sizes, property
//! tests over random and damaged input, 10,000 and a million words) are unit tests in
//! src/pipeline/tests_robustness.rs.

use crate::common::{
    all_but_deps, bad_files, enhancer, run, stem, text, wrapped_in_good_sentences,
};
use eudify::{OnError, RunOptions};
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The bad-input corpus

/// A bad file without a snapshot would never be checked for its `FILE:LINE: message`.
#[test]
fn every_bad_file_is_in_the_snapshot_list() {
    let listed = include_str!("bad_input.rs");
    for file in bad_files() {
        let name = stem(&file);
        assert!(
            listed.contains(&format!("    {name},\n")),
            "{name} is missing from bad_input_tests!"
        );
        let snap =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("snapshots/bad_input/{name}.snap"));
        assert!(snap.exists(), "{} has no snapshot", file.display());
    }
}

/// `--on-error copy` over each bad file among good sentences: exit 0,
/// the output the library's copy mode writes (whose blocks, the bad one byte-identical, are
/// checked in src/pipeline/tests_robustness.rs), one notice for the bad sentence and a summary
/// line that counts it.
#[test]
fn copy_mode_keeps_every_sentence_of_every_bad_file() {
    let enhancer = enhancer("basic");
    let options = RunOptions {
        threads: 1,
        on_error: OnError::Copy,
    };
    let runner = enhancer.runner(options).unwrap();
    for file in bad_files() {
        let name = stem(&file);
        let bad = std::fs::read(&file).unwrap();
        let input = wrapped_in_good_sentences(&bad);
        let out = run(
            &["enhance", "--lang", "basic", "--on-error", "copy"],
            &input,
        );
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let (mut expected, mut notices) = (Vec::new(), Vec::new());
        let summary = runner
            .enhance("<stdin>", &input[..], &mut expected, &mut |n| {
                notices.push(n)
            })
            .unwrap();
        assert!(out.stdout == expected, "{name}: not the library's output");
        assert_eq!((notices.len(), summary.copied_invalid), (1, 1), "{name}");
        let reports = stderr
            .lines()
            .filter(|l| l.ends_with("(sentence copied unchanged)"))
            .count();
        assert_eq!(reports, 1, "{name}: {stderr}");
        let summary = format!(
            "eudify: {} sentences, 1 invalid one copied unchanged",
            summary.sentences
        );
        assert_eq!(stderr.lines().last(), Some(summary.as_str()), "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Valid edge cases

fn enhance_ok(args: &[&str], input: &[u8]) -> Vec<u8> {
    let out = run(args, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    out.stdout
}

#[test]
fn empty_file_gives_empty_output() {
    let dir = std::env::temp_dir().join(format!("eudify-robust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("empty.conllu");
    std::fs::write(&path, b"").unwrap();
    let out = run(&["enhance", "--lang", "basic", path.to_str().unwrap()], b"");
    assert!(out.status.success() && out.stdout.is_empty());
    let warning = format!("warning: {}: no sentences (empty input)\n", path.display());
    assert_eq!(text(&out.stderr), warning);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Regression: a file of only a BOM (an "empty" file from some editors) used to fail with
/// "sentence has no words"; it is an empty input: copied, with the empty input's warning.
#[test]
fn bom_only_and_blank_only_inputs_are_copied() {
    for input in [
        &b"\n\n\n"[..],
        b"\r\n\r\n",
        b"\xEF\xBB\xBF",
        b"\xEF\xBB\xBF\n\n",
    ] {
        let out = run(&["enhance", "--lang", "basic"], input);
        assert!(out.status.success(), "{input:?}");
        assert_eq!(out.stdout, input, "{input:?}");
        assert_eq!(
            text(&out.stderr),
            "warning: <stdin>: no sentences (empty input)\n",
            "{input:?}"
        );
    }
}

/// One sentence mixing CRLF and LF lines (files edited on two systems): accepted, exact (its
/// round trip through the reader: src/pipeline/tests_robustness.rs).
#[test]
fn crlf_and_lf_mixed_in_one_sentence_enhance_exactly() {
    let input = b"# sent_id = 1\r\n# text = a b c\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\r\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\t_\n3\tc\tc\tX\t_\t_\t1\tdep\t1:dep\t_\r\n\n";
    assert_eq!(
        enhance_ok(&["enhance", "--lang", "basic"], input),
        input.to_vec()
    );
}

/// UD puts comments before the words; our reader takes a `#` line anywhere in the sentence as
/// verbatim text, so a comment after the words is kept exactly where it was when enhanced.
#[test]
fn comment_after_the_words_is_kept_in_place() {
    let input =
        b"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n# between\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n# after\n\n";
    let expected = b"1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n# between\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\t_\n# after\n\n";
    assert_eq!(
        text(&enhance_ok(&["enhance", "--lang", "basic"], input)),
        text(expected)
    );
}

// ---------------------------------------------------------------------------------------------
// The reader: block boundaries

// ---------------------------------------------------------------------------------------------
// Property tests

// ---------------------------------------------------------------------------------------------
// What enhance ignores, and long blocks

/// `enhance` recomputes the enhanced layer: whatever the input's DEPS hold (garbage, heads
/// that do not exist, spaces, nothing), the sentence is enhanced, not rejected, and its DEPS
/// come out valid. `validate` and `eval` still parse DEPS and refuse the same input.
#[test]
fn malformed_input_deps_are_ignored_by_enhance_but_not_by_validate() {
    let cases = [
        (
            "nmod|1",
            "malformed DEPS 'nmod|1': 'nmod' is not HEAD:LABEL",
        ),
        (
            "1.1:nmod",
            "DEPS of 2 names head 1.1, which is not in the sentence",
        ),
        (
            "0.1:nmod",
            "DEPS of 2 names head 0.1, which is not in the sentence",
        ),
        (
            "7:nmod",
            "DEPS of 2 names head 7, which is not in the sentence",
        ),
        (
            "1:advcl:how come",
            "malformed DEPS '1:advcl:how come': bad label 'advcl:how come'",
        ),
        (
            "x:nmod",
            "malformed DEPS 'x:nmod': head 'x' is not a node ID",
        ),
        ("", "empty DEPS column"),
    ];
    for (deps, message) in cases {
        let input = format!(
            "# sent_id = s1\n1\ta\ta\tNOUN\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tNOUN\t_\t_\t1\tnmod\t{deps}\t_\n\n"
        );
        let out = run(&["enhance", "--lang", "en"], input.as_bytes());
        assert!(out.status.success(), "{deps:?}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{deps:?}: {}", text(&out.stderr));
        assert_eq!(
            all_but_deps(&out.stdout),
            all_but_deps(input.as_bytes()),
            "{deps:?}"
        );
        assert!(
            text(&out.stdout).contains("\tnmod\t1:nmod\t_\n"),
            "{deps:?}: {}",
            text(&out.stdout)
        );
        let valid = run(&["validate", "-"], &out.stdout);
        assert!(valid.status.success(), "{deps:?}: {}", text(&valid.stderr));
        let explained = run(&["explain", "--lang", "en", "-"], input.as_bytes());
        assert!(
            explained.status.success(),
            "{deps:?}: {}",
            text(&explained.stderr)
        );

        let invalid = run(&["validate", "-"], input.as_bytes());
        assert_eq!(invalid.status.code(), Some(1), "{deps:?}");
        assert_eq!(
            text(&invalid.stderr),
            format!("<stdin>:3: {message}\n"),
            "{deps:?}"
        );
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("malformed-deps.conllu");
        std::fs::write(&path, &out.stdout).unwrap();
        let scored = run(&["eval", path.to_str().unwrap(), "-"], input.as_bytes());
        assert_eq!(scored.status.code(), Some(1), "{deps:?}");
        assert_eq!(
            text(&scored.stderr),
            format!("<stdin>:3: {message}\n"),
            "{deps:?}"
        );
    }
}

/// A line of spaces or tabs looks blank but is not: the message says so (it used to be
/// "expected 10 tab-separated columns, found 1").
#[test]
fn a_line_of_spaces_is_named_as_such() {
    for line in ["   ", " ", "\t", " \t ", "\t\t\t\t\t\t\t\t\t"] {
        let input =
            format!("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n{line}\n1\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\n");
        let out = run(&["enhance", "--lang", "universal"], input.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{line:?}");
        let expected = "<stdin>:2: line holds only spaces or tabs: a blank line between sentences must be empty\n";
        assert_eq!(text(&out.stderr), expected, "{line:?}");
    }
}

/// 16 MB without a blank line is one block: it is read once, not rescanned for every few
/// kilobytes read (which took seconds before), and refused at its second line.
#[test]
fn sixteen_megabytes_without_a_blank_line_fail_at_the_first_error() {
    let line = "1\tword\tword\tNOUN\t_\t_\t0\troot\t_\t_\n";
    let input = line.repeat(16_000_000 / line.len());
    for threads in ["1", "2"] {
        let out = run(
            &["enhance", "--lang", "basic", "--threads", threads],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            text(&out.stderr),
            "<stdin>:2: word ID '1' out of order: expected 2\n"
        );
        assert!(out.stdout.is_empty());
    }
    // In copy mode the whole block comes back unchanged.
    let out = run(
        &["enhance", "--lang", "basic", "--on-error", "copy"],
        input.as_bytes(),
    );
    assert!(out.status.success());
    assert!(
        out.stdout == input.as_bytes(),
        "the invalid block is copied byte for byte"
    );
}
