//! Rule files: arbitrary text through the parser and checker must never panic; rules that
//! check clean are compiled and run on a fixed sentence (the step limit bounds the work).
#![no_main]

mod common;

use eudify::conllu::{BlockReader, EnhancedLayer, RawBlock, Sentence};
use eudify::rules::load::check_text;
use libfuzzer_sys::fuzz_target;

const SENTENCE: &str = "1\tShe\tshe\tPRON\t_\tCase=Nom\t2\tnsubj\t_\t_\n\
2\twants\twant\tVERB\t_\t_\t0\troot\t_\t_\n\
3\tto\tto\tPART\t_\t_\t4\tmark\t_\t_\n\
4\tbuy\tbuy\tVERB\t_\t_\t2\txcomp\t_\t_\n\
5\tbooks\tbook\tNOUN\t_\t_\t4\tobj\t_\t_\n\
6\tand\tand\tCCONJ\t_\t_\t7\tcc\t_\t_\n\
7\tpens\tpen\tNOUN\t_\t_\t5\tconj\t_\t_\n\
8\tin\tin\tADP\t_\t_\t9\tcase\t_\t_\n\
9\ttown\ttown\tNOUN\t_\tCase=Loc\t4\tobl\t_\t_\n\n";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let rules = match check_text("fuzz.rules", &text, common::lexicon()) {
        Ok(rules) => rules,
        Err(error) => {
            let _ = error.render();
            return;
        }
    };
    // Every checked rule, in one phase, on the fixed sentence.
    let enhancer = common::engine_of(rules);
    let mut reader = BlockReader::new(SENTENCE.as_bytes());
    let mut block = RawBlock::default();
    assert!(reader.read_block(&mut block).unwrap());
    let sentence = Sentence::parse(block).expect("the fixed sentence is valid");
    let mut layer = EnhancedLayer::default();
    // A step-limit error is a fine outcome; a panic is not.
    let _ = enhancer.enhance(&sentence, &mut layer);
});
