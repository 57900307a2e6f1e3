//! `eudify eval`: the CoNLL 2018 / IWPT 2021 metrics of a system file against a gold file, on any
//! tokenization; macro averages over pairs, bootstrap intervals and paired tests.

use super::args::EvalArgs;
use super::output::Output;
use anyhow::{bail, Context, Result};
use eudify::eval::bootstrap::{self, Comparison, Intervals};
use eudify::eval::{evaluate_files, EvalOptions, Metric, Report};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Resamplings of `--compare` without `--bootstrap`.
const DEFAULT_SAMPLES: usize = 1000;

pub fn run(args: EvalArgs) -> Result<u8> {
    if args.by_rule {
        return run_by_rule(args);
    }
    let stdin_count = args
        .files
        .iter()
        .chain(&args.compare)
        .filter(|f| eudify::files::is_stdin(f))
        .count();
    if stdin_count > 1 {
        if args.files.len() == 2 && args.compare.is_none() {
            bail!("gold and system cannot both be `-`: stdin is one input");
        }
        bail!("only one input can be `-`: stdin is one input");
    }
    if args.bootstrap == Some(0) {
        bail!("--bootstrap needs at least 1 resampling");
    }
    let options = EvalOptions {
        phenomena: args.phenomena,
        gram_eval: args.gram_eval,
        keep_units: args.bootstrap.is_some() || args.compare.is_some(),
    };
    let mut out = Output::create(args.output.as_deref())?;
    if args.macro_average {
        if args.compare.is_some() {
            bail!(
                "--compare compares two systems on one gold file; it does not combine with --macro"
            );
        }
        let pairs = macro_pairs(&args.files)?;
        let mut reports = Vec::new();
        for (gold, system) in &pairs {
            reports.push(evaluate_files(gold, system, &options)?);
        }
        if args.json {
            // Intervals per pair (the table shows F1s only).
            let intervals: Vec<Option<Intervals>> = reports
                .iter()
                .map(|r| {
                    args.bootstrap
                        .map(|n| bootstrap::intervals(r.units(), n, args.seed))
                })
                .collect();
            let list: Vec<Value> = pairs
                .iter()
                .zip(&reports)
                .zip(&intervals)
                .map(|(((gold, system), report), ci)| {
                    let mut v = report_json(report, ci.as_ref());
                    v["gold"] = json!(gold.display().to_string());
                    v["system"] = json!(system.display().to_string());
                    v
                })
                .collect();
            let value = json!({ "pairs": list, "macro": macro_json(&reports) });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        } else {
            write_macro_table(&mut out, &pairs, &reports)?;
        }
        out.finish()?;
        return Ok(super::EXIT_SUCCESS);
    }
    let [gold, system] = args.files.as_slice() else {
        bail!("eval takes GOLD SYSTEM (or, with --macro, GOLD SYSTEM pairs or one TSV of pairs); got {} files", args.files.len());
    };
    let report = evaluate_files(gold, system, &options)?;
    let intervals = args
        .bootstrap
        .map(|n| bootstrap::intervals(report.units(), n, args.seed));
    let comparison = match &args.compare {
        Some(system_b) => {
            let report_b = evaluate_files(gold, system_b, &options)?;
            let samples = args.bootstrap.unwrap_or(DEFAULT_SAMPLES);
            Some((
                system_b,
                bootstrap::compare(&report, &report_b, samples, args.seed),
                samples,
            ))
        }
        None => None,
    };
    if args.json {
        let mut value = report_json(&report, intervals.as_ref());
        if let Some((_, comparisons, samples)) = &comparison {
            let mut map = serde_json::Map::new();
            for c in comparisons {
                map.insert(
                    c.metric.name().to_string(),
                    json!({ "a": c.a, "b": c.b, "delta": c.a - c.b, "p": c.p, "significant": c.significant() }),
                );
            }
            value["compare"] = json!({ "samples": samples, "seed": args.seed, "metrics": map });
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        write!(out, "{report}")?;
        if let Some(intervals) = &intervals {
            write_intervals(&mut out, intervals, args.bootstrap.unwrap_or(0), args.seed)?;
        }
        if let Some((system_b, comparisons, samples)) = &comparison {
            write_comparison(&mut out, system, system_b, comparisons, *samples, args.seed)?;
        }
    }
    out.finish()?;
    Ok(super::EXIT_SUCCESS)
}

/// `eval --by-rule GOLD [SYSTEM] --lang CODE`: SYSTEM's basic trees (GOLD's without SYSTEM)
/// enhanced, their errors against GOLD broken down by rule and by phenomenon.
fn run_by_rule(args: EvalArgs) -> Result<u8> {
    let (gold, system) = match args.files.as_slice() {
        [gold] if eudify::files::is_stdin(gold) => {
            bail!("eval --by-rule without SYSTEM reads GOLD twice (its basic trees are enhanced): GOLD cannot be `-`")
        }
        [gold] => (gold, gold),
        [gold, system] if eudify::files::is_stdin(gold) && eudify::files::is_stdin(system) => {
            bail!("gold and system cannot both be `-`: stdin is one input")
        }
        [gold, system] => (gold, system),
        files => bail!(
            "eval --by-rule takes GOLD [SYSTEM]; got {} files",
            files.len()
        ),
    };
    let lang = args
        .lang
        .as_deref()
        .context("--by-rule needs --lang CODE")?;
    let enhancer = super::load_enhancer(args.rules.as_deref(), lang)?;
    let result = enhancer.evaluate_by_rule(gold, system)?;
    for runaway in &result.runaways {
        eprintln!("{runaway} (scored with the basic copy)");
    }
    let mut out = Output::create(args.output.as_deref())?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&result.to_json())?)?;
    } else {
        write!(out, "{result}")?;
    }
    out.finish()?;
    Ok(super::EXIT_SUCCESS)
}

