//! The rule language front-end: rule files, lexicons and profiles in; a checked [`ir::RuleSet`]
//! out for the engine.
//!
//! Stages, as in pest_meta (parser → validator → optimizer): [`parser`] turns text into the
//! spanned raw syntax tree ([`ast::RuleFile`]); [`check`] runs its passes over it, each a function
//! returning its diagnostics, so that *every* error is reported as a [`diagnostic::Diagnostic`];
//! then [`check::lower`] resolves variables, regexes, lexicon lists and profile settings into the
//! checked IR ([`ir::CheckedRule`]). Files come from a [`source::RuleSource`] (embedded in the
//! binary, or a directory).

pub mod ast;
pub mod check;
pub mod diagnostic;
pub mod ir;
pub mod lexicon;
pub mod load;
pub mod parser;
pub mod profile;
pub mod query;
pub mod source;
pub mod text_regex;
pub mod vocabulary;

pub use diagnostic::{Diagnostic, Severity};
pub use ir::{CheckedRule, RuleSet};
pub use load::{check_all, load_ruleset, LoadError};
pub use profile::{list_profiles, resolve_profile};
pub use source::{RuleSource, SourceMap};

