//! The search: greedy coordinate ascent over everything a profile can say, from the base
//! profile's values.
//!
//! Settings are resolved when rules are compiled (guards keep or drop rules, list settings
//! become relation filters, label templates are filled in), so each candidate is compiled once
//! into its own engine; what does not change between candidates (the sample's sentences, their
//! gold texts, the base's scores per sentence) is read or computed once. Each round tries, in
//! turn, the shipped rule files and lexicons the base does not load ([`Library`]), each setting
//! — a boolean flipped, each value of an enumeration, each item of a list toggled (the
//! relations, UPOS tags, enhancements, feature values and marker lemmas the sample has) — the
//! learnable lexicon lists with the words the gold evidences, and last each rule switched off;
//! a change is kept when it lowers the wrong edges of the sample by [`MIN_GAIN`] or more and
//! betters enough sentences ([`MIN_BETTER`], [`BETTER_PER_WORSE`]); rounds repeat until none is
//! kept.

use super::evidence::{self, Evidence};
use super::library::Library;
use super::profile::{active_rules, compile, Choices, DISABLE_KEY, LEXICONS_KEY, RULES_KEY};
use super::sample::{errors, total, Sample};
use crate::conllu::sentence::{DEPREL, DEPS, FEATS, FORM, UPOS};
use crate::error::Error;
use crate::eval::Score;
use crate::rules::load::ParseCache;
use crate::rules::profile::{SettingValue, Settings};
use crate::rules::vocabulary::{Items, SettingDecl, Vocabulary};
use std::collections::{BTreeMap, BTreeSet};

/// Wrong edges (missing plus extra) a change must remove to be kept: one edge set right.
pub const MIN_GAIN: u64 = 2;

/// Sentences a change must make better to be kept, and how many times more than it makes
/// worse: a change one or two sentences ask for, or that trades sentences for sentences, is the
/// sample's noise more often than the treebank's convention (fitted from a hand-written profile,
/// such changes lost ELAS on the other half of the dev file).
pub const MIN_BETTER: usize = 3;
pub const BETTER_PER_WORSE: usize = 5;

/// The setting that lists the enhancements a profile annotates.
const ANNOTATES: &str = "annotates";

/// Rounds over every setting at most (the search stops earlier when a round keeps nothing).
const ROUNDS: usize = 2;

/// Labels tried for a setting whose value is one enhanced label: the most frequent plain
/// labels of the gold graphs.
const LABEL_CANDIDATES: usize = 6;

/// One change the search kept, with its evidence on the sample.
#[derive(Clone, Debug)]
pub struct Step {
    /// The settings or lexicon list (`group.list`) changed: one, or a setting and one that
    /// refines it.
    pub keys: Vec<String>,
    /// What changed, as the profile writes it (`true`, `+ obl:*`, `- nsubj`).
    pub change: String,
    pub before: Score,
    pub after: Score,
    /// Sentences that score better with the change, and worse.
    pub better: usize,
    pub worse: usize,
}

/// What the search found.
pub struct Outcome {
    pub choices: Choices,
    pub steps: Vec<Step>,
    pub base_score: Score,
    pub fitted_score: Score,
    /// Candidates compiled and scored.
    pub trials: usize,
    /// The words evidenced for each learnable lexicon list (those the base lacks).
    pub evidence: BTreeMap<String, Evidence>,
}

/// The values the sample shows, from which list items and labels are drawn.
struct Universe {
    relations: Vec<String>,
    subtyped: BTreeSet<String>,
    upos: Vec<String>,
    features: BTreeMap<String, Vec<String>>,
    labels: Vec<String>,
    /// Lemmas of `case` words (lower-cased), for lists of markers.
    markers: Vec<String>,
    /// Forms of punctuation, for lists of marks.
    marks: Vec<String>,
}

