//! The engine: builds each sentence's graph from its basic tree and applies a profile's rules,
//! phase by phase.
//!
//! Within a phase, every rule's matches are found first, then applied in rule order; this repeats
//! until no rule finds a match it has not applied before (a fixpoint). A rule fires at most
//! once per match, so a rule whose match survives its own action does not loop; a rule set that
//! keeps creating new matches is stopped by per-sentence [`Limits`] with the rule's name.
//!
//! One module per stage, each depending only on those listed before it:
//! - `pattern`, `action`: the engine's own form of a rule's blocks and actions;
//! - `relation_filter`, `kinds`, `anchor`: the pre-filters (what a label test says about a
//!   relation code; what a sentence holds; what a pattern needs of it);
//! - `plan`: the search plans; `changes`: the log of what a round changed; `rule`: the
//!   compiled rule; `lower`: a checked rule lowered and compiled, the one module that reads the
//!   rule front-end's checked form;
//! - `lemmas`, `binding`, `checks`, `descent`, `search`: finding matches;
//! - `apply`: applying them;
//! - `rounds`: a stage's rules run to a fixpoint; this module: stages, runaways, `Engine`.

pub mod action;
pub mod anchor;
mod apply;
pub mod binding;
mod changes;
mod checks;
mod descent;
pub mod examples;
pub mod kinds;
pub mod lemmas;
mod lower;
pub mod pattern;
pub mod plan;
pub mod query;
mod relation_filter;
mod rounds;
pub mod rule;
mod search;
pub mod trace;

use crate::conllu::{EnhancedLayer, Sentence};
use crate::graph::{GraphBuffers, Origin, SentenceGraph};
use crate::rules::ir::RuleSet;
use anchor::Needs;
use kinds::{Kinds, TreeKinds};
use lemmas::Lemmas;
use rounds::{RoundBuffers, Rounds};
use rule::CompiledRule;
use std::ops::Range;

pub use apply::{render, TextFixes, MAX_LABEL_BYTES};
pub use rounds::{Limit, Limits, Spent, WorkBudget};

/// Everything needed to enhance sentences for one profile; shared by all threads.
#[derive(Debug, Default)]
pub struct Engine {
    pub rules: Vec<CompiledRule>,
    /// Phase name and its rules (a range of `rules`), in execution order.
    pub phases: Vec<(String, Range<usize>)>,
    /// The rules run to one fixpoint, in execution order: a phase's, or a group's (phases of a
    /// group are adjacent).
    stages: Vec<Stage>,
    pub profile: String,
    /// Search every rule whole in every round, not from the edges the last round added. Slower,
    /// same result: the reference the semi-naive rounds are tested against.
    pub exhaustive_rounds: bool,
    /// The search work each sentence may spend ([`Limits::work`]).
    pub work_budget: WorkBudget,
    /// The lemmas of forms, for words without a lemma (the lexicons' `[lemmas]`).
    form_lemmas: std::sync::Arc<crate::rules::lexicon::FormLemmas>,
}

/// The rules run to one fixpoint (a phase's, or a group's), with what every one of them needs
/// ([`anchor::Anchor::needs`]): a graph without it skips the stage at once.
#[derive(Debug)]
struct Stage {
    rules: Range<usize>,
    common: Needs,
}

impl Stage {
    fn new(rules: Range<usize>, compiled: &[CompiledRule]) -> Stage {
        let common = compiled[rules.clone()]
            .iter()
            .fold(Needs::ALL, |all, c| all.and(c.anchor.needs()));
        Stage { rules, common }
    }
}

/// Buffers a thread reuses from sentence to sentence while enhancing.
#[derive(Debug, Default)]
pub struct Workspace {
    /// The rules of the current phase whose anchor admits the sentence's basic tree.
    candidates: Vec<usize>,
    /// What the sentence's basic tree holds, as anchors ask.
    tree: TreeKinds,
    /// The sentence graph's allocations.
    graph: GraphBuffers,
    /// Reads lemmas, and the stand-ins of missing ones.
    lemmas: Lemmas,
    /// The rounds' matches, bindings and change logs.
    rounds: RoundBuffers,
}

