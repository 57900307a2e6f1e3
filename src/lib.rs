//! eudify: basic Universal Dependencies trees to Enhanced UD graphs.
//!
//! The modules follow the pipeline and depend only on the ones listed before them:
//! UD facts → CoNLL-U I/O → sentence graph → rule language → engine → pipeline → eval / validate → CLI.

pub mod text;
pub mod ud;
pub mod conllu;
pub mod graph;
pub mod rules;
pub mod engine;
pub mod pipeline;
pub mod eval;
pub mod validate;
