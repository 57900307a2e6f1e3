//! User rule folders whose searches may grow as a high power of the sentence: the input's bytes
//! choose a match block (up to 8 variables, 10 edges, most of them `-[*]->` and other wide
//! labels, descents, enhanced edges, order and agreement tests, `without` blocks), a rule that
//! `check` accepts is run on a 60-word sentence (a wide flat head and a deep chain), and each
//! input must finish within a time bound: the search budget, lowered here to keep runs fast,
//! stops what the rule's search does not. (A slow input is a finding: work the budget does not
//! count.)
#![no_main]

mod common;

use eudify::conllu::{BlockReader, EnhancedLayer, RawBlock, Sentence};
use eudify::engine::WorkBudget;
use eudify::rules::load::check_text;
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Candidates per word: 70 × 60 words, 4,200 bindings a sentence (the default is 10,000 per
/// word); an input's time is then the budget's plus what a candidate costs beyond it.
const PER_WORD: u64 = 70;
/// Far above what the budget allows (a few milliseconds): passing it means uncounted work.
const TIME_BOUND: Duration = Duration::from_secs(1);

const LABELS: [&str; 12] = [
    "*",
    "*",
    "*",
    "!punct",
    "!(acl|advcl)",
    "dep",
    "obj",
    "nsubj",
    "conj",
    "case",
    "amod|nmod",
    "obl:*",
];

/// A 60-word sentence: word 1 the root with 30 dependents of a few relations, then a chain of
/// 29 words, each the `dep` of the one before; Case and Number on every other word.
fn sentence() -> &'static Sentence {
    static SENTENCE: OnceLock<Sentence> = OnceLock::new();
    SENTENCE.get_or_init(|| {
        let rels = [
            "obj", "nsubj", "conj", "case", "amod", "obl", "punct", "dep",
        ];
        let mut text = String::new();
        for id in 1..=60usize {
            let (head, rel) = match id {
                1 => (0, "root"),
                2..=31 => (1, rels[id % rels.len()]),
                _ => (id - 1, "dep"),
            };
            let feats = if id % 2 == 0 {
                "Case=Nom|Number=Sing"
            } else {
                "_"
            };
            let upos = ["NOUN", "VERB", "ADJ", "ADP"][id % 4];
            writeln!(
                text,
                "{id}\tw{id}\tw\t{upos}\t_\t{feats}\t{head}\t{rel}\t_\t_"
            )
            .unwrap();
        }
        text.push('\n');
        let mut reader = BlockReader::new(text.as_bytes());
        let mut block = RawBlock::default();
        assert!(reader.read_block(&mut block).unwrap());
        Sentence::parse(block).expect("the fixed sentence is valid")
    })
}

/// The rule text the bytes choose (each byte read once, in order; zeros past the end).
fn rule_text(data: &[u8]) -> String {
    let mut bytes = data.iter().copied().chain(std::iter::repeat(0));
    let mut next = move || bytes.next().unwrap_or(0) as usize;
    let vars = 2 + next() % 7;
    let name = |v: usize| ["H", "A", "B", "C", "D", "E", "F", "G"][v];
    let mut block = String::new();
    // A tree of edges first (variable v from an earlier one): every block is connected.
    for v in 1..vars {
        let from = next() % v;
        edge(&mut block, name(from), name(v), next(), next());
    }
    for _ in 0..next() % 3 {
        let (a, b) = (next() % vars, next() % vars);
        if a != b {
            edge(&mut block, name(a), name(b), next(), next());
        }
    }
    for _ in 0..next() % 4 {
        let (a, b) = (next() % vars, next() % vars);
        if a == b {
            continue;
        }
        let test = match next() % 5 {
            0 => format!("{} << {};", name(a), name(b)),
            1 => format!("{} < {};", name(a), name(b)),
            2 => format!("{} << subtree({});", name(a), name(b)),
            3 => format!("{}.Case == {}.Case;", name(a), name(b)),
            _ => format!("{}.Number != {}.Number;", name(a), name(b)),
        };
        block.push_str(&test);
        block.push(' ');
    }
    if next() % 4 == 0 {
        let v = next() % vars;
        writeln!(
            block,
            "{} [upos={}];",
            name(v),
            ["NOUN", "VERB", "ADJ"][next() % 3]
        )
        .unwrap();
    }
    let mut rule = format!("phase fuzz\nrule r {{\n  match {{ {block} }}\n");
    if next() % 3 == 0 {
        let (v, label) = (next() % vars, LABELS[next() % LABELS.len()]);
        writeln!(
            rule,
            "  without {{ {} -[{label}]-> W;  W << {}; }}",
            name(v),
            name(v)
        )
        .unwrap();
    }
    let (a, b) = (next() % vars, (1 + next() % (vars - 1)));
    let b = if a == b { 0 } else { b };
    writeln!(rule, "  do {{ add {} =[dep]=> {}; }}\n}}", name(a), name(b)).unwrap();
    rule
}

/// One pattern edge: basic, enhanced or a descent, with a label most often wide.
fn edge(block: &mut String, from: &str, to: &str, kind: usize, label: usize) {
    let label = LABELS[label % LABELS.len()];
    let arrow = match kind % 6 {
        0 => format!("=[{label}]=>"),
        1 => format!("-[{label}]->+"),
        2 => format!("-[{label}]->{{1,3}}"),
        _ => format!("-[{label}]->"),
    };
    write!(block, "{from} {arrow} {to};  ").unwrap();
}

fuzz_target!(|data: &[u8]| {
    let text = rule_text(data);
    let Ok(rules) = check_text("fuzz.rules", &text, common::lexicon()) else {
        return;
    };
    let mut engine = common::engine_of(rules);
    engine.work_budget = WorkBudget { per_word: PER_WORD };
    let mut layer = EnhancedLayer::default();
    let start = Instant::now();
    // A runaway is a fine outcome; a panic, or an input past the time bound, is not.
    let _ = engine.enhance(sentence(), &mut layer);
    let took = start.elapsed();
    assert!(took < TIME_BOUND, "{took:?} for\n{text}");
});
