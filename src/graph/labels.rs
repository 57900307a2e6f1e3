//! Enhanced relation labels, interned: an edge holds a [`Label`], a four-byte id; the label's
//! text and [`relation_code`] are kept once in a [`LabelTable`].
//!
//! A thread's table lives in its graph buffers and is kept from sentence to sentence, so a
//! treebank's few hundred labels are each hashed and classified once, and after that a label is
//! copied, compared and stored as an integer: edges shrink from 40 to 16 bytes, capturing a
//! match's labels copies integers, and `H =[e.label]=> N` reuses the matched id without
//! rendering text. Ids are only meaningful within one table, and only until it is trimmed
//! between sentences ([`LabelTable::trim`]).

use super::interner::Interner;
use super::relation_code;

/// An interned label: an index into a [`LabelTable`]. `Label::default()` is the empty label.
/// Not ordered: ids follow the order labels were first met on a thread, so output that is
/// sorted by label sorts by text ([`LabelTable::text`]), whatever the thread.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Label(u32);

impl Label {
    /// The empty label, which every table holds as id 0.
    pub const EMPTY: Label = Label(0);
}

/// Beyond this many labels a table is cleared before the next sentence: text with unbounded
/// label variety (case labels from noisy parser lemmas) cannot grow it without limit.
const KEEP_LABELS: usize = 1 << 16;

/// The labels of one thread's sentences, each with its [`relation_code`]. Every word's DEPREL
/// is interned, so the interner's recent-text slots matter here most.
#[derive(Default)]
pub struct LabelTable {
    labels: Interner<u8>,
}

impl std::fmt::Debug for LabelTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LabelTable({} labels)", self.labels.len())
    }
}

impl LabelTable {
    /// The id of `text`, added to the table if new.
    #[inline]
    pub fn intern(&mut self, text: &str) -> Label {
        if !self.labels.is_started() {
            self.start();
        }
        Label(self.labels.intern(text, relation_code))
    }

    /// Makes a default table ready for use, with the empty label as id 0.
    #[cold]
    fn start(&mut self) {
        self.labels.start(0, 0);
        self.labels.intern("", relation_code);
    }

    /// The id of `text` if it is in the table (no edge can have a label that is not).
    pub fn find(&self, text: &str) -> Option<Label> {
        self.labels.find(text).map(Label)
    }

    pub fn text(&self, label: Label) -> &str {
        // (The empty label of a table not used yet has no entry.)
        if self.labels.is_empty() {
            return "";
        }
        self.labels.text(label.0)
    }

    /// [`relation_code`] of the label, computed when it was added (a label this table gave).
    pub fn code(&self, label: Label) -> u8 {
        *self.labels.payload(label.0)
    }

    /// Labels in the table, the empty label included once the table is used.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Clears a table grown past [`KEEP_LABELS`]. Only between sentences: every id given out
    /// before becomes invalid.
    pub fn trim(&mut self) {
        self.labels.trim(KEEP_LABELS);
    }
}

#[cfg(test)]
mod tests {
    use super::{Label, LabelTable, KEEP_LABELS};
    use crate::graph::relation_code;

    /// What interning buys in memory: an edge is a label id, its origin and its relation code.
    #[test]
    fn an_edge_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<crate::graph::Edge>(), 16);
    }

    #[test]
    fn equal_texts_get_one_id_and_keep_their_text_and_code() {
        let mut table = LabelTable::default();
        let obl = table.intern("obl:from");
        let nsubj = table.intern("nsubj");
        assert_ne!(obl, nsubj);
        assert_eq!(table.intern("obl:from"), obl);
        assert_eq!(table.text(obl), "obl:from");
        assert_eq!(table.text(nsubj), "nsubj");
        assert_eq!(table.code(obl), relation_code("obl:from"));
        assert_eq!(table.find("nsubj"), Some(nsubj));
        assert_eq!(table.find("obj"), None);
        assert_eq!(table.intern(""), Label::EMPTY);
        assert_eq!(table.text(Label::default()), "");
    }

    /// Many labels (past the table's growth steps) all keep their ids; a table past the limit
    /// starts again empty when trimmed, a smaller one is left alone.
    #[test]
    fn ids_survive_growth_and_trim_clears_only_large_tables() {
        let mut table = LabelTable::default();
        let labels: Vec<(String, Label)> = (0..5000).map(|i| format!("nmod:w{i}")).map(|t| {
            let id = table.intern(&t);
            (t, id)
        }).collect();
        for (text, id) in &labels {
            assert_eq!(table.text(*id), text);
            assert_eq!(table.intern(text), *id);
        }
        table.trim();
        assert_eq!(table.len(), 5001);
        for i in 0..KEEP_LABELS {
            table.intern(&format!("obl:x{i}"));
        }
        table.trim();
        assert!(table.is_empty());
        assert_eq!(table.find("nmod:w1"), None);
        assert_eq!(table.text(Label::EMPTY), "");
        let obl = table.intern("nmod:w1");
        assert_eq!((table.text(obl), table.len()), ("nmod:w1", 2));
    }
}