impl Universe {
    /// The values of the sentences `indices`, each kept when [`MIN_BETTER`] sentences or more
    /// show it (a change that concerns fewer could never be kept).
    fn of(sample: &Sample, indices: &[usize]) -> Universe {
        // Value → sentences showing it, counted once per sentence.
        let mut seen: BTreeMap<(u8, String), usize> = BTreeMap::new();
        let mut labels: BTreeMap<String, usize> = BTreeMap::new();
        const RELATION: u8 = 0;
        const SUBTYPED: u8 = 1;
        const UPOS_TAG: u8 = 2;
        const FEATURE: u8 = 3;
        const MARKER: u8 = 4;
        const MARK: u8 = 5;
        for &i in indices {
            let sentence = &sample.sentences[i];
            let mut here: BTreeSet<(u8, String)> = BTreeSet::new();
            for token in &sentence.words {
                let deprel = sentence.column(token, DEPREL);
                let (univ, sub) = deprel.split_once(':').unwrap_or((deprel, ""));
                here.insert((RELATION, univ.to_string()));
                if !sub.is_empty() {
                    here.insert((SUBTYPED, univ.to_string()));
                }
                let upos = sentence.column(token, UPOS);
                here.insert((UPOS_TAG, upos.to_string()));
                if univ == "case" {
                    here.insert((MARKER, evidence::lemma_of(sentence, token)));
                }
                if upos == "PUNCT" {
                    here.insert((MARK, sentence.column(token, FORM).to_string()));
                }
                for feature in sentence.column(token, FEATS).split('|') {
                    if let Some((name, values)) = feature.split_once('=') {
                        for value in values.split(',') {
                            here.insert((FEATURE, format!("{name}={value}")));
                        }
                    }
                }
                if sentence.column(token, DEPS) != "_" {
                    for (_, label) in sentence.deps(token) {
                        if !label.contains(':') {
                            *labels.entry(label.to_string()).or_default() += 1;
                        }
                    }
                }
            }
            for value in here {
                *seen.entry(value).or_default() += 1;
            }
        }
        let of_kind = |kind: u8| -> Vec<String> {
            seen.iter()
                .filter(|((k, _), n)| *k == kind && **n >= MIN_BETTER)
                .map(|((_, v), _)| v.clone())
                .collect()
        };
        let mut features: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for pair in of_kind(FEATURE) {
            let (name, value) = pair.split_once('=').expect("written as name=value");
            features
                .entry(name.to_string())
                .or_default()
                .push(value.to_string());
        }
        let mut labels: Vec<(String, usize)> = labels.into_iter().collect();
        labels.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Universe {
            relations: of_kind(RELATION)
                .into_iter()
                .filter(|r| crate::ud::RELATIONS.contains(&r.as_str()))
                .collect(),
            subtyped: of_kind(SUBTYPED).into_iter().collect(),
            upos: of_kind(UPOS_TAG).into_iter().filter(|u| u != "_").collect(),
            features,
            labels: labels
                .into_iter()
                .take(LABEL_CANDIDATES)
                .map(|(l, _)| l)
                .collect(),
            markers: of_kind(MARKER),
            marks: of_kind(MARK),
        }
    }

    /// The values a text list may hold, by the setting's name: the sample's Case values
    /// (`*_cases`), VerbForm values (`*_verbforms`), lemmas of `case` words (`*_markers`),
    /// punctuation forms (`*_marks`); none for other lists, which are not searched.
    fn text_items(&self, setting: &str) -> &[String] {
        let feature = |name: &str| self.features.get(name).map_or(&[][..], Vec::as_slice);
        if setting.ends_with("_cases") {
            feature("Case")
        } else if setting.ends_with("_verbforms") {
            feature("VerbForm")
        } else if setting.ends_with("_markers") {
            &self.markers
        } else if setting.ends_with("_marks") {
            &self.marks
        } else {
            &[]
        }
    }
}

/// A list with `item` toggled: the items matching it removed, or it added.
fn toggled(list: &[String], item: &str, pattern: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = list.iter().filter(|i| !pattern(i)).cloned().collect();
    if out.len() == list.len() {
        out.push(item.to_string());
        out.sort();
    }
    out
}

