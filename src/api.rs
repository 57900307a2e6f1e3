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

use crate::conllu::output::FileOutput;
use crate::conllu::{input, BlockReader, EnhancedLayer, RawBlock, Sentence};
use crate::engine::{self, trace::EdgeText};
use crate::graph::Origin;
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
    #[error(
        "{file}: internal error: enhancing a sentence panicked ({message}); please report this"
    )]
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
            PipelineError::Input { file, error } => Error::Input {
                file,
                line: error.line,
                message: error.message,
            },
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
        let rule_set = rules::load_ruleset(&source, &profile)
            .map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
        Ok(Enhancer {
            engine: engine::Enhancer::new(&rule_set),
            profile,
            warning,
        })
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

    /// The compiled rules, for the crate's own tests (the unstable `internals` feature).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn compiled(&self) -> &engine::Enhancer {
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

    /// Enhances CoNLL-U text as [`Enhancer::enhance_str`] does and tells, per sentence, what
    /// each rule application did, in order, and which rule made each edge of the result.
    /// Errors name the input `<string>`.
    ///
    /// ```
    /// let enhancer = eudify::Enhancer::for_profile("en", None)?;
    /// let text = "1\tto\tto\tADP\t_\t_\t2\tcase\t_\t_\n2\tPrague\tPrague\tPROPN\t_\t_\t0\troot\t_\t_\n\n";
    /// let sentences = enhancer.explain(text)?;
    /// assert_eq!(sentences[0].edges[0].rule, None); // 2 → 1 case: the basic copy
    /// # Ok::<(), eudify::Error>(())
    /// ```
    pub fn explain(&self, conllu: &str) -> Result<Vec<Explanation>, Error> {
        let mut reader = BlockReader::new(conllu.as_bytes());
        let mut block = RawBlock::default();
        let mut layer = EnhancedLayer::default();
        let mut sentences = Vec::new();
        let rule = |r: u32| {
            let compiled = &self.engine.rules[r as usize].rule;
            RuleRef {
                name: compiled.name.to_string(),
                file: compiled.path.clone(),
                line: compiled.span.line as usize,
                phase: self.engine.phase_of(r).to_string(),
            }
        };
        let change = |edge: &EdgeText, old_label: Option<&str>| EdgeChange {
            dependent: edge.dependent.to_string(),
            head: edge.head.to_string(),
            label: edge.label.clone(),
            old_label: old_label.map(str::to_string),
        };
        // (Reading a byte slice cannot fail.)
        while reader.read_block(&mut block).map_err(|error| Error::Io {
            file: STRING_NAME.to_string(),
            error,
        })? {
            if block.is_blank() {
                continue;
            }
            let sentence =
                Sentence::parse_ignoring_deps(std::mem::take(&mut block)).map_err(|e| {
                    Error::Input {
                        file: STRING_NAME.to_string(),
                        line: e.1.line,
                        message: e.1.message,
                    }
                })?;
            let trace = self.engine.trace(&sentence, &mut layer);
            let applications = trace
                .applications
                .iter()
                .map(|a| RuleApplication {
                    rule: rule(a.rule),
                    added: a.added.iter().map(|e| change(e, None)).collect(),
                    removed: a.removed.iter().map(|e| change(e, None)).collect(),
                    relabelled: a
                        .relabelled
                        .iter()
                        .map(|(e, old)| change(e, Some(old)))
                        .collect(),
                    empty_nodes: a.empty_nodes.iter().map(|id| id.to_string()).collect(),
                })
                .collect();
            let edges = trace
                .edges
                .iter()
                .map(|e| EnhancedEdge {
                    dependent: e.dependent.to_string(),
                    head: e.head.to_string(),
                    label: e.label.clone(),
                    rule: match e.origin {
                        Origin::Basic => None,
                        Origin::Rule(r) => Some(rule(r)),
                    },
                })
                .collect();
            sentences.push(Explanation {
                sent_id: sentence.comment("sent_id").map(str::to_string),
                line: sentence.first_line,
                applications,
                edges,
                runaway: trace.runaway.map(|e| e.to_string()),
            });
        }
        Ok(sentences)
    }

    fn run(
        &self,
        file: &str,
        reader: impl BufRead,
        out: &mut dyn Write,
        threads: usize,
    ) -> Result<Summary, Error> {
        let options = PipelineOptions {
            threads,
            on_error: OnError::Fail,
            ..PipelineOptions::default()
        };
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
        Error::Rules(
            rules::diagnostic::render_all(&diagnostics, &sources)
                .trim_end()
                .to_string(),
        )
    })?;
    Ok(list
        .into_iter()
        .map(|p| Profile {
            name: p.name,
            description: p.description,
            extends: p.extends,
        })
        .collect())
}

