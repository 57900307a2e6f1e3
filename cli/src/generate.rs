//! `eudify completions SHELL` and `eudify man`: generated from the clap definition of the
//! command, so they never disagree with `--help`.

use super::args::{Args, CompletionsArgs};
use anyhow::Result;
use clap::CommandFactory;
use std::io::{self, Write};

pub fn completions(args: CompletionsArgs) -> Result<u8> {
    let mut command = Args::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "eudify", &mut out);
    out.flush()?;
    Ok(super::EXIT_SUCCESS)
}

/// The man page of `eudify` with a section per subcommand (`eudify help CMD` in one page).
pub fn man() -> Result<u8> {
    let command = Args::command();
    let mut out = io::stdout().lock();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    man.render_subcommands_section(&mut out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        writeln!(out, ".SH \"EUDIFY {}\"", sub.get_name().to_uppercase())?;
        if let Some(about) = sub.get_about() {
            writeln!(out, "{about}")?;
        }
        let page =
            clap_mangen::Man::new(sub.clone().bin_name(format!("eudify {}", sub.get_name())));
        page.render_synopsis_section(&mut out)?;
        page.render_options_section(&mut out)?;
    }
    man.render_extra_section(&mut out)?;
    man.render_version_section(&mut out)?;
    out.flush()?;
    Ok(super::EXIT_SUCCESS)
}
