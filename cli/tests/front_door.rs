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

/// SIGTERM, SIGINT or SIGHUP in the middle of `enhance -o FILE` leave FILE as it was and no
/// temporary file beside it (the process ends without destructors, which would remove it).
#[cfg(unix)]
#[test]
fn a_signal_during_enhance_to_a_file_leaves_no_temporary_file() {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    use std::time::{Duration, Instant};
    let sentence = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n";
    for (signal, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        let dir =
            std::env::temp_dir().join(format!("eudify-signal-{}-{signal}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("out.conllu");
        std::fs::write(&file, "before\n").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_eudify"))
            .args(["enhance", "--lang", "basic", "-o"])
            .arg(&file)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("eudify runs");
        let temporaries = || {
            std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with(".eudify-") && name.ends_with(".tmp"))
                .collect::<Vec<_>>()
        };
        // Half a million sentences written (stdin stays open: the run is still going), and the
        // temporary file holding part of the output.
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(sentence.repeat(500_000).as_bytes())
            .unwrap();
        let start = Instant::now();
        while temporaries().is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no temporary file appears"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.signal(), Some(number), "SIG{signal}: {status:?}");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "before\n",
            "SIG{signal}"
        );
        assert_eq!(temporaries(), Vec::<String>::new(), "SIG{signal}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
