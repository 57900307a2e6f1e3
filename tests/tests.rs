//! One integration-test binary (link time on small CI machines): each module is a topic.

mod bad_input;
mod by_rule;
mod cli;
mod common;
mod conllu_io;
mod control;
mod coordination;
mod detect;
mod dev_scores;
mod engine;
mod eval;
mod fit;
mod gapping;
mod grep;
mod labels;
mod languages;
mod limits;
mod parsed_scores;
mod robustness;
mod rules_front;
mod serve;
mod shared;
mod treebank_rules;
mod tutorial;
mod validate;
mod view;
