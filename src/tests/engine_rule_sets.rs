//! The engine on whole rule sets: every embedded rule's examples (and their snapshots), the
//! semi-naive rounds against a search of every rule in every round on the test rules of
//! `tests/data/engine_rules`, a workspace shared by two rule sets. The command line's view of the
//! same rules is in tests/engine.rs.

use super::common::{text, ENGINE_RULES, FEEDING_SENTENCES, I_READ_BOOKS};
use crate::conllu::{write_sentence, EnhancedLayer, RawBlock, Sentence};
use crate::engine::{Engine, Workspace};
use crate::rules::{list_profiles, load_ruleset, RuleSource};

/// The engine of profile `name` of the test rules.
fn test_rules_engine(name: &str) -> Engine {
    let source = RuleSource::from_dir(std::path::Path::new(ENGINE_RULES)).unwrap();
    Engine::new(&load_ruleset(&source, name).unwrap_or_else(|e| panic!("{}", e.render())))
}

/// Each sentence of `input` enhanced by `engine`, written out.
fn enhanced(engine: &Engine, input: &str) -> String {
    let mut out = Vec::new();
    for block in input.split_inclusive("\n\n") {
        let sentence = Sentence::parse(RawBlock {
            bytes: block.as_bytes().to_vec(),
            first_line: 1,
            starts_input: true,
        })
        .unwrap();
        let mut layer = EnhancedLayer::default();
        engine.enhance(&sentence, &mut layer).unwrap();
        write_sentence(&mut out, &sentence, Some(&layer));
    }
    text(&out)
}

/// Later rounds search only from what the last round changed. On the test rules where that
/// matters (a group of phases feeding each other, rules anchored on empty nodes made in round
/// one, a removed label re-enabling a rule without delta plans), searching every rule whole in
/// every round gives the same output (what that output is: tests/engine.rs).
#[test]
fn semi_naive_rounds_give_what_exhaustive_rounds_give_on_the_test_rules() {
    for (profile, input) in [
        ("feeding", FEEDING_SENTENCES),
        ("feeding_control_first", FEEDING_SENTENCES),
        ("feeding_coordination_first", FEEDING_SENTENCES),
        ("empty", I_READ_BOOKS),
        ("whole", I_READ_BOOKS),
    ] {
        let semi_naive = test_rules_engine(profile);
        let mut exhaustive = test_rules_engine(profile);
        exhaustive.exhaustive_rounds = true;
        let output = enhanced(&semi_naive, input);
        assert_ne!(output, input, "{profile}: the rules did nothing");
        assert_eq!(output, enhanced(&exhaustive, input), "{profile}");
    }
    // `whole` is the case of a rule without delta plans, searched again in round two.
    assert!(test_rules_engine("whole")
        .rules
        .iter()
        .all(|r| r.delta_plans.is_empty()));
}

/// Every example of every embedded rule passes under every profile that has the rule. An
/// example's whole output sentence is kept as a snapshot (`snapshots/examples/`, one per
/// example, whatever the profiles) only where it says more than its `expect` block: an example
/// without one, a created empty node (its FORM, LEMMA… lines), or a word whose DEPS the rule
/// changed though the block does not list it. The other outputs would only repeat the block.
#[test]
fn embedded_rule_examples_pass_and_match_their_snapshots() {
    use std::collections::BTreeMap;
    let source = RuleSource::embedded();
    let mut ran = 0;
    // Example `file__rule__n` → each distinct output that says more than its expect block →
    // the profiles that gave it.
    let mut kept: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for profile in list_profiles(&source).unwrap() {
        let rule_set =
            load_ruleset(&source, &profile.name).unwrap_or_else(|e| panic!("{}", e.render()));
        let enhancer = Engine::new(&rule_set);
        for (index, compiled) in enhancer.rules.iter().enumerate() {
            let rule = &compiled.rule;
            if enhancer.needs_missing_lexicon(index) {
                continue;
            }
            for (n, example) in rule.examples.iter().enumerate() {
                let result = enhancer.run_example(index, example).unwrap();
                assert!(
                    result.passed(),
                    "{} {}: {:?}",
                    profile.name,
                    rule.name,
                    result.mismatches
                );
                ran += 1;
                if says_only_its_expect_block(&example.conllu, &example.expect, &result.output) {
                    continue;
                }
                let file = std::path::Path::new(&rule.path).with_extension("");
                let file = file.iter().rev().take(2).collect::<Vec<_>>();
                let name = format!(
                    "{}_{}__{}__{n}",
                    file[1].to_string_lossy(),
                    file[0].to_string_lossy(),
                    rule.name
                );
                kept.entry(name)
                    .or_default()
                    .entry(result.output)
                    .or_default()
                    .push(profile.name.clone());
            }
        }
    }
    assert!(
        ran >= 6,
        "one example per enhancement type at least, ran {ran}"
    );
    for (name, outputs) in kept {
        // One output for every profile: the snapshot is that output. Outputs that differ by
        // profile are each headed by the profiles that gave it.
        let value = if outputs.len() == 1 {
            outputs.into_keys().next().unwrap()
        } else {
            outputs
                .into_iter()
                .map(|(output, profiles)| format!("# {}\n{output}", profiles.join(" ")))
                .collect::<Vec<_>>()
                .join("\n")
        };
        insta::with_settings!({snapshot_path => "../../snapshots/examples", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, value);
        });
    }
}

