//! `eudify eval` and `eudify validate` as users call them.

use crate::common::{dev_file, run, text};

fn json(stdout: &[u8]) -> serde_json::Value {
    serde_json::from_slice(stdout).unwrap_or_else(|e| panic!("{e}: {}", text(stdout)))
}

#[test]
fn eval_of_the_basic_profile_gives_the_official_copy_baseline() {
    // The official figures are for the full dev file.
    let Some(gold) = dev_file("Czech-CAC") else {
        return;
    };
    let gold = gold.to_str().unwrap();
    let system = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cac-basic.conllu");
    let enhanced = run(&["enhance", "--lang", "basic", gold], b"");
    assert!(enhanced.status.success());
    std::fs::write(&system, &enhanced.stdout).unwrap();
    let out = run(&["eval", gold, system.to_str().unwrap(), "--json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let scores = json(&out.stdout);
    for (metric, f1) in [("ELAS", 75.17), ("EULAS", 93.01), ("LAS", 100.0)] {
        let got = scores[metric]["f1"].as_f64().unwrap();
        assert!((got - f1).abs() < 0.005, "{metric}: {got} != {f1}");
        for key in ["p", "r"] {
            assert!(scores[metric][key].is_f64(), "{metric}.{key} missing");
        }
    }
    assert!(scores.get("phenomena").is_none());
}

#[test]
fn eval_phenomena_are_in_the_json_and_the_table() {
    let gold = "tests/data/sample.conllu";
    let system = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample-en.conllu");
    let gold_enhanced = run(&["enhance", "--lang", "en", gold], b"");
    std::fs::write(&system, &gold_enhanced.stdout).unwrap();
    let system = system.to_str().unwrap();
    // The enhanced sample scored against itself: everything found, class by class.
    let out = run(&["eval", system, system, "--json", "--phenomena"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let scores = json(&out.stdout);
    assert_eq!(scores["ELAS"]["f1"].as_f64(), Some(100.0));
    let phenomena = scores["phenomena"].as_object().expect("a phenomena object");
    for class in ["B", "C", "P", "S", "X", "R", "G"] {
        let gold = phenomena[class]["gold"].as_u64().unwrap();
        assert!(gold > 0, "class {class} has examples in the sample");
        assert_eq!(phenomena[class]["correct"].as_u64(), Some(gold), "{class}");
    }
    let table = run(&["eval", system, system, "--phenomena"], b"");
    assert!(
        text(&table.stdout).contains("ELAS"),
        "{}",
        text(&table.stdout)
    );
}

#[test]
fn eval_refuses_files_that_do_not_correspond() {
    let gold = "tests/data/sample.conllu";
    let shorter = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample-shorter.conllu");
    let text_in = std::fs::read_to_string(gold).unwrap();
    let first_two: Vec<&str> = text_in.split("\n\n").take(2).collect();
    std::fs::write(&shorter, first_two.join("\n\n") + "\n\n").unwrap();
    let out = run(&["eval", gold, shorter.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("sample-shorter.conllu:"), "{stderr}");

    let changed = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample-changed.conllu");
    std::fs::write(&changed, text_in.replacen("\tShe\t", "\tHe\t", 1)).unwrap();
    let out = run(&["eval", gold, changed.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
fn validate_exits_1_with_file_and_line_on_an_invalid_enhanced_layer() {
    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("self-loop.conllu");
    std::fs::write(
        &bad,
        "1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t2:dep\t_\n\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let out = run(&["validate", bad], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with(&format!("{bad}:2: ")), "{stderr}");
    let good = run(&["validate", "tests/data/sample.conllu"], b"");
    assert!(good.status.success(), "{}", text(&good.stderr));
}

/// `enhance` warns once per file with words without a lemma, counting neither a word whose form
/// is `_` too nor the second part of a split word (`goeswith`: its lemma is on the first).
#[test]
fn enhance_warns_once_per_file_of_words_without_a_lemma() {
    let dir = std::env::temp_dir().join(format!("eudify-cli-lemmas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, body: &str| {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        path.display().to_string()
    };
    let lemmatised = write(
        "lemmatised.conllu",
        "1\tGo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\thome\thome\tADV\t_\t_\t1\tadvmod\t_\t_\n\n",
    );
    let one = write(
        "one.conllu",
        "1\tGo\t_\tVERB\t_\t_\t0\troot\t_\t_\n2\tho\thome\tADV\t_\t_\t1\tadvmod\t_\t_\n3\tme\t_\tX\t_\t_\t2\tgoeswith\t_\t_\n\
         4\t_\t_\tSYM\t_\t_\t1\tpunct\t_\t_\n\n",
    );
    let two = write(
        "two.conllu",
        "1\tGo\t_\tVERB\t_\t_\t0\troot\t_\t_\n2\thome\t_\tADV\t_\t_\t1\tadvmod\t_\t_\n\n",
    );
    let out = run(
        &[
            "enhance",
            "--lang",
            "en",
            &lemmatised,
            &one,
            &two,
            &lemmatised,
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "warning: {one}: 1 of 4 words has no lemma (LEMMA _); lemma tests and markers used its lower-cased form\n\
             warning: {two}: 2 of 2 words have no lemma (LEMMA _); lemma tests and markers used their lower-cased forms\n"
        )
    );
    let stdin = run(
        &["enhance", "--lang", "en"],
        std::fs::read(&two).unwrap().as_slice(),
    );
    assert!(
        text(&stdin.stderr).starts_with("warning: <stdin>: 2 of 2 words have no lemma"),
        "{}",
        text(&stdin.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Conventions shared by the subcommands: `-`, `-o`, gzip, exit codes, messages.

const SAMPLE: &str = "tests/data/sample.conllu";

fn tmp(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// The sample enhanced under `en`, as a file: the input of eval, validate and explain below.
fn enhanced_sample(name: &str) -> (std::path::PathBuf, Vec<u8>) {
    let out = run(&["enhance", "--lang", "en", SAMPLE], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = tmp(name);
    std::fs::write(&path, &out.stdout).unwrap();
    (path, out.stdout)
}

#[test]
fn dash_reads_stdin_in_every_subcommand_that_reads_conllu() {
    let sample = std::fs::read(SAMPLE).unwrap();
    let (enhanced, enhanced_bytes) = enhanced_sample("dash-enhanced.conllu");
    let enhanced = enhanced.to_str().unwrap();

    let from_file = run(&["enhance", "--lang", "en", SAMPLE], b"");
    for args in [
        &["enhance", "--lang", "en", "-"][..],
        &["enhance", "--lang", "en"],
    ] {
        let from_stdin = run(args, &sample);
        assert!(from_stdin.status.success(), "{}", text(&from_stdin.stderr));
        assert_eq!(from_stdin.stdout, from_file.stdout);
    }

    let table = run(&["eval", enhanced, enhanced], b"");
    assert!(table.status.success(), "{}", text(&table.stderr));
    for args in [["eval", "-", enhanced], ["eval", enhanced, "-"]] {
        let out = run(&args, &enhanced_bytes);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(out.stdout, table.stdout, "{args:?}");
    }
    let both = run(&["eval", "-", "-"], &enhanced_bytes);
    assert_eq!(both.status.code(), Some(2));
    assert_eq!(
        text(&both.stderr),
        "gold and system cannot both be `-`: stdin is one input\n"
    );

    let out = run(&["validate", "-"], &enhanced_bytes);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "<stdin>: 4 sentences, valid\n");
    let bad = b"1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t2:dep\t_\n\n";
    let out = run(&["validate", "-"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:2: "),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "<stdin>: 1 sentence, 2 errors\n");

    let explained = run(&["explain", "--lang", "en", SAMPLE], b"");
    let out = run(&["explain", "--lang", "en", "-"], &sample);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!out.stdout.is_empty());
    assert_eq!(out.stdout, explained.stdout);
}

#[test]
fn output_flag_writes_the_file_and_replaces_it_only_on_success() {
    let stdout = run(&["enhance", "--lang", "en", SAMPLE], b"").stdout;
    let path = tmp("output-flag.conllu");
    let _ = std::fs::remove_file(&path);
    for flag in ["-o", "--output"] {
        let out = run(
            &[
                "enhance",
                "--lang",
                "en",
                SAMPLE,
                flag,
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "nothing on stdout with -o");
        assert_eq!(std::fs::read(&path).unwrap(), stdout);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o044,
            0,
            "an output file is readable by others as any new file (mode {mode:o})"
        );
    }
    // A failed run leaves the file as it was: no partial output that looks like a result.
    let bad = b"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n1\tb\tb\tX\t_\t_\t2\troot\t_\t_\n\n";
    let out = run(
        &[
            "enhance",
            "--lang",
            "universal",
            "-o",
            path.to_str().unwrap(),
        ],
        bad,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&path).unwrap(), stdout);
    // The output may be the input: it is read whole before it is replaced.
    let same = tmp("output-same.conllu");
    std::fs::copy(SAMPLE, &same).unwrap();
    let out = run(
        &[
            "enhance",
            "--lang",
            "en",
            same.to_str().unwrap(),
            "-o",
            same.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&same).unwrap(), stdout);
    // A link: its file is replaced, the link stays.
    #[cfg(unix)]
    {
        let link = tmp("output-link.conllu");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let out = run(
            &[
                "enhance",
                "--lang",
                "basic",
                SAMPLE,
                "-o",
                link.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(
            std::fs::read(&path).unwrap(),
            run(&["enhance", "--lang", "basic", SAMPLE], b"").stdout
        );
    }
    // Not a regular file: written to, not replaced.
    let out = run(
        &["enhance", "--lang", "universal", SAMPLE, "-o", "/dev/null"],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device_like());

    let (enhanced, _) = enhanced_sample("output-eval.conllu");
    let enhanced = enhanced.to_str().unwrap();
    let table = tmp("output-eval.txt");
    let out = run(
        &["eval", enhanced, enhanced, "-o", table.to_str().unwrap()],
        b"",
    );
    assert!(
        out.status.success() && out.stdout.is_empty(),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&table).unwrap(),
        run(&["eval", enhanced, enhanced], b"").stdout
    );
    let explained = tmp("output-explain.txt");
    let out = run(
        &[
            "explain",
            "--lang",
            "en",
            SAMPLE,
            "-o",
            explained.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success() && out.stdout.is_empty(),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&explained).unwrap(),
        run(&["explain", "--lang", "en", SAMPLE], b"").stdout
    );
}

trait CharDevice {
    fn is_char_device_like(&self) -> bool;
}

impl CharDevice for std::fs::FileType {
    fn is_char_device_like(&self) -> bool {
        #[cfg(unix)]
        return std::os::unix::fs::FileTypeExt::is_char_device(self);
        #[cfg(not(unix))]
        return !self.is_file();
    }
}

/// Gzip is recognised by its first bytes, whatever the name; line numbers in messages count
/// lines of the decompressed text.
#[test]
fn gzip_input_is_read_in_every_subcommand() {
    let sample = std::fs::read(SAMPLE).unwrap();
    let plain = run(&["enhance", "--lang", "en", SAMPLE], b"");
    // Two members, as `cat a.gz b.gz` makes: one stream.
    let half = sample.len() / 2;
    let mut compressed = gzip(&sample[..half]);
    compressed.extend(gzip(&sample[half..]));
    let path = tmp("gzip-sample.conllu");
    std::fs::write(&path, &compressed).unwrap();
    let path = path.to_str().unwrap();

    let out = run(&["enhance", "--lang", "en", path], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, plain.stdout);
    let out = run(&["enhance", "--lang", "en"], &compressed);
    assert_eq!(out.stdout, plain.stdout, "gzip on stdin");

    let explained = run(&["explain", "--lang", "en", path], b"");
    assert!(explained.status.success(), "{}", text(&explained.stderr));
    assert_eq!(
        explained.stdout,
        run(&["explain", "--lang", "en", SAMPLE], b"").stdout
    );

    let (enhanced, enhanced_bytes) = enhanced_sample("gzip-enhanced.conllu");
    let enhanced_gz = tmp("gzip-enhanced.conllu.gz");
    std::fs::write(&enhanced_gz, gzip(&enhanced_bytes)).unwrap();
    let (enhanced, enhanced_gz) = (enhanced.to_str().unwrap(), enhanced_gz.to_str().unwrap());
    let out = run(&["validate", enhanced_gz], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{enhanced_gz}: 4 sentences, valid\n")
    );
    let out = run(&["eval", enhanced, enhanced_gz, "--json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(json(&out.stdout)["ELAS"]["f1"].as_f64(), Some(100.0));

    // An error deep in the decompressed text: FILE:LINE with the line of the text.
    let mut bad = sample.repeat(3);
    bad.extend_from_slice(b"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\n\n");
    let line = bad.iter().filter(|&&b| b == b'\n').count() - 1;
    let bad_gz = tmp("gzip-bad.conllu");
    std::fs::write(&bad_gz, gzip(&bad)).unwrap();
    let bad_gz = bad_gz.to_str().unwrap();
    let out = run(&["enhance", "--lang", "universal", bad_gz], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!("{bad_gz}:{line}: expected 10 tab-separated columns, found 2\n")
    );
    let out = run(&["validate", bad_gz], b"");
    assert!(
        text(&out.stderr).starts_with(&format!("{bad_gz}:{line}: expected 10")),
        "{}",
        text(&out.stderr)
    );

    // A truncated gzip stream is invalid input, said once.
    let truncated = tmp("gzip-truncated.conllu.gz");
    let whole = gzip(&sample.repeat(20));
    std::fs::write(&truncated, &whole[..whole.len() / 2]).unwrap();
    let truncated = truncated.to_str().unwrap();
    for args in [
        vec!["enhance", "--lang", "universal", truncated],
        vec!["validate", truncated],
        vec!["eval", truncated, truncated],
    ] {
        let out = run(&args, b"");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with(&format!("{truncated}: ")) && stderr.contains("invalid gzip data"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// A system error is printed once, not once per layer of the error chain; a file that cannot
/// be read is exit code 2, not invalid input.
#[test]
fn os_errors_are_printed_once_with_exit_code_2() {
    let dir = "tests/data";
    for args in [
        vec!["enhance", dir],
        vec!["validate", dir],
        vec!["explain", dir],
        vec!["eval", dir, SAMPLE],
        vec!["eval", SAMPLE, dir],
    ] {
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(
            stderr.matches("Is a directory").count(),
            1,
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.starts_with("tests/data: ") && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
    let out = run(&["validate", "tests/data/no-such-file.conllu"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "tests/data/no-such-file.conllu: cannot read: No such file or directory (os error 2)\n"
    );
    let out = run(
        &["enhance", SAMPLE, "-o", "tests/data/no-such-dir/out.conllu"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr)
            .matches("No such file or directory")
            .count(),
        1,
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn exit_codes_tell_usage_errors_from_invalid_input() {
    for args in [
        &["enhance", "--no-such-flag"][..],
        &["frobnicate"],
        &["eval", SAMPLE],
        &["validate"],
        &["enhance", "--threads", "many"],
    ] {
        let out = run(args, b"");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = run(&["enhance", "--lang", "universal"], b"1\ta\n\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:1: expected 10 tab-separated columns, found 2\n"
    );
    for args in [
        &["--help"][..],
        &["enhance", "--help"],
        &["eval", "--help"],
        &["validate", "--help"],
        &["explain", "--help"],
    ] {
        let out = run(args, b"");
        assert!(out.status.success(), "{args:?}");
        let help = text(&out.stdout);
        for line in [
            "Exit codes:",
            "0  success",
            "1  invalid input",
            "2  usage error",
            "`-` (stdin)",
            "gzip",
        ] {
            assert!(
                help.contains(line),
                "{args:?} --help lacks {line:?}:\n{help}"
            );
        }
    }
    let help = text(&run(&["enhance", "--help"], b"").stdout);
    assert!(help.contains("-o, --output <FILE>"), "{help}");
}

#[test]
fn threads_above_the_cores_are_capped_with_a_warning() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let expected = run(&["enhance", "--lang", "en", SAMPLE], b"").stdout;
    let out = run(
        &["enhance", "--lang", "en", "--threads", "20000", SAMPLE],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let plural = if cores == 1 { "core" } else { "cores" };
    assert_eq!(
        text(&out.stderr),
        format!("warning: --threads 20000 is more than the {cores} {plural}; using {cores}\n")
    );
    assert_eq!(out.stdout, expected);
    let out = run(
        &[
            "enhance",
            "--lang",
            "en",
            "--threads",
            &cores.to_string(),
            SAMPLE,
        ],
        b"",
    );
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        text(&out.stderr)
    );
}

/// The summary of `--on-error copy`: singular for one, thousands separated.
#[test]
fn copy_summary_counts_in_words() {
    const GOOD: &str = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n";
    const BAD: &str = "1\tb\tb\tX\t_\t_\t2\troot\t_\t_\n\n";
    for (input, summary) in [
        (
            BAD.to_string(),
            "eudify: 1 sentence, 1 invalid one copied unchanged",
        ),
        (
            format!("{GOOD}{BAD}{BAD}"),
            "eudify: 3 sentences, 2 invalid ones copied unchanged",
        ),
        (
            format!("{}{BAD}", GOOD.repeat(2076)),
            "eudify: 2,077 sentences, 1 invalid one copied unchanged",
        ),
    ] {
        let out = run(
            &["enhance", "--lang", "universal", "--on-error", "copy"],
            input.as_bytes(),
        );
        assert!(out.status.success());
        assert_eq!(text(&out.stderr).lines().last(), Some(summary));
    }
    let out = run(
        &["enhance", "--lang", "universal", "--on-error", "copy"],
        GOOD.as_bytes(),
    );
    assert!(
        out.stderr.is_empty(),
        "no summary when nothing was copied: {}",
        text(&out.stderr)
    );
}
