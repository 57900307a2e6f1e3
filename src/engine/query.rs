//! Search patterns run alone (`eudify grep`): a checked `match` block with its `without`
//! blocks, lowered as a rule is and searched with the rules' matcher and pre-filter, over any
//! sentence graph (a file's own DEPS, or the graph the rules compute).

use super::binding::Binding;
use super::kinds::{Kinds, TreeKinds};
use super::lemmas::Lemmas;
use super::lower::compile;
use super::rule::CompiledRule;
use super::rounds::WorkBudget;
use super::search::{search, Budget};
use crate::graph::SentenceGraph;
use crate::rules::ir::CheckedRule;
use crate::rules::lexicon::FormLemmas;
use std::sync::Arc;

/// A compiled search pattern.
#[derive(Clone, Debug)]
pub struct Query {
    compiled: CompiledRule,
    /// How lemma tests read a word without a lemma (the profile's `[lemmas]`).
    form_lemmas: Arc<FormLemmas>,
}

/// Buffers a search reuses from sentence to sentence.
#[derive(Debug, Default)]
pub struct QueryWorkspace {
    tree: TreeKinds,
    lemmas: Lemmas,
    binding: Binding,
}

impl Query {
    pub fn new(rule: &CheckedRule, form_lemmas: Arc<FormLemmas>) -> Query {
        Query {
            compiled: compile(rule),
            form_lemmas,
        }
    }

    /// The checked pattern: its variables' names, in binding order.
    pub fn rule(&self) -> &CheckedRule {
        &self.compiled.rule
    }

    /// The number of node variables a match binds (the match block's; `without` blocks'
    /// variables come after them in a binding).
    pub fn match_vars(&self) -> usize {
        self.compiled.match_vars
    }

    /// Calls `found` with each match of the pattern in `graph` until it returns false.
    /// Sentences the pattern's anchor rules out are not searched. The search tries at most the
    /// candidates the rules' default [`WorkBudget`] gives the sentence: false when it spent them
    /// all (the matches found are then not all there are).
    pub fn search(
        &self,
        graph: &SentenceGraph,
        workspace: &mut QueryWorkspace,
        found: &mut dyn FnMut(&Binding) -> bool,
    ) -> bool {
        let compiled = &self.compiled;
        let kinds = Kinds::of(graph);
        if !compiled.anchor.admits_graph(kinds) {
            return true;
        }
        workspace.tree.fill(graph);
        if !compiled.anchor.admits_tree(kinds, &workspace.tree) {
            return true;
        }
        workspace.lemmas.start(&self.form_lemmas);
        let QueryWorkspace {
            lemmas, binding, ..
        } = workspace;
        binding.reset(compiled.vars, compiled.edge_vars);
        let words = graph.word_count() as usize;
        let mut budget = Budget::new(WorkBudget::default().for_words(words));
        let (plan, withouts) = (&compiled.plan, &compiled.withouts);
        search(graph, lemmas, plan, withouts, binding, &mut budget, found);
        !budget.exhausted()
    }
}
