//! `eudify validate`: UD level-2 checks of the enhanced layer.

use super::args::ValidateArgs;
use anyhow::{Context, Result};
use std::io::{self, Write};
use std::process::ExitCode;

pub fn run(args: ValidateArgs) -> Result<ExitCode> {
    let mut all_valid = true;
    let stderr = io::stderr();
    let mut stdout = io::stdout().lock();
    for path in &args.files {
        let name = path.display().to_string();
        let report = eudify::validate::validate_file(path).with_context(|| format!("{name}: cannot read"))?;
        report.write_to(&mut stderr.lock())?;
        if report.is_valid() {
            writeln!(stdout, "{name}: {} sentences, valid", report.sentences)?;
        } else {
            all_valid = false;
            writeln!(stdout, "{name}: {} sentences, {} errors", report.sentences, report.total_errors)?;
        }
    }
    Ok(if all_valid { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
