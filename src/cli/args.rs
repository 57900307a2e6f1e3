//! Command-line flags as clap parses them; `mod.rs` turns them into typed configuration.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "eudify", version, about = "Basic UD trees (CoNLL-U) to Enhanced UD graphs with readable rewriting rules")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Enhance CoNLL-U files (or stdin) and write the result to stdout.
    Enhance(EnhanceArgs),
    /// Score a system file against a gold file (ELAS, EULAS, LAS as the IWPT 2021 scorer).
    Eval(EvalArgs),
    /// Check the enhanced layer of CoNLL-U files (UD level 2).
    Validate(ValidateArgs),
    /// List the profiles, one line each with what it annotates.
    Profiles(ProfilesArgs),
    /// Check every rule file, lexicon and profile; report every error with file:line:col.
    Check(RulesArgs),
    /// Run the examples that rule files carry and show a diff for each failure.
    Test(RulesArgs),
    /// For each enhanced edge, the rule that created or last changed it (or "basic").
    Explain(ExplainArgs),
    /// Work with the rule files themselves.
    #[command(subcommand)]
    Rules(RulesCommand),
}

#[derive(Subcommand, Debug)]
pub enum RulesCommand {
    /// Write the embedded rules, profiles, vocabulary and lexicons into a new folder DIR, in the
    /// layout `--rules DIR` reads, to edit them.
    Export {
        /// A folder that does not exist yet, or is empty.
        dir: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// Rules folder to use instead of the embedded rules.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// UD language or treebank code, or a profile name.
    #[arg(short, long, default_value = "universal")]
    pub lang: String,
    /// Rules folder to use instead of the embedded rules.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Only the sentence with this `# sent_id`.
    #[arg(long, value_name = "ID")]
    pub sent_id: Option<String>,
    pub file: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct EnhanceArgs {
    /// UD language code (`cs`) or treebank code (`cs_cac`, `en_ewt`), or a profile name (`basic`).
    #[arg(short, long, default_value = "universal")]
    pub lang: String,
    /// Load rules, profiles and lexicons from this folder instead of the embedded ones.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Threads that enhance (default: all cores); 1 runs everything on one thread.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// What to do with an invalid sentence.
    #[arg(long, value_enum, default_value_t = OnErrorArg::Fail)]
    pub on_error: OnErrorArg,
    /// Show a progress bar with tokens/s on stderr (default: only for input files over
    /// 50 MB when stderr is a terminal).
    #[arg(long)]
    pub progress: bool,
    /// Input files; none or `-` reads stdin.
    pub files: Vec<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnErrorArg {
    /// Stop with `FILE:LINE: message` and exit code 1.
    Fail,
    /// Write the sentence unchanged, report it on stderr, count it in a summary line.
    Copy,
}

#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    pub gold: PathBuf,
    pub system: PathBuf,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Add precision/recall per enhancement phenomenon (see docs/phenomena.md).
    #[arg(long)]
    pub phenomena: bool,
}

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ProfilesArgs {
    /// Load profiles from this folder instead of the embedded ones.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
}
