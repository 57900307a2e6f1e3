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

mod detect;
mod explain;
pub mod files;
mod grep;
mod rules;
mod run;

pub use detect::{
    detect_profile, detect_profile_for_file, read_sample, Detection, Evidence, TextScores,
    MIN_RATIO, MIN_WORDS, SAMPLE_BYTES, SAMPLE_WORDS,
};
pub use explain::{EdgeChange, EnhancedEdge, Explanation, RuleApplication, RuleRef};
pub use grep::{
    Match, MatchedEdge, MatchedNode, Pattern, SearchCounts, SearchResult, SentenceMatches,
    PATTERN_NAME,
};
pub use rules::{
    check_rules, export_rules, profiles, test_examples, ExampleFailure, ExampleReport, Profile,
};
pub use run::{worker_threads, OnError, RunOptions, Runner, Summary};

use crate::conllu::input;
use crate::conllu::output::FileOutput;
use crate::conllu::{BlockReader, RawBlock, Sentence};
use crate::engine;
use crate::error::Error;
use crate::graph::SentenceGraph;
use std::io::{BufRead, Write};
use std::path::Path;

/// The input name [`Enhancer::enhance_str`] reports errors under.
pub const STRING_NAME: &str = "<string>";
/// The input name [`Enhancer::enhance_reader`] reports errors under.
pub const READER_NAME: &str = "<input>";

/// The end of a runaway's notice, left out of [`Runaway::message`].
const RUNAWAY_OUTCOME: &str = " (sentence written with basic DEPS)";

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
    /// The rule applied or searched last when the limit was reached (`None` when the input
    /// could not be read again: stdin).
    pub rule: Option<RuleRef>,
    /// Why the rules were stopped, as the CLI reports it after `FILE:LINE: `.
    pub message: String,
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
        let summary = self.run(&file, reader, &mut out, threads)?;
        out.finish().map_err(output)?;
        Ok(summary)
    }

    /// [`Enhancer::enhance_str`], and each sentence whose rules ran away: where it is, its
    /// `sent_id` and the rule that was stopped ([`Report`], what the Python package reports).
    pub fn enhance_str_with_report(&self, conllu: &str) -> Result<(String, Report), Error> {
        let mut out = Vec::with_capacity(conllu.len() + conllu.len() / 4);
        let (summary, notices) = self.run_noting(STRING_NAME, conllu.as_bytes(), &mut out, 1)?;
        let out = String::from_utf8(out).expect("enhanced CoNLL-U from a str is UTF-8");
        let runaways = self.runaways(STRING_NAME, conllu.as_bytes(), &notices)?;
        Ok((out, Report { summary, runaways }))
    }

    /// [`Enhancer::enhance_file`], and each sentence whose rules ran away ([`Report`]); `src`
    /// is read a second time for their `sent_id` and rule only when there are any (not when it
    /// is stdin, which cannot be: then only their lines and messages are known).
    pub fn enhance_file_with_report(
        &self,
        src: &Path,
        dst: &Path,
        threads: usize,
    ) -> Result<Report, Error> {
        let file = input::display_name(src);
        let open = || {
            input::open(src).map_err(|error| Error::Io {
                file: file.clone(),
                error,
            })
        };
        let output = |error| Error::Io {
            file: dst.display().to_string(),
            error,
        };
        let mut out = FileOutput::create(dst).map_err(output)?;
        let (summary, notices) = self.run_noting(&file, open()?, &mut out, threads)?;
        out.finish().map_err(output)?;
        let runaways = match notices.is_empty() || input::is_stdin(src) {
            true => notices
                .into_iter()
                .map(|(line, message)| Runaway {
                    line,
                    message,
                    sent_id: None,
                    rule: None,
                })
                .collect(),
            false => self.runaways(&file, open()?, &notices)?,
        };
        Ok(Report { summary, runaways })
    }

    /// [`Enhancer::run`], keeping the line and message of each runaway's notice (the only
    /// notices under [`OnError::Fail`] but the lemma warning, which is in the summary).
    fn run_noting(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        threads: usize,
    ) -> Result<(Summary, Vec<(usize, String)>), Error> {
        let runner = self.runner(RunOptions {
            threads,
            on_error: OnError::Fail,
        })?;
        let mut notices = Vec::new();
        // `FILE:LINE: message (sentence written with basic DEPS)`, as the CLI prints it.
        let summary = runner.enhance(file, input, out, &mut |notice| {
            let parsed = notice
                .strip_prefix(file)
                .and_then(|rest| rest.strip_prefix(':'))
                .and_then(|rest| {
                    let (line, message) = rest.split_once(": ")?;
                    Some((
                        line.parse().ok()?,
                        message.trim_end_matches(RUNAWAY_OUTCOME).to_string(),
                    ))
                });
            notices.extend(parsed);
        })?;
        Ok((summary, notices))
    }

    /// The runaways of `notices` (line, message) with their sentences' `sent_id` and the rule
    /// stopped, found by reading `input` again and running the rules of those sentences again.
    fn runaways(
        &self,
        file: &str,
        input: impl BufRead,
        notices: &[(usize, String)],
    ) -> Result<Vec<Runaway>, Error> {
        let mut runaways = Vec::with_capacity(notices.len());
        let mut wanted = notices.iter().peekable();
        let mut reader = BlockReader::new(input);
        let mut block = RawBlock::default();
        while let Some((line, _)) = wanted.peek() {
            if !reader.read_block(&mut block).map_err(|error| Error::Io {
                file: file.to_string(),
                error,
            })? {
                break;
            }
            if block.first_line != *line || block.is_blank() {
                continue;
            }
            let (line, message) = wanted.next().expect("peeked");
            let (mut sent_id, mut rule) = (None, None);
            if let Ok(sentence) = Sentence::parse_ignoring_deps(std::mem::take(&mut block)) {
                sent_id = sentence.comment("sent_id").map(str::to_string);
                if let Err(stopped) = self.engine.run(&mut SentenceGraph::from_basic(&sentence)) {
                    let (path, at) = stopped
                        .location
                        .rsplit_once(':')
                        .unwrap_or((&stopped.location, "0"));
                    rule = Some(RuleRef {
                        name: stopped.rule,
                        file: path.to_string(),
                        line: at.parse().unwrap_or(0),
                        phase: stopped.phase,
                    });
                }
            }
            runaways.push(Runaway {
                line: *line,
                sent_id,
                rule,
                message: message.clone(),
            });
        }
        // A notice whose sentence was not found again (input changed since) keeps what it says.
        runaways.extend(wanted.map(|(line, message)| Runaway {
            line: *line,
            sent_id: None,
            rule: None,
            message: message.clone(),
        }));
        Ok(runaways)
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
