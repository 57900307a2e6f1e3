//! The GramEval 2020 score (Russian full morphology and parsing shared task), as the task's final
//! scorer (`codalab_private_evaluate.py` of dialogue-evaluation/GramEval2020, on files read by
//! pyconll) computes it: per gold token line, UPOS, features, lemma and LAS, and their means.
//!
//! The official script compares the files by position, not through an alignment: token line `j`
//! of gold sentence `i` against token line `j` of system sentence `i`, where a sentence is a
//! run of non-blank lines and a token line any line not starting with `#` — multiword-token
//! and empty-node lines included. So the files are read here in lock-step, one sentence of each
//! at a time, without the tree checks of the IWPT scorer: a file with cycles or several roots
//! is scored as the script scored it. Its quirks are kept, since they decide the figures:
//!
//! - a field that pyconll reads as empty (`_`; LEMMA `_` is a literal underscore only when FORM
//!   is `_` too) never equals anything: a gold `_` lemma, or a multiword-token line's `_` UPOS,
//!   HEAD and DEPREL, scores 0 (the script's comparison raised on `None` and counted 0);
//! - labels compare after replacing `ё` by `е` and then lower-casing (so `Ё` stays `ё`);
//! - HEAD compares as text, DEPREL in full (subtypes included), LAS needing both;
//! - features score `(same + 0.00001) / (gold + 0.00001)`: the share of the gold features (by
//!   name, the last of a repeated name winning) the system line has with the same set of values
//!   — 1 for a gold line without features (so a multiword-token line scores 1), extra system
//!   features cost nothing;
//! - a gold line the system has no line for (a shorter sentence, fewer sentences) scores 0 in
//!   all four; system lines past gold's are read (and must be well-formed) but not scored.
//!
//! Lines are read as Python's text mode and `str.strip` read them: `\r\n`, `\r` and `\n` end a
//! line, whitespace around a line is ignored, and a line of whitespace ends a sentence.

use super::report::GramEval;
use super::EvalError;
use std::io::BufRead;

/// The longest sentence (its token lines, in bytes) either file may have: both files' current
/// sentences are held at once, so this bounds memory.
pub const MAX_SENTENCE_BYTES: usize = 16 << 20;

/// The GramEval 2020 score of `system` against `gold`; the names are used in error messages.
pub(crate) fn gram_eval_readers(
    gold_name: &str,
    gold: impl BufRead,
    system_name: &str,
    system: impl BufRead,
) -> Result<GramEval, EvalError> {
    let mut gold = SentenceReader::new(gold_name, gold);
    let mut system = SentenceReader::new(system_name, system);
    let mut score = GramEval::default();
    loop {
        let gold_more = gold.next_sentence()?;
        let system_more = system.next_sentence()?;
        if !gold_more && !system_more {
            break;
        }
        if gold_more {
            score.sentences += 1;
        }
        let gold_fields = gold.fields()?;
        let system_fields = system.fields()?;
        for (j, g) in gold_fields.iter().enumerate() {
            score.words += 1;
            let Some(s) = system_fields.get(j) else {
                continue;
            };
            score.upos += u64::from(same_label(g.upos, s.upos));
            score.lemmas += u64::from(same_label(g.lemma, s.lemma));
            score.las += u64::from(same_label(g.head, s.head) && same_label(g.deprel, s.deprel));
            score.feats += feature_share(&g.feats, &s.feats);
        }
    }
    Ok(score)
}

/// The columns the score reads, as pyconll reads them: `None` for an empty (`_`) field.
#[derive(Default)]
struct Fields<'a> {
    lemma: Option<&'a str>,
    upos: Option<&'a str>,
    head: Option<&'a str>,
    deprel: Option<&'a str>,
    /// Feature name → values, as given (the last of a repeated name wins).
    feats: Vec<(&'a str, &'a str)>,
}

