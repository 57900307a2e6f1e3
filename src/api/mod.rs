//! The library's front door: an [`Enhancer`] for a language profile (enhance a string, a reader,
//! a file, or many inputs with a [`Runner`]; explain what the rules did), the rules as a client
//! sees them (profiles, check, the rules' own examples), and the [`Error`] every call returns.
//! The `eudify` command (crate `eudify-cli`) and the Python package are clients of this module
//! and of [`crate::eval`] and [`crate::validate`], nothing else.
//!
//! ```
//! let enhancer = eudify::Enhancer::for_profile("cs", None)?;
//! let (enhanced, summary) = enhancer.enhance_str("# text = Ahoj\n1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n")?;
//! assert_eq!(summary.sentences, 1);
//! assert!(enhanced.contains("\t0:root\t"));
//! # Ok::<(), eudify::Error>(())
//! ```

pub mod detect;
mod explain;
pub mod files;
mod grep;
mod rules;
mod run;
mod view;
mod view_diff;

pub use detect::{detect_profile, detect_profile_for_file, Detection};
pub use explain::{EdgeChange, EnhancedEdge, Explanation, RuleApplication, RuleRef};
pub use grep::{
    Match, MatchedEdge, MatchedNode, Pattern, Search, SearchCounts, SearchResult, SentenceMatches,
    PATTERN_NAME,
};
pub use rules::{
    check_rules, export_rules, profiles, test_examples, ExampleFailure, ExampleReport, Profile,
};
pub use run::{worker_threads, OnError, RunOptions, Runner, Summary};
pub use view::{
    EdgeOrigin, GoldScores, GoldStatus, RuleErrors, ScoreRow, SearchSummary, View, ViewEdge,
    ViewRule, ViewSentence, ViewWord,
};
pub use view_diff::{ChangedEdge, RuleChanges, SentenceChanges, ViewChanges};

use crate::conllu::input;
use crate::conllu::output::FileOutput;
use crate::engine;
use crate::error::Error;
use std::io::{BufRead, Write};
use std::path::Path;

/// The input name [`Enhancer::enhance_str`] reports errors under.
pub const STRING_NAME: &str = "<string>";
/// The input name [`Enhancer::enhance_reader`] reports errors under.
pub const READER_NAME: &str = "<input>";

/// What an enhance call did ([`Enhancer::enhance_str_with_report`],
/// [`Enhancer::enhance_file_with_report`]): the counts, and each sentence whose rules ran away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Sentences and words read, labels repaired by kind, runaways counted.
    pub summary: Summary,
    /// The sentences written with basic DEPS because their rules reached the engine's limits,
    /// in input order.
    pub runaways: Vec<Runaway>,
}

/// A sentence whose rules ran away: it was written with the basic tree's copy as DEPS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runaway {
    /// The line of the input where the sentence starts, from 1.
    pub line: usize,
    /// Its `# sent_id`, if it has one.
    pub sent_id: Option<String>,
    /// The rule applied or searched last when the limit was reached.
    pub rule: RuleRef,
    /// Why the rules were stopped, as the CLI reports it after `FILE:LINE: `.
    pub message: String,
}

/// `run` from the file `src` (`-`: stdin; gzip is read too; errors name it as given) into
/// `dst`, which is replaced only once `run` has succeeded.
fn file_to_file<T>(
    src: &Path,
    dst: &Path,
    run: impl FnOnce(&str, Box<dyn BufRead>, &mut FileOutput) -> Result<T, Error>,
) -> Result<T, Error> {
    let file = input::display_name(src);
    let reader = input::open(src).map_err(|error| Error::Io {
        file: file.clone(),
        error,
    })?;
    let output = |error| Error::Io {
        file: dst.display().to_string(),
        error,
    };
    let mut out = FileOutput::create(dst).map_err(output)?;
    let done = run(&file, reader, &mut out)?;
    out.finish().map_err(output)?;
    Ok(done)
}

