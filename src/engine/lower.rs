//! Lowering: the one module of the engine that reads the rules' checked form. It turns a
//! checked rule into the engine's own form ([`super::pattern`], [`super::action`]) once, when a
//! rule set is loaded, and compiles that into a [`CompiledRule`]: plans, anchor, delta plans.

use super::action::{
    Action, Direction, EdgeLabelPart, MarkerSpelling, Place, Template, TemplatePart, TemplateValue,
    TransferMode,
};
use super::anchor::{anchor_of, never_matches, NodeAnchor};
use super::pattern::{
    Depth, EdgeTest, Field, FieldTest, LabelTest, Layer, NodeTest, Operand, OrderTest, Pattern,
    ValueTest, VarId,
};
use super::plan::{nearest_steps, plan, without_cost, Plan, Step};
use super::relation_filter::label_relations;
use super::rule::{CompiledRule, DeltaPlan};
use crate::rules::ir::{
    self as checked, CheckedAction, CheckedPattern, CheckedRule, CheckedValueTest,
};

/// Lowers `rule` and compiles it: its plans, anchor and what makes later rounds search it.
pub fn compile(rule: &CheckedRule) -> CompiledRule {
    let pattern = lower_pattern(&rule.pattern);
    let lowered_withouts: Vec<Pattern> = rule.withouts.iter().map(lower_pattern).collect();
    let var_count = rule.vars.len();
    let bound = vec![false; var_count];
    let no_edge_vars = vec![false; rule.edge_vars.len()];
    let mut match_bound = bound.clone();
    for v in rule.pattern.new_vars.clone() {
        match_bound[v] = true;
    }
    // Edge variables are all bound by the match block.
    let all_edge_vars = vec![true; rule.edge_vars.len()];
    // Every candidate match runs the `without` blocks in turn until one matches: the cheapest
    // first, and none that cannot match (an empty profile list).
    let mut withouts: Vec<Plan> = lowered_withouts
        .iter()
        .filter(|w| !never_matches(w))
        .map(|w| plan(w, &match_bound, &all_edge_vars))
        .collect();
    withouts.sort_by_key(without_cost);
    for w in &mut withouts {
        let mut outer: Vec<VarId> = w
            .pattern
            .edges
            .iter()
            .flat_map(|e| [e.from, e.to])
            .filter(|v| !w.pattern.new_vars.contains(v))
            .collect();
        outer.sort_unstable();
        outer.dedup();
        w.outer_anchors = outer
            .into_iter()
            .map(|v| (v, NodeAnchor::of(&w.pattern, v)))
            .filter(|(_, a)| a.asks_anything())
            .collect();
    }
    let mut match_plan = plan(&pattern, &bound, &no_edge_vars);
    match_plan.nearest = nearest_steps(&match_plan, &withouts);
    let anchor = anchor_of(&pattern);
    let relations_of = |e: &EdgeTest| match &e.label {
        // The same label as a matched edge: that edge's own test says which relations.
        LabelTest::SameLabel(v) => rule.edge_vars.get(*v).map_or(u64::MAX, |info| {
            label_relations(&pattern.edges[info.edge].label)
        }),
        other => label_relations(other),
    };
    let without_edges = || {
        withouts
            .iter()
            .flat_map(|p| p.pattern.edges.iter())
            .filter(|e| e.layer == Layer::Enhanced)
    };
    let removal_sensitive = without_edges()
        .filter(|e| !e.negated)
        .chain(
            pattern
                .edges
                .iter()
                .filter(|e| e.negated && e.layer == Layer::Enhanced),
        )
        .map(relations_of)
        .fold(0, |acc, bits| acc | bits);
    let addition_sensitive = without_edges()
        .filter(|e| e.negated)
        .map(relations_of)
        .fold(0, |acc, bits| acc | bits);
    let scans_nodes = std::iter::once(&match_plan)
        .chain(&withouts)
        .any(|p| p.steps.iter().any(|s| matches!(s, Step::ScanNodes { .. })));
    let delta_plans = pattern
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.layer == Layer::Enhanced && !e.negated)
        .map(|(i, e)| {
            let mut seeded = vec![false; var_count];
            seeded[e.from] = true;
            seeded[e.to] = true;
            let mut plan = plan(&pattern, &seeded, &no_edge_vars);
            plan.nearest = nearest_steps(&plan, &withouts);
            let ends = [
                NodeAnchor::of(&pattern, e.from),
                NodeAnchor::of(&pattern, e.to),
            ];
            DeltaPlan {
                edge: i,
                plan,
                ends,
            }
        })
        .collect::<Vec<_>>();
    let unique_matches = pattern.edges.iter().filter(|e| !e.negated).all(|e| {
        e.layer == Layer::Basic
            || e.var.is_some()
            || matches!(e.label, LabelTest::Exact(_) | LabelTest::SameLabel(_))
    });
    let searched_once = delta_plans.is_empty()
        && removal_sensitive == 0
        && addition_sensitive == 0
        && !scans_nodes
        && unique_matches;
    CompiledRule {
        rule: rule.clone(),
        vars: var_count,
        match_vars: pattern.new_vars.end,
        edge_vars: rule.edge_vars.len(),
        plan: match_plan,
        withouts,
        anchor,
        removal_sensitive,
        addition_sensitive,
        scans_nodes,
        delta_plans,
        searched_once,
        actions: rule.actions.iter().map(lower_action).collect(),
    }
}

