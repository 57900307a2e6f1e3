//! `eudify fit`: a profile learned from gold enhanced graphs, written to a folder that
//! `--rules DIR` layers over the embedded rules.

use super::args::FitArgs;
use anyhow::Result;

pub fn run(args: FitArgs) -> Result<u8> {
    let options = eudify::fit::FitOptions {
        base: args.base,
        lang: args.lang,
        name: args.name,
        folds: args.folds.unwrap_or(0),
    };
    let fitted = eudify::fit::fit(&args.gold, &options)?;
    fitted.write(&args.output)?;
    print!("{}", fitted.report);
    eprintln!(
        "eudify: wrote {}: use it with `eudify enhance --rules {} --lang {}`",
        args.output.display(),
        args.output.display(),
        fitted.name
    );
    Ok(super::EXIT_SUCCESS)
}
