//! eudify: basic Universal Dependencies trees to Enhanced UD graphs.
//!
//! The modules follow the pipeline and depend only on the ones listed before them:
//! UD facts → CoNLL-U I/O → sentence graph → rule language → engine → pipeline → eval / validate → CLI.
//!
//! The public API is small:
//! - [`Enhancer`] is the entry point for programs: a profile's rules, compiled, with typed
//!   [`Error`]s and a [`Summary`] of each run; [`profiles`] lists the profiles it can load;
//! - [`eval`] scores a system file against a gold file, [`validate`] checks the enhanced layer;
//! - [`run_cli`] is the `eudify` command itself (the binary and the Python package's console
//!   script call it).
//!
//! Everything else (engine, graph, rules, CoNLL-U reader) is internal. The `internals` feature
//! makes those modules public for the crate's own tests, benches and fuzz targets; they are
//! hidden from the documentation and not a stable API.

#![warn(missing_docs)]

/// Declares the crate's internal modules: `pub(crate)`, or, with the `internals` feature,
/// public but hidden and unstable (the integration tests, benches and fuzz targets reach into
/// them; a user of the library should not).
///
/// Their items stay `pub`: that is what the feature exposes. Items only the tests use (and a
/// few fields kept for diagnostics) are dead code in a build without the feature, as they
/// were unchecked when the modules were public; the lint would only say that again.
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

internal_modules! { text ud conllu graph rules engine pipeline by_rule }

mod api;
mod cli;
pub mod eval;
pub mod validate;

pub use api::{
    profiles, EdgeChange, EnhancedEdge, Enhancer, Error, Explanation, Profile, RuleApplication,
    RuleRef, READER_NAME, STRING_NAME,
};
pub use cli::run_cli;
pub use pipeline::Summary;
pub use ud::Repairs;