fn lower_pattern(pattern: &CheckedPattern) -> Pattern {
    Pattern {
        new_vars: pattern.new_vars.clone(),
        nodes: pattern
            .nodes
            .iter()
            .map(|n| NodeTest {
                var: n.var,
                tests: n.tests.iter().map(lower_field_test).collect(),
            })
            .collect(),
        edges: pattern
            .edges
            .iter()
            .map(|e| EdgeTest {
                var: e.var,
                depth: e.depth.map(|d| Depth {
                    min: d.min,
                    max: d.max,
                }),
                from: e.from,
                to: e.to,
                layer: match e.layer {
                    checked::Layer::Basic => Layer::Basic,
                    checked::Layer::Enhanced => Layer::Enhanced,
                },
                label: lower_label(&e.label),
                negated: e.negated,
            })
            .collect(),
        order: pattern.order.iter().map(lower_order).collect(),
    }
}

fn lower_field_test(test: &checked::FieldTest) -> FieldTest {
    let field = match &test.field {
        checked::Field::Form => Field::Form,
        checked::Field::Lemma => Field::Lemma,
        checked::Field::Upos => Field::Upos,
        checked::Field::Xpos => Field::Xpos,
        checked::Field::Feature(name) => Field::Feature(name.clone()),
        checked::Field::Misc(key) => Field::Misc(key.clone()),
        checked::Field::Empty => Field::Empty,
    };
    let value = match &test.test {
        CheckedValueTest::Equals {
            values,
            case_insensitive,
        } => ValueTest::Equals {
            values: values.clone(),
            case_insensitive: *case_insensitive,
        },
        CheckedValueTest::Regex(regex) => ValueTest::Regex(regex.clone()),
        CheckedValueTest::InLexicon { words, .. } => {
            ValueTest::InLexicon(std::sync::Arc::clone(words))
        }
        CheckedValueTest::Present => ValueTest::Present,
    };
    FieldTest {
        field,
        test: value,
        negated: test.negated,
    }
}

fn lower_label(test: &checked::LabelTest) -> LabelTest {
    match test {
        checked::LabelTest::Any => LabelTest::Any,
        checked::LabelTest::Exact(label) => LabelTest::Exact(label.clone()),
        checked::LabelTest::Universal(univ) => LabelTest::Universal(univ.clone()),
        checked::LabelTest::Subtype(sub) => LabelTest::Subtype(sub.clone()),
        checked::LabelTest::Regex(regex) => LabelTest::Regex(regex.clone()),
        checked::LabelTest::SameLabel(e) => LabelTest::SameLabel(*e),
        checked::LabelTest::Alternatives(options) => {
            LabelTest::Alternatives(options.iter().map(lower_label).collect())
        }
        checked::LabelTest::Not(inner) => LabelTest::Not(Box::new(lower_label(inner))),
    }
}

fn lower_order(test: &checked::OrderTest) -> OrderTest {
    let operand = |o: &checked::Operand| match *o {
        checked::Operand::Node(v) => Operand::Node(v),
        checked::Operand::Subtree(v) => Operand::Subtree(v),
    };
    match test {
        checked::OrderTest::Before {
            left,
            right,
            immediately,
        } => OrderTest::Before {
            left: operand(left),
            right: operand(right),
            immediately: *immediately,
        },
        checked::OrderTest::Distinct(a, b) => OrderTest::Distinct(*a, *b),
        checked::OrderTest::Agree {
            left,
            left_feature,
            right,
            right_feature,
            negated,
        } => OrderTest::Agree {
            left: *left,
            left_feature: left_feature.clone(),
            right: *right,
            right_feature: right_feature.clone(),
            negated: *negated,
        },
    }
}