/// Every candidate value of setting `name` from its current value, each with how the change
/// is written.
fn candidates(
    name: &str,
    decl: &SettingDecl,
    current: &SettingValue,
    universe: &Universe,
    vocabulary: &Vocabulary,
) -> Vec<(SettingValue, String)> {
    let mut out = Vec::new();
    match current {
        SettingValue::Bool(b) => out.push((SettingValue::Bool(!b), (!b).to_string())),
        SettingValue::Text(now) => {
            let values: Vec<String> = match decl.items {
                _ if !decl.values.is_empty() => decl.values.clone(),
                Items::Label => universe.labels.clone(),
                _ => Vec::new(),
            };
            for value in values.into_iter().filter(|v| v != now) {
                out.push((SettingValue::Text(value.clone()), format!("{value:?}")));
            }
        }
        SettingValue::List(list) => {
            let items: Vec<Toggle> = match decl.items {
                Items::Relation => universe
                    .relations
                    .iter()
                    .map(|r| {
                        let item = match universe.subtyped.contains(r) {
                            true => format!("{r}:*"),
                            false => r.clone(),
                        };
                        let prefix = format!("{r}:");
                        let r = r.clone();
                        let matches: Box<dyn Fn(&str) -> bool> =
                            Box::new(move |i: &str| i == r || i.starts_with(&prefix));
                        (item, matches)
                    })
                    .collect(),
                Items::Upos => universe.upos.iter().map(|u| exact(u)).collect(),
                Items::Enhancement => vocabulary.enhancement_names().map(exact).collect(),
                Items::Text | Items::Label => {
                    universe.text_items(name).iter().map(|v| exact(v)).collect()
                }
            };
            for (item, matches) in items {
                let next = toggled(list, &item, matches);
                let change = match next.len() > list.len() {
                    true => format!("+ {item}"),
                    false => format!("- {item}"),
                };
                out.push((SettingValue::List(next), change));
            }
        }
    }
    out
}

/// A list item to toggle, and which items of a list it stands for (removed when toggled off).
type Toggle = (String, Box<dyn Fn(&str) -> bool>);

fn exact(item: &str) -> Toggle {
    let owned = item.to_string();
    (item.to_string(), Box::new(move |i: &str| i == owned))
}

