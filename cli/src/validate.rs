//! `eudify validate`: UD level-2 checks of the basic layer's format and of the enhanced layer.

use super::args::ValidateArgs;
use anyhow::{bail, Context, Result};
use eudify::files::{display_name, is_stdin};
use eudify::text::count;
use std::io::{self, Write};

pub fn run(args: ValidateArgs) -> Result<u8> {
    if args.files.iter().filter(|f| is_stdin(f)).count() > 1 {
        bail!("`-` (stdin) can be given only once");
    }
    let mut all_valid = true;
    let stderr = io::stderr();
    let mut stdout = io::stdout().lock();
    for path in &args.files {
        let name = display_name(path);
        let report = eudify::validate::validate_file_with(
            path,
            &eudify::validate::Options {
                limits: args.limits.limits(),
                ..Default::default()
            },
        )
        .with_context(|| format!("{name}: cannot read"))?;
        report.write_to(&mut stderr.lock())?;
        let sentences = count(report.sentences as u64, "sentence");
        if report.is_valid() {
            writeln!(stdout, "{name}: {sentences}, valid")?;
        } else {
            all_valid = false;
            writeln!(
                stdout,
                "{name}: {sentences}, {}",
                count(report.total_errors as u64, "error")
            )?;
        }
    }
    Ok(if all_valid {
        super::EXIT_SUCCESS
    } else {
        super::EXIT_INVALID
    })
}