/// Whether an example's `output` says nothing its `expect` block does not: the block is not
/// empty, no empty node was created, and every word it does not list kept the DEPS it started
/// with (the example's own, else the basic edge).
fn says_only_its_expect_block(input: &str, expect: &[(String, String)], output: &str) -> bool {
    let deps_at_start: std::collections::HashMap<&str, String> = input
        .lines()
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .filter(|cols| cols.len() == 10)
        .map(|cols| {
            let deps = match cols[8] {
                "_" => format!("{}:{}", cols[6], cols[7]),
                given => given.to_string(),
            };
            (cols[0], deps)
        })
        .collect();
    !expect.is_empty()
        && output
            .lines()
            .map(|line| line.split('\t').collect::<Vec<_>>())
            .filter(|cols| cols.len() == 10)
            .all(|cols| {
                deps_at_start.get(cols[0]).is_some_and(|deps| {
                    *deps == cols[8] || expect.iter().any(|(id, _)| id == cols[0])
                })
            })
}

/// A workspace reused by another rule set reads this sentence's lemmas through that rule set's
/// `[lemmas]`: a label made from a lemma is the lemma of this sentence's word, not of the word at
/// the same position in the sentence enhanced before.
#[test]
fn a_workspace_reused_by_another_rule_set_forgets_the_lemmas_it_looked_up() {
    let (tests_lemmas, labels_only) = (
        test_rules_engine("lemmas"),
        test_rules_engine("lemma_label"),
    );
    let sentence = |lemma: &str| {
        let text = format!(
            "1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\tw\t{lemma}\tNOUN\t_\t_\t1\tobj\t_\t_\n\n"
        );
        Sentence::parse(RawBlock {
            bytes: text.into_bytes(),
            first_line: 1,
            starts_input: true,
        })
        .unwrap()
    };
    let deps = |enhancer: &Engine, sentence: &Sentence, workspace: &mut Workspace| {
        let mut layer = EnhancedLayer::default();
        enhancer
            .enhance_with(sentence, &mut layer, workspace)
            .unwrap();
        let mut out = Vec::new();
        write_sentence(&mut out, sentence, Some(&layer));
        text(&out)
            .lines()
            .nth(1)
            .unwrap()
            .split('\t')
            .nth(8)
            .unwrap()
            .to_string()
    };
    let mut workspace = Workspace::default();
    assert_eq!(
        deps(&tests_lemmas, &sentence("Want"), &mut workspace),
        "1:obj|1:obj:want"
    );
    assert_eq!(
        deps(&labels_only, &sentence("Walk"), &mut workspace),
        "1:obj|1:obj:walk"
    );
    assert_eq!(
        deps(&labels_only, &sentence("Run"), &mut workspace),
        "1:obj|1:obj:run"
    );
    assert_eq!(
        deps(&tests_lemmas, &sentence("Été"), &mut workspace),
        "1:dep:listed|1:obj|1:obj:été"
    );
}