impl Workspace {
    /// Adds the label repairs made since the last call to `into` (DEPRELs that are not UD
    /// labels, input text cleaned in labels: [`crate::ud::repairs`]).
    pub fn take_repairs(&mut self, into: &mut crate::ud::Repairs) {
        self.graph.take_repairs(into);
    }
}

/// A rule set that did not reach a fixpoint within the sentence's [`Limits`]: a runaway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepLimitError {
    pub rule: String,
    pub location: String,
    pub phase: String,
    pub limit: Limit,
}

impl std::fmt::Display for StepLimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.limit {
            Limit::Steps(n) => format!("step limit ({n}) reached"),
            Limit::Growth(n) => format!("growth limit ({n} nodes and edges gained) reached"),
            Limit::Work(n) => {
                let (phase, rule, location) = (&self.phase, &self.rule, &self.location);
                return write!(f, "rules search too long: search budget ({n} candidate bindings) spent in phase '{phase}'; rule searched: {rule} ({location})");
            }
        };
        write!(
            f,
            "rules do not terminate: {what} in phase '{}'; last rule applied: {} ({})",
            self.phase, self.rule, self.location
        )
    }
}

impl Engine {
    /// The copy baseline: DEPS := HEAD:DEPREL, no empty nodes.
    pub fn basic() -> Self {
        Engine {
            profile: "basic".to_string(),
            ..Engine::default()
        }
    }

    pub fn new(rule_set: &RuleSet) -> Self {
        let mut rules = Vec::new();
        let mut phases = Vec::new();
        let mut ranges: Vec<Range<usize>> = Vec::new();
        for phase in &rule_set.phases {
            let start = rules.len();
            rules.extend(phase.rules.iter().map(lower::compile));
            phases.push((phase.name.clone(), start..rules.len()));
            match ranges.last_mut() {
                Some(stage) if phase.joined => stage.end = rules.len(),
                _ => ranges.push(start..rules.len()),
            }
        }
        let stages = ranges
            .into_iter()
            .map(|range| Stage::new(range, &rules))
            .collect();
        Engine {
            rules,
            phases,
            stages,
            profile: rule_set.profile.clone(),
            exhaustive_rounds: false,
            work_budget: WorkBudget::default(),
            form_lemmas: std::sync::Arc::clone(&rule_set.lexicons.form_lemmas),
        }
    }

    pub fn enhance(&self, sentence: &Sentence, layer: &mut EnhancedLayer) -> Result<(), StepLimitError> {
        self.enhance_with(sentence, layer, &mut Workspace::default())
    }

    /// [`Engine::enhance`] with buffers kept from one sentence to the next.
    ///
    /// A runaway (a rule set that reaches the sentence's [`Limits`]) costs only its sentence:
    /// `layer` then holds the basic copy, as the `basic` profile writes it, and the error says
    /// which rule stopped, where and in which phase.
    pub fn enhance_with(
        &self,
        sentence: &Sentence,
        layer: &mut EnhancedLayer,
        workspace: &mut Workspace,
    ) -> Result<(), StepLimitError> {
        let mut graph =
            SentenceGraph::from_basic_in(sentence, std::mem::take(&mut workspace.graph));
        let result = self.run_with(&mut graph, workspace);
        if result.is_err() {
            // The basic profile's path: a graph of the basic tree, no rule run.
            graph = SentenceGraph::from_basic_in(sentence, graph.into_buffers());
            workspace.rounds.forget_runaway();
        }
        graph.write_layer(layer);
        workspace.graph = graph.into_buffers();
        result
    }

    /// Applies every phase to `graph`.
    pub fn run(&self, graph: &mut SentenceGraph) -> Result<(), StepLimitError> {
        self.run_with(graph, &mut Workspace::default())
    }

