//! Pass: actions and label templates — node variables bound by the match block (not only
//! inside a `without` block), two distinct ends for an edge, template parts that resolve
//! (edge variables, features, string settings) and literal text that gives a valid UD label
//! whatever the values — resolved as they are lowered, guarded parts kept or dropped for the
//! profile.

use super::guards::{check_guard, eval_guard};
use super::lower::RuleChecker;
use super::{closest, Scope};
use crate::rules::ast::{Action, ActionKind, EdgeLabelPart, LabelExpr, Name, PartValue, Span};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::ir::{
    CheckedAction, LabelTest, MarkerSpelling, Template, TemplatePart, TemplateValue, VarId,
    VarInfo, VarOrigin,
};
use crate::rules::profile::{SettingType, SettingValue};

/// The label `parts` give with each value from the input or from a matched edge standing in as
/// a value it can take (`dep` for an edge's label, `x` for text; text is cleaned when rendered,
/// so any is as good), optional parts in or out: what is left to check is the literal text.
fn label_skeleton(parts: &[TemplatePart], with_optional: bool) -> String {
    let mut label = String::new();
    for part in parts {
        if part.optional {
            if !with_optional {
                continue;
            }
            label.push(':');
        }
        match &part.value {
            TemplateValue::Literal(text) => label.push_str(text),
            TemplateValue::Edge {
                part: EdgeLabelPart::Label | EdgeLabelPart::Univ,
                ..
            } => label.push_str("dep"),
            _ => label.push('x'),
        }
    }
    label
}

impl RuleChecker<'_, '_> {
    /// A node variable an action or template uses.
    pub(super) fn action_var(&mut self, name: &Name, scope: &Scope) -> Option<VarId> {
        if let Some(&v) = scope.get(&name.text) {
            return Some(v);
        }
        let d = if self.without_only.contains(&name.text) {
            Diagnostic::error(name.span, format!("`{}` is only bound inside a `without` block; actions can only use variables of the match block", name.text))
        } else {
            let d = Diagnostic::error(name.span, format!("unknown node variable `{}`", name.text));
            let mut known: Vec<&str> = scope.keys().map(String::as_str).collect();
            known.sort_unstable();
            match closest(&name.text, known.iter().copied()) {
                Some(s) => d.with_note(format!("did you mean `{s}`?")),
                None => d.with_note(format!(
                    "variables bound by the match block: {}",
                    known.join(", ")
                )),
            }
        };
        self.diagnostics.push(d);
        None
    }