impl From<&crate::pipeline::Runaway> for Runaway {
    fn from(runaway: &crate::pipeline::Runaway) -> Self {
        let stopped = &runaway.stopped;
        // `location` is `path:line`; a path may hold ':' itself.
        let (file, line) = stopped
            .location
            .rsplit_once(':')
            .unwrap_or((&stopped.location, "0"));
        Runaway {
            line: runaway.line,
            sent_id: runaway.sent_id.clone(),
            rule: RuleRef {
                name: stopped.rule.clone(),
                file: file.to_string(),
                line: line.parse().unwrap_or(0),
                phase: stopped.phase.clone(),
            },
            message: runaway.message(),
        }
    }
}

/// A language profile's rules, compiled: enhances any number of inputs, from any number of
/// threads at once (it is `Send + Sync` and never changes).
pub struct Enhancer {
    engine: engine::Engine,
    profile: String,
    warning: Option<String>,
}

impl Enhancer {
    /// The enhancer for a language code or profile name, resolved as `eudify enhance --lang`
    /// does (a code such as `cs`, `fr` or a profile name such as `cs_pdt`; a language name such as
    /// `Czech` is no code: an unknown one falls back to the universal profile with a
    /// [warning](Self::warning)). `rules` is an edited copy of the `rules/` directory to use
    /// instead of the embedded rules.
    pub fn for_profile(code: &str, rules: Option<&Path>) -> Result<Enhancer, Error> {
        let source = rules::rule_source(rules)?;
        let (profile, warning) = crate::rules::resolve_profile(&source, code);
        let rule_set = crate::rules::load_ruleset(&source, &profile)
            .map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
        Ok(Enhancer {
            engine: engine::Engine::new(&rule_set),
            profile,
            warning,
        })
    }

    /// The same enhancer with a search budget of `per_word` candidate bindings per word of a
    /// sentence (one counted as at least ten words long; default 10,000): a sentence whose
    /// rules search more is written with basic DEPS and reported as a runaway. A rule folder
    /// whose searches need more on long sentences may raise it; tests lower it.
    pub fn with_search_budget(mut self, per_word: u64) -> Enhancer {
        self.engine.work_budget = engine::WorkBudget { per_word };
        self
    }

    /// The profile the code resolved to.
    pub fn profile(&self) -> &str {
        &self.profile
    }

    /// What the CLI prints as `warning: …` when the code was resolved (a fallback profile).
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Enhances CoNLL-U text on the calling thread: the text with every sentence's DEPS (and
    /// empty nodes) recomputed, and what was done. Errors name the input `<string>`.
    pub fn enhance_str(&self, conllu: &str) -> Result<(String, Summary), Error> {
        let mut out = Vec::with_capacity(conllu.len() + conllu.len() / 4);
        let summary = self.run(STRING_NAME, conllu.as_bytes(), &mut out, 1)?;
        // The pipeline copies every byte but DEPS, which it writes as UTF-8.
        let out = String::from_utf8(out).expect("enhanced CoNLL-U from a str is UTF-8");
        Ok((out, summary))
    }

    /// Enhances everything `reader` gives into `writer`, with `threads` workers (0: one per
    /// core; 1: the calling thread only). The output is the same for any thread count. Errors
    /// name the input `<input>`.
    pub fn enhance_reader(
        &self,
        reader: impl BufRead,
        mut writer: impl Write,
        threads: usize,
    ) -> Result<Summary, Error> {
        let summary = self.run(READER_NAME, reader, &mut writer, threads)?;
        writer.flush().map_err(Error::Output)?;
        Ok(summary)
    }

    /// Enhances the file `src` (`-`: stdin; gzip is read too) into `dst`, which is replaced
    /// only on success (written beside it and renamed over it, as the CLI's `-o`). Errors name
    /// `src` as given.
    pub fn enhance_file(&self, src: &Path, dst: &Path, threads: usize) -> Result<Summary, Error> {
        file_to_file(src, dst, |file, reader, out| {
            self.run(file, reader, out, threads)
        })
    }

