//! The spaCy component's half in Rust: a `Doc` arrives as the arrays `Doc.to_array` gives (one
//! row of hashes per token, see [`Column`]) with the strings of those hashes and the sentences'
//! token ranges, is written as CoNLL-U, enhanced, and goes back as the values the component
//! sets, built here in bulk. Doing this per token in Python cost 5–8 times the enhancement
//! itself (issue 28); the rules of the conversion are those of `eudify/spacy_component.py`'s
//! module documentation.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// The strings of spaCy's hashes, kept from Doc to Doc: a hash is a function of its string
/// (or a fixed symbol id), the same in every `StringStore`, so one cache serves every Doc and
/// vocabulary, and a Doc's strings cost a lookup here, not a call into Python, once seen.
#[pyclass(frozen, module = "eudify._eudify")]
pub struct SpacyStrings {
    strings: Mutex<HashMap<u64, String>>,
}

/// The cache, or while another thread holds it, a map of this Doc's own: never waiting for the
/// lock while holding the GIL, which its holder may need (to look a string up) before letting
/// go of the lock.
enum Strings<'a> {
    Shared(MutexGuard<'a, HashMap<u64, String>>),
    Own(HashMap<u64, String>),
}

impl std::ops::Deref for Strings<'_> {
    type Target = HashMap<u64, String>;
    fn deref(&self) -> &Self::Target {
        match self {
            Strings::Shared(guard) => guard,
            Strings::Own(map) => map,
        }
    }
}

impl std::ops::DerefMut for Strings<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            Strings::Shared(guard) => guard,
            Strings::Own(map) => map,
        }
    }
}

/// Strings kept at most; past it the cache starts again (a stream of ever-new strings).
const CACHED_STRINGS: usize = 1 << 20;

#[pymethods]
impl SpacyStrings {
    #[new]
    fn new() -> Self {
        SpacyStrings {
            strings: Mutex::new(HashMap::new()),
        }
    }
}

/// The columns of the token table, in the order `spacy_component._ATTRS` asks `Doc.to_array`
/// for them.
#[derive(Clone, Copy)]
enum Column {
    Orth,
    Lemma,
    Pos,
    Tag,
    Morph,
    /// The head's index minus the token's, two's complement.
    Head,
    Dep,
    /// Whether a space follows the token.
    Spacy,
    IsSpace,
    /// The token's offset in the Doc's text, in characters: its key in `Doc.user_data`.
    Idx,
}
const COLUMNS: usize = 10;

/// The columns whose values are `StringStore` keys.
const STRING_COLUMNS: [Column; 6] = [
    Column::Orth,
    Column::Lemma,
    Column::Pos,
    Column::Tag,
    Column::Morph,
    Column::Dep,
];

/// A `Doc` as arrays: the token table, the strings of its hashes, and the sentences.
pub struct DocArrays<'a> {
    table: &'a [u8],
    tokens: usize,
    /// The string of every hash in the table (and of others).
    strings: Strings<'a>,
    /// Each sentence of `doc.sents` as (start, end) token indices.
    sents: Vec<(usize, usize)>,
}

/// One sentence written as CoNLL-U: its `sent_id`, its index in `doc.sents`, and the token
/// index of each word (word `k` is `words[k - 1]`).
pub struct Written {
    sent_id: usize,
    index: usize,
    words: Vec<usize>,
}

