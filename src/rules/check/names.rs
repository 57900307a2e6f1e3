//! Pass: what a rule's name and place say — a name unique across the files of a profile, a
//! `phase` line above it, and a `do` block with something in it.

use super::location;
use crate::rules::ast::Rule;
use crate::rules::diagnostic::Diagnostic;
use crate::rules::source::SourceMap;
use rustc_hash::FxHashMap;

/// The rule names met so far, each with where it was first defined.
#[derive(Default)]
pub struct Names<'r> {
    first: FxHashMap<&'r str, &'r Rule>,
}

impl<'r> Names<'r> {
    /// Reports `rule` when an earlier rule has its name; otherwise remembers it.
    pub fn duplicate(&mut self, rule: &'r Rule, sources: &SourceMap) -> Option<Diagnostic> {
        if let Some(first) = self.first.get(rule.name.text.as_str()) {
            let at = location(sources, first.name.span);
            return Some(
                Diagnostic::error(
                    rule.name.span,
                    format!("duplicate rule name `{}`", rule.name.text),
                )
                .with_note(format!("first defined at {at}")),
            );
        }
        self.first.insert(&rule.name.text, rule);
        None
    }
}

/// A rule written before any `phase NAME` line.
pub fn before_phase(rule: &Rule) -> Option<Diagnostic> {
    rule.phase.text.is_empty().then(|| {
        Diagnostic::error(
            rule.name.span,
            format!(
                "rule `{}` comes before any `phase NAME` line",
                rule.name.text
            ),
        )
    })
}

/// A rule whose `do` block is empty.
pub fn no_actions(rule: &Rule) -> Option<Diagnostic> {
    rule.actions.is_empty().then(|| {
        Diagnostic::error(
            rule.name.span,
            format!(
                "rule `{}` has no actions (its `do` block is empty)",
                rule.name.text
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, parse};
    use super::*;

    const BODY: &str = "{ match { H -[obj]-> N; } do { add H =[dep]=> N; } }";

    #[test]
    fn a_name_is_defined_once() {
        let (sources, file) = parse(&format!(
            "phase p\nrule r {BODY}\nrule s {BODY}\nrule r {BODY}\n"
        ));
        let mut names = Names::default();
        let found: Vec<Diagnostic> = file
            .rules
            .iter()
            .filter_map(|r| names.duplicate(r, &sources))
            .collect();
        assert_eq!(
            messages(&sources, &found),
            ["4:6 error: duplicate rule name `r`"]
        );
        assert_eq!(found[0].notes, ["first defined at test.rules:2:6"]);
    }

    #[test]
    fn a_rule_needs_a_phase_line_above_it() {
        let (sources, file) = parse(&format!("rule r {BODY}\nphase p\nrule s {BODY}\n"));
        let found: Vec<Diagnostic> = file.rules.iter().filter_map(before_phase).collect();
        assert_eq!(
            messages(&sources, &found),
            ["1:6 error: rule `r` comes before any `phase NAME` line"]
        );
    }

    #[test]
    fn a_rule_needs_an_action() {
        let (sources, file) = parse("phase p\nrule r { match { H -[obj]-> N; } do { } }\n");
        let found: Vec<Diagnostic> = file.rules.iter().filter_map(no_actions).collect();
        assert_eq!(
            messages(&sources, &found),
            ["2:6 error: rule `r` has no actions (its `do` block is empty)"]
        );
    }
}
