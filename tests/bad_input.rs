//! Bad input: `FILE:LINE: message` and exit code 1, never a panic, never silent loss.

use crate::common::{run, text};
use std::process::Stdio;

fn snapshot_error(name: &str) {
    let path = format!("tests/data/bad/{name}.conllu");
    let out = run(&["enhance", "--lang", "universal", &path], b"");
    assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with(&format!("{path}:")), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "nothing of an invalid first sentence is written"
    );
    insta::with_settings!({snapshot_path => "../snapshots/bad_input", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, stderr);
    });
}

macro_rules! bad_input_tests {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { snapshot_error(stringify!($name)); } )*
    };
}

bad_input_tests!(
    wrong_column_count,
    eleven_columns,
    space_instead_of_tab,
    empty_column,
    non_numeric_id,
    id_out_of_order,
    duplicate_id,
    head_out_of_range,
    head_not_number,
    self_loop,
    cycle,
    no_root,
    two_roots,
    invalid_utf8,
    empty_node_with_head,
    empty_node_before_word,
    mwt_wrong_range,
    only_comments,
    truncated_line,
    tab_space_mix,
    bom_mid_file,
    cr_line_endings,
    mwt_overlap,
    mwt_past_end,
    only_spaces_line,
    negative_id,
    negative_head,
    huge_id,
    nul_bytes,
    duplicate_empty_node,
);

const GOOD: &str = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n";
const BAD: &str = "1\tb\tb\tX\t_\t_\t2\troot\t_\t_\n\n";

#[test]
fn copy_mode_keeps_every_sentence_and_counts_the_bad_ones() {
    let input = format!("{GOOD}{BAD}{GOOD}{BAD}");
    let out = run(
        &["enhance", "--lang", "universal", "--on-error", "copy"],
        input.as_bytes(),
    );
    assert!(out.status.success());
    let enhanced = GOOD.replace("root\t_", "root\t0:root");
    assert_eq!(text(&out.stdout), format!("{enhanced}{BAD}{enhanced}{BAD}"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("<stdin>:3: HEAD 2 of word 1 is outside the sentence"),
        "{stderr}"
    );
    assert!(stderr.contains("<stdin>:7: "), "{stderr}");
    assert!(
        stderr
            .trim_end()
            .ends_with("4 sentences, 2 invalid ones copied unchanged"),
        "{stderr}"
    );
}

#[test]
fn fail_mode_writes_what_came_before_and_stops() {
    let input = format!("{GOOD}{BAD}{GOOD}");
    let out = run(&["enhance", "--lang", "universal"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), GOOD.replace("root\t_", "root\t0:root"));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "<stdin>:3: HEAD 2 of word 1 is outside the sentence (1..1)"
    );
}

#[test]
fn missing_file_is_an_error_not_a_panic() {
    let out = run(&["enhance", "tests/data/no-such-file.conllu"], b"");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a file that cannot be read is not invalid input"
    );
    assert_eq!(
        text(&out.stderr),
        "tests/data/no-such-file.conllu: cannot read: No such file or directory (os error 2)\n"
    );
}

#[test]
fn empty_input_gives_empty_output_and_a_warning() {
    let out = run(&["enhance", "--lang", "universal"], b"");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        "warning: <stdin>: no sentences (empty input)\n"
    );
}

#[test]
fn closed_stdout_pipe_exits_quietly() {
    use std::io::{Read, Write};
    let sentence = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n";
    let input = sentence.repeat(200_000);
    let mut child = crate::common::eudify()
        .args(["enhance", "--lang", "basic"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(
        output.status.success(),
        "status {:?}: {}",
        output.status,
        text(&output.stderr)
    );
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
}

/// One sentence with a comment of `comment_bytes` bytes.
fn with_comment(comment_bytes: usize) -> String {
    format!("# {}\n{GOOD}", "x".repeat(comment_bytes))
}

/// Past each size limit (lowered by its flag): `FILE:LINE:` and exit 1, or with `--on-error
/// copy` the sentence copied unchanged and counted as too large, whatever the thread count.
#[test]
fn a_sentence_over_a_size_limit_is_an_error_or_copied_and_counted() {
    let big = with_comment(300);
    let input = format!("{GOOD}{big}{GOOD}");
    let enhanced = GOOD.replace("root\t_", "root\t0:root");
    let many_lines = format!("# a\n# b\n# c\n{GOOD}");
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "--max-sentence-bytes",
            "200",
            &input,
            "<stdin>:3: sentence longer than 200 bytes",
        ),
        (
            "--max-line-bytes",
            "100",
            &input,
            "<stdin>:3: line of 303 bytes: longer than 100",
        ),
        (
            "--max-comment-bytes",
            "250",
            &input,
            "<stdin>:3: comment lines of the sentence longer than 250 bytes",
        ),
        (
            "--max-sentence-lines",
            "3",
            &format!("{GOOD}{many_lines}{GOOD}"),
            "<stdin>:3: sentence of more than 3 lines",
        ),
    ];
    for (flag, value, input, message) in cases {
        let out = run(
            &["enhance", "--lang", "universal", flag, value],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{flag}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).starts_with(message),
            "{flag}: {}",
            text(&out.stderr)
        );
        assert_eq!(
            text(&out.stdout),
            enhanced,
            "{flag}: the sentences before it are written"
        );
        for threads in ["1", "2"] {
            let out = run(
                &[
                    "enhance",
                    "--lang",
                    "universal",
                    "--threads",
                    threads,
                    "--on-error",
                    "copy",
                    flag,
                    value,
                ],
                input.as_bytes(),
            );
            assert!(out.status.success(), "{flag}: {}", text(&out.stderr));
            let bad = &input[GOOD.len()..input.len() - GOOD.len()];
            assert_eq!(
                text(&out.stdout),
                format!("{enhanced}{bad}{enhanced}"),
                "{flag}"
            );
            let stderr = text(&out.stderr);
            assert!(
                stderr.starts_with(message) && stderr.contains("(sentence copied unchanged)"),
                "{flag}: {stderr}"
            );
            assert!(
                stderr.trim_end().ends_with(
                    "3 sentences, 1 invalid one copied unchanged (1 over the size limits)"
                ),
                "{flag}: {stderr}"
            );
        }
    }
}

