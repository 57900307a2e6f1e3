//! Putting it together: profile → lexicons → rule files → parse → check → [`RuleSet`].

use super::ast::{Phase, RuleFile, RuleSet};
use super::check::{self, Context};
use super::diagnostic::{render_all, Diagnostic};
use super::lexicon::Lexicon;
use super::parser::parse_file;
use super::profile::{glob_matches, load_profile, profile_names, Profile, Settings};
use super::source::{RuleSource, SourceMap};
use std::fmt;

/// Everything that went wrong while loading, with the files needed to render it.
#[derive(Debug)]
pub struct LoadError {
    pub sources: SourceMap,
    /// Errors (and the warnings found along the way), in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// Every diagnostic rendered with source lines and carets.
    pub fn render(&self) -> String {
        render_all(&self.diagnostics, &self.sources)
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for LoadError {}

/// Loads profile `name` (no fallback: see [`super::profile::resolve_profile`]) with its rule
/// files and lexicons, and checks everything, reporting every error at once.
pub fn load_ruleset(source: &RuleSource, name: &str) -> Result<RuleSet, LoadError> {
    let mut sources = SourceMap::new();
    let profile = match load_profile(source, name, &mut sources) {
        Ok(profile) => profile,
        Err(diagnostics) => {
            return Err(LoadError {
                sources,
                diagnostics,
            })
        }
    };
    let mut diagnostics = Vec::new();
    let lexicon_names: Vec<_> = profile
        .lexicons
        .iter()
        .map(|l| (l.text.clone(), Some(l.span)))
        .collect();
    let (lexicon, lexicon_errors) = Lexicon::load(source, &lexicon_names, &mut sources);
    diagnostics.extend(lexicon_errors);

    let paths = rule_paths(source, &profile, &mut diagnostics);
    let files = parse_all(source, &paths, &mut sources, &mut diagnostics);

    let ctx = Context {
        sources: &sources,
        lexicon: &lexicon,
        settings: &profile.settings,
    };
    let (rules, inactive, found) = check::check_files(&files, &ctx);
    diagnostics.extend(found);
    let order = phase_order(&profile, &files, &mut diagnostics);

    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(LoadError {
            sources,
            diagnostics,
        });
    }
    let mut phases: Vec<Phase> = order
        .into_iter()
        .map(|name| Phase {
            name,
            rules: Vec::new(),
        })
        .collect();
    for rule in rules {
        if let Some(phase) = phases.iter_mut().find(|p| p.name == rule.phase) {
            phase.rules.push(rule);
        }
    }
    Ok(RuleSet {
        profile: profile.name,
        description: profile.description,
        settings: profile.settings,
        phases,
        inactive,
        lexicons: lexicon,
        sources,
        warnings: diagnostics,
    })
}

/// Checks everything a source holds: every profile loads, and every `.rules` file (whether a
/// profile uses it or not) checks against all lexicons with default settings. Returns the
/// warnings.
pub fn check_all(source: &RuleSource) -> Result<Vec<String>, LoadError> {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let lexicon_names: Vec<_> = source
        .list("lexicons/")
        .iter()
        .filter_map(|p| {
            p.strip_prefix("lexicons/")?
                .strip_suffix(".toml")
                .map(|n| (n.to_string(), None))
        })
        .collect();
    let (lexicon, lexicon_errors) = Lexicon::load(source, &lexicon_names, &mut sources);
    diagnostics.extend(lexicon_errors);
    let paths: Vec<String> = source
        .list("rules/")
        .into_iter()
        .filter(|p| p.ends_with(".rules"))
        .collect();
    let files = parse_all(source, &paths, &mut sources, &mut diagnostics);
    let settings = Settings::default();
    let ctx = Context {
        sources: &sources,
        lexicon: &lexicon,
        settings: &settings,
    };
    let (_, _, found) = check::check_files(&files, &ctx);
    diagnostics.extend(found);
    let mut warnings: Vec<String> = diagnostics
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.render(&sources))
        .collect();
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(LoadError {
            sources,
            diagnostics,
        });
    }
    for name in profile_names(source) {
        match load_ruleset(source, &name) {
            Ok(set) => warnings.extend(set.warnings.iter().map(|w| w.render(&set.sources))),
            Err(e) => return Err(e),
        }
    }
    Ok(warnings)
}

