//! Rounds: one stage's rules run to a fixpoint. Each round finds every rule's matches first,
//! then applies them in rule order, and logs what it changed ([`Changes`]); the next round
//! searches a rule whole only when those changes can make matches anywhere, and otherwise from
//! the edges the round added (semi-naive evaluation). A rule fires once per match
//! ([`Fired`]); a rule set that keeps creating matches is stopped by the sentence's
//! [`Limits`].

use super::apply::apply;
use super::binding::{Binding, EdgeRefId};
use super::changes::Changes;
use super::kinds::Kinds;
use super::lemmas::Lemmas;
use super::rule::CompiledRule;
use super::search::{search, Budget};
use crate::graph::{Origin, SentenceGraph};

/// Rule applications allowed per sentence: a fixed floor plus a share per word, far above what
/// any terminating rule set needs (each match fires once per phase).
pub const STEPS_FLOOR: usize = 1_000;
const STEPS_PER_WORD: usize = 50;
/// Nodes and edges a sentence's graph may gain over its basic tree: a floor plus a share per
/// word. The dev treebanks gain under one edge per word; a rule set that grows the graph
/// without end (or quadratically, as sharing every dependent of a 10,000-item coordination would)
/// is stopped before it costs more memory than a few copies of the sentence.
const GROWTH_FLOOR: usize = 1_000;
const GROWTH_PER_WORD: usize = 10;

/// Search work allowed per sentence ([`Budget`]: candidate bindings tried, by every search of
/// every rule in every round): `per_word × (words + 10)`, a sentence counted as at least ten
/// words long. At the default (10,000) the dev treebanks' costliest sentence spends well under
/// a hundredth of its budget, and a pattern whose search grows as a high power of the
/// sentence's length is stopped within a fraction of a second.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WorkBudget {
    pub per_word: u64,
}

/// The words a sentence counts as besides its own ([`WorkBudget`]).
const WORK_FLOOR_WORDS: u64 = 10;

impl Default for WorkBudget {
    fn default() -> WorkBudget {
        WorkBudget { per_word: 10_000 }
    }
}

impl WorkBudget {
    /// The candidates a sentence of `words` words may try.
    pub fn for_words(self, words: usize) -> u64 {
        self.per_word
            .saturating_mul((words as u64).saturating_add(WORK_FLOOR_WORDS))
    }
}

/// What a sentence's enhancement may spend before it is stopped as a runaway: rule
/// applications, nodes plus edges gained over the basic tree, and search work. Labels are
/// bounded by [`super::apply::MAX_LABEL_BYTES`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub steps: usize,
    pub growth: usize,
    /// Candidate bindings the searches may try ([`WorkBudget`]).
    pub work: u64,
    /// Nodes plus edges of the graph before any rule ran.
    pub base: usize,
}

impl Limits {
    /// The limits of `graph`'s sentence, as the graph is now (its basic tree), with `work` the
    /// search work allowed.
    pub fn of(graph: &SentenceGraph, work: WorkBudget) -> Limits {
        let words = graph.word_count() as usize;
        Limits {
            steps: STEPS_FLOOR + STEPS_PER_WORD * words,
            growth: GROWTH_FLOOR + GROWTH_PER_WORD * words,
            work: work.for_words(words),
            base: graph_size(graph),
        }
    }
}

/// What a sentence's enhancement has spent so far, across its stages: rule applications, and
/// the search work left.
#[derive(Copy, Clone, Debug)]
pub struct Spent {
    pub steps: usize,
    pub work: Budget,
}

impl Spent {
    /// Nothing spent yet, under `limits`.
    pub fn new(limits: Limits) -> Spent {
        Spent {
            steps: 0,
            work: Budget::new(limits.work),
        }
    }
}

fn graph_size(graph: &SentenceGraph) -> usize {
    graph.petgraph().node_count() + graph.petgraph().edge_count()
}

/// Which limit a runaway reached, with its value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Rule applications.
    Steps(usize),
    /// Nodes plus edges gained.
    Growth(usize),
    /// Candidate bindings tried by the searches.
    Work(u64),
}

/// Rounds that reached a limit: the rule (an index into the rules) applied or found last.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Runaway {
    pub rule: usize,
    pub limit: Limit,
}

