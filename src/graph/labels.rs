//! Enhanced relation labels, interned: an edge holds a [`Label`], a four-byte id; the label's
//! text and [`relation_code`] are kept once in a [`LabelTable`].
//!
//! A thread's table lives in its graph buffers and is kept from sentence to sentence, so a
//! treebank's few hundred labels are each hashed and classified once, and after that a label is
//! copied, compared and stored as an integer: edges shrink from 40 to 16 bytes, capturing a
//! match's labels copies integers, and `H =[e.label]=> N` reuses the matched id without
//! rendering text. Ids are only meaningful within one table, and only until it is trimmed
//! between sentences ([`LabelTable::trim`]).

use super::relation_code;
use std::hash::Hasher;

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

#[derive(Copy, Clone, Debug)]
struct Entry {
    start: u32,
    end: u32,
    code: u8,
}

/// The labels of one thread's sentences: their texts end to end in one string, found by hash.
pub struct LabelTable {
    text: String,
    entries: Vec<Entry>,
    index: hashbrown::HashTable<u32>,
    /// Recently interned labels of up to 16 bytes (nearly all), by [`ShortKey`]: every word's
    /// DEPREL is interned, and a hit here costs a fraction of hashing and probing the table.
    /// Empty until the first label is interned: a default table allocates nothing.
    recent: Vec<(ShortKey, Label)>,
}

const RECENT: usize = 512;

/// Up to 16 bytes of text as two overlapping words and the length: equal keys, equal texts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct ShortKey {
    head: u64,
    tail: u64,
    len: u64,
}

impl ShortKey {
    /// No text has this key: the length is impossible.
    const NONE: ShortKey = ShortKey { head: 0, tail: 0, len: u64::MAX };

    /// The first and the last eight bytes (four for shorter texts; three single bytes for
    /// texts under four), which between them cover every byte.
    fn of(text: &str) -> Option<ShortKey> {
        let b = text.as_bytes();
        let n = b.len();
        let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"));
        let half = |at: usize| u64::from(u32::from_le_bytes(b[at..at + 4].try_into().expect("four bytes")));
        let (head, tail) = match n {
            17.. => return None,
            8.. => (word(0), word(n - 8)),
            4.. => (half(0), half(n - 4)),
            1.. => (u64::from(b[0]) | u64::from(b[n / 2]) << 8, u64::from(b[n - 1])),
            0 => (0, 0),
        };
        Some(ShortKey { head, tail, len: n as u64 })
    }

    /// The top bits of a multiplicative hash: they depend on every bit of the key.
    fn slot(self) -> usize {
        let mixed = (self.head.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.tail ^ self.len.rotate_left(32))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (mixed >> (64 - RECENT.trailing_zeros())) as usize
    }
}

impl Default for LabelTable {
    /// Allocates nothing: a graph's buffers are replaced by a default while the graph is in use.
    fn default() -> Self {
        LabelTable { text: String::new(), entries: Vec::new(), index: hashbrown::HashTable::new(), recent: Vec::new() }
    }
}

impl std::fmt::Debug for LabelTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LabelTable({} labels)", self.entries.len())
    }
}

/// The text of entry `id`, among the texts `all` that `entries` delimit.
fn entry_text<'t>(all: &'t str, entries: &[Entry], id: u32) -> &'t str {
    let e = entries[id as usize];
    &all[e.start as usize..e.end as usize]
}

fn hash(text: &str) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

impl LabelTable {
    /// The id of `text`, added to the table if new.
    pub fn intern(&mut self, text: &str) -> Label {
        if self.recent.is_empty() {
            self.start();
        }
        let Some(key) = ShortKey::of(text) else { return self.intern_in_table(text) };
        let slot = key.slot();
        match self.recent[slot] {
            (seen, label) if seen == key => label,
            _ => {
                let label = self.intern_in_table(text);
                self.recent[slot] = (key, label);
                label
            }
        }
    }

    /// Makes a default table ready for use: the recent-label slots, and the empty label as id 0.
    #[cold]
    fn start(&mut self) {
        self.recent.resize(RECENT, (ShortKey::NONE, Label::EMPTY));
        self.intern_in_table("");
    }

    fn intern_in_table(&mut self, text: &str) -> Label {
        let hash = hash(text);
        let LabelTable { text: all, entries, index, .. } = self;
        if let Some(&id) = index.find(hash, |&id| entry_text(all, entries, id) == text) {
            return Label(id);
        }
        let id = entries.len() as u32;
        let start = all.len() as u32;
        all.push_str(text);
        entries.push(Entry { start, end: all.len() as u32, code: relation_code(text) });
        let (all, entries) = (&*all, &*entries);
        index.insert_unique(hash, id, |&id| self::hash(entry_text(all, entries, id)));
        Label(id)
    }

    /// The id of `text` if it is in the table (no edge can have a label that is not).
    pub fn find(&self, text: &str) -> Option<Label> {
        self.index.find(hash(text), |&id| entry_text(&self.text, &self.entries, id) == text).map(|&id| Label(id))
    }

    pub fn text(&self, label: Label) -> &str {
        // (The empty label of a table not used yet has no entry.)
        if self.entries.is_empty() {
            return "";
        }
        entry_text(&self.text, &self.entries, label.0)
    }

    /// [`relation_code`] of the label, computed when it was added (a label this table gave).
    pub fn code(&self, label: Label) -> u8 {
        self.entries[label.0 as usize].code
    }

    /// Labels in the table, the empty label included once the table is used.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Clears a table grown past [`KEEP_LABELS`]. Only between sentences: every id given out
    /// before becomes invalid.
    pub fn trim(&mut self) {
        if self.entries.len() > KEEP_LABELS {
            *self = LabelTable::default();
        }
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

    /// Texts of every length up to 20 that differ in one byte, or only in length, get
    /// different ids, however the recent-label slots collide; each keeps its id.
    #[test]
    fn texts_differing_in_one_byte_or_in_length_get_different_ids() {
        let mut table = LabelTable::default();
        let mut seen = std::collections::HashMap::new();
        for len in 0..=20 {
            for at in 0..len.max(1) {
                for byte in [b'a', b'b', b'\0'] {
                    let mut text = vec![b'x'; len];
                    if at < len {
                        text[at] = byte;
                    }
                    let text = String::from_utf8(text).unwrap();
                    let id = table.intern(&text);
                    assert_eq!(*seen.entry(text.clone()).or_insert(id), id, "{text:?}");
                    assert_eq!(table.text(id), text);
                }
            }
        }
        let ids: std::collections::HashSet<_> = seen.values().collect();
        assert_eq!(ids.len(), seen.len());
        for (text, id) in &seen {
            assert_eq!(table.intern(text), *id);
        }
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
