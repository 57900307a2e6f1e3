//! Profiles: which rule files, phases, lexicons and settings make up the annotation of one
//! language or treebank.
//!
//! `rules/profiles/<name>.toml`:
//!
//! ```toml
//! name = "en"                      # must equal the file name
//! description = "English: ..."     # one line; `eudify profiles` prints it
//! extends = "universal"            # optional parent profile
//! rules = ["en/*.rules"]           # globs relative to rules/, added after the parent's
//! phases = ["case", "coordination"]# optional; replaces the parent's order
//! lexicons = ["en"]                # added to the parent's (universal is always loaded)
//! features = ["NumForm", "Style"]  # language-specific features rules may test (any value),
//!                                  # added to the parent's (UD's universal ones are built in)
//! disable = ["conj_root"]          # rules switched off by name, added to the parent's
//!
//! [settings]                       # each overrides the parent's value
//! case_feature = false
//! conj_subtype = true
//! xsubj_label = "nsubj:xsubj"
//! annotates = ["case", "coord_parent", "coord_shared", "xsubj", "relcl", "gapping"]
//! ```
//!
//! `features` may instead be a table that declares the values too, checked in rules as UD's
//! universal values are (`crate::ud::UNIVERSAL_FEATURES`); a universal feature listed there gets
//! language-specific values beside its universal ones, and an empty list takes any value:
//!
//! ```toml
//! [features]
//! AdpType = ["Comprep", "Prep", "Voc"]
//! "Gender[psor]" = ["Fem", "Masc", "Neut"]
//! VerbForm = ["Stem"]              # beside VerbForm's universal values
//! ```
//!
//! The settings, their types and defaults are declared in `rules/vocabulary.toml` (see
//! [`super::vocabulary`]), and so are the enhancement names `annotates` lists.
//!
//! Phase order: `phases` if the profile (or its nearest ancestor) lists them — then every phase
//! used by a rule must be listed, and phases not listed are an error; otherwise the order in which
//! phases first appear in the rule files, taken in the order of `rules` (files matched by one glob
//! sorted by path). An entry of `phases` may be a list of phases, a *group* run to one common
//! fixpoint (`phases = ["case", ["control", "coordination"], "relative"]`).

use super::ast::{FileId, Span};
use super::diagnostic::Diagnostic;
use super::lexicon::toml_error;
use super::source::profile_names;
use super::source::{RuleSource, SourceMap};
use super::vocabulary::{RawValue, Vocabulary};
pub use super::vocabulary::{SettingType, SettingValue};
use crate::ud::{is_feature_name, is_feature_value};
use serde::Deserialize;
use toml::Spanned;

/// The profile used when a language has none.
pub const FALLBACK: &str = "universal";

/// The value of every setting `rules/vocabulary.toml` declares, for one profile: what rules read
/// as `profile.NAME`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    values: std::collections::BTreeMap<String, SettingValue>,
}

impl Settings {
    /// Every declared setting at its default (a list of enhancements without a declared
    /// default: every declared enhancement).
    pub fn defaults(vocabulary: &Vocabulary) -> Settings {
        Settings {
            values: vocabulary
                .settings
                .iter()
                .map(|(name, decl)| (name.clone(), decl.default.clone()))
                .collect(),
        }
    }

    /// The value of setting `name`, if it is declared.
    pub fn get(&self, name: &str) -> Option<&SettingValue> {
        self.values.get(name)
    }

    /// A boolean setting's value (false for any other name).
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(SettingValue::Bool(true)))
    }

    /// A string setting's value.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(SettingValue::Text(text)) => Some(text),
            _ => None,
        }
    }

    /// A list setting's items (none for any other name).
    pub fn list(&self, name: &str) -> &[String] {
        match self.get(name) {
            Some(SettingValue::List(items)) => items,
            _ => &[],
        }
    }

    /// Sets a declared setting (the caller has checked the value's type).
    pub(crate) fn set(&mut self, name: &str, value: SettingValue) {
        if let Some(slot) = self.values.get_mut(name) {
            *slot = value;
        }
    }

    /// Every setting and its value, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &SettingValue)> {
        self.values.iter().map(|(n, v)| (n.as_str(), v))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    name: Spanned<String>,
    description: String,
    extends: Option<Spanned<String>>,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    phases: Option<Vec<Spanned<RawPhase>>>,
    #[serde(default)]
    lexicons: Vec<Spanned<String>>,
    #[serde(default)]
    features: RawFeatures,
    #[serde(default)]
    disable: Vec<Spanned<String>>,
    #[serde(default)]
    settings: std::collections::BTreeMap<Spanned<String>, Spanned<RawValue>>,
}

