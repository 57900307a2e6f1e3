//! The engine: builds each sentence's graph from its basic tree and applies a profile's rules.

use crate::conllu::{EnhancedLayer, Sentence};
use crate::graph::SentenceGraph;

/// Everything needed to enhance sentences for one profile; shared by all threads.
#[derive(Debug, Default)]
pub struct Enhancer {}

impl Enhancer {
    /// The copy baseline: DEPS := HEAD:DEPREL, no empty nodes.
    pub fn basic() -> Self {
        Enhancer {}
    }

    pub fn enhance(&self, sentence: &Sentence, layer: &mut EnhancedLayer) -> Result<(), String> {
        let graph = SentenceGraph::from_basic(sentence);
        graph.write_layer(layer);
        Ok(())
    }
}
