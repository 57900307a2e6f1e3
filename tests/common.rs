//! Helpers shared by the integration tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The shared project data: `$EUDIFY_SHARED` if set, else `../shared` beside the checkout.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("EUDIFY_SHARED") {
        Some(root) => PathBuf::from(root),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// The full UD dev treebanks, `<Language>-<Treebank>/dev.conllu` (see README "Test data").
pub fn shared_data() -> PathBuf {
    shared_root().join("data/ud")
}

/// The small sample of UD dev data shipped with the crate, laid out like [`shared_data`].
pub fn sample_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ud")
}

/// Every `*/dev.conllu` under `root`, sorted.
pub fn conllu_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path().join("dev.conllu"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    files
}

/// The sample's `dev.conllu` files, which every test run has.
pub fn sample_files() -> Vec<PathBuf> {
    let files = conllu_files(&sample_data());
    assert!(
        files.len() >= 3,
        "expected the sample treebanks in tests/data/ud, found {}",
        files.len()
    );
    files
}

/// The sample file of one treebank (`Czech-CAC`).
pub fn sample_file(treebank: &str) -> PathBuf {
    let file = sample_data().join(treebank).join("dev.conllu");
    assert!(file.exists(), "{} is missing", file.display());
    file
}

/// Whether this is a CI run, as insta decides it: `CI` set to anything but empty, `0` or `false`.
pub fn is_ci() -> bool {
    !matches!(
        std::env::var("CI").as_deref(),
        Err(_) | Ok("" | "0" | "false")
    )
}

/// Every `dev.conllu` of the full dev treebanks, sorted, or `None` when they are not there: the
/// calling test then passes after printing (past the test harness's capture, so it is seen) that
/// it was skipped and why. Under CI a missing directory fails instead, so CI never skips.
pub fn dev_files() -> Option<Vec<PathBuf>> {
    let root = shared_data();
    if !root.is_dir() {
        let shown = match std::env::var_os("EUDIFY_SHARED") {
            Some(_) => root.display().to_string(),
            None => "../shared/data/ud".to_string(),
        };
        let why =
            format!("{shown} not found (the full UD dev treebanks; see README \"Test data\")");
        assert!(!is_ci(), "{why}: CI must run every test");
        let thread = std::thread::current();
        let test = thread.name().unwrap_or("a test");
        let _ = writeln!(std::io::stderr(), "{test}: skipped: {why}");
        return None;
    }
    let files = conllu_files(&root);
    assert!(
        files.len() >= 20,
        "expected the dev treebanks in {}, found {}",
        root.display(),
        files.len()
    );
    Some(files)
}

/// The full dev file of one treebank (`Czech-CAC`), or `None` as [`dev_files`] gives it.
pub fn dev_file(treebank: &str) -> Option<PathBuf> {
    let files = dev_files()?;
    let file = shared_data().join(treebank).join("dev.conllu");
    assert!(files.contains(&file), "{} is missing", file.display());
    Some(file)
}

/// The treebank folder name of a `.../<Language>-<Treebank>/dev.conllu`.
pub fn treebank_name(file: &Path) -> String {
    file.parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// One row of a score file (`tests/dev-scores.tsv`, `tests/sample-scores.tsv`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    pub treebank: String,
    /// The `--lang` code of the treebank: the one place that maps treebanks to profiles.
    pub code: String,
    pub basic_elas: f64,
    pub basic_eulas: f64,
    pub elas: f64,
    pub eulas: f64,
}

/// The scores each data set's treebanks must keep, written by `scripts/eval-dev.sh --write`.
pub fn dev_scores_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dev-scores.tsv")
}

pub fn sample_scores_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sample-scores.tsv")
}

/// The rows of a score file: `#` comment lines, a header line, then one tab-separated row per
/// treebank. Any malformed line fails with `FILE:LINE`.
pub fn read_scores(file: &Path) -> Vec<Scores> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut rows = Vec::new();
    let mut header = false;
    for (i, line) in text.lines().enumerate() {
        let at = format!("{}:{}", file.display(), i + 1);
        if line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if !header {
            assert_eq!(
                cols,
                [
                    "treebank",
                    "code",
                    "basic_elas",
                    "basic_eulas",
                    "elas",
                    "eulas"
                ],
                "{at}: header"
            );
            header = true;
            continue;
        }
        assert_eq!(cols.len(), 6, "{at}: expected 6 tab-separated columns");
        let number = |c: &str| {
            c.parse::<f64>()
                .unwrap_or_else(|e| panic!("{at}: {c:?}: {e}"))
        };
        rows.push(Scores {
            treebank: cols[0].to_string(),
            code: cols[1].to_string(),
            basic_elas: number(cols[2]),
            basic_eulas: number(cols[3]),
            elas: number(cols[4]),
            eulas: number(cols[5]),
        });
    }
    assert!(!rows.is_empty(), "{}: no rows", file.display());
    rows
}

