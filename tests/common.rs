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

/// Lines of `text` with empty-node lines dropped and DEPS blanked: what enhancement must leave
/// unchanged. Each line keeps its terminator, so terminators are compared too (an empty node
/// that ended the input without one goes, and the word before it keeps its own).
pub fn all_but_deps(text: &[u8]) -> Vec<Vec<u8>> {
    text.split_inclusive(|&b| b == b'\n')
        .filter(|line| !is_empty_node_line(line))
        .map(|line| {
            let mut cols: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
            if cols.len() == 10 {
                cols[8] = b"";
            }
            cols.join(&b'\t')
        })
        .collect()
}

pub fn is_empty_node_line(line: &[u8]) -> bool {
    let id = line.split(|&b| b == b'\t').next().unwrap_or_default();
    id.contains(&b'.') && !line.starts_with(b"#")
}

/// A small deterministic generator, seeded by proptest (shrinking then works on the seed and
/// the sizes, which is enough to get a short failing input).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// HEAD of each word 1..=n (index 0 unused) of a random tree: the words in a random order, each
/// after the first hanging on an earlier one; exactly one word has head 0.
pub fn random_heads(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (1..=n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut head = vec![0usize; n + 1];
    for k in 1..n {
        head[order[k]] = order[rng.below(k)];
    }
    head
}
