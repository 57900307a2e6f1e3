//! Counts, percentages and the report: ELAS, EULAS and LAS as the IWPT 2021 scorer computes them
//! with gold tokenization, plus the optional per-phenomenon breakdown.

use super::collapse::{universal, CollapsedGraph};
use super::phenomena::{Phenomenon, PhenomenonScores};
use crate::conllu::sentence::DEPREL;
use crate::conllu::Sentence;
use serde_json::{json, Value};
use std::fmt;

/// Edge counts of one metric: how many edges gold and system have, and how many match.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub gold: u64,
    pub system: u64,
    pub correct: u64,
}

impl Score {
    /// Precision in percent (0 when the system has no edges).
    pub fn precision(&self) -> f64 {
        percent(self.correct, self.system)
    }

    /// Recall in percent (0 when gold has no edges).
    pub fn recall(&self) -> f64 {
        percent(self.correct, self.gold)
    }

    /// F1 in percent: `2PR / (P + R)`, computed as `2·correct / (gold + system)` (the same value
    /// without the rounding of P and R); 0 when both are 0.
    pub fn f1(&self) -> f64 {
        percent(2 * self.correct, self.gold + self.system)
    }

    pub fn add(&mut self, other: Score) {
        self.gold += other.gold;
        self.system += other.system;
        self.correct += other.correct;
    }

    fn to_json(self) -> Value {
        json!({ "p": self.precision(), "r": self.recall(), "f1": self.f1() })
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The result of comparing a system file with a gold file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub sentences: u64,
    pub words: u64,
    /// Enhanced labelled attachment score over collapsed edges, full label paths.
    pub elas: Score,
    /// Like ELAS, with every label of a path cut to its universal part.
    pub eulas: Score,
    /// Basic-tree labelled attachment score (universal DEPREL, as in CoNLL 2018).
    pub las: Score,
    /// Present when [`super::EvalOptions::phenomena`] was set.
    pub phenomena: Option<PhenomenonScores>,
}

impl Report {
    /// `{"ELAS": {"p","r","f1"}, "EULAS": …, "LAS": …}` in percent, plus
    /// `"phenomena": {class: {"p","r","f1","gold","system","correct"}}` when computed.
    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "ELAS": self.elas.to_json(),
            "EULAS": self.eulas.to_json(),
            "LAS": self.las.to_json(),
        });
        if let Some(phenomena) = &self.phenomena {
            let mut classes = serde_json::Map::new();
            for (class, score) in phenomena.iter() {
                let mut entry = score.to_json();
                entry["gold"] = json!(score.gold);
                entry["system"] = json!(score.system);
                entry["correct"] = json!(score.correct);
                classes.insert(class.code().to_string(), entry);
            }
            out["phenomena"] = Value::Object(classes);
        }
        out
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}, {}", crate::text::count(self.sentences, "sentence"), crate::text::count(self.words, "word"))?;
        writeln!(
            f,
            "{:<24} {:>7} {:>7} {:>7} {:>8} {:>8} {:>8}",
            "Metric", "P", "R", "F1", "Gold", "System", "Correct"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, s: &Score| {
            writeln!(
                f,
                "{:<24} {:>7.2} {:>7.2} {:>7.2} {:>8} {:>8} {:>8}",
                name,
                s.precision(),
                s.recall(),
                s.f1(),
                s.gold,
                s.system,
                s.correct
            )
        };
        row(f, "ELAS", &self.elas)?;
        row(f, "EULAS", &self.eulas)?;
        row(f, "LAS", &self.las)?;
        if let Some(phenomena) = &self.phenomena {
            writeln!(f, "Phenomena (see docs/phenomena.md):")?;
            for (class, score) in phenomena.iter() {
                if class == Phenomenon::FIRST_MISSING {
                    writeln!(f, "Basic edges missing from the enhanced graph:")?;
                }
                row(f, &format!("  {} {}", class.code(), class.name()), score)?;
            }
        }
        Ok(())
    }
}

/// ELAS and EULAS of one sentence pair, exactly as `iwpt21_xud_eval.py` counts them: every
/// (gold edge, system edge) pair into the same word with the same head and path is a match, so
/// for EULAS a gold edge matches twice when two system edges reduce to its universal path (edges
/// are sets per word after collapsing, so for ELAS each gold edge matches at most once).
pub fn enhanced_scores(gold: &CollapsedGraph, system: &CollapsedGraph) -> (Score, Score) {
    let edges = |g: &CollapsedGraph| g.edge_count() as u64;
    let mut elas = Score {
        gold: edges(gold),
        system: edges(system),
        correct: 0,
    };
    let mut eulas = elas;
    let (mut gold_keys, mut system_keys) = (Vec::new(), Vec::new());
    for d in 1..=gold.word_count().min(system.word_count()) as u32 {
        let (g, s) = (gold.edges_into(d), system.edges_into(d));
        gold_keys.clear();
        gold_keys.extend(g.iter().map(|e| (e.head, gold.path(e))));
        system_keys.clear();
        system_keys.extend(s.iter().map(|e| (e.head, system.path(e))));
        elas.correct += matching_pairs(&mut gold_keys, &mut system_keys);
        gold_keys.clear();
        gold_keys.extend(g.iter().map(|e| (e.head, gold.universal_path(e))));
        system_keys.clear();
        system_keys.extend(s.iter().map(|e| (e.head, system.universal_path(e))));
        eulas.correct += matching_pairs(&mut gold_keys, &mut system_keys);
    }
    (elas, eulas)
}

