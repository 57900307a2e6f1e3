//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/ud")
}

/// Every `dev.conllu` of the shared data, sorted. Fails loudly if the data is missing, since
/// a silently skipped test would prove nothing.
pub fn dev_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared_data())
        .expect("../shared/data/ud must sit beside the crate")
        .map(|e| e.unwrap().path().join("dev.conllu"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "expected the shared dev treebanks, found {}", files.len());
    files
}

pub fn eudify() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_eudify"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Runs `eudify ARGS` with `stdin` as input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = eudify()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("eudify runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
