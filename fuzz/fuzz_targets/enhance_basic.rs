//! The whole pipeline (basic profile, `--on-error copy`) on arbitrary bytes: no panic, every
//! invalid sentence copied byte for byte and counted, output identical for 1 and 2 threads.
//!
//! `cargo +nightly fuzz run enhance_basic`

#![no_main]

mod common;

use eudify::conllu::Sentence;
use eudify::engine::Engine;
use eudify::pipeline::{OnError, Pipeline, PipelineOptions};
use common::*;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static ENHANCER: OnceLock<Engine> = OnceLock::new();
static PIPELINES: OnceLock<[Pipeline<'static>; 2]> = OnceLock::new();

fuzz_target!(|input: &[u8]| {
    let pipelines = PIPELINES.get_or_init(|| {
        let enhancer = ENHANCER.get_or_init(Engine::basic);
        let make = |threads, chunk_bytes| {
            let options = PipelineOptions { on_error: OnError::Copy, threads, chunk_bytes };
            Pipeline::new(enhancer, options).unwrap()
        };
        [make(1, 1), make(2, 3)]
    });
    let mut outputs = Vec::new();
    for pipeline in pipelines {
        let mut out = Vec::new();
        let mut reports = 0;
        let summary = pipeline.run("fuzz", input, &mut out, &mut |_| reports += 1).unwrap();
        let ins = blocks(input);
        let outs = blocks(&out);
        assert_eq!(ins.len(), outs.len(), "a sentence was lost or split");
        let mut bad = 0;
        for (i, o) in ins.iter().zip(&outs) {
            if !i.is_blank() && Sentence::parse_ignoring_deps(i.clone()).is_err() {
                bad += 1;
                assert_eq!(i.bytes, o.bytes, "an invalid sentence was not copied unchanged");
            }
        }
        assert_eq!((summary.copied_invalid, reports), (bad, bad));
        assert_eq!(summary.sentences, ins.iter().filter(|b| !b.is_blank()).count());
        outputs.push(out);
    }
    assert!(outputs[0] == outputs[1], "thread count changed the output");
});
