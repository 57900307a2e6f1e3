//! Throughput benchmark: `cargo bench --bench throughput [-- PROFILE...]` (default: en cs).
//!
//! Builds a ≥ 500k-token input from the shared dev treebanks (DEPS stripped, empty nodes
//! dropped, as a parser would give it), then reports tokens/s of
//! - `read+write`: parse every sentence and write it back unchanged (the floor), and
//! - `enhance`: read → the given profile(s) → write, on one thread and on all threads,
//!
//! with the ratio of each to the floor, to `basic` and of all threads to one (best rounds, and in
//! brackets the median of the ratios within a round), then each profile's ratio to `basic` from
//! paired runs over pieces of the input (steadier on a shared machine). Reports figures; asserts
//! nothing about time. For single-core figures on a busy machine, pin it: `taskset -c 0 target/release/deps/throughput-*`.

use eudify::conllu::{write_sentence, BlockReader, RawBlock, Sentence};
use eudify::engine::Engine;
use eudify::pipeline::{Pipeline, PipelineOptions};
use std::path::Path;
use std::time::{Duration, Instant};

const MIN_TOKENS: usize = 500_000;
const RUNS: usize = 9;

fn build_input() -> (Vec<u8>, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/ud");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("../shared/data/ud")
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    let mut out = Vec::new();
    let mut tokens = 0;
    while tokens < MIN_TOKENS {
        for dir in &dirs {
            let Ok(text) = std::fs::read_to_string(dir.join("dev.conllu")) else {
                continue;
            };
            for line in text.lines() {
                let cols: Vec<&str> = line.split('\t').collect();
                if cols.len() == 10 {
                    if cols[0].contains('.') {
                        continue;
                    }
                    if !cols[0].contains('-') {
                        tokens += 1;
                    }
                    out.extend_from_slice(cols[..8].join("\t").as_bytes());
                    out.extend_from_slice(b"\t_\t");
                    out.extend_from_slice(cols[9].as_bytes());
                } else {
                    out.extend_from_slice(line.as_bytes());
                }
                out.push(b'\n');
            }
        }
    }
    (out, tokens)
}

fn time(run: impl FnOnce() -> usize) -> Duration {
    let start = Instant::now();
    std::hint::black_box(run());
    start.elapsed()
}

/// Counts the bytes written and drops them, as writing to /dev/null does: the figures measure
/// the work, not the growth of an 80 MB buffer.
#[derive(Default)]
struct Discard(usize);

impl std::io::Write for Discard {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn read_write(input: &[u8]) -> usize {
    let mut reader = BlockReader::new(input);
    let mut block = RawBlock::default();
    let mut sentence = Sentence::default();
    let mut out = Vec::new();
    let mut written = 0;
    while reader.read_block(&mut block).unwrap() {
        sentence
            .parse_into(std::mem::take(&mut block))
            .map_err(|e| e.1)
            .unwrap();
        out.clear();
        write_sentence(&mut out, &sentence, None);
        written += out.len();
        block.bytes = sentence.take_bytes();
    }
    written
}

fn enhance(input: &[u8], enhancer: &Engine, threads: usize) -> usize {
    let options = PipelineOptions {
        threads,
        ..PipelineOptions::default()
    };
    let pipeline = Pipeline::new(enhancer, options).unwrap();
    let mut out = Discard::default();
    pipeline
        .run("bench", input, &mut out, &mut |e| panic!("{e}"))
        .unwrap();
    out.0
}

/// Splits `input` into about `pieces` parts, each ending at a sentence end.
fn split_at_sentences(input: &[u8], pieces: usize) -> Vec<&[u8]> {
    let target = input.len() / pieces;
    let mut parts = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let end = match input[(start + target).min(input.len())..]
            .windows(2)
            .position(|w| w == b"\n\n")
        {
            Some(i) => (start + target + i + 2).min(input.len()),
            None => input.len(),
        };
        parts.push(&input[start..end]);
        start = end;
    }
    parts
}

