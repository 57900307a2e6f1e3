//! Pass: a rule's examples — CoNLL-U that parses, `expect` blocks that check something, lines
//! that name a word of the example and give a well-formed DEPS value — and their lowering to the
//! expectations that hold under one profile.

use super::guards::{check_guard, eval_guard};
use super::Context;
use crate::conllu::{NodeId, RawBlock, Sentence};
use crate::rules::ast::{Example, Span};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::ir::CheckedExample;
use crate::rules::profile::Settings;
use rustc_hash::FxHashSet;

/// Checks one example and its expectations.
pub fn example(example: &Example, ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let block = RawBlock {
        bytes: example.conllu.clone().into_bytes(),
        first_line: 1,
        starts_input: false,
    };
    // The span of the source line the example's line `index` (1-based) came from, indentation
    // and trailing blanks left out.
    let line_span = |index: usize| -> Span {
        let line = example
            .source_lines
            .get(index.saturating_sub(1))
            .copied()
            .unwrap_or(example.span.line);
        let file = ctx.sources.get(example.span.file);
        let start = file.map_or(example.span.start, |f| f.line_start(line));
        let text = file.map_or("", |f| f.line_text(line));
        let indent = text.len() - text.trim_start().len();
        ctx.sources.span(
            example.span.file,
            start + indent,
            start + text.trim_end().len(),
        )
    };
    let mut ids: FxHashSet<String> = FxHashSet::default();
    if example.conllu.is_empty() {
        diagnostics.push(Diagnostic::error(example.span, "the example has no words"));
    } else {
        match Sentence::parse(block) {
            Ok(sentence) => {
                for token in sentence.tokens_in_order() {
                    ids.insert(sentence.column(token, 0).to_string());
                }
            }
            Err(error) => {
                let (_, e) = *error;
                let message = format!("example is not valid CoNLL-U: {}", e.message);
                diagnostics.push(Diagnostic::error(line_span(e.line), message));
            }
        }
    }
    for expectation in &example.expects {
        if let Some(guard) = &expectation.guard {
            diagnostics.extend(check_guard(guard, ctx.vocabulary));
        }
        if expectation.lines.is_empty() {
            diagnostics.push(Diagnostic::error(
                expectation.span,
                "an empty `expect` block checks nothing",
            ));
        }
        for line in &expectation.lines {
            let id_ok = NodeId::parse(&line.id).is_some_and(|id| !id.is_root());
            if !id_ok {
                let message = format!("`{}` is not a word or empty-node ID", line.id);
                diagnostics.push(Diagnostic::error(line.span, message));
                continue;
            }
            if !line.id.contains('.') && !ids.is_empty() && !ids.contains(&line.id) {
                let message = format!("the example has no word {}", line.id);
                diagnostics.push(Diagnostic::error(line.span, message));
            }
            if let Err(reason) = check_deps(&line.deps) {
                let message = format!("expected DEPS `{}`: {reason}", line.deps);
                diagnostics.push(Diagnostic::error(line.span, message));
            }
        }
    }
    diagnostics
}

/// A (checked) example with the expectations whose guard holds under `settings`.
pub fn lower(example: &Example, settings: &Settings) -> CheckedExample {
    let expect = example
        .expects
        .iter()
        .filter(|e| e.guard.as_ref().is_none_or(|g| eval_guard(g, settings)))
        .flat_map(|e| {
            e.lines
                .iter()
                .map(|line| (line.id.clone(), line.deps.clone()))
        })
        .collect();
    CheckedExample {
        conllu: example.conllu.clone(),
        expect,
        span: example.span,
    }
}

/// Checks a DEPS value: `_` or `head:label|head:label`, heads word or empty-node IDs (or 0).
fn check_deps(deps: &str) -> Result<(), String> {
    if deps.is_empty() {
        return Err("missing (write `_` for none)".to_string());
    }
    if deps == "_" {
        return Ok(());
    }
    for item in deps.split('|') {
        let Some((head, label)) = item.split_once(':') else {
            return Err(format!("`{item}` is not `head:label`"));
        };
        if NodeId::parse(head).is_none() {
            return Err(format!("`{head}` is not a node ID"));
        }
        if let Some(problem) = crate::ud::enhanced_label_problem(label) {
            return Err(format!("`{label}` is not a valid label: {problem}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, parse, with_context};
    use super::*;

    fn example_messages(example_text: &str) -> Vec<String> {
        let text = format!("phase p\nrule r {{ match {{ H -[obj]-> N; }} do {{ add H =[dep]=> N; }}\n{example_text}\n}}\n");
        let (sources, file) = parse(&text);
        with_context(&sources, |ctx| {
            let found: Vec<Diagnostic> = file.rules[0]
                .examples
                .iter()
                .flat_map(|e| example(e, ctx))
                .collect();
            messages(&sources, &found)
        })
    }

    #[test]
    fn a_sound_example_checks_clean() {
        let found = example_messages("example {\n1 a a NOUN _ _ 0 root _ _\n2 b b NOUN _ _ 1 obj _ _\n} expect {\n2 1:obj|1:dep\n}");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn expect_lines_name_words_with_valid_deps() {
        let found = example_messages(
            "example {\n1 a a NOUN _ _ 0 root _ _\n2 b b NOUN _ _ 1 obj _ _\n} expect {\nx _\n7 _\n2 1\n2.1 1:Obj\n}",
        );
        assert_eq!(
            found,
            [
                "7:1 error: `x` is not a word or empty-node ID",
                "8:1 error: the example has no word 7",
                "9:1 error: expected DEPS `1`: `1` is not `head:label`",
                "10:1 error: expected DEPS `1:Obj`: `Obj` is not a valid label: enhanced label 'Obj' is malformed: expected universal[:subtype][:marker][:case] (ASCII lower-case relation and subtype, lower-case marker words joined by '_')",
            ]
        );
    }

    #[test]
    fn invalid_conllu_is_located_at_its_line() {
        let found = example_messages(
            "example {\n1 a a NOUN _ _ 0 root _ _\n2 b b NOUN _ _ 9 obj _ _\n} expect {\n2 _\n}",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("5:1 error: example is not valid CoNLL-U: HEAD 9"),
            "{found:?}"
        );
    }

    #[test]
    fn an_empty_expect_block() {
        let found = example_messages("example {\n1 a a NOUN _ _ 0 root _ _\n} expect {\n}");
        assert_eq!(found, ["5:3 error: an empty `expect` block checks nothing"]);
    }

    #[test]
    fn lowering_keeps_the_expectations_whose_guard_holds() {
        let text = "phase p\nrule r { match { H -[obj]-> N; } do { add H =[dep]=> N; }\n\
                    example {\n1 a a NOUN _ _ 0 root _ _\n} expect {\n1 0:root\n} expect when not profile.case_feature {\n1 _\n}\n}\n";
        let (_, file) = parse(text);
        let vocabulary = crate::rules::vocabulary::Vocabulary::embedded();
        let settings = Settings::defaults(&vocabulary);
        let lowered = lower(&file.rules[0].examples[0], &settings);
        let expected: Vec<(String, String)> = if settings.flag("case_feature") {
            vec![("1".into(), "0:root".into())]
        } else {
            vec![("1".into(), "0:root".into()), ("1".into(), "_".into())]
        };
        assert_eq!(lowered.expect, expected);
    }
}