impl<'a> Fields<'a> {
    /// The fields of a token line (already stripped), or why pyconll refuses it.
    fn parse(line: &'a str) -> Result<Fields<'a>, String> {
        let columns: Vec<&str> = line.split('\t').collect();
        let [_, form, lemma, upos, _, feats, head, deprel, _, _] = columns.as_slice() else {
            return Err(format!(
                "expected 10 tab-separated columns, found {}",
                columns.len()
            ));
        };
        let empty = |field: &'a str| (field != "_").then_some(field);
        let mut out = Fields {
            // pyconll reads `_ _` as an underscore token (FORM and LEMMA literal).
            lemma: if *form == "_" && *lemma == "_" {
                Some(lemma)
            } else {
                empty(lemma)
            },
            upos: empty(upos),
            head: empty(head),
            deprel: empty(deprel),
            feats: Vec::new(),
        };
        if *feats != "_" {
            for feature in feats.split('|') {
                match feature.split_once('=') {
                    Some((name, values)) if !values.is_empty() => {
                        out.feats.retain(|(n, _)| *n != name);
                        out.feats.push((name, values));
                    }
                    _ => return Err(format!("malformed feature '{feature}' in FEATS")),
                }
            }
        }
        Ok(out)
    }
}

/// One input read a sentence at a time as pyconll reads it.
struct SentenceReader<R> {
    name: String,
    input: R,
    /// The current sentence's token lines: their text, and each one's line number and range.
    text: String,
    tokens: Vec<(usize, std::ops::Range<usize>)>,
    /// Lines read so far.
    line: usize,
    raw: Vec<u8>,
    /// Lines read ahead: a `\r` inside a physical line ends a line too.
    pending: Vec<String>,
    done: bool,
}

impl<R: BufRead> SentenceReader<R> {
    fn new(name: &str, input: R) -> Self {
        SentenceReader {
            name: name.to_string(),
            input,
            text: String::new(),
            tokens: Vec::new(),
            line: 0,
            raw: Vec::new(),
            pending: Vec::new(),
            done: false,
        }
    }

    fn error(&self, message: String) -> EvalError {
        EvalError::Parse {
            file: self.name.clone(),
            line: self.line,
            message,
        }
    }

    /// The next line (without its end), `None` at the end of input.
    fn next_line(&mut self) -> Result<Option<String>, EvalError> {
        if let Some(line) = self.pending.pop() {
            self.line += 1;
            return Ok(Some(line));
        }
        if self.done {
            return Ok(None);
        }
        self.raw.clear();
        let limit = MAX_SENTENCE_BYTES as u64 + 1;
        let read = <&mut R as std::io::Read>::take(&mut self.input, limit)
            .read_until(b'\n', &mut self.raw)
            .map_err(|error| EvalError::Io {
                file: self.name.clone(),
                error,
            })?;
        if read == 0 {
            self.done = true;
            return Ok(None);
        }
        self.line += 1;
        if self.raw.len() as u64 == limit {
            return Err(self.error(format!(
                "line longer than {MAX_SENTENCE_BYTES} bytes (the longest sentence GramEval scoring holds)"
            )));
        }
        if self.line == 1 && self.raw.starts_with(b"\xEF\xBB\xBF") {
            self.raw.drain(..3);
        }
        let text =
            std::str::from_utf8(&self.raw).map_err(|_| self.error("invalid UTF-8".to_string()))?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        // Python's universal newlines: a lone `\r` ends a line too.
        let mut parts = text.split('\r');
        let first = parts.next().unwrap_or_default().to_string();
        self.pending.extend(parts.map(str::to_string));
        self.pending.reverse();
        self.line -= self.pending.len();
        Ok(Some(first))
    }

    /// Reads the next sentence's token lines; `false` at the end of input.
    fn next_sentence(&mut self) -> Result<bool, EvalError> {
        self.tokens.clear();
        self.text.clear();
        let mut started = false;
        while let Some(line) = self.next_line()? {
            let line = line.trim_matches(is_python_space);
            if line.is_empty() {
                if started {
                    break;
                }
                continue;
            }
            started = true;
            if line.starts_with('#') {
                continue;
            }
            if self.text.len() + line.len() > MAX_SENTENCE_BYTES {
                return Err(self.error(format!(
                    "sentence longer than {MAX_SENTENCE_BYTES} bytes (the longest GramEval scoring holds)"
                )));
            }
            let start = self.text.len();
            self.text.push_str(line);
            self.tokens.push((self.line, start..self.text.len()));
        }
        Ok(started)
    }

    /// The fields of the current sentence's token lines (none after the end of input).
    fn fields(&self) -> Result<Vec<Fields<'_>>, EvalError> {
        self.tokens
            .iter()
            .map(|(number, range)| {
                Fields::parse(&self.text[range.clone()]).map_err(|message| EvalError::Parse {
                    file: self.name.clone(),
                    line: *number,
                    message,
                })
            })
            .collect()
    }
}

