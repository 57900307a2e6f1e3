//! The basic profile keeps every column but DEPS, and the output does not depend on the thread
//! count. (That the CoNLL-U reader and writer keep every byte is a unit test of
//! `src/conllu/writer.rs`.)

use crate::common::{dev_files, run, sample_files, text};
use std::path::PathBuf;

fn word(id: u32, head: u32, deprel: &str, deps: &str) -> String {
    format!("{id}\tw{id}\tl{id}\tX\t_\t_\t{head}\t{deprel}\t{deps}\tMisc={id}")
}

#[test]
fn basic_profile_recomputes_deps_and_drops_empty_nodes() {
    let input = format!(
        "# sent_id = 1\r\n{}\r\n{}\r\n2.1\te\te\tX\t_\t_\t_\t_\t1:conj\t_\r\n{}\r\n\r\n",
        word(1, 0, "root", "0:root"),
        word(2, 1, "obl:tmod", "1:obl:on"),
        word(3, 1, "punct", "2.1:punct")
    );
    let out = run(&["enhance", "--lang", "basic"], input.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = format!(
        "# sent_id = 1\r\n{}\r\n{}\r\n{}\r\n\r\n",
        word(1, 0, "root", "0:root"),
        word(2, 1, "obl:tmod", "1:obl:tmod"),
        word(3, 1, "punct", "1:punct")
    );
    assert_eq!(text(&out.stdout), expected);
}

fn basic_profile_keeps_every_column_but_deps(files: &[PathBuf]) {
    for file in files {
        let path = file.to_str().unwrap();
        let out = run(&["enhance", "--lang", "basic", path], b"");
        assert!(out.status.success(), "{path}: {}", text(&out.stderr));
        let input = std::fs::read_to_string(file).unwrap();
        let keep = |s: &str| -> Vec<String> {
            s.split('\n')
                .filter(|l| !l.split('\t').next().unwrap().contains('.'))
                .map(|l| {
                    let mut cols: Vec<&str> = l.split('\t').collect();
                    if cols.len() == 10 {
                        cols[8] = "";
                    }
                    cols.join("\t")
                })
                .collect()
        };
        let output = text(&out.stdout);
        assert!(
            keep(&input) == keep(&output),
            "{path}: columns other than DEPS changed"
        );
    }
}

#[test]
fn basic_profile_keeps_every_column_but_deps_on_the_sample_files() {
    basic_profile_keeps_every_column_but_deps(&sample_files());
}

#[test]
fn basic_profile_keeps_every_column_but_deps_on_all_shared_files() {
    if let Some(files) = dev_files() {
        basic_profile_keeps_every_column_but_deps(&files);
    }
}

#[test]
fn output_is_identical_for_one_and_two_threads() {
    // The whole sample on stdin: three of the pipeline's 256 kB pieces, so both threads work.
    let input: Vec<u8> = sample_files()
        .iter()
        .flat_map(|f| std::fs::read(f).unwrap())
        .collect();
    assert!(input.len() > 2 * 256 * 1024, "{} bytes", input.len());
    let one = run(
        &["enhance", "--lang", "universal", "--threads", "1"],
        &input,
    );
    let two = run(
        &["enhance", "--lang", "universal", "--threads", "2"],
        &input,
    );
    assert!(
        one.status.success() && two.status.success(),
        "{}",
        text(&two.stderr)
    );
    assert!(one.stdout == two.stdout);
}
