//! Names that rules and profiles may use besides UD's own (`rules/vocabulary.toml`): the
//! enhancement types that `settings.annotates` lists and `when "NAME" in profile.annotates`
//! tests, and the profile settings, each declared once with its type, default and a line of
//! documentation. UD's relations, UPOS tags and universal features come from [`crate::ud`];
//! language-specific features are declared by profiles (`features = [...]`).
//!
//! A rules folder without its own `vocabulary.toml` uses the embedded one.

use super::ast::Span;
use super::diagnostic::Diagnostic;
use super::lexicon::toml_error;
use super::source::{RuleSource, SourceMap};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The virtual path of the vocabulary file.
pub const PATH: &str = "rules/vocabulary.toml";

/// The declared names.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// Enhancement type → one line saying what it is, sorted by name.
    pub enhancements: BTreeMap<String, String>,
    /// Setting name → its declaration, sorted by name.
    pub settings: BTreeMap<String, SettingDecl>,
}

/// One declared profile setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingDecl {
    pub kind: SettingType,
    /// What the value of a string, or each item of a list, is (`Text` for a bool).
    pub items: Items,
    /// The values a string, or each item of a list, may take (`values = [...]`); empty: any
    /// value of its `items` kind.
    pub values: Vec<String>,
    /// The value of a profile whose `extends` chain does not set it.
    pub default: SettingValue,
    /// One line saying what it does.
    pub doc: String,
}

/// What the value of a string setting, or each item of a list setting, is: how it is checked,
/// and where a list can be used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Items {
    /// Any strings (`lemma in @profile.NAME`, `"x" in profile.NAME`).
    Text,
    /// Relation patterns as in an edge pattern (`obj`, `obl:*`): `-[@profile.NAME]->`.
    Relation,
    /// UPOS tags.
    Upos,
    /// Enhancement names declared in `[enhancements]`.
    Enhancement,
    /// Enhanced relation labels as UD's label grammar accepts them (`obl`, `nsubj:xsubj`,
    /// `obl:v:loc`): [`crate::ud::enhanced_label_problem`].
    Label,
}

impl Items {
    fn parse(name: &str) -> Option<Items> {
        Some(match name {
            "text" => Items::Text,
            "relation" => Items::Relation,
            "upos" => Items::Upos,
            "enhancement" => Items::Enhancement,
            "label" => Items::Label,
            _ => return None,
        })
    }

