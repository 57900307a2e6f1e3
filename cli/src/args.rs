//! Command-line flags as clap parses them; `mod.rs` turns them into typed configuration.

use clap::{Parser, Subcommand, ValueEnum};
use eudify::files::Limits;
use std::path::PathBuf;

/// Exit codes and input conventions, at the end of every `--help`.
const AFTER_HELP: &str = "\
Input: FILE or `-` (stdin); gzip-compressed input is recognised by its first bytes.

Exit codes:
  0  success
  1  invalid input (FILE:LINE: message) or a failed check
  2  usage error, a file that cannot be read or written, or an internal error";

#[derive(Parser, Debug)]
#[command(
    name = "eudify",
    version,
    about = "Basic UD trees (CoNLL-U) to Enhanced UD graphs with readable rewriting rules"
)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Enhance CoNLL-U files (or stdin) and write the result to stdout or `-o FILE`.
    #[command(after_help = AFTER_HELP)]
    Enhance(EnhanceArgs),
    /// Score a system file against a gold file on any tokenization (the CoNLL 2018 and IWPT 2021
    /// metrics, optionally GramEval 2020, macro averages, bootstrap intervals and tests).
    #[command(after_help = AFTER_HELP)]
    Eval(EvalArgs),
    /// Check CoNLL-U files as UD's validator does at level 2: the basic layer's format (IDs,
    /// HEADs, UPOS, FEATS, DEPREL) and the enhanced layer.
    #[command(after_help = AFTER_HELP)]
    Validate(ValidateArgs),
    /// List the profiles, one line each with what it annotates.
    #[command(after_help = AFTER_HELP)]
    Profiles(ProfilesArgs),
    /// Check every rule file, lexicon and profile; report every error with file:line:col.
    #[command(after_help = AFTER_HELP)]
    Check(RulesArgs),
    /// Run the examples that rule files carry and show a diff for each failure.
    #[command(after_help = AFTER_HELP)]
    Test(RulesArgs),
    /// For each enhanced edge, the rule that created or last changed it (or "basic").
    #[command(after_help = AFTER_HELP)]
    Explain(ExplainArgs),
    /// Search CoNLL-U files with a rule's `match { … }` and `without { … }` blocks, over the
    /// file's own DEPS (`=[..]=>`) and basic tree (`-[..]->`), or with --lang over the graph
    /// eudify computes; one line per match (`FILE:LINE: sent_id: text` with matched words marked).
    #[command(after_help = GREP_HELP)]
    Grep(GrepArgs),
    /// Draw a CoNLL-U file in one self-contained HTML page: each sentence's basic tree above
    /// the words and enhanced graph below, the rule behind each edge (--lang), wrong and missing
    /// edges against gold (--gold), a search's matches (--grep), filters and scores.
    #[command(after_help = VIEW_HELP)]
    View(ViewArgs),
    /// Learn a profile from gold enhanced graphs (a hand-annotated sample of a treebank): the
    /// settings, enhancements, shipped rule files and lexicons, rules switched off and lexicon
    /// entries that reproduce it best, each with its evidence, written to DIR for
    /// `eudify enhance --rules DIR --lang NAME`.
    #[command(after_help = AFTER_HELP)]
    Fit(FitArgs),
    /// Work with the rule files themselves.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout, e.g.
    /// `eudify completions bash > ~/.local/share/bash-completion/completions/eudify`.
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout, e.g. `eudify man > ~/.local/share/man/man1/eudify.1`.
    Man,
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

/// Examples at the end of `eudify grep --help`.
const GREP_HELP: &str = "\
Examples:
  eudify grep 'match { H =[nsubj:xsubj]=> S; }' dev.conllu
  eudify grep --by X.lemma 'match { H -[xcomp]-> X; }' dev.conllu
  eudify grep --lang cs --count 'match { N =[obl:v:loc]=> M; }' input.conllu
  eudify grep --conllu -f pattern.grew dev.conllu > test-set.conllu

Exit codes: 0 success (with or without matches); 1 a pattern that does not check, or invalid
input (FILE:LINE: message); 2 a file that cannot be read or written.";

