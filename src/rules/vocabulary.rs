//! Names that rules and profiles may use besides UD's own (`rules/vocabulary.toml`): the
//! enhancement types that `settings.annotates` lists and `when "NAME" in profile.annotates`
//! tests. UD's relations, UPOS tags and universal features come from [`crate::ud`];
//! language-specific features are declared by profiles (`features = [...]`).
//!
//! A rules folder without its own `vocabulary.toml` uses the embedded one.

use super::diagnostic::Diagnostic;
use super::lexicon::toml_error;
use super::source::{RuleSource, SourceMap};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The virtual path of the vocabulary file.
pub const PATH: &str = "rules/vocabulary.toml";

/// The declared names.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// Enhancement type → one line saying what it is, sorted by name.
    pub enhancements: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVocabulary {
    enhancements: BTreeMap<String, String>,
}

impl Vocabulary {
    /// Reads `rules/vocabulary.toml` of `source` (the embedded one when the source has none).
    pub fn load(source: &RuleSource, sources: &mut SourceMap) -> Result<Vocabulary, Diagnostic> {
        let (source, path) = if source.exists(PATH) {
            (source.clone(), source.display_path(PATH))
        } else {
            (RuleSource::embedded(), PATH.to_string())
        };
        let text = source
            .read(PATH)
            .map_err(|message| Diagnostic::file_error(path.clone(), message))?;
        let file = sources.add(path, text.into_owned());
        let raw: RawVocabulary = toml::from_str(&sources.get(file).expect("file just added").text)
            .map_err(|e| toml_error(sources, file, &e))?;
        Ok(Vocabulary {
            enhancements: raw.enhancements,
        })
    }

    /// The embedded vocabulary (it is checked by the tests, so it always reads).
    pub fn embedded() -> Vocabulary {
        Vocabulary::load(&RuleSource::embedded(), &mut SourceMap::new())
            .expect("the embedded vocabulary reads")
    }

    /// Whether `name` is a declared enhancement type.
    pub fn is_enhancement(&self, name: &str) -> bool {
        self.enhancements.contains_key(name)
    }

    /// Every enhancement type, sorted.
    pub fn enhancement_names(&self) -> impl Iterator<Item = &str> {
        self.enhancements.keys().map(String::as_str)
    }

    /// "unknown enhancement `x`" with a did-you-mean or the list of names.
    pub(crate) fn unknown_enhancement(&self, span: super::ast::Span, name: &str) -> Diagnostic {
        let d = Diagnostic::error(span, format!("unknown enhancement `{name}`"));
        match super::check::closest(name, self.enhancement_names()) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(format!(
                "enhancements (declared in {PATH}): {}",
                self.enhancement_names().collect::<Vec<_>>().join(", ")
            )),
        }
    }
}
