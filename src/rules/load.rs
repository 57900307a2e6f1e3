//! Putting it together: profile → lexicons → rule files → parse → check → [`RuleSet`].

use super::ast::{FileId, RuleFile};
use super::check::{self, Context};
use super::diagnostic::{render_all, Diagnostic};
use super::ir::{Phase, RuleSet};
use super::lexicon::Lexicon;
use super::parser::parse_file;
use super::profile::{glob_matches, load_profile, Features, Profile, Settings};
use super::source::profile_names;
use super::source::{RuleSource, SourceMap, TooLarge};
use super::vocabulary::Vocabulary;
use rustc_hash::FxHashSet;
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
    load_ruleset_parsing(source, name, &mut ParseCache::default())
}

/// Rule files already parsed, by path and text, for loads that compile many profiles over the
/// same rule files (`eudify fit` tries hundreds): parsing is most of a load, and a profile's
/// settings do not change it. A file is reused when it comes at the same place of the load's
/// files (its spans name it by that place), else parsed again.
#[derive(Default)]
pub struct ParseCache {
    parsed: rustc_hash::FxHashMap<String, (FileId, String, Option<RuleFile>, Vec<Diagnostic>)>,
}

/// [`load_ruleset`], reusing the files `cache` holds and keeping those it parses.
pub fn load_ruleset_parsing(
    source: &RuleSource,
    name: &str,
    cache: &mut ParseCache,
) -> Result<RuleSet, LoadError> {
    let mut sources = SourceMap::new();
    let vocabulary = match Vocabulary::load(source, &mut sources) {
        Ok(vocabulary) => vocabulary,
        Err(diagnostics) => {
            return Err(LoadError {
                sources,
                diagnostics,
            })
        }
    };
    let profile = match load_profile(source, name, &vocabulary, &mut sources) {
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
    let files = parse_all(source, &paths, &mut sources, &mut diagnostics, Some(cache));

    let ctx = Context {
        sources: &sources,
        lexicon: &lexicon,
        settings: &profile.settings,
        vocabulary: &vocabulary,
        features: &profile.features,
    };
    let (mut rules, mut inactive, found) = check::check_files(&files, &ctx);
    diagnostics.extend(found);
    disable_rules(
        &profile,
        &files,
        &mut rules,
        &mut inactive,
        &mut diagnostics,
    );
    let order = phase_order(&profile, &files, &sources, &mut diagnostics);

    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(LoadError {
            sources,
            diagnostics,
        });
    }
    // A phase of a group after its first runs with the phases before it (a profile that lists
    // its phases lists each once: `order` is that list).
    let mut phases: Vec<Phase> = order
        .into_iter()
        .enumerate()
        .map(|(i, name)| Phase {
            name,
            rules: Vec::new(),
            joined: profile.joins_previous(i),
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

/// Checks everything a source holds: every `.rules` file (whether a profile uses it or not)
/// checks against all lexicons with default settings and every feature some profile declares,
/// and every profile loads with its own settings and features (which is where rule names must be
/// unique: across the files of a profile). Each diagnostic is reported once
/// however many profiles share its file; one that only some profiles meet names them in a note.
/// A rule that no profile enables (no profile selects its file, or its `when` condition is false
/// in each that does) is a warning. Returns the rendered warnings.
pub fn check_all(source: &RuleSource) -> Result<Vec<String>, LoadError> {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let vocabulary = Vocabulary::load(source, &mut sources).unwrap_or_else(|d| {
        diagnostics.extend(d);
        Vocabulary::default()
    });
    let (lexicon, lexicon_errors) = Lexicon::load(source, &every_lexicon(source), &mut sources);
    diagnostics.extend(lexicon_errors);
    // The table of fallback profiles, which only `--lang` of a language without a profile reads.
    diagnostics.extend(super::profile::check_languages(source, &mut sources));
    let names = profile_names(source);
    // Profile errors are reported by the loads below.
    let features = declared_features(source, &vocabulary);
    let paths: Vec<String> = source
        .list("rules/")
        .into_iter()
        .filter(|p| p.ends_with(".rules"))
        .collect();
    let files = parse_all(source, &paths, &mut sources, &mut diagnostics, None);
    let settings = Settings::defaults(&vocabulary);
    let ctx = Context {
        sources: &sources,
        lexicon: &lexicon,
        settings: &settings,
        vocabulary: &vocabulary,
        features: &features,
    };
    // File by file: a rule name need only be unique among the files a profile loads, and the
    // loads below report a clash at the file their order reaches second (a user's file, not the
    // shipped one it clashes with).
    for file in &files {
        let (_, _, found) = check::check_files(std::slice::from_ref(file), &ctx);
        diagnostics.extend(found);
    }
    diagnostics.extend(unlisted_phases(source, &vocabulary, &files).unwrap_or_default());
    let general_errors = diagnostics.iter().any(Diagnostic::is_error);
    let mut merged = Merged {
        sources,
        diagnostics: diagnostics.into_iter().map(|d| (d, None)).collect(),
    };

    // Which rules some profile enables, and which are loaded but switched off by `when`.
    let mut enabled: FxHashSet<(String, String)> = FxHashSet::default();
    let mut guarded: Vec<(String, String)> = Vec::new();
    let mut all_loaded = true;
    for name in &names {
        match load_ruleset(source, name) {
            Ok(set) => {
                enabled.extend(set.rules().map(|r| (r.path.clone(), r.name.clone())));
                guarded.extend(set.inactive.iter().map(|rule| (rule.clone(), name.clone())));
                merged.add(&set.sources, set.warnings, name);
            }
            Err(e) => {
                all_loaded = false;
                merged.add(&e.sources, e.diagnostics, name);
            }
        }
    }
    if all_loaded && !general_errors {
        for file in &files {
            for rule in &file.rules {
                if enabled.contains(&(file.path.clone(), rule.name.text.clone())) {
                    continue;
                }
                let off_in: Vec<&str> = guarded
                    .iter()
                    .filter(|(r, _)| *r == rule.name.text)
                    .map(|(_, p)| p.as_str())
                    .collect();
                let note = if off_in.is_empty() {
                    "no profile's `rules` globs select this file".to_string()
                } else {
                    format!(
                        "its `when` condition is false, or `disable` names it, in every profile that loads this file ({})",
                        off_in.join(", ")
                    )
                };
                let warning = Diagnostic::warning(
                    rule.name.span,
                    format!("rule `{}` is enabled by no profile", rule.name.text),
                )
                .with_note(note);
                merged.diagnostics.push((warning, None));
            }
        }
    }
    let total = names.len();
    // The file a diagnostic points into (a profile's own file needs no "in profile" note).
    let path_of = |d: &Diagnostic| {
        d.span
            .and_then(|span| merged.sources.get(span.file))
            .map(|f| f.path.replace('\\', "/"))
            .unwrap_or_default()
    };
    let paths: Vec<String> = merged.diagnostics.iter().map(|(d, _)| path_of(d)).collect();
    let diagnostics: Vec<Diagnostic> = merged
        .diagnostics
        .into_iter()
        .zip(paths)
        .map(|((d, profiles), path)| match profiles {
            Some(p) if p.len() == total && total > 1 => d.with_note("in every profile"),
            Some(p) if p.len() == 1 && path.ends_with(&format!("profiles/{}.toml", p[0])) => d,
            Some(p) if p.len() == 1 => d.with_note(format!("in profile `{}`", p[0])),
            Some(p) => d.with_note(format!("in profiles {}", p.join(", "))),
            None => d,
        })
        .collect();
    let sources = merged.sources;
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(LoadError {
            sources,
            diagnostics,
        });
    }
    Ok(diagnostics.iter().map(|d| d.render(&sources)).collect())
}

/// Diagnostics of several loads in one source map, each once, with the profiles whose loads
/// found it (`None`: found without a profile, by the check of every file).
struct Merged {
    sources: SourceMap,
    diagnostics: Vec<(Diagnostic, Option<Vec<String>>)>,
}

impl Merged {
    /// Adds the diagnostics of one profile's load, moving their spans into `self.sources`. One
    /// that the check of every file found, whatever its notes, is not repeated: that check's
    /// notes speak of every profile (an unlisted phase names every profile's `phases`).
    fn add(&mut self, from: &SourceMap, diagnostics: Vec<Diagnostic>, profile: &str) {
        for mut d in diagnostics {
            if let Some(span) = &mut d.span {
                span.file = self.file_id(from, span.file);
            }
            let found_for_all = |known: &Diagnostic| {
                known.severity == d.severity && known.span == d.span && known.message == d.message
            };
            if self
                .diagnostics
                .iter()
                .any(|(known, profiles)| profiles.is_none() && found_for_all(known))
            {
                continue;
            }
            match self.diagnostics.iter_mut().find(|(known, _)| *known == d) {
                Some((_, Some(profiles))) => profiles.push(profile.to_string()),
                Some((_, None)) => {}
                None => self.diagnostics.push((d, Some(vec![profile.to_string()]))),
            }
        }
    }

    /// The id in `self.sources` of file `id` of `from` (the same path and text is one file).
    fn file_id(&mut self, from: &SourceMap, id: FileId) -> FileId {
        let Some(file) = from.get(id) else { return id };
        match self
            .sources
            .files()
            .iter()
            .position(|f| f.path == file.path && f.text == file.text)
        {
            Some(i) => FileId(i as u32),
            None => self.sources.add(file.path.clone(), file.text.clone()),
        }
    }
}

/// The most rule text one load reads, all rule files together: 4 MiB, twenty times the shipped
/// rules (190 KB). Loaded rules take about 35 times their text in memory (the checked rules and
/// the engine's compiled patterns), so the limit keeps a load near 150 MB; past it the file
/// that crosses it is refused (`FILE: message`) before it is read whole.
pub const MAX_RULE_BYTES: usize = 4 << 20;

/// Parses the given virtual paths (adding them to `sources`), up to [`MAX_RULE_BYTES`] of text.
fn parse_all(
    source: &RuleSource,
    paths: &[String],
    sources: &mut SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
    mut cache: Option<&mut ParseCache>,
) -> Vec<RuleFile> {
    let mut files = Vec::new();
    let mut read = 0;
    for path in paths {
        let text = match source.read_at_most(path, MAX_RULE_BYTES - read) {
            Ok(text) => text,
            Err(TooLarge::Over) => {
                let message = format!(
                    "rule files loaded together are limited to {MAX_RULE_BYTES} bytes (4 MiB; \
                     {read} bytes read before this file): this file goes past it"
                );
                diagnostics.push(Diagnostic::file_error(source.display_path(path), message));
                break;
            }
            Err(TooLarge::Unreadable(message)) => {
                diagnostics.push(Diagnostic::file_error(source.display_path(path), message));
                continue;
            }
        };
        read += text.len();
        let shown = source.display_path(path);
        let hit =
            cache
                .as_deref()
                .and_then(|c| c.parsed.get(&shown))
                .filter(|(at, known, _, _)| {
                    *at == FileId(sources.files().len() as u32) && *known == *text
                });
        if let Some((_, _, file, errors)) = hit {
            diagnostics.extend(errors.iter().cloned());
            files.extend(file.clone());
            sources.add(shown, text.into_owned());
            continue;
        }
        let id = sources.add(shown.clone(), text.into_owned());
        let parsed = parse_file(sources, id);
        if let Some(cache) = cache.as_deref_mut() {
            let text = sources.get(id).expect("file just added").text.clone();
            cache.parsed.insert(
                shown,
                (id, text, parsed.file.clone(), parsed.errors.clone()),
            );
        }
        diagnostics.extend(parsed.errors);
        files.extend(parsed.file);
    }
    files
}

/// Every lexicon of the source by name (`en` for `lexicons/en.toml`), none asked for by a
/// profile (so no span to report a missing one at).
pub(crate) fn every_lexicon(source: &RuleSource) -> Vec<(String, Option<super::ast::Span>)> {
    source
        .list("lexicons/")
        .iter()
        .filter_map(|p| {
            p.strip_prefix("lexicons/")?
                .strip_suffix(".toml")
                .map(|n| (n.to_string(), None))
        })
        .collect()
}

/// Every feature some profile of `source` declares, with every value any profile declares for
/// it (a profile that does not load adds none).
pub(crate) fn declared_features(source: &RuleSource, vocabulary: &Vocabulary) -> Features {
    let mut features = Features::default();
    for name in &profile_names(source) {
        if let Ok(profile) = load_profile(source, name, vocabulary, &mut SourceMap::new()) {
            features.merge(&profile.features);
        }
    }
    features
}

/// Parses and checks one standalone rule text (no profile: default settings, every enhancement
/// of the embedded vocabulary, UD's universal features only, the given lexicon).
/// Used by tests and by tools that check a single file.
pub fn check_text(
    path: &str,
    text: &str,
    lexicon: &Lexicon,
) -> Result<Vec<super::ir::CheckedRule>, LoadError> {
    let mut sources = SourceMap::new();
    let id = sources.add(path, text);
    let parsed = parse_file(&sources, id);
    let mut diagnostics = parsed.errors;
    let vocabulary = Vocabulary::embedded();
    let settings = Settings::defaults(&vocabulary);
    let files: Vec<RuleFile> = parsed.file.into_iter().collect();
    let ctx = Context {
        sources: &sources,
        lexicon,
        settings: &settings,
        vocabulary: &vocabulary,
        features: &Features::default(),
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

/// Leaves out the rules the profile's `disable` names (they join `inactive`); a name that is no
/// rule of the profile's files is an error.
fn disable_rules(
    profile: &Profile,
    files: &[RuleFile],
    rules: &mut Vec<super::ir::CheckedRule>,
    inactive: &mut Vec<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let names = || {
        files
            .iter()
            .flat_map(|f| &f.rules)
            .map(|r| r.name.text.as_str())
    };
    for name in &profile.disable {
        if !names().any(|n| n == name.text) {
            let d = Diagnostic::error(
                name.span,
                format!(
                    "`disable` names `{}`, which is no rule of this profile",
                    name.text
                ),
            );
            diagnostics.push(match super::diagnostic::closest(&name.text, names()) {
                Some(s) => d.with_note(format!("did you mean `{s}`?")),
                None => d.with_note("the profile's rule files are selected by its `rules` globs"),
            });
        } else if !inactive.contains(&name.text) {
            inactive.push(name.text.clone());
        }
    }
    rules.retain(|r| !profile.disable.iter().any(|d| d.text == r.name));
}

/// The rule files profile `profile` selects, as paths under `rules/`, in load order.
pub fn selected_rule_files(source: &RuleSource, profile: &Profile) -> Vec<String> {
    rule_paths(source, profile, &mut Vec::new())
        .into_iter()
        .filter_map(|p| p.strip_prefix("rules/").map(str::to_string))
        .collect()
}

/// Every rule file `source` holds, as a path under `rules/`, with the phases its `phase` lines
/// name in the order met (what a profile that adds the file must list); a file that does not
/// parse is left out.
pub fn rule_file_phases(source: &RuleSource) -> Vec<(String, Vec<String>)> {
    let mut sources = SourceMap::new();
    let mut out = Vec::new();
    for path in source.list("rules/") {
        let (Some(rel), Ok(text)) = (path.strip_prefix("rules/"), source.read(&path)) else {
            continue;
        };
        if !rel.ends_with(".rules") {
            continue;
        }
        let id = sources.add(path.clone(), text.into_owned());
        let Some(file) = parse_file(&sources, id).file else {
            continue;
        };
        let mut phases: Vec<String> = Vec::new();
        for line in &file.phases {
            if !phases.contains(&line.name.text) {
                phases.push(line.name.text.clone());
            }
        }
        out.push((rel.to_string(), phases));
    }
    out
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
    sources: &SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for file in files {
        for phase in file.phases.iter().map(|line| &line.name) {
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
    // Where the list is written: the profile's own file or the ancestor's it inherits.
    let declared_in = listed
        .first()
        .and_then(|phase| sources.get(phase.span.file))
        .map_or("the profile", |file| file.path.as_str());
    for file in files {
        for phase in file.phases.iter().map(|line| &line.name) {
            if !order.contains(&phase.text) {
                let note = format!("`phases` in {declared_in}: {}", order.join(", "));
                diagnostics.push(unlisted_phase(phase, &order, note).with_note(
                    "phases run in the order a profile's `phases` lists them (one that lists \
                     none inherits its parent's): add the phase there, or use a listed one",
                ));
            }
        }
    }
    order
}

/// The error for a `phase` line whose phase is not listed: the same text whether one profile's
/// load finds it or the check of every file does (which then reports it once), with a
/// did-you-mean and the note saying where phases are listed.
fn unlisted_phase(phase: &super::ast::Name, listed: &[String], note: String) -> Diagnostic {
    let d = Diagnostic::error(
        phase.span,
        format!("phase `{}` is not in the `phases` list", phase.text),
    );
    let d = match super::diagnostic::closest(&phase.text, listed.iter().map(String::as_str)) {
        Some(s) => d.with_note(format!("did you mean `{s}`?")),
        None => d,
    };
    d.with_note(note)
}

/// Every phase some profile of `source` lists, in the order met, and the profile files that
/// write a `phases` list, the most inherited first; `None` when some profile lists none (it then
/// runs the phases its rule files name, whichever they are).
fn listed_phases(
    source: &RuleSource,
    vocabulary: &Vocabulary,
) -> Option<(Vec<String>, Vec<String>)> {
    let mut phases: Vec<String> = Vec::new();
    let mut lists: Vec<(String, usize)> = Vec::new();
    for name in &profile_names(source) {
        let mut sources = SourceMap::new();
        let Ok(profile) = load_profile(source, name, vocabulary, &mut sources) else {
            continue;
        };
        let listed = profile.phases?;
        for phase in &listed {
            if !phases.contains(&phase.text) {
                phases.push(phase.text.clone());
            }
        }
        let file = listed
            .first()
            .and_then(|p| sources.get(p.span.file))
            .map_or_else(
                || source.display_path(&format!("rules/profiles/{name}.toml")),
                |f| f.path.clone(),
            );
        match lists.iter_mut().find(|(f, _)| *f == file) {
            Some((_, count)) => *count += 1,
            None => lists.push((file, 1)),
        }
    }
    lists.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    Some((phases, lists.into_iter().map(|(f, _)| f).collect()))
}

/// The check of every file: a `phase` line whose phase no profile lists, once (each profile's
/// load finds it too; [`Merged::add`] drops those).
fn unlisted_phases(
    source: &RuleSource,
    vocabulary: &Vocabulary,
    files: &[RuleFile],
) -> Option<Vec<Diagnostic>> {
    let (listed, lists) = listed_phases(source, vocabulary)?;
    let (first, rest) = lists.split_first()?;
    let also = if rest.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = rest
            .iter()
            .map(|path| {
                let file = path.rsplit('/').next().unwrap_or(path);
                file.strip_suffix(".toml").unwrap_or(file)
            })
            .collect();
        let verb = if names.len() == 1 {
            "lists its own"
        } else {
            "list their own"
        };
        format!("; {} {verb}", names.join(", "))
    };
    let note = format!(
        "phases are listed by `phases` in {first}, which the profiles extending it inherit{also}: \
         add the phase to the list of the profile that should run it, where it should run, or use \
         a listed one"
    );
    Some(
        files
            .iter()
            .flat_map(|file| &file.phases)
            .filter(|line| !listed.contains(&line.name.text))
            .map(|line| {
                unlisted_phase(
                    &line.name,
                    &listed,
                    format!("no profile lists it; listed phases: {}", listed.join(", ")),
                )
                .with_note(note.clone())
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `eudify check` refuses a template whose literal text cannot give a label `validate` accepts,
    /// and accepts placeholders, which are valid by construction.
    #[test]
    fn the_checker_uses_the_one_label_grammar() {
        let lexicon = crate::rules::lexicon::Lexicon::default();
        let rule = |template: &str| {
            let text = format!(
                "phase p\nrule r {{\n  match {{ e: H -[obl]-> N;  H =[e.label]=> N;  N -[case]-> C; }}\n  do {{ relabel H =[e.label]=> N as \"{template}\"; }}\n}}\n"
            );
            check_text("t.rules", &text, &lexicon)
                .map(|_| ())
                .map_err(|e| e.render())
        };
        for bad in [
            "obl:Tmod2",
            "{e.label}:Att",
            "{e.univ}:x:{marker(C)}:y:z",
            "nsubj:",
            "subj:{marker(C)}",
            "obl:a\u{301}",
        ] {
            let error = rule(bad).expect_err(bad);
            assert!(
                error.contains("enhanced label") || error.contains("unknown UD relation"),
                "{bad}: {error}"
            );
        }
        for good in [
            "obl:tmod",
            "{e.label}:att",
            "{e.univ}:{marker(C)}:{feat(N, Case)}",
            "obl:{lemma(C)}",
            "{e.label}{?marker(C)}",
        ] {
            assert_eq!(rule(good), Ok(()), "{good}");
        }
    }
}
