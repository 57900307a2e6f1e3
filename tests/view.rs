//! `eudify view` as users call it: the page carries exactly the graphs `enhance` writes, with
//! the rule behind each edge and gold's verdict, nothing from the treebank becomes markup, and
//! bad input is `FILE:LINE: message` with exit code 1 and no page. What the page's script draws
//! from this model is tested in a real browser (python/tests/test_view_browser.py).

use crate::common::{run, text};
use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;

const SAMPLE: &str = "tests/data/sample.conllu";

/// A path for one test's page or file (tests run at once).
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("view-{name}"))
}

/// Runs `eudify view ARGS -o PAGE` and returns the page.
fn page(name: &str, args: &[&str]) -> String {
    let path = scratch(&format!("{name}.html"));
    let path = path.to_str().unwrap();
    let out = run(&[&["view"], args, &["-o", path]].concat(), b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read_to_string(path).unwrap()
}

/// The model a page carries, read as its script reads it: JSON, gzip-compressed, in base64.
fn model(page: &str) -> Value {
    let start = page
        .find("type=\"application/gzip\"")
        .expect("the data element");
    let data = &page[start + page[start..].find('>').unwrap() + 1..];
    let data = &data[..data.find("</script>").unwrap()];
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("{c:?} is no base64 digit"),
    };
    let mut gzip = Vec::new();
    for quad in data.trim_end_matches('=').as_bytes().chunks(4) {
        let n = quad
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | u32::from(digit(c)) << (18 - 6 * i));
        gzip.extend(&n.to_be_bytes()[1..quad.len()]);
    }
    let mut json = String::new();
    flate2::read::GzDecoder::new(&gzip[..])
        .read_to_string(&mut json)
        .unwrap();
    serde_json::from_str(&json).unwrap()
}

/// Per sentence of CoNLL-U text: its sent_id, its basic edges and its DEPS edges, each as
/// (head, dependent, label), sorted.
type Edges = Vec<(String, String, String)>;
fn graphs(conllu: &str) -> Vec<(String, Edges, Edges)> {
    let mut sentences = Vec::new();
    for block in conllu.split("\n\n").filter(|b| b.contains('\t')) {
        let (mut sent_id, mut basic, mut enhanced) = (String::new(), Vec::new(), Vec::new());
        for line in block.lines() {
            if let Some(id) = line.strip_prefix("# sent_id = ") {
                sent_id = id.to_string();
            }
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() != 10 || c[0].contains('-') {
                continue;
            }
            if !c[0].contains('.') {
                basic.push((c[6].to_string(), c[0].to_string(), c[7].to_string()));
            }
            for dep in c[8].split('|').filter(|d| *d != "_") {
                let (head, label) = dep.split_once(':').unwrap();
                enhanced.push((head.to_string(), c[0].to_string(), label.to_string()));
            }
        }
        basic.sort();
        enhanced.sort();
        sentences.push((sent_id, basic, enhanced));
    }
    sentences
}

/// A model's edges (arrays `[head, dep, label, …]`), sorted.
fn edges(list: &Value) -> Edges {
    let mut edges: Edges = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let field = |i: usize| e[i].as_str().unwrap().to_string();
            (field(0), field(1), field(2))
        })
        .collect();
    edges.sort();
    edges
}