/// `features`: a list of names (`["Clitic"]`: any value), or a table of names with their values
/// (`[features]` `AdpType = ["Prep", "Voc"]`).
enum RawFeatures {
    Names(Vec<Spanned<String>>),
    Values(Vec<(Spanned<String>, Vec<Spanned<String>>)>),
}

/// A feature of `features` with its values (`None` in the list form).
type DeclaredFeature<'r> = (&'r Spanned<String>, Option<&'r Vec<Spanned<String>>>);

impl Default for RawFeatures {
    fn default() -> Self {
        RawFeatures::Names(Vec::new())
    }
}

// By hand rather than `#[serde(untagged)]`, which buffers the value and so loses the spans
// `Spanned` asks the TOML deserializer for.
impl<'de> Deserialize<'de> for RawFeatures {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = RawFeatures;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a list of feature names, or a table of feature names with their values",
                )
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawFeatures, A::Error> {
                let mut names = Vec::new();
                while let Some(name) = seq.next_element()? {
                    names.push(name);
                }
                Ok(RawFeatures::Names(names))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawFeatures, A::Error> {
                let mut table = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    table.push(entry);
                }
                Ok(RawFeatures::Values(table))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// The language-specific features rules may test beside UD's universal ones, each with the values
/// declared for it (`None`: any value), and the language-specific values of universal features:
/// one profile's with its ancestors', or every profile's together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    declared: std::collections::BTreeMap<String, Option<std::collections::BTreeSet<String>>>,
}

impl Features {
    /// Declares feature `name` with `values` (added to those declared before), or with any value
    /// (`None`, which no later declaration narrows).
    pub fn declare(&mut self, name: &str, values: Option<Vec<String>>) {
        let slot = self
            .declared
            .entry(name.to_string())
            .or_insert_with(|| Some(Default::default()));
        match (slot.as_mut(), values) {
            (Some(known), Some(values)) => known.extend(values),
            (_, None) => *slot = None,
            (None, Some(_)) => {}
        }
    }

    /// Adds every declaration of `other`.
    pub fn merge(&mut self, other: &Features) {
        for (name, values) in &other.declared {
            self.declare(name, values.as_ref().map(|v| v.iter().cloned().collect()));
        }
    }

    /// The declared names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.declared.keys().map(String::as_str)
    }

    /// Whether `name` (`NumForm`, `Gender[psor]`) is declared, itself or by its base name.
    pub fn knows(&self, name: &str) -> bool {
        let base = name.split_once('[').map_or(name, |(base, _)| base);
        self.declared.contains_key(name) || self.declared.contains_key(base)
    }

    /// The values declared for `name` and for its base name (`Number` of `Number[psor]`), or
    /// `None` when either takes any value.
    pub fn values(&self, name: &str) -> Option<Vec<&str>> {
        let base = name.split_once('[').map_or(name, |(base, _)| base);
        let keys = if base == name {
            vec![name]
        } else {
            vec![name, base]
        };
        let mut values = Vec::new();
        for declared in keys.into_iter().filter_map(|key| self.declared.get(key)) {
            values.extend(declared.as_ref()?.iter().map(String::as_str));
        }
        Some(values)
    }
}

/// An entry of `phases`: a phase, or a group of phases run to one fixpoint.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawPhase {
    One(String),
    Group(Vec<String>),
}

/// A text written in a profile, with where it was written.
#[derive(Clone, Debug)]
pub struct Located {
    pub text: String,
    pub span: Span,
}