/// The `--lang` code of the treebank of `file` (`.../Czech-CAC/dev.conllu` → `cs_cac`), from the
/// score files.
pub fn treebank_code(file: &Path) -> String {
    let treebank = treebank_name(file);
    [dev_scores_file(), sample_scores_file()]
        .iter()
        .flat_map(|f| read_scores(f))
        .find(|row| row.treebank == treebank)
        .unwrap_or_else(|| {
            panic!("{treebank} has no row in the score files: run scripts/eval-dev.sh --write")
        })
        .code
}

/// The `eudify` binary of the workspace's `cli` crate, which `cargo test` at the root builds
/// (with every test target) before it runs any test: beside this test binary's `deps/` folder.
pub fn eudify_binary() -> std::path::PathBuf {
    let test_binary = std::env::current_exe().expect("the test binary's path");
    let profile_dir = test_binary
        .parent()
        .and_then(Path::parent)
        .expect("a test binary lies in target/PROFILE/deps");
    let binary = profile_dir.join(format!("eudify{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: run the tests with `cargo test` at the workspace root (it builds the cli crate's binary too), or `cargo build -p eudify-cli` first",
        binary.display()
    );
    binary
}

pub fn eudify() -> Command {
    let mut command = Command::new(eudify_binary());
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Runs `eudify ARGS` with `stdin` as input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
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

/// The DEPS column of each word and empty-node line of CoNLL-U `output`, by column `key`
/// (0: ID, 1: FORM).
pub fn deps_by(output: &[u8], key: usize) -> std::collections::BTreeMap<String, String> {
    text(output)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[key].to_string(), cols[8].to_string())
        })
        .collect()
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

/// A sentence from compact lines `ID FORM LEMMA UPOS FEATS HEAD DEPREL` (whitespace-separated,
/// `_` for no features; blank lines skipped) → CoNLL-U with XPOS, DEPS and MISC `_`.
pub fn sentence(lines: &str) -> String {
    let mut out = String::new();
    for line in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let c: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(c.len(), 7, "ID FORM LEMMA UPOS FEATS HEAD DEPREL: {line}");
        out += &format!(
            "{}\t{}\t{}\t{}\t_\t{}\t{}\t{}\t_\t_\n",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6]
        );
    }
    out + "\n"
}

/// The enhancer of a profile (the embedded rules, resolved as `--lang` does), compiled once
/// per test binary: the behaviour tests share it instead of loading the rules per sentence.
pub fn enhancer(profile: &str) -> std::sync::Arc<eudify::Enhancer> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static ENHANCERS: OnceLock<Mutex<HashMap<String, Arc<eudify::Enhancer>>>> = OnceLock::new();
    let compiled = ENHANCERS.get_or_init(Default::default);
    if let Some(enhancer) = compiled.lock().unwrap().get(profile) {
        return enhancer.clone();
    }
    // Compiled outside the lock, so tests of other profiles go on meanwhile.
    let enhancer = Arc::new(
        eudify::Enhancer::for_profile(profile, None).unwrap_or_else(|e| panic!("{profile}: {e}")),
    );
    compiled
        .lock()
        .unwrap()
        .entry(profile.to_string())
        .or_insert(enhancer)
        .clone()
}

/// CoNLL-U `conllu` enhanced under `profile` through the library's front door, asserted to
/// succeed with nothing repaired and no runaway, and to give output `eudify validate` accepts.
pub fn enhance(profile: &str, conllu: &str) -> String {
    let (output, summary) = enhancer(profile)
        .enhance_str(conllu)
        .unwrap_or_else(|e| panic!("{profile}: {e}"));
    assert!(
        summary.repairs.is_empty() && summary.runaways == 0,
        "{profile}: {:?}, {} runaways",
        summary.repairs.by_kind(),
        summary.runaways
    );
    let report = eudify::validate::validate_reader("<output>", output.as_bytes()).unwrap();
    assert!(
        report.is_valid(),
        "{profile}: {:?}\n{output}",
        report.diagnostics
    );
    output
}

/// CoNLL-U bytes enhanced by `enhancer` through the public API on one thread, asserted to give
/// no runaway and no invalid sentence (the data-heavy tests read whole treebanks).
pub fn enhance_bytes(enhancer: &eudify::Enhancer, name: &str, input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / 4);
    let summary = enhancer
        .enhance_reader(input, &mut out, 1)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        summary.runaways == 0 && summary.copied_invalid == 0,
        "{name}: {} runaways, {} invalid sentences",
        summary.runaways,
        summary.copied_invalid
    );
    out
}

/// `ID DEPS` of each line of CoNLL-U `output` but comments, in order.
pub fn id_deps(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            format!("{} {}", c[0], c[8])
        })
        .collect()
}

