//! `eudify view`: a self-contained HTML page drawing each sentence's basic tree and enhanced
//! graph, the rule behind each edge, and, with gold, what is wrong and missing.

use super::args::ViewArgs;
use super::output::Output;
use anyhow::{Context, Result};
use eudify::files::{display_name, is_stdin, open};
use eudify::{Pattern, View, PATTERN_NAME};
use std::io::Write;

pub fn run(args: ViewArgs) -> Result<u8> {
    if args.serve {
        return serve(args);
    }
    let view = build(&args)?;
    let mut out = Output::create(args.output.as_deref())?;
    out.write_all(view.page_html().as_bytes())?;
    out.finish()?;
    Ok(super::EXIT_SUCCESS)
}

/// `--serve`: the page, rebuilt whenever the rule folder or an input changes.
fn serve(args: ViewArgs) -> Result<u8> {
    if is_stdin(&args.file) {
        anyhow::bail!(
            "--serve needs FILE to be a file: stdin cannot be read again when it changes"
        );
    }
    let site = super::serve::Site {
        port: args.port,
        rules: args.rules.clone(),
        inputs: [
            Some(&args.file),
            args.gold.as_ref(),
            args.grep_file.as_ref(),
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect(),
    };
    super::serve::serve(site, Box::new(move || build(&args)))
}

/// The view `args` ask for, built from the files as they are now (a live server calls it
/// again when they change).
pub fn build(args: &ViewArgs) -> Result<View> {
    if args.rules.is_some() && args.lang.is_none() {
        anyhow::bail!(super::Invalid(
            "--rules needs --lang (the profile whose rules run)".into()
        ));
    }
    let enhancer = match &args.lang {
        Some(code) => Some(super::load_enhancer(args.rules.as_deref(), code)?),
        None => None,
    };
    let pattern = match pattern_text(args)? {
        Some((text, name)) => Some(match &args.lang {
            Some(code) => Pattern::for_profile(&text, &name, code, args.rules.as_deref())?,
            None => Pattern::named(&text, &name)?,
        }),
        None => None,
    };
    let name = display_name(&args.file);
    let input = open(&args.file).with_context(|| format!("{name}: cannot read"))?;
    let gold = match &args.gold {
        Some(path) => {
            let gold_name = display_name(path);
            let reader = open(path).with_context(|| format!("{gold_name}: cannot read"))?;
            Some((gold_name, reader))
        }
        None => None,
    };
    let view = match gold {
        Some((gold_name, mut reader)) => View::build(
            enhancer.as_ref(),
            &name,
            input,
            Some((&gold_name, &mut reader)),
            pattern.as_ref(),
        )?,
        None => View::build(enhancer.as_ref(), &name, input, None, pattern.as_ref())?,
    };
    Ok(view)
}

/// The search pattern of `--grep` or `--grep-file`, with its name in diagnostics.
fn pattern_text(args: &ViewArgs) -> Result<Option<(String, String)>> {
    if let Some(path) = &args.grep_file {
        let name = display_name(path);
        let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
        return Ok(Some((text, name)));
    }
    Ok(args
        .grep
        .clone()
        .map(|text| (text, PATTERN_NAME.to_string())))
}