/// One sentence as [`Enhancer::explain`] tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The sentence's `# sent_id`, if it has one.
    pub sent_id: Option<String>,
    /// The line of the input where the sentence starts, from 1.
    pub line: usize,
    /// The rule applications that changed the enhanced graph, in the order they were made.
    pub applications: Vec<RuleApplication>,
    /// Every edge of the enhanced graph written out, sorted by dependent, head and label.
    pub edges: Vec<EnhancedEdge>,
    /// Why the rules were stopped on this sentence (they ran away): its output is then the
    /// basic copy, as `eudify enhance` writes it, and `applications` those made before.
    pub runaway: Option<String>,
}

/// A rule of the profile, where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRef {
    /// The rule's name.
    pub name: String,
    /// Its rule file (`rules/universal/case.rules`).
    pub file: String,
    /// The line of the file where the rule starts, from 1.
    pub line: usize,
    /// The phase it runs in.
    pub phase: String,
}

/// What one application of a rule (to one match) changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleApplication {
    /// The rule applied.
    pub rule: RuleRef,
    /// Edges added.
    pub added: Vec<EdgeChange>,
    /// Edges removed.
    pub removed: Vec<EdgeChange>,
    /// Edges given a new label (`label`; the old one is `old_label`).
    pub relabelled: Vec<EdgeChange>,
    /// Empty nodes added, by their id on output (`5.1`).
    pub empty_nodes: Vec<String>,
}

/// An edge a rule application changed. Node ids are written as in CoNLL-U (`0` the root,
/// `5.1` an empty node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeChange {
    /// The dependent's id.
    pub dependent: String,
    /// The head's id.
    pub head: String,
    /// The edge's label (after the change, for a relabelled edge).
    pub label: String,
    /// A relabelled edge's label before the change; `None` for added and removed edges.
    pub old_label: Option<String>,
}

