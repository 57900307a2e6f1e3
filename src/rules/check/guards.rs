//! Pass: profile conditions (`when`) of `phase` lines, rules, label parts and expectations —
//! settings that exist and have the type the condition needs, texts the setting can hold — and
//! their evaluation under one profile's settings.

use super::squash;
use crate::rules::ast::{Guard, GuardKind, Name, PhaseLine, Rule, RuleFile};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::profile::{SettingType, Settings};
use crate::rules::source::SourceMap;
use crate::rules::vocabulary::Vocabulary;
use rustc_hash::FxHashSet;

/// Evaluates a (type-checked) guard under `settings`; ill-typed parts count as false.
pub fn eval_guard(guard: &Guard, settings: &Settings) -> bool {
    match &guard.kind {
        GuardKind::Setting(name) => settings.flag(&name.text),
        GuardKind::Equals { setting, value } => {
            settings.text(&setting.text) == Some(value.text.as_str())
        }
        GuardKind::Contains { setting, value } => {
            settings.list(&setting.text).contains(&value.text)
        }
        GuardKind::Not(inner) => !eval_guard(inner, settings),
        GuardKind::And(parts) => parts.iter().all(|g| eval_guard(g, settings)),
        GuardKind::Or(parts) => parts.iter().any(|g| eval_guard(g, settings)),
    }
}

/// Whether a rule exists under `settings`: its `phase` line's guard and its own both hold.
pub fn rule_enabled(rule: &Rule, settings: &Settings) -> bool {
    [&rule.phase_guard, &rule.guard]
        .into_iter()
        .flatten()
        .all(|g| eval_guard(g, settings))
}

/// Reports unknown settings, settings of the wrong type, and texts a setting cannot hold
/// (`profile.gapping_node_place == "after_frist"`, `"gaping" in profile.annotates`: checked as
/// the setting's values in a profile are) in a guard.
pub fn check_guard(guard: &Guard, vocabulary: &Vocabulary) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let mut expect =
        |name: &Name, value: Option<&Name>, wanted: SettingType, usage: &str| match vocabulary
            .setting(&name.text)
        {
            None => diagnostics.push(vocabulary.unknown_setting(name.span, &name.text, "profile.")),
            Some(decl) if decl.kind != wanted => diagnostics.push(Diagnostic::error(
                name.span,
                format!(
                    "`profile.{}` is {}, but {usage} needs {}",
                    name.text,
                    decl.kind.describe(),
                    wanted.describe()
                ),
            )),
            Some(decl) => {
                if let Some(value) = value {
                    diagnostics.extend(vocabulary.item_problem(
                        &name.text,
                        decl.items,
                        &decl.values,
                        &value.text,
                        value.span,
                    ));
                }
            }
        };
    match &guard.kind {
        GuardKind::Setting(name) => expect(name, None, SettingType::Bool, "a condition on its own"),
        GuardKind::Equals { setting, value } => {
            expect(setting, Some(value), SettingType::Text, "`==`")
        }
        GuardKind::Contains { setting, value } => {
            expect(setting, Some(value), SettingType::List, "`in`")
        }
        GuardKind::Not(inner) => diagnostics.extend(check_guard(inner, vocabulary)),
        GuardKind::And(parts) | GuardKind::Or(parts) => parts
            .iter()
            .for_each(|g| diagnostics.extend(check_guard(g, vocabulary))),
    }
    diagnostics
}

/// Checks the guard of a `phase NAME when GUARD` line as a rule's, and warns when it applies to
/// no rule (no rule follows the line before the next `phase` line).
pub fn phase_line(line: &PhaseLine, file: &RuleFile, vocabulary: &Vocabulary) -> Vec<Diagnostic> {
    let Some(guard) = &line.guard else {
        return Vec::new();
    };
    let mut diagnostics = check_guard(guard, vocabulary);
    if !file.rules.iter().any(|r| r.phase.span == line.name.span) {
        diagnostics.push(
            Diagnostic::warning(
                guard.span,
                format!(
                    "this guard of `phase {}` applies to no rule",
                    line.name.text
                ),
            )
            .with_note("it applies to the rules below the line, up to the next `phase` line"),
        );
    }
    diagnostics
}