    pub(super) fn action(
        &mut self,
        index: usize,
        action: &Action,
        scope: &mut Scope,
    ) -> Option<CheckedAction> {
        match &action.kind {
            ActionKind::AddEdge { from, to, label } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                let label = self.template(label, scope);
                self.distinct_ends(from, to, action.span);
                Some(CheckedAction::AddEdge {
                    from: f?,
                    to: t?,
                    label: label?,
                })
            }
            ActionKind::DeleteEdge { from, to, label } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                let label = self.label_pattern(label, None);
                Some(CheckedAction::DeleteEdge {
                    from: f?,
                    to: t?,
                    label: label?,
                })
            }
            ActionKind::Relabel {
                from,
                to,
                label,
                new_label,
            } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                let label = self.label_pattern(label, None);
                let new_label = self.template(new_label, scope);
                Some(CheckedAction::Relabel {
                    from: f?,
                    to: t?,
                    label: label?,
                    new_label: new_label?,
                })
            }
            ActionKind::AddEmptyNode {
                var,
                copy_of,
                place,
                anchor,
            } => {
                let c = copy_of.as_ref().map(|v| self.action_var(v, scope));
                let a = self.action_var(anchor, scope);
                if scope.contains_key(&var.text) {
                    self.error(
                        var.span,
                        format!(
                            "`{}` is already bound; the new empty node needs a new name",
                            var.text
                        ),
                    );
                    return None;
                }
                let id = self.vars.len();
                self.vars.push(VarInfo {
                    name: var.text.clone(),
                    span: var.span,
                    origin: VarOrigin::Action(index),
                });
                scope.insert(var.text.clone(), id);
                Some(CheckedAction::AddEmptyNode {
                    var: id,
                    copy_of: match c {
                        Some(c) => Some(c?),
                        None => None,
                    },
                    place: *place,
                    anchor: a?,
                })
            }
            ActionKind::TransferEdges {
                mode,
                direction,
                from,
                to,
                matching,
            } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                self.distinct_ends(from, to, action.span);
                let matching = match matching {
                    Some(p) => self.label_pattern(p, None)?,
                    None => LabelTest::Any,
                };
                Some(CheckedAction::TransferEdges {
                    mode: *mode,
                    direction: *direction,
                    from: f?,
                    to: t?,
                    matching,
                })
            }
        }
    }

    pub(super) fn distinct_ends(&mut self, from: &Name, to: &Name, span: Span) {
        if from.text == to.text {
            self.error(
                span,
                format!(
                    "`{}` to itself: an edge needs two distinct nodes",
                    from.text
                ),
            );
        }
    }

    /// Checks a label template and resolves it for the profile's settings.
    pub(super) fn template(&mut self, expr: &LabelExpr, scope: &Scope) -> Option<Template> {
        let mut ok = true;
        let mut parts = Vec::new();
        let mut all_literal = true;
        for part in &expr.parts {
            if let Some(guard) = &part.guard {
                self.diagnostics
                    .extend(check_guard(guard, self.ctx.vocabulary));
            }
            let value = match &part.value {
                PartValue::Literal(text) => Some(TemplateValue::Literal(text.clone())),
                PartValue::Edge { edge, part } => {
                    self.edge_var(edge).map(|e| TemplateValue::Edge {
                        edge: e,
                        part: *part,
                    })
                }
                PartValue::Lemma(n) => self.action_var(n, scope).map(TemplateValue::Lemma),
                PartValue::Form(n) => self.action_var(n, scope).map(TemplateValue::Form),
                PartValue::Marker(n) => {
                    let settings = self.ctx.settings;
                    let spelling = MarkerSpelling {
                        fixed_forms: settings.flag("fixed_marker_forms"),
                        form_upos: settings
                            .list("marker_form_upos")
                            .iter()
                            .fold(0, |bits, upos| bits | crate::graph::upos_bit(upos)),
                        first_word: settings.flag("fixed_marker_first"),
                    };
                    self.action_var(n, scope)
                        .map(|node| TemplateValue::Marker { node, spelling })
                }
                PartValue::Feature { node, feature } => {
                    let valid = feature.text.starts_with(|c: char| c.is_ascii_uppercase())
                        && feature
                            .text
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '[' || c == ']');
                    if !valid {
                        self.error(feature.span, format!("invalid feature name `{}`: features are written like `Case`, `Number[psor]`", feature.text));
                    }
                    let valid = valid && self.known_feature(&feature.text, feature.span);
                    self.action_var(node, scope)
                        .filter(|_| valid)
                        .map(|n| TemplateValue::Feature {
                            node: n,
                            feature: feature.text.clone(),
                        })
                }
                PartValue::Setting(name) => match (
                    self.ctx.vocabulary.setting(&name.text).map(|d| d.kind),
                    self.ctx.settings.get(&name.text),
                ) {
                    (Some(SettingType::Text), Some(SettingValue::Text(text))) => {
                        Some(TemplateValue::Literal(text.to_string()))
                    }
                    (Some(other), _) => {
                        self.error(
                            name.span,
                            format!(
                                "`profile.{}` is {}; a label part needs a string",
                                name.text,
                                other.describe()
                            ),
                        );
                        None
                    }
                    (None, _) => {
                        let d = self
                            .ctx
                            .vocabulary
                            .unknown_setting(name.span, &name.text, "profile.");
                        self.diagnostics.push(d);
                        None
                    }
                },
            };
            let Some(value) = value else {
                ok = false;
                continue;
            };
            if !matches!(part.value, PartValue::Literal(_)) {
                all_literal = false;
            }
            let enabled = part
                .guard
                .as_ref()
                .is_none_or(|g| eval_guard(g, self.ctx.settings));
            if enabled {
                parts.push(TemplatePart {
                    value,
                    optional: part.optional,
                });
            }
        }
        if !ok {
            return None;
        }
        if expr.parts.is_empty() {
            self.error(expr.span, "empty label");
            return None;
        }
        // The universal part, when literal text spells it: all of a leading literal that ends
        // at `:` or is followed only by optional parts (which write `:value`).
        if let Some(TemplatePart {
            value: TemplateValue::Literal(lead),
            ..
        }) = parts.first()
        {
            let rest_optional = parts[1..].iter().all(|p| p.optional);
            let univ = match lead.split_once(':') {
                Some((univ, _)) => Some(univ),
                None if rest_optional => Some(lead.as_str()),
                None => None,
            };
            // A malformed name (`Nsubj`) is left to the grammar's message below.
            if let Some(univ) =
                univ.filter(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_lowercase()))
            {
                self.known_relation(univ, expr.span)?;
            }
        }
        // The literal text must fit UD's label grammar whatever the values: a rule can then
        // write no label that `validate` refuses (values are cleaned when rendered).
        for with_optional in [true, false] {
            let label = label_skeleton(&parts, with_optional);
            if label.is_empty() {
                continue;
            }
            if let Some(problem) = crate::ud::enhanced_label_problem(&label) {
                let message = if all_literal {
                    problem
                } else {
                    format!("this template cannot give a valid label: {problem} (its values standing in as `dep` and `x`)")
                };
                self.error(expr.span, message);
                return None;
            }
        }
        Some(Template { parts })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::resolving;

    #[test]
    fn actions_and_templates_resolve() {
        assert_eq!(
            resolving("match { H -[obj]-> N; } without { N -[case]-> C; } do { add H =[dep]=> X;  add C =[dep]=> N; }"),
            [
                "error: unknown node variable `X`",
                "error: `C` is only bound inside a `without` block; actions can only use variables of the match block",
            ]
        );
        assert_eq!(
            resolving("match { H -[obj]-> N; } do { add H =[{profile.xsubj_labl}]=> N;  add H =[obj{?feat(N, case)}]=> N;  add N =[dep]=> N; }"),
            [
                "error: unknown profile setting `xsubj_labl`",
                "error: invalid feature name `case`: features are written like `Case`, `Number[psor]`",
                "error: `N` to itself: an edge needs two distinct nodes",
            ]
        );
        assert_eq!(
            resolving("match { H -[obj]-> N; } do { add H =[Nsubj:]=> N; }"),
            ["error: enhanced label 'Nsubj:' is malformed: expected universal[:subtype][:marker][:case] (ASCII lower-case relation and subtype, lower-case marker words joined by '_')"]
        );
    }
}
