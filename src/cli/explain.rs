//! `eudify explain`: each enhanced edge with the rule that made it.

use super::args::ExplainArgs;
use anyhow::{bail, Context, Result};
use eudify::conllu::{BlockReader, RawBlock, Sentence};
use eudify::conllu::sentence::FORM;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::process::ExitCode;

pub fn run(args: ExplainArgs) -> Result<ExitCode> {
    let source = super::rule_source(args.rules.as_deref())?;
    let enhancer = super::load_enhancer(&source, &args.lang)?;
    let name = args.file.display().to_string();
    let file = File::open(&args.file).with_context(|| format!("{name}: cannot open"))?;
    let mut reader = BlockReader::new(BufReader::new(file));
    let mut block = RawBlock::default();
    let mut out = io::stdout().lock();
    let mut shown = 0;
    while reader.read_block(&mut block).with_context(|| format!("{name}: cannot read"))? {
        if block.is_blank() {
            continue;
        }
        let sentence = Sentence::parse(std::mem::take(&mut block)).map_err(|e| anyhow::anyhow!("{name}:{}: {}", e.1.line, e.1.message))?;
        let sent_id = sentence.comment("sent_id");
        if args.sent_id.as_deref().is_some_and(|wanted| sent_id != Some(wanted)) {
            continue;
        }
        shown += 1;
        let edges = enhancer.explain(&sentence).map_err(|e| anyhow::anyhow!("{name}:{}: {e}", sentence.first_line))?;
        writeln!(out, "# sent_id = {}", sent_id.unwrap_or("?"))?;
        if let Some(text) = sentence.comment("text") {
            writeln!(out, "# text = {text}")?;
        }
        for edge in edges {
            let form = if edge.dependent.is_empty_node() {
                "(empty)"
            } else {
                sentence.column(sentence.word(edge.dependent.word), FORM)
            };
            let dep = format!("{}:{}", edge.head, edge.label);
            let id = edge.dependent.to_string();
            writeln!(out, "{id:<6} {form:<16} {dep:<28} {}", enhancer.describe(edge.origin))?;
        }
        writeln!(out)?;
    }
    if shown == 0 {
        if let Some(id) = &args.sent_id {
            bail!("{name}: no sentence with sent_id {id}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