impl<'a> DocArrays<'a> {
    /// The Doc of `table` (`Doc.to_array` of the columns of [`Column`], as bytes) and `sents`;
    /// the strings of its hashes are looked up in `cache`, and in `store` (the Doc's
    /// `StringStore`) the first time they are seen.
    pub fn new(
        table: &'a [u8],
        sents: Vec<(usize, usize)>,
        store: &Bound<'_, PyAny>,
        cache: &'a SpacyStrings,
    ) -> PyResult<Self> {
        let row = COLUMNS * 8;
        let tokens = table.len() / row;
        if !table.len().is_multiple_of(row) || sents.iter().any(|&(s, e)| s > e || e > tokens) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "eudify: the Doc's arrays do not agree with each other",
            ));
        }
        let strings = match cache.strings.try_lock() {
            Ok(guard) => Strings::Shared(guard),
            Err(std::sync::TryLockError::Poisoned(poisoned)) => {
                Strings::Shared(poisoned.into_inner())
            }
            Err(std::sync::TryLockError::WouldBlock) => Strings::Own(HashMap::new()),
        };
        let mut doc = DocArrays {
            table,
            tokens,
            strings,
            sents,
        };
        if doc.strings.len() > CACHED_STRINGS {
            doc.strings.clear();
        }
        for token in 0..tokens {
            for column in STRING_COLUMNS {
                let key = doc.get(token, column);
                if let std::collections::hash_map::Entry::Vacant(slot) = doc.strings.entry(key) {
                    slot.insert(store.get_item(key)?.extract()?);
                }
            }
        }
        Ok(doc)
    }

    /// Lets go of the cache of strings (before the GIL is released: see [`Strings`]); the
    /// strings are not needed after [`DocArrays::conllu`].
    pub fn release_strings(&mut self) {
        self.strings = Strings::Own(HashMap::new());
    }

    fn get(&self, token: usize, column: Column) -> u64 {
        let at = (token * COLUMNS + column as usize) * 8;
        u64::from_ne_bytes(self.table[at..at + 8].try_into().expect("8 bytes"))
    }

    /// The string of a hash column (`""` for 0, as spaCy's `StringStore`).
    fn text(&self, token: usize, column: Column) -> &str {
        self.strings
            .get(&self.get(token, column))
            .map_or("", String::as_str)
    }

    fn is_space(&self, token: usize) -> bool {
        self.get(token, Column::IsSpace) != 0
    }

    fn head(&self, token: usize) -> usize {
        let head = token as i64 + self.get(token, Column::Head) as i64;
        usize::try_from(head)
            .ok()
            .filter(|&h| h < self.tokens)
            .unwrap_or(token)
    }

    /// The token's text and the whitespace after it (`Token.text_with_ws`).
    fn with_ws(&self, token: usize, out: &mut String) {
        out.push_str(self.text(token, Column::Orth));
        if self.get(token, Column::Spacy) != 0 {
            out.push(' ');
        }
    }

    /// (HEAD, DEPREL) of each word of a sentence: spaCy's, with whitespace tokens skipped (a
    /// word under one is attached to the nearest word above it; where none is left, to the
    /// sentence's root, or the first such word becomes the root).
    fn heads(&self, words: &[usize]) -> Vec<(usize, &str)> {
        let position = |token: usize| words.binary_search(&token).ok().map(|k| k + 1);
        let mut out: Vec<(usize, &str)> = Vec::with_capacity(words.len());
        let mut root = 0;
        let mut orphans = Vec::new();
        for &token in words {
            let dep = self.text(token, Column::Dep);
            let mut head = self.head(token);
            if head == token {
                if root == 0 {
                    root = out.len() + 1;
                    out.push((0, dep));
                } else {
                    // A second root (a sentence splitter that disagrees with the parser).
                    orphans.push(out.len());
                    out.push((0, "dep"));
                }
                continue;
            }
            // Bounded: a cycle through whitespace tokens ends as an orphan.
            for _ in 0..self.tokens {
                if !self.is_space(head) || self.head(head) == head {
                    break;
                }
                head = self.head(head);
            }
            match position(head) {
                Some(k) => out.push((k, dep)),
                None => {
                    // A whitespace root above, or a head outside the sentence.
                    orphans.push(out.len());
                    out.push((0, dep));
                }
            }
        }
        if !orphans.is_empty() {
            if root == 0 {
                let first = orphans.remove(0);
                root = first + 1;
                out[first] = (0, "ROOT");
            }
            for i in orphans {
                out[i].0 = root;
            }
        }
        out
    }

    /// The Doc as CoNLL-U (one block per sentence with a word, `# sent_id` its position in
    /// `doc.sents` from 1, DEPS `_`), and where each of its words is in the Doc.
    pub fn conllu(&self) -> (String, Vec<Written>) {
        // The whitespace after each word, whitespace tokens included; and before the first.
        let mut after: Vec<String> = vec![String::new(); self.tokens];
        let mut before = String::new();
        let mut last: Option<usize> = None;
        for token in 0..self.tokens {
            if self.is_space(token) {
                match last {
                    None => self.with_ws(token, &mut before),
                    Some(word) => {
                        let mut text = std::mem::take(&mut after[word]);
                        self.with_ws(token, &mut text);
                        after[word] = text;
                    }
                }
            } else {
                if self.get(token, Column::Spacy) != 0 {
                    after[token].push(' ');
                }
                last = Some(token);
            }
        }
        let mut out = String::with_capacity(self.tokens * 48);
        let mut written = Vec::new();
        let mut first_word = true;
        for (index, &(start, end)) in self.sents.iter().enumerate() {
            let words: Vec<usize> = (start..end).filter(|&t| !self.is_space(t)).collect();
            let (Some(&first), Some(&final_word)) = (words.first(), words.last()) else {
                continue;
            };
            let sent_id = index + 1;
            let mut text = String::new();
            for token in first..final_word {
                self.with_ws(token, &mut text);
            }
            text.push_str(self.text(final_word, Column::Orth));
            out.push_str(&format!("# sent_id = {sent_id}\n# text = "));
            // Each run of whitespace as one space, as Python's `" ".join(text.split())`.
            for (i, part) in text
                .split(is_python_space)
                .filter(|p| !p.is_empty())
                .enumerate()
            {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(part);
            }
            out.push('\n');
            for (k, (&token, (head, deprel))) in words.iter().zip(self.heads(&words)).enumerate() {
                out.push_str(&(k + 1).to_string());
                for column in [
                    Column::Orth,
                    Column::Lemma,
                    Column::Pos,
                    Column::Tag,
                    Column::Morph,
                ] {
                    out.push('\t');
                    push_column(&mut out, self.text(token, column));
                }
                out.push('\t');
                out.push_str(&head.to_string());
                out.push('\t');
                push_column(&mut out, deprel);
                out.push_str("\t_\t");
                push_misc(
                    &mut out,
                    &after[token],
                    if first_word { &before } else { "" },
                );
                out.push('\n');
                first_word = false;
            }
            out.push('\n');
            written.push(Written {
                sent_id,
                index,
                words,
            });
        }
        (out, written)
    }

    /// The token's key in `Doc.user_data` for the extension `name` (spaCy's `Underscore`).
    fn key<'py>(
        &self,
        py: Python<'py>,
        name: &Bound<'py, PyAny>,
        token: usize,
    ) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                pyo3::intern!(py, "._.").clone().into_any(),
                name.clone(),
                self.get(token, Column::Idx).into_pyobject(py)?.into_any(),
                py.None().into_bound(py),
            ],
        )
    }
}