/// An edge of the enhanced graph written out, with where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnhancedEdge {
    /// The dependent's id.
    pub dependent: String,
    /// The head's id.
    pub head: String,
    /// The label.
    pub label: String,
    /// The rule that added it or last changed its label; `None`: the basic tree's edge, copied.
    pub rule: Option<RuleRef>,
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

    /// Mary sang and danced in Prague.
    const COORDINATION: &str = "# sent_id = s1\n1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t_\t_\n\
        2\tsang\tsing\tVERB\t_\t_\t0\troot\t_\t_\n3\tand\tand\tCCONJ\t_\t_\t4\tcc\t_\t_\n\
        4\tdanced\tdance\tVERB\t_\t_\t2\tconj\t_\t_\n5\tin\tin\tADP\t_\t_\t6\tcase\t_\t_\n\
        6\tPrague\tPrague\tPROPN\t_\t_\t4\tobl\t_\t_\n\n";

    fn edge(dependent: &str, head: &str, label: &str, old_label: Option<&str>) -> EdgeChange {
        let old_label = old_label.map(str::to_string);
        EdgeChange {
            dependent: dependent.into(),
            head: head.into(),
            label: label.into(),
            old_label,
        }
    }

    #[test]
    fn explain_lists_each_application_and_each_edges_rule() {
        let enhancer = Enhancer::for_profile("en", None).unwrap();
        let text = format!("{SENTENCE}{COORDINATION}");
        let sentences = enhancer.explain(&text).unwrap();
        assert_eq!(sentences.len(), 2);
        assert_eq!(
            (sentences[0].sent_id.as_deref(), sentences[0].line),
            (None, 1)
        );
        assert!(sentences[0].applications.is_empty());
        let s = &sentences[1];
        assert_eq!(
            (s.sent_id.as_deref(), s.line, s.runaway.as_deref()),
            (Some("s1"), 4, None)
        );
        // Each change once, by the rule that made it, in the order made.
        let changes: Vec<(&str, Vec<EdgeChange>, Vec<EdgeChange>)> = s
            .applications
            .iter()
            .map(|a| (a.rule.name.as_str(), a.added.clone(), a.relabelled.clone()))
            .collect();
        let shared = (
            "shared_subject",
            vec![edge("1", "4", "nsubj", None)],
            vec![],
        );
        let conj = (
            "conj_label",
            vec![],
            vec![edge("4", "2", "conj:and", Some("conj"))],
        );
        let case = (
            "case_label",
            vec![],
            vec![edge("6", "4", "obl:in", Some("obl"))],
        );
        for expected in [&shared, &conj, &case] {
            assert_eq!(
                changes.iter().filter(|c| c == &expected).count(),
                1,
                "{expected:?} in {changes:?}"
            );
        }
        assert_eq!(changes.len(), 3, "{changes:?}");
        assert!(s
            .applications
            .iter()
            .all(|a| a.removed.is_empty() && a.empty_nodes.is_empty()));
        let case_rule = &s
            .applications
            .iter()
            .find(|a| a.rule.name == "case_label")
            .unwrap()
            .rule;
        assert!(
            case_rule.file.ends_with("case.rules")
                && case_rule.line > 0
                && !case_rule.phase.is_empty(),
            "{case_rule:?}"
        );
        // The edges as written, each with its rule (None: the basic copy).
        let edges: Vec<(&str, &str, &str, Option<&str>)> = s
            .edges
            .iter()
            .map(|e| {
                (
                    e.dependent.as_str(),
                    e.head.as_str(),
                    e.label.as_str(),
                    e.rule.as_ref().map(|r| r.name.as_str()),
                )
            })
            .collect();
        assert_eq!(
            edges,
            [
                ("1", "2", "nsubj", None),
                ("1", "4", "nsubj", Some("shared_subject")),
                ("2", "0", "root", None),
                ("3", "4", "cc", None),
                ("4", "2", "conj:and", Some("conj_label")),
                ("5", "6", "case", None),
                ("6", "4", "obl:in", Some("case_label")),
            ]
        );
        // The same edges as enhance writes.
        let (enhanced, _) = enhancer.enhance_str(COORDINATION).unwrap();
        assert!(
            enhanced.contains("\t2:nsubj|4:nsubj\t") && enhanced.contains("\t4:obl:in\t"),
            "{enhanced}"
        );
    }

    #[test]
    fn explain_reports_bad_input_with_its_line() {
        let enhancer = Enhancer::for_profile("en", None).unwrap();
        let text = format!("{COORDINATION}1\tA\ta\tX\t_\t_\t7\tdep\t_\t_\n\n");
        match enhancer.explain(&text) {
            Err(Error::Input { file, line, .. }) => {
                assert_eq!((file.as_str(), line), (STRING_NAME, 9))
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn profiles_lists_the_embedded_profiles_with_their_parents() {
        let list = profiles(None).unwrap();
        let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        let cs = list.iter().find(|p| p.name == "cs").expect("a cs profile");
        assert!(cs.extends.is_some() && !cs.description.is_empty(), "{cs:?}");
        assert!(matches!(
            profiles(Some(Path::new("/no/such/rules"))),
            Err(Error::Rules(_))
        ));
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
