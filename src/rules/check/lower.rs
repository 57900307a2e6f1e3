//! Lowering: a rule's raw syntax tree to the checked IR ([`crate::rules::ir::CheckedRule`]) for
//! one profile's settings — node variables bound to indices in order of first mention, edge
//! variables to the edges that bind them, regexes compiled, lexicon lists and `@profile` lists
//! resolved, settings substituted, guarded template parts kept or dropped.
//!
//! Resolution is where a name can fail (an unknown field, value, relation, lexicon list,
//! setting, node or edge variable; an invalid regex; a descent or template that cannot be), so
//! those diagnostics are found here, as the parts are lowered; the other passes of
//! [`super`] run from [`rule`] in the order a reader meets what they check.

use super::guards;
use super::{connectivity, contradictions, cost, examples, names, Context, Scope};
use crate::rules::ast::{OrderConstraint, OrderOperand, Pattern, Rule, Span};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::ir::{
    CheckedPattern, CheckedRule, EdgeTest, EdgeVarId, EdgeVarInfo, FieldTest, NodeTest, Operand,
    OrderTest, VarId, VarInfo, VarOrigin,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Checks and lowers one rule of file `path`, adding every diagnostic to `diagnostics`; the
/// lowered rule when it has no error.
pub fn rule(
    rule: &Rule,
    path: &str,
    ctx: &Context<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<CheckedRule> {
    RuleChecker::new(ctx, path, diagnostics).rule(rule)
}

/// Checks and lowers a search pattern (`eudify grep`): a rule with a `match` block, `without`
/// blocks and nothing else, which needs no actions.
pub fn query(
    rule: &Rule,
    path: &str,
    ctx: &Context<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<CheckedRule> {
    let mut checker = RuleChecker::new(ctx, path, diagnostics);
    checker.needs_actions = false;
    checker.rule(rule)
}

/// The state of lowering one rule: its variables and edge variables as bound so far, and where
/// its diagnostics go.
pub(super) struct RuleChecker<'c, 'a> {
    pub(super) ctx: &'c Context<'a>,
    pub(super) path: &'c str,
    pub(super) diagnostics: &'c mut Vec<Diagnostic>,
    /// Number of errors before this rule: more means the rule failed.
    pub(super) errors_before: usize,
    pub(super) vars: Vec<VarInfo>,
    pub(super) edge_vars: Vec<EdgeVarInfo>,
    pub(super) edge_index: FxHashMap<String, EdgeVarId>,
    /// Variables bound only inside some `without` block (for a better message in actions).
    pub(super) without_only: FxHashSet<String>,
    /// A rule needs actions; a search pattern has none.
    needs_actions: bool,
}

impl<'c, 'a> RuleChecker<'c, 'a> {
    fn new(ctx: &'c Context<'a>, path: &'c str, diagnostics: &'c mut Vec<Diagnostic>) -> Self {
        let errors_before = diagnostics.iter().filter(|d| d.is_error()).count();
        RuleChecker {
            ctx,
            path,
            diagnostics,
            errors_before,
            vars: Vec::new(),
            edge_vars: Vec::new(),
            edge_index: FxHashMap::default(),
            without_only: FxHashSet::default(),
            needs_actions: true,
        }
    }

    pub(super) fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    fn failed(&self) -> bool {
        self.diagnostics.iter().filter(|d| d.is_error()).count() > self.errors_before
    }

    fn rule(&mut self, rule: &Rule) -> Option<CheckedRule> {
        self.diagnostics.extend(names::before_phase(rule));
        self.diagnostics.extend(guards::rule_guard(
            rule,
            self.ctx.vocabulary,
            self.ctx.sources,
        ));

        // Edge variables are declared by positive edges of the match block, before anything
        // (including labels of the match block itself) can refer to them.
        for (index, edge) in rule.pattern.edges.iter().enumerate() {
            let Some(var) = &edge.var else { continue };
            if edge.negated {
                self.error(
                    var.span,
                    format!("`{}:` names a negated edge, which binds nothing", var.text),
                );
            } else if self.edge_index.contains_key(&var.text) {
                self.error(
                    var.span,
                    format!("edge variable `{}` is declared twice", var.text),
                );
            } else {
                self.edge_index
                    .insert(var.text.clone(), self.edge_vars.len());
                self.edge_vars.push(EdgeVarInfo {
                    name: var.text.clone(),
                    span: var.span,
                    edge: index,
                });
            }
        }
        for without in &rule.withouts {
            for edge in &without.edges {
                if let Some(var) = &edge.var {
                    self.error(
                        var.span,
                        "edge variables can only be declared in the match block",
                    );
                }
            }
        }

        let empty = Scope::default();
        let (pattern, mut scope) = self.pattern(&rule.pattern, &empty, VarOrigin::Match);
        self.diagnostics
            .extend(connectivity::connected(&rule.pattern, &empty));
        self.diagnostics
            .extend(cost::search_cost(&rule.pattern, &empty));
        self.diagnostics.extend(contradictions::block(
            &[&rule.pattern],
            &pattern,
            &self.vars,
            self.ctx.sources,
            "this rule can never match",
        ));

        let mut withouts = Vec::new();
        for (i, without) in rule.withouts.iter().enumerate() {
            let (checked, local) = self.pattern(without, &scope, VarOrigin::Without(i));
            self.diagnostics
                .extend(connectivity::connected(without, &scope));
            self.diagnostics.extend(cost::search_cost(without, &scope));
            for name in local.keys().filter(|n| !scope.contains_key(*n)) {
                self.without_only.insert(name.clone());
            }
            self.diagnostics.extend(contradictions::without(
                rule,
                without,
                &checked,
                &pattern,
                &self.vars,
                self.ctx.sources,
            ));
            withouts.push(checked);
        }

        let mut actions = Vec::new();
        for (i, action) in rule.actions.iter().enumerate() {
            if let Some(a) = self.action(i, action, &mut scope) {
                actions.push(a);
            }
        }
        if self.needs_actions {
            self.diagnostics.extend(names::no_actions(rule));
        }
        for example in &rule.examples {
            self.diagnostics
                .extend(examples::example(example, self.ctx));
        }
        let examples = rule
            .examples
            .iter()
            .map(|e| examples::lower(e, self.ctx.settings))
            .collect();
        if self.failed() {
            return None;
        }
        Some(CheckedRule {
            name: rule.name.text.clone(),
            phase: rule.phase.text.clone(),
            path: self.path.to_string(),
            span: rule.span,
            vars: std::mem::take(&mut self.vars),
            edge_vars: std::mem::take(&mut self.edge_vars),
            pattern,
            withouts,
            actions,
            examples,
            source: rule.clone(),
        })
    }

    // ---- patterns -------------------------------------------------------------------------

    /// Binds the block's new variables (in order of first mention) and compiles it. Returns the
    /// block and the scope inside it (outer variables plus its own).
    fn pattern(
        &mut self,
        pattern: &Pattern,
        outer: &Scope,
        origin: VarOrigin,
    ) -> (CheckedPattern, Scope) {
        let mut scope = outer.clone();
        let start = self.vars.len();
        for name in pattern.mentions() {
            if !scope.contains_key(&name.text) {
                scope.insert(name.text.clone(), self.vars.len());
                self.vars.push(VarInfo {
                    name: name.text.clone(),
                    span: name.span,
                    origin,
                });
            }
        }
        let mut checked = CheckedPattern {
            new_vars: start..self.vars.len(),
            ..CheckedPattern::default()
        };

        // Node tests, declarations of one variable merged.
        let mut by_var: Vec<(VarId, Vec<FieldTest>)> = Vec::new();
        for decl in &pattern.nodes {
            let var = scope[&decl.var.text];
            let tests: Vec<FieldTest> = decl
                .constraints
                .iter()
                .filter_map(|c| self.constraint(c))
                .collect();
            match by_var.iter_mut().find(|(v, _)| *v == var) {
                Some((_, existing)) => existing.extend(tests),
                None => by_var.push((var, tests)),
            }
        }
        checked.nodes = by_var
            .into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(var, tests)| NodeTest { var, tests })
            .collect();

        for edge in &pattern.edges {
            let label = self.label_pattern(&edge.label, edge.var.as_ref());
            let var = edge
                .var
                .as_ref()
                .and_then(|v| self.edge_index.get(&v.text).copied())
                .filter(|_| origin == VarOrigin::Match);
            let depth = edge.repeat.and_then(|r| self.depth(edge, r));
            if let Some(label) = label {
                checked.edges.push(EdgeTest {
                    var,
                    depth,
                    from: scope[&edge.from.text],
                    to: scope[&edge.to.text],
                    layer: edge.layer,
                    label,
                    negated: edge.negated,
                    span: edge.span,
                });
            }
            if edge.from.text == edge.to.text {
                self.error(
                    edge.span,
                    format!(
                        "an edge from `{}` to itself can never match",
                        edge.from.text
                    ),
                );
            }
        }
        for order in &pattern.order {
            match order {
                OrderConstraint::Before {
                    left,
                    right,
                    immediately,
                    span,
                } => {
                    let operand = |o: &OrderOperand| match o {
                        OrderOperand::Node(n) => Operand::Node(scope[&n.text]),
                        OrderOperand::Subtree(n) => Operand::Subtree(scope[&n.text]),
                    };
                    if left.var().text == right.var().text {
                        self.error(
                            *span,
                            format!("`{}` cannot come before itself", left.var().text),
                        );
                    }
                    checked.order.push(OrderTest::Before {
                        left: operand(left),
                        right: operand(right),
                        immediately: *immediately,
                    });
                }
                OrderConstraint::Distinct { a, b, span } => {
                    if a.text == b.text {
                        self.error(*span, format!("`{} != {}` can never hold", a.text, b.text));
                    }
                    checked
                        .order
                        .push(OrderTest::Distinct(scope[&a.text], scope[&b.text]));
                }
                OrderConstraint::Agree {
                    left,
                    right,
                    negated,
                    span,
                } => {
                    let known_left = self.known_feature(&left.feature.text, left.feature.span);
                    let known_right = self.known_feature(&right.feature.text, right.feature.span);
                    if left.var.text == right.var.text {
                        self.error(
                            *span,
                            format!(
                                "this compares `{}` with itself: agreement is between two nodes",
                                left.var.text
                            ),
                        );
                    } else if known_left && known_right {
                        checked.order.push(OrderTest::Agree {
                            left: scope[&left.var.text],
                            left_feature: left.feature.text.clone(),
                            right: scope[&right.var.text],
                            right_feature: right.feature.text.clone(),
                            negated: *negated,
                        });
                    }
                }
            }
        }
        (checked, scope)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{parse, with_context};

    #[test]
    fn a_clean_rule_lowers_to_the_ir() {
        let text = "phase p\nrule r { match { e: H -[obl]-> N;  N -[case]-> C; } do { relabel H =[e.label]=> N as \"{e.univ}:{marker(C)}\"; } }\n";
        let (sources, file) = parse(text);
        let lowered = with_context(&sources, |ctx| {
            super::super::check_files(std::slice::from_ref(&file), ctx)
        });
        let (rules, inactive, diagnostics) = lowered;
        assert!(
            diagnostics.is_empty() && inactive.is_empty(),
            "{diagnostics:?}"
        );
        let rule = &rules[0];
        let names: Vec<&str> = rule.vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            ["H", "N", "C"],
            "variables in order of first mention"
        );
        assert_eq!(rule.edge_vars.len(), 1);
        assert_eq!(rule.pattern.new_vars, 0..3);
        assert_eq!(rule.pattern.edges.len(), 2);
        assert_eq!(rule.actions.len(), 1);
    }
}