/// Whitespace as Python's `str.isspace` has it: Unicode's, and the separators U+001C–U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A CoNLL-U column: `_` when empty, no tab or line break inside.
fn push_column(out: &mut String, text: &str) {
    if text.is_empty() {
        out.push('_');
    } else {
        out.extend(text.chars().map(|c| {
            if matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        }));
    }
}

/// The MISC column: `SpaceAfter=No`, or `SpacesAfter=` / `SpacesBefore=` with UD's escapes.
fn push_misc(out: &mut String, after: &str, before: &str) {
    let start = out.len();
    if after.is_empty() {
        out.push_str("SpaceAfter=No");
    } else if after != " " {
        out.push_str("SpacesAfter=");
        push_spaces(out, after);
    }
    if !before.is_empty() {
        if out.len() > start {
            out.push('|');
        }
        out.push_str("SpacesBefore=");
        push_spaces(out, before);
    }
    if out.len() == start {
        out.push('_');
    }
}

/// Whitespace escaped as UDPipe writes it in `SpacesAfter` (`\s`, `\t`, `\n`, `\r`, `\\`,
/// `\uXXXX` for other whitespace).
fn push_spaces(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            ' ' => out.push_str("\\s"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c if is_python_space(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
}

/// A DEPS head as the component gives it: `None` for the root, a token index of the Doc, or
/// an empty node's key `"<sent_id>/<id>"`.
fn head<'py>(py: Python<'py>, field: &str, sentence: &Written) -> PyResult<Bound<'py, PyAny>> {
    if field == "0" {
        return Ok(py.None().into_bound(py));
    }
    if field.contains('.') {
        return Ok(format!("{}/{field}", sentence.sent_id)
            .into_pyobject(py)?
            .into_any());
    }
    let word = field
        .parse::<usize>()
        .ok()
        .and_then(|k| sentence.words.get(k.wrapping_sub(1)));
    match word {
        Some(&token) => Ok(token.into_pyobject(py)?.into_any()),
        None => Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "eudify wrote the head {field:?}, no word of its sentence"
        ))),
    }
}

