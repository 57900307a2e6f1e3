//! Word lists that rules refer to as `@group.list` (e.g. `lemma in @control.object`).
//!
//! A lexicon file `lexicons/<name>.toml` has one table per group and one array of strings per
//! list:
//!
//! ```toml
//! [control]
//! subject = ["want", "try"]
//! object = ["ask", "persuade"]
//! ```
//!
//! `lexicons/universal.toml` *declares* every list (possibly empty) and is always loaded first;
//! a language lexicon may only add words to declared lists, so a misspelt group or list name is an
//! error at its line and column rather than a silently empty list. A profile's lists are the
//! union of the words of every lexicon it names.
//!
//! One group is not a list: `[lemmas]` gives the lemma of forms that differ from it, for words a
//! parser left without a lemma (LEMMA `_`), whose lemma is then their lower-cased form mapped
//! through this table. Each key is a lemma, its array the forms that have it:
//!
//! ```toml
//! [lemmas]
//! v = ["ve"]
//! want = ["wants", "wanted", "wanting"]
//! ```
//!
//! Lemmas and forms are lower-case (forms are looked up lower-cased, and labels take lemmas
//! lower-cased); a form has one lemma in a file, and a later lexicon of a profile may give it
//! another.

use super::ast::{FileId, Span};
use super::diagnostic::Diagnostic;
use super::source::{RuleSource, SourceMap};
use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// The lexicon that declares every list.
pub const UNIVERSAL: &str = "universal";

/// The group of a lexicon file that maps forms to lemmas rather than declaring lists.
pub const LEMMAS: &str = "lemmas";

/// Merged word lists, keyed by `group.list`.
#[derive(Clone, Debug, Default)]
pub struct Lexicon {
    lists: BTreeMap<String, Arc<FxHashSet<String>>>,
    /// The merged `[lemmas]` groups.
    pub form_lemmas: Arc<FormLemmas>,
    /// Lexicon names merged, in order.
    pub loaded: Vec<String>,
}

impl Lexicon {
    /// The words of list `group.list`.
    pub fn get(&self, path: &str) -> Option<&Arc<FxHashSet<String>>> {
        self.lists.get(path)
    }

    /// The words of list `group.list`, sorted (for stable output).
    pub fn sorted(&self, path: &str) -> Option<Vec<&str>> {
        let mut words: Vec<&str> = self.lists.get(path)?.iter().map(String::as_str).collect();
        words.sort_unstable();
        Some(words)
    }

