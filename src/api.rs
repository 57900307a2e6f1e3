//! The library's entry point: an [`Enhancer`] for a language profile, and the [`Error`]s it
//! returns. The CLI and the Python package both go through it.
//!
//! ```
//! let enhancer = eudify::Enhancer::for_profile("cs", None)?;
//! let (enhanced, summary) = enhancer.enhance_str("# text = Ahoj\n1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n")?;
//! assert_eq!(summary.sentences, 1);
//! assert!(enhanced.contains("\t0:root\t"));
//! # Ok::<(), eudify::Error>(())
//! ```

use crate::conllu::input;
use crate::conllu::output::FileOutput;
use crate::engine;
use crate::pipeline::{OnError, Pipeline, PipelineError, PipelineOptions, Summary};
use crate::rules::{self, RuleSource};
use std::io::{BufRead, Write};
use std::path::Path;

/// Why enhancing could not start or did not finish.
///
/// Displays as the CLI prints it: `FILE:LINE: message` for bad input, `FILE: message` for a
/// file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The rules or the profile do not load (a rules directory that is not one, a rule that
    /// does not check). The message holds every diagnostic, rendered.
    #[error("{0}")]
    Rules(String),
    /// A sentence of the input is not valid CoNLL-U.
    #[error("{file}:{line}: {message}")]
    Input {
        /// The input's name: its path, `<stdin>`, or `<string>` for [`Enhancer::enhance_str`].
        file: String,
        /// The line of the input, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// An input could not be opened or read.
    #[error("{file}: {error}")]
    Io {
        /// The input's name.
        file: String,
        /// The reason.
        #[source]
        error: std::io::Error,
    },
    /// The output could not be written.
    #[error("writing output: {0}")]
    Output(#[source] std::io::Error),
    /// A bug: enhancing a sentence panicked (the output ends before the chunk it was in).
    #[error("{file}: internal error: enhancing a sentence panicked ({message}); please report this")]
    Internal {
        /// The input's name.
        file: String,
        /// The panic's message.
        message: String,
    },
    /// The worker threads could not be started.
    #[error("starting worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

impl From<PipelineError> for Error {
    fn from(error: PipelineError) -> Error {
        match error {
            PipelineError::Input { file, error } => Error::Input { file, line: error.line, message: error.message },
            PipelineError::Io { file, error } => Error::Io { file, error },
            PipelineError::Output(error) => Error::Output(error),
            PipelineError::Panic { file, message } => Error::Internal { file, message },
        }
    }
}

/// The input name [`Enhancer::enhance_str`] reports errors under.
pub const STRING_NAME: &str = "<string>";
/// The input name [`Enhancer::enhance_reader`] reports errors under.
pub const READER_NAME: &str = "<input>";

/// A language profile's rules, compiled: enhances any number of inputs, from any number of
/// threads at once (it is `Send + Sync` and never changes).
pub struct Enhancer {
    engine: engine::Enhancer,
    profile: String,
    warning: Option<String>,
}

impl Enhancer {
    /// The enhancer for a language code or profile name, resolved as `eudify enhance --lang`
    /// does (`cs`, `cs_pdt`, `Czech`…; an unknown code falls back to the universal profile with
    /// a [warning](Self::warning)). `rules` is an edited copy of the `rules/` directory to use
    /// instead of the embedded rules.
    pub fn for_profile(code: &str, rules: Option<&Path>) -> Result<Enhancer, Error> {
        let source = match rules {
            None => RuleSource::embedded(),
            Some(dir) => RuleSource::from_dir(dir).map_err(Error::Rules)?,
        };
        let (profile, warning) = rules::resolve_profile(&source, code);
        let rule_set = rules::load_ruleset(&source, &profile).map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
        Ok(Enhancer { engine: engine::Enhancer::new(&rule_set), profile, warning })
    }

    /// The profile the code resolved to.
    pub fn profile(&self) -> &str {
        &self.profile
    }

    /// What the CLI prints as `warning: …` when the code was resolved (a fallback profile).
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// The compiled rules, for what the facade does not cover (tracing, `eudify explain`).
    pub(crate) fn engine(&self) -> &engine::Enhancer {
        &self.engine
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
    pub fn enhance_reader(&self, reader: impl BufRead, mut writer: impl Write, threads: usize) -> Result<Summary, Error> {
        let summary = self.run(READER_NAME, reader, &mut writer, threads)?;
        writer.flush().map_err(Error::Output)?;
        Ok(summary)
    }

    /// Enhances the file `src` (`-`: stdin; gzip is read too) into `dst`, which is replaced
    /// only on success (written beside it and renamed over it, as the CLI's `-o`). Errors name
    /// `src` as given.
    pub fn enhance_file(&self, src: &Path, dst: &Path, threads: usize) -> Result<Summary, Error> {
        let file = input::display_name(src);
        let reader = input::open(src).map_err(|error| Error::Io { file: file.clone(), error })?;
        let output = |error| Error::Io { file: dst.display().to_string(), error };
        let mut out = FileOutput::create(dst).map_err(output)?;
        let summary = self.run(&file, reader, &mut out, threads)?;
        out.finish().map_err(output)?;
        Ok(summary)
    }

    fn run(&self, file: &str, reader: impl BufRead, out: &mut dyn Write, threads: usize) -> Result<Summary, Error> {
        let options = PipelineOptions { threads, on_error: OnError::Fail, ..PipelineOptions::default() };
        let pipeline = Pipeline::new(&self.engine, options)?;
        // Under OnError::Fail nothing is reported: the first invalid sentence is the error.
        Ok(pipeline.run(file, reader, out, &mut |_| {})?)
    }
}

/// A language profile, as `eudify profiles` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The name [`Enhancer::for_profile`] takes (`cs`, `en`, `universal`…).
    pub name: String,
    /// What it annotates, in one line.
    pub description: String,
    /// The profile it builds on, if any.
    pub extends: Option<String>,
}

/// Every profile of the embedded rules, or of `rules` (an edited copy of the `rules/`
/// directory), sorted by name. A profile file that does not read is an [`Error::Rules`] with
/// every diagnostic.
pub fn profiles(rules: Option<&Path>) -> Result<Vec<Profile>, Error> {
    let source = match rules {
        None => RuleSource::embedded(),
        Some(dir) => RuleSource::from_dir(dir).map_err(Error::Rules)?,
    };
    let list = rules::list_profiles(&source).map_err(|(sources, diagnostics)| {
        Error::Rules(rules::diagnostic::render_all(&diagnostics, &sources).trim_end().to_string())
    })?;
    Ok(list.into_iter().map(|p| Profile { name: p.name, description: p.description, extends: p.extends }).collect())
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
            Err(Error::Input { file, line, .. }) => assert_eq!((file.as_str(), line), (STRING_NAME, 4)),
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
    fn profiles_lists_the_embedded_profiles_with_their_parents() {
        let list = profiles(None).unwrap();
        let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        let cs = list.iter().find(|p| p.name == "cs").expect("a cs profile");
        assert!(cs.extends.is_some() && !cs.description.is_empty(), "{cs:?}");
        assert!(matches!(profiles(Some(Path::new("/no/such/rules"))), Err(Error::Rules(_))));
    }

    #[test]
    fn threads_give_the_same_output() {
        let enhancer = Enhancer::for_profile("cs", None).unwrap();
        let text = SENTENCE.repeat(2000);
        let (one, _) = enhancer.enhance_str(&text).unwrap();
        let mut two = Vec::new();
        let summary = enhancer.enhance_reader(text.as_bytes(), &mut two, 2).unwrap();
        assert_eq!(summary.sentences, 2000);
        assert_eq!(one.as_bytes(), two);
    }
}