/// The `(head, label)` list of a DEPS column.
fn deps<'py>(py: Python<'py>, column: &str, sentence: &Written) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for edge in column.split('|') {
        let (field, label) = edge.split_once(':').unwrap_or((edge, ""));
        list.append(PyTuple::new(
            py,
            [
                head(py, field, sentence)?,
                label.into_pyobject(py)?.into_any(),
            ],
        )?)?;
    }
    Ok(list)
}

/// What the component sets from eudify's output: the `Doc.user_data` entries of every token's
/// `enhanced_deps` (`None` for whitespace tokens), and the empty nodes by key.
pub fn read_enhanced<'py>(
    py: Python<'py>,
    doc: &DocArrays,
    enhanced: &str,
    written: &[Written],
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let name = pyo3::intern!(py, "enhanced_deps").clone().into_any();
    let name = &name;
    let values = PyDict::new(py);
    for token in (0..doc.tokens).filter(|&t| doc.is_space(t)) {
        values.set_item(doc.key(py, name, token)?, py.None())?;
    }
    let empty = PyDict::new(py);
    let mut sentences = written.iter();
    let mut sentence: Option<&Written> = None;
    for line in enhanced.split('\n') {
        if line.is_empty() {
            sentence = None;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let current = match sentence {
            Some(s) => s,
            None => {
                let next = sentences.next().ok_or_else(|| {
                    pyo3::exceptions::PyRuntimeError::new_err(
                        "eudify returned more sentences than it was given",
                    )
                })?;
                sentence = Some(next);
                next
            }
        };
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 10 {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "eudify wrote a line of {} columns",
                cols.len()
            )));
        }
        let id = cols[0];
        if let Some((major, _)) = id.split_once('.') {
            let k: usize = major.parse().unwrap_or(0);
            let node = PyDict::new(py);
            node.set_item("sent", current.index)?;
            node.set_item("id", id)?;
            node.set_item(
                "after",
                if k > 0 {
                    current.words.get(k - 1).copied()
                } else {
                    None
                },
            )?;
            for (name, column) in [
                ("form", 1),
                ("lemma", 2),
                ("upos", 3),
                ("xpos", 4),
                ("feats", 5),
                ("misc", 9),
            ] {
                node.set_item(name, cols[column])?;
            }
            node.set_item("deps", deps(py, cols[8], current)?)?;
            empty.set_item(format!("{}/{id}", current.sent_id), node)?;
        } else if !id.contains('-') {
            let token = id
                .parse::<usize>()
                .ok()
                .and_then(|k| current.words.get(k.wrapping_sub(1)).copied());
            let token = token.ok_or_else(|| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "eudify wrote the word {id}, not in its sentence"
                ))
            })?;
            values.set_item(doc.key(py, name, token)?, deps(py, cols[8], current)?)?;
        }
    }
    Ok((values, empty))
}
