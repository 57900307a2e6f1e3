//! `eudify profiles`: one line per profile with what it annotates.

use super::args::ProfilesArgs;
use anyhow::Result;
use std::io::{self, Write};

pub fn run(args: ProfilesArgs) -> Result<u8> {
    let profiles = eudify::profiles(args.rules.as_deref())?;
    let width = profiles.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut out = io::stdout().lock();
    for profile in profiles {
        let extends = profile
            .extends
            .map(|e| format!(" (extends {e})"))
            .unwrap_or_default();
        writeln!(
            out,
            "{:<width$}  {}{extends}",
            profile.name, profile.description
        )?;
    }
    Ok(super::EXIT_SUCCESS)
}
