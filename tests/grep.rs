//! `eudify grep` as users call it: the output forms, the file's DEPS against the computed
//! graph, and pattern mistakes.

use crate::common::{run, text};

const SAMPLE: &str = "tests/data/sample.conllu";

/// The sample enhanced under `en`, written as `name` (one per test: tests run at once) for the
/// tests that search a file's DEPS.
fn enhanced_sample(name: &str) -> String {
    let path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("grep-{name}.conllu"));
    let out = run(&["enhance", "--lang", "en", SAMPLE], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::write(&path, &out.stdout).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn one_line_per_match_with_the_words_marked() {
    let file = enhanced_sample("lines");
    let out = run(&["grep", "match { H =[nsubj:xsubj]=> S; }", &file], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = text(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(first.starts_with(&format!("{file}:7: s1: ")), "{first}");
    assert!(
        first.ends_with("[She/S] wants to [buy/H] the book that you liked."),
        "{first}"
    );
}

#[test]
fn the_files_deps_or_with_lang_the_computed_graph() {
    let pattern = "match { H =[nsubj:xsubj]=> S; }";
    // The sample's own DEPS are empty: nothing to find until eudify computes them.
    let own = run(&["grep", "--count", pattern, SAMPLE], b"");
    assert_eq!(text(&own.stdout).trim(), "0", "{}", text(&own.stderr));
    let computed = run(&["grep", "--count", "--lang", "en", pattern, SAMPLE], b"");
    let enhanced = run(
        &["grep", "--count", pattern, &enhanced_sample("count")],
        b"",
    );
    assert_ne!(text(&computed.stdout).trim(), "0");
    assert_eq!(text(&computed.stdout), text(&enhanced.stdout));
}

#[test]
fn counts_by_value_most_frequent_first() {
    let out = run(
        &[
            "grep",
            "--by",
            "C.upos",
            "--by",
            "e.label",
            "match { e: H -[*]-> C; H [upos=VERB]; }",
            SAMPLE,
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<(usize, String)> = text(&out.stdout)
        .lines()
        .map(|l| {
            let (n, key) = l.split_once('\t').unwrap();
            (n.parse().unwrap(), key.to_string())
        })
        .collect();
    assert!(rows.windows(2).all(|w| w[0].0 >= w[1].0), "{rows:?}");
    assert!(rows.iter().any(|(_, key)| key == "PRON\tnsubj"), "{rows:?}");
}

#[test]
fn json_lines_and_conllu_with_match_comments() {
    let file = enhanced_sample("json");
    let pattern = "match { e: H =[conj:*]=> C; }";
    let out = run(&["grep", "--json", pattern, &file], b"");
    let records: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!records.is_empty());
    for record in &records {
        assert!(
            record["sent_id"].is_string() && record["line"].is_u64(),
            "{record}"
        );
        assert_eq!(
            record["edges"]["e"]["dep"], record["nodes"]["C"],
            "{record}"
        );
    }
    let out = run(&["grep", "--conllu", pattern, &file], b"");
    let conllu = text(&out.stdout);
    assert_eq!(conllu.matches("# match = H=").count(), records.len());
    // The matching sentences whole, valid for `eudify validate`.
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("grep-conj.conllu");
    std::fs::write(&path, conllu).unwrap();
    let valid = run(&["validate", path.to_str().unwrap()], b"");
    assert!(valid.status.success(), "{}", text(&valid.stderr));
}

#[test]
fn a_pattern_mistake_is_a_caret_diagnostic_and_exit_1() {
    let out = run(&["grep", "match { H -[nsubjj]-> S; }", SAMPLE], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("<pattern>:1:13: error: unknown UD relation `nsubjj`")
            && stderr.contains('^'),
        "{stderr}"
    );
    let out = run(
        &[
            "grep",
            "match { H -[nsubj]-> S; }",
            "tests/data/no-such-file.conllu",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_input_names_its_line() {
    let input = "1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t7:dep\t_\n\n";
    let out = run(&["grep", "match { H =[dep]=> D; }", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:2: "),
        "{}",
        text(&out.stderr)
    );
}

/// `eudify grep … | head`: a closed pipe ends the run quietly with 0, as in every command.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = crate::common::eudify()
        .args(["grep", "match { H -[*]-> D; }", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = std::fs::read_to_string(SAMPLE).unwrap().repeat(2000);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is dropped here: the pipe is closed with most matches unwritten.
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
}
