//! Which profile an input needs when the user names none: chosen by evidence, said, or refused.
//!
//! A wrong profile costs a lot and shows nothing (a Czech file under `universal` loses 26 ELAS
//! points and is still valid CoNLL-U), so there is no silent default. In order:
//!
//! 1. a UD treebank code in the input's file name (`cs_cac-ud-dev.conllu`, `fr_sequoia-ud-train.conllu`,
//!    `sv-ud-dev.conllu`), else in its `# newdoc id` or `# sent_id` comments (`sv-ud-dev-1`,
//!    `cs_cac-s12`), whose language is a profile or a row of `rules/languages.toml`; the code is
//!    then resolved as `--lang CODE` would be. Codes must have UD's shape: in a file name UD's
//!    naming (`xx_name-ud-`, `xx-ud-`; not `id_out_of_order.conllu`), in a comment that or
//!    `xx_name` followed by `-`, `.`, `:`, `/` or the end (not `sme:1356`, `aja_ee199920_1477`);
//! 2. else the language identified from the text: the distinct lemmas and forms of the first
//!    [`SAMPLE_WORDS`] words found in the lexicons (`lexicons/*.toml`) of exactly one language
//!    profile are that language's evidence. The profile with the most is chosen when it has at
//!    least [`MIN_WORDS`] and at least [`MIN_RATIO`] times the next one's; otherwise the
//!    evidence is weak and the answer is an [`Error::NoProfile`] asking for the language. No
//!    language is known here: the word lists are the profiles' own.
//!
//! Weak evidence on input that is not CoNLL-U gives the input's own error (`FILE:LINE: message`)
//! instead; an input without words gets [`FALLBACK`] (any profile writes it unchanged).
//!
//! [`Detection`] says which and why, for the CLI's `eudify: profile cs (…)` line and Python's
//! warning.

use super::rules::rule_source;
use crate::error::Error;
use crate::rules::lexicon::Lexicon;
use crate::rules::profile::{language_table, load_profile, FALLBACK};
use crate::rules::source::profile_names;
use crate::rules::vocabulary::Vocabulary;
use crate::rules::{RuleSource, SourceMap};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// Words of the input read for identification (whole sentences: the sample ends with the
/// sentence that reaches it).
pub const SAMPLE_WORDS: usize = 5_000;
/// Bytes of the input read for identification at most, whatever the words (a bound on memory
/// for stdin, which is buffered and replayed).
pub const SAMPLE_BYTES: u64 = 4 << 20;
/// Distinctive lexicon words the chosen language needs at least.
pub const MIN_WORDS: usize = 5;
/// How many times the next language's distinctive words the chosen language needs at least.
pub const MIN_RATIO: usize = 2;

/// [`Evidence::Code`]'s place for a code in the input's file name.
const FILE_NAME: &str = "file name";

/// The profile an input needs and why ([`detect_profile`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The treebank or language code found in the input, or the name of the profile
    /// identified from the text.
    pub code: String,
    /// The profile `code` resolves to: what to give [`crate::Enhancer::for_profile`] (the
    /// reason says how it was resolved).
    pub profile: String,
    /// The evidence.
    pub evidence: Evidence,
}

/// Where a [`Detection`] comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// A UD treebank or language code in the input's name or comments.
    Code {
        /// `file name`, `newdoc id` or `sent_id`.
        place: &'static str,
        /// The name or comment value it was found in.
        text: String,
        /// How the code was resolved when it has no profile of its own (`--lang`'s warning:
        /// `no profile for treebank `cs_cac`: using the language profile `cs``).
        fallback: Option<String>,
    },
    /// The language identified from the text.
    Text(TextScores),
    /// The input has no words: every profile gives the same output, so the fallback profile
    /// is as good as any.
    NoWords,
}

/// The text identification's counts: per language profile, the distinct words of the sample
/// found in its lexicons and no other's, most first (then by name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextScores {
    /// `(profile, distinctive words)`, most first; languages without any left out.
    pub scores: Vec<(String, usize)>,
    /// Sentences read.
    pub sentences: usize,
    /// Words read (multiword tokens and empty nodes not counted).
    pub words: usize,
}

impl TextScores {
    /// Distinctive words of every language together.
    pub fn total(&self) -> usize {
        self.scores.iter().map(|(_, n)| n).sum()
    }

    /// The chosen language, when the evidence is strong enough ([`MIN_WORDS`], [`MIN_RATIO`]).
    pub fn winner(&self) -> Option<&str> {
        let (best, count) = self.scores.first()?;
        let next = self.scores.get(1).map_or(0, |(_, n)| *n);
        (*count >= MIN_WORDS && *count >= MIN_RATIO * next).then_some(best.as_str())
    }