    /// Every list name (`group.list`), sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.lists.keys().map(String::as_str)
    }

    /// Loads `universal` then each named lexicon (`names` may repeat `universal`), collecting every
    /// error; what could be read is returned alongside them. The span with each name is where it
    /// was written (in a profile), for "no such lexicon" errors.
    pub fn load(
        source: &RuleSource,
        names: &[(String, Option<Span>)],
        sources: &mut SourceMap,
    ) -> (Lexicon, Vec<Diagnostic>) {
        let mut lexicon = Lexicon::default();
        let mut errors = Vec::new();
        let mut todo: Vec<(String, Option<Span>)> = vec![(UNIVERSAL.to_string(), None)];
        todo.extend(names.iter().filter(|(n, _)| n != UNIVERSAL).cloned());
        for (name, at) in todo {
            if lexicon.loaded.contains(&name) {
                continue;
            }
            let path = format!("lexicons/{name}.toml");
            let text = match source.read(&path) {
                Ok(text) => text,
                Err(message) => {
                    let message = format!("no lexicon `{name}` ({message})");
                    errors.push(match at {
                        Some(span) => Diagnostic::error(span, message),
                        None => Diagnostic::file_error(source.display_path(&path), message),
                    });
                    continue;
                }
            };
            let file = sources.add(source.display_path(&path), text.into_owned());
            lexicon.add_file(file, name == UNIVERSAL, sources, &mut errors);
            lexicon.loaded.push(name);
        }
        (lexicon, errors)
    }

    /// Parses one lexicon file and merges it in. `declares`: the file may introduce new lists.
    fn add_file(
        &mut self,
        file: FileId,
        declares: bool,
        sources: &SourceMap,
        errors: &mut Vec<Diagnostic>,
    ) {
        type Groups = BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, Vec<Spanned<String>>>>;
        let text = &sources.get(file).expect("file just added").text;
        let groups: Groups = match toml::from_str(text) {
            Ok(groups) => groups,
            Err(e) => {
                errors.push(toml_error(sources, file, &e));
                return;
            }
        };
        for (group, lists) in groups {
            if group.get_ref() == LEMMAS {
                self.add_lemmas(file, lists, sources, errors);
                continue;
            }
            for (list, words) in lists {
                let path = format!("{}.{}", group.get_ref(), list.get_ref());
                if !declares && !self.lists.contains_key(&path) {
                    let span = sources.span(file, list.span().start, list.span().end);
                    let known: Vec<&str> = self.names().collect();
                    errors.push(
                        Diagnostic::error(span, format!("unknown lexicon list `{path}`"))
                            .with_note(format!(
                                "lists are declared in lexicons/{UNIVERSAL}.toml: {}",
                                known.join(", ")
                            )),
                    );
                    continue;
                }
                let set = self.lists.entry(path).or_default();
                Arc::make_mut(set).extend(words.into_iter().map(Spanned::into_inner));
            }
        }
    }

    /// Merges a `[lemmas]` group: lemma → the forms that have it.
    fn add_lemmas(
        &mut self,
        file: FileId,
        lemmas: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
        sources: &SourceMap,
        errors: &mut Vec<Diagnostic>,
    ) {
        let span = |s: &std::ops::Range<usize>| sources.span(file, s.start, s.end);
        let map = Arc::make_mut(&mut self.form_lemmas);
        // Forms of this file, with their lemma: another file may give a form another lemma
        // (Czech `spolupráci` → `spolupráce`, Slovak → `spolupráca`; the later file wins), this
        // one may not.
        let mut here: BTreeMap<String, String> = BTreeMap::new();
        for (lemma, forms) in lemmas {
            if let Some(message) = not_lower_case("lemma", lemma.get_ref()) {
                errors.push(Diagnostic::error(span(&lemma.span()), message));
                continue;
            }
            for form in forms {
                let at = span(&form.span());
                let message = if let Some(message) = not_lower_case("form", form.get_ref()) {
                    message
                } else if form.get_ref() == lemma.get_ref() {
                    format!("form `{}` is its own lemma: only forms that differ from their lemma are listed", form.get_ref())
                } else {
                    match here.get(form.get_ref()) {
                        Some(other) if other != lemma.get_ref() => {
                            format!("form `{}` is given lemma `{}` here and `{other}` before", form.get_ref(), lemma.get_ref())
                        }
                        _ => {
                            here.insert(form.get_ref().clone(), lemma.get_ref().clone());
                            map.forms.insert(form.into_inner(), lemma.get_ref().clone());
                            continue;
                        }
                    }
                };
                errors.push(Diagnostic::error(at, message));
            }
        }
    }
}

/// Why a lemma or form of `[lemmas]` cannot be one, if it cannot.
fn not_lower_case(what: &str, text: &str) -> Option<String> {
    if text.is_empty() || text.chars().any(char::is_whitespace) || text == "_" {
        Some(format!("`{text}` is no {what}: an entry of [{LEMMAS}] is a word"))
    } else if text.chars().any(char::is_uppercase) {
        Some(format!("{what} `{text}` has upper-case letters: [{LEMMAS}] is looked up with lower-cased forms"))
    } else {
        None
    }
}

/// The lemmas of forms that differ from them (`[lemmas]` of the lexicons), for words without a
/// lemma (LEMMA `_`).
#[derive(Clone, Debug, Default)]
pub struct FormLemmas {
    /// Lower-cased form → lemma.
    forms: rustc_hash::FxHashMap<String, String>,
}

impl FormLemmas {
    /// The lemma of a lower-cased form, if it is not the form itself.
    pub fn get(&self, form: &str) -> Option<&str> {
        self.forms.get(form).map(String::as_str)
    }

    /// Every listed form with its lemma, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.forms.iter().map(|(f, l)| (f.as_str(), l.as_str()))
    }

    /// Forms listed.
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }
}

/// A TOML syntax or schema error as a diagnostic at its line and column.
pub(crate) fn toml_error(sources: &SourceMap, file: FileId, error: &toml::de::Error) -> Diagnostic {
    let message = error.message().trim().to_string();
    match error.span() {
        Some(range) => Diagnostic::error(sources.span(file, range.start, range.end), message),
        None => Diagnostic::error(sources.span(file, 0, 0), message),
    }
}
