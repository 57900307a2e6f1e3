//! A table of distinct strings, each with a small payload, found by text and known afterwards
//! by a `u32` id: what labels ([`super::LabelTable`]) and lemmas (the engine's lemma table) are
//! interned in.
//!
//! Texts sit end to end in one string, found through a hash table of ids. Recently interned
//! texts of up to 16 bytes (nearly all labels and lemmas) are also kept in a small direct-mapped
//! cache keyed by the text's bytes, so a repeated text is found without hashing it or probing.

use std::hash::Hasher;

#[derive(Copy, Clone, Debug)]
struct Entry<P> {
    start: u32,
    end: u32,
    payload: P,
}

/// Distinct texts and their payloads; see the module documentation.
pub struct Interner<P> {
    text: String,
    entries: Vec<Entry<P>>,
    index: hashbrown::HashTable<u32>,
    /// Recently interned texts of up to 16 bytes, by [`ShortKey`]. Empty until
    /// [`Interner::start`]: a default interner allocates nothing.
    recent: Vec<(ShortKey, u32)>,
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
    const NONE: ShortKey = ShortKey {
        head: 0,
        tail: 0,
        len: u64::MAX,
    };

    /// The first and the last eight bytes (four for shorter texts; three single bytes for
    /// texts under four), which between them cover every byte.
    fn of(text: &str) -> Option<ShortKey> {
        let b = text.as_bytes();
        let n = b.len();
        let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"));
        let half = |at: usize| {
            u64::from(u32::from_le_bytes(
                b[at..at + 4].try_into().expect("four bytes"),
            ))
        };
        let (head, tail) = match n {
            17.. => return None,
            8.. => (word(0), word(n - 8)),
            4.. => (half(0), half(n - 4)),
            1.. => (
                u64::from(b[0]) | u64::from(b[n / 2]) << 8,
                u64::from(b[n - 1]),
            ),
            0 => (0, 0),
        };
        Some(ShortKey {
            head,
            tail,
            len: n as u64,
        })
    }

    /// The top bits of a multiplicative hash: they depend on every bit of the key.
    fn slot(self) -> usize {
        let mixed =
            (self.head.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.tail ^ self.len.rotate_left(32))
                .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (mixed >> (64 - RECENT.trailing_zeros())) as usize
    }
}

impl<P> Default for Interner<P> {
    /// Allocates nothing.
    fn default() -> Self {
        Interner {
            text: String::new(),
            entries: Vec::new(),
            index: hashbrown::HashTable::new(),
            recent: Vec::new(),
        }
    }
}

impl<P> std::fmt::Debug for Interner<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Interner({} texts)", self.len())
    }
}

/// The text of entry `id`, among the texts `all` that `entries` delimit.
fn entry_text<'t, P>(all: &'t str, entries: &[Entry<P>], id: u32) -> &'t str {
    let e = &entries[id as usize];
    &all[e.start as usize..e.end as usize]
}

/// [`entry_text`] as bytes, for comparing: slicing bytes checks no character boundaries.
fn entry_bytes<'t, P>(all: &'t str, entries: &[Entry<P>], id: u32) -> &'t [u8] {
    let e = &entries[id as usize];
    &all.as_bytes()[e.start as usize..e.end as usize]
}

fn hash(text: &str) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

impl<P> Interner<P> {
    /// The id of `text`, added with the payload `new(text)` if new. The interner must have been
    /// started ([`Interner::is_started`]): the caller checks, once for all its own set-up.
    #[inline]
    pub fn intern(&mut self, text: &str, new: impl FnOnce(&str) -> P) -> u32 {
        debug_assert!(self.is_started());
        let Some(key) = ShortKey::of(text) else {
            return self.intern_in_table(text, new);
        };
        let slot = key.slot();
        match self.recent[slot] {
            (seen, id) if seen == key => id,
            _ => {
                let id = self.intern_in_table(text, new);
                self.recent[slot] = (key, id);
                id
            }
        }
    }

    /// Makes a default interner ready for use: allocates the recent-text slots, and room for
    /// `texts` texts of `bytes` bytes in all (a table known to grow large then does not rehash
    /// and copy its way up).
    #[cold]
    pub fn start(&mut self, texts: usize, bytes: usize) {
        self.recent.resize(RECENT, (ShortKey::NONE, 0));
        self.entries.reserve(texts);
        self.text.reserve(bytes);
        let (all, entries) = (&self.text, &self.entries);
        self.index
            .reserve(texts, |&id| hash(entry_text(all, entries, id)));
    }

    pub fn is_started(&self) -> bool {
        !self.recent.is_empty()
    }

    fn intern_in_table(&mut self, text: &str, new: impl FnOnce(&str) -> P) -> u32 {
        let hash = hash(text);
        let Interner {
            text: all,
            entries,
            index,
            ..
        } = self;
        if let Some(&id) = index.find(hash, |&id| entry_bytes(all, entries, id) == text.as_bytes())
        {
            return id;
        }
        let id = entries.len() as u32;
        let start = all.len() as u32;
        all.push_str(text);
        entries.push(Entry {
            start,
            end: all.len() as u32,
            payload: new(text),
        });
        let (all, entries) = (&*all, &*entries);
        index.insert_unique(hash, id, |&id| self::hash(entry_text(all, entries, id)));
        id
    }

    /// The id of `text` if it is in the table.
    pub fn find(&self, text: &str) -> Option<u32> {
        self.index
            .find(hash(text), |&id| {
                entry_bytes(&self.text, &self.entries, id) == text.as_bytes()
            })
            .copied()
    }

    /// The text of `id`, an id this table gave.
    pub fn text(&self, id: u32) -> &str {
        entry_text(&self.text, &self.entries, id)
    }

    /// The payload of `id`, an id this table gave.
    #[inline]
    pub fn payload(&self, id: u32) -> &P {
        &self.entries[id as usize].payload
    }

    #[inline]
    pub fn payload_mut(&mut self, id: u32) -> &mut P {
        &mut self.entries[id as usize].payload
    }

    /// Texts in the table.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Empties a table holding more than `keep` texts, and tells whether it did. Every id given
    /// out before is then invalid.
    pub fn trim(&mut self, keep: usize) -> bool {
        let over = self.entries.len() > keep;
        if over {
            *self = Interner::default();
        }
        over
    }
}

#[cfg(test)]
mod tests {
    use super::Interner;

    /// Texts of every length up to 20 that differ in one byte, or only in length, get
    /// different ids, however the recent-text slots collide; each keeps its id and payload.
    #[test]
    fn texts_differing_in_one_byte_or_in_length_get_different_ids() {
        let mut table: Interner<usize> = Interner::default();
        table.start(0, 0);
        let mut seen = std::collections::HashMap::new();
        for len in 0..=20 {
            for at in 0..len.max(1) {
                for byte in [b'a', b'b', b'\0'] {
                    let mut text = vec![b'x'; len];
                    if at < len {
                        text[at] = byte;
                    }
                    let text = String::from_utf8(text).unwrap();
                    let id = table.intern(&text, str::len);
                    assert_eq!(*seen.entry(text.clone()).or_insert(id), id, "{text:?}");
                    assert_eq!(table.text(id), text);
                    assert_eq!(*table.payload(id), text.len());
                }
            }
        }
        let ids: std::collections::HashSet<_> = seen.values().collect();
        assert_eq!(ids.len(), seen.len());
        for (text, id) in &seen {
            assert_eq!(
                table.intern(text, |_| unreachable!("interned already")),
                *id
            );
            assert_eq!(table.find(text), Some(*id));
        }
    }
}
