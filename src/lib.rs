//! eudify: basic Universal Dependencies trees to Enhanced UD graphs.
//!
//! The modules follow the pipeline and depend only on the ones listed before them:
//! UD facts → CoNLL-U I/O → sentence graph → rule language → engine → pipeline → eval / validate → CLI.
//!
//! [`Enhancer`] (in [`api`]) is the entry point for programs: a profile's rules, compiled, and
//! typed [`Error`]s. The CLI and the Python package use it.

pub mod text;
pub mod ud;
pub mod conllu;
pub mod graph;
pub mod rules;
pub mod engine;
pub mod pipeline;
pub mod eval;
pub mod validate;
pub mod api;

pub use api::{Enhancer, Error};
