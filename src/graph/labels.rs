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
use super::{label_bit, relation_code};
use crate::ud::repairs::{NOT_A_RELATION, PART_DROPPED};
use crate::ud::Repairs;

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

/// What is kept of one text: its [`relation_code`] and [`label_bit`], and whether it is a label
/// of UD's shape.
#[derive(Copy, Clone, Debug)]
struct Info {
    code: u8,
    /// The index of the text's [`label_bit`].
    bit: u8,
    /// Whether the text is a label (the empty text, [`Label::EMPTY`], counts as one).
    valid: bool,
}

/// The repair of a text that is no label.
#[derive(Copy, Clone, Debug)]
struct Repair {
    /// The id of the repaired label.
    label: u32,
    /// The [`crate::ud::repair_label`] kind: 0 case-folded, 1 not a relation, 2 part dropped.
    kind: u8,
    /// Uses of the text since the repairs were last taken.
    uses: u32,
}

/// Repairs made and counted: kept out of line, as most tables never need them.
#[derive(Debug, Default)]
struct Repairing {
    /// By id of the text repaired.
    made: rustc_hash::FxHashMap<u32, Repair>,
    /// Ids of repaired texts used since the repairs were last taken.
    used: Vec<u32>,
    /// Repairs counted by kind and not taken yet, beside those in `used`.
    noted: Repairs,
}

/// The labels of one thread's sentences, each with its [`relation_code`]. Every word's DEPREL
/// is interned, so the interner's recent-text slots matter here most.
///
/// Every label an edge gets is interned here, and a text that is not a label of UD's shape
/// ([`crate::ud::is_enhanced_label`]) is never given out: its id stands for its repair
/// ([`crate::ud::repair_label`]), worked out once per distinct text, and each use is counted.
#[derive(Default)]
pub struct LabelTable {
    labels: Interner<Info>,
    repairing: Option<Box<Repairing>>,
}

impl std::fmt::Debug for LabelTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LabelTable({} labels)", self.labels.len())
    }
}

fn info(text: &str) -> Info {
    let valid = text.is_empty() || crate::ud::is_enhanced_label(text);
    Info {
        code: relation_code(text),
        bit: label_bit(text).trailing_zeros() as u8,
        valid,
    }
}

impl LabelTable {
    /// The id of `text`, added to the table if new; for a text that is not a label of UD's
    /// shape, the id of its repair (counted).
    #[inline]
    pub fn intern(&mut self, text: &str) -> Label {
        if !self.labels.is_started() {
            self.start();
        }
        let id = self.labels.intern(text, info);
        if self.labels.payload(id).valid {
            return Label(id);
        }
        self.repaired(id)
    }

    /// [`LabelTable::intern`] of a text that is no label: its repair, made on first use.
    #[cold]
    #[inline(never)]
    fn repaired(&mut self, id: u32) -> Label {
        let repairing = self.repairing.get_or_insert_with(Box::default);
        let repair = match repairing.made.get_mut(&id) {
            Some(repair) => repair,
            None => {
                let (label, kind) = crate::ud::repair_label(self.labels.text(id))
                    .expect("an invalid text has a repair");
                let label = self.labels.intern(&label, self::info);
                debug_assert!(self.labels.payload(label).valid);
                let kind = match kind.as_ref() {
                    NOT_A_RELATION => 1,
                    PART_DROPPED => 2,
                    _ => 0,
                };
                repairing.made.entry(id).or_insert(Repair {
                    label,
                    kind,
                    uses: 0,
                })
            }
        };
        repair.uses += 1;
        let label = repair.label;
        if repair.uses == 1 {
            repairing.used.push(id);
        }
        Label(label)
    }

    /// Counts one repair of `kind` made while building a label (text cleaned or dropped).
    pub fn note_repair(&mut self, kind: &'static str) {
        self.repairing
            .get_or_insert_with(Box::default)
            .noted
            .add(kind, 1);
    }

    /// Whether repairs were counted since they were last taken.
    pub fn has_repairs(&self) -> bool {
        self.repairing
            .as_ref()
            .is_some_and(|r| !r.used.is_empty() || !r.noted.is_empty())
    }

    /// Adds the repairs counted since the last call to `into`, and starts counting again.
    pub fn take_repairs(&mut self, into: &mut Repairs) {
        let Some(repairing) = self.repairing.as_deref_mut() else {
            return;
        };
        for id in repairing.used.drain(..) {
            let repair = repairing.made.get_mut(&id).expect("a used repair is made");
            let kind = match repair.kind {
                1 => NOT_A_RELATION.into(),
                2 => PART_DROPPED.into(),
                _ => std::borrow::Cow::Owned(format!(
                    "{} → {}",
                    self.labels.text(id),
                    self.labels.text(repair.label)
                )),
            };
            into.add(kind, u64::from(repair.uses));
            repair.uses = 0;
        }
        into.add_all(&repairing.noted);
        repairing.noted.clear();
    }