#[derive(clap::Args, Debug)]
pub struct GrepArgs {
    /// The pattern: `match { … }` and optional `without { … }` blocks, as in a rule (or, with
    /// -f, the first input file).
    #[arg(value_name = "PATTERN")]
    pub pattern: Option<String>,
    /// CoNLL-U inputs (gzip or not); none or `-` reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Read the pattern from FILE.
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub pattern_file: Option<PathBuf>,
    /// Search the graph this profile computes from the basic trees (input DEPS ignored),
    /// instead of the file's own DEPS; `@profile` lists are the profile's.
    #[arg(short, long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Rules folder to use instead of the embedded rules: search the graph they compute (with
    /// --lang's profile, or without it the profile the input shows, said on stderr).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Print the number of matches (per file when there are several).
    #[arg(short, long, conflicts_with_all = ["json", "conllu"])]
    pub count: bool,
    /// Count matches per value of VAR.FIELD (X.lemma, X.upos, X.deprel, X.Case, e.label…),
    /// most frequent first; repeat for combinations.
    #[arg(long, value_name = "VAR.FIELD", conflicts_with_all = ["json", "conllu", "count"])]
    pub by: Vec<String>,
    /// One JSON object per match: file, line, sent_id, node ids per variable, named edges.
    #[arg(long, conflicts_with = "conllu")]
    pub json: bool,
    /// The matching sentences whole, each match as a `# match = VAR=ID …` comment before it.
    #[arg(long)]
    pub conllu: bool,
}

/// Examples at the end of `eudify view --help`.
const VIEW_HELP: &str = "\
Examples:
  eudify view dev.conllu -o dev.html
  eudify view --lang cs dev.conllu -o dev.html          (its own DEPS are the gold)
  eudify view --lang cs --gold gold.conllu parsed.conllu -o parsed.html
  eudify view --grep 'match { H =[nsubj:xsubj]=> S; }' dev.conllu -o xsubj.html
  eudify view --serve --lang cs --rules my-rules dev.conllu   (live while the rules are edited)

Exit codes: 0 success; 1 invalid input (FILE:LINE: message), rules or a pattern that do not
check, or a gold file of another text; 2 a file that cannot be read or written.";

#[derive(clap::Args, Debug)]
pub struct ViewArgs {
    /// The CoNLL-U file to draw (gzip or not; `-` reads stdin).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Gold CoNLL-U of the same text: wrong and missing enhanced edges are marked, with ELAS
    /// per sentence, errors per rule and precision/recall per phenomenon.
    #[arg(long, value_name = "GOLD")]
    pub gold: Option<PathBuf>,
    /// Run this profile's rules on the basic trees and draw their graph (FILE's own DEPS, if
    /// it has any, are then the gold unless --gold is given); without it, FILE's DEPS are drawn.
    #[arg(short, long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Rules folder to use with --lang instead of the embedded rules.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Mark the matches of this pattern (`match { … }` and `without { … }` blocks, as
    /// `eudify grep` takes them) and offer them as a filter.
    #[arg(long, value_name = "PATTERN", conflicts_with = "grep_file")]
    pub grep: Option<String>,
    /// Read the --grep pattern from F.
    #[arg(long, value_name = "F")]
    pub grep_file: Option<PathBuf>,
    /// The page to write (replaced only on success); stdout without it.
    #[arg(short, long, value_name = "PAGE.html")]
    pub output: Option<PathBuf>,
    /// Serve the page on 127.0.0.1 and rebuild it whenever the rule folder or an input
    /// changes: the open page follows, with what changed (docs/serve.md).
    #[arg(long, conflicts_with = "output")]
    pub serve: bool,
    /// The port --serve listens on (0: a free one, printed).
    #[arg(long, value_name = "N", requires = "serve", default_value_t = crate::serve::DEFAULT_PORT)]
    pub port: u16,
}

#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// CoNLL-U files with gold enhanced graphs (DEPS); `-` reads stdin.
    #[arg(value_name = "GOLD", required = true)]
    pub gold: Vec<PathBuf>,
    /// The profile to start from (default: the one --lang selects, else the one the gold shows,
    /// as `enhance` without --lang chooses it: a treebank code in the file name or sent_ids, else
    /// the language of its words; else universal).
    #[arg(long, value_name = "CODE")]
    pub base: Option<String>,
    /// UD language or treebank code of the sample, for the base profile.
    #[arg(short, long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Name of the fitted profile (default: fitted).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Also print the cross-validated ELAS of the base and the fitted profile over K folds (and
    /// per enhancement type).
    #[arg(long, value_name = "K")]
    pub folds: Option<usize>,
    /// The folder to write: profiles/NAME.toml, lexicons/NAME.toml, fit-report.txt.
    #[arg(short, long, value_name = "DIR", required = true)]
    pub output: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// UD language or treebank code, or a profile name (default: the profile the input shows,
    /// said on stderr; see `eudify enhance --help`).
    #[arg(short, long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Rules folder to use instead of the embedded rules.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Candidate bindings the rules' searches may try per word of a sentence (default 10,000;
    /// a sentence counts as at least ten words). Past it the sentence is a runaway: written with
    /// basic DEPS and reported.
    #[arg(long, value_name = "PER_WORD")]
    pub search_budget: Option<u64>,
    /// Only the sentence with this `# sent_id`.
    #[arg(long, value_name = "ID")]
    pub sent_id: Option<String>,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// CoNLL-U input (gzip or not); `-` reads stdin.
    pub file: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct EnhanceArgs {
    /// UD language code (`cs`) or treebank code (`cs_cac`, `en_ewt`), or a profile name (`basic`).
    /// Without it, the profile the input shows (a treebank code in the file name, `# newdoc id`
    /// or `# sent_id`, else the language of its words), said on stderr; weak evidence is an
    /// error asking for --lang.
    #[arg(short, long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Load rules, profiles and lexicons from this folder instead of the embedded ones.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Candidate bindings the rules' searches may try per word of a sentence (default 10,000;
    /// a sentence counts as at least ten words). Past it the sentence is a runaway: written with
    /// basic DEPS and reported.
    #[arg(long, value_name = "PER_WORD")]
    pub search_budget: Option<u64>,
    /// Threads that enhance (default and most: one per core); 1 runs everything on one thread.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// What to do with an invalid sentence.
    #[arg(long, value_enum, default_value_t = OnErrorArg::Fail)]
    pub on_error: OnErrorArg,
    /// Show a progress bar with tokens/s on stderr (default: only for input files over
    /// 50 MB when stderr is a terminal).
    #[arg(long)]
    pub progress: bool,
    /// Write to FILE instead of stdout. FILE is replaced only when the run succeeds, so it may
    /// be one of the inputs.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Input files (gzip or not); none or `-` reads stdin.
    pub files: Vec<PathBuf>,
}

