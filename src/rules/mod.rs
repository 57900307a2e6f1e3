//! The rule language front-end: rule files, lexicons and profiles in; a checked [`ast::RuleSet`]
//! out for the engine.
//!
//! Stages, as in pest_meta: [`parser`] turns text into the spanned raw AST ([`ast::RuleFile`]);
//! [`check`] validates it collecting *every* error as a [`diagnostic::Diagnostic`], then resolves
//! variables, regexes, lexicon lists and profile settings into [`ast::CheckedRule`]s. Files come
//! from a [`source::RuleSource`] (embedded in the binary, or a directory).

pub mod ast;
pub mod check;
pub mod diagnostic;
pub mod lexicon;
pub mod load;
pub mod parser;
pub mod profile;
pub mod source;
pub mod text_regex;
pub mod vocabulary;

pub use ast::{CheckedRule, RuleSet};
pub use diagnostic::{Diagnostic, Severity};
pub use load::{check_all, load_ruleset, LoadError};
pub use profile::{list_profiles, resolve_profile};
pub use source::{RuleSource, SourceMap};