/// A sentence far over the byte limit is copied through a piece at a time (the reader never
/// holds it), line numbers after it still right.
#[test]
fn a_sentence_far_over_the_byte_limit_is_streamed_through() {
    let huge = with_comment(5_000_000);
    let input = format!("{GOOD}{huge}{BAD}");
    for threads in ["1", "2"] {
        let args = [
            "enhance",
            "--lang",
            "universal",
            "--threads",
            threads,
            "--on-error",
            "copy",
            "--max-sentence-bytes",
            "1000",
        ];
        let out = run(&args, input.as_bytes());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let enhanced = GOOD.replace("root\t_", "root\t0:root");
        assert!(
            out.stdout == format!("{enhanced}{huge}{BAD}").as_bytes(),
            "every byte is copied"
        );
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("<stdin>:3: sentence longer than 1,000 bytes"),
            "{stderr}"
        );
        assert!(
            stderr.contains("\n<stdin>:6: HEAD 2 of word 1 is outside the sentence"),
            "{stderr}"
        );
        assert!(
            stderr
                .trim_end()
                .ends_with("3 sentences, 2 invalid ones copied unchanged (1 over the size limits)"),
            "{stderr}"
        );
    }
    let out = run(
        &[
            "enhance",
            "--lang",
            "universal",
            "--max-sentence-bytes",
            "1000",
        ],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:3: sentence longer than 1,000 bytes"),
        "{}",
        text(&out.stderr)
    );
}

/// Every command that reads sentences reports one over the size limits at its line, as
/// `FILE:LINE: message` (the default cap, 16 MiB: a comment of 17 MB), exit 1.
#[test]
fn every_command_reports_a_sentence_over_the_limits_at_its_line() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("over-the-limits.conllu");
    std::fs::write(&path, format!("{GOOD}{}", with_comment(17_000_000))).unwrap();
    let file = path.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["explain", "--lang", "cs", file],
        &["grep", "match { X[]; }", file],
        &["eval", file, file],
        &["eval", "--by-rule", "--lang", "cs", file],
        &["validate", file],
        &["enhance", "--lang", "cs", file],
    ];
    let expected = format!("{file}:3: sentence longer than 16,777,216 bytes (the limit; --max-sentence-bytes changes it)");
    for args in commands {
        let out = run(args, b"");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&expected) && !stderr.contains("line 3"),
            "{args:?}: {stderr}"
        );
    }
}

/// IDs and HEADs with a leading zero fail UD's validator: `enhance` rejects them (its output
/// would fail too), or copies the sentence through with `--on-error copy`.
#[test]
fn ids_and_heads_with_a_leading_zero_are_rejected() {
    let cases = [
        ("01\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", "<stdin>:1: malformed ID '01': numbers have no leading zero"),
        ("1\ta\ta\tX\t_\t_\t00\troot\t_\t_\n\n", "<stdin>:1: HEAD '00' is not a word number: numbers have no leading zero"),
        ("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t01\tdep\t_\t_\n\n", "<stdin>:2: HEAD '01' is not a word number"),
        ("1-02\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n", "<stdin>:1: malformed multiword token ID '1-02'"),
    ];
    for (sentence, message) in cases {
        let out = run(&["enhance", "--lang", "universal"], sentence.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{sentence}");
        assert!(
            text(&out.stderr).starts_with(message),
            "{}",
            text(&out.stderr)
        );
        let out = run(
            &["enhance", "--lang", "universal", "--on-error", "copy"],
            format!("{GOOD}{sentence}").as_bytes(),
        );
        assert!(out.status.success());
        assert!(text(&out.stdout).ends_with(sentence), "copied unchanged");
    }
}

/// A corrupt gzip input names how far its text got.
#[test]
fn a_corrupt_gzip_error_names_its_position() {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(GOOD.repeat(20_000).as_bytes()).unwrap();
    let whole = encoder.finish().unwrap();
    let out = run(
        &["enhance", "--lang", "universal"],
        &whole[..whole.len() / 2],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("<stdin>: invalid gzip data in line "),
        "{stderr}"
    );
    assert!(stderr.contains(" of the text (after "), "{stderr}");
}
