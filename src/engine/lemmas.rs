//! Lemmas, interned. The first time a rule reads a node's lemma in a sentence, the lemma is
//! looked up in its thread's [`Lemmas`] table (kept from sentence to sentence) and the node
//! remembers its id. What rules ask of a lemma — a lexicon list, a word-class regex, an
//! equality — is then answered once per distinct lemma and kept as a bit of its entry: the
//! second rule to ask whether `want` is in `@control.subject`, in this sentence or any later
//! one, reads a bit. Its text as a label part (lower-cased and cleaned,
//! [`crate::ud::push_label_text`]), for labels such as `obl:{lemma(C)}`, is kept too.
//!
//! Interning is lazy, per node and per sentence: most words' lemmas are never tested, and an
//! eager lookup for every word would cost more than all lemma tests together.
//!
//! A word a parser left without a lemma (LEMMA `_`) has its lower-cased form as lemma, mapped
//! through the profile's `[lemmas]` ([`FormLemmas`]) where the lemma differs (`ve` → `v`):
//! [`without_lemma`] says which words, [`push_form_lemma`] writes that text. Tests and labels
//! read it alike.

use crate::conllu::sentence::DEPREL;
use crate::graph::{Interner, SentenceGraph};
use crate::rules::ast::CheckedValueTest;
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

/// The lemma tests of one rule set that are answered per distinct lemma, numbered by the
/// bit that holds their answer. Equal tests in different rules share one number.
#[derive(Debug, Default)]
pub struct LemmaTests {
    keys: Vec<String>,
}

/// Tests past this many are evaluated on the lemma's text each time.
const MEMO_BITS: usize = 64;

