//! `eudify eval`: the CoNLL 2018 / IWPT 2021 metrics of a system file against a gold file, on any
//! tokenization; macro averages over pairs, bootstrap intervals and paired tests.

use super::args::EvalArgs;
use super::output::Output;
use anyhow::{bail, Context, Result};
use eudify::eval::{
    confidence_intervals, evaluate_files, evaluate_pairs, paired_test, EvalOptions, Evaluation,
    Resampling,
};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Resamplings of `--compare` without `--bootstrap`.
const DEFAULT_SAMPLES: usize = 1000;

/// The most resamplings `--bootstrap` takes: the work grows with N times the sentences (N =
/// 1,000,000 ran 150 s on one dev file, with no output until the end).
const MAX_SAMPLES: usize = 100_000;

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
    if let Some(samples) = args.bootstrap.filter(|&n| n > MAX_SAMPLES) {
        bail!(
            "--bootstrap {samples}: at most {MAX_SAMPLES} resamplings (each one rescores every \
             sentence; --compare uses {DEFAULT_SAMPLES} by default)"
        );
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
        let bootstrap = args.bootstrap.map(|samples| Resampling {
            samples,
            seed: args.seed,
        });
        let result = evaluate_pairs(&pairs, &options, bootstrap)?;
        for pair in &result.pairs {
            if let Some(error) = &pair.error {
                eprintln!("{error} (the pair scores 0)");
            }
        }
        if args.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
        } else {
            write!(out, "{result}")?;
        }
        out.finish()?;
        return Ok(super::EXIT_SUCCESS);
    }
    let [gold, system] = args.files.as_slice() else {
        bail!("eval takes GOLD SYSTEM (or, with --macro, GOLD SYSTEM pairs or one TSV of pairs); got {} files", args.files.len());
    };
    let report = evaluate_files(gold, system, &options)?;
    let intervals = args.bootstrap.map(|samples| {
        confidence_intervals(
            &report,
            Resampling {
                samples,
                seed: args.seed,
            },
        )
    });
    let comparison = match &args.compare {
        Some(system_b) => {
            let report_b = evaluate_files(gold, system_b, &options)?;
            let resampling = Resampling {
                samples: args.bootstrap.unwrap_or(DEFAULT_SAMPLES),
                seed: args.seed,
            };
            let (a, b) = (system.display().to_string(), system_b.display().to_string());
            Some(paired_test((&a, &report), (&b, &report_b), resampling))
        }
        None => None,
    };
    let evaluation = Evaluation {
        report,
        intervals,
        comparison,
    };
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&evaluation)?)?;
    } else {
        write!(out, "{evaluation}")?;
    }
    out.finish()?;
    Ok(super::EXIT_SUCCESS)
}

/// `eval --by-rule GOLD [SYSTEM] [--lang CODE]`: SYSTEM's basic trees (GOLD's without SYSTEM)
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
    // GOLD and SYSTEM hold one text: the profile is chosen from the one that is not stdin.
    let shown_by = if eudify::files::is_stdin(gold) {
        system
    } else {
        gold
    };
    let (lang, _) = super::profile_code(
        args.lang.as_deref(),
        args.rules.as_deref(),
        std::slice::from_ref(shown_by),
    )?;
    let enhancer = super::load_enhancer(args.rules.as_deref(), &lang)?;
    let result = enhancer.evaluate_by_rule(gold, system)?;
    for runaway in &result.runaways {
        eprintln!("{runaway} (scored with the basic copy)");
    }
    let mut out = Output::create(args.output.as_deref())?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
    } else {
        write!(out, "{result}")?;
    }
    out.finish()?;
    Ok(super::EXIT_SUCCESS)
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
