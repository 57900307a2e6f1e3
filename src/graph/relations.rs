//! Small bit sets of universal relations and UPOS tags, to index sentences and skip rules.
//! These lookups run for every word of every sentence, hence the hand-written matches.

pub use crate::ud::RELATIONS;
pub const OTHER_RELATION: u32 = 63;

pub use crate::ud::UPOS_TAGS;
pub const OTHER_UPOS: u32 = 31;

/// Index in [`RELATIONS`] of a label's universal part (before the first `:`).
pub fn relation_index(label: &str) -> u32 {
    (relation_code(label) & !SUBTYPED) as u32
}

/// [`relation_code`] of a bare universal relation, at compile time (`const FIXED: u8 =
/// bare_relation_code("fixed")`); a name not in [`RELATIONS`] fails the build.
pub const fn bare_relation_code(name: &str) -> u8 {
    let mut i = 0;
    while i < RELATIONS.len() {
        let candidate = RELATIONS[i].as_bytes();
        let wanted = name.as_bytes();
        if candidate.len() == wanted.len() {
            let mut j = 0;
            while j < wanted.len() && candidate[j] == wanted[j] {
                j += 1;
            }
            if j == wanted.len() {
                return i as u8;
            }
        }
        i += 1;
    }
    panic!("not a universal relation")
}

/// Index in [`RELATIONS`] of a universal relation (no subtype).
fn universal_index(univ: &str) -> u8 {
    match univ {
        "acl" => 0,
        "advcl" => 1,
        "advmod" => 2,
        "amod" => 3,
        "appos" => 4,
        "aux" => 5,
        "case" => 6,
        "cc" => 7,
        "ccomp" => 8,
        "clf" => 9,
        "compound" => 10,
        "conj" => 11,
        "cop" => 12,
        "csubj" => 13,
        "dep" => 14,
        "det" => 15,
        "discourse" => 16,
        "dislocated" => 17,
        "expl" => 18,
        "fixed" => 19,
        "flat" => 20,
        "goeswith" => 21,
        "iobj" => 22,
        "list" => 23,
        "mark" => 24,
        "nmod" => 25,
        "nsubj" => 26,
        "nummod" => 27,
        "obj" => 28,
        "obl" => 29,
        "orphan" => 30,
        "parataxis" => 31,
        "punct" => 32,
        "reparandum" => 33,
        "root" => 34,
        "vocative" => 35,
        "xcomp" => 36,
        "ref" => 37,
        _ => OTHER_RELATION as u8,
    }
}

/// Set in a [`relation_code`] when the label has a subtype (`obl:tmod`, not `obl`).
pub const SUBTYPED: u8 = 64;

/// A label's [`relation_index`], with [`SUBTYPED`] set when it has a subtype: enough to decide
/// an exact test for a bare universal label (`case`) without comparing text.
pub fn relation_code(label: &str) -> u8 {
    // Labels are short: a plain scan beats a memchr call.
    match label.bytes().position(|b| b == b':') {
        Some(i) => universal_index(&label[..i]) | SUBTYPED,
        None => universal_index(label),
    }
}

/// Bit of a label's universal part in a relation set.
pub fn relation_bit(label: &str) -> u64 {
    1u64 << relation_index(label)
}

/// A label's bit in a set of whole labels (`acl:relcl`, not `acl`) hashed to 64 bits: a set
/// that holds a label holds its bit, and a few other labels share each bit. What anchors ask
/// of subtyped labels ([`crate::engine::anchor::Anchor`]), which relation bits cannot tell.
pub fn label_bit(label: &str) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(label.as_bytes());
    // The top bits: the multiplication that ends each step mixes every byte into them.
    1u64 << (hasher.finish() >> 58)
}

pub fn upos_bit(upos: &str) -> u32 {
    let index = match upos {
        "ADJ" => 0,
        "ADP" => 1,
        "ADV" => 2,
        "AUX" => 3,
        "CCONJ" => 4,
        "DET" => 5,
        "INTJ" => 6,
        "NOUN" => 7,
        "NUM" => 8,
        "PART" => 9,
        "PRON" => 10,
        "PROPN" => 11,
        "PUNCT" => 12,
        "SCONJ" => 13,
        "SYM" => 14,
        "VERB" => 15,
        "X" => 16,
        _ => OTHER_UPOS,
    };
    1u32 << index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matches_agree_with_the_tables() {
        for (i, r) in RELATIONS.iter().enumerate() {
            assert_eq!(relation_index(r), i as u32);
            assert_eq!(relation_index(&format!("{r}:sub:x")), i as u32);
        }
        assert_eq!(relation_index("nsubjx"), OTHER_RELATION);
        assert_eq!(relation_code("case"), 6);
        assert_eq!(relation_code("obl:tmod"), 29 | SUBTYPED);
        assert_eq!(relation_code("foo:bar"), OTHER_RELATION as u8 | SUBTYPED);
        for (i, u) in UPOS_TAGS.iter().enumerate() {
            assert_eq!(upos_bit(u), 1 << i);
        }
        assert_eq!(upos_bit("_"), 1 << OTHER_UPOS);
    }

    /// The hand-written matches say what `src/ud` says: a relation is one exactly when it has
    /// an index, a UPOS tag exactly when it has a bit of its own.
    #[test]
    fn the_matches_agree_with_the_ud_facts() {
        let candidates = [
            "nsubj", "obl", "ref", "root", "ROOT", "Nsubj", "subj", "dep", "deps", "_", "",
            "obj|1", "nsubj ",
        ];
        for name in candidates.iter().copied().chain(RELATIONS.iter().copied()) {
            assert_eq!(
                relation_index(name) != OTHER_RELATION,
                crate::ud::is_relation(name),
                "{name:?}"
            );
        }
        for tag in ["NOUN", "noun", "X", "_", "", "PROPN", "CONJ"]
            .iter()
            .copied()
            .chain(UPOS_TAGS.iter().copied())
        {
            assert_eq!(
                upos_bit(tag) != 1 << OTHER_UPOS,
                crate::ud::is_upos(tag),
                "{tag:?}"
            );
        }
    }
}