/// The report's JSON, with `"f1_ci": [low, high]` in every metric when intervals were computed.
fn report_json(report: &Report, intervals: Option<&Intervals>) -> Value {
    let mut value = report.to_json();
    if let Some(intervals) = intervals {
        for (metric, (low, high)) in Metric::ALL.iter().zip(intervals) {
            value[metric.name()]["f1_ci"] = json!([low, high]);
        }
    }
    value
}

/// The (gold, system) pairs of `--macro`: the files two by two, or the lines of one TSV file.
fn macro_pairs(files: &[PathBuf]) -> Result<Vec<(PathBuf, PathBuf)>> {
    if let [tsv] = files {
        let text = std::fs::read_to_string(tsv)
            .with_context(|| format!("{}: cannot read", tsv.display()))?;
        let dir = tsv.parent().unwrap_or(Path::new(""));
        let mut pairs = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [gold, system] = fields.as_slice() else {
                return Err(super::Invalid(format!(
                    "{}:{}: expected GOLD<TAB>SYSTEM, found {} field{}",
                    tsv.display(),
                    n + 1,
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" }
                ))
                .into());
            };
            pairs.push((dir.join(gold), dir.join(system)));
        }
        if pairs.is_empty() {
            return Err(
                super::Invalid(format!("{}: no GOLD<TAB>SYSTEM lines", tsv.display())).into(),
            );
        }
        return Ok(pairs);
    }
    if !files.len().is_multiple_of(2) {
        bail!("--macro takes GOLD SYSTEM pairs (an even number of files) or one TSV file; got {} files", files.len());
    }
    Ok(files
        .chunks(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect())
}

/// Every figure averaged over the pairs, as the shared tasks rank systems.
fn macro_json(reports: &[Report]) -> Value {
    let mut map = serde_json::Map::new();
    let n = reports.len().max(1) as f64;
    for metric in Metric::ALL {
        let mean = |f: &dyn Fn(&Report) -> f64| reports.iter().map(f).sum::<f64>() / n;
        let accuracy = metric
            .has_aligned_accuracy()
            .then(|| mean(&|r| r.score(metric).aligned_accuracy()));
        map.insert(
            metric.name().to_string(),
            json!({
                "p": mean(&|r| r.score(metric).precision()),
                "r": mean(&|r| r.score(metric).recall()),
                "f1": mean(&|r| r.score(metric).f1()),
                "aligned_acc": accuracy,
            }),
        );
    }
    if reports.iter().all(|r| r.gram_eval.is_some()) && !reports.is_empty() {
        let quality = reports
            .iter()
            .filter_map(|r| r.gram_eval.as_ref())
            .map(|g| g.quality())
            .sum::<f64>()
            / n;
        map.insert("GramEval".to_string(), json!({ "Quality": quality }));
    }
    Value::Object(map)
}

/// One line of F1 per pair, then the macro average.
fn write_macro_table(
    out: &mut Output,
    pairs: &[(PathBuf, PathBuf)],
    reports: &[Report],
) -> Result<()> {
    let gram_eval = reports.iter().all(|r| r.gram_eval.is_some());
    write!(out, "F1 per pair")?;
    for metric in Metric::ALL {
        write!(out, "\t{}", metric.name())?;
    }
    if gram_eval {
        write!(out, "\tGramEval")?;
    }
    writeln!(out)?;
    for ((_, system), report) in pairs.iter().zip(reports) {
        write!(out, "{}", system.display())?;
        for metric in Metric::ALL {
            write!(out, "\t{:.2}", report.score(metric).f1())?;
        }
        if let Some(g) = &report.gram_eval {
            write!(out, "\t{:.2}", g.quality())?;
        }
        writeln!(out)?;
    }
    let averages = macro_json(reports);
    write!(out, "Macro average ({} pairs)", reports.len())?;
    for metric in Metric::ALL {
        write!(
            out,
            "\t{:.2}",
            averages[metric.name()]["f1"].as_f64().unwrap_or(0.0)
        )?;
    }
    if gram_eval {
        write!(
            out,
            "\t{:.2}",
            averages["GramEval"]["Quality"].as_f64().unwrap_or(0.0)
        )?;
    }
    writeln!(out)?;
    Ok(())
}

fn write_intervals(
    out: &mut Output,
    intervals: &Intervals,
    samples: usize,
    seed: u64,
) -> Result<()> {
    writeln!(
        out,
        "95% confidence intervals of F1 ({samples} resamplings of sentences, seed {seed}):"
    )?;
    for (metric, (low, high)) in Metric::ALL.iter().zip(intervals) {
        writeln!(out, "  {:<22} [{low:.2}, {high:.2}]", metric.name())?;
    }
    Ok(())
}

fn write_comparison(
    out: &mut Output,
    a: &Path,
    b: &Path,
    comparisons: &[Comparison],
    samples: usize,
    seed: u64,
) -> Result<()> {
    writeln!(
        out,
        "Paired bootstrap test ({samples} resamplings of sentences, seed {seed}):"
    )?;
    writeln!(out, "  A = {}\n  B = {}", a.display(), b.display())?;
    writeln!(
        out,
        "  {:<22} {:>7} {:>7} {:>7} {:>7}  Significant (p < 0.05)",
        "Metric", "A F1", "B F1", "A-B", "p"
    )?;
    for c in comparisons {
        writeln!(
            out,
            "  {:<22} {:>7.2} {:>7.2} {:>+7.2} {:>7.3}  {}",
            c.metric.name(),
            c.a,
            c.b,
            c.a - c.b,
            c.p,
            if c.significant() { "yes" } else { "no" }
        )?;
    }
    Ok(())
}
