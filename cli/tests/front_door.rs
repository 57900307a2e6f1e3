//! The command's own manners, beyond what the library does: generated completions and man page,
//! progress lines when stderr is not a terminal, a warning for an empty input.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn eudify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eudify"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .stdin(Stdio::null())
        .output()
        .expect("eudify runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn completions_know_every_subcommand_and_flag() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = eudify(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        for word in ["enhance", "explain", "on-error", "sent-id"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    assert_eq!(eudify(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn the_man_page_has_a_section_per_subcommand() {
    let out = eudify(&["man"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert!(
        page.starts_with(".ie") && page.contains(".TH eudify 1"),
        "{page}"
    );
    for section in [
        "ENHANCE",
        "EVAL",
        "VALIDATE",
        "EXPLAIN",
        "CHECK",
        "TEST",
        "COMPLETIONS",
    ] {
        assert!(
            page.contains(&format!(".SH \"EUDIFY {section}\"")),
            "no {section} section"
        );
    }
    assert!(
        page.contains("eudify enhance") && page.contains("\\-\\-on\\-error"),
        "{page}"
    );
}

#[test]
fn progress_asked_for_writes_plain_lines_when_stderr_is_no_terminal() {
    let out = eudify(&[
        "enhance",
        "--lang",
        "en",
        "--progress",
        "tests/data/sample.conllu",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let size = std::fs::metadata(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sample.conllu"),
    )
    .unwrap()
    .len();
    let last = text(&out.stderr)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let total = eudify::text::thousands(size);
    assert!(
        last.starts_with(&format!("eudify: {total} of {total} bytes (100 %), ")),
        "{last}"
    );
    assert!(last.ends_with(" tokens/s"), "{last}");
    // Not asked for: nothing.
    let quiet = eudify(&["enhance", "--lang", "en", "tests/data/sample.conllu"]);
    assert_eq!(text(&quiet.stderr), "");
}

#[test]
fn an_empty_input_is_a_warning_not_silence() {
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty.conllu");
    std::fs::write(&empty, "").unwrap();
    let out = eudify(&["enhance", "--lang", "en", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"");
    assert_eq!(
        text(&out.stderr),
        format!("warning: {}: no sentences (empty input)\n", empty.display())
    );
}

#[test]
fn enhance_on_a_terminal_says_what_it_waits_for() {
    // A terminal for stdin: util-linux's `script` runs the command on a pseudo-terminal and types
    // what it reads, here Ctrl-D: the command says what it waits for, then reads an empty input.
    if Command::new("script").arg("--version").output().is_err() {
        // Under CI the machine has it (Debian's util-linux): a missing one is a failure there.
        assert!(
            std::env::var_os("CI").is_none(),
            "no `script` (util-linux) for a pty"
        );
        println!("enhance_on_a_terminal_says_what_it_waits_for: skipped: no `script` (util-linux) for a pty");
        return;
    }
    let command = format!("{} enhance --lang en", env!("CARGO_BIN_EXE_eudify"));
    let mut child = Command::new("timeout")
        .args(["20", "script", "-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script runs");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"\x04").unwrap();
    let out = child.wait_with_output().unwrap();
    let shown = text(&out.stdout);
    assert!(
        shown.contains("eudify enhance: reading CoNLL-U from the terminal; end it with Ctrl-D")
            && shown.contains("warning: <stdin>: no sentences (empty input)"),
        "{shown}"
    );
    assert_eq!(out.status.code(), Some(0), "{shown}");
    // Not on a pipe: nothing.
    let piped = eudify(&["enhance", "--lang", "en"]);
    assert_eq!(
        text(&piped.stderr),
        "warning: <stdin>: no sentences (empty input)\n"
    );
}
