//! Robustness of the reader, the parser and the pipeline: nothing panics, nothing is lost, and
//! the invariants hold on any input.
//!
//! - every file of the bad-input corpus, wrapped in valid sentences, goes through copy mode
//!   with every sentence kept and the bad one byte-identical;
//! - valid edge cases (CRLF/LF mix, comments after words, 10,000 and a million words)
//!   round-trip;
//! - property tests: arbitrary bytes never panic the reader/parser and lose no byte, whatever
//!   the buffer, thread count and chunk size; random valid trees round-trip exactly and keep
//!   every column but DEPS through the basic profile.
//!
//! The same inputs through the command line (its messages, exit codes, summary line) are in
//! tests/robustness.rs.

use super::common::{all_but_deps, bad_files, stem, text, wrapped_in_good_sentences};
use crate::conllu::{write_sentence, BlockReader, RawBlock, Sentence};
use crate::engine::Engine;
use crate::pipeline::{OnError, Pipeline, PipelineOptions, Summary};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::io::BufReader;

// ---------------------------------------------------------------------------------------------
// Helpers

/// A small deterministic generator, seeded by proptest (shrinking then works on the seed and
/// the sizes, which is enough to get a short failing input).
pub(super) struct Rng(pub u64);

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
pub(super) fn random_heads(rng: &mut Rng, n: usize) -> Vec<usize> {
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

/// The blocks of `input` as the reader splits them, read through a buffer of `capacity` bytes.
fn blocks_with_capacity(input: &[u8], capacity: usize) -> Vec<RawBlock> {
    let mut reader = BlockReader::new(BufReader::with_capacity(capacity, input));
    let mut out = Vec::new();
    let mut block = RawBlock::default();
    while reader
        .read_block(&mut block)
        .expect("reading from memory cannot fail")
    {
        out.push(block.clone());
    }
    out
}

fn blocks(input: &[u8]) -> Vec<RawBlock> {
    blocks_with_capacity(input, 1 << 16)
}

/// Parse and write back unchanged, block by block; blank blocks are copied.
fn round_trip(input: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for block in blocks(input) {
        if block.is_blank() {
            out.extend_from_slice(&block.bytes);
            continue;
        }
        let sentence = Sentence::parse(block).map_err(|e| e.1.to_string())?;
        write_sentence(&mut out, &sentence, None);
    }
    Ok(out)
}

struct Run {
    result: Result<Summary, String>,
    out: Vec<u8>,
    reports: Vec<String>,
}

fn enhance_with(pipeline: &Pipeline, input: &[u8]) -> Run {
    let mut out = Vec::new();
    let mut reports = Vec::new();
    let result = pipeline
        .run("in", input, &mut out, &mut |line| reports.push(line))
        .map_err(|e: crate::Error| e.to_string());
    Run {
        result,
        out,
        reports,
    }
}

fn basic_pipeline(
    enhancer: &Engine,
    threads: usize,
    chunk_bytes: usize,
    on_error: OnError,
) -> Pipeline<'_> {
    let options = PipelineOptions {
        on_error,
        threads,
        chunk_bytes,
    };
    Pipeline::new(enhancer, options).expect("thread pool")
}

fn non_blank(blocks: &[RawBlock]) -> usize {
    blocks.iter().filter(|b| !b.is_blank()).count()
}

// ---------------------------------------------------------------------------------------------
// The bad-input corpus

