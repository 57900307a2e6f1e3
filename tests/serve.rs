//! `eudify view --serve`: the live server through the binary and plain HTTP requests. It serves
//! the page, its live status and the files named on the command line, nothing else, to no
//! other host; an edit of a rule file is a new version with what it changed, a rule with an
//! error is its caret diagnostic, and the fix is a new version again. (The page in a browser:
//! python/tests/test_view_serve.py.)

use super::common::eudify;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

/// A sentence whose `obl` the universal rule `case_label` relabels `obl:to`.
const SENTENCE: &str = "# sent_id = s1\n# text = go to Prague\n\
1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n\
2\tto\tto\tADP\t_\t_\t3\tcase\t_\t_\n\
3\tPrague\tPrague\tPROPN\t_\t_\t1\tobl\t_\t_\n\n";

/// The `case_label` rule's label, as `eudify rules export` writes it, and an edit of it.
const LABEL: &str = "as \"{e.label}:{marker(C)}{?feat(N, Case)";
const EDITED_LABEL: &str = "as \"{e.label}:x{marker(C)}{?feat(N, Case)";

/// A running `eudify view --serve`, stopped when dropped.
struct Served {
    child: Child,
    port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Starts `eudify view --serve --port 0 ARGS` and reads the address it prints.
    fn start(args: &[&str]) -> Served {
        let mut child = eudify()
            .args(["view", "--serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("eudify runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Served { child, port }
    }

    /// `METHOD PATH` with `Host: HOST`: the status code and the body.
    fn request_as(&self, method: &str, path: &str, host: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap();
        (code, body.to_string())
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request_as("GET", path, &format!("127.0.0.1:{}", self.port))
    }

    fn status(&self, path: &str) -> serde_json::Value {
        let (code, body) = self.get(path);
        assert_eq!(code, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// The next version after `after` (the server answers a long poll at the latest after 20 s
    /// with the version it has: waited for three times).
    fn next_version(&self, after: u64) -> serde_json::Value {
        for _ in 0..3 {
            let status = self.status(&format!("/live/wait?after={after}"));
            if status["version"].as_u64().unwrap() > after {
                return status;
            }
        }
        panic!("no version after {after}");
    }
}

/// A folder with the embedded rules exported and the sentence as `in.conllu`.
fn workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    let export = eudify()
        .args(["rules", "export"])
        .arg(&rules)
        .output()
        .unwrap();
    assert!(export.status.success(), "{export:?}");
    let input = dir.path().join("in.conllu");
    std::fs::write(&input, SENTENCE).unwrap();
    (dir, rules, input)
}

/// The model the page draws, as its data element holds it (however it is encoded).
fn drawn_model(page: &str) -> String {
    let start = page
        .find("id=\"eudify-view-data\">")
        .unwrap_or_else(|| panic!("no model in {page}"));
    let data = &page[start..];
    data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()].to_string()
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{} lacks {from:?}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn it_serves_the_page_and_the_named_files_only_and_to_its_own_host_only() {
    let (dir, _, input) = workspace();
    let served = Served::start(&["--lang", "en", input.to_str().unwrap()]);
    let (code, page) = served.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("eudify-live-status"), "{page}");
    assert!(!drawn_model(&page).is_empty(), "{page}");
    // The page's policy lets the live script ask its own server, and nothing else.
    assert!(page.contains("default-src 'none'; connect-src 'self';"));
    assert_eq!(served.get("/files/in.conllu"), (200, SENTENCE.to_string()));
    let status = served.status("/live/status");
    assert_eq!(
        (status["version"].as_u64(), status["error"].as_str()),
        (Some(1), None)
    );
    std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
    for path in [
        "/files/secret.txt",
        "/files/../secret.txt",
        "/files/%2e%2e/secret.txt",
        "/../secret.txt",
        "/secret.txt",
        "/files/",
        "/files",
        "/index.html",
        "/etc/passwd",
        "/files/in.conllu/",
    ] {
        let (code, body) = served.get(path);
        assert_eq!(code, 404, "{path}: {body}");
    }
    // Another site's page whose name points to 127.0.0.1 (DNS rebinding) sends its own Host.
    for host in ["evil.example", "evil.example:80", "127.0.0.1", ""] {
        assert_eq!(served.request_as("GET", "/", host).0, 403, "Host: {host}");
    }
    let localhost = format!("localhost:{}", served.port);
    assert_eq!(served.request_as("GET", "/", &localhost).0, 200);
    assert_eq!(
        served
            .request_as("POST", "/", &format!("127.0.0.1:{}", served.port))
            .0,
        405
    );
}

#[test]
fn an_edited_rule_is_a_new_version_a_broken_one_its_diagnostic_and_the_fix_recovers() {
    let (_dir, rules, input) = workspace();
    let served = Served::start(&[
        "--lang",
        "en",
        "--rules",
        rules.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let first = served.status("/live/status");
    let first_model = drawn_model(&served.get("/").1);
    let rule_file = rules.join("universal/case.rules");

    edit(&rule_file, LABEL, EDITED_LABEL);
    let edited = served.next_version(first["version"].as_u64().unwrap());
    assert_eq!(edited["error"], serde_json::Value::Null, "{edited}");
    assert_ne!(edited["page_version"], first["page_version"]);
    let changes = &edited["changes"];
    assert_eq!(
        (changes["gained"].as_u64(), changes["lost"].as_u64()),
        (Some(1), Some(1)),
        "{changes}"
    );
    let sentence = &changes["sentences"][0];
    assert_eq!(sentence["sent_id"], "s1");
    assert_eq!(sentence["gained"][0]["label"], "obl:xto");
    assert_eq!(sentence["lost"][0]["label"], "obl:to");
    assert_eq!(changes["by_rule"][0]["rule"], "case_label");
    let edited_model = drawn_model(&served.get("/").1);
    assert_ne!(edited_model, first_model);

    edit(&rule_file, "rule case_label {", "rule case_label { XX YY");
    let broken = served.next_version(edited["version"].as_u64().unwrap());
    let error = broken["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{broken}"));
    assert!(
        error.contains("case.rules:") && error.contains("error:") && error.contains('^'),
        "{error}"
    );
    // The last good drawing stays, with the diagnostic over it.
    assert_eq!(broken["page_version"], edited["page_version"]);
    assert_eq!(drawn_model(&served.get("/").1), edited_model);

    edit(&rule_file, "rule case_label { XX YY", "rule case_label {");
    edit(&rule_file, EDITED_LABEL, LABEL);
    let mut fixed = served.next_version(broken["version"].as_u64().unwrap());
    // The two edits may come as two versions: the first still broken or already fixed.
    if fixed["page_version"] == edited["page_version"] {
        fixed = served.next_version(fixed["version"].as_u64().unwrap());
    }
    assert_eq!(fixed["error"], serde_json::Value::Null, "{fixed}");
    assert_eq!(
        fixed["changes"]["sentences"][0]["gained"][0]["label"],
        "obl:to"
    );
}

#[test]
fn an_input_with_an_error_is_its_file_and_line_until_it_is_fixed() {
    let (_dir, _, input) = workspace();
    let served = Served::start(&["--lang", "en", input.to_str().unwrap()]);
    let first = served.status("/live/status");
    let bad = SENTENCE.replace("1\tobl", "7\tobl");
    std::fs::write(&input, &bad).unwrap();
    let broken = served.next_version(first["version"].as_u64().unwrap());
    let error = broken["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{broken}"));
    assert!(error.contains("in.conllu:5: "), "{error}");
    std::fs::write(&input, SENTENCE).unwrap();
    let fixed = served.next_version(broken["version"].as_u64().unwrap());
    assert_eq!(fixed["error"], serde_json::Value::Null, "{fixed}");
}

#[test]
fn serve_refuses_stdin_and_a_busy_port_is_an_error() {
    let output = eudify()
        .args(["view", "--serve", "--port", "0", "-"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let (_dir, _, input) = workspace();
    let served = Served::start(&[input.to_str().unwrap()]);
    let output = eudify()
        .args(["view", "--serve", "--port", &served.port.to_string()])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot listen on 127.0.0.1:"), "{stderr}");
}
