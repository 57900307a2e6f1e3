//! Real parser output: every spaCy parse of a dev text (`../shared/data/eval-reference/
//! <Treebank>-<model>/parsed.conllu`), enhanced under its language's profile, keeps the ELAS that
//! `tests/parsed-scores.tsv` records for it, and `docs/parsed-input.md` shows that file's table.
//! `scripts/eval-parsed.sh --write` refreshes both. The file also records the parse's LAS with
//! spaCy's root label `ROOT` read as `root` (the scorer compares DEPREL case-sensitively, so the
//! raw LAS counts every root wrong): the denominator of the ELAS / LAS ratio the doc reports.

use crate::common::{enhance_bytes, enhancer, is_ci, shared_root};
use eudify::eval::{evaluate_readers, EvalOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How far an ELAS may fall below the recorded one before the test fails.
const TOLERANCE: f64 = 0.05;
/// Scores are recorded with two decimals.
const ROUNDING: f64 = 0.011;
/// The added-edge classes whose precision the file records (docs/phenomena.md).
const CLASSES: [&str; 6] = ["P", "S", "X", "R", "C", "G"];

fn scores_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parsed-scores.tsv")
}

/// One row of `tests/parsed-scores.tsv`: the scores the test checks, and the rest as written.
#[derive(Clone, Debug)]
struct Row {
    /// `Czech-CAC-cs_core_news_sm`: the folder under `eval-reference`.
    parsed: String,
    /// The `--lang` of the run (the model's language).
    code: String,
    las: f64,
    /// LAS of the parse with DEPREL `ROOT` repaired to `root`.
    las_root: f64,
    basic_elas: f64,
    elas: f64,
    /// Every column as written, for the doc's table.
    cols: Vec<String>,
}

const HEAD: [&str; 8] = [
    "parsed",
    "code",
    "las",
    "las_root",
    "basic_elas",
    "elas",
    "eulas",
    "elas_las_root",
];

fn header() -> Vec<String> {
    let mut header: Vec<String> = HEAD.iter().map(|h| h.to_string()).collect();
    for class in CLASSES {
        header.push(format!("{class}_parsed"));
        header.push(format!("{class}_gold"));
    }
    header.extend(["rules_parsed".into(), "rules_gold".into()]);
    header
}

/// The rows of the file; a malformed line fails with `FILE:LINE`.
fn read_rows(file: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let (mut rows, mut seen_header) = (Vec::new(), false);
    for (i, line) in text.lines().enumerate() {
        let at = format!("{}:{}", file.display(), i + 1);
        if line.starts_with('#') {
            continue;
        }
        let cols: Vec<String> = line.split('\t').map(str::to_string).collect();
        if !seen_header {
            assert_eq!(cols, header(), "{at}: header");
            seen_header = true;
            continue;
        }
        assert_eq!(
            cols.len(),
            header().len(),
            "{at}: expected {} columns",
            header().len()
        );
        let number = |c: &str| {
            c.parse::<f64>()
                .unwrap_or_else(|e| panic!("{at}: {c:?}: {e}"))
        };
        for c in &cols[HEAD.len()..] {
            assert!(
                c == "-" || c.parse::<f64>().is_ok(),
                "{at}: {c:?} is no precision"
            );
        }
        rows.push(Row {
            parsed: cols[0].clone(),
            code: cols[1].clone(),
            las: number(&cols[2]),
            las_root: number(&cols[3]),
            basic_elas: number(&cols[4]),
            elas: number(&cols[5]),
            cols,
        });
    }
    assert!(!rows.is_empty(), "{}: no rows", file.display());
    rows
}