    /// `57 of 60 distinctive lexicon words are cs's; next: sk 3 (200 sentences, 5,012 words)`.
    fn describe(&self) -> String {
        let counts = format!(
            "{}, {}",
            crate::text::count(self.sentences as u64, "sentence"),
            crate::text::count(self.words as u64, "word")
        );
        let Some((best, count)) = self.scores.first() else {
            return format!("no word of any profile's lexicons ({counts})");
        };
        let next = match self.scores.get(1) {
            Some((name, n)) => format!("next: {name} {n}"),
            None => "no other".to_string(),
        };
        format!(
            "{count} of {} distinctive lexicon words are {best}'s; {next} ({counts})",
            self.total()
        )
    }
}

impl Detection {
    /// Why this profile, in a few words: `from sent_id "sv-ud-dev-1"`, `identified from the
    /// text: …`.
    pub fn reason(&self) -> String {
        match &self.evidence {
            Evidence::Code {
                place,
                text,
                fallback,
            } => match fallback {
                Some(fallback) => format!("from {place} \"{text}\"; {fallback}"),
                None => format!("from {place} \"{text}\""),
            },
            Evidence::Text(scores) => format!("identified from the text: {}", scores.describe()),
            Evidence::NoWords => {
                "the input has no words: every profile gives the same output".to_string()
            }
        }
    }
}

/// `profile cs (from sent_id "cs_cac-s1")`: what the CLI prints after `eudify: ` and Python
/// warns.
impl fmt::Display for Detection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "profile {} ({})", self.profile, self.reason())
    }
}

