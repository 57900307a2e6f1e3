//! Helpers shared by the fuzz targets (the same oracle as `tests/common.rs`, which the fuzz
//! crate cannot include: it runs the `eudify` binary).

use eudify::conllu::{BlockReader, RawBlock};

/// The input's blocks, as the pipeline sees them.
#[allow(dead_code)] // not every target reads CoNLL-U input
pub fn blocks(input: &[u8]) -> Vec<RawBlock> {
    let mut reader = BlockReader::new(input);
    let mut out = Vec::new();
    let mut block = RawBlock::default();
    while reader.read_block(&mut block).unwrap() {
        out.push(block.clone());
    }
    out
}

#[allow(dead_code)] // not every target compares columns
pub fn is_empty_node_line(line: &[u8]) -> bool {
    let id = line.split(|&b| b == b'\t').next().unwrap_or_default();
    id.contains(&b'.') && !line.starts_with(b"#")
}

/// Lines without the empty nodes, DEPS blanked: what enhancement must not change.
#[allow(dead_code)] // not every target compares columns
pub fn all_but_deps(text: &[u8]) -> Vec<Vec<u8>> {
    text.split_inclusive(|&b| b == b'\n')
        .filter(|line| !is_empty_node_line(line))
        .map(|line| {
            let mut cols: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
            if cols.len() == 10 {
                cols[8] = b"";
            }
            cols.join(&b'\t')
        })
        .collect()
}

/// The English lexicons, loaded once: the rule-text targets check their rules against them.
#[allow(dead_code)] // only the rule-text targets check rules
pub fn lexicon() -> &'static eudify::rules::lexicon::Lexicon {
    static LEXICON: std::sync::OnceLock<eudify::rules::lexicon::Lexicon> =
        std::sync::OnceLock::new();
    LEXICON.get_or_init(|| {
        let mut sources = eudify::rules::SourceMap::new();
        let names = vec![("en".to_string(), None)];
        eudify::rules::lexicon::Lexicon::load(
            &eudify::rules::RuleSource::embedded(),
            &names,
            &mut sources,
        )
        .0
    })
}

/// The engine of the `basic` profile with `rules` as its one phase: how the rule-text targets
/// run the rules that check.
#[allow(dead_code)] // only the rule-text targets run rules
pub fn engine_of(rules: Vec<eudify::rules::ir::CheckedRule>) -> eudify::engine::Engine {
    let base = eudify::rules::load_ruleset(&eudify::rules::RuleSource::embedded(), "basic")
        .expect("basic loads");
    let rule_set = eudify::rules::ir::RuleSet {
        phases: vec![eudify::rules::ir::Phase {
            name: "fuzz".into(),
            rules,
            joined: false,
        }],
        ..base
    };
    eudify::engine::Engine::new(&rule_set)
}