    /// [`Enhancer::enhance_str`], and each sentence whose rules ran away: where it is, its
    /// `sent_id` and the rule that was stopped ([`Report`], what the Python package reports).
    pub fn enhance_str_with_report(&self, conllu: &str) -> Result<(String, Report), Error> {
        let mut out = Vec::with_capacity(conllu.len() + conllu.len() / 4);
        let report = self.run_reporting(STRING_NAME, conllu.as_bytes(), &mut out, 1)?;
        let out = String::from_utf8(out).expect("enhanced CoNLL-U from a str is UTF-8");
        Ok((out, report))
    }

    /// [`Enhancer::enhance_file`], and each sentence whose rules ran away ([`Report`]).
    pub fn enhance_file_with_report(
        &self,
        src: &Path,
        dst: &Path,
        threads: usize,
    ) -> Result<Report, Error> {
        file_to_file(src, dst, |file, reader, out| {
            self.run_reporting(file, reader, out, threads)
        })
    }

    /// [`Enhancer::run`] under [`OnError::Fail`], keeping each runaway the run reports.
    fn run_reporting(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        threads: usize,
    ) -> Result<Report, Error> {
        let runner = self.runner(RunOptions {
            threads,
            on_error: OnError::Fail,
        })?;
        let mut runaways = Vec::new();
        let summary = runner.enhance_noting(file, input, out, &mut |notice| {
            runaways.extend(notice.runaway.map(Runaway::from));
        })?;
        Ok(Report { summary, runaways })
    }

    /// Enhances the basic trees of `system` (a parse of `gold`'s text; its DEPS ignored) with
    /// these rules and names the rule behind each enhanced edge that gold lacks, and per
    /// phenomenon the gold edges missing (`eudify eval --by-rule`).
    pub fn evaluate_by_rule(
        &self,
        gold: &Path,
        system: &Path,
    ) -> Result<crate::by_rule::ByRule, crate::eval::EvalError> {
        crate::by_rule::evaluate_files_by_rule(gold, system, &self.engine)
    }

    /// Enhances `input` with the calling thread and `threads` workers, failing at the first
    /// invalid sentence.
    fn run(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        threads: usize,
    ) -> Result<Summary, Error> {
        let runner = self.runner(RunOptions {
            threads,
            on_error: OnError::Fail,
        })?;
        // Under OnError::Fail the first invalid sentence is the error; runaways are counted in
        // the summary.
        runner.enhance(file, input, out, &mut |_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENTENCE: &str = "# text = Ahoj\n1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n";

    #[test]
    fn enhance_str_fills_deps_and_counts() {
        let enhancer = Enhancer::for_profile("cs", None).unwrap();
        assert_eq!(enhancer.warning(), None);
        let (out, summary) = enhancer.enhance_str(SENTENCE).unwrap();
        assert_eq!(out, SENTENCE.replace("root\t_", "root\t0:root"));
        assert_eq!((summary.sentences, summary.words), (1, 1));
    }

    #[test]
    fn bad_input_is_an_input_error_with_its_line() {
        let enhancer = Enhancer::for_profile("ud", None).unwrap();
        let text = format!("{SENTENCE}1\tA\ta\tX\t_\t_\t7\tdep\t_\t_\n\n");
        match enhancer.enhance_str(&text) {
            Err(Error::Input { file, line, .. }) => {
                assert_eq!((file.as_str(), line), (STRING_NAME, 4))
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn an_unknown_code_falls_back_with_a_warning() {
        let enhancer = Enhancer::for_profile("xx-no-such", None).unwrap();
        assert!(enhancer.warning().is_some());
    }

    #[test]
    fn a_rules_path_that_is_no_directory_is_a_rules_error() {
        let result = Enhancer::for_profile("cs", Some(Path::new("/no/such/rules")));
        assert!(matches!(result, Err(Error::Rules(_))));
    }

    #[test]
    fn threads_give_the_same_output() {
        let enhancer = Enhancer::for_profile("cs", None).unwrap();
        let text = SENTENCE.repeat(2000);
        let (one, _) = enhancer.enhance_str(&text).unwrap();
        let mut two = Vec::new();
        let summary = enhancer
            .enhance_reader(text.as_bytes(), &mut two, 2)
            .unwrap();
        assert_eq!(summary.sentences, 2000);
        assert_eq!(one.as_bytes(), two);
    }
}