impl LemmaTests {
    /// The bit that answers `test` on lemmas, or `None` when it is not worth one (`lemma`
    /// alone: is there a lemma) or the bits are used up.
    pub fn register(&mut self, test: &CheckedValueTest) -> Option<u8> {
        let key = match test {
            CheckedValueTest::Present => return None,
            CheckedValueTest::Equals { values, case_insensitive } => format!("={case_insensitive}:{values:?}"),
            CheckedValueTest::Regex(regex) => format!("/{}", regex.as_str()),
            CheckedValueTest::InLexicon { path, .. } => format!("@{path}"),
        };
        if let Some(bit) = self.keys.iter().position(|k| *k == key) {
            return Some(bit as u8);
        }
        (self.keys.len() < MEMO_BITS).then(|| {
            self.keys.push(key);
            (self.keys.len() - 1) as u8
        })
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// What is known of one interned lemma.
#[derive(Copy, Clone, Debug)]
struct Facts {
    /// Bit `b`: test `b` of [`LemmaTests`] has been evaluated on this lemma; `holds` has its
    /// answer.
    known: u64,
    holds: u64,
    /// The text as a label part in [`Lemmas::lower`], when it differs from the lemma.
    lower: Option<(u32, u32)>,
    /// What making it a label part did.
    fix: TextFix,
}

/// A node whose lemma has not been looked up in this sentence.
const UNKNOWN: u32 = u32::MAX;
/// A node without a lemma (`_`).
const ABSENT: u32 = u32::MAX - 1;

/// Past this many lemmas the table is emptied before the next sentence: a corpus's open-class
/// lemmas (verbs tested against control lists) cannot grow it without limit.
const KEEP_LEMMAS: usize = 1 << 16;

/// Room made for lemmas when a table starts: a thread's table soon holds thousands (every
/// distinct lemma a rule tests), and growing to that costs more than the lemma tests.
const START_LEMMAS: usize = 4096;

/// A thread's interned lemmas, and the lemma id of each node of the current sentence.
#[derive(Debug, Default)]
pub struct Lemmas {
    table: Interner<Facts>,
    /// Label-part texts of lemmas that differ from them (upper-case letters, separators…), end
    /// to end.
    lower: String,
    /// Per node of the current sentence: its lemma's id, [`UNKNOWN`] or [`ABSENT`]. Longer
    /// than the sentence when an earlier one was longer.
    nodes: Vec<u32>,
    /// The nodes whose entry in `nodes` is set: only these are reset for the next sentence.
    looked_up: Vec<u32>,
    /// The rule set (its [`super::Enhancer`]'s id) whose test numbers the facts use.
    owner: u64,
    /// The owner's `[lemmas]`, for words without a lemma.
    forms: Arc<FormLemmas>,
    /// The lemma of a word without one, while it is interned.
    form_lemma: String,
}

impl Lemmas {
    /// Prepares for a sentence of `nodes` nodes enhanced by rule set `owner`, whose `[lemmas]`
    /// are `forms`: forgets the nodes' lemmas, and the whole table when it is too large or was
    /// filled for other rules.
    pub fn start_sentence(&mut self, owner: u64, forms: &Arc<FormLemmas>, nodes: usize) {
        // Another rule set's answers are of no use: keep none of them.
        let keep = if self.owner == owner { KEEP_LEMMAS } else { 0 };
        if self.table.trim(keep) {
            self.lower.clear();
        }
        if self.owner != owner {
            self.forms = Arc::clone(forms);
        }
        self.owner = owner;
        if !self.table.is_started() {
            self.table.start(START_LEMMAS, START_LEMMAS * 8);
        }
        for &i in &self.looked_up {
            self.nodes[i as usize] = UNKNOWN;
        }
        self.looked_up.clear();
        if self.nodes.len() < nodes {
            self.nodes.resize(nodes, UNKNOWN);
        }
    }

    /// Whether the table serves rule set `owner` ([`Lemmas::start_sentence`] was called for it).
    pub fn serves(&self, owner: u64) -> bool {
        self.owner == owner
    }

    /// Interns `node`'s lemma; [`ABSENT`] when it has none.
    fn intern_node(&mut self, graph: &SentenceGraph, node: NodeIndex) -> u32 {
        match lemma_or_form(graph, node) {
            Ok(lemma) => self.intern(lemma),
            Err(form) => {
                let mut text = std::mem::take(&mut self.form_lemma);
                text.clear();
                push_form_lemma(&mut text, form, &self.forms);
                let id = self.intern(&text);
                self.form_lemma = text;
                id
            }
        }
    }

    fn intern(&mut self, lemma: &str) -> u32 {
        if lemma == "_" || lemma.is_empty() {
            return ABSENT;
        }
        let lower = &mut self.lower;
        self.table.intern(lemma, |text| {
            let start = lower.len();
            let fix = push_label_text(lower, text);
            let lower = if lower[start..] == *text {
                lower.truncate(start);
                None
            } else {
                Some((start as u32, lower.len() as u32))
            };
            Facts { known: 0, holds: 0, lower, fix }
        })
    }

    /// Whether `node`'s lemma passes `test`, which [`LemmaTests`] numbered `bit`; false for a
    /// node without a lemma. Inline only when the node's lemma is interned and the answer known
    /// (a slot and a bit); the rest out of line, so that the matcher's test loop stays small.
    #[inline]
    pub fn holds(&mut self, graph: &SentenceGraph, node: NodeIndex, bit: u8, test: &CheckedValueTest) -> bool {
        let mask = 1u64 << bit;
        match self.nodes.get(node.index()).copied() {
            Some(ABSENT) => false,
            Some(id) if id != UNKNOWN && self.table.payload(id).known & mask != 0 => self.table.payload(id).holds & mask != 0,
            _ => self.find_out(graph, node, mask, test),
        }
    }

    /// [`Lemmas::holds`] when the node's lemma is not interned yet in this sentence, or the
    /// answer not known yet for this lemma.
    #[inline(never)]
    fn find_out(&mut self, graph: &SentenceGraph, node: NodeIndex, mask: u64, test: &CheckedValueTest) -> bool {
        let id = self.node_id(graph, node);
        if id == ABSENT {
            return false;
        }
        let facts = self.table.payload(id);
        if facts.known & mask != 0 {
            return facts.holds & mask != 0;
        }
        let holds = test.holds(self.table.text(id));
        let facts = self.table.payload_mut(id);
        facts.known |= mask;
        if holds {
            facts.holds |= mask;
        }
        holds
    }

    /// `node`'s lemma id in this sentence, interned now if it was not.
    fn node_id(&mut self, graph: &SentenceGraph, node: NodeIndex) -> u32 {
        let i = node.index();
        if i >= self.nodes.len() {
            // An empty node added since the sentence started.
            self.nodes.resize(i + 1, UNKNOWN);
        }
        if self.nodes[i] == UNKNOWN {
            self.nodes[i] = self.intern_node(graph, node);
            self.looked_up.push(i as u32);
        }
        self.nodes[i]
    }

    /// Whether `node`'s lemma passes `test`, which has no bit of its own (evaluated on the text
    /// each time); false for a node without a lemma.
    pub fn passes(&mut self, graph: &SentenceGraph, node: NodeIndex, test: &CheckedValueTest) -> bool {
        match self.node_id(graph, node) {
            ABSENT => false,
            id => test.holds(self.table.text(id)),
        }
    }

    /// Appends `node`'s lemma as a label part ([`push_label_text`]; nothing when it has none)
    /// and says what making it one did: the interned text when a test interned it in this
    /// sentence (a marker has mostly been tested: `C [lemma=/^[\p{L}\p{M}]+$/]`), else cleaned
    /// from the columns, which costs less than interning a lemma for one use.
    pub fn push_label_lemma(&self, out: &mut String, graph: &SentenceGraph, node: NodeIndex) -> TextFix {
        if let Some((text, fix)) = self.interned_label_text(node) {
            out.push_str(text);
            return fix;
        }
        match lemma_or_form(graph, node) {
            Ok(lemma) => push_label_text(out, lemma),
            Err(form) => {
                // Rare (a word without a lemma that no test looked at): one small allocation.
                let mut lemma = String::new();
                push_form_lemma(&mut lemma, form, &self.forms);
                push_label_text(out, &lemma)
            }
        }
    }

    /// `node`'s lemma as a label part ([`push_label_text`]) and what making it one did, if a
    /// test interned it in this sentence: a label's marker has mostly been tested (`C
    /// [lemma=/^[\p{L}\p{M}]+$/]`); any other is cleaned from its text, which costs less than
    /// interning a lemma for one use.
    #[inline]
    pub fn interned_label_text(&self, node: NodeIndex) -> Option<(&str, TextFix)> {
        match self.nodes.get(node.index()).copied() {
            None | Some(UNKNOWN) => None,
            Some(ABSENT) => Some(("", TextFix::Kept)),
            Some(id) => {
                let facts = self.table.payload(id);
                Some(match facts.lower {
                    Some((start, end)) => (&self.lower[start as usize..end as usize], facts.fix),
                    None => (self.table.text(id), facts.fix),
                })
            }
        }
    }

    /// Whether some node's lemma was looked up since the sentence started.
    pub fn has_nodes(&self) -> bool {
        !self.looked_up.is_empty()
    }

    /// Lemmas interned on this thread.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::{LemmaTests, Lemmas};
    use crate::conllu::reader::RawBlock;
    use crate::conllu::Sentence;
    use crate::graph::SentenceGraph;
    use crate::rules::ast::CheckedValueTest;
    use crate::rules::text_regex::TextRegex;
    use petgraph::stable_graph::NodeIndex;

    fn equals(values: &[&str]) -> CheckedValueTest {
        CheckedValueTest::Equals { values: values.iter().map(|v| v.to_string()).collect(), case_insensitive: false }
    }

    #[test]
    fn equal_tests_share_a_bit_and_bits_run_out_at_sixty_four() {
        let mut tests = LemmaTests::default();
        let word = CheckedValueTest::Regex(TextRegex::new(r"^[\p{L}\p{M}]+$").unwrap());
        assert_eq!(tests.register(&word), Some(0));
        assert_eq!(tests.register(&equals(&["be"])), Some(1));
        assert_eq!(tests.register(&word), Some(0));
        assert_eq!(tests.register(&equals(&["be"])), Some(1));
        assert_eq!(tests.register(&CheckedValueTest::Present), None);
        for i in 2..64 {
            assert_eq!(tests.register(&equals(&[&format!("w{i}")])), Some(i as u8));
        }
        assert_eq!(tests.register(&equals(&["one more"])), None);
        assert_eq!(tests.len(), 64);
    }

    /// Answers come from the text once and from the bit afterwards, in this sentence and the
    /// next; a node without a lemma passes nothing; label text is kept for labels.
    #[test]
    fn lemmas_are_interned_once_and_answers_kept_per_lemma() {
        let parse = |text: &str| Sentence::parse(RawBlock { bytes: text.as_bytes().to_vec(), first_line: 1, starts_input: true }).unwrap();
        let sentences = [
            parse("1\tWant\tWant\tVERB\t_\t_\t0\troot\t_\t_\n2\twant\twant\tVERB\t_\t_\t1\tconj\t_\t_\n3\t_\t_\tSYM\t_\t_\t1\tpunct\t_\t_\n4\tWants\t_\tVERB\t_\t_\t1\tconj\t_\t_\n\n"),
            parse("1\tWant\tWant\tVERB\t_\t_\t0\troot\t_\t_\n\n"),
        ];
        let mut lemmas = Lemmas::default();
        let capital = CheckedValueTest::Regex(TextRegex::new("^W").unwrap());
        let node = NodeIndex::new;
        let graph = SentenceGraph::from_basic(&sentences[0]);
        lemmas.start_sentence(1, &Default::default(), graph.word_count() as usize + 1);
        assert!(lemmas.holds(&graph, node(1), 0, &capital));
        assert!(!lemmas.holds(&graph, node(2), 0, &capital));
        assert!(!lemmas.holds(&graph, node(3), 0, &capital), "`_` with no form is no lemma");
        assert!(!lemmas.holds(&graph, node(3), 1, &CheckedValueTest::Present));
        assert!(!lemmas.passes(&graph, node(3), &CheckedValueTest::Present));
        assert_eq!(lemmas.len(), 2);
        // No lemma: the form, lower-cased, stands in.
        assert!(!lemmas.holds(&graph, node(4), 0, &capital));
        assert!(lemmas.passes(&graph, node(4), &equals(&["wants"])));
        assert_eq!(lemmas.interned_label_text(node(4)), Some(("wants", crate::ud::TextFix::Kept)));
        assert_eq!(lemmas.len(), 3);
        // The bit answers now, whatever test is passed with it.
        assert!(lemmas.holds(&graph, node(1), 0, &equals(&["nothing"])));
        let kept = |text| Some((text, crate::ud::TextFix::Kept));
        assert_eq!(lemmas.interned_label_text(node(1)), kept("want"));
        assert_eq!(lemmas.interned_label_text(node(3)), kept(""));
        assert_eq!(lemmas.interned_label_text(node(2)), kept("want"));
        assert_eq!(lemmas.interned_label_text(node(5)), None, "not in the sentence");

        let graph = SentenceGraph::from_basic(&sentences[1]);
        lemmas.start_sentence(1, &Default::default(), graph.word_count() as usize + 1);
        assert!(lemmas.holds(&graph, node(1), 0, &equals(&["nothing"])), "kept from the last sentence");
        assert_eq!(lemmas.len(), 3);
        // Another rule set: its bit 0 is another test.
        lemmas.start_sentence(2, &Default::default(), graph.word_count() as usize + 1);
        assert!(!lemmas.holds(&graph, node(1), 0, &equals(&["nothing"])));
    }
}
