//! Unit tests that reach across the crate's layers: whole rule sets through the engine, the
//! pipeline's properties on generated input, the rules front-end on every shipped file. They use
//! the internals and the helpers the integration tests share (`tests/common.rs`), so they sit
//! here, above every module they read, rather than inside one of them.

// The integration tests' helpers serve these tests too (one home for finding the test data,
// compact sentences, temporary rules folders).
#[path = "../../tests/common.rs"]
#[allow(dead_code, unused_imports, unused_macros)] // each test binary uses its part of them
mod common;
mod engine_rule_sets;
mod pipeline_invariants;
mod pipeline_robustness;
mod rules_front;
mod rules_languages;
