//! What a fitted profile may add to its base beyond settings and words: the rule files and
//! lexicons eudify ships that the base does not load. A convention no setting spells (Estonian's
//! universal labels, Latvian's empty nodes, Czech's case labels of bare locatives) is often one a
//! shipped rule file already writes, for another treebank or language; `fit` tries each file (and
//! each folder whole) and keeps those the gold evidences, as it keeps a setting.
//!
//! A file's phases must be in the profile's phase list when the base lists its phases: a phase
//! the base lacks is placed where the shipped profiles that list it place it (after the nearest
//! phase before it that the list has).

use crate::error::Error;
use crate::rules::load::{rule_file_phases, selected_rule_files};
use crate::rules::profile::load_profile;
use crate::rules::source::SourceMap;
use crate::rules::vocabulary::Vocabulary;
use crate::rules::RuleSource;
use std::collections::BTreeMap;

/// A phase list as a profile writes it: each entry one phase, or a group run to one fixpoint.
pub type Phases = Vec<Vec<String>>;

/// The shipped rule files and lexicons a base does not load.
pub struct Library {
    /// Rule files (paths under `rules/`) the base does not select, by folder, in path order.
    pub folders: Vec<(String, Vec<String>)>,
    /// Lexicons (`lexicons/NAME.toml`) the base does not load.
    pub lexicons: Vec<String>,
    /// Every shipped rule file's phases.
    phases_of: BTreeMap<String, Vec<String>>,
    /// The phase list of every shipped profile that writes one, flattened.
    listed: Vec<Vec<String>>,
    /// The base's phase list; `None` when it lists none (phases then follow the files).
    base_phases: Option<Phases>,
}

impl Library {
    /// What the embedded rules offer beyond profile `base`.
    pub fn beyond(base: &str) -> Result<Library, Error> {
        let source = RuleSource::embedded();
        let vocabulary = Vocabulary::embedded();
        let profile = |name: &str| {
            load_profile(&source, name, &vocabulary, &mut SourceMap::new()).map_err(|errors| {
                let shown: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
                Error::Rules(format!("profile `{name}`: {}", shown.join("; ")))
            })
        };
        let base_profile = profile(base)?;
        let selected = selected_rule_files(&source, &base_profile);
        let phases_of: BTreeMap<String, Vec<String>> =
            rule_file_phases(&source).into_iter().collect();
        let mut folders: Vec<(String, Vec<String>)> = Vec::new();
        for file in phases_of.keys().filter(|f| !selected.contains(f)) {
            let folder = file.rsplit_once('/').map_or("", |(folder, _)| folder);
            match folders.last_mut() {
                Some((last, files)) if last == folder => files.push(file.clone()),
                _ => folders.push((folder.to_string(), vec![file.clone()])),
            }
        }
        let loaded: Vec<&str> = base_profile
            .lexicons
            .iter()
            .map(|l| l.text.as_str())
            .collect();
        let lexicons = crate::rules::load::every_lexicon(&source)
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| name != crate::rules::lexicon::UNIVERSAL && !loaded.contains(&&**name))
            .collect();
        let mut listed = Vec::new();
        for name in crate::rules::source::profile_names(&source) {
            if let Ok(Some(phases)) = profile(&name).map(|p| p.phases) {
                listed.push(phases.into_iter().map(|p| p.text).collect());
            }
        }
        let base_phases = base_profile.phases.as_ref().map(|flat| {
            let mut out: Phases = Vec::new();
            for (i, phase) in flat.iter().enumerate() {
                match out.last_mut() {
                    Some(group) if base_profile.joins_previous(i) => group.push(phase.text.clone()),
                    _ => out.push(vec![phase.text.clone()]),
                }
            }
            out
        });
        Ok(Library {
            folders,
            lexicons,
            phases_of,
            listed,
            base_phases,
        })
    }

    /// The phase list a profile over the base that adds `files` must write: `None` when the
    /// base's list (or the files' own order, when it lists none) already serves.
    pub fn phases_with(&self, files: &[String]) -> Option<Phases> {
        let mut phases = self.base_phases.clone()?;
        let mut changed = false;
        for phase in files.iter().flat_map(|f| self.phases_of.get(f)).flatten() {
            if phases.iter().flatten().any(|p| p == phase) {
                continue;
            }
            changed = true;
            // After the nearest phase before it, in the first shipped list that has it, that
            // the list being built has too; first when there is none; last when no shipped
            // profile lists it.
            let place = match self.listed.iter().find(|l| l.contains(phase)) {
                Some(list) => {
                    let before = list.iter().take_while(|p| *p != phase);
                    before
                        .filter_map(|p| phases.iter().position(|g| g.contains(p)))
                        .last()
                        .map_or(0, |at| at + 1)
                }
                None => phases.len(),
            };
            phases.insert(place, vec![phase.clone()]);
        }
        changed.then_some(phases)
    }
}

#[cfg(test)]
mod tests {
    use super::Library;

    fn files(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn the_library_beyond_a_base_holds_what_it_does_not_load() {
        let library = Library::beyond("universal").unwrap();
        let all: Vec<&String> = library.folders.iter().flat_map(|(_, f)| f).collect();
        assert!(all.iter().any(|f| *f == "lv/blank.rules"));
        assert!(!all.iter().any(|f| f.starts_with("universal/")));
        assert!(library.lexicons.iter().any(|l| l == "cs"));
        assert!(!library.lexicons.iter().any(|l| l == "universal"));
        let lv = Library::beyond("lv").unwrap();
        let all: Vec<&String> = lv.folders.iter().flat_map(|(_, f)| f).collect();
        assert!(!all
            .iter()
            .any(|f| f.starts_with("lv/") || f.starts_with("blank/")));
        assert!(!lv.lexicons.iter().any(|l| l == "lv"));
    }

    #[test]
    fn a_new_phase_is_placed_as_the_shipped_profiles_place_it() {
        let library = Library::beyond("universal").unwrap();
        // et/labels.rules runs in `case`, which universal lists: no list to write.
        assert_eq!(library.phases_with(&files(&["et/labels.rules"])), None);
        let phases = library
            .phases_with(&files(&["et/labels.rules", "lv/coordination.rules"]))
            .unwrap();
        let flat: Vec<&str> = phases.iter().flatten().map(String::as_str).collect();
        let at = |p: &str| flat.iter().position(|x| *x == p).unwrap();
        assert_eq!(at("coordination_lv"), at("coordination") + 1);
        assert_eq!(flat.len(), 8);
    }
}