/// The middle value (the upper one of an even count).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Time of `profile` over time of `basic` on one thread, measured in pairs: each piece of the
/// input (~70 ms of work) is run with both, back to back, in alternating order, `repeats` times.
/// A slow spell of a shared machine (seconds long) hits both runs of a pair alike. Returns the
/// ratio over the whole input (each piece's median pair ratio, weighted by its basic time) and
/// the lowest and highest ratio of the whole input within one repeat.
fn paired_ratio(
    pieces: &[&[u8]],
    basic: &Engine,
    profile: &Engine,
    repeats: usize,
) -> (f64, f64, f64) {
    let mut pairs = vec![Vec::new(); pieces.len()];
    for repeat in 0..repeats {
        for (piece, pairs) in pieces.iter().zip(&mut pairs) {
            let (b, p) = if repeat % 2 == 0 {
                let b = time(|| enhance(piece, basic, 1));
                (b, time(|| enhance(piece, profile, 1)))
            } else {
                let p = time(|| enhance(piece, profile, 1));
                (time(|| enhance(piece, basic, 1)), p)
            };
            pairs.push((b.as_secs_f64(), p.as_secs_f64()));
        }
    }
    let (mut weighted, mut weights) = (0.0, 0.0);
    for pairs in &pairs {
        let weight = median(pairs.iter().map(|(b, _)| *b).collect());
        weighted += weight * median(pairs.iter().map(|(b, p)| p / b).collect());
        weights += weight;
    }
    let per_repeat: Vec<f64> = (0..repeats)
        .map(|r| {
            pairs.iter().map(|p| p[r].1).sum::<f64>() / pairs.iter().map(|p| p[r].0).sum::<f64>()
        })
        .collect();
    let low = per_repeat.iter().copied().fold(f64::INFINITY, f64::min);
    let high = per_repeat.iter().copied().fold(0.0, f64::max);
    (weighted / weights, low, high)
}

fn main() {
    let profiles: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut profiles = if profiles.is_empty() {
        vec!["en".to_string(), "cs".to_string()]
    } else {
        profiles
    };
    // Every ratio is taken to `basic`, so it comes first.
    profiles.retain(|p| p != "basic");
    profiles.insert(0, "basic".to_string());
    let (input, tokens) = build_input();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "input: {tokens} tokens, {:.1} MB; {RUNS} rounds; {cores} cores",
        input.len() as f64 / 1e6
    );
    let enhancers: Vec<Engine> = profiles
        .iter()
        .map(|profile| {
            let source = eudify::rules::RuleSource::embedded();
            let rule_set = eudify::rules::load_ruleset(&source, profile)
                .unwrap_or_else(|e| panic!("{}", e.render()));
            Engine::new(&rule_set)
        })
        .collect();
    let rate = |d: Duration| tokens as f64 / d.as_secs_f64();
    let mut thread_counts = vec![1];
    if cores > 1 {
        thread_counts.push(cores);
    }
    // Rounds interleave the variants (read+write, then each profile) so that a slow spell of a
    // shared machine hits them alike. Tokens/s and ratios come from each variant's best round;
    // in brackets, the median over rounds of the ratio within a round.
    let mut floor = Duration::MAX;
    let mut times = vec![vec![Vec::new(); profiles.len()]; thread_counts.len()];
    read_write(&input);
    for _ in 0..RUNS {
        let f = time(|| read_write(&input));
        floor = floor.min(f);
        for (t, &threads) in thread_counts.iter().enumerate() {
            for (p, enhancer) in enhancers.iter().enumerate() {
                times[t][p].push(time(|| enhance(&input, enhancer, threads)));
            }
        }
    }
    let best = |t: usize, p: usize| times[t][p].iter().min().copied().unwrap_or_default();
    let median_ratio = |a: &[Duration], b: &[Duration]| {
        median(
            a.iter()
                .zip(b)
                .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
                .collect(),
        )
    };
    println!("read+write (1 thread): {:.0} tokens/s", rate(floor));
    println!(
        "{:<22} {:>10}  {:>11}  {:>15}  {:>15}",
        "", "tokens/s", "×read+write", "×basic", "×1 thread"
    );
    let both = |best: f64, median: f64| format!("{best:.2} ({median:.2})");
    for (p, profile) in profiles.iter().enumerate() {
        for (t, &threads) in thread_counts.iter().enumerate() {
            let label = format!(
                "{profile} ({threads} thread{})",
                if threads == 1 { "" } else { "s" }
            );
            let time = best(t, p).as_secs_f64();
            let ratio = time / floor.as_secs_f64();
            let to_basic = both(
                time / best(t, 0).as_secs_f64(),
                median_ratio(&times[t][p], &times[t][0]),
            );
            let scaling = if t > 0 {
                both(
                    best(0, p).as_secs_f64() / time,
                    median_ratio(&times[0][p], &times[t][p]),
                )
            } else {
                String::new()
            };
            println!(
                "{label:<22} {:>10.0}  {ratio:>11.2}  {to_basic:>15}  {scaling:>15}",
                rate(best(t, p))
            );
        }
    }
    // The profile-to-basic ratio on one thread, paired piece by piece (see `paired_ratio`).
    let pieces = split_at_sentences(&input, 10);
    println!("× basic on one thread, paired runs over {} pieces × {PAIRED_REPEATS}: ratio [range of whole-input repeats]", pieces.len());
    for (p, profile) in profiles.iter().enumerate().skip(1) {
        let (median, low, high) =
            paired_ratio(&pieces, &enhancers[0], &enhancers[p], PAIRED_REPEATS);
        println!("{profile:<22} {median:.3} [{low:.3}–{high:.3}]");
    }
}

const PAIRED_REPEATS: usize = 6;
