//! The whole pipeline (`--on-error copy`) on arbitrary bytes under every embedded profile: the
//! first byte picks the profile (index modulo the number of profiles, in name order), the rest
//! is the input. No panic, no enhancement error (a step limit would be copied and counted
//! beside the parse errors), one output block per input block, invalid sentences copied byte
//! for byte, and every column but DEPS of the valid ones unchanged line by line.
//!
//! `cargo +nightly fuzz run enhance_profiles`

#![no_main]

mod common;

use eudify::conllu::Sentence;
use eudify::engine::Engine;
use eudify::pipeline::{OnError, Pipeline, PipelineOptions};
use eudify::rules::{list_profiles, load_ruleset, RuleSource};
use common::*;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static ENHANCERS: OnceLock<Vec<(String, Engine)>> = OnceLock::new();
static PIPELINES: OnceLock<Vec<Pipeline<'static>>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let pipelines = PIPELINES.get_or_init(|| {
        let enhancers = ENHANCERS.get_or_init(|| {
            let source = RuleSource::embedded();
            let profiles = list_profiles(&source).unwrap_or_else(|_| panic!("embedded profiles load"));
            profiles
                .into_iter()
                .map(|p| {
                    let rule_set = load_ruleset(&source, &p.name).unwrap_or_else(|e| panic!("{}", e.render()));
                    (p.name, Engine::new(&rule_set))
                })
                .collect()
        });
        let options = PipelineOptions { on_error: OnError::Copy, threads: 1, chunk_bytes: 2 };
        enhancers.iter().map(|(_, e)| Pipeline::new(e, options.clone()).unwrap()).collect()
    });
    let Some((&pick, input)) = data.split_first() else { return };
    let index = usize::from(pick) % pipelines.len();
    let profile = &ENHANCERS.get().unwrap()[index].0;

    let mut out = Vec::new();
    let mut reports = 0;
    let summary = pipelines[index].run("fuzz", input, &mut out, &mut |_| reports += 1).unwrap();
    let ins = blocks(input);
    let outs = blocks(&out);
    assert_eq!(ins.len(), outs.len(), "{profile}: a sentence was lost or split");
    let mut bad = 0;
    for (i, o) in ins.iter().zip(&outs) {
        if i.is_blank() {
            assert_eq!(i.bytes, o.bytes, "{profile}: blank lines changed");
        } else if Sentence::parse_ignoring_deps(i.clone()).is_err() {
            bad += 1;
            assert_eq!(i.bytes, o.bytes, "{profile}: an invalid sentence was not copied unchanged");
        } else {
            assert_eq!(all_but_deps(&i.bytes), all_but_deps(&o.bytes), "{profile}: a column other than DEPS changed");
        }
    }
    // Only parse errors and runaways are reported (a shipped rule set runs away only on a label
    // over the engine's limit, such as a marker of dozens of `fixed` words); a runaway sentence
    // is written with basic DEPS, its columns checked above.
    assert_eq!((summary.copied_invalid, reports), (bad, bad + summary.runaways), "{profile}: enhancement failed");
    assert_eq!(summary.sentences, ins.iter().filter(|b| !b.is_blank()).count(), "{profile}");
});
