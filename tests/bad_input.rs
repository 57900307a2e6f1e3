//! Bad input: `FILE:LINE: message` and exit code 1, never a panic, never silent loss.

use crate::common::{run, text};
use std::process::Stdio;

fn snapshot_error(name: &str) {
    let path = format!("tests/data/bad/{name}.conllu");
    let out = run(&["enhance", &path], b"");
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
    let out = run(&["enhance", "--on-error", "copy"], input.as_bytes());
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
    let out = run(&["enhance"], input.as_bytes());
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
    let out = run(&["enhance"], b"");
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