fn lower_action(action: &CheckedAction) -> Action {
    match action {
        CheckedAction::AddEdge { from, to, label } => Action::AddEdge {
            from: *from,
            to: *to,
            label: lower_template(label),
        },
        CheckedAction::DeleteEdge { from, to, label } => Action::DeleteEdge {
            from: *from,
            to: *to,
            label: lower_label(label),
        },
        CheckedAction::Relabel {
            from,
            to,
            label,
            new_label,
        } => Action::Relabel {
            from: *from,
            to: *to,
            label: lower_label(label),
            new_label: lower_template(new_label),
        },
        CheckedAction::AddEmptyNode {
            var,
            copy_of,
            place,
            anchor,
        } => Action::AddEmptyNode {
            var: *var,
            copy_of: *copy_of,
            place: match place {
                checked::Place::Before => Place::Before,
                checked::Place::After => Place::After,
            },
            anchor: *anchor,
        },
        CheckedAction::TransferEdges {
            mode,
            direction,
            from,
            to,
            matching,
        } => Action::TransferEdges {
            mode: match mode {
                checked::TransferMode::Copy => TransferMode::Copy,
                checked::TransferMode::Move => TransferMode::Move,
            },
            direction: match direction {
                checked::Direction::Incoming => Direction::Incoming,
                checked::Direction::Outgoing => Direction::Outgoing,
            },
            from: *from,
            to: *to,
            matching: lower_label(matching),
        },
    }
}

fn lower_template(template: &checked::Template) -> Template {
    let value = |value: &checked::TemplateValue| match value {
        checked::TemplateValue::Literal(text) => TemplateValue::Literal(text.clone()),
        checked::TemplateValue::Edge { edge, part } => TemplateValue::Edge {
            edge: *edge,
            part: match part {
                checked::EdgeLabelPart::Label => EdgeLabelPart::Label,
                checked::EdgeLabelPart::Univ => EdgeLabelPart::Univ,
                checked::EdgeLabelPart::Sub => EdgeLabelPart::Sub,
            },
        },
        checked::TemplateValue::Lemma(v) => TemplateValue::Lemma(*v),
        checked::TemplateValue::Form(v) => TemplateValue::Form(*v),
        checked::TemplateValue::Feature { node, feature } => TemplateValue::Feature {
            node: *node,
            feature: feature.clone(),
        },
        checked::TemplateValue::Marker { node, spelling } => TemplateValue::Marker {
            node: *node,
            spelling: MarkerSpelling {
                fixed_forms: spelling.fixed_forms,
                form_upos: spelling.form_upos,
                first_word: spelling.first_word,
            },
        },
    };
    Template {
        parts: template
            .parts
            .iter()
            .map(|p| TemplatePart {
                value: value(&p.value),
                optional: p.optional,
            })
            .collect(),
    }
}

/// Rules checked from `text` (no lexicons) and compiled, for tests.
#[cfg(test)]
pub(in crate::engine) fn compile_text(text: &str) -> Vec<CompiledRule> {
    let lexicon = crate::rules::lexicon::Lexicon::default();
    let rules = crate::rules::load::check_text("t.rules", text, &lexicon)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    rules.iter().map(compile).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `without` blocks that no graph can match (an empty profile list, on an edge or a node)
    /// are dropped, and the others run cheapest first: tests, an edge between bound nodes, a
    /// word's head, children, descents. A rule keeps every block that can match.
    #[test]
    fn withouts_that_cannot_match_are_dropped_the_rest_cheapest_first() {
        let rules = compile_text(
            "phase p\n\
             rule r { match { P -[obj]-> C1;  C1 -[conj]-> C2; }\n\
               without { C1 -[*]->+ P; }\n\
               without { C1 -[@profile.conj_parent_unshared_clauses]-> Y;  Y -[*]->+ P; }\n\
               without { C2 -[cc]-> X; }\n\
               without { C0 =[conj]=> C1; }\n\
               without { P =[nsubj]=> C2; }\n\
               without { C2 [upos in @profile.conj_predicate_upos]; }\n\
               without { C2 [upos=VERB]; }\n\
               do { add P =[dep]=> C2; } }\n",
        );
        let compiled = &rules[0];
        let kinds: Vec<Vec<Step>> = compiled.withouts.iter().map(|w| w.steps.clone()).collect();
        let first_edge = |w: &Plan| w.pattern.edges.first().map(|e| (e.from, e.to));
        assert_eq!(compiled.withouts.len(), 5, "{kinds:?}");
        assert!(kinds[0].is_empty(), "tests alone first: {kinds:?}");
        assert!(matches!(kinds[1][..], [Step::Connect { .. }]), "{kinds:?}");
        assert!(matches!(kinds[2][..], [Step::FollowIn { .. }]), "{kinds:?}");
        assert!(
            matches!(kinds[3][..], [Step::FollowOut { .. }]),
            "{kinds:?}"
        );
        assert!(matches!(kinds[4][..], [Step::Descend { .. }]), "{kinds:?}");
        // The kept descent is the one from C1 to P, not the one behind the empty list.
        assert_eq!(first_edge(&compiled.withouts[4]), Some((1, 0)));
    }
}
