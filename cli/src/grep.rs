//! `eudify grep`: search CoNLL-U files with the rule language's patterns.

use super::args::GrepArgs;
use super::output::Output;
use anyhow::{Context, Result};
use eudify::files::{display_name, open};
use eudify::{Pattern, SentenceMatches, PATTERN_NAME};
use std::collections::BTreeMap;
use std::io::Write;

pub fn run(args: GrepArgs) -> Result<u8> {
    let (text, name) = match &args.pattern_file {
        Some(path) => {
            let name = display_name(path);
            let text =
                std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
            (text, name)
        }
        None => (
            args.pattern
                .clone()
                .context("no pattern: give PATTERN or -f FILE")?,
            PATTERN_NAME.to_string(),
        ),
    };
    // With -f, every positional argument is an input.
    let mut files = args.files.clone();
    if args.pattern_file.is_some() {
        files.splice(0..0, args.pattern.clone().map(Into::into));
    }
    if files.is_empty() {
        files.push("-".into());
    }
    // The graph a profile computes is searched with --lang or --rules; with --rules alone, the
    // profile the inputs show.
    let mut replay = None;
    let pattern = if args.lang.is_some() || args.rules.is_some() {
        let (code, sample) =
            super::profile_code(args.lang.as_deref(), args.rules.as_deref(), &files)?;
        replay = sample;
        let pattern = Pattern::for_profile(&text, &name, &code, args.rules.as_deref())?;
        if let Some(warning) = pattern.enhancer().and_then(|e| e.warning()) {
            eprintln!("warning: {warning}");
        }
        pattern
    } else {
        Pattern::named(&text, &name)?
    };
    let mut out = Output::create(None)?;
    let mut clusters: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    let mut totals = Vec::new();
    for file in &files {
        let name = display_name(file);
        let reader: Box<dyn std::io::BufRead> =
            match replay.take_if(|_| eudify::files::is_stdin(file)) {
                Some(replay) => Box::new(replay.into_reader()),
                None => open(file).with_context(|| format!("{name}: cannot read"))?,
            };
        let counts = pattern.search_each(&name, reader, &mut |sentence| {
            let shown = show(&args, &name, &sentence, &mut out, &mut clusters);
            // A write error stays one (a closed pipe ends the run quietly, as in every command).
            shown.map_err(|error| match error.downcast::<eudify::Error>() {
                Ok(error) => error,
                Err(error) => match error.downcast::<std::io::Error>() {
                    Ok(error) => eudify::Error::Output(error),
                    Err(error) => eudify::Error::Rules(error.to_string()),
                },
            })?;
            Ok(true)
        })?;
        if counts.runaways > 0 {
            eprintln!(
                "{name}: {} searched in their basic copy (the rules ran away)",
                eudify::text::count(counts.runaways as u64, "sentence")
            );
        }
        if counts.cut_short > 0 {
            eprintln!(
                "{name}: {} searched only in part (the pattern's search spent its work budget: see `eudify check` on it)",
                eudify::text::count(counts.cut_short as u64, "sentence")
            );
        }
        totals.push((name, counts));
    }
    if args.count {
        for (name, counts) in &totals {
            if totals.len() > 1 {
                write!(out, "{name}:")?;
            }
            writeln!(out, "{}", counts.matches)?;
        }
    }
    if !args.by.is_empty() {
        let mut rows: Vec<(&Vec<String>, &usize)> = clusters.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        for (values, n) in rows {
            writeln!(out, "{n}\t{}", values.join("\t"))?;
        }
    }
    out.finish()?;
    Ok(super::EXIT_SUCCESS)
}

/// Prints the matches of one sentence as `args` asks, or adds them to `clusters` (`--by`).
fn show(
    args: &GrepArgs,
    file: &str,
    sentence: &SentenceMatches,
    out: &mut Output,
    clusters: &mut BTreeMap<Vec<String>, usize>,
) -> Result<()> {
    if !args.by.is_empty() {
        for found in &sentence.matches {
            let mut key = Vec::with_capacity(args.by.len());
            for by in &args.by {
                let value = found
                    .value(by)
                    .map_err(|message| eudify::Error::Rules(format!("--by {message}")))?;
                key.push(value.unwrap_or_else(|| "_".to_string()));
            }
            *clusters.entry(key).or_insert(0) += 1;
        }
        return Ok(());
    }
    if args.count {
        return Ok(());
    }
    let sent_id = sentence.sent_id.as_deref().unwrap_or("-");
    if args.conllu {
        for found in &sentence.matches {
            let nodes: Vec<String> = found
                .nodes
                .iter()
                .map(|n| format!("{}={}", n.variable, n.id))
                .collect();
            writeln!(out, "# match = {}", nodes.join(" "))?;
        }
        out.write_all(sentence.conllu.as_bytes())?;
        if !sentence.conllu.ends_with("\n\n") && !sentence.conllu.ends_with("\r\n\r\n") {
            writeln!(out)?;
        }
        return Ok(());
    }
    for (i, found) in sentence.matches.iter().enumerate() {
        let line = found.nodes.first().map_or(sentence.line, |n| n.line);
        if args.json {
            let nodes: serde_json::Map<String, serde_json::Value> = found
                .nodes
                .iter()
                .map(|n| (n.variable.clone(), n.id.clone().into()))
                .collect();
            let edges: serde_json::Map<String, serde_json::Value> = found
                .edges
                .iter()
                .map(|e| {
                    (
                        e.variable.clone(),
                        serde_json::json!({"head": e.head, "dep": e.dependent, "label": e.label}),
                    )
                })
                .collect();
            let record = serde_json::json!({
                "file": file,
                "line": line,
                "sent_id": sentence.sent_id,
                "nodes": nodes,
                "edges": edges,
                "text": sentence.marked_text(i),
            });
            writeln!(out, "{record}")?;
        } else {
            writeln!(out, "{file}:{line}: {sent_id}: {}", sentence.marked_text(i))?;
        }
    }
    Ok(())
}