/// A profile with its `extends` chain resolved.
#[derive(Clone, Debug)]
pub struct Profile {
    pub name: String,
    pub description: String,
    /// The profile and its ancestors, nearest first (`["en", "universal"]`).
    pub chain: Vec<String>,
    /// Rule-file globs relative to `rules/`, ancestors' first.
    pub rules: Vec<Located>,
    /// Explicit phase order, from the nearest profile that lists one (groups flattened).
    pub phases: Option<Vec<Located>>,
    /// Groups of `phases` run to one common fixpoint: ranges of indices into `phases`, each of
    /// two phases or more.
    pub phase_groups: Vec<std::ops::Range<usize>>,
    /// Lexicon names, ancestors' first, without repeats.
    pub lexicons: Vec<Located>,
    /// Language-specific features rules may test, with their values (the ancestors' too).
    pub features: Features,
    pub settings: Settings,
    /// Names of rules the profile switches off (`disable`), ancestors' first.
    pub disable: Vec<Located>,
    /// The profile's own file.
    pub file: FileId,
}

impl Profile {
    /// Whether phase `i` of `phases` runs to one fixpoint with the phases before it: it is in a
    /// group of `phases`, after the group's first.
    pub fn joins_previous(&self, i: usize) -> bool {
        self.phase_groups
            .iter()
            .any(|g| g.start < i && g.contains(&i))
    }
}

/// A profile's name and description, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileSummary {
    pub name: String,
    pub description: String,
    pub extends: Option<String>,
}

fn profile_path(name: &str) -> String {
    format!("rules/profiles/{name}.toml")
}

/// Every profile with its description (for `eudify profiles`); errors of unreadable profiles.
pub fn list_profiles(
    source: &RuleSource,
) -> Result<Vec<ProfileSummary>, (SourceMap, Vec<Diagnostic>)> {
    let mut sources = SourceMap::new();
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for name in profile_names(source) {
        match read_raw(source, &name, None, &mut sources) {
            Ok((raw, _)) => out.push(ProfileSummary {
                name,
                description: raw.description,
                extends: raw.extends.map(Spanned::into_inner),
            }),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err((sources, errors))
    }
}

/// The table of fallback profiles by language (see the file's header).
pub const LANGUAGES: &str = "rules/languages.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLanguages {
    languages: std::collections::BTreeMap<String, LanguageRow>,
}

/// One row of [`LANGUAGES`]: why a language without a profile gets the profile it gets.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LanguageRow {
    pub(crate) language: String,
    family: String,
    /// Whether the language's enhanced labels are expected to carry Case values.
    case: bool,
    profile: String,
}

/// The rows of [`LANGUAGES`] by language code (the source's own table, else the embedded one).
pub(crate) fn language_table(
    source: &RuleSource,
) -> Result<std::collections::BTreeMap<String, LanguageRow>, String> {
    let source = if source.exists(LANGUAGES) {
        source.clone()
    } else {
        RuleSource::embedded()
    };
    let text = source.read(LANGUAGES)?;
    toml::from_str::<RawLanguages>(&text)
        .map(|raw| raw.languages)
        .map_err(|e| format!("{}: {}", source.display_path(LANGUAGES), e.message()))
}

/// A row of [`LANGUAGES`] as `eudify check` reads it: every value located, for errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckedRow {
    language: Spanned<String>,
    family: Spanned<String>,
    #[allow(dead_code)] // read only to be type-checked: a bool
    case: bool,
    profile: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckedLanguages {
    languages: std::collections::BTreeMap<Spanned<String>, CheckedRow>,
}

