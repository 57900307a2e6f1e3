//! `eudify explain`: each enhanced edge with the rule that made it.

use super::args::ExplainArgs;
use super::output::Output;
use super::Invalid;
use crate::conllu::sentence::FORM;
use crate::conllu::{input, BlockReader, RawBlock, Sentence};
use anyhow::{Context, Result};
use std::io::Write;

pub fn run(args: ExplainArgs) -> Result<u8> {
    let loaded = super::load_enhancer(args.rules.as_deref(), &args.lang)?;
    let enhancer = loaded.engine();
    let name = input::display_name(&args.file);
    let cannot_read = || format!("{name}: cannot read");
    let mut reader = BlockReader::new(input::open(&args.file).with_context(cannot_read)?);
    let mut block = RawBlock::default();
    let mut out = Output::create(args.output.as_deref())?;
    let mut shown = 0;
    while reader.read_block(&mut block).with_context(cannot_read)? {
        if block.is_blank() {
            continue;
        }
        // As `enhance` does: the enhanced layer is recomputed, the input's DEPS do not count.
        let sentence = Sentence::parse_ignoring_deps(std::mem::take(&mut block))
            .map_err(|e| Invalid(format!("{name}:{}: {}", e.1.line, e.1.message)))?;
        let sent_id = sentence.comment("sent_id");
        if args
            .sent_id
            .as_deref()
            .is_some_and(|wanted| sent_id != Some(wanted))
        {
            continue;
        }
        shown += 1;
        let edges = enhancer
            .explain(&sentence)
            .map_err(|e| Invalid(format!("{name}:{}: {e}", sentence.first_line)))?;
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
            writeln!(
                out,
                "{id:<6} {form:<16} {dep:<28} {}",
                enhancer.describe(edge.origin)
            )?;
        }
        writeln!(out)?;
    }
    out.finish()?;
    if shown == 0 {
        if let Some(id) = &args.sent_id {
            return Err(Invalid(format!("{name}: no sentence with sent_id {id}")).into());
        }
    }
    Ok(super::EXIT_SUCCESS)
}
