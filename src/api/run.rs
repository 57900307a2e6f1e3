//! A run over any number of inputs with one profile: worker threads, what to do with an invalid
//! sentence, progress, and the notices (`FILE:LINE: …` of sentences copied or written with basic
//! DEPS, words without lemmas) a client shows its user. Every way of enhancing — a string, a
//! reader, a file, the CLI's list of files into one output — is a [`Runner`].

use super::Enhancer;
use crate::conllu::Limits;
use crate::error::Error;
use crate::pipeline::{Notice, Pipeline, PipelineOptions};
use crate::text::count;
use std::io::{BufRead, Write};

pub use crate::pipeline::{OnError, Summary};

/// How a [`Runner`] works.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Threads that enhance: 1 runs everything on the calling thread; N > 1 (0: one per core)
    /// starts N workers and leaves the calling thread only reading and writing. The output is
    /// the same for any count.
    pub threads: usize,
    /// What an invalid sentence does: end the run with [`Error::Input`], or be copied through.
    pub on_error: OnError,
}

/// An [`Enhancer`] with its worker threads, enhancing one input after another
/// ([`Enhancer::runner`]).
pub struct Runner<'e> {
    pipeline: Pipeline<'e>,
}

impl Enhancer {
    /// A runner for any number of inputs with these options (the worker threads start here).
    pub fn runner(&self, options: RunOptions) -> Result<Runner<'_>, Error> {
        let options = PipelineOptions {
            threads: options.threads,
            on_error: options.on_error,
            ..PipelineOptions::default()
        };
        Ok(Runner {
            pipeline: Pipeline::new(&self.engine, options)?,
        })
    }
}

impl<'e> Runner<'e> {
    /// Caps the size of a line, of a sentence's comments and of a sentence (the default
    /// [`Limits`] otherwise). A sentence past one is invalid input: [`Error::Input`], or copied
    /// through unchanged under [`OnError::Copy`] (counted in [`Summary::too_large`]). A sentence
    /// over [`Limits::max_sentence_bytes`] is never held in memory whole.
    pub fn set_limits(&mut self, limits: Limits) {
        self.pipeline.set_limits(limits);
    }

    /// Calls `progress(bytes, words)` after each piece of input is written (bytes as read,
    /// decompressed).
    pub fn on_progress(&mut self, progress: impl Fn(u64, u64) + Send + Sync + 'e) {
        self.pipeline.on_progress(progress);
    }

    /// Enhances every sentence `input` gives into `out`; `file` names the input in errors and
    /// notices. `notice` receives, in input order, a `FILE:LINE: message (sentence …)` line for
    /// each sentence copied unchanged ([`OnError::Copy`]) or written with basic DEPS (its rules
    /// ran away), then the warning for words without a lemma, if any.
    pub fn enhance(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        notice: &mut dyn FnMut(String),
    ) -> Result<Summary, Error> {
        let summary = self.pipeline.run(file, input, out, notice)?;
        if let Some(warning) = summary.lemma_warning(file) {
            notice(warning);
        }
        Ok(summary)
    }

    /// [`Runner::enhance`] with each notice's runaway beside its text (no lemma warning).
    pub(super) fn enhance_noting(
        &self,
        file: &str,
        input: impl BufRead,
        out: &mut dyn Write,
        notice: &mut dyn FnMut(Notice),
    ) -> Result<Summary, Error> {
        self.pipeline.run_noting(file, input, out, notice)
    }
}

/// The worker threads for a run asked to use `asked` (`None` or 0: one per core), with a
/// warning when more were asked than there are cores: more only cost memory and, in the
/// thousands, abort the process when the system refuses a thread's stack guard.
pub fn worker_threads(asked: Option<usize>) -> (usize, Option<String>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        None | Some(0) => (cores, None),
        Some(n) if n > cores => (
            cores,
            Some(format!(
                "--threads {n} is more than the {}; using {cores}",
                count(cores as u64, "core")
            )),
        ),
        Some(n) => (n, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENTENCE: &str = "1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n";

    #[test]
    fn one_runner_enhances_several_inputs_and_tells_what_it_copied() {
        let enhancer = Enhancer::for_profile("cs", None).unwrap();
        let options = RunOptions {
            threads: 1,
            on_error: OnError::Copy,
        };
        let runner = enhancer.runner(options).unwrap();
        let bad = "1\tA\ta\tX\t_\t_\t7\tdep\t_\t_\n\n";
        let (mut out, mut notices) = (Vec::new(), Vec::new());
        let first = runner
            .enhance("a", SENTENCE.as_bytes(), &mut out, &mut |n| notices.push(n))
            .unwrap();
        let second = runner
            .enhance(
                "b",
                format!("{SENTENCE}{bad}").as_bytes(),
                &mut out,
                &mut |n| notices.push(n),
            )
            .unwrap();
        assert_eq!((first.sentences, second.sentences), (1, 2));
        assert_eq!(second.copied_invalid, 1);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].starts_with("b:3: "), "{notices:?}");
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with(bad) && text.matches("0:root").count() == 2,
            "{text}"
        );
    }

    #[test]
    fn more_threads_than_cores_are_lowered_with_a_warning() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(worker_threads(None), (cores, None));
        assert_eq!(worker_threads(Some(1)), (1, None));
        let (threads, warning) = worker_threads(Some(cores + 1));
        assert_eq!(threads, cores);
        assert!(warning.unwrap().contains("using"));
    }
}