/// Every `eval-reference/*/parsed.conllu`, sorted, or `None` (the test then passes after saying
/// it was skipped) when the shared data is not there; CI must have it.
fn parsed_files() -> Option<Vec<PathBuf>> {
    let root = shared_root().join("data/eval-reference");
    if !root.is_dir() {
        let why = format!("{} not found (see README \"Test data\")", root.display());
        assert!(!is_ci(), "{why}: CI must run every test");
        let _ = writeln!(std::io::stderr(), "parsed files: skipped: {why}");
        return None;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path().join("parsed.conllu"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    Some(files)
}

/// Enhances `parsed` under `enhancer` and scores it against `gold`: (LAS, ELAS).
fn measure(enhancer: &eudify::Enhancer, name: &str, parsed: &[u8], gold: &[u8]) -> (f64, f64) {
    let out = enhance_bytes(enhancer, name, parsed);
    let report = evaluate_readers("gold", gold, name, &out[..], &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    (report.las.f1(), report.elas.f1())
}

/// `parsed` with every DEPREL `ROOT` (spaCy's root label) read as UD's `root`, the one repair
/// the scorer needs to count a right root as right; every other byte as it was.
fn root_repaired(parsed: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(parsed).expect("a parse is UTF-8");
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut cols: Vec<&str> = line.split('\t').collect();
        if cols.len() == 10 && cols[7] == "ROOT" {
            cols[7] = "root";
        }
        out.push_str(&cols.join("\t"));
    }
    out.into_bytes()
}

/// The scores measured on a parse, to compare with its recorded row.
struct Measured {
    las: f64,
    las_root: f64,
    basic_elas: f64,
    elas: f64,
}

/// What is wrong with the `measured` scores against the recorded `row`.
fn compare(row: &Row, measured: &Measured) -> Option<String> {
    let name = &row.parsed;
    let Measured {
        las,
        las_root,
        basic_elas,
        elas,
    } = *measured;
    if (las - row.las).abs() > ROUNDING
        || (las_root - row.las_root).abs() > ROUNDING
        || (basic_elas - row.basic_elas).abs() > ROUNDING
    {
        return Some(format!(
            "{name}: LAS {las:.2}, LAS with root {las_root:.2}, copy ELAS {basic_elas:.2}; tests/parsed-scores.tsv says {:.2}, {:.2}, {:.2}: the data or the scorer changed",
            row.las, row.las_root, row.basic_elas
        ));
    }
    let drop = row.elas - elas;
    (drop > TOLERANCE).then(|| {
        format!(
            "{name} (--lang {}): ELAS {elas:.2} is {drop:.2} below {:.2} in tests/parsed-scores.tsv (tolerance {TOLERANCE})",
            row.code, row.elas
        )
    })
}

#[test]
fn every_parsed_file_keeps_its_recorded_elas() {
    let Some(files) = parsed_files() else { return };
    let rows = read_rows(&scores_file());
    let basic = enhancer("basic");
    let mut failures = Vec::new();
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for row in &rows {
        if !names.contains(&row.parsed) {
            failures.push(format!(
                "{}: in tests/parsed-scores.tsv but not in the data",
                row.parsed
            ));
        }
    }
    for (file, name) in files.iter().zip(&names) {
        let Some(row) = rows.iter().find(|r| &r.parsed == name) else {
            failures.push(format!("{name} has no row in tests/parsed-scores.tsv"));
            continue;
        };
        // `Czech-CAC-cs_core_news_sm` is spaCy's parse of the text of `ud/Czech-CAC/dev.conllu`.
        let treebank = &name[..name.rfind('-').unwrap()];
        let gold = std::fs::read(
            shared_root()
                .join("data/ud")
                .join(treebank)
                .join("dev.conllu"),
        )
        .unwrap_or_else(|e| panic!("{name}: the gold dev file of {treebank}: {e}"));
        let parsed = std::fs::read(file).unwrap();
        let (las, basic_elas) = measure(&basic, name, &parsed, &gold);
        let (las_root, _) = measure(&basic, name, &root_repaired(&parsed), &gold);
        let (_, elas) = measure(&enhancer(&row.code), name, &parsed, &gold);
        let measured = Measured {
            las,
            las_root,
            basic_elas,
            elas,
        };
        failures.extend(compare(row, &measured));
        if elas - row.elas > ROUNDING {
            let _ = writeln!(
                std::io::stderr(),
                "note: {name}: ELAS {elas:.2}, tests/parsed-scores.tsv says {:.2}: refresh it with scripts/eval-parsed.sh --write",
                row.elas
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(if a drop is intended, refresh the file with scripts/eval-parsed.sh --write and say why in the commit)",
        failures.join("\n")
    );
}

fn row(elas: f64) -> Row {
    let cols = vec!["A-B-xx_model".to_string(), "xx".into()];
    Row {
        parsed: cols[0].clone(),
        code: cols[1].clone(),
        las: 75.0,
        las_root: 77.0,
        basic_elas: 70.0,
        elas,
        cols,
    }
}

#[test]
fn a_parsed_elas_drop_beyond_the_tolerance_fails() {
    let measured = |las: f64, elas: f64| Measured {
        las,
        las_root: 77.0,
        basic_elas: 70.0,
        elas,
    };
    assert_eq!(compare(&row(80.0), &measured(75.0, 79.96)), None);
    assert_eq!(
        compare(&row(80.0), &measured(75.0, 81.0)),
        None,
        "an improvement passes"
    );
    assert_eq!(
        compare(&row(80.0), &measured(75.0, 79.93)).as_deref(),
        Some("A-B-xx_model (--lang xx): ELAS 79.93 is 0.07 below 80.00 in tests/parsed-scores.tsv (tolerance 0.05)")
    );
    let changed = compare(&row(80.0), &measured(75.5, 80.0)).unwrap();
    assert!(
        changed.contains("the data or the scorer changed"),
        "{changed}"
    );
}

/// The doc's table, as `scripts/eval-parsed.sh --write` renders the score file.
fn doc_table(rows: &[Row]) -> String {
    let mut table = String::from(
        "| parsed file | LAS | LAS with root | copy ELAS | eudify ELAS | EULAS | ELAS / LAS with root |",
    );
    let mut rule = String::from("|---|---|---|---|---|---|---|");
    for class in CLASSES {
        table += &format!(" {class} parse / gold |");
        rule += "---|";
    }
    table += &format!(" rule edges parse / gold |\n{rule}---|\n");
    for row in rows {
        let c = &row.cols;
        table += &format!(
            "| {} (`--lang {}`) | {} | {} | {} | {} | {} | {} |",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
        );
        for pair in c[HEAD.len()..].chunks(2) {
            table += &format!(" {} / {} |", pair[0], pair[1]);
        }
        table += "\n";
    }
    table
}

#[test]
fn parsed_input_doc_table_is_the_one_the_score_file_gives() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/parsed-input.md"))
            .unwrap();
    let start = doc
        .find("\n<!-- parsed-table")
        .expect("docs/parsed-input.md has a <!-- parsed-table --> marker");
    let body = &doc[start + 1..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let end = body
        .find("<!-- /parsed-table -->")
        .expect("a <!-- /parsed-table --> marker");
    let expected = doc_table(&read_rows(&scores_file()));
    assert!(
        body[..end] == expected,
        "the table in docs/parsed-input.md is not the one tests/parsed-scores.tsv gives: run scripts/eval-parsed.sh --write\n\
         doc:\n{}\nexpected:\n{expected}",
        &body[..end]
    );
}

#[test]
fn root_repair_touches_only_a_root_deprel() {
    let parse = "# text = ROOT\n1\tROOT\tROOT\tNOUN\t_\t_\t0\tROOT\t_\t_\n2\tx\tx\tX\t_\t_\t1\tROOTs\t_\t_\n\n";
    assert_eq!(
        String::from_utf8(root_repaired(parse.as_bytes())).unwrap(),
        "# text = ROOT\n1\tROOT\tROOT\tNOUN\t_\t_\t0\troot\t_\t_\n2\tx\tx\tX\t_\t_\t1\tROOTs\t_\t_\n\n"
    );
}