/// `eudify check` of the source's [`LANGUAGES`] (nothing when it has none: the embedded table
/// is then used, and checked by the tests): the file reads with the row fields of
/// [`LanguageRow`]; each code is a language code as UD writes it (two or three lower-case
/// letters); language and family are one non-empty line; each profile exists. A row for a
/// code that has a profile of its own is never used: a warning.
pub(crate) fn check_languages(source: &RuleSource, sources: &mut SourceMap) -> Vec<Diagnostic> {
    if !source.exists(LANGUAGES) {
        return Vec::new();
    }
    let text = match source.read(LANGUAGES) {
        Ok(text) => text.into_owned(),
        Err(message) => {
            return vec![Diagnostic::file_error(
                source.display_path(LANGUAGES),
                message,
            )]
        }
    };
    let file = sources.add(source.display_path(LANGUAGES), text);
    let table: CheckedLanguages =
        match toml::from_str(&sources.get(file).expect("file just added").text) {
            Ok(table) => table,
            Err(e) => return vec![toml_error(sources, file, &e)],
        };
    let names = profile_names(source);
    let span = |s: &Spanned<String>| sources.span(file, s.span().start, s.span().end);
    let mut diagnostics = Vec::new();
    for (code, row) in &table.languages {
        let name = code.get_ref();
        let is_code = (2..=3).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_lowercase());
        if !is_code {
            diagnostics.push(Diagnostic::error(
                span(code),
                format!("`{name}` is not a language code (two or three lower-case letters, as UD writes it: `hsb`)"),
            ));
        } else if names.iter().any(|n| n == name) {
            diagnostics.push(Diagnostic::warning(
                span(code),
                format!("row `{name}` is never used: `--lang {name}` selects the profile `{name}`"),
            ));
        }
        for (field, value) in [("language", &row.language), ("family", &row.family)] {
            let v = value.get_ref();
            if v.trim().is_empty() || v.contains('\n') || v.trim() != v {
                diagnostics.push(Diagnostic::error(
                    span(value),
                    format!(
                        "`{field}` of `{name}` must be one line of text without surrounding spaces"
                    ),
                ));
            }
        }
        let profile = row.profile.get_ref();
        if !names.iter().any(|n| n == profile) {
            let mut d = Diagnostic::error(
                span(&row.profile),
                format!("row `{name}` names the profile `{profile}`, which does not exist"),
            );
            if let Some(s) = super::diagnostic::closest(profile, names.iter().map(String::as_str)) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            diagnostics.push(d);
        }
    }
    // In file order (the table is read sorted by code).
    diagnostics.sort_by_key(|d| d.span.map(|s| s.start));
    diagnostics
}

/// Which profile `--lang CODE` selects: the profile named `code`; else, for a treebank code
/// `xx_tb`, the language profile `xx`; else the profile [`LANGUAGES`] gives for `xx`; else
/// [`FALLBACK`]. The second value is a warning when it fell back, saying why.
pub fn resolve_profile(source: &RuleSource, code: &str) -> (String, Option<String>) {
    let names = profile_names(source);
    let code_lower = code.trim().to_lowercase();
    if names.contains(&code_lower) {
        return (code_lower, None);
    }
    if let Some((lang, _)) = code_lower.split_once('_') {
        if names.iter().any(|n| n == lang) {
            let warning =
                format!("no profile for treebank `{code}`: using the language profile `{lang}`");
            return (lang.to_string(), Some(warning));
        }
    }
    let lang = code_lower.split('_').next().unwrap_or_default();
    let row = match language_table(source) {
        Ok(mut table) => table.remove(lang),
        Err(message) => {
            let warning = format!(
                "no profile for language `{lang}` (from `{code}`), and the table of fallbacks \
                 does not read ({message}): using the `{FALLBACK}` profile"
            );
            return (FALLBACK.to_string(), Some(warning));
        }
    };
    let warning = match row {
        Some(row) if names.contains(&row.profile) => {
            let case = if row.case {
                "Case in labels"
            } else {
                "no Case in labels"
            };
            let warning = format!(
                "no profile for `{code}` ({}): using `{}` ({}, {case})",
                row.language, row.profile, row.family
            );
            return (row.profile, Some(warning));
        }
        Some(row) => format!(
            "no profile for language `{lang}` (from `{code}`), and {LANGUAGES} names `{}`, \
             which does not exist: using the `{FALLBACK}` profile",
            row.profile
        ),
        None => format!(
            "no profile for language `{lang}` (from `{code}`), nor a row in {LANGUAGES}: \
             using the `{FALLBACK}` profile"
        ),
    };
    (FALLBACK.to_string(), Some(warning))
}

