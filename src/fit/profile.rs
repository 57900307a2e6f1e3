//! A fitted profile as text: the profile file extending the base (each choice with the comment
//! that gives its evidence) and the lexicon of the words the gold evidenced; and the same
//! texts, without comments, compiled for a candidate of the search.

use crate::engine::Engine;
use crate::error::Error;
use crate::rules::load::{load_ruleset_parsing, ParseCache};
use crate::rules::profile::SettingValue;
use crate::rules::RuleSource;
use std::collections::BTreeMap;

/// What a candidate profile says beyond its base: settings that differ, and words added to
/// lexicon lists (`group.list` → words, sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub settings: BTreeMap<String, SettingValue>,
    pub lexicon: BTreeMap<String, Vec<String>>,
}

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
    if !choices.lexicon.is_empty() {
        out.push_str(&format!(
            "lexicons = {}\n",
            toml_value(&SettingValue::List(vec![name.into()]))
        ));
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
    let rule_set = load_ruleset_parsing(&source, name, cache)
        .map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
    Ok(Engine::new(&rule_set))
}