/// How many (gold, system) pairs have equal keys, i.e. what the official scorer's nested loop
/// counts, computed as the sum over keys of gold count × system count in O(n log n) so that
/// adversarial input with thousands of edges per word cannot make it quadratic.
fn matching_pairs<K: Ord + Copy>(gold: &mut [K], system: &mut [K]) -> u64 {
    gold.sort_unstable();
    system.sort_unstable();
    let (mut i, mut j, mut pairs) = (0, 0, 0u64);
    while i < gold.len() && j < system.len() {
        match gold[i].cmp(&system[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let key = gold[i];
                let gold_run = gold[i..].iter().take_while(|&&k| k == key).count();
                let system_run = system[j..].iter().take_while(|&&k| k == key).count();
                pairs += (gold_run * system_run) as u64;
                i += gold_run;
                j += system_run;
            }
        }
    }
    pairs
}

/// LAS of one sentence pair with aligned words: same HEAD and same universal DEPREL.
pub fn basic_score(gold: &Sentence, system: &Sentence) -> Score {
    let mut score = Score {
        gold: gold.len() as u64,
        system: system.len() as u64,
        correct: 0,
    };
    for (g, s) in gold.words.iter().zip(&system.words) {
        let same_label = universal(gold.column(g, DEPREL)) == universal(system.column(s, DEPREL));
        if g.head == s.head && same_label {
            score.correct += 1;
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_util::sentence;

    fn scores(gold: &Sentence, system: &Sentence) -> (Score, Score) {
        let (mut g, mut s) = (CollapsedGraph::default(), CollapsedGraph::default());
        g.build(gold).unwrap();
        s.build(system).unwrap();
        enhanced_scores(&g, &s)
    }

    #[test]
    fn eulas_counts_every_matching_pair_like_the_official_scorer() {
        let gold = sentence(&[
            ("1", "2", "obl", "2:obl:from"),
            ("2", "0", "root", "0:root"),
        ]);
        // Two system edges reduce to the universal `obl`: the one gold edge is matched twice.
        let system = sentence(&[
            ("1", "2", "obl", "2:obl:in|2:obl:on"),
            ("2", "0", "root", "0:root"),
        ]);
        let (elas, eulas) = scores(&gold, &system);
        assert_eq!(
            elas,
            Score {
                gold: 2,
                system: 3,
                correct: 1
            }
        );
        assert_eq!(
            eulas,
            Score {
                gold: 2,
                system: 3,
                correct: 3
            }
        );
        assert!((eulas.precision() - 100.0).abs() < 1e-9);
        assert!((eulas.recall() - 150.0).abs() < 1e-9);
    }

    #[test]
    fn elas_needs_the_whole_path_and_eulas_its_universal_parts() {
        let gold = sentence(&[
            ("1", "0", "root", "0:root"),
            ("1.1", "_", "_", "1:conj:and"),
            ("2", "1", "obl", "1.1:obl:from"),
        ]);
        let system = sentence(&[
            ("1", "0", "root", "0:root"),
            ("1.1", "_", "_", "1:conj:or"),
            ("2", "1", "obl", "1.1:obl:to"),
        ]);
        let (elas, eulas) = scores(&gold, &system);
        assert_eq!(
            elas,
            Score {
                gold: 2,
                system: 2,
                correct: 1
            }
        );
        assert_eq!(
            eulas,
            Score {
                gold: 2,
                system: 2,
                correct: 2
            }
        );
    }

    #[test]
    fn heads_must_match() {
        let gold = sentence(&[
            ("1", "2", "nsubj", "2:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "obj", "2:obj"),
        ]);
        let system = sentence(&[
            ("1", "3", "nsubj", "3:nsubj"),
            ("2", "0", "root", "0:root"),
            ("3", "2", "obj", "2:obj"),
        ]);
        let (elas, _) = scores(&gold, &system);
        assert_eq!(elas.correct, 2);
        assert_eq!(
            basic_score(&gold, &system),
            Score {
                gold: 3,
                system: 3,
                correct: 2
            }
        );
    }

    #[test]
    fn las_ignores_subtypes() {
        let gold = sentence(&[("1", "2", "nsubj:pass", "_"), ("2", "0", "root", "_")]);
        let system = sentence(&[("1", "2", "nsubj", "_"), ("2", "0", "root", "_")]);
        assert_eq!(basic_score(&gold, &system).correct, 2);
    }

    #[test]
    fn matching_pairs_counts_like_a_nested_loop() {
        let mut gold = [3, 1, 2, 2, 5];
        let mut system = [2, 2, 2, 1, 4];
        let nested = gold
            .iter()
            .map(|g| system.iter().filter(|&s| s == g).count() as u64)
            .sum::<u64>();
        assert_eq!(matching_pairs(&mut gold, &mut system), nested);
        assert_eq!(nested, 7);
    }

    #[test]
    fn no_edges_give_zero_not_nan() {
        let s = Score::default();
        assert_eq!((s.precision(), s.recall(), s.f1()), (0.0, 0.0, 0.0));
    }
}
