//! A fitted profile as text: the profile file extending the base (each choice with the comment
//! that gives its evidence) and the lexicon of the words the gold evidenced; and the same
//! texts, without comments, compiled for a candidate of the search.

use super::library::Phases;
use crate::engine::Engine;
use crate::error::Error;
use crate::rules::load::{load_ruleset_parsing, ParseCache};
use crate::rules::profile::SettingValue;
use crate::rules::{RuleSet, RuleSource};
use std::collections::BTreeMap;

/// What a candidate profile says beyond its base: settings that differ, words added to lexicon
/// lists (`group.list` → words, sorted), and the shipped rule files and lexicons it adds and the
/// rules it switches off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub settings: BTreeMap<String, SettingValue>,
    pub lexicon: BTreeMap<String, Vec<String>>,
    /// Shipped rule files (paths under `rules/`) loaded after the base's, in the order kept.
    pub rules: Vec<String>,
    /// The phase list, when an added file has a phase the base's list lacks.
    pub phases: Option<Phases>,
    /// Shipped lexicons loaded beside the base's.
    pub lexicons: Vec<String>,
    /// Rules switched off, by name.
    pub disable: Vec<String>,
}

/// The keys of the comments above the profile's `rules`, `lexicons` and `disable` lines (no
/// setting has these names: `rules/vocabulary.toml` declares settings only).
pub const RULES_KEY: &str = "rules";
pub const LEXICONS_KEY: &str = "lexicons";
pub const DISABLE_KEY: &str = "disable";

/// The comment above each choice in the written files, by setting name or `group.list`.
pub type Comments = BTreeMap<String, Vec<String>>;

/// A value as TOML writes it.
pub fn toml_value(value: &SettingValue) -> String {
    let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
    match value {
        SettingValue::Bool(b) => b.to_string(),
        SettingValue::Text(s) => quoted(s),
        SettingValue::List(items) => {
            let items: Vec<String> = items.iter().map(|s| quoted(s)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

fn comment_lines(out: &mut String, lines: &[String]) {
    for line in lines {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
}

/// The profile file `name` extending `base`, with `header` (comment lines) on top and each
/// choice's comment above it.
pub fn profile_text(
    name: &str,
    base: &str,
    description: &str,
    choices: &Choices,
    header: &[String],
    comments: &Comments,
) -> String {
    let mut out = String::new();
    comment_lines(&mut out, header);
    out.push_str(&format!(
        "name = {}\n",
        toml_value(&SettingValue::Text(name.into()))
    ));
    out.push_str(&format!(
        "description = {}\n",
        toml_value(&SettingValue::Text(description.into()))
    ));
    out.push_str(&format!(
        "extends = {}\n",
        toml_value(&SettingValue::Text(base.into()))
    ));
    let list = |items: &[String]| toml_value(&SettingValue::List(items.to_vec()));
    let no_comment: &[String] = &[];
    let comment = |key: &str| comments.get(key).map_or(no_comment, Vec::as_slice);
    if !choices.rules.is_empty() {
        comment_lines(&mut out, comment(RULES_KEY));
        out.push_str(&format!("rules = {}\n", list(&choices.rules)));
    }
    if let Some(phases) = &choices.phases {
        let entries: Vec<String> = phases
            .iter()
            .map(|group| match group.as_slice() {
                [one] => toml_value(&SettingValue::Text(one.clone())),
                _ => list(group),
            })
            .collect();
        out.push_str(
            "# the phases of the added rule files, placed as the shipped profiles place them\n",
        );
        out.push_str(&format!("phases = [{}]\n", entries.join(", ")));
    }
    let mut lexicons = choices.lexicons.clone();
    if !choices.lexicon.is_empty() {
        lexicons.push(name.into());
    }
    if !lexicons.is_empty() {
        comment_lines(&mut out, comment(LEXICONS_KEY));
        out.push_str(&format!("lexicons = {}\n", list(&lexicons)));
    }
    if !choices.disable.is_empty() {
        comment_lines(&mut out, comment(DISABLE_KEY));
        out.push_str(&format!("disable = {}\n", list(&choices.disable)));
    }
    if !choices.settings.is_empty() {
        out.push_str("\n[settings]\n");
        for (setting, value) in &choices.settings {
            comment_lines(
                &mut out,
                comments.get(setting).map_or(&[][..], Vec::as_slice),
            );
            out.push_str(&format!("{setting} = {}\n", toml_value(value)));
        }
    }
    out
}

/// The lexicon file of the words `choices` adds, each list under its comment.
pub fn lexicon_text(choices: &Choices, header: &[String], comments: &Comments) -> String {
    let mut out = String::new();
    comment_lines(&mut out, header);
    let mut group_now = "";
    for (path, words) in &choices.lexicon {
        let (group, list) = path.split_once('.').expect("lexicon lists are group.list");
        if group != group_now {
            out.push_str(&format!("\n[{group}]\n"));
            group_now = group;
        }
        comment_lines(&mut out, comments.get(path).map_or(&[][..], Vec::as_slice));
        let words = SettingValue::List(words.clone());
        out.push_str(&format!("{list} = {}\n", toml_value(&words)));
    }
    out
}

/// The virtual paths of a fitted profile's files (layered over the embedded rules).
pub fn profile_path(name: &str) -> String {
    format!("rules/profiles/{name}.toml")
}

pub fn lexicon_path(name: &str) -> String {
    format!("lexicons/{name}.toml")
}

/// `choices` over `base`, compiled as profile `name`: what one trial of the search runs. The
/// rule files are parsed once, into `cache`.
pub fn compile(
    name: &str,
    base: &str,
    choices: &Choices,
    cache: &mut ParseCache,
) -> Result<Engine, Error> {
    Ok(Engine::new(&load(name, base, choices, cache)?))
}

/// The names of the rules `choices` over `base` runs (those a `disable` may name).
pub fn active_rules(
    name: &str,
    base: &str,
    choices: &Choices,
    cache: &mut ParseCache,
) -> Result<Vec<String>, Error> {
    let rule_set = load(name, base, choices, cache)?;
    Ok(rule_set.rules().map(|r| r.name.clone()).collect())
}

fn load(
    name: &str,
    base: &str,
    choices: &Choices,
    cache: &mut ParseCache,
) -> Result<RuleSet, Error> {
    let mut files = BTreeMap::new();
    let none = Comments::new();
    files.insert(
        profile_path(name),
        profile_text(name, base, "candidate", choices, &[], &none),
    );
    if !choices.lexicon.is_empty() {
        files.insert(lexicon_path(name), lexicon_text(choices, &[], &none));
    }
    let source = RuleSource::layered(files);
    load_ruleset_parsing(&source, name, cache)
        .map_err(|e| Error::Rules(e.render().trim_end().to_string()))
}