/// Counts of sentences scoring better and worse in `after` than in `before`.
fn compare(before: &[Score], after: &[Score]) -> (usize, usize) {
    let (mut better, mut worse) = (0, 0);
    for (b, a) in before.iter().zip(after) {
        match errors(a).cmp(&errors(b)) {
            std::cmp::Ordering::Less => better += 1,
            std::cmp::Ordering::Greater => worse += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    (better, worse)
}

/// What a search starts from: the base profile with its resolved settings and lexicons, and
/// what the embedded rules offer beyond it.
pub struct Base<'a> {
    pub name: &'a str,
    pub settings: &'a Settings,
    pub lexicon: &'a crate::rules::lexicon::Lexicon,
    pub library: &'a Library,
}

/// Fits `name` over `base` to the sentences `indices` of `sample`.
pub fn search(
    sample: &Sample,
    indices: &[usize],
    start: &Base,
    name: &str,
    vocabulary: &Vocabulary,
) -> Result<Outcome, Error> {
    let (base, base_settings, base_lexicon, library) =
        (start.name, start.settings, start.lexicon, start.library);
    let universe = Universe::of(sample, indices);
    let subset: Vec<_> = indices
        .iter()
        .map(|&i| sample.sentences[i].clone())
        .collect();
    let evidence: BTreeMap<String, Evidence> = evidence::learn(&subset)
        .into_iter()
        .map(|(list, words)| {
            let known = base_lexicon.get(&list);
            let words: Evidence = words
                .into_iter()
                .filter(|(w, _)| !known.is_some_and(|k| k.contains(w)))
                .collect();
            (list, words)
        })
        .collect();
    let mut choices = Choices::default();
    let mut trials = 1;
    let mut cache = ParseCache::default();
    // The current profile's output and score per sentence: a candidate is scored on the
    // sentences whose output it changes only.
    let mut outputs = sample.outputs(&compile(name, base, &choices, &mut cache)?, indices)?;
    let (mut scores, _) = {
        let texts: Vec<&str> = outputs.iter().map(String::as_str).collect();
        sample.score_outputs(indices, &texts, false)?
    };
    let base_score = total(&scores);
    let mut steps = Vec::new();
    // `annotates` last: an enhancement the base gets wrong is first given the chance to be
    // set right by the settings that spell it (the controlled subject's label) before it is
    // dropped.
    let mut order: Vec<&String> = vocabulary.settings.keys().collect();
    order.sort_by_key(|name| (name.as_str() == ANNOTATES, name.as_str()));
    let value_of = |choices: &Choices, setting: &str| -> SettingValue {
        choices
            .settings
            .get(setting)
            .or_else(|| base_settings.get(setting))
            .cloned()
            .unwrap_or_else(|| vocabulary.settings[setting].default.clone())
    };
    // `choices` with `setting` at `value` (dropped where that is the base's value).
    let with = |choices: &Choices, setting: &str, value: SettingValue| -> Choices {
        let mut trial = choices.clone();
        if base_settings.get(setting) == Some(&value) {
            trial.settings.remove(setting);
        } else {
            trial.settings.insert(setting.to_string(), value);
        }
        trial
    };
    // Settings that refine another, by its name: their documentation starts `with NAME`.
    let mut refinements: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for (name, decl) in &vocabulary.settings {
        let refined = decl.doc.strip_prefix("with ").map(|rest| {
            rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default()
        });
        if let Some(refined) = refined.filter(|r| vocabulary.settings.contains_key(*r)) {
            refinements.entry(refined).or_default().push(name);
        }
    }
    for _ in 0..ROUNDS {
        let mut kept = false;
        let mut consider = |choices: &mut Choices,
                            scores: &mut Vec<Score>,
                            trial: Choices,
                            keys: &[&str],
                            change: String|
         -> Result<bool, Error> {
            trials += 1;
            // A candidate the rules refuse (a list item some rule's constraints contradict) is
            // no candidate.
            let Ok(engine) = compile(name, base, &trial, &mut cache) else {
                return Ok(false);
            };
            let produced = sample.outputs(&engine, indices)?;
            let changed: Vec<usize> = (0..indices.len())
                .filter(|&p| produced[p] != outputs[p])
                .collect();
            if changed.is_empty() {
                return Ok(false);
            }
            let gold: Vec<usize> = changed.iter().map(|&p| indices[p]).collect();
            let texts: Vec<&str> = changed.iter().map(|&p| produced[p].as_str()).collect();
            let (rescored, _) = sample.score_outputs(&gold, &texts, false)?;
            let mut next = scores.clone();
            for (&p, score) in changed.iter().zip(rescored) {
                next[p] = score;
            }
            let (before, after) = (total(scores), total(&next));
            let (better, worse) = compare(scores, &next);
            if errors(&after) + MIN_GAIN <= errors(&before)
                && better >= MIN_BETTER
                && worse * BETTER_PER_WORSE <= better
            {
                steps.push(Step {
                    keys: keys.iter().map(|k| k.to_string()).collect(),
                    change,
                    before,
                    after,
                    better,
                    worse,
                });
                *choices = trial;
                *scores = next;
                outputs = produced;
                kept = true;
                return Ok(true);
            }
            Ok(false)
        };
        // Shipped rule files first (the settings may then tune what a file adds): a folder
        // whole, else each of its files; each also with the lexicon of the folder's name, which
        // its rules may read.
        for (folder, files) in &library.folders {
            let fresh: Vec<&String> = files
                .iter()
                .filter(|f| !choices.rules.contains(f))
                .collect();
            let lexicon = library.lexicons.iter().find(|l| *l == folder);
            let mut units: Vec<(Vec<&String>, String)> = Vec::new();
            if fresh.len() > 1 {
                units.push((fresh.clone(), format!("{folder}/*.rules")));
            }
            units.extend(fresh.iter().map(|f| (vec![*f], f.to_string())));
            for (unit, shown) in units {
                if unit.iter().any(|f| choices.rules.contains(f)) {
                    continue;
                }
                let mut trial = choices.clone();
                trial.rules.extend(unit.iter().map(|f| f.to_string()));
                trial.phases = library.phases_with(&trial.rules);
                let change = format!("+ {shown}");
                if consider(
                    &mut choices,
                    &mut scores,
                    trial.clone(),
                    &[RULES_KEY],
                    change,
                )? {
                    continue;
                }
                let Some(lexicon) = lexicon.filter(|l| !choices.lexicons.contains(l)) else {
                    continue;
                };
                trial.lexicons.push(lexicon.clone());
                let change = format!("+ {shown} with lexicon {lexicon}");
                consider(
                    &mut choices,
                    &mut scores,
                    trial,
                    &[RULES_KEY, LEXICONS_KEY],
                    change,
                )?;
            }
        }
        for lexicon in &library.lexicons {
            if choices.lexicons.contains(lexicon) {
                continue;
            }
            let mut trial = choices.clone();
            trial.lexicons.push(lexicon.clone());
            let change = format!("+ {lexicon}");
            consider(&mut choices, &mut scores, trial, &[LEXICONS_KEY], change)?;
        }
        for setting in &order {
            let decl = &vocabulary.settings[*setting];
            // Each candidate from the value as it is now: items toggled one after another.
            let mut tried = 0;
            let mut kept_here = false;
            loop {
                let current = value_of(&choices, setting);
                let all = candidates(setting, decl, &current, &universe, vocabulary);
                let Some((value, change)) = all.into_iter().nth(tried) else {
                    break;
                };
                tried += 1;
                let trial = with(&choices, setting, value);
                // A kept toggle changes the list the next candidates toggle from; the candidates
                // of a list keep their order, so the count of those tried still holds.
                kept_here |= consider(&mut choices, &mut scores, trial, &[setting], change)?;
            }
            if kept_here {
                continue;
            }
            // A setting that refines this one (`with case_feature, …`) may be what makes its
            // change right: each candidate tried with each of theirs.
            let current = value_of(&choices, setting);
            'joint: for (value, change) in
                candidates(setting, decl, &current, &universe, vocabulary)
            {
                for refining in refinements.get(setting.as_str()).into_iter().flatten() {
                    let own = &vocabulary.settings[*refining];
                    let now = value_of(&choices, refining);
                    for (second, second_change) in
                        candidates(refining, own, &now, &universe, vocabulary)
                    {
                        let trial = with(&with(&choices, setting, value.clone()), refining, second);
                        let change = format!("{change} with {refining} {second_change}");
                        if consider(
                            &mut choices,
                            &mut scores,
                            trial,
                            &[setting, refining],
                            change,
                        )? {
                            break 'joint;
                        }
                    }
                }
            }
        }
        for (list, words) in &evidence {
            if words.is_empty() || choices.lexicon.contains_key(list) {
                continue;
            }
            let mut trial = choices.clone();
            trial
                .lexicon
                .insert(list.clone(), words.keys().cloned().collect());
            let change = format!("+ {} words", words.len());
            if consider(
                &mut choices,
                &mut scores,
                trial.clone(),
                &[list],
                change.clone(),
            )? {
                continue;
            }
            // A list only the rules of an enhancement the profile does not annotate read
            // (relative markers: zero relatives) is tried with that enhancement added.
            let decl = &vocabulary.settings[ANNOTATES];
            let now = value_of(&choices, ANNOTATES);
            for (value, added) in candidates(ANNOTATES, decl, &now, &universe, vocabulary) {
                if !added.starts_with('+') {
                    continue;
                }
                let joint = with(&trial, ANNOTATES, value);
                let change = format!("{change} with {ANNOTATES} {added}");
                if consider(&mut choices, &mut scores, joint, &[list, ANNOTATES], change)? {
                    break;
                }
            }
        }
        // Rules switched off last: the bluntest change, tried once nothing finer serves.
        // (A load of its own: `consider` holds the search's parse cache.)
        for rule in active_rules(name, base, &choices, &mut ParseCache::default())? {
            let mut trial = choices.clone();
            trial.disable.push(rule.clone());
            let change = format!("+ {rule}");
            consider(&mut choices, &mut scores, trial, &[DISABLE_KEY], change)?;
        }
        if !kept {
            break;
        }
    }
    Ok(Outcome {
        fitted_score: total(&scores),
        base_score,
        choices,
        steps,
        trials,
        evidence,
    })
}