/// How large one line, one sentence's comments and one sentence may be (docs/limits.md). Past
/// a limit a sentence is invalid input; a sentence over --max-sentence-bytes is never held
/// in memory whole.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Input limits")]
pub struct LimitArgs {
    /// Longest line, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_line_bytes)]
    pub max_line_bytes: usize,
    /// Most bytes of one sentence's comment lines together.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_comment_bytes)]
    pub max_comment_bytes: usize,
    /// Longest sentence, in bytes (with the blank lines after it).
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_sentence_bytes)]
    pub max_sentence_bytes: usize,
    /// Most lines of one sentence (comments, words, multiword tokens, empty nodes).
    #[arg(long, value_name = "LINES", default_value_t = Limits::default().max_sentence_lines)]
    pub max_sentence_lines: usize,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_line_bytes: self.max_line_bytes,
            max_comment_bytes: self.max_comment_bytes,
            max_sentence_bytes: self.max_sentence_bytes,
            max_sentence_lines: self.max_sentence_lines,
        }
    }
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
    /// GOLD SYSTEM: CoNLL-U files (gzip or not; `-` reads stdin, not both). With --macro: GOLD
    /// SYSTEM repeated, or one TSV file of `GOLD<TAB>SYSTEM` lines (relative to the TSV's folder).
    /// With --by-rule: GOLD [SYSTEM], SYSTEM a basic parse of GOLD's text.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Add precision/recall per enhancement phenomenon (see docs/phenomena.md).
    #[arg(long)]
    pub phenomena: bool,
    /// Score as GramEval 2020's official script does instead (line by line: UPOS, features,
    /// lemmas, LAS and their mean; docs/evaluation.md lists its rules).
    #[arg(long, conflicts_with_all = ["phenomena", "bootstrap", "compare"])]
    pub gram_eval: bool,
    /// Score several pairs: one line per pair and the macro average (mean over pairs).
    #[arg(long = "macro")]
    pub macro_average: bool,
    /// Add 95% confidence intervals of every F1 from N resamplings of the sentences (N at
    /// most 100000).
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Seed of the resampling (same seed, same intervals).
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    pub seed: u64,
    /// Compare SYSTEM with SYSTEM_B by a paired bootstrap test (--bootstrap N resamplings,
    /// 1000 by default): whether they differ significantly (p < 0.05).
    #[arg(long, value_name = "SYSTEM_B")]
    pub compare: Option<PathBuf>,
    /// Enhance SYSTEM's basic trees (its DEPS ignored; without SYSTEM, GOLD's own) with the
    /// rules of --lang, then list for each rule the edges it made that gold lacks and the gold
    /// edges it removed, and per phenomenon the gold edges missing (docs/evaluation.md).
    #[arg(long, conflicts_with_all = ["phenomena", "gram_eval", "macro_average", "bootstrap", "compare"])]
    pub by_rule: bool,
    /// With --by-rule: the language or treebank code, or profile, whose rules run (as
    /// `enhance --lang`; without it, the profile GOLD shows, said on stderr).
    #[arg(short, long, value_name = "CODE", requires = "by_rule")]
    pub lang: Option<String>,
    /// With --by-rule: rules folder to use instead of the embedded rules.
    #[arg(long, value_name = "DIR", requires = "by_rule")]
    pub rules: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// CoNLL-U files (gzip or not); `-` reads stdin.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ProfilesArgs {
    /// Load profiles from this folder instead of the embedded ones.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