/// Whether Python's `str.strip` removes `c`: Unicode whitespace and the separators U+001C–U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The script's `check_pair`: both present and equal once `ё` is replaced by `е` and the result
/// lower-cased (so a capital `Ё` stays different from `е`).
pub(crate) fn same_label(gold: Option<&str>, system: Option<&str>) -> bool {
    let (Some(a), Some(b)) = (gold, system) else {
        return false;
    };
    a == b || a.replace('ё', "е").to_lowercase() == b.replace('ё', "е").to_lowercase()
}

/// The share of gold features the system has with the same values: `(same + ε) / (gold + ε)`
/// with the script's ε, so a line without gold features scores 1. Values compare as sets
/// (`Case=Acc,Nom` = `Case=Nom,Acc`), as pyconll reads them.
pub(crate) fn feature_share(gold: &[(&str, &str)], system: &[(&str, &str)]) -> f64 {
    const EPSILON: f64 = 0.00001;
    let same_values = |a: &str, b: &str| {
        a == b || {
            let mut a: Vec<&str> = a.split(',').collect();
            let mut b: Vec<&str> = b.split(',').collect();
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            b.dedup();
            a == b
        }
    };
    let same = gold
        .iter()
        .filter(|(name, value)| {
            system
                .iter()
                .any(|(n, v)| n == name && same_values(v, value))
        })
        .count();
    (same as f64 + EPSILON) / (gold.len() as f64 + EPSILON)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The features of a FEATS value, as [`feature_share`] takes them.
    fn feats(value: &str) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> = Vec::new();
        for feature in value.split('|').filter(|f| *f != "_") {
            let (name, values) = feature.split_once('=').expect("name=value");
            out.retain(|(n, _)| *n != name);
            out.push((name, values));
        }
        out
    }

    #[test]
    fn labels_replace_yo_then_lower_case() {
        assert!(same_label(Some("ёж"), Some("еж")));
        // The script replaced `ё` before lower-casing: a capital `Ё` stays `ё`.
        assert!(!same_label(Some("Ёж"), Some("еж")));
        assert!(!same_label(Some("Ёж"), Some("ёж")));
        assert!(same_label(Some("Ёж"), Some("ЁЖ")));
        assert!(same_label(Some("NOUN"), Some("noun")));
        assert!(!same_label(Some("еж"), Some("уж")));
        assert!(!same_label(None, None));
        assert!(!same_label(Some("_"), None));
    }

    #[test]
    fn features_score_the_share_of_gold_features() {
        assert_eq!(feature_share(&feats("_"), &feats("Case=Nom")), 1.0);
        let half = feature_share(&feats("Case=Nom|Number=Sing"), &feats("Number=Sing"));
        assert!((half - 0.5).abs() < 1e-4);
        let extra = feature_share(
            &feats("Case=Nom|Number=Sing"),
            &feats("Case=Nom|Number=Sing|Gender=Fem"),
        );
        assert!((extra - 1.0).abs() < 1e-9);
        assert!((feature_share(&feats("Case=Acc,Nom"), &feats("Case=Nom,Acc")) - 1.0).abs() < 1e-9);
        assert!(feature_share(&feats("Case=Nom"), &feats("Case=Acc")) < 1e-4);
        // A repeated name counts once, its last value.
        assert!(
            (feature_share(&feats("Case=Nom|Case=Acc"), &feats("Case=Acc")) - 1.0).abs() < 1e-9
        );
    }

    #[test]
    fn fields_read_as_pyconll_reads_them() {
        let f = Fields::parse("1\t_\t_\tPUNCT\t_\t_\t0\troot\t_\t_").unwrap();
        assert_eq!(f.lemma, Some("_"));
        let f = Fields::parse("1\tx\t_\t_\t_\t_\t_\t_\t_\t_").unwrap();
        assert_eq!(
            (f.lemma, f.upos, f.head, f.deprel),
            (None, None, None, None)
        );
        assert!(Fields::parse("1\tx").is_err());
        assert!(Fields::parse("1\tx\tx\tX\t_\tCase\t0\troot\t_\t_").is_err());
        assert!(Fields::parse("1\tx\tx\tX\t_\tCase=\t0\troot\t_\t_").is_err());
    }
}
