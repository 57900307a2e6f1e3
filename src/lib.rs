//! eudify: basic Universal Dependencies trees to Enhanced UD graphs.
//!
//! The modules follow the pipeline and depend only on the ones listed before them:
//! UD facts → CoNLL-U I/O → sentence graph → rule language → engine → pipeline → eval / validate
//! → the front door ([`Enhancer`] and the functions beside it). The `eudify` command (crate
//! `eudify-cli`) and the Python package are clients of the front door only.
//!
//! The public API is small:
//! - [`Enhancer`] is the entry point for programs: a profile's rules, compiled; it enhances a
//!   string, a reader or a file, or many inputs with a [`Runner`] (threads, invalid sentences
//!   copied or fatal, progress, notices), and [explains](Enhancer::explain) what each rule did;
//! - [`profiles`], [`check_rules`], [`test_examples`] and [`export_rules`] work with the rules;
//! - [`eval`] scores a system file against a gold file, [`validate`] checks the enhanced layer;
//! - [`Error`] is every failure, [`Summary`] what a run did; [`files`] and [`text`] are the
//!   conventions every command shares (stdin as `-`, gzip, output files replaced on success;
//!   counts in messages).
//!
//! Everything else (engine, graph, rules, CoNLL-U reader) is internal. The `internals` feature
//! makes the modules the crate's benches and fuzz targets drive (conllu, rules, engine,
//! pipeline) public; they are hidden from the documentation and not a stable API.

#![warn(missing_docs)]

/// Declares the internal modules the benches and fuzz targets drive directly (the CoNLL-U reader
/// and writer, the rule front-end, the engine, the pipeline): `pub(crate)`, or, with the
/// `internals` feature, public but hidden and unstable. The tests need none of them: they are
/// unit tests beside the module they test, or go through the front door.
macro_rules! internal_modules {
    ($($name:ident)*) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code, unused_imports)]
        pub(crate) mod $name;
    )*};
}

internal_modules! { conllu rules engine pipeline }
#[allow(dead_code, unused_imports)]
mod by_rule;
#[allow(dead_code, unused_imports)]
mod graph;
#[allow(dead_code, unused_imports)]
mod ud;

mod api;
mod error;
// The integration tests' helpers, which the unit tests in `tests/` share, name this crate
// `eudify`, as a client does.
#[cfg(test)]
extern crate self as eudify;
pub mod eval;
pub mod fit;
#[cfg(test)]
mod tests;
pub mod text;
pub mod validate;

/// How the profile is chosen for an input given without one (thresholds, evidence, samples).
pub use api::detect;
pub use api::{
    check_rules, export_rules, files, profiles, test_examples, worker_threads, EdgeChange,
    EnhancedEdge, Enhancer, ExampleFailure, ExampleReport, Explanation, Match, MatchedEdge,
    MatchedNode, OnError, Pattern, Profile, Report, RuleApplication, RuleRef, RunOptions, Runaway,
    Runner, Search, SearchCounts, SearchResult, SentenceMatches, Summary, PATTERN_NAME,
    READER_NAME, STRING_NAME,
};
pub use api::{detect_profile, detect_profile_for_file, Detection};
pub use api::{ChangedEdge, RuleChanges, SentenceChanges, ViewChanges};
pub use api::{
    EdgeOrigin, GoldScores, GoldStatus, RuleErrors, ScoreRow, SearchSummary, View, ViewEdge,
    ViewRule, ViewSentence, ViewWord,
};
pub use by_rule::ByRule;
pub use error::{is_invalid_data, Error};
pub use ud::Repairs;

/// The kinds of repair [`Repairs`] counts, its keys (besides `"ROOT → root"` and the like for a
/// relation case-folded to a UD one).
pub mod repair_kinds {
    pub use crate::ud::repairs::{
        LABEL_SHORTENED, NOT_A_RELATION, PART_DROPPED, ROOT_EDGE, ROOT_ELSEWHERE, TEXT_CLEANED,
        TEXT_DROPPED,
    };
}