    /// Makes a default table ready for use, with the empty label as id 0.
    #[cold]
    fn start(&mut self) {
        self.labels.start(0, 0);
        self.labels.intern("", info);
    }

    /// The id of `text` if it is in the table (no edge can have a label that is not; a text
    /// that is no label is on no edge).
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
        self.labels.payload(label.0).code
    }

    /// [`label_bit`] of the label, computed when it was added (a label this table gave).
    pub fn bit(&self, label: Label) -> u64 {
        1u64 << self.labels.payload(label.0).bit
    }

    /// Labels in the table, the empty label included once the table is used.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Clears a table grown past [`KEEP_LABELS`]. Only between sentences: every id given out
    /// before becomes invalid. Repairs not taken yet are kept.
    pub fn trim(&mut self) {
        if self.labels.len() > KEEP_LABELS {
            if let Some(mut repairing) = self.repairing.take() {
                let mut noted = std::mem::take(&mut repairing.noted);
                self.repairing = Some(repairing);
                self.take_repairs(&mut noted);
                self.repairing = Some(Box::new(Repairing {
                    noted,
                    ..Repairing::default()
                }));
            }
        }
        self.labels.trim(KEEP_LABELS);
    }
}

#[cfg(test)]
mod tests {
    use super::{Label, LabelTable, KEEP_LABELS, NOT_A_RELATION, PART_DROPPED};
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

    /// `i` in letters (`12` → `bc`): label parts have no digits.
    fn letters(i: usize) -> String {
        i.to_string()
            .bytes()
            .map(|d| (b'a' + d - b'0') as char)
            .collect()
    }

    /// Many labels (past the table's growth steps) all keep their ids; a table past the limit
    /// starts again empty when trimmed, a smaller one is left alone.
    #[test]
    fn ids_survive_growth_and_trim_clears_only_large_tables() {
        let mut table = LabelTable::default();
        let labels: Vec<(String, Label)> = (0..5000)
            .map(|i| format!("nmod:w{}", letters(i)))
            .map(|t| {
                let id = table.intern(&t);
                (t, id)
            })
            .collect();
        for (text, id) in &labels {
            assert_eq!(table.text(*id), text);
            assert_eq!(table.intern(text), *id);
        }
        table.trim();
        assert_eq!(table.len(), 5001);
        for i in 0..KEEP_LABELS {
            table.intern(&format!("obl:x{}", letters(i)));
        }
        table.trim();
        assert!(table.is_empty());
        assert_eq!(table.find("nmod:wb"), None);
        assert_eq!(table.text(Label::EMPTY), "");
        let obl = table.intern("nmod:wb");
        assert_eq!((table.text(obl), table.len()), ("nmod:wb", 2));
    }

    /// A text that is no label gives its repair's id, worked out once; each use is counted,
    /// until the counts are taken; a trim keeps the counts not taken yet.
    #[test]
    fn texts_that_are_no_labels_give_their_repair_and_are_counted() {
        let mut table = LabelTable::default();
        let root = table.intern("ROOT");
        assert_eq!(
            (table.text(root), table.code(root)),
            ("root", relation_code("root"))
        );
        assert_eq!(table.intern("root"), root);
        assert_eq!(table.intern("ROOT"), root);
        let dep = table.intern("obj|1:nsubj");
        assert_eq!(table.text(dep), "dep");
        let obl = table.intern("obl:Tmod2");
        assert_eq!(table.text(obl), "obl");
        table.note_repair(crate::ud::repairs::TEXT_CLEANED);
        assert!(table.has_repairs());
        let mut repairs = crate::ud::Repairs::default();
        table.take_repairs(&mut repairs);
        assert!(!table.has_repairs());
        let counts = [
            ("ROOT → root", 2),
            (NOT_A_RELATION, 1),
            (PART_DROPPED, 1),
            (crate::ud::repairs::TEXT_CLEANED, 1),
        ];
        for (kind, n) in counts {
            assert_eq!(repairs.count(kind), n, "{kind}");
        }
        assert_eq!(repairs.total(), 5);
        table.intern("ROOT");
        for i in 0..KEEP_LABELS {
            table.intern(&format!("obl:x{}", letters(i)));
        }
        table.trim();
        assert!(table.is_empty() && table.has_repairs());
        table.take_repairs(&mut repairs);
        assert_eq!(repairs.count("ROOT → root"), 3);
    }
}
