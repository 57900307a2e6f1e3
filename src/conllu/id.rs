//! Node identifiers: words `n`, empty nodes `n.k`, and the artificial root `0`.

use std::fmt;

/// A node's position in a sentence. Word `n` is `(n, 0)`, empty node `n.k` is `(n, k)`, the
/// root is `(0, 0)`. Ordering is by integer pairs, so `1.2 < 1.10 < 2`.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct NodeId {
    pub word: u32,
    pub empty: u32,
}

impl NodeId {
    pub const ROOT: NodeId = NodeId { word: 0, empty: 0 };

    pub const fn word(n: u32) -> NodeId {
        NodeId { word: n, empty: 0 }
    }

    pub const fn empty(n: u32, k: u32) -> NodeId {
        NodeId { word: n, empty: k }
    }

    pub fn is_root(self) -> bool {
        self == Self::ROOT
    }

    pub fn is_empty_node(self) -> bool {
        self.empty != 0
    }

    /// Parses `n` or `n.k` (decimal digits only, `k >= 1`).
    pub fn parse(text: &str) -> Option<NodeId> {
        match text.split_once('.') {
            None => parse_u32(text).map(NodeId::word),
            Some((word, empty)) => {
                let word = parse_u32(word)?;
                let empty = parse_u32(empty)?;
                (empty > 0).then_some(NodeId { word, empty })
            }
        }
    }

    /// Appends the CoNLL-U spelling to `out` without allocating.
    pub fn write_to(self, out: &mut Vec<u8>) {
        push_u32(out, self.word);
        if self.empty != 0 {
            out.push(b'.');
            push_u32(out, self.empty);
        }
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.empty == 0 {
            write!(f, "{}", self.word)
        } else {
            write!(f, "{}.{}", self.word, self.empty)
        }
    }
}

/// Strict decimal parse as CoNLL-U writes numbers: ASCII digits only (no sign, no spaces), no
/// leading zero (`01`, `00`: UD's validator rejects them), fits in `u32`.
pub fn parse_u32(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) || (text.len() > 1 && text.starts_with('0')) {
        return None;
    }
    text.parse().ok()
}

pub fn push_u32(out: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_nodes_order_as_integer_pairs() {
        let a = NodeId::parse("1.2").unwrap();
        let b = NodeId::parse("1.10").unwrap();
        let c = NodeId::parse("2").unwrap();
        assert!(a < b && b < c);
        assert!(NodeId::parse("1").unwrap() < a);
        assert_eq!(b.to_string(), "1.10");
    }

    #[test]
    fn rejects_malformed_ids() {
        for bad in ["", "a", "1.", ".1", "1.0", "-1", "+1", "1.2.3", " 1", "99999999999", "01", "004", "00", "1.01", "01.1"] {
            assert_eq!(NodeId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn writes_without_formatting_machinery() {
        let mut out = Vec::new();
        NodeId::empty(12, 3).write_to(&mut out);
        out.push(b' ');
        NodeId::ROOT.write_to(&mut out);
        assert_eq!(out, b"12.3 0");
    }
}