/// Asserts that the compact sentence `lines` (see [`sentence`]) enhanced under `profile` gives
/// the `ID DEPS` lines of `expected`, as a rule's `expect` block states them: the words it
/// does not list may have any DEPS.
pub fn assert_enhances(profile: &str, lines: &str, expected: &str) {
    let output = enhance(profile, &sentence(lines));
    let got = id_deps(&output);
    for want in expected.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let id = want.split_whitespace().next().unwrap();
        let found = got.iter().find(|line| line.split(' ').next() == Some(id));
        assert_eq!(
            found.map(String::as_str),
            Some(want),
            "--lang {profile}, DEPS of {id}; all DEPS: {got:#?}\ninput:{lines}"
        );
    }
}

/// Tests that read like a rule's example and `expect` block: each case is a profile, a
/// sentence in compact lines (see [`sentence`]) and the `ID DEPS` lines it must give, run
/// through the whole profile by the public API ([`assert_enhances`]).
///
/// ```ignore
/// enhances! {
///     /// Why this holds.
///     fn name {
///         "en", "1 She she PRON _ 2 nsubj
///                2 sings sing VERB _ 0 root" => "1 2:nsubj";
///     }
/// }
/// ```
macro_rules! enhances {
    ($(
        $(#[$meta:meta])*
        fn $name:ident { $($profile:expr, $lines:expr => $expected:expr);+ $(;)? }
    )*) => {$(
        $(#[$meta])*
        #[test]
        fn $name() {
            $($crate::common::assert_enhances($profile, $lines, $expected);)+
        }
    )*};
}
pub(crate) use enhances;

/// A throwaway folder of files (`DIR/rules/...` for a rules folder), removed when dropped.
/// Named by the test's `name` and the process, so tests running at once do not meet.
pub struct TempTree(pub PathBuf);

impl TempTree {
    pub fn new(name: &str, files: &[(&str, &str)]) -> TempTree {
        let root = std::env::temp_dir().join(format!("eudify-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        TempTree(root)
    }

    /// `text` with this folder's path replaced by `DIR`.
    pub fn hide_path(&self, text: &str) -> String {
        text.replace(&self.0.display().to_string(), "DIR")
    }
}

impl Drop for TempTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The bad-input corpus, `tests/data/bad/*`, sorted: each file holds one invalid sentence.
pub fn bad_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 30,
        "the bad-input corpus shrank to {} files",
        files.len()
    );
    files
}

/// A file's name without its extension.
pub fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The test rules of `tests/data/engine_rules` (profiles made to exercise the engine).
pub const ENGINE_RULES: &str = "tests/data/engine_rules";

/// "She came and tried to stay", "She tried to sing and dance": control and coordination feed
/// each other (the `feeding*` profiles of [`ENGINE_RULES`]).
pub const FEEDING_SENTENCES: &str = "# sent_id = came_tried\n1\tShe\tshe\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tcame\tcome\tVERB\t_\t_\t0\troot\t_\t_\n\
    3\tand\tand\tCCONJ\t_\t_\t4\tcc\t_\t_\n4\ttried\ttry\tVERB\t_\t_\t2\tconj\t_\t_\n5\tto\tto\tPART\t_\t_\t6\tmark\t_\t_\n\
    6\tstay\tstay\tVERB\t_\t_\t4\txcomp\t_\t_\n\n\
    # sent_id = tried_sing_dance\n1\tShe\tshe\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\ttried\ttry\tVERB\t_\t_\t0\troot\t_\t_\n\
    3\tto\tto\tPART\t_\t_\t4\tmark\t_\t_\n4\tsing\tsing\tVERB\t_\t_\t2\txcomp\t_\t_\n5\tand\tand\tCCONJ\t_\t_\t6\tcc\t_\t_\n\
    6\tdance\tdance\tVERB\t_\t_\t4\tconj\t_\t_\n\n";

/// "I read books", for the `empty` and `whole` profiles of [`ENGINE_RULES`].
pub const I_READ_BOOKS: &str = "# sent_id = e\n1\tI\tI\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tread\tread\tVERB\t_\t_\t0\troot\t_\t_\n\
    3\tbooks\tbook\tNOUN\t_\t_\t2\tobj\t_\t_\n\n";

/// A valid sentence to wrap a bad one in.
pub const GOOD: &str =
    "# sent_id = good\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n";

/// [`GOOD`] + `bad` (+ [`GOOD`] when `bad` ends its sentence): a bad sentence among good ones.
pub fn wrapped_in_good_sentences(bad: &[u8]) -> Vec<u8> {
    let mut input = GOOD.as_bytes().to_vec();
    input.extend_from_slice(bad);
    // Appending after a file that does not end with a blank line would glue the two.
    if bad.ends_with(b"\n\n") || bad.ends_with(b"\r\n\r\n") {
        input.extend_from_slice(GOOD.as_bytes());
    }
    input
}
