//! Reader + parser + writer on arbitrary bytes: no panic, no byte lost or invented.
//!
//! `cargo +nightly fuzz run conllu_reader`

#![no_main]

use eudify::conllu::{write_sentence, BlockReader, RawBlock, Sentence};
use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fuzz_target!(|data: &[u8]| {
    // The first byte picks a small read buffer so block boundaries are fuzzed against it too.
    let (capacity, input) = match data.split_first() {
        Some((&c, rest)) => (usize::from(c % 16) + 1, rest),
        None => (1, data),
    };
    let mut whole = Vec::new();
    let mut block = RawBlock::default();
    let mut reader = BlockReader::new(input);
    while reader.read_block(&mut block).unwrap() {
        whole.push(block.clone());
    }
    let joined: Vec<u8> = whole.iter().flat_map(|b| b.bytes.iter().copied()).collect();
    assert_eq!(joined, input, "blocks must concatenate to the input");

    let mut small = BlockReader::new(BufReader::with_capacity(capacity, input));
    for expected in &whole {
        assert!(small.read_block(&mut block).unwrap());
        assert_eq!((block.first_line, &block.bytes), (expected.first_line, &expected.bytes), "buffer size changed a block");
    }
    assert!(!small.read_block(&mut block).unwrap());

    for block in whole {
        if block.is_blank() {
            continue;
        }
        let lines = block.bytes.split(|&b| b == b'\n').count();
        let (first_line, bytes) = (block.first_line, block.bytes.clone());
        match Sentence::parse(block) {
            Ok(sentence) => {
                let mut out = Vec::new();
                write_sentence(&mut out, &sentence, None);
                assert_eq!(out, bytes, "parse → write must give the block back");
            }
            Err(failed) => {
                let (back, error) = *failed;
                assert_eq!(back.bytes, bytes, "a failed parse must hand the block back");
                assert!((first_line..first_line + lines).contains(&error.line), "error line {} outside the block", error.line);
            }
        }
    }
});
