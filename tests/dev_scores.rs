//! Output quality: every treebank enhanced under its profile keeps the ELAS recorded for it
//! (`tests/dev-scores.tsv` for the full dev treebanks, `tests/sample-scores.tsv` for the sample
//! in `tests/data/ud`), the README's dev table is the one `tests/dev-scores.tsv` gives, and docs/
//! carries no stale copy of it.
//! `scripts/eval-dev.sh --write` refreshes all three; improvements are committed with them.

use crate::common::{
    dev_files, dev_scores_file, enhance_bytes, enhancer, read_scores, sample_files,
    sample_scores_file, treebank_name, Scores,
};
use eudify::eval::{evaluate_readers, EvalOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How far an ELAS may fall below the recorded one before the test fails.
const TOLERANCE: f64 = 0.05;
/// Scores are recorded with two decimals.
const ROUNDING: f64 = 0.011;

/// ELAS and EULAS F1 of `gold` enhanced under `profile`.
fn measure(enhancer: &eudify::Enhancer, name: &str, gold: &[u8]) -> (f64, f64) {
    let out = enhance_bytes(enhancer, name, gold);
    let report = evaluate_readers(name, gold, "enhanced", &out[..], &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    (report.elas.f1(), report.eulas.f1())
}

/// Scores of every file under the code its row in `recorded` gives; files without a row are
/// returned by name.
fn measure_all(files: &[PathBuf], recorded: &[Scores]) -> (Vec<Scores>, Vec<String>) {
    let basic = enhancer("basic");
    let (mut measured, mut unrecorded) = (Vec::new(), Vec::new());
    for file in files {
        let treebank = treebank_name(file);
        let Some(row) = recorded.iter().find(|r| r.treebank == treebank) else {
            unrecorded.push(treebank);
            continue;
        };
        let gold = std::fs::read(file).unwrap();
        let (basic_elas, basic_eulas) = measure(&basic, &treebank, &gold);
        let (elas, eulas) = measure(&enhancer(&row.code), &treebank, &gold);
        measured.push(Scores {
            treebank,
            code: row.code.clone(),
            basic_elas,
            basic_eulas,
            elas,
            eulas,
        });
    }
    (measured, unrecorded)
}

/// Failures (an ELAS more than [`TOLERANCE`] below the record, a changed baseline, a treebank
/// missing on either side) and notes (scores above the record: the file can be refreshed).
fn compare(
    recorded: &[Scores],
    measured: &[Scores],
    unrecorded: &[String],
    file: &str,
) -> (Vec<String>, Vec<String>) {
    let (mut failures, mut notes) = (Vec::new(), Vec::new());
    for treebank in unrecorded {
        failures.push(format!("{treebank} has no row in {file}"));
    }
    for row in recorded {
        let Some(now) = measured.iter().find(|m| m.treebank == row.treebank) else {
            failures.push(format!("{}: in {file} but not in the data", row.treebank));
            continue;
        };
        let tb = &row.treebank;
        if (now.basic_elas - row.basic_elas).abs() > ROUNDING
            || (now.basic_eulas - row.basic_eulas).abs() > ROUNDING
        {
            failures.push(format!(
                "{tb}: the copy baseline scores {:.2}/{:.2}, {file} says {:.2}/{:.2}: the data or the scorer changed",
                now.basic_elas, now.basic_eulas, row.basic_elas, row.basic_eulas
            ));
        }
        let drop = row.elas - now.elas;
        if drop > TOLERANCE {
            failures.push(format!(
                "{tb} ({}): ELAS {:.2} is {drop:.2} below {:.2} in {file} (tolerance {TOLERANCE})",
                row.code, now.elas, row.elas
            ));
        } else if now.elas - row.elas > ROUNDING || (now.eulas - row.eulas).abs() > ROUNDING {
            notes.push(format!(
                "{tb} ({}): ELAS {:.2} EULAS {:.2}, {file} says {:.2} {:.2}",
                row.code, now.elas, now.eulas, row.elas, row.eulas
            ));
        }
    }
    (failures, notes)
}

fn check(files: &[PathBuf], score_file: &Path) {
    let recorded = read_scores(score_file);
    let (measured, unrecorded) = measure_all(files, &recorded);
    let name = score_file
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let (failures, notes) = compare(&recorded, &measured, &unrecorded, &name);
    if !notes.is_empty() {
        // Past the harness's capture, so a passing run shows it too.
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "note: scores differ from {name}; refresh it with scripts/eval-dev.sh --write:"
        );
        for note in &notes {
            let _ = writeln!(err, "  {note}");
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(an improvement elsewhere does not excuse a drop; if a drop is intended, refresh the file \
         with scripts/eval-dev.sh --write and say why in the commit)",
        failures.join("\n")
    );
}

#[test]
fn every_dev_treebank_keeps_its_recorded_elas() {
    if let Some(files) = dev_files() {
        let recorded = read_scores(&dev_scores_file());
        assert_eq!(
            recorded.len(),
            files.len(),
            "tests/dev-scores.tsv has a row for each dev treebank"
        );
        check(&files, &dev_scores_file());
    }
}

#[test]
fn every_sample_treebank_keeps_its_recorded_elas() {
    let files = sample_files();
    assert_eq!(read_scores(&sample_scores_file()).len(), files.len());
    check(&files, &sample_scores_file());
}

fn row(treebank: &str, elas: f64) -> Scores {
    Scores {
        treebank: treebank.into(),
        code: "xx_yy".into(),
        basic_elas: 80.0,
        basic_eulas: 90.0,
        elas,
        eulas: 99.0,
    }
}

#[test]
fn a_drop_beyond_the_tolerance_fails_and_names_the_treebank() {
    let recorded = [row("A-B", 98.00), row("C-D", 97.00)];
    let measured = [row("A-B", 97.96), row("C-D", 96.93)];
    let (failures, notes) = compare(&recorded, &measured, &[], "f.tsv");
    assert_eq!(
        failures,
        ["C-D (xx_yy): ELAS 96.93 is 0.07 below 97.00 in f.tsv (tolerance 0.05)"]
    );
    assert!(notes.is_empty(), "{notes:?}");

    let measured = [row("A-B", 98.20), row("C-D", 97.00)];
    let (failures, notes) = compare(&recorded, &measured, &[], "f.tsv");
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(notes.len(), 1, "an improvement is a note: {notes:?}");

    let mut changed = row("A-B", 98.00);
    changed.basic_elas = 80.5;
    let (failures, _) = compare(&recorded, &[changed, row("C-D", 97.00)], &[], "f.tsv");
    assert!(failures[0].contains("copy baseline"), "{failures:?}");

    let (failures, _) = compare(&recorded, &[row("A-B", 98.00)], &["E-F".into()], "f.tsv");
    assert_eq!(
        failures,
        [
            "E-F has no row in f.tsv",
            "C-D: in f.tsv but not in the data"
        ]
    );
}

/// The README table `scripts/eval-dev.sh --write` makes from the score file: two treebanks a
/// row, filled column by column, basic and profile ELAS.
fn readme_table(rows: &[Scores]) -> String {
    let mut table = String::from(
        "| treebank | basic | eudify | treebank | basic | eudify |\n|---|---|---|---|---|---|\n",
    );
    let half = rows.len().div_ceil(2);
    for i in 0..half {
        let r = &rows[i];
        table += &format!("| {} | {:.2} | {:.2} |", r.treebank, r.basic_elas, r.elas);
        match rows.get(i + half) {
            Some(r) => {
                table += &format!(" {} | {:.2} | {:.2} |\n", r.treebank, r.basic_elas, r.elas)
            }
            None => table += "  |  |  |\n",
        }
    }
    table
}

#[test]
fn readme_dev_table_is_the_one_the_score_file_gives() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("\n<!-- dev-table")
        .expect("README.md has a <!-- dev-table --> marker");
    let body = &readme[start + 1..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let end = body
        .find("<!-- /dev-table -->")
        .expect("README.md has a <!-- /dev-table --> marker");
    let expected = readme_table(&read_scores(&dev_scores_file()));
    assert!(
        body[..end] == expected,
        "the README's dev table is not the one tests/dev-scores.tsv gives: run scripts/eval-dev.sh --write\n\
         README:\n{}\nexpected:\n{expected}",
        &body[..end]
    );
}

/// The dev scores live in tests/dev-scores.tsv and the README table made from it; a copy in
/// docs/ would go stale at the next rule change (docs/profiles.md carried one). Fails on any
/// markdown table row in docs/ whose first cell is a dev treebank (`Czech-CAC`, or with its code:
/// ``Czech-CAC (`cs_cac`)``) and which holds a score (an unsigned number with two decimals);
/// signed gains per rule (`+0.65`) and parsed files (`Czech-CAC-cs_core_news_sm`) are other tables.
#[test]
fn docs_carry_no_copy_of_the_dev_table() {
    let treebanks: Vec<String> = read_scores(&dev_scores_file())
        .into_iter()
        .map(|r| r.treebank)
        .collect();
    let is_score = |cell: &str| {
        let cell = cell.trim().trim_matches('*');
        cell.split_once('.').is_some_and(|(whole, decimals)| {
            !whole.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && decimals.len() == 2
                && decimals.bytes().all(|b| b.is_ascii_digit())
        })
    };
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut copies = Vec::new();
    for entry in std::fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        for (i, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
            let mut cells = line
                .strip_prefix('|')
                .map(|l| l.split('|'))
                .into_iter()
                .flatten();
            let Some(first) = cells.next() else { continue };
            let first = first.trim();
            let name = first.split_once(" (").map_or(first, |(name, _)| name);
            if treebanks.iter().any(|t| t == name) && cells.any(is_score) {
                copies.push(format!("{}:{}: {line}", path.display(), i + 1));
            }
        }
    }
    assert!(
        copies.is_empty(),
        "dev scores copied into docs/ (point to the README table or tests/dev-scores.tsv instead):\n{}",
        copies.join("\n")
    );
}