    fn run_with(
        &self,
        graph: &mut SentenceGraph,
        workspace: &mut Workspace,
    ) -> Result<(), StepLimitError> {
        let limits = Limits::of(graph, self.work_budget);
        self.prepare(workspace);
        let mut spent = Spent::new(limits);
        // Before a phase's rounds, its rules are told what the basic tree holds (the enhanced
        // graph may hold anything by the time they run, and rounds check that part): a rule the
        // sentence cannot match is not tried in any round, and a phase without such rules is
        // skipped.
        let sentence = Kinds::of(graph);
        if !self.stages.is_empty() {
            workspace.tree.fill(graph);
        }
        let mut candidates = std::mem::take(&mut workspace.candidates);
        let mut result = Ok(());
        for stage in &self.stages {
            // A stage no rule of which the graph can match now changes nothing.
            if !stage.common.tree_met(sentence) || !stage.common.graph_met(Kinds::of(graph)) {
                continue;
            }
            candidates.clear();
            candidates.extend(
                stage
                    .rules
                    .clone()
                    .filter(|&r| self.rules[r].anchor.admits_tree(sentence, &workspace.tree)),
            );
            if !candidates.is_empty() {
                result = self.run_phase(graph, &candidates, &mut spent, limits, workspace);
                if result.is_err() {
                    break;
                }
            }
        }
        workspace.candidates = candidates;
        result
    }

    /// Readies `workspace` for `graph`'s sentence, before its first phase runs.
    pub fn prepare(&self, workspace: &mut Workspace) {
        workspace.lemmas.start(&self.form_lemmas);
    }

    /// Runs the given rules (indices into `rules`: a phase's, or a group's) to one fixpoint, in a
    /// `workspace` made ready for the sentence ([`Engine::prepare`]). `spent` counts the rule
    /// applications and search work of the sentence so far. Rounds check only the part of an anchor they change
    /// ([`anchor::Anchor::admits_graph`]): a rule whose anchor the basic tree rules out
    /// ([`anchor::Anchor::admits_tree`]) is searched in vain, and is best left out.
    pub fn run_phase(
        &self,
        graph: &mut SentenceGraph,
        rules: &[usize],
        spent: &mut Spent,
        limits: Limits,
        workspace: &mut Workspace,
    ) -> Result<(), StepLimitError> {
        let rounds = Rounds {
            all: &self.rules,
            rules,
            exhaustive: self.exhaustive_rounds,
        };
        rounds
            .run(
                graph,
                &mut workspace.lemmas,
                spent,
                limits,
                &mut workspace.rounds,
            )
            .map_err(|runaway| {
                let rule = &self.rules[runaway.rule].rule;
                let phase = self
                    .phases
                    .iter()
                    .find(|(_, range)| range.contains(&runaway.rule))
                    .map_or("", |(name, _)| name);
                StepLimitError {
                    rule: rule.name.clone(),
                    location: format!("{}:{}", rule.path, rule.span.line),
                    phase: phase.to_string(),
                    limit: runaway.limit,
                }
            })
    }