/// The profile for the input `name` (a path, or `<stdin>`, `<string>`) whose first sentences
/// are `sample` (CoNLL-U; [`read_sample`] reads one; only its first [`SAMPLE_WORDS`] words are
/// scored), among the embedded rules' profiles or those of `rules`. Weak evidence is an
/// [`Error::NoProfile`] naming `name`, what was found and asking for the language.
pub fn detect_profile(
    name: &str,
    sample: impl AsRef<[u8]>,
    rules: Option<&Path>,
) -> Result<Detection, Error> {
    let bytes = sample.as_ref();
    // Bytes that are not UTF-8 are the input's error (below), not the scorer's.
    let sample = String::from_utf8_lossy(bytes);
    let sample = sample.as_ref();
    let source = rule_source(rules)?;
    let file_name = Path::new(name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(detection) = code_evidence(&source, FILE_NAME, &file_name) {
        return Ok(detection);
    }
    if let Some(detection) = comment_evidence(&source, sample) {
        return Ok(detection);
    }
    let scores = score_text(&source, sample)?;
    if scores.words == 0 {
        if let Some(error) = invalid_sentence(name, bytes)? {
            return Err(error);
        }
        return Ok(Detection {
            code: FALLBACK.to_string(),
            profile: FALLBACK.to_string(),
            evidence: Evidence::NoWords,
        });
    }
    match scores.winner() {
        Some(best) => Ok(Detection {
            code: best.to_string(),
            profile: best.to_string(),
            evidence: Evidence::Text(scores.clone()),
        }),
        // Input that is not CoNLL-U gets its `FILE:LINE: message`, not a question about the
        // language (its few words are often why the evidence is weak).
        None => Err(
            invalid_sentence(name, bytes)?.unwrap_or_else(|| Error::NoProfile {
                file: name.to_string(),
                message: format!(
                    "cannot tell which language profile it needs: no treebank code in its name or \
                 sent_ids, and {} (needed: at least {MIN_WORDS}, and {MIN_RATIO} times the \
                 next); give the language (--lang CODE; `eudify profiles` lists them)",
                    scores.describe()
                ),
            }),
        ),
    }
}

/// The error of the first invalid sentence of `sample` (up to its last sentence break: the
/// sample may end inside a sentence), as enhancing it would report it, if any.
fn invalid_sentence(name: &str, sample: &[u8]) -> Result<Option<Error>, Error> {
    let cut = sample.len() as u64 >= SAMPLE_BYTES;
    let whole = match memchr::memmem::rfind(sample, b"\n\n") {
        Some(end) if cut => &sample[..end + 2],
        _ => sample,
    };
    // `basic` runs no rule: only the reading and checking of the sentences.
    let reader = super::Enhancer::for_profile("basic", None)?;
    match reader.run(name, whole, &mut io::sink(), 1) {
        Err(error @ Error::Input { .. }) => Ok(Some(error)),
        _ => Ok(None),
    }
}

/// [`detect_profile`] for the file `path` (gzip is read too): its first sentences are read,
/// then it is closed. Not for stdin (`-`), which cannot be read twice: read its sample with
/// [`read_sample`] and replay it.
pub fn detect_profile_for_file(path: &Path, rules: Option<&Path>) -> Result<Detection, Error> {
    let name = crate::conllu::input::display_name(path);
    let io_error = |error| Error::Io {
        file: name.clone(),
        error,
    };
    let mut reader = crate::conllu::input::open(path).map_err(io_error)?;
    let sample = read_sample(&mut reader).map_err(io_error)?;
    detect_profile(&name, sample, rules)
}

/// The first sentences of `reader`, up to the one that reaches [`SAMPLE_WORDS`] words, and
/// never more than [`SAMPLE_BYTES`]: what [`detect_profile`] needs. The reader is left after
/// them (chain the sample before it to read the whole input).
pub fn read_sample(reader: &mut dyn BufRead) -> io::Result<Vec<u8>> {
    let mut sample = Vec::new();
    let mut words = 0;
    loop {
        let left = SAMPLE_BYTES.saturating_sub(sample.len() as u64);
        let start = sample.len();
        if left == 0 || (&mut *reader).take(left).read_until(b'\n', &mut sample)? == 0 {
            return Ok(sample);
        }
        let line = &sample[start..];
        if line.iter().all(u8::is_ascii_whitespace) {
            if words >= SAMPLE_WORDS {
                return Ok(sample);
            }
        } else if line.first().is_some_and(u8::is_ascii_digit) {
            words += 1;
        }
    }
}

/// A code from the first comment of the sample that holds one, when every comment that holds
/// one agrees (a file joined from several treebanks is left to the text).
fn comment_evidence(source: &RuleSource, sample: &str) -> Option<Detection> {
    let mut found: Option<Detection> = None;
    for line in sample.lines() {
        let Some(comment) = line.strip_prefix('#') else {
            continue;
        };
        let Some((key, value)) = comment.split_once('=') else {
            continue;
        };
        let place = match key.trim() {
            "newdoc id" => "newdoc id",
            "sent_id" => "sent_id",
            _ => continue,
        };
        if let Some(detection) = code_evidence(source, place, value.trim()) {
            match &found {
                Some(first) if first.code != detection.code => return None,
                Some(_) => {}
                None => found = Some(detection),
            }
        }
    }
    found
}

/// The detection a code at the start of `text` gives, if it has UD's shape ([`ud_code`]; in a
/// file name, UD's file naming: the code then `-ud-`) and its language is known.
fn code_evidence(source: &RuleSource, place: &'static str, text: &str) -> Option<Detection> {
    let code = ud_code(text, place == FILE_NAME)?;
    let language = code.split('_').next().unwrap_or_default();
    let known = profile_names(source)
        .iter()
        .any(|n| n == language || n == code)
        || language_table(source).is_ok_and(|table| table.contains_key(language));
    if !known {
        return None;
    }
    let (profile, fallback) = crate::rules::resolve_profile(source, code);
    Some(Detection {
        code: code.to_string(),
        profile,
        evidence: Evidence::Code {
            place,
            text: text.to_string(),
            fallback,
        },
    })
}

/// `cs_cac` of `cs_cac-ud-dev.conllu` or `cs_cac-s1`, `sv` of `sv-ud-dev-1`: a language code (two
/// or three lower-case letters) and an optional `_name`, then `-ud-` (or `-ud.`), or, unless
/// `file_name`, `-`, `.`, `:`, `/` or the end. A file name such as `id_out_of_order.conllu` is
/// no code (Indonesian's `id`, but not UD's naming).
fn ud_code(text: &str, file_name: bool) -> Option<&str> {
    let language = text.bytes().take_while(u8::is_ascii_lowercase).count();
    if !(2..=3).contains(&language) {
        return None;
    }
    let mut end = language;
    if let Some(name) = text[language..].strip_prefix('_') {
        let name_len = name.bytes().take_while(u8::is_ascii_lowercase).count();
        if name_len == 0 {
            return None;
        }
        end += 1 + name_len;
    }
    let rest = &text[end..];
    let ud_naming = rest.starts_with("-ud-") || rest.starts_with("-ud.");
    // A bare language code (`sv`) only in UD's naming: `en-1` says nothing.
    let separated = end > language
        && !file_name
        && matches!(rest.bytes().next(), None | Some(b'-' | b'.' | b':' | b'/'));
    (ud_naming || separated).then(|| &text[..end])
}

/// Each language profile's words: the words of every list of its lexicons and the forms and
/// lemmas of their `[lemmas]`. Language profiles are those whose name has no `_` (treebank
/// profiles share their language's lexicons) and that load a lexicon besides `universal`; two
/// with the same lexicons are one candidate (the first by name).
fn language_words(source: &RuleSource) -> Result<Vec<(String, FxHashSet<String>)>, Error> {
    let mut sources = SourceMap::new();
    let rules_error = |diagnostics: Vec<crate::rules::Diagnostic>, sources: &SourceMap| {
        Error::Rules(
            crate::rules::diagnostic::render_all(&diagnostics, sources)
                .trim_end()
                .to_string(),
        )
    };
    let vocabulary =
        Vocabulary::load(source, &mut sources).map_err(|d| rules_error(d, &sources))?;
    let mut seen: FxHashSet<Vec<String>> = FxHashSet::default();
    let mut languages = Vec::new();
    for name in profile_names(source) {
        if name.contains('_') {
            continue;
        }
        let profile = load_profile(source, &name, &vocabulary, &mut sources)
            .map_err(|d| rules_error(d, &sources))?;
        let names: Vec<(String, Option<_>)> = profile
            .lexicons
            .iter()
            .filter(|l| l.text != crate::rules::lexicon::UNIVERSAL)
            .map(|l| (l.text.clone(), None))
            .collect();
        let key: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
        if names.is_empty() || !seen.insert(key) {
            continue;
        }
        let (lexicon, errors) = Lexicon::load(source, &names, &mut sources);
        if !errors.is_empty() {
            return Err(rules_error(errors, &sources));
        }
        let mut words: FxHashSet<String> = lexicon
            .names()
            .filter_map(|list| lexicon.get(list))
            .flat_map(|set| set.iter().cloned())
            .collect();
        for (form, lemma) in lexicon.form_lemmas.iter() {
            words.insert(form.to_string());
            words.insert(lemma.to_string());
        }
        languages.push((name, words));
    }
    Ok(languages)
}

/// Scores the sample's words against each language's words ([`TextScores`]).
fn score_text(source: &RuleSource, sample: &str) -> Result<TextScores, Error> {
    let languages = language_words(source)?;
    let mut owners: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (index, (_, words)) in languages.iter().enumerate() {
        for word in words {
            owners.entry(word.as_str()).or_default().push(index);
        }
    }
    let mut seen: Vec<FxHashSet<String>> = vec![FxHashSet::default(); languages.len()];
    let mut scores = TextScores::default();
    let mut in_sentence = false;
    for line in sample.lines() {
        if line.trim().is_empty() {
            if in_sentence {
                scores.sentences += 1;
                if scores.words >= SAMPLE_WORDS {
                    break;
                }
            }
            in_sentence = false;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        in_sentence = true;
        let mut columns = line.split('\t');
        let id = columns.next().unwrap_or_default();
        if id.contains(['-', '.']) {
            continue;
        }
        scores.words += 1;
        let form = columns.next().unwrap_or("_").to_lowercase();
        let lemma = columns.next().unwrap_or("_").to_lowercase();
        for word in [form, lemma] {
            if let Some([only]) = owners.get(word.as_str()).map(Vec::as_slice) {
                seen[*only].insert(word);
            }
        }
    }
    if in_sentence {
        scores.sentences += 1;
    }
    scores.scores = languages
        .iter()
        .zip(&seen)
        .filter(|(_, words)| !words.is_empty())
        .map(|((name, _), words)| (name.clone(), words.len()))
        .collect();
    scores
        .scores
        .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ud_codes_have_uds_shape() {
        assert_eq!(ud_code("cs_cac-ud-dev.conllu", true), Some("cs_cac"));
        assert_eq!(ud_code("sv-ud-dev.conllu", true), Some("sv"));
        assert_eq!(ud_code("id_out_of_order.conllu", true), None);
        assert_eq!(ud_code("fr_sequoia.conllu", true), None);
        assert_eq!(ud_code("sv-ud-dev-1", false), Some("sv"));
        assert_eq!(ud_code("cs_cac-s1", false), Some("cs_cac"));
        assert_eq!(ud_code("fr_sequoia", false), Some("fr_sequoia"));
        assert_eq!(ud_code("en-1", false), None);
        assert_eq!(ud_code("aja_ee199920_1477", false), None);
        assert_eq!(ud_code("id_out_of_order", false), None);
        assert_eq!(ud_code("sme:1356:.r.", false), None);
        assert_eq!(ud_code("dev-s1", false), None);
        assert_eq!(ud_code("isst_tanl-19", false), None);
    }

    #[test]
    fn a_code_needs_a_known_language() {
        let source = RuleSource::embedded();
        assert!(code_evidence(&source, "sent_id", "xq_abc-1").is_none());
        let hr = code_evidence(&source, "sent_id", "hr_set-s1").unwrap();
        assert_eq!((hr.code.as_str(), hr.profile.as_str()), ("hr_set", "cs"));
    }

    #[test]
    fn the_sample_ends_with_a_sentence() {
        let sentence = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n";
        let text = sentence.repeat(SAMPLE_WORDS + 10);
        let sample = read_sample(&mut text.as_bytes()).unwrap();
        assert_eq!(sample.len(), sentence.len() * SAMPLE_WORDS);
    }
}
