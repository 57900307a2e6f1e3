//! Lemmas as rules read them. A word a parser left without a lemma (LEMMA `_`) has its
//! lower-cased form as lemma, mapped through the profile's `[lemmas]` ([`FormLemmas`]) where the
//! lemma differs (`ve` → `v`): [`without_lemma`] says which words, [`push_form_lemma`] writes that
//! text. Tests and labels read it alike.
//!
//! Lemma tests run on the text each time. (Interning lemmas per thread, with each test's answer
//! kept per distinct lemma, was measured to gain under 1 % of the time on the dev treebanks: not
//! worth its 300 lines.)

use super::pattern::ValueTest;
use crate::conllu::sentence::DEPREL;
use crate::graph::SentenceGraph;
use crate::rules::lexicon::FormLemmas;
use crate::ud::{push_label_text, TextFix};
use petgraph::stable_graph::NodeIndex;
use std::sync::Arc;

/// Whether a word with these columns has no lemma, so that its form stands in for it. Not a word
/// whose form is `_` too (an underscore, or a treebank without its text: no form to read), nor
/// the second part of a word split in two (`goeswith`: UD gives the whole word's lemma to the
/// first part, and the rest has none).
#[inline]
pub fn without_lemma(lemma: &str, form: &str, deprel: &str) -> bool {
    lemma == "_" && form != "_" && deprel != "goeswith"
}

/// Appends the lemma of a word without one ([`without_lemma`]): its form lower-cased, or that
/// form's lemma in `forms`. Lower-case either way (the lexicon loader checks `forms`).
pub fn push_form_lemma(out: &mut String, form: &str, forms: &FormLemmas) {
    let start = out.len();
    out.extend(form.chars().flat_map(char::to_lowercase));
    if let Some(lemma) = forms.get(&out[start..]) {
        out.truncate(start);
        out.push_str(lemma);
    }
}

/// `node`'s lemma: its LEMMA, or (`Err`) the form that stands in for it.
#[inline]
fn lemma_or_form<'s>(graph: &SentenceGraph<'s>, node: NodeIndex) -> Result<&'s str, &'s str> {
    let lemma = graph.lemma(node);
    if lemma == "_" {
        let form = graph.form(node);
        if without_lemma(lemma, form, graph.column(node, DEPREL)) {
            return Err(form);
        }
    }
    Ok(lemma)
}

/// What lemma tests and lemma labels read: a node's lemma, or for a word without one the text
/// that stands in for it (mapped through the profile's `[lemmas]`, built in a buffer reused from
/// test to test, so no test allocates).
#[derive(Debug, Default)]
pub struct Lemmas {
    /// The `[lemmas]` of the rule set being run.
    forms: Arc<FormLemmas>,
    /// The lemma of a word without one, while a test reads it.
    form_lemma: String,
}

impl Lemmas {
    /// Reads the lemmas of words without one through `forms` from now on.
    pub fn start(&mut self, forms: &Arc<FormLemmas>) {
        if !Arc::ptr_eq(&self.forms, forms) {
            self.forms = Arc::clone(forms);
        }
    }

    /// Whether `node`'s lemma passes `test`; false for a node without a lemma.
    pub fn passes(&mut self, graph: &SentenceGraph, node: NodeIndex, test: &ValueTest) -> bool {
        match lemma_or_form(graph, node) {
            Ok(lemma) => lemma != "_" && !lemma.is_empty() && test.holds(lemma),
            Err(form) => {
                self.form_lemma.clear();
                push_form_lemma(&mut self.form_lemma, form, &self.forms);
                !self.form_lemma.is_empty() && test.holds(&self.form_lemma)
            }
        }
    }

    /// Appends `node`'s lemma as a label part ([`push_label_text`]; nothing when it has none)
    /// and says what making it one did.
    pub fn push_label_lemma(
        &self,
        out: &mut String,
        graph: &SentenceGraph,
        node: NodeIndex,
    ) -> TextFix {
        match lemma_or_form(graph, node) {
            Ok(lemma) => push_label_text(out, lemma),
            Err(form) => {
                // Rare (a word without a lemma in a label): one small allocation.
                let mut lemma = String::new();
                push_form_lemma(&mut lemma, form, &self.forms);
                push_label_text(out, &lemma)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lemmas;
    use crate::conllu::reader::RawBlock;
    use crate::conllu::Sentence;
    use crate::engine::pattern::ValueTest;
    use crate::graph::SentenceGraph;
    use crate::rules::text_regex::TextRegex;
    use petgraph::stable_graph::NodeIndex;

    /// A lemma passes or fails as its text does; a node without a lemma passes nothing, not
    /// even a presence test; a word without a lemma reads its lower-cased form.
    #[test]
    fn lemma_tests_read_the_lemma_or_the_form_that_stands_in() {
        let text = "1\tWant\tWant\tVERB\t_\t_\t0\troot\t_\t_\n2\t_\t_\tSYM\t_\t_\t1\tpunct\t_\t_\n3\tWants\t_\tVERB\t_\t_\t1\tconj\t_\t_\n\n";
        let sentence = Sentence::parse(RawBlock {
            bytes: text.as_bytes().to_vec(),
            first_line: 1,
            starts_input: true,
        })
        .unwrap();
        let graph = SentenceGraph::from_basic(&sentence);
        let mut lemmas = Lemmas::default();
        let capital = ValueTest::Regex(TextRegex::new("^W").unwrap());
        let wants = ValueTest::Equals {
            values: vec!["wants".to_string()],
            case_insensitive: false,
        };
        assert!(lemmas.passes(&graph, NodeIndex::new(1), &capital));
        assert!(
            !lemmas.passes(&graph, NodeIndex::new(2), &ValueTest::Present),
            "`_` with no form is no lemma"
        );
        assert!(!lemmas.passes(&graph, NodeIndex::new(3), &capital));
        assert!(lemmas.passes(&graph, NodeIndex::new(3), &wants));
        let mut out = String::new();
        lemmas.push_label_lemma(&mut out, &graph, NodeIndex::new(1));
        lemmas.push_label_lemma(&mut out, &graph, NodeIndex::new(2));
        lemmas.push_label_lemma(&mut out, &graph, NodeIndex::new(3));
        assert_eq!(out, "wantwants");
    }
}
