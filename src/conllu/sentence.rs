//! A parsed sentence: the block's bytes plus spans into them, checked as UD requires of the
//! basic tree. Every byte is kept; the writer only replaces DEPS and the empty-node lines.

use super::id::{parse_u32, NodeId};
use super::limits::Limits;
use super::reader::RawBlock;
use std::fmt;
use std::ops::Range;

pub const COLUMNS: usize = 10;
pub const ID: usize = 0;
pub const FORM: usize = 1;
pub const LEMMA: usize = 2;
pub const UPOS: usize = 3;
pub const XPOS: usize = 4;
pub const FEATS: usize = 5;
pub const HEAD: usize = 6;
pub const DEPREL: usize = 7;
pub const DEPS: usize = 8;
pub const MISC: usize = 9;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A byte range into [`Sentence::text`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    fn new(range: Range<usize>) -> Span {
        Span { start: range.start as u32, end: range.end as u32 }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// What a sentence error says, and on which line of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
    /// The sentence is over one of the size [`Limits`], not malformed (summaries count these
    /// apart).
    pub too_large: bool,
}

impl ParseError {
    pub fn new(line: usize, message: String) -> ParseError {
        ParseError { line, message, too_large: false }
    }

    /// A sentence, line or comment block over its [`Limits`].
    pub fn too_large(line: usize, message: String) -> ParseError {
        ParseError { line, message, too_large: true }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// `# ...` lines, and the blank lines around the sentence.
    Verbatim,
    /// `3-4` lines.
    Multiword,
    /// Index into [`Sentence::words`].
    Word(u32),
    /// Index into [`Sentence::empty_nodes`].
    Empty(u32),
}

#[derive(Copy, Clone, Debug)]
pub struct Line {
    /// The whole line including its terminator.
    pub bytes: Span,
    /// 1-based line number in the input.
    pub number: usize,
    pub kind: LineKind,
}

/// A word or an empty node: its ten columns as spans.
#[derive(Clone, Debug)]
pub struct Token {
    pub id: NodeId,
    pub columns: [Span; COLUMNS],
    /// Index into [`Sentence::lines`].
    pub line: u32,
    /// The basic head (words only; 0 for empty nodes, which have none).
    pub head: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Sentence {
    text: String,
    pub first_line: usize,
    pub lines: Vec<Line>,
    /// Word `n` is `words[n - 1]`.
    pub words: Vec<Token>,
    /// In input order, which is `NodeId` order.
    pub empty_nodes: Vec<Token>,
    /// The largest word number any DEPS names as head, and whether any names an empty node.
    deps_max_word: u32,
    deps_name_empty_nodes: bool,
    /// Whether the DEPS column is parsed (not when the enhanced layer is to be recomputed).
    check_deps: bool,
    block_has_cr: bool,
    /// Caps on line, comment and sentence size, checked while parsing ([`Limits::NONE`] if
    /// `None`).
    limits: Option<Limits>,
}

impl Sentence {
    /// The whole block as text (it was checked to be UTF-8).
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    pub fn span(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    pub fn column(&self, token: &Token, column: usize) -> &str {
        self.span(token.columns[column])
    }

    pub fn word(&self, n: u32) -> &Token {
        &self.words[n as usize - 1]
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Line number of a word or empty node.
    pub fn line_of(&self, token: &Token) -> usize {
        self.lines[token.line as usize].number
    }

    /// Checks the size of the sentences parsed into this one against `limits` (otherwise only
    /// against what a sentence can hold, [`Limits::NONE`]: the readers cap the bytes already).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = Some(limits);
    }

    fn limits(&self) -> Limits {
        self.limits.unwrap_or(Limits::NONE)
    }

    /// Gives back the block's buffer, leaving the sentence empty, so it can be reused.
    pub fn take_bytes(&mut self) -> Vec<u8> {
        self.lines.clear();
        self.words.clear();
        self.empty_nodes.clear();
        std::mem::take(&mut self.text).into_bytes()
    }

    /// The sentence's text as its tokens spell it: a multiword token's form in place of its
    /// words, empty nodes left out, a space after each token without `SpaceAfter=No` in MISC
    /// (what `# text` holds when the file has it).
    pub fn surface_text(&self) -> String {
        let mut text = String::new();
        let mut covered_to = 0;
        let mut push = |form: &str, misc: &str| {
            text.push_str(form);
            if !misc.split('|').any(|f| f == "SpaceAfter=No") {
                text.push(' ');
            }
        };
        for line in &self.lines {
            match line.kind {
                LineKind::Multiword => {
                    let raw = self.span(line.bytes).trim_end_matches(['\n', '\r']);
                    let raw = raw.strip_prefix('\u{FEFF}').unwrap_or(raw);
                    let columns: Vec<&str> = raw.split('\t').collect();
                    let last = columns[0].split_once('-').and_then(|(_, b)| parse_u32(b));
                    covered_to = last.unwrap_or(covered_to);
                    push(columns[FORM], columns.get(MISC).copied().unwrap_or("_"));
                }
                LineKind::Word(i) => {
                    let word = &self.words[i as usize];
                    if word.id.word > covered_to {
                        push(self.column(word, FORM), self.column(word, MISC));
                    }
                }
                LineKind::Verbatim | LineKind::Empty(_) => {}
            }
        }
        text.truncate(text.trim_end().len());
        text
    }

    /// The value of a `# key = value` comment, e.g. `sent_id`.
    pub fn comment(&self, key: &str) -> Option<&str> {
        self.lines.iter().filter(|l| l.kind == LineKind::Verbatim).find_map(|l| {
            let line = self.span(l.bytes).trim_end_matches(['\n', '\r']);
            let rest = line.strip_prefix('#')?.trim_start();
            let (k, v) = rest.split_once('=')?;
            (k.trim() == key).then(|| v.trim())
        })
    }

    /// The DEPS of a token as `(head, label)` pairs (empty for `_`). Checked at parse time.
    pub fn deps<'a>(&'a self, token: &Token) -> impl Iterator<Item = (NodeId, &'a str)> + 'a {
        let deps = self.span(token.columns[DEPS]);
        let deps = if deps == "_" { "" } else { deps };
        deps.split('|').filter(|d| !d.is_empty()).filter_map(|d| {
            let (head, label) = d.split_once(':')?;
            Some((NodeId::parse(head)?, label))
        })
    }

    /// Every word and empty node in `NodeId` order.
    pub fn tokens_in_order(&self) -> impl Iterator<Item = &Token> + '_ {
        self.lines.iter().filter_map(move |l| match l.kind {
            LineKind::Word(i) => Some(&self.words[i as usize]),
            LineKind::Empty(i) => Some(&self.empty_nodes[i as usize]),
            _ => None,
        })
    }

    pub fn has_node(&self, id: NodeId) -> bool {
        if id.empty == 0 {
            id.word as usize <= self.words.len()
        } else {
            self.empty_nodes.binary_search_by(|t| t.id.cmp(&id)).is_ok()
        }
    }

    /// Parses a block. On failure the block is handed back untouched with the error.
    pub fn parse(block: RawBlock) -> Result<Sentence, Box<(RawBlock, ParseError)>> {
        let mut sentence = Sentence::default();
        sentence.parse_into(block)?;
        Ok(sentence)
    }

    /// Like [`Sentence::parse`], but the DEPS column is not looked at (it may be empty or hold
    /// anything): for `enhance` and `explain`, which recompute the enhanced layer. [`Sentence::deps`]
    /// of such a sentence skips what is malformed.
    pub fn parse_ignoring_deps(block: RawBlock) -> Result<Sentence, Box<(RawBlock, ParseError)>> {
        let mut sentence = Sentence::default();
        sentence.parse_into_ignoring_deps(block)?;
        Ok(sentence)
    }

    /// Like [`Sentence::parse`], reusing this sentence's buffers.
    pub fn parse_into(&mut self, block: RawBlock) -> Result<(), Box<(RawBlock, ParseError)>> {
        self.parse_block(block, true)
    }

    /// Like [`Sentence::parse_ignoring_deps`], reusing this sentence's buffers.
    pub fn parse_into_ignoring_deps(&mut self, block: RawBlock) -> Result<(), Box<(RawBlock, ParseError)>> {
        self.parse_block(block, false)
    }

    fn parse_block(&mut self, block: RawBlock, check_deps: bool) -> Result<(), Box<(RawBlock, ParseError)>> {
        // Bounded before anything else is done with it (spans are 32-bit offsets, too).
        if block.bytes.len() > self.limits().sentence_bytes() {
            let error = ParseError::too_large(block.first_line, self.limits().sentence_bytes_message());
            return Err(Box::new((block, error)));
        }
        // SIMD validation first; std's slower check only runs to locate an error.
        let valid = simdutf8::basic::from_utf8(&block.bytes).is_ok();
        let checked = if valid {
            // SAFETY: `simdutf8` has just validated these bytes as UTF-8.
            Ok(unsafe { String::from_utf8_unchecked(block.bytes) })
        } else {
            String::from_utf8(block.bytes)
        };
        let text = match checked {
            Ok(text) => text,
            Err(e) => {
                let bytes = e.into_bytes();
                let bad = std::str::from_utf8(&bytes).map_err(|e| e.valid_up_to()).unwrap_err();
                let line = block.first_line + memchr::memchr_iter(b'\n', &bytes[..bad]).count();
                let block = RawBlock { bytes, ..block };
                let message = "invalid UTF-8".to_string();
                return Err(Box::new((block, ParseError::new(line, message))));
            }
        };
        let mut old = std::mem::take(&mut self.text);
        old.clear();
        self.text = text;
        self.first_line = block.first_line;
        self.lines.clear();
        self.words.clear();
        self.empty_nodes.clear();
        self.deps_max_word = 0;
        self.deps_name_empty_nodes = false;
        self.check_deps = check_deps;
        match self.parse_lines(block.starts_input) {
            Ok(()) => Ok(()),
            Err(error) => {
                let bytes = std::mem::replace(&mut self.text, old).into_bytes();
                let block = RawBlock { bytes, first_line: block.first_line, starts_input: block.starts_input };
                Err(Box::new((block, error)))
            }
        }
    }

    fn parse_lines(&mut self, starts_input: bool) -> Result<(), ParseError> {
        let mut start = 0;
        let mut number = self.first_line;
        let mut lines = std::mem::take(&mut self.lines);
        let mut result = Ok(());
        // Lines are checked for stray CRs only if the block has any CR at all (CRLF input).
        self.block_has_cr = memchr::memchr(b'\r', self.text.as_bytes()).is_some();
        let mut comment_bytes = 0;
        while start < self.text.len() {
            let bytes = self.text.as_bytes();
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
            let mut content = start..end;
            if bytes[..content.end].ends_with(b"\n") {
                content.end -= 1;
            }
            // CR of a CRLF, or a CR that ends the input (a CRLF file cut between CR and LF).
            if bytes[..content.end].ends_with(b"\r") {
                content.end -= 1;
            }
            if starts_input && start == 0 && bytes.starts_with(BOM) {
                content.start += BOM.len();
            }
            if let Err(e) = self.check_size(start..end, &mut comment_bytes, number, lines.len()) {
                result = Err(e);
                break;
            }
            let kind = match self.parse_line(content, number, lines.len() as u32) {
                Ok(kind) => kind,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            lines.push(Line { bytes: Span::new(start..end), number, kind });
            start = end;
            number += 1;
        }
        self.lines = lines;
        result?;
        self.check_tree()
    }

    /// Checks the line at `bytes` (the `count`-th of the sentence) against the size limits.
    fn check_size(&self, bytes: Range<usize>, comment_bytes: &mut usize, number: usize, count: usize) -> Result<(), ParseError> {
        let limits = &self.limits();
        if count >= limits.max_sentence_lines {
            return Err(ParseError::too_large(self.first_line, limits.sentence_lines_message()));
        }
        if bytes.len() > limits.max_line_bytes {
            return Err(ParseError::too_large(number, limits.line_bytes_message(bytes.len())));
        }
        if self.text.as_bytes()[bytes.start..].starts_with(b"#") {
            *comment_bytes += bytes.len();
            if *comment_bytes > limits.max_comment_bytes {
                return Err(ParseError::too_large(number, limits.comment_bytes_message()));
            }
        }
        Ok(())
    }

    fn parse_line(&mut self, content: Range<usize>, number: usize, line_index: u32) -> Result<LineKind, ParseError> {
        let err = |message: String| ParseError::new(number, message);
        let line = &self.text[content.clone()];
        if line.starts_with('\u{FEFF}') {
            // Typically `cat a.conllu b.conllu` with b saved with a BOM. Said outright, because
            // the character is invisible in any other message (e.g. "malformed ID '1'").
            return Err(err("byte-order mark (U+FEFF) at the start of a line; only the input's first line may have one".into()));
        }
        if self.block_has_cr && line.contains('\r') {
            // Old Mac line ends (CR alone) would otherwise make the whole file one comment line.
            return Err(err("carriage return (CR) inside a line: lines must end in LF or CRLF".into()));
        }
        if line.is_empty() || line.starts_with('#') {
            return Ok(LineKind::Verbatim);
        }
        if line.bytes().all(|b| b == b' ' || b == b'\t') {
            // Looks blank but does not end the sentence: "found 1 column" would not say why.
            return Err(err("line holds only spaces or tabs: a blank line between sentences must be empty".into()));
        }
        let mut columns = [Span::default(); COLUMNS];
        let mut count = 0;
        let mut col_start = content.start;
        for i in memchr::memchr_iter(b'\t', line.as_bytes()) {
            if count < COLUMNS {
                columns[count] = Span::new(col_start..content.start + i);
            }
            count += 1;
            col_start = content.start + i + 1;
        }
        if count < COLUMNS {
            columns[count] = Span::new(col_start..content.end);
        }
        count += 1;
        if count != COLUMNS {
            return Err(err(format!("expected 10 tab-separated columns, found {count}")));
        }
        const NAMES: [&str; COLUMNS] = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"];
        for (i, span) in columns.iter().enumerate() {
            if span.start == span.end && (i != DEPS || self.check_deps) {
                return Err(err(format!("empty {} column", NAMES[i])));
            }
        }
        let id_text = self.span(columns[ID]);
        let expected_word = self.words.len() as u32 + 1;
        if let Some((a, b)) = id_text.split_once('-') {
            let (Some(a), Some(b)) = (parse_u32(a), parse_u32(b)) else {
                return Err(err(format!("malformed multiword token ID '{id_text}'{}", leading_zero_hint(id_text))));
            };
            if a != expected_word || b <= a {
                return Err(err(format!(
                    "multiword token range '{id_text}' out of order: it must start at word {expected_word} and span at least two words"
                )));
            }
            return Ok(LineKind::Multiword);
        }
        let Some(id) = NodeId::parse(id_text) else {
            return Err(err(format!("malformed ID '{id_text}'{}", leading_zero_hint(id_text))));
        };
        let head_text = self.span(columns[HEAD]);
        if id.is_empty_node() {
            let last_word = self.words.len() as u32;
            let previous = self.empty_nodes.last().filter(|e| e.id.word == last_word).map_or(0, |e| e.id.empty);
            if id.word != last_word || id.empty != previous + 1 {
                let expected = NodeId::empty(last_word, previous + 1);
                return Err(err(format!("empty node ID '{id_text}' out of order: expected {expected}")));
            }
            if head_text != "_" || self.span(columns[DEPREL]) != "_" {
                return Err(err(format!("empty node {id} must have '_' as HEAD and DEPREL")));
            }
        } else if id.word != expected_word {
            return Err(err(format!("word ID '{id_text}' out of order: expected {expected_word}")));
        }
        let head = if id.is_empty_node() {
            0
        } else {
            parse_u32(head_text).ok_or_else(|| err(format!("HEAD '{head_text}' is not a word number{}", leading_zero_hint(head_text))))?
        };
        if self.check_deps {
            let deps_heads = check_deps_syntax(self.span(columns[DEPS])).map_err(err)?;
            self.deps_max_word = self.deps_max_word.max(deps_heads.max_word);
            self.deps_name_empty_nodes |= deps_heads.names_empty_node;
        }
        let token = Token { id, columns, line: line_index, head };
        if id.is_empty_node() {
            self.empty_nodes.push(token);
            Ok(LineKind::Empty(self.empty_nodes.len() as u32 - 1))
        } else {
            self.words.push(token);
            Ok(LineKind::Word(self.words.len() as u32 - 1))
        }
    }

    /// Checks references that need the whole sentence: HEAD range, one root, no cycle, DEPS heads.
    fn check_tree(&self) -> Result<(), ParseError> {
        if self.words.is_empty() {
            let message = if self.lines.iter().all(|l| self.span(l.bytes).trim().is_empty()) {
                "blank lines with no sentence".to_string()
            } else {
                "sentence has no words".to_string()
            };
            return Err(ParseError::new(self.first_line, message));
        }
        let n = self.words.len() as u32;
        self.check_multiwords()?;
        let mut root: Option<&Token> = None;
        for word in &self.words {
            let line = self.line_of(word);
            if word.head > n {
                let message = format!("HEAD {} of word {} is outside the sentence (1..{n})", word.head, word.id);
                return Err(ParseError::new(line, message));
            }
            if word.head == word.id.word {
                return Err(ParseError::new(line, format!("word {} is its own HEAD", word.id)));
            }
            if word.head == 0 {
                if let Some(first) = root {
                    let message = format!("two roots: words {} and {} both have HEAD 0", first.id, word.id);
                    return Err(ParseError::new(line, message));
                }
                root = Some(word);
            }
        }
        // Every word must reach the root; walking up marks whole paths at once.
        let mut state = vec![0u8; n as usize + 1]; // 0 unseen, 1 on current path, 2 reaches root
        state[0] = 2;
        for start in 1..=n {
            let mut w = start;
            while state[w as usize] == 0 {
                state[w as usize] = 1;
                w = self.word(w).head;
            }
            if state[w as usize] == 1 {
                let mut cycle = vec![w];
                let mut v = self.word(w).head;
                while v != w {
                    cycle.push(v);
                    v = self.word(v).head;
                }
                let path: Vec<String> = cycle.iter().chain([&w]).map(u32::to_string).collect();
                let line = self.line_of(self.word(w));
                let message = if root.is_none() {
                    format!("no root, and a cycle in the basic tree: {}", path.join(" → "))
                } else {
                    format!("cycle in the basic tree: {}", path.join(" → "))
                };
                return Err(ParseError::new(line, message));
            }
            let mut w = start;
            while state[w as usize] == 1 {
                state[w as usize] = 2;
                w = self.word(w).head;
            }
        }
        // The common case is decided by what the DEPS pass recorded; only DEPS naming empty
        // nodes or heads past the last word need a second look.
        if self.deps_max_word <= n && !self.deps_name_empty_nodes {
            return Ok(());
        }
        for token in self.tokens_in_order() {
            for (head, _) in self.deps(token) {
                if !self.has_node(head) {
                    let message = format!("DEPS of {} names head {head}, which is not in the sentence", token.id);
                    return Err(ParseError::new(self.line_of(token), message));
                }
            }
        }
        Ok(())
    }
}

impl Sentence {
    /// Multiword token ranges must not overlap and must end within the sentence (`parse_line`
    /// has checked that each starts at the next word and spans at least two).
    fn check_multiwords(&self) -> Result<(), ParseError> {
        let n = self.words.len() as u32;
        let mut previous: Option<(&str, u32)> = None;
        for line in self.lines.iter().filter(|l| l.kind == LineKind::Multiword) {
            let text = self.span(line.bytes);
            // Only the input's first line may start with a BOM; the ID follows it.
            let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
            let id = text.split('\t').next().unwrap_or_default();
            let range = id.split_once('-').and_then(|(a, b)| Some((parse_u32(a)?, parse_u32(b)?)));
            let Some((first, last)) = range else {
                let message = format!("malformed multiword token ID '{id}'");
                return Err(ParseError::new(line.number, message));
            };
            if let Some((previous_id, _)) = previous.filter(|&(_, l)| first <= l) {
                let message = format!("multiword token range '{id}' overlaps '{previous_id}'");
                return Err(ParseError::new(line.number, message));
            }
            if last > n {
                let message = format!("multiword token range '{id}' runs past the last word of the sentence ({n})");
                return Err(ParseError::new(line.number, message));
            }
            previous = Some((id, last));
        }
        Ok(())
    }
}

/// What the DEPS of one token refer to, for the sentence-level check.
#[derive(Default)]
struct DepsHeads {
    max_word: u32,
    names_empty_node: bool,
}

/// `_`, or `head:label` pairs joined by `|`; heads are word or empty-node IDs.
fn check_deps_syntax(deps: &str) -> Result<DepsHeads, String> {
    let mut heads = DepsHeads::default();
    if deps == "_" {
        return Ok(heads);
    }
    for dep in deps.split('|') {
        let Some((head, label)) = dep.split_once(':') else {
            return Err(format!("malformed DEPS '{deps}': '{dep}' is not HEAD:LABEL"));
        };
        let Some(id) = NodeId::parse(head) else {
            return Err(format!("malformed DEPS '{deps}': head '{head}' is not a node ID"));
        };
        if label.is_empty() || label.contains(char::is_whitespace) {
            return Err(format!("malformed DEPS '{deps}': bad label '{label}'"));
        }
        heads.max_word = heads.max_word.max(id.word);
        heads.names_empty_node |= id.is_empty_node();
    }
    Ok(heads)
}

/// Said of a number that is malformed only for a leading zero (`01`), which looks right.
fn leading_zero_hint(text: &str) -> &'static str {
    let leading_zero = text.split(['.', '-']).any(|n| n.len() > 1 && n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit()));
    if leading_zero {
        ": numbers have no leading zero"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::Sentence;
    use crate::conllu::RawBlock;

    fn parse(text: &str) -> Sentence {
        let block = RawBlock {
            bytes: text.as_bytes().to_vec(),
            first_line: 1,
            starts_input: true,
        };
        Sentence::parse(block).unwrap()
    }

    #[test]
    fn surface_text_spells_multiword_tokens_and_spacing() {
        let sentence = parse(
            "1\tvoy\tir\tVERB\t_\t_\t0\troot\t_\t_\n\
             2-3\tdel\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n\
             2\tde\tde\tADP\t_\t_\t4\tcase\t_\t_\n\
             3\tel\tel\tDET\t_\t_\t4\tdet\t_\t_\n\
             4\tbar\tbar\tNOUN\t_\t_\t1\tobl\t_\tSpaceAfter=No\n\
             4.1\tva\tir\tVERB\t_\t_\t_\t_\t_\t_\n\
             5\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n",
        );
        assert_eq!(sentence.surface_text(), "voy delbar.");
    }
}