    /// As written in the vocabulary file.
    pub fn name(self) -> &'static str {
        match self {
            Items::Text => "text",
            Items::Relation => "relation",
            Items::Upos => "upos",
            Items::Enhancement => "enhancement",
            Items::Label => "label",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVocabulary {
    enhancements: BTreeMap<String, String>,
    settings: BTreeMap<Spanned<String>, RawDecl>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDecl {
    #[serde(rename = "type")]
    kind: Spanned<String>,
    items: Option<Spanned<String>>,
    values: Option<Spanned<Vec<Spanned<String>>>>,
    default: Option<Spanned<RawValue>>,
    doc: String,
}

/// A setting's value as written in TOML (a profile's `[settings]`, a declared default), list
/// items with their positions.
#[derive(Clone, Debug)]
pub(crate) enum RawValue {
    Bool(bool),
    Text(String),
    List(Vec<Spanned<String>>),
    /// A value no setting can have (a number, a table), described.
    Other(&'static str),
}

impl RawValue {
    fn kind(&self) -> Option<SettingType> {
        match self {
            RawValue::Bool(_) => Some(SettingType::Bool),
            RawValue::Text(_) => Some(SettingType::Text),
            RawValue::List(_) => Some(SettingType::List),
            RawValue::Other(_) => None,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            RawValue::Other(what) => what,
            other => other.kind().map_or("?", SettingType::describe),
        }
    }

    pub(crate) fn value(&self) -> SettingValue {
        match self {
            RawValue::Bool(b) => SettingValue::Bool(*b),
            RawValue::Text(t) => SettingValue::Text(t.clone()),
            RawValue::List(items) => SettingValue::List(items.iter().map(|i| i.get_ref().clone()).collect()),
            RawValue::Other(_) => SettingValue::List(Vec::new()),
        }
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawValue, D::Error> {
        struct ValueVisitor;
        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = RawValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a boolean, a string or a list of strings")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawValue, E> {
                Ok(RawValue::Bool(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawValue, E> {
                Ok(RawValue::Text(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<RawValue, E> {
                Ok(RawValue::Other("a number"))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<RawValue, E> {
                Ok(RawValue::Other("a number"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<RawValue, E> {
                Ok(RawValue::Other("a number"))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<RawValue, A::Error> {
                while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
                Ok(RawValue::Other("a table"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawValue, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<String>>()? {
                    items.push(item);
                }
                Ok(RawValue::List(items))
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

impl Vocabulary {
    /// Reads `rules/vocabulary.toml` of `source` (the embedded one when the source has none).
    pub fn load(source: &RuleSource, sources: &mut SourceMap) -> Result<Vocabulary, Vec<Diagnostic>> {
        let (source, path) = if source.exists(PATH) {
            (source.clone(), source.display_path(PATH))
        } else {
            (RuleSource::embedded(), PATH.to_string())
        };
        let text = source
            .read(PATH)
            .map_err(|message| vec![Diagnostic::file_error(path.clone(), message)])?;
        let file = sources.add(path, text.into_owned());
        let raw: RawVocabulary = toml::from_str(&sources.get(file).expect("file just added").text)
            .map_err(|e| vec![toml_error(sources, file, &e)])?;
        let mut vocabulary = Vocabulary {
            enhancements: raw.enhancements,
            settings: BTreeMap::new(),
        };
        let mut errors = Vec::new();
        let span = |s: std::ops::Range<usize>| sources.span(file, s.start, s.end);
        for (name, decl) in raw.settings {
            let kind = match decl.kind.get_ref().as_str() {
                "bool" => SettingType::Bool,
                "string" => SettingType::Text,
                "list" => SettingType::List,
                other => {
                    errors.push(Diagnostic::error(
                        span(decl.kind.span()),
                        format!("unknown setting type `{other}` (types are bool, string, list)"),
                    ));
                    continue;
                }
            };
            let items = match &decl.items {
                None => Items::Text,
                Some(items) if kind == SettingType::Bool => {
                    let message = "a bool has no `items` (a string or a list has)";
                    errors.push(Diagnostic::error(span(items.span()), message));
                    continue;
                }
                Some(items) => match Items::parse(items.get_ref()) {
                    Some(i) => i,
                    None => {
                        errors.push(Diagnostic::error(
                            span(items.span()),
                            format!(
                                "unknown items `{}` (items are text, relation, upos, enhancement, label)",
                                items.get_ref()
                            ),
                        ));
                        continue;
                    }
                },
            };
            let mut values = Vec::new();
            if let Some(list) = &decl.values {
                if kind == SettingType::Bool {
                    let message = "a bool has no `values` (a string or a list has)";
                    errors.push(Diagnostic::error(span(list.span()), message));
                    continue;
                }
                if list.get_ref().is_empty() {
                    errors.push(Diagnostic::error(span(list.span()), "`values` lists one value or more"));
                    continue;
                }
                // The values themselves must be of the declared kind.
                let before = errors.len();
                for value in list.get_ref() {
                    let at = span(value.span());
                    errors.extend(vocabulary.item_problem(name.get_ref(), items, &[], value.get_ref(), at));
                }
                if errors.len() > before {
                    continue;
                }
                values = list.get_ref().iter().map(|v| v.get_ref().clone()).collect();
            }
            let mut declared = SettingDecl {
                kind,
                items,
                values,
                default: SettingValue::List(Vec::new()),
                doc: decl.doc,
            };
            declared.default = match &decl.default {
                None if kind == SettingType::List && items == Items::Enhancement => SettingValue::List(
                    vocabulary.enhancements.keys().cloned().collect(),
                ),
                None => {
                    errors.push(Diagnostic::error(
                        span(name.span()),
                        format!("setting `{}` has no `default`", name.get_ref()),
                    ));
                    continue;
                }
                Some(value) => {
                    let before = errors.len();
                    vocabulary.check_value(name.get_ref(), &declared, value, file, sources, &mut errors);
                    if errors.len() > before {
                        continue;
                    }
                    value.get_ref().value()
                }
            };
            vocabulary.settings.insert(name.into_inner(), declared);
        }
        if errors.is_empty() {
            Ok(vocabulary)
        } else {
            Err(errors)
        }
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

    /// The declaration of setting `name`.
    pub fn setting(&self, name: &str) -> Option<&SettingDecl> {
        self.settings.get(name)
    }

    /// "unknown enhancement `x`" with a did-you-mean or the list of names.
    pub(crate) fn unknown_enhancement(&self, span: Span, name: &str) -> Diagnostic {
        let d = Diagnostic::error(span, format!("unknown enhancement `{name}`"));
        match super::diagnostic::closest(name, self.enhancement_names()) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(format!(
                "enhancements (declared in {PATH}): {}",
                self.enhancement_names().collect::<Vec<_>>().join(", ")
            )),
        }
    }

    /// "unknown profile setting `x`" (`prefix` is how it was written before the name:
    /// `profile.` in a rule) with a did-you-mean or the list of settings.
    pub(crate) fn unknown_setting(&self, span: Span, name: &str, prefix: &str) -> Diagnostic {
        let d = Diagnostic::error(span, format!("unknown profile setting `{name}`"));
        match super::diagnostic::closest(name, self.settings.keys().map(String::as_str)) {
            Some(s) => d.with_note(format!("did you mean `{prefix}{s}`?")),
            None if self.settings.is_empty() => d.with_note(format!("{PATH} declares no settings")),
            None => d.with_note(format!(
                "settings (declared in {PATH}) are {}",
                self.settings.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    /// Reports what is wrong with `value` as a value of setting `name` (declared as `decl`),
    /// written in `file`: a wrong type, a string or list item that is not of the declared kind
    /// (an unknown enhancement, relation, UPOS tag, a malformed label) or not among the declared
    /// `values`.
    pub(crate) fn check_value(
        &self,
        name: &str,
        decl: &SettingDecl,
        value: &Spanned<RawValue>,
        file: super::ast::FileId,
        sources: &SourceMap,
        errors: &mut Vec<Diagnostic>,
    ) {
        let span = |s: std::ops::Range<usize>| sources.span(file, s.start, s.end);
        if value.get_ref().kind() != Some(decl.kind) {
            errors.push(Diagnostic::error(
                span(value.span()),
                format!("setting `{name}` is {}, not {}", decl.kind.describe(), value.get_ref().describe()),
            ));
            return;
        }
        match value.get_ref() {
            RawValue::Text(text) => {
                errors.extend(self.item_problem(name, decl.items, &decl.values, text, span(value.span())))
            }
            RawValue::List(list) => {
                for item in list {
                    let at = span(item.span());
                    errors.extend(self.item_problem(name, decl.items, &decl.values, item.get_ref(), at));
                }
            }
            RawValue::Bool(_) | RawValue::Other(_) => {}
        }
    }

    /// What is wrong with `text` (at `at`) as the value of string setting `name` or an item of
    /// list setting `name` whose values are of kind `items`, among `values` if any are
    /// declared. Profiles' values, rules' `profile.NAME == "text"` and `"text" in profile.NAME`
    /// are all checked by it.
    pub(crate) fn item_problem(
        &self,
        name: &str,
        items: Items,
        values: &[String],
        text: &str,
        at: Span,
    ) -> Option<Diagnostic> {
        if !values.is_empty() {
            if values.iter().any(|v| v == text) {
                return None;
            }
            let d = Diagnostic::error(at, format!("`{text}` is not a value of setting `{name}`"));
            return Some(match super::diagnostic::closest(text, values.iter().map(String::as_str)) {
                Some(s) => d.with_note(format!("did you mean `{s}`?")),
                None => d.with_note(format!(
                    "its values (declared in {PATH}) are {}",
                    values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
                )),
            });
        }
        match items {
            Items::Text => None,
            Items::Enhancement if !self.is_enhancement(text) => Some(self.unknown_enhancement(at, text)),
            Items::Enhancement => None,
            Items::Upos if !crate::ud::is_upos(text) => Some(unknown_upos(at, text)),
            Items::Upos => None,
            Items::Relation => relation_item_problem(text, at),
            Items::Label => label_item_problem(text, at),
        }
    }
}

/// What is wrong with `text` as an enhanced label (`obl`, `nsubj:xsubj`), by UD's label grammar.
fn label_item_problem(text: &str, at: Span) -> Option<Diagnostic> {
    let problem = crate::ud::enhanced_label_problem(text)?;
    let d = Diagnostic::error(at, problem);
    let univ = crate::ud::universal_part(text);
    Some(match super::diagnostic::closest(univ, crate::ud::RELATIONS.iter().copied()) {
        Some(s) if !crate::ud::is_relation(univ) => d.with_note(format!("did you mean `{s}`?")),
        _ => d,
    })
}

/// What is wrong with `text` as an item of a relation list (`obj`, `obl:tmod`, `obl:*`).
fn relation_item_problem(text: &str, at: Span) -> Option<Diagnostic> {
    let (univ, sub) = match text.split_once(':') {
        Some((univ, sub)) => (univ, Some(sub)),
        None => (text, None),
    };
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !word(univ) || sub.is_some_and(|s| s != "*" && !s.split(':').all(word)) {
        return Some(Diagnostic::error(
            at,
            format!("`{text}` is not a relation pattern (`obj`, `obl:tmod` or `obl:*`)"),
        ));
    }
    if crate::ud::is_relation(univ) {
        return None;
    }
    Some(unknown_relation(at, univ))
}

/// "unknown UPOS tag `x`" with a did-you-mean: for profiles' UPOS lists and rules' `upos=` tests.
pub(crate) fn unknown_upos(at: Span, text: &str) -> Diagnostic {
    let d = Diagnostic::error(at, format!("unknown UPOS tag `{text}`"));
    match super::diagnostic::closest(text, crate::ud::UPOS_TAGS.iter().copied()) {
        Some(s) => d.with_note(format!("did you mean `{s}`?")),
        None => d,
    }
}

/// "unknown UD relation `x`" with a did-you-mean or UD's relations: for profiles' relation
/// lists and rules' edge labels.
pub(crate) fn unknown_relation(at: Span, univ: &str) -> Diagnostic {
    let d = Diagnostic::error(at, format!("unknown UD relation `{univ}`"));
    match super::diagnostic::closest(univ, crate::ud::RELATIONS.iter().copied()) {
        Some(s) => d.with_note(format!("did you mean `{s}`?")),
        None => d.with_note(format!("UD's relations are {}", crate::ud::RELATIONS.join(", "))),
    }
}
/// The type of a setting, for checking guards and label parts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SettingType {
    Bool,
    Text,
    List,
}

impl SettingType {
    pub fn describe(self) -> &'static str {
        match self {
            SettingType::Bool => "a boolean",
            SettingType::Text => "a string",
            SettingType::List => "a list of strings",
        }
    }

    /// As written in `rules/vocabulary.toml`.
    pub fn name(self) -> &'static str {
        match self {
            SettingType::Bool => "bool",
            SettingType::Text => "string",
            SettingType::List => "list",
        }
    }
}

/// A setting's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingValue {
    Bool(bool),
    Text(String),
    List(Vec<String>),
}

impl SettingValue {
    pub fn kind(&self) -> SettingType {
        match self {
            SettingValue::Bool(_) => SettingType::Bool,
            SettingValue::Text(_) => SettingType::Text,
            SettingValue::List(_) => SettingType::List,
        }
    }
}