    /// The rule an edge origin names, as `name (file:line)`, or `basic`.
    pub fn describe(&self, origin: Origin) -> String {
        match origin {
            Origin::Basic => "basic".to_string(),
            Origin::Rule(r) => match self.rules.get(r as usize) {
                Some(c) => format!("{} ({}:{})", c.rule.name, c.rule.path, c.rule.span.line),
                None => format!("rule #{r}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::source::RuleSource;

    /// Kinds with each bit set with probability `density` / 8, from a fixed seed.
    fn random_kinds(state: &mut u64, density: u32) -> Kinds {
        let mut bits = |n: u32| {
            (0..n).fold(0u64, |set, bit| {
                // xorshift64
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                set | (u64::from((*state % 8) < u64::from(density)) << bit)
            })
        };
        Kinds {
            basic: bits(64),
            upos: bits(32) as u32,
            enhanced: bits(64),
            empty: bits(1) != 0,
        }
    }

    /// For every rule of every embedded profile, what its stage says all its rules need, every
    /// graph the rule's anchor admits has: the engine may skip the stage without asking them.
    #[test]
    fn what_a_stage_needs_every_graph_its_rules_admit_has() {
        let source = RuleSource::embedded();
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let (mut admitted, mut needy) = (0, 0);
        for name in crate::rules::source::profile_names(&source) {
            let rule_set = crate::rules::load::load_ruleset(&source, &name)
                .unwrap_or_else(|e| panic!("{}", e.render()));
            let enhancer = Engine::new(&rule_set);
            for stage in &enhancer.stages {
                needy += usize::from(!stage.common.tree_met(Kinds::default()));
                for rule in &enhancer.rules[stage.rules.clone()] {
                    for density in [2, 4, 6, 7, 8].into_iter().cycle().take(500) {
                        let kinds = random_kinds(&mut state, density);
                        if rule.anchor.admits(kinds, &TreeKinds::everything()) {
                            admitted += 1;
                            let name = &rule.rule.name;
                            assert!(
                                stage.common.tree_met(kinds) && stage.common.graph_met(kinds),
                                "{name}: {kinds:?}"
                            );
                        }
                    }
                }
            }
        }
        // Both kinds of graph met: stages that need something, and graphs their rules admit.
        assert!(needy > 0 && admitted > 0, "{needy} {admitted}");
    }

    /// A rule that needs one of two relations needs neither alone: a stage of it needs only
    /// what it needs on its own, and a tree with either relation passes.
    #[test]
    fn a_rule_that_needs_one_of_two_relations_needs_neither_alone() {
        let compiled = lower::compile_text(
            "phase p\nrule either { match { V -[obl|nmod]-> X;  X -[case]-> C; } do { add X =[dep]=> V; } }\n",
        );
        let stage = Stage::new(0..1, &compiled);
        let bit = crate::graph::relation_bit;
        let tree = TreeKinds::everything();
        for other in ["obl", "nmod"] {
            let kinds = Kinds {
                basic: bit("case") | bit(other) | bit("root"),
                upos: u32::MAX,
                ..Kinds::default()
            };
            assert!(
                stage.common.tree_met(kinds) && compiled[0].anchor.admits_tree(kinds, &tree),
                "{other}"
            );
        }
        let neither = Kinds {
            basic: bit("case") | bit("root"),
            upos: u32::MAX,
            ..Kinds::default()
        };
        assert!(stage.common.tree_met(neither) && !compiled[0].anchor.admits_tree(neither, &tree));
        let no_case = Kinds {
            basic: bit("obl") | bit("root"),
            upos: u32::MAX,
            ..Kinds::default()
        };
        assert!(!stage.common.tree_met(no_case));
    }

    /// A rule that tests a lexicon list its profile leaves empty cannot match: its anchor admits
    /// no sentence, so it is never searched. With the list filled, the same rule is tried.
    #[test]
    fn a_rule_testing_an_empty_lexicon_list_is_never_tried() {
        let source = RuleSource::embedded();
        let anchor_admits_all = |profile: &str| {
            let rule_set = crate::rules::load::load_ruleset(&source, profile)
                .unwrap_or_else(|e| panic!("{}", e.render()));
            let enhancer = Engine::new(&rule_set);
            let rule = enhancer
                .rules
                .iter()
                .find(|r| r.rule.name == "xsubj_subject_listed")
                .expect("a control rule");
            let everything = Kinds {
                basic: u64::MAX,
                upos: u32::MAX,
                enhanced: u64::MAX,
                empty: true,
            };
            rule.anchor.admits(everything, &TreeKinds::everything())
        };
        assert!(
            !anchor_admits_all("universal"),
            "the universal profile lists no control verbs"
        );
        assert!(anchor_admits_all("cs"), "Czech lists control verbs");
    }
}

