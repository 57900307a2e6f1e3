//! `eudify explain`: each enhanced edge with the rule that made it.

use super::args::ExplainArgs;
use super::output::Output;
use anyhow::{Context, Result};
use eudify::files::{display_name, open};
use std::io::Write;

pub fn run(args: ExplainArgs) -> Result<u8> {
    let files = [args.file.clone()];
    let (code, replay) = super::profile_code(args.lang.as_deref(), args.rules.as_deref(), &files)?;
    let mut enhancer = super::load_enhancer(args.rules.as_deref(), &code)?;
    if let Some(per_word) = args.search_budget {
        enhancer = enhancer.with_search_budget(per_word);
    }
    let name = display_name(&args.file);
    let reader: Box<dyn std::io::BufRead> = match replay {
        Some(replay) => Box::new(replay.into_reader()),
        None => open(&args.file).with_context(|| format!("{name}: cannot read"))?,
    };
    let mut out = Output::create(args.output.as_deref())?;
    let mut shown = 0;
    enhancer.explain_each(&name, reader, &mut |sentence| {
        let sent_id = sentence.sent_id.as_deref();
        if args.sent_id.is_some() && sent_id != args.sent_id.as_deref() {
            return Ok(());
        }
        shown += 1;
        if let Some(runaway) = sentence.runaway {
            return Err(eudify::Error::Input {
                file: name.clone(),
                line: sentence.line,
                message: runaway,
            });
        }
        let write = |out: &mut Output| -> std::io::Result<()> {
            writeln!(out, "# sent_id = {}", sent_id.unwrap_or("?"))?;
            if let Some(text) = &sentence.text {
                writeln!(out, "# text = {text}")?;
            }
            for edge in &sentence.edges {
                let form = edge.form.as_deref().unwrap_or("(empty)");
                let dep = format!("{}:{}", edge.head, edge.label);
                let rule = match &edge.rule {
                    Some(rule) => rule.to_string(),
                    None => "basic".to_string(),
                };
                writeln!(out, "{:<6} {form:<16} {dep:<28} {rule}", edge.dependent)?;
            }
            writeln!(out)
        };
        write(&mut out).map_err(eudify::Error::Output)
    })?;
    out.finish()?;
    if shown == 0 {
        if let Some(sent_id) = args.sent_id {
            return Err(eudify::Error::NoSuchSentence {
                file: name,
                sent_id,
            }
            .into());
        }
    }
    Ok(super::EXIT_SUCCESS)
}