/// The buffers rounds reuse from stage to stage and sentence to sentence.
#[derive(Debug, Default)]
pub struct RoundBuffers {
    /// Matches already applied in the current stage (a rule fires once per match).
    fired: Fired,
    /// Matches found in the current round (the first `match_count`), applied after the
    /// search; later entries are kept for their buffers.
    matches: Vec<(usize, Binding)>,
    match_count: usize,
    /// The label being built by an action.
    label: String,
    /// The variables of the rule being searched.
    binding: Binding,
    /// What the current round changes, and what the previous one changed.
    changes: Changes,
    last: Changes,
}

impl RoundBuffers {
    /// Drops the matches and changes of a runaway, which can number millions: not kept for the
    /// next sentence.
    pub fn forget_runaway(&mut self) {
        self.matches = Vec::new();
        self.fired = Fired::default();
        self.changes = Changes::default();
        self.last = Changes::default();
    }
}

/// The rules of one stage (a phase, or a group of phases), run to a fixpoint.
pub struct Rounds<'r> {
    /// Every rule of the rule set (the stage's are indices into it).
    pub all: &'r [CompiledRule],
    /// The stage's rules to run: those whose anchor admits the sentence's basic tree (a rule
    /// the tree rules out is searched in vain; rounds check only the part of an anchor they
    /// change, [`super::anchor::Anchor::admits_graph`]).
    pub rules: &'r [usize],
    /// Search every rule whole in every round (see [`super::Engine::exhaustive_rounds`]).
    pub exhaustive: bool,
}

impl Rounds<'_> {
    /// Runs the stage on `graph` to a fixpoint. `spent` counts what the sentence spent so far.
    pub fn run(
        &self,
        graph: &mut SentenceGraph,
        lemmas: &mut Lemmas,
        spent: &mut Spent,
        limits: Limits,
        buffers: &mut RoundBuffers,
    ) -> Result<(), Runaway> {
        let (all, rules, exhaustive) = (self.all, self.rules, self.exhaustive);
        let RoundBuffers {
            fired,
            matches,
            match_count,
            label,
            binding,
            changes,
            last,
        } = buffers;
        let Spent {
            steps,
            work: budget,
        } = spent;
        // Clearing a hash table costs its capacity even when it is empty.
        if !fired.is_empty() {
            fired.clear();
        }
        let mut first_round = true;
        changes.seeds = !exhaustive && rules.iter().any(|&r| !all[r].delta_plans.is_empty());
        last.seeds = changes.seeds;
        let mut kinds = Kinds::of(graph);
        loop {
            *match_count = 0;
            // Every match found is applied: finding more than the steps left is a runaway, found
            // before the matches fill memory.
            let over_limit = std::cell::Cell::new(None);
            // The rule whose search spent the budget, if one did.
            let mut searched_last = 0;
            for &r in rules {
                let compiled = &all[r];
                let search_whole = first_round || exhaustive || compiled.must_search_whole(last);
                // A later round searches a rule whole or from its seeds, or not at all; the
                // candidates passed the tree's part of the anchor.
                if !(search_whole || searches_seeds(compiled, last))
                    || !compiled.anchor.admits_graph(kinds)
                {
                    continue;
                }
                let match_vars = compiled.match_vars;
                binding.reset(compiled.vars, compiled.edge_vars);
                let graph: &SentenceGraph = graph;
                // A rule searched once per phase finds each match once: nothing to record.
                let record = exhaustive || !compiled.searched_once;
                let mut found = |b: &Binding| {
                    if *steps + *match_count >= limits.steps {
                        over_limit.set(Some(r));
                        return false;
                    }
                    if !record || fired.insert(r as u32, b, match_vars) {
                        if matches.len() == *match_count {
                            matches.push((r, Binding::default()));
                        }
                        let (rule, kept) = &mut matches[*match_count];
                        *rule = r;
                        kept.keep(b, graph);
                        *match_count += 1;
                    }
                    true
                };
                if search_whole {
                    search(
                        graph,
                        lemmas,
                        &compiled.plan,
                        &compiled.withouts,
                        binding,
                        budget,
                        &mut found,
                    );
                    if over_limit.get().is_some() || budget.exhausted() {
                        searched_last = r;
                        break;
                    }
                    continue;
                }
                // Semi-naive: a new match uses an edge the last round added (a seed whose relation
                // the pattern edge does not take is rejected by `admits_seed`).
                for delta in &compiled.delta_plans {
                    let (test, plan) = (&compiled.plan.pattern.edges[delta.edge], &delta.plan);
                    for added in &last.added {
                        let (head, dependent) = (added.head, added.dependent);
                        if !delta.admits_seed(graph, head, dependent, added.code) {
                            continue;
                        }
                        binding.nodes[test.from] = Some(head);
                        binding.nodes[test.to] = Some(dependent);
                        search(
                            graph,
                            lemmas,
                            plan,
                            &compiled.withouts,
                            binding,
                            budget,
                            &mut found,
                        );
                        binding.nodes[test.from] = None;
                        binding.nodes[test.to] = None;
                        if over_limit.get().is_some() || budget.exhausted() {
                            break;
                        }
                    }
                }
                if over_limit.get().is_some() || budget.exhausted() {
                    searched_last = r;
                    break;
                }
            }
            if let Some(rule) = over_limit.get() {
                return Err(Runaway {
                    rule,
                    limit: Limit::Steps(limits.steps),
                });
            }
            if budget.exhausted() {
                return Err(Runaway {
                    rule: searched_last,
                    limit: Limit::Work(limits.work),
                });
            }
            first_round = false;
            changes.clear();
            for (r, binding) in matches[..*match_count].iter_mut() {
                let rule = *r;
                *steps += 1;
                // (Logged only when the graph records its changes: explain, eval --by-rule.)
                graph.note_application(rule as u32);
                if apply(
                    graph,
                    lemmas,
                    &all[rule].actions,
                    binding,
                    Origin::Rule(rule as u32),
                    changes,
                    label,
                ) {
                    // One action adds at most one node, or edges bounded by a degree: checked
                    // after each application, the graph stays within a degree of the limit.
                    if graph_size(graph) > limits.base + limits.growth {
                        return Err(Runaway {
                            rule,
                            limit: Limit::Growth(limits.growth),
                        });
                    }
                }
            }
            // An unchanged graph has no match that was not found already; nor has a graph whose
            // changes no rule searches again (the next round would search nothing).
            if !changes.any()
                || !(exhaustive
                    || rules.iter().any(|&r| {
                        all[r].must_search_whole(changes) || searches_seeds(&all[r], changes)
                    }))
            {
                return Ok(());
            }
            std::mem::swap(changes, last);
            kinds = Kinds::of(graph);
        }
    }
}