#[test]
fn the_page_carries_the_graphs_enhance_writes_and_the_rule_behind_each_edge() {
    let page = page("sample", &["--lang", "en", SAMPLE]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Self-contained: nothing to fetch.
    for link in ["src=", "href=", "@import", "url(http"] {
        assert!(!page.contains(link), "the page links with {link}");
    }
    let enhanced = run(&["enhance", "--lang", "en", SAMPLE], b"");
    let expected = graphs(&text(&enhanced.stdout));
    let view = model(&page);
    assert_eq!(view["profile"], "en");
    let sentences = view["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), expected.len());
    for (s, (sent_id, basic, deps)) in sentences.iter().zip(&expected) {
        assert_eq!(s["sent_id"].as_str(), Some(sent_id.as_str()));
        assert_eq!(&edges(&s["basic"]), basic, "{sent_id}");
        assert_eq!(&edges(&s["enhanced"]), deps, "{sent_id}");
    }
    // Each edge a rule made or relabelled names it, with its source text.
    let rules = view["rules"].as_array().unwrap();
    let mut made = 0;
    for edge in sentences
        .iter()
        .flat_map(|s| s["enhanced"].as_array().unwrap())
    {
        match edge[3].as_str() {
            Some("c") => assert!(edge.get(6).is_none_or(Value::is_null), "{edge}"),
            Some("a" | "r") => {
                made += 1;
                let rule = &rules[edge[6].as_u64().unwrap() as usize];
                let source = rule["source"].as_str().unwrap();
                assert!(
                    source.starts_with(&format!("rule {}", rule["name"].as_str().unwrap())),
                    "{rule}"
                );
                assert!(rule["line"].as_u64().unwrap() > 0);
            }
            other => panic!("origin {other:?} in {edge}"),
        }
    }
    assert!(made > 5, "the sample has rule-made edges: {made}");
}

#[test]
fn without_lang_the_files_own_deps_are_drawn() {
    let enhanced = run(&["enhance", "--lang", "en", SAMPLE], b"");
    let file = scratch("own.conllu");
    std::fs::write(&file, &enhanced.stdout).unwrap();
    let view = model(&page("own", &[file.to_str().unwrap()]));
    assert!(view["profile"].is_null() && view["gold"].is_null());
    let expected = graphs(&text(&enhanced.stdout));
    for (s, (_, _, deps)) in view["sentences"].as_array().unwrap().iter().zip(&expected) {
        assert_eq!(&edges(&s["enhanced"]), deps);
        assert!(s["enhanced"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e[3].is_null()));
    }
}

#[test]
fn gold_marks_wrong_and_missing_edges_with_elas_per_sentence() {
    let enhanced = text(&run(&["enhance", "--lang", "en", SAMPLE], b"").stdout);
    // Gold says the controlled subject of s1 is a plain nsubj.
    let gold = enhanced.replacen("2:nsubj|4:nsubj:xsubj", "2:nsubj|4:nsubj", 1);
    assert_ne!(gold, enhanced);
    let file = scratch("gold.conllu");
    std::fs::write(&file, gold).unwrap();
    let view = model(&page(
        "gold",
        &["--lang", "en", "--gold", file.to_str().unwrap(), SAMPLE],
    ));
    let sentences = view["sentences"].as_array().unwrap();
    let s1 = &sentences[0];
    let status = |list: &Value, label: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|e| e[0] == "4" && e[1] == "1" && e[2] == label)
            .map(|e| e[4].clone())
    };
    assert_eq!(status(&s1["enhanced"], "nsubj:xsubj"), Some("w".into()));
    assert_eq!(status(&s1["missing"], "nsubj"), Some("m".into()));
    assert!(s1["elas"].as_f64().unwrap() < 100.0);
    assert!(sentences[1..].iter().all(|s| s["elas"] == 100.0));
    let scores = &view["scores"];
    assert_eq!(
        scores["elas"]["gold"],
        scores["elas"]["correct"].as_u64().unwrap() + 1
    );
    let wrong: u64 = scores["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wrong"].as_u64().unwrap())
        .sum();
    assert_eq!(wrong, 1);
}

#[test]
fn grep_marks_the_matches_grep_finds() {
    let pattern = "match { H =[nsubj:xsubj]=> S; }";
    let view = model(&page("grep", &["--lang", "en", "--grep", pattern, SAMPLE]));
    let count = run(&["grep", "--count", "--lang", "en", pattern, SAMPLE], b"");
    let matches = view["search"]["matches"].as_u64().unwrap();
    assert_eq!(matches.to_string(), text(&count.stdout).trim());
    assert!(matches > 0);
    let marked: usize = view["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["matches"].as_array().unwrap().len())
        .sum();
    assert_eq!(marked as u64, matches);
}

#[test]
fn nothing_from_the_treebank_becomes_markup() {
    let hostile = std::fs::read_to_string(SAMPLE)
        .unwrap()
        .replacen("s1", "</script><script>alert(1)</script>", 1)
        .replacen("\tShe\t", "\t<img src=x onerror=alert(2)>\t", 1);
    let file = scratch("hostile.conllu");
    std::fs::write(&file, hostile).unwrap();
    let page = page("hostile", &["--lang", "en", file.to_str().unwrap()]);
    assert!(!page.contains("alert"), "treebank text in the markup");
    let view = model(&page);
    assert_eq!(
        view["sentences"][0]["sent_id"],
        "</script><script>alert(1)</script>"
    );
    assert_eq!(
        view["sentences"][0]["words"][0][1],
        "<img src=x onerror=alert(2)>"
    );
}

#[test]
fn bad_input_is_file_line_exit_1_and_no_page() {
    let out_path = scratch("bad.html");
    let out = out_path.to_str().unwrap();
    let other_text = scratch("other.conllu");
    std::fs::write(
        &other_text,
        std::fs::read_to_string(SAMPLE)
            .unwrap()
            .replace("book", "books"),
    )
    .unwrap();
    let bad = "tests/data/bad/head_out_of_range.conllu";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![bad], "tests/data/bad/head_out_of_range.conllu:4: "),
        (
            vec!["--lang", "en", bad],
            "tests/data/bad/head_out_of_range.conllu:4: ",
        ),
        (
            vec![
                "--lang",
                "en",
                "--gold",
                other_text.to_str().unwrap(),
                SAMPLE,
            ],
            "tests/data/sample.conllu:",
        ),
        (vec!["--rules", "rules", SAMPLE], "--rules needs --lang"),
        (
            vec!["--grep", "match { H -[nsubjx]-> S; }", SAMPLE],
            "<pattern>:1:",
        ),
    ];
    for (args, message) in cases {
        let out_args = [&["view"], &args[..], &["-o", out]].concat();
        let result = run(&out_args, b"");
        let stderr = text(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!out_path.exists(), "{args:?} left a page");
    }
    let missing = run(&["view", "no/such.conllu", "-o", out], b"");
    assert_eq!(missing.status.code(), Some(2));
}