/// Reads and deserializes one profile file.
fn read_raw(
    source: &RuleSource,
    name: &str,
    at: Option<Span>,
    sources: &mut SourceMap,
) -> Result<(RawProfile, FileId), Diagnostic> {
    let path = profile_path(name);
    let text = source.read(&path).map_err(|message| {
        let message = format!("no profile `{name}` ({message})");
        match at {
            Some(span) => Diagnostic::error(span, message),
            None => Diagnostic::file_error(source.display_path(&path), message),
        }
    })?;
    let file = sources.add(source.display_path(&path), text.into_owned());
    let raw: RawProfile = toml::from_str(&sources.get(file).expect("file just added").text)
        .map_err(|e| toml_error(sources, file, &e))?;
    if raw.name.get_ref() != name {
        let span = sources.span(file, raw.name.span().start, raw.name.span().end);
        return Err(Diagnostic::error(
            span,
            format!(
                "profile name `{}` differs from its file name `{name}`",
                raw.name.get_ref()
            ),
        ));
    }
    Ok((raw, file))
}

/// Loads profile `name` with its `extends` chain, collecting every error. `annotates` names
/// must be declared by `vocabulary`, and default to all it declares.
pub fn load_profile(
    source: &RuleSource,
    name: &str,
    vocabulary: &Vocabulary,
    sources: &mut SourceMap,
) -> Result<Profile, Vec<Diagnostic>> {
    // Read the chain, nearest first.
    let mut chain: Vec<(String, RawProfile, FileId)> = Vec::new();
    let mut next = Some((name.to_string(), None::<Span>));
    while let Some((current, at)) = next.take() {
        if chain.iter().any(|(n, _, _)| *n == current) {
            let cycle: Vec<&str> = chain
                .iter()
                .map(|(n, _, _)| n.as_str())
                .chain([current.as_str()])
                .collect();
            let message = format!(
                "profiles extend each other in a cycle: {}",
                cycle.join(" → ")
            );
            return Err(vec![match at {
                Some(span) => Diagnostic::error(span, message),
                None => Diagnostic::file_error("", message),
            }]);
        }
        let (raw, file) = read_raw(source, &current, at, sources).map_err(|e| vec![e])?;
        next = raw.extends.as_ref().map(|parent| {
            let span = sources.span(file, parent.span().start, parent.span().end);
            (parent.get_ref().clone(), Some(span))
        });
        chain.push((current, raw, file));
    }

    let located = |file: FileId, s: &Spanned<String>, sources: &SourceMap| Located {
        text: s.get_ref().clone(),
        span: sources.span(file, s.span().start, s.span().end),
    };
    let mut settings = Settings::defaults(vocabulary);
    let mut disable: Vec<Located> = Vec::new();
    let mut errors = Vec::new();
    let mut rules = Vec::new();
    let mut lexicons: Vec<Located> = Vec::new();
    let mut features = Features::default();
    let mut phases = None;
    let mut phase_groups = Vec::new();
    // Apply ancestors first so that nearer profiles override.
    for (_, raw, file) in chain.iter().rev() {
        rules.extend(raw.rules.iter().map(|r| located(*file, r, sources)));
        for lex in &raw.lexicons {
            if !lexicons.iter().any(|l| l.text == *lex.get_ref()) {
                lexicons.push(located(*file, lex, sources));
            }
        }
        let declared: Vec<DeclaredFeature> = match &raw.features {
            RawFeatures::Names(names) => names.iter().map(|n| (n, None)).collect(),
            RawFeatures::Values(table) => table.iter().map(|(n, v)| (n, Some(v))).collect(),
        };
        for (name, values) in declared {
            let name = located(*file, name, sources);
            if !is_feature_name(&name.text) {
                errors.push(Diagnostic::error(
                    name.span,
                    format!("`{}` is not a feature name (features are written like `NumForm`, `PrepCase`)", name.text),
                ));
                continue;
            }
            let values = values.map(|values| {
                let values: Vec<Located> =
                    values.iter().map(|v| located(*file, v, sources)).collect();
                for bad in values.iter().filter(|v| !is_feature_value(&v.text)) {
                    errors.push(Diagnostic::error(
                        bad.span,
                        format!("`{}` is not a feature value (values are written like `Voc`, `Masc1`, `3`)", bad.text),
                    ));
                }
                values.into_iter().map(|v| v.text).collect()
            });
            // An empty list declares no value: the feature takes any, as in the list form.
            features.declare(&name.text, values.filter(|v: &Vec<String>| !v.is_empty()));
        }
        if let Some(list) = &raw.phases {
            let mut flat: Vec<Located> = Vec::new();
            phase_groups.clear();
            for entry in list {
                let span = sources.span(*file, entry.span().start, entry.span().end);
                match entry.get_ref() {
                    RawPhase::One(name) => flat.push(Located {
                        text: name.clone(),
                        span,
                    }),
                    RawPhase::Group(names) => {
                        if names.len() < 2 {
                            errors.push(Diagnostic::error(span, "a group of phases lists two phases or more (a phase alone is written without brackets)"));
                        }
                        let start = flat.len();
                        flat.extend(names.iter().map(|name| Located {
                            text: name.clone(),
                            span,
                        }));
                        phase_groups.push(start..flat.len());
                    }
                }
            }
            phases = Some(flat);
        }
        disable.extend(raw.disable.iter().map(|r| located(*file, r, sources)));
        // In file order, so that errors come in the order of their lines.
        let mut written: Vec<_> = raw.settings.iter().collect();
        written.sort_by_key(|(name, _)| name.span().start);
        for (name, value) in written {
            let Some(decl) = vocabulary.setting(name.get_ref()) else {
                let span = sources.span(*file, name.span().start, name.span().end);
                errors.push(vocabulary.unknown_setting(span, name.get_ref(), ""));
                continue;
            };
            let before = errors.len();
            vocabulary.check_value(name.get_ref(), decl, value, *file, sources, &mut errors);
            if errors.len() == before {
                settings.set(name.get_ref(), value.get_ref().value());
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (_, own, file) = &chain[0];
    Ok(Profile {
        name: name.to_string(),
        description: own.description.clone(),
        chain: chain.iter().map(|(n, _, _)| n.clone()).collect(),
        rules,
        phases,
        phase_groups,
        lexicons,
        features,
        settings,
        disable,
        file: *file,
    })
}

/// Whether `path` (relative, `/`-separated) matches `glob`: `*` and `?` stay within one path
/// segment, `**` matches any number of whole segments.
pub fn glob_matches(glob: &str, path: &str) -> bool {
    fn segments(glob: &[&str], path: &[&str]) -> bool {
        match glob.split_first() {
            None => path.is_empty(),
            Some((&"**", rest)) => (0..=path.len()).any(|skip| segments(rest, &path[skip..])),
            Some((first, rest)) => path.split_first().is_some_and(|(p, prest)| {
                segment(first.as_bytes(), p.as_bytes()) && segments(rest, prest)
            }),
        }
    }
    fn segment(glob: &[u8], text: &[u8]) -> bool {
        match glob.split_first() {
            None => text.is_empty(),
            Some((b'*', rest)) => (0..=text.len()).any(|skip| segment(rest, &text[skip..])),
            Some((b'?', rest)) => !text.is_empty() && segment(rest, &text[1..]),
            Some((c, rest)) => text.first() == Some(c) && segment(rest, &text[1..]),
        }
    }
    let glob: Vec<&str> = glob.split('/').collect();
    let path: Vec<&str> = path.split('/').collect();
    segments(&glob, &path)
}

#[cfg(test)]
mod tests {
    use super::Features;

    #[test]
    fn declared_values_add_up_and_any_value_wins() {
        let mut features = Features::default();
        features.declare("AdpType", Some(vec!["Prep".into()]));
        features.declare("AdpType", Some(vec!["Voc".into()]));
        features.declare("Number[psor]", Some(vec!["Dual".into()]));
        features.declare("Number", Some(vec!["Tri".into()]));
        features.declare("Clitic", None);
        features.declare("Clitic", Some(vec!["Ka".into()]));
        assert_eq!(features.values("AdpType"), Some(vec!["Prep", "Voc"]));
        assert_eq!(features.values("Number[psor]"), Some(vec!["Dual", "Tri"]));
        assert_eq!(features.values("Clitic"), None);
        assert_eq!(features.values("Case"), Some(vec![]));
        assert!(
            features.knows("AdpType") && features.knows("Clitic[psor]") && !features.knows("Case")
        );
    }
}