/// Whether a round after one that made `last` searches `rule` from its seeds: the rule has
/// delta plans and the round added edges (the plans' `admits_seed` then chooses among them).
fn searches_seeds(rule: &CompiledRule, last: &Changes) -> bool {
    !rule.delta_plans.is_empty() && !last.added.is_empty()
}

/// The matches applied in a phase, so that a rule fires once per match. A match is known by
/// its rule and the nodes and edges of its match block; these keys sit end to end in one
/// buffer, found through a hash table of their ranges: recording a match allocates nothing.
#[derive(Default)]
struct Fired {
    keys: Vec<u32>,
    table: hashbrown::HashTable<(u32, u32)>,
}

impl std::fmt::Debug for Fired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fired({} matches)", self.table.len())
    }
}

impl Fired {
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    pub fn clear(&mut self) {
        self.keys.clear();
        self.table.clear();
    }

    /// Records the match of rule `rule` that `binding` holds (its first `match_vars` node
    /// variables and every edge variable); false if it was recorded before.
    pub fn insert(&mut self, rule: u32, binding: &Binding, match_vars: usize) -> bool {
        let start = self.keys.len();
        self.keys.push(rule);
        self.keys.extend(
            binding.nodes[..match_vars]
                .iter()
                .map(|n| n.map_or(u32::MAX, |n| n.index() as u32)),
        );
        self.keys.extend(binding.edges.iter().map(|e| match *e {
            Some(EdgeRefId::Basic(n)) => n,
            Some(EdgeRefId::Enhanced(id)) => (1 << 31) | id.index() as u32,
            None => u32::MAX,
        }));
        let end = self.keys.len();
        let keys = &self.keys;
        let key = &keys[start..end];
        let hash = key_hash(key);
        if self
            .table
            .find(hash, |&(s, e)| &keys[s as usize..e as usize] == key)
            .is_some()
        {
            self.keys.truncate(start);
            return false;
        }
        self.table
            .insert_unique(hash, (start as u32, end as u32), |&(s, e)| {
                key_hash(&keys[s as usize..e as usize])
            });
        true
    }
}

fn key_hash(key: &[u32]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    for &k in key {
        hasher.write_u32(k);
    }
    hasher.finish()
}