/// Copy mode over each bad file among good sentences, on 1 and 2
/// threads: one output block per input block, the bad block byte-identical, the good ones
/// enhanced with every other column unchanged, one report per bad block and a summary that
/// counts it.
#[test]
fn copy_mode_keeps_every_sentence_of_every_bad_file() {
    let enhancer = Engine::basic();
    let pipelines = [
        basic_pipeline(&enhancer, 1, 256 * 1024, OnError::Copy),
        basic_pipeline(&enhancer, 2, 64, OnError::Copy),
    ];
    for file in bad_files() {
        let name = stem(&file);
        let bad = std::fs::read(&file).unwrap();
        let input = wrapped_in_good_sentences(&bad);
        for pipeline in &pipelines {
            let run = enhance_with(pipeline, &input);
            let summary = run.result.unwrap_or_else(|e| panic!("{name}: {e}"));
            let ins = blocks(&input);
            let outs = blocks(&run.out);
            assert_eq!(ins.len(), outs.len(), "{name}: block count changed");
            let mut bad_blocks = 0;
            for (i, o) in ins.iter().zip(&outs) {
                if i.is_blank() {
                    assert_eq!(i.bytes, o.bytes, "{name}: blank lines changed");
                } else if Sentence::parse_ignoring_deps(i.clone()).is_err() {
                    bad_blocks += 1;
                    assert!(
                        i.bytes == o.bytes,
                        "{name}: the invalid sentence was not copied byte for byte"
                    );
                } else {
                    assert_eq!(
                        all_but_deps(&i.bytes),
                        all_but_deps(&o.bytes),
                        "{name}: a valid sentence changed"
                    );
                }
            }
            // Every corpus file holds exactly one invalid sentence.
            assert_eq!(bad_blocks, 1, "{name}");
            assert_eq!(run.reports.len(), 1, "{name}: {:?}", run.reports);
            assert!(
                run.reports[0].ends_with("(sentence copied unchanged)"),
                "{name}: {:?}",
                run.reports
            );
            assert_eq!(
                (summary.sentences, summary.copied_invalid),
                (non_blank(&ins), 1),
                "{name}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Valid edge cases

/// One sentence mixing CRLF and LF lines (files edited on two systems): read and written back
/// exactly (enhanced: tests/robustness.rs).
#[test]
fn crlf_and_lf_mixed_in_one_sentence_round_trip() {
    let input = b"# sent_id = 1\r\n# text = a b c\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\r\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\t_\n3\tc\tc\tX\t_\t_\t1\tdep\t1:dep\t_\r\n\n";
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

/// Regression: a CRLF file cut between its last CR and LF ends in a bare CR. The CR is the
/// line's terminator, not part of MISC, and it is kept.
#[test]
fn cr_ending_the_input_is_a_terminator() {
    let input = b"1\ta\ta\tX\t_\t_\t0\troot\t_\tSpaceAfter=No\r";
    let sentence = Sentence::parse(blocks(input).remove(0)).unwrap();
    assert_eq!(sentence.column(&sentence.words[0], 9), "SpaceAfter=No");
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

/// UD puts comments before the words; our reader takes a `#` line anywhere in the sentence as
/// verbatim text, so a comment after the words is kept exactly where it was (enhanced:
/// tests/robustness.rs).
#[test]
fn comment_after_the_words_is_kept_in_place() {
    let input =
        b"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n# between\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n# after\n\n";
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

/// NUL and other control characters inside FORM are not our business (the validator's): the
/// reader keeps them. Only their line structure matters to us.
#[test]
fn control_characters_inside_a_column_are_kept() {
    let input = b"1\ta\x00b\ta\x01\tX\t_\t_\t0\troot\t_\t_\n\n";
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

/// An empty node before the first word (`0.1`) may be named in DEPS.
#[test]
fn empty_node_before_the_first_word_round_trips() {
    let input = b"0.1\te\te\tX\t_\t_\t_\t_\t0:root\t_\n1\ta\ta\tX\t_\t_\t0\troot\t0.1:dep\t_\n\n";
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

/// Regression for the MWT checks: adjacent ranges are fine, a range ending on the last word is.
#[test]
fn adjacent_multiword_tokens_ending_on_the_last_word_are_valid() {
    let input = b"1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n3-4\tcd\t_\t_\t_\t_\t_\t_\t_\t_\n3\tc\tc\tX\t_\t_\t1\tdep\t_\t_\n4\td\td\tX\t_\t_\t1\tdep\t_\t_\n";
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

/// The MWT checks read the range from the line, which may start with the input's BOM.
#[test]
fn multiword_token_on_the_first_line_after_a_bom_is_valid() {
    let input = b"\xEF\xBB\xBF1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n";
    assert_eq!(round_trip(input).unwrap(), input.to_vec());
}

fn long_sentence(n: u32, head: impl Fn(u32) -> u32) -> Vec<u8> {
    let mut s = String::from("# sent_id = long\n");
    for i in 1..=n {
        let h = head(i);
        let rel = if h == 0 { "root" } else { "dep" };
        s.push_str(&format!("{i}\tw{i}\tw{i}\tX\t_\t_\t{h}\t{rel}\t_\t_\n"));
    }
    s.push('\n');
    s.into_bytes()
}

/// 10,000 words as a chain (depth 10,000: no recursion may follow the tree) and as a star
/// (one node with 9,999 children). Both must round-trip and enhance.
#[test]
fn ten_thousand_word_sentences_round_trip_and_enhance() {
    let enhancer = Engine::basic();
    let pipeline = basic_pipeline(&enhancer, 1, 512, OnError::Fail);
    for input in [
        long_sentence(10_000, |i| i - 1),
        long_sentence(10_000, |i| u32::from(i != 1)),
    ] {
        assert!(round_trip(&input).unwrap() == input);
        let run = enhance_with(&pipeline, &input);
        let summary = run.result.unwrap();
        assert_eq!((summary.sentences, summary.words), (1, 10_000));
        assert_eq!(all_but_deps(&run.out), all_but_deps(&input));
        let last = text(&run.out).lines().nth(10_000).unwrap().to_string();
        assert!(
            last.starts_with("10000\t") && last.contains("\tdep\t") && last.ends_with(":dep\t_"),
            "{last}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The reader: block boundaries

/// Regression: the reader used to peek at its input's buffer to see whether a blank line
/// followed, so a `\r\n` split across two buffer fills started the next block with a blank line.
/// Blocks must not depend on how the input is buffered.
#[test]
fn block_boundaries_do_not_depend_on_buffer_size() {
    let input =
        b"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\r\n\r\n\r\n1\tb\tb\tX\t_\t_\t0\troot\t_\t_\r\n\r\n";
    let whole: Vec<Vec<u8>> = blocks(input).into_iter().map(|b| b.bytes).collect();
    assert_eq!(whole.len(), 2);
    for capacity in 1..input.len() {
        let split: Vec<_> = blocks_with_capacity(input, capacity)
            .into_iter()
            .map(|b| (b.first_line, b.bytes))
            .collect();
        assert_eq!(
            split,
            vec![(1, whole[0].clone()), (4, whole[1].clone())],
            "buffer of {capacity} bytes"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests

fn runner(cases: u32) -> TestRunner {
    // No persistence files: failures print the minimal input, which goes into a regression test.
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Bytes that matter to the format, so random strings hit its structure often.
fn structured_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => prop::sample::select(b"\t\n\r0123456789-._#:|= ".to_vec()),
        2 => prop::sample::select(b"abX".to_vec()),
        1 => prop::sample::select(vec![0u8, 0xEF, 0xBB, 0xBF, 0xC3, 0xA9, 0xFF, 0x80]),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..300)
}

/// Everything the reader, the parser and the pipeline promise on any input.
fn check_any_input(
    input: &[u8],
    capacity: usize,
    pipelines: &[Pipeline],
) -> Result<(), TestCaseError> {
    let ins = blocks(input);
    // Nothing lost or invented by the reader, however the input is buffered.
    prop_assert_eq!(
        ins.iter()
            .flat_map(|b| b.bytes.clone())
            .collect::<Vec<u8>>(),
        input.to_vec()
    );
    let split = blocks_with_capacity(input, capacity);
    prop_assert_eq!(
        split
            .iter()
            .map(|b| (b.first_line, &b.bytes))
            .collect::<Vec<_>>(),
        ins.iter()
            .map(|b| (b.first_line, &b.bytes))
            .collect::<Vec<_>>()
    );
    let mut bad = 0;
    for block in &ins {
        if block.is_blank() {
            continue;
        }
        let lines = block.bytes.split(|&b| b == b'\n').count();
        // `enhance` ignores DEPS; `Sentence::parse` (validate, eval) checks them too.
        bad += usize::from(Sentence::parse_ignoring_deps(block.clone()).is_err());
        match Sentence::parse(block.clone()) {
            Ok(sentence) => {
                let mut out = Vec::new();
                write_sentence(&mut out, &sentence, None);
                prop_assert_eq!(out, block.bytes.clone());
            }
            Err(failed) => {
                let (back, error) = *failed;
                prop_assert_eq!(
                    &back.bytes,
                    &block.bytes,
                    "a failed parse must hand the block back"
                );
                prop_assert!(
                    (block.first_line..block.first_line + lines).contains(&error.line),
                    "{}",
                    error
                );
            }
        }
    }
    let mut outputs = Vec::new();
    for pipeline in pipelines {
        let run = enhance_with(pipeline, input);
        let summary = run.result.map_err(TestCaseError::fail)?;
        prop_assert_eq!(summary.copied_invalid, bad);
        prop_assert_eq!(run.reports.len(), bad);
        prop_assert_eq!(summary.sentences, non_blank(&ins));
        let outs = blocks(&run.out);
        prop_assert_eq!(outs.len(), ins.len());
        for (i, o) in ins.iter().zip(&outs) {
            match Sentence::parse_ignoring_deps(i.clone()) {
                Err(_) => prop_assert_eq!(&i.bytes, &o.bytes),
                Ok(_) => prop_assert_eq!(all_but_deps(&i.bytes), all_but_deps(&o.bytes)),
            }
        }
        outputs.push(run.out);
    }
    prop_assert!(
        outputs.windows(2).all(|w| w[0] == w[1]),
        "thread count changed the output"
    );
    Ok(())
}

fn copy_pipelines(enhancer: &Engine) -> Vec<Pipeline<'_>> {
    vec![
        basic_pipeline(enhancer, 1, 1, OnError::Copy),
        basic_pipeline(enhancer, 2, 3, OnError::Copy),
    ]
}

#[test]
fn random_bytes_never_panic_and_lose_nothing() {
    let enhancer = Engine::basic();
    let pipelines = copy_pipelines(&enhancer);
    let strategy = (
        prop_oneof![
            structured_bytes(),
            prop::collection::vec(any::<u8>(), 0..200)
        ],
        prop_oneof![1..4usize, 1..40usize],
    );
    runner(1000)
        .run(&strategy, |(input, capacity)| {
            check_any_input(&input, capacity, &pipelines)
        })
        .unwrap();
}

/// Damage done to a valid file, one edit at a time.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteColumn(usize),
    TabToSpace(usize),
    SpaceToTab(usize),
    InsertByte(usize, u8),
    InsertChar(usize, char),
    InsertCr(usize),
    DeleteByte(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        at.prop_map(Mutation::DeleteColumn),
        at.prop_map(Mutation::TabToSpace),
        at.prop_map(Mutation::SpaceToTab),
        (at, any::<u8>()).prop_map(|(i, b)| Mutation::InsertByte(i, b)),
        (at, any::<char>()).prop_map(|(i, c)| Mutation::InsertChar(i, c)),
        at.prop_map(Mutation::InsertCr),
        at.prop_map(Mutation::DeleteByte),
        at.prop_map(Mutation::DuplicateLine),
        (at, at).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
        at.prop_map(Mutation::Truncate),
    ]
}

fn apply(input: &mut Vec<u8>, m: &Mutation) {
    let len = input.len().max(1);
    let nth = |bytes: &[u8], b: u8, i: usize| -> Option<usize> {
        let hits: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, &x)| x == b)
            .map(|(k, _)| k)
            .collect();
        (!hits.is_empty()).then(|| hits[i % hits.len()])
    };
    match *m {
        Mutation::DeleteColumn(i) => {
            if let Some(tab) = nth(input, b'\t', i) {
                let end = input[tab + 1..]
                    .iter()
                    .position(|&b| b == b'\t' || b == b'\n')
                    .map_or(input.len(), |p| tab + 1 + p);
                input.drain(tab..end);
            }
        }
        Mutation::TabToSpace(i) => {
            if let Some(k) = nth(input, b'\t', i) {
                input[k] = b' ';
            }
        }
        Mutation::SpaceToTab(i) => {
            if let Some(k) = nth(input, b' ', i) {
                input[k] = b'\t';
            }
        }
        Mutation::InsertByte(i, b) => input.insert(i % (input.len() + 1), b),
        Mutation::InsertChar(i, c) => {
            let at = i % (input.len() + 1);
            let mut buf = [0u8; 4];
            input.splice(at..at, c.encode_utf8(&mut buf).bytes());
        }
        Mutation::InsertCr(i) => input.insert(i % (input.len() + 1), b'\r'),
        Mutation::DeleteByte(i) => {
            if !input.is_empty() {
                input.remove(i % len);
            }
        }
        Mutation::DuplicateLine(i) | Mutation::SwapLines(i, _) => {
            let mut lines: Vec<Vec<u8>> = input
                .split_inclusive(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .collect();
            if !lines.is_empty() {
                let a = i % lines.len();
                if let Mutation::SwapLines(_, j) = *m {
                    let b = j % lines.len();
                    lines.swap(a, b);
                } else {
                    lines.insert(a, lines[a].clone());
                }
                *input = lines.concat();
            }
        }
        Mutation::Truncate(i) => input.truncate(i % len),
    }
}

#[test]
fn mutated_valid_input_never_panics_and_loses_nothing() {
    let enhancer = Engine::basic();
    let pipelines = copy_pipelines(&enhancer);
    let strategy = (
        valid_input(),
        prop::collection::vec(mutation(), 1..4),
        1..40usize,
    );
    runner(400)
        .run(&strategy, |((input, _), mutations, capacity)| {
            let mut input = input;
            for m in &mutations {
                apply(&mut input, m);
            }
            check_any_input(&input, capacity, &pipelines)
        })
        .unwrap();
}

const FORMS: &[&str] = &[
    "a",
    "Dog",
    "ü",
    "日本",
    "a b",
    "#x",
    "_",
    "1-2",
    "'",
    "\u{feff}x",
    "\\",
];
const LABELS: &[&str] = &[
    "nsubj",
    "obj",
    "obl:tmod",
    "nmod:poss",
    "amod",
    "conj",
    "cc",
    "punct",
    "dep",
    "acl:relcl",
];

/// A line terminator: LF, or now and then CRLF (mixed within a sentence).
fn end(rng: &mut Rng) -> &'static str {
    if rng.chance(30) {
        "\r\n"
    } else {
        "\n"
    }
}

/// One valid sentence of `n` words: a random tree, optional multiword tokens and empty nodes,
/// LF or CRLF per line. `last` sentences may end without a blank line or without any newline.
fn valid_sentence(rng: &mut Rng, index: usize, n: usize, last: bool) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut ends: Vec<&str> = Vec::new();
    let push = |lines: &mut Vec<String>, ends: &mut Vec<&str>, line: String, e: &'static str| {
        lines.push(line);
        ends.push(e);
    };
    // Heads: a random order of the words; each word after the first hangs on an earlier one.
    let head = random_heads(rng, n);
    let mut rels = vec![""; n + 1];
    for w in 1..=n {
        rels[w] = if head[w] == 0 {
            "root"
        } else {
            rng.pick(LABELS)
        };
    }
    // Empty nodes after word w (w = 0: before the first word).
    let empties: Vec<usize> = (0..=n)
        .map(|_| if rng.chance(10) { 1 + rng.below(2) } else { 0 })
        .collect();
    if rng.chance(80) {
        push(
            &mut lines,
            &mut ends,
            format!("# sent_id = s{index}"),
            end(rng),
        );
    }
    if rng.chance(50) {
        push(
            &mut lines,
            &mut ends,
            "# text = whatever = it says".into(),
            end(rng),
        );
    }
    let empty_line = |w: usize, k: usize, rng: &mut Rng| {
        let dep = rng.below(n + 1);
        format!(
            "{w}.{k}\t{f}\t{f}\tX\t_\t_\t_\t_\t{dep}:{l}\t_",
            f = rng.pick(FORMS),
            l = rng.pick(LABELS)
        )
    };
    for k in 1..=empties[0] {
        let line = empty_line(0, k, rng);
        push(&mut lines, &mut ends, line, end(rng));
    }
    let mut mwt_until = 0;
    for w in 1..=n {
        if w > mwt_until && w < n && rng.chance(15) {
            mwt_until = (w + 1 + rng.below(2)).min(n);
            push(
                &mut lines,
                &mut ends,
                format!(
                    "{w}-{mwt_until}\t{}\t_\t_\t_\t_\t_\t_\t_\t_",
                    rng.pick(FORMS)
                ),
                end(rng),
            );
        }
        let deps = match rng.below(3) {
            0 => "_".to_string(),
            1 => format!("{}:{}", head[w], rels[w]),
            _ if empties[0] > 0 => format!("0.1:dep|{}:{}", head[w], rels[w]),
            _ => format!("{}:{}|{}:conj", head[w], rels[w], rng.below(n + 1)),
        };
        let feats = if rng.chance(50) {
            "_"
        } else {
            "Case=Nom|Number=Sing"
        };
        let misc = if rng.chance(70) { "_" } else { "SpaceAfter=No" };
        let f = rng.pick(FORMS);
        let line = format!(
            "{w}\t{f}\t{f}\tNOUN\t_\t{feats}\t{}\t{}\t{deps}\t{misc}",
            head[w], rels[w]
        );
        push(&mut lines, &mut ends, line, end(rng));
        for k in 1..=empties[w] {
            let line = empty_line(w, k, rng);
            push(&mut lines, &mut ends, line, end(rng));
        }
        if rng.chance(3) {
            push(
                &mut lines,
                &mut ends,
                "# a comment among the words".into(),
                end(rng),
            );
        }
    }
    let mut s = String::new();
    for (line, e) in lines.iter().zip(&ends) {
        s.push_str(line);
        s.push_str(e);
    }
    let last_is_word = empties[n] == 0 && !lines.last().unwrap().starts_with('#');
    match (last, rng.below(3)) {
        // No final newline: only when the last line is a word, whose terminator the basic
        // profile keeps (a dropped last empty node would leave the word's newline).
        (true, 0) if last_is_word => {
            let e = ends.last().unwrap();
            s.truncate(s.len() - e.len());
        }
        (true, 1) => {}
        _ => s.push_str(end(rng)),
    }
    s
}

/// One to four valid sentences and their count.
fn valid_input() -> impl Strategy<Value = (Vec<u8>, usize)> {
    (1..=4usize, 1..=25usize, any::<u64>()).prop_map(|(sentences, max_words, seed)| {
        let mut rng = Rng(seed | 1);
        let mut s = String::new();
        for i in 0..sentences {
            let n = 1 + rng.below(max_words);
            s.push_str(&valid_sentence(&mut rng, i, n, i + 1 == sentences));
        }
        (s.into_bytes(), sentences)
    })
}

#[test]
fn random_valid_trees_round_trip_and_keep_all_but_deps() {
    let enhancer = Engine::basic();
    let one = basic_pipeline(&enhancer, 1, 2, OnError::Fail);
    let two = basic_pipeline(&enhancer, 2, 1, OnError::Fail);
    runner(500)
        .run(&valid_input(), |(input, sentences)| {
            let back = round_trip(&input).map_err(TestCaseError::fail)?;
            prop_assert!(back == input, "round trip changed the input");
            let a = enhance_with(&one, &input);
            let b = enhance_with(&two, &input);
            let summary = a.result.map_err(TestCaseError::fail)?;
            prop_assert_eq!(summary.sentences, sentences);
            prop_assert_eq!(summary.copied_invalid, 0);
            prop_assert!(a.out == b.out, "1 and 2 threads disagree");
            prop_assert_eq!(all_but_deps(&input), all_but_deps(&a.out));
            // The basic profile's DEPS is HEAD:DEPREL, and the output parses again.
            for block in blocks(&a.out).into_iter().filter(|b| !b.is_blank()) {
                let s = Sentence::parse(block).map_err(|e| TestCaseError::fail(e.1.to_string()))?;
                prop_assert!(s.empty_nodes.is_empty());
                for w in &s.words {
                    let expected = format!("{}:{}", s.column(w, 6), s.column(w, 7));
                    prop_assert_eq!(s.column(w, 8), expected.as_str());
                }
            }
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------------------------
// What enhance ignores, and long blocks

/// A sentence of a million words (a branching tree, each word under half its number or the word
/// before) is read and enhanced whole. Its time is not asserted: 1 s in a release build, where
/// reading alone used to take over a minute (the search for a chunk's end was quadratic).
#[test]
fn a_million_word_sentence_is_enhanced() {
    let n = 1_000_000;
    let input = long_sentence(n, |i| if i % 3 == 0 { i - 1 } else { i / 2 });
    let enhancer = Engine::basic();
    let mut pipeline = basic_pipeline(&enhancer, 2, 256 * 1024, OnError::Fail);
    // Past the default caps (16 MiB, 500,000 lines): raised, as `--max-sentence-bytes` does.
    pipeline.set_limits(crate::conllu::Limits::NONE);
    let run = enhance_with(&pipeline, &input);
    let summary = run.result.unwrap();
    assert_eq!((summary.sentences, summary.words), (1, n as usize));
    assert!(all_but_deps(&run.out) == all_but_deps(&input));
    let last = text(&run.out).lines().nth(n as usize).unwrap().to_string();
    assert_eq!(
        last,
        "1000000\tw1000000\tw1000000\tX\t_\t_\t500000\tdep\t500000:dep\t_"
    );
}