/// Parses the given virtual paths (adding them to `sources`).
fn parse_all(
    source: &RuleSource,
    paths: &[String],
    sources: &mut SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<RuleFile> {
    let mut files = Vec::new();
    for path in paths {
        let text = match source.read(path) {
            Ok(text) => text,
            Err(message) => {
                diagnostics.push(Diagnostic::file_error(source.display_path(path), message));
                continue;
            }
        };
        let id = sources.add(source.display_path(path), text.into_owned());
        let parsed = parse_file(sources, id);
        diagnostics.extend(parsed.errors);
        files.extend(parsed.file);
    }
    files
}

/// Parses and checks one standalone rule text (no profile: default settings, the given lexicon).
/// Used by tests and by tools that check a single file.
pub fn check_text(
    path: &str,
    text: &str,
    lexicon: &Lexicon,
) -> Result<Vec<super::ast::CheckedRule>, LoadError> {
    let mut sources = SourceMap::new();
    let id = sources.add(path, text);
    let parsed = parse_file(&sources, id);
    let mut diagnostics = parsed.errors;
    let settings = Settings::default();
    let files: Vec<RuleFile> = parsed.file.into_iter().collect();
    let ctx = Context {
        sources: &sources,
        lexicon,
        settings: &settings,
    };
    let (rules, _, found) = check::check_files(&files, &ctx);
    diagnostics.extend(found);
    if diagnostics.iter().any(Diagnostic::is_error) {
        Err(LoadError {
            sources,
            diagnostics,
        })
    } else {
        Ok(rules)
    }
}

/// The rule files a profile selects, in order: glob by glob, each glob's matches sorted by path,
/// each file once.
fn rule_paths(
    source: &RuleSource,
    profile: &Profile,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let all: Vec<String> = source
        .list("rules/")
        .into_iter()
        .filter(|p| p.ends_with(".rules"))
        .collect();
    let mut out: Vec<String> = Vec::new();
    for glob in &profile.rules {
        let matches: Vec<&String> = all
            .iter()
            .filter(|p| {
                p.strip_prefix("rules/")
                    .is_some_and(|rel| glob_matches(&glob.text, rel))
            })
            .collect();
        if matches.is_empty() {
            diagnostics.push(Diagnostic::error(
                glob.span,
                format!("`{}` matches no rule file under rules/", glob.text),
            ));
        }
        for path in matches {
            if !out.contains(path) {
                out.push(path.clone());
            }
        }
    }
    out
}

/// The profile's phase order (see [`super::profile`]), reporting phases missing from an explicit
/// list and listed phases no rule uses.
fn phase_order(
    profile: &Profile,
    files: &[RuleFile],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for file in files {
        for phase in &file.phases {
            if !seen.contains(&phase.text) {
                seen.push(phase.text.clone());
            }
        }
    }
    let Some(listed) = &profile.phases else {
        return seen;
    };
    let mut order: Vec<String> = Vec::new();
    for phase in listed {
        if order.contains(&phase.text) {
            diagnostics.push(Diagnostic::error(
                phase.span,
                format!("phase `{}` is listed twice", phase.text),
            ));
        } else {
            if !seen.contains(&phase.text) {
                diagnostics.push(Diagnostic::warning(
                    phase.span,
                    format!(
                        "phase `{}` has no rules in this profile's rule files",
                        phase.text
                    ),
                ));
            }
            order.push(phase.text.clone());
        }
    }
    for file in files {
        for phase in &file.phases {
            if !order.contains(&phase.text) {
                diagnostics.push(
                    Diagnostic::error(
                        phase.span,
                        format!(
                            "phase `{}` is not in the `phases` list of profile `{}`",
                            phase.text, profile.name
                        ),
                    )
                    .with_note(format!("listed phases: {}", order.join(", "))),
                );
            }
        }
    }
    order
}
