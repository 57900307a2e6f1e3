//! The library's one error type, [`Error`]: every failure its front door ([`crate::Enhancer`],
//! [`crate::profiles`], [`crate::check_rules`], …) and the pipeline below it report. Each says
//! whether the user's input is at fault ([`Error::is_invalid_input`]), which is all a client
//! needs to choose an exit code or an exception class.

use std::io;

/// Why enhancing (or loading rules, or reading an input) could not start or did not finish.
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
        /// The input's name: its path, `<stdin>`, or `<string>` for
        /// [`crate::Enhancer::enhance_str`].
        file: String,
        /// The line of the input, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// No sentence of the input has the `# sent_id` asked for.
    #[error("{file}: no sentence with sent_id {sent_id}")]
    NoSuchSentence {
        /// The input's name.
        file: String,
        /// The sent_id asked for.
        sent_id: String,
    },
    /// An input could not be opened or read (a sentence over the size limits is reported at
    /// its line: `FILE:LINE: message`).
    #[error("{}", crate::conllu::read_error_message(file, error))]
    Io {
        /// The input's name.
        file: String,
        /// The reason.
        #[source]
        error: io::Error,
    },
    /// The output could not be written.
    #[error("writing output: {0}")]
    Output(#[source] io::Error),
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
    /// No language was given and the input does not show which profile it needs (see
    /// [`crate::detect_profile`]): the message says what was found and asks for the language.
    #[error("{file}: {message}")]
    NoProfile {
        /// The input's name.
        file: String,
        /// What the input showed, and what to give.
        message: String,
    },
    /// The worker threads could not be started.
    #[error("starting worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

impl Error {
    /// Whether what the user gave is at fault — a sentence, the rules, a sent_id, bytes that
    /// are not what they claim to be (corrupt gzip) — rather than the system (a file that
    /// cannot be read or written) or a bug.
    pub fn is_invalid_input(&self) -> bool {
        match self {
            Error::Rules(_)
            | Error::Input { .. }
            | Error::NoSuchSentence { .. }
            | Error::NoProfile { .. } => true,
            Error::Io { error, .. } => is_invalid_data(error),
            Error::Output(_) | Error::Internal { .. } | Error::Threads(_) => false,
        }
    }

    /// Whether the error comes from writing to a closed pipe (`eudify enhance … | head`): the
    /// reader's choice, not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Whether an I/O error says the bytes read are not what they claim to be (corrupt gzip): the
/// input is at fault, not the system.
pub fn is_invalid_data(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::InvalidData
}
