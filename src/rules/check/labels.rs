//! Pass: edges — label patterns whose relations are UD's, regexes that compile, edge variables
//! that are declared, `@profile` lists of relations, and descents that stay on positive, unnamed
//! basic edges within bounds — resolved as they are lowered.

use super::closest;
use super::fields::compile_regex;
use super::lower::RuleChecker;
use crate::rules::ast::{EdgePattern, LabelPattern, Layer, Name, Repeat, Span};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::ir::{Depth, EdgeVarId, LabelTest};
use crate::rules::vocabulary::Items;
use crate::ud::is_relation;

impl RuleChecker<'_, '_> {
    /// Checks a descent's bounds and where it may stand: on a positive, unnamed basic edge
    /// (the enhanced graph may have cycles; a path binds no single edge).
    pub(super) fn depth(&mut self, edge: &EdgePattern, repeat: Repeat) -> Option<Depth> {
        let limit = Repeat::LIMIT;
        let problem = if edge.layer == Layer::Enhanced {
            Some("a descent follows basic edges only: write `-[..]->+`, not `=[..]=>+`".to_string())
        } else if edge.negated {
            Some("a descent cannot be negated: put it in a `without` block".to_string())
        } else if let Some(var) = &edge.var {
            Some(format!(
                "a descent is a path, not one edge: it cannot be named (`{}:`)",
                var.text
            ))
        } else if repeat.min == 0 {
            Some(
                "a descent has at least one edge (`{1,n}`): the two ends are distinct nodes"
                    .to_string(),
            )
        } else if repeat.min > repeat.max {
            Some(format!(
                "the least depth {} is above the greatest {}",
                repeat.min, repeat.max
            ))
        } else if repeat.max > limit {
            Some(format!(
                "a descent goes at most {limit} edges deep, not {}",
                repeat.max
            ))
        } else {
            None
        };
        match problem {
            Some(message) => {
                self.error(repeat.span, message);
                None
            }
            None => Some(Depth {
                min: repeat.min as u8,
                max: repeat.max as u8,
            }),
        }
    }

    pub(super) fn label_pattern(
        &mut self,
        label: &LabelPattern,
        own: Option<&Name>,
    ) -> Option<LabelTest> {
        Some(match label {
            LabelPattern::Any { .. } => LabelTest::Any,
            LabelPattern::Exact { label, span } => {
                self.known_relation(label.split(':').next().unwrap_or_default(), *span)?;
                LabelTest::Exact(label.clone())
            }
            LabelPattern::Universal { univ, span } => {
                self.known_relation(univ, *span)?;
                LabelTest::Universal(univ.clone())
            }
            LabelPattern::Subtype { sub, .. } => LabelTest::Subtype(sub.clone()),
            LabelPattern::Regex { pattern, span } => {
                LabelTest::Regex(compile_regex(pattern, false, *span, self.diagnostics)?)
            }
            LabelPattern::SameLabel { edge, span } => {
                if own.is_some_and(|o| o.text == edge.text) {
                    self.error(
                        *span,
                        format!("the label of `{}` cannot refer to itself", edge.text),
                    );
                    return None;
                }
                LabelTest::SameLabel(self.edge_var(edge)?)
            }
            LabelPattern::Setting { name, .. } => {
                let items = self.setting_list(name, &[Items::Relation], "an edge pattern")?;
                // Checked when the profile was read: `univ`, `univ:sub` or `univ:*`.
                LabelTest::Alternatives(
                    items
                        .iter()
                        .map(|item| match item.strip_suffix(":*") {
                            Some(univ) => LabelTest::Universal(univ.to_string()),
                            None => LabelTest::Exact(item.clone()),
                        })
                        .collect(),
                )
            }
            LabelPattern::Alternatives { options, .. } => {
                let options: Vec<Option<LabelTest>> =
                    options.iter().map(|o| self.label_pattern(o, own)).collect();
                LabelTest::Alternatives(options.into_iter().collect::<Option<_>>()?)
            }
            LabelPattern::Not { inner, .. } => {
                LabelTest::Not(Box::new(self.label_pattern(inner, own)?))
            }
        })
    }

    /// The edge variable `name` refers to; reports it when no edge of the match block declares it.
    pub(super) fn edge_var(&mut self, name: &Name) -> Option<EdgeVarId> {
        if let Some(&e) = self.edge_index.get(&name.text) {
            return Some(e);
        }
        let mut d = Diagnostic::error(
            name.span,
            format!("edge variable `{}` is not declared", name.text),
        );
        d = match closest(&name.text, self.edge_index.keys().map(String::as_str)) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(format!(
                "declare it on an edge of the match block: `{}: A -[...]-> B`",
                name.text
            )),
        };
        self.diagnostics.push(d);
        None
    }

    /// Whether `univ` is a UD relation; reports it at `span` when not.
    pub(super) fn known_relation(&mut self, univ: &str, span: Span) -> Option<()> {
        if is_relation(univ) {
            return Some(());
        }
        self.diagnostics
            .push(crate::rules::vocabulary::unknown_relation(span, univ));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::resolving;

    #[test]
    fn labels_and_edge_variables_resolve() {
        assert_eq!(
            resolving("match { H -[acll:relcl]-> N;  H -[obj]-> M;  H =[f.label]=> M; } do { add H =[dep]=> N; }"),
            ["error: unknown UD relation `acll`", "error: edge variable `f` is not declared"]
        );
        assert_eq!(
            resolving("match { e: H -[obj]-> N;  e: H -[iobj]-> M;  H !-[nsubj]-> N; } do { add H =[dep]=> N; }"),
            ["error: edge variable `e` is declared twice"]
        );
    }

    #[test]
    fn descents_stay_on_basic_edges_within_bounds() {
        assert_eq!(
            resolving("match { H =[*]=>+ N;  H -[obj]->{0,3} M;  H -[*]->{1,40} K; } do { add H =[dep]=> N; }"),
            [
                "error: a descent follows basic edges only: write `-[..]->+`, not `=[..]=>+`",
                "error: a descent has at least one edge (`{1,n}`): the two ends are distinct nodes",
                "error: a descent goes at most 16 edges deep, not 40",
            ]
        );
    }
}