/// A rule's own guard: checked, and each `and` part that repeats one of its `phase` line's is a
/// warning (the line's guard already applies to the rule).
pub fn rule_guard(rule: &Rule, vocabulary: &Vocabulary, sources: &SourceMap) -> Vec<Diagnostic> {
    let Some(guard) = &rule.guard else {
        return Vec::new();
    };
    let mut diagnostics = check_guard(guard, vocabulary);
    let Some(phase_guard) = &rule.phase_guard else {
        return diagnostics;
    };
    let text = |g: &Guard| sources.text(g.span).to_string();
    let phase_parts: FxHashSet<String> = conjuncts(phase_guard)
        .into_iter()
        .map(|g| squash(&text(g)))
        .collect();
    for part in conjuncts(guard) {
        if phase_parts.contains(&squash(&text(part))) {
            diagnostics.push(
                Diagnostic::warning(
                    part.span,
                    format!(
                        "`{}` repeats the guard of the `phase {}` line, which already applies to this rule",
                        text(part),
                        rule.phase.text
                    ),
                )
                .with_note("drop it from the rule's `when`"),
            );
        }
    }
    diagnostics
}

/// The parts of a guard joined by `and` at its top (the guard itself when it is no `and`).
fn conjuncts(guard: &Guard) -> Vec<&Guard> {
    match &guard.kind {
        GuardKind::And(parts) => parts.iter().flat_map(conjuncts).collect(),
        _ => vec![guard],
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, parse};
    use super::*;
    use crate::rules::profile::SettingValue;

    fn guard_messages(text: &str) -> Vec<String> {
        let (sources, file) = parse(text);
        let vocabulary = Vocabulary::embedded();
        let mut found = Vec::new();
        for line in &file.phases {
            found.extend(phase_line(line, &file, &vocabulary));
        }
        for rule in &file.rules {
            found.extend(rule_guard(rule, &vocabulary, &sources));
        }
        messages(&sources, &found)
    }

    const RULE: &str = "{ match { H -[obj]-> N; } do { add H =[dep]=> N; } }";

    #[test]
    fn unknown_enhancement_in_a_phase_guard() {
        let text = format!("phase p when \"gaping\" in profile.annotates\nrule r {RULE}\n");
        let found = guard_messages(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("1:14 error: unknown enhancement `gaping`"),
            "{found:?}"
        );
    }

    #[test]
    fn a_setting_of_the_wrong_type_in_a_phase_guard() {
        let text = format!("phase p when profile.annotates\nrule r {RULE}\n");
        let found = guard_messages(&text);
        assert_eq!(
            found,
            ["1:14 error: `profile.annotates` is a list of strings, but a condition on its own needs a boolean"]
        );
    }

    #[test]
    fn a_rule_guard_repeating_its_phase_guard() {
        let text = format!(
            "phase p when \"case\" in profile.annotates\n\
             rule r when profile.case_feature and \"case\"  in profile.annotates {RULE}\n\
             rule s when profile.case_feature {RULE}\n"
        );
        let found = guard_messages(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("2:38 warning: `\"case\"  in profile.annotates` repeats the guard of the `phase p` line"));
    }

    #[test]
    fn a_phase_guard_with_no_rule_below() {
        let text = format!("phase p when profile.case_feature\nphase q\nrule r {RULE}\n");
        assert_eq!(
            guard_messages(&text),
            ["1:14 warning: this guard of `phase p` applies to no rule"]
        );
    }

    #[test]
    fn a_phase_guard_joins_the_rule_guard_with_and() {
        let text =
            format!("phase p when profile.case_feature\nrule r when profile.conj_subtype {RULE}\n");
        let (_, file) = parse(&text);
        let vocabulary = Vocabulary::embedded();
        let mut settings = Settings::defaults(&vocabulary);
        let rule = &file.rules[0];
        let enabled = |s: &Settings| rule_enabled(rule, s);
        settings.set("case_feature", SettingValue::Bool(true));
        settings.set("conj_subtype", SettingValue::Bool(true));
        assert!(enabled(&settings));
        settings.set("case_feature", SettingValue::Bool(false));
        assert!(!enabled(&settings), "the phase line's guard is false");
        settings.set("case_feature", SettingValue::Bool(true));
        settings.set("conj_subtype", SettingValue::Bool(false));
        assert!(!enabled(&settings), "the rule's own guard is false");
    }
}
