//! The engine end to end: embedded rule examples, `--rules DIR`, parallel edges, the step
//! limit, `explain`, `test`, `check` and `profiles`.

use crate::common::{run, text};
use eudify::engine::Engine;
use eudify::rules::{list_profiles, load_ruleset, RuleSource};

const ENGINE_RULES: &str = "tests/data/engine_rules";

/// Snapshots of this module's whole outputs (`explain`, the sample per profile), in
/// `snapshots/engine/`.
fn snapshot(name: &str, value: &str) {
    insta::with_settings!({snapshot_path => "../snapshots/engine", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name.to_string(), value);
    });
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
        insta::with_settings!({snapshot_path => "../snapshots/examples", prepend_module_to_snapshot => false}, {
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

#[test]
fn the_test_command_runs_every_example() {
    let out = run(&["test"], b"");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}

#[test]
fn the_test_command_shows_a_diff_on_failure() {
    let dir = copy_of_embedded_rules("failing_example");
    let path = dir.join("rules/universal/case.rules");
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("1:obl:in", "1:obl:on", 1);
    std::fs::write(&path, edited).unwrap();
    let out = run(
        &["test", "--rules", dir.join("rules").to_str().unwrap()],
        b"",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("- expected 1:obl:on") && stdout.contains("+ actual   1:obl:in"),
        "{stdout}"
    );
}

/// An example whose expectations are the same under two profiles is still run under both: a
/// setting can make the rule behave differently, and a failure under the second profile is
/// reported, not hidden behind the first one's pass.
#[test]
fn the_test_command_runs_an_example_under_each_profile_that_behaves_differently() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("test_per_profile/rules");
    let _ = std::fs::remove_dir_all(&dir);
    let rules = "phase one\nrule r {\n  match { H -[advmod]-> N; }\n  do { add H =[{profile.relative_adverb_label}]=> N; }\n  example {\n    1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n    2\tthere\tthere\tADV\t_\t_\t1\tadvmod\t_\t_\n  } expect {\n    2\t1:advmod|1:obl\n  }\n}\n";
    let profile = |name: &str, settings: &str| {
        format!("name = \"{name}\"\ndescription = \"test\"\nrules = [\"set/*.rules\"]\n[settings]\n{settings}")
    };
    for (path, text) in [
        (
            "lexicons/universal.toml",
            "[control]\nsubject = []\nobject = []\n".to_string(),
        ),
        ("set/a.rules", rules.to_string()),
        // xx: the default label, obl, as expected; yy: advmod, which the expectation misses.
        ("profiles/xx.toml", profile("xx", "")),
        (
            "profiles/yy.toml",
            profile("yy", "relative_adverb_label = \"advmod\"\n"),
        ),
        ("profiles/zz.toml", profile("zz", "")),
    ] {
        std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.join(path), text).unwrap();
    }
    let out = run(&["test", "--rules", dir.to_str().unwrap()], b"");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("rule r (profile yy)"), "{stdout}");
    assert!(
        stdout.contains("- expected 1:advmod|1:obl") && stdout.contains("+ actual   1:advmod\n"),
        "{stdout}"
    );
    // zz behaves as xx does: one test.
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
}

/// A copy of the embedded `rules/` and `lexicons/` in a fresh temporary folder.
fn copy_of_embedded_rules(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for top in ["rules", "lexicons"] {
        for entry in walkdir::WalkDir::new(top) {
            let entry = entry.unwrap();
            let target = dir.join(entry.path());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }
    dir
}

#[test]
fn rules_from_a_folder_behave_like_the_embedded_ones_and_can_be_edited() {
    let dir = copy_of_embedded_rules("edited_rules");
    let rules = dir.join("rules");
    let rules = rules.to_str().unwrap();
    let embedded = run(
        &["enhance", "--lang", "en", "tests/data/sample.conllu"],
        b"",
    );
    let from_dir = run(
        &[
            "enhance",
            "--lang",
            "en",
            "--rules",
            rules,
            "tests/data/sample.conllu",
        ],
        b"",
    );
    assert!(
        embedded.status.success() && from_dir.status.success(),
        "{}",
        text(&from_dir.stderr)
    );
    assert_eq!(text(&embedded.stdout), text(&from_dir.stdout));
    assert!(
        text(&embedded.stdout).contains("2:obl:out_of"),
        "{}",
        text(&embedded.stdout)
    );

    // An edit to the copy changes the output: case labels switched off for English.
    let profile = dir.join("rules/profiles/en.toml");
    let edited = std::fs::read_to_string(&profile).unwrap()
        + "annotates = [\"coord_parent\", \"coord_shared\", \"xsubj\", \"relcl\", \"gapping\"]\n";
    std::fs::write(&profile, edited).unwrap();
    let edited = run(
        &[
            "enhance",
            "--lang",
            "en",
            "--rules",
            rules,
            "tests/data/sample.conllu",
        ],
        b"",
    );
    assert!(edited.status.success(), "{}", text(&edited.stderr));
    assert!(!text(&edited.stdout).contains("obl:out_of"));
    assert!(
        text(&edited.stdout).contains("2:nsubj|4:nsubj:xsubj"),
        "{}",
        text(&edited.stdout)
    );
}

#[test]
fn matching_is_edge_induced_over_parallel_edges() {
    let out = run(
        &[
            "enhance",
            "--rules",
            ENGINE_RULES,
            "--lang",
            "parallel",
            "tests/data/sample.conllu",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\t4:obj|4:obj:extra\t"), "{stdout}");
    // One empty node per parallel edge, each with that edge's label.
    assert!(
        stdout.contains("\n6.1\tbook\tbook\tNOUN\tNN\tNumber=Sing\t_\t_\t4:obj"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n6.2\tbook\tbook\tNOUN\tNN\tNumber=Sing\t_\t_\t4:obj"),
        "{stdout}"
    );
    assert!(!stdout.contains("\n6.3\t"), "{stdout}");
}

/// Control and coordination feed each other only when they run to one fixpoint (a group of
/// phases): "came and tried to stay" needs the shared subject before the controlled one, "tried
/// to sing and dance" the controlled subject before the shared one. Either order of two phases
/// misses one; the group finds both, and a rule anchored on an enhanced edge alone
/// (`X =[nsubj:xsubj]=> S`) in the group sees the edges made in every round, as a search of the
/// whole graph in every round does.
#[test]
fn a_group_of_phases_runs_to_one_fixpoint_where_control_and_coordination_feed_each_other() {
    let input = "# sent_id = came_tried\n1\tShe\tshe\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tcame\tcome\tVERB\t_\t_\t0\troot\t_\t_\n\
        3\tand\tand\tCCONJ\t_\t_\t4\tcc\t_\t_\n4\ttried\ttry\tVERB\t_\t_\t2\tconj\t_\t_\n5\tto\tto\tPART\t_\t_\t6\tmark\t_\t_\n\
        6\tstay\tstay\tVERB\t_\t_\t4\txcomp\t_\t_\n\n\
        # sent_id = tried_sing_dance\n1\tShe\tshe\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\ttried\ttry\tVERB\t_\t_\t0\troot\t_\t_\n\
        3\tto\tto\tPART\t_\t_\t4\tmark\t_\t_\n4\tsing\tsing\tVERB\t_\t_\t2\txcomp\t_\t_\n5\tand\tand\tCCONJ\t_\t_\t6\tcc\t_\t_\n\
        6\tdance\tdance\tVERB\t_\t_\t4\tconj\t_\t_\n\n";
    let deps = |profile: &str| {
        let out = run(
            &["enhance", "--rules", ENGINE_RULES, "--lang", profile],
            input.as_bytes(),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        stdout
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| l.split('\t').nth(8).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // She, stay / She, sing, dance: (controlled) subjects and their marks.
    let group = deps("feeding");
    assert_eq!(group[0], "2:nsubj|4:nsubj|6:nsubj:xsubj");
    assert_eq!(group[5], "1:dep:controls|4:xcomp");
    assert_eq!(group[6], "2:nsubj|4:nsubj:xsubj|6:nsubj:xsubj");
    assert_eq!(group[11], "1:dep:controls|4:conj");
    let control_first = deps("feeding_control_first");
    assert_eq!(
        control_first[0], "2:nsubj|4:nsubj",
        "control ran before the subject was shared"
    );
    assert_eq!(control_first[6], group[6]);
    let coordination_first = deps("feeding_coordination_first");
    assert_eq!(coordination_first[0], group[0]);
    assert_eq!(
        coordination_first[6], "2:nsubj|4:nsubj:xsubj",
        "the subject was shared before control made it"
    );

    // The same outputs when every rule is searched whole in every round.
    use eudify::conllu::{EnhancedLayer, RawBlock, Sentence};
    let source = RuleSource::from_dir(std::path::Path::new(ENGINE_RULES)).unwrap();
    let rule_set = load_ruleset(&source, "feeding").unwrap_or_else(|e| panic!("{}", e.render()));
    let (seeded, mut exhaustive) = (Engine::new(&rule_set), Engine::new(&rule_set));
    exhaustive.exhaustive_rounds = true;
    for block in input.split_inclusive("\n\n") {
        let sentence = Sentence::parse(RawBlock {
            bytes: block.as_bytes().to_vec(),
            first_line: 1,
            starts_input: true,
        })
        .unwrap();
        let (mut a, mut b) = (EnhancedLayer::default(), EnhancedLayer::default());
        seeded.enhance(&sentence, &mut a).unwrap();
        exhaustive.enhance(&sentence, &mut b).unwrap();
        let write = |layer: &EnhancedLayer| {
            let mut out = Vec::new();
            eudify::conllu::write_sentence(&mut out, &sentence, Some(layer));
            text(&out)
        };
        assert_eq!(write(&a), write(&b));
    }
}

/// `[empty]` anchors a rule on empty nodes, `[!empty]` on words: the empty node made in round
/// one is found in round two by the rule that scans empty nodes (its anchor, which asks for an
/// empty node, admits the sentence only then), as a search of the whole graph in every round
/// finds it. `empty` takes no value.
#[test]
fn rules_anchored_on_empty_nodes_find_the_nodes_made_in_earlier_rounds() {
    let input = "# sent_id = e\n1\tI\tI\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tread\tread\tVERB\t_\t_\t0\troot\t_\t_\n\
        3\tbooks\tbook\tNOUN\t_\t_\t2\tobj\t_\t_\n\n";
    let out = run(
        &["enhance", "--rules", ENGINE_RULES, "--lang", "empty"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\n3\tbooks\tbook\tNOUN\t_\t_\t2\tobj\t2:dep:word|2:obj\t_\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n3.1\tbooks\tbook\tNOUN\t_\t_\t_\t_\t2:dep:empty|2:obj\tCopyOf=3\n"),
        "{stdout}"
    );

    use eudify::conllu::{EnhancedLayer, RawBlock, Sentence};
    let source = RuleSource::from_dir(std::path::Path::new(ENGINE_RULES)).unwrap();
    let rule_set = load_ruleset(&source, "empty").unwrap_or_else(|e| panic!("{}", e.render()));
    let enhancer = Engine::new(&rule_set);
    let mut exhaustive = Engine::new(&rule_set);
    exhaustive.exhaustive_rounds = true;
    let sentence = Sentence::parse(RawBlock {
        bytes: input.as_bytes().to_vec(),
        first_line: 1,
        starts_input: true,
    })
    .unwrap();
    let (mut a, mut b) = (EnhancedLayer::default(), EnhancedLayer::default());
    enhancer.enhance(&sentence, &mut a).unwrap();
    exhaustive.enhance(&sentence, &mut b).unwrap();
    let write = |layer: &EnhancedLayer| {
        let mut out = Vec::new();
        eudify::conllu::write_sentence(&mut out, &sentence, Some(layer));
        text(&out)
    };
    assert_eq!(write(&a), stdout);
    assert_eq!(write(&b), stdout);

    let out = run(&["check", "--rules", ENGINE_RULES], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A group of phases lists two phases or more, and `[empty]` takes no value.
#[test]
fn a_group_of_one_phase_and_an_empty_test_with_a_value_are_errors() {
    let dir = std::env::temp_dir().join(format!("eudify-group-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("profiles")).unwrap();
    std::fs::create_dir_all(dir.join("engine")).unwrap();
    std::fs::create_dir_all(dir.join("lexicons")).unwrap();
    std::fs::copy(
        format!("{ENGINE_RULES}/lexicons/universal.toml"),
        dir.join("lexicons/universal.toml"),
    )
    .unwrap();
    std::fs::copy(
        format!("{ENGINE_RULES}/engine/feeding.rules"),
        dir.join("engine/feeding.rules"),
    )
    .unwrap();
    std::fs::write(
        dir.join("profiles/lonely.toml"),
        "name = \"lonely\"\ndescription = \"x\"\nrules = [\"engine/feeding.rules\"]\nphases = [[\"control\"], \"coordination\", \"marking\"]\n",
    )
    .unwrap();
    let out = run(
        &[
            "enhance",
            "--rules",
            dir.to_str().unwrap(),
            "--lang",
            "lonely",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("a group of phases lists two phases or more"),
        "{}",
        text(&out.stderr)
    );
    // Likewise `empty` with a value.
    let rules = std::fs::read_to_string(format!("{ENGINE_RULES}/engine/empty.rules"))
        .unwrap()
        .replace("E [empty];", "E [empty=yes];");
    std::fs::write(dir.join("engine/empty.rules"), rules).unwrap();
    std::fs::write(
        dir.join("profiles/empty.toml"),
        "name = \"empty\"\ndescription = \"x\"\nrules = [\"engine/empty.rules\"]\n",
    )
    .unwrap();
    let out = run(
        &[
            "enhance",
            "--rules",
            dir.to_str().unwrap(),
            "--lang",
            "empty",
        ],
        b"",
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("empty.rules:12:14: error: `empty` has no value"),
        "{}",
        text(&out.stderr)
    );
}

/// A looping rule set costs each sentence it loops on, not the run: each is written with the
/// basic copy as DEPS and reported with the rule, its file and the sentence (more in `limits`).
#[test]
fn a_looping_rule_set_is_stopped_with_the_rule_file_and_sentence() {
    let out = run(
        &[
            "enhance",
            "--rules",
            ENGINE_RULES,
            "--lang",
            "loop",
            "tests/data/sample.conllu",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("tests/data/sample.conllu:1: sentence s1: rules do not terminate"),
        "{stderr}"
    );
    assert!(
        stderr.contains("grow_forever (tests/data/engine_rules/engine/loop.rules:5)"),
        "{stderr}"
    );
    let basic = run(
        &["enhance", "--lang", "basic", "tests/data/sample.conllu"],
        b"",
    );
    assert_eq!(text(&out.stdout), text(&basic.stdout));
}

#[test]
fn explain_names_the_rule_behind_each_edge() {
    let out = run(
        &[
            "explain",
            "--lang",
            "en",
            "--sent-id",
            "s1",
            "tests/data/sample.conllu",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    snapshot("explain__en__s1", &text(&out.stdout));
    let missing = run(
        &["explain", "--sent-id", "nope", "tests/data/sample.conllu"],
        b"",
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("no sentence with sent_id nope"));
}

#[test]
fn sample_output_per_profile() {
    for profile in ["basic", "universal", "en"] {
        let out = run(
            &["enhance", "--lang", profile, "tests/data/sample.conllu"],
            b"",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        snapshot(&format!("sample__{profile}"), &text(&out.stdout));
        let validated = run(&["validate", "/dev/stdin"], &out.stdout);
        assert!(
            validated.status.success(),
            "{profile}: {}",
            text(&validated.stderr)
        );
    }
}

#[test]
fn unknown_codes_fall_back_with_a_warning() {
    let treebank = run(
        &["enhance", "--lang", "en_foo", "tests/data/sample.conllu"],
        b"",
    );
    assert!(treebank.status.success());
    assert!(
        text(&treebank.stderr)
            .contains("no profile for treebank `en_foo`: using the language profile `en`"),
        "{}",
        text(&treebank.stderr)
    );
    let language = run(
        &["enhance", "--lang", "xx", "tests/data/sample.conllu"],
        b"",
    );
    assert!(language.status.success());
    assert!(
        text(&language.stderr).contains("using the `universal` profile"),
        "{}",
        text(&language.stderr)
    );
    let universal = run(
        &["enhance", "--lang", "universal", "tests/data/sample.conllu"],
        b"",
    );
    assert_eq!(language.stdout, universal.stdout);
}

#[test]
fn profiles_lists_one_line_each() {
    let out = run(&["profiles"], b"");
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    for name in ["basic", "universal", "en"] {
        assert!(stdout.lines().any(|l| l.starts_with(name)), "{stdout}");
    }
}

#[test]
fn check_passes_on_embedded_rules_and_fails_on_broken_ones() {
    let out = run(&["check"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = copy_of_embedded_rules("broken_check");
    std::fs::copy(
        "tests/data/broken_rules/several_errors.rules",
        dir.join("rules/universal/zz_broken.rules"),
    )
    .unwrap();
    let out = run(
        &["check", "--rules", dir.join("rules").to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("zz_broken.rules:") && stderr.contains('^'),
        "{stderr}"
    );
}

/// A thread's label table is cleared between sentences once it holds more than 65,536 labels:
/// sentences after one with 70,000 distinct labels, some of them its labels again, are enhanced
/// exactly as on their own, and that sentence keeps every label.
#[test]
fn sentences_after_a_flood_of_distinct_labels_are_enhanced_as_alone() {
    let sample = std::fs::read("tests/data/sample.conllu").unwrap();
    // Lower-case letters only (digits spelt a-j): label parts have no digits.
    let word = |n: usize| {
        n.to_string()
            .bytes()
            .map(|d| char::from(d - b'0' + b'a'))
            .collect::<String>()
    };
    let mut flood = String::from("# sent_id = flood\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n");
    for n in 2..=70_001 {
        flood.push_str(&format!("{n}\tx\tx\tX\t_\t_\t1\tdep:w{}\t_\t_\n", word(n)));
    }
    flood.push('\n');
    let mut echo = String::from("# sent_id = echo\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n");
    for (i, n) in (69_000..=70_001).step_by(7).enumerate() {
        echo.push_str(&format!(
            "{}\tx\tx\tX\t_\t_\t1\tdep:w{}\t_\t_\n",
            i + 2,
            word(n)
        ));
    }
    echo.push('\n');
    let after = [echo.as_bytes(), sample.as_slice()].concat();
    let input = [sample.as_slice(), flood.as_bytes(), &after].concat();
    let enhance = |input: &[u8]| {
        let output = run(&["enhance", "--lang", "en", "--threads", "1"], input);
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let (sample_alone, after_alone, out) = (enhance(&sample), enhance(&after), enhance(&input));
    assert!(
        out.starts_with(&sample_alone),
        "the sample before the flood differs"
    );
    assert!(
        out.ends_with(&after_alone),
        "the sentences after the flood differ"
    );
    let flood_out = &out[sample_alone.len()..out.len() - after_alone.len()];
    for n in [2, 35_000, 70_001] {
        let w = word(n);
        assert!(
            flood_out.contains(&format!(
                "\n{n}\tx\tx\tX\t_\t_\t1\tdep:w{w}\t1:dep:w{w}\t_\n"
            )),
            "word {n}"
        );
    }
}

/// `~=` compares whole values lower-cased, ASCII or not.
#[test]
fn case_insensitive_value_tests_fold_ascii_and_other_values() {
    let forms = [
        "She", "SHE", "she", "Shed", "sh", "Été", "ÉTÉ", "été", "ete", "Étés",
    ];
    let mut input = String::new();
    for (i, form) in forms.iter().enumerate() {
        input.push_str(&format!("# sent_id = f{i}\n1\t{form}\tx\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n\n"));
    }
    let out = run(
        &["enhance", "--rules", ENGINE_RULES, "--lang", "casefold"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for form in forms {
        let folded = stdout.contains(&format!(
            "\t{form}\tx\tPRON\t_\t_\t2\tnsubj\t2:dep:folded|2:nsubj\t"
        ));
        let expected = ["She", "SHE", "she", "Été", "ÉTÉ", "été"].contains(&form);
        assert_eq!(folded, expected, "{form}: {stdout}");
    }
}

/// Whatever lemmas came before on the thread (the same ones tested by other rules, or 70,000
/// others), a sentence is enhanced as on its own.
#[test]
fn lemma_tests_answer_as_alone_after_the_same_and_a_flood_of_other_lemmas() {
    let lemmas = ["want", "Want", "Été", "été", "ÉTÉ", "x1", "_", "wanted"];
    let sentence = |id: &str, lemma: &str| {
        format!("# sent_id = {id}\n1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\tw\t{lemma}\tNOUN\t_\t_\t1\tobj\t_\t_\n\n")
    };
    let mut tests = String::new();
    for (i, lemma) in lemmas.iter().enumerate() {
        tests.push_str(&sentence(&format!("t{i}"), lemma));
    }
    // Lower-case letters only (digits spelt a-j), so that every flood lemma passes the regex.
    let word = |n: usize| {
        n.to_string()
            .bytes()
            .map(|d| char::from(d - b'0' + b'a'))
            .collect::<String>()
    };
    let mut flood = String::from("# sent_id = flood\n1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n");
    for n in 2..=70_001 {
        flood.push_str(&format!("{n}\tw\t{}\tNOUN\t_\t_\t1\tobj\t_\t_\n", word(n)));
    }
    flood.push('\n');
    let input = [
        tests.as_str(),
        &tests,
        &flood,
        &sentence("echo", &word(70_001)),
        &tests,
    ]
    .concat();
    let enhance = |input: &str| {
        let out = run(
            &[
                "enhance",
                "--rules",
                ENGINE_RULES,
                "--lang",
                "lemmas",
                "--threads",
                "1",
            ],
            input.as_bytes(),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let alone = enhance(&tests);
    let out = enhance(&input);
    assert!(
        out.starts_with(&[alone.as_str(), &alone].concat()),
        "the same lemmas again differ"
    );
    assert!(
        out.ends_with(&[enhance(&sentence("echo", &word(70_001))), alone.clone()].concat()),
        "after the flood"
    );
    for n in [2, 35_000, 70_001] {
        let w = word(n);
        assert!(out.contains(&format!("\n{n}\tw\t{w}\tNOUN\t_\t_\t1\tobj\t1:dep:lower|1:dep:unlisted|1:obj|1:obj:{w}\t_\n")), "word {n}");
    }
    let deps_of = |lemma: &str| {
        let line = alone
            .lines()
            .find(|l| l.starts_with("2\t") && l.split('\t').nth(2) == Some(lemma))
            .unwrap();
        line.split('\t').nth(8).unwrap().to_string()
    };
    assert_eq!(deps_of("want"), "1:dep:listed|1:dep:lower|1:obj|1:obj:want");
    assert_eq!(deps_of("Want"), "1:obj|1:obj:want");
    assert_eq!(deps_of("Été"), "1:dep:listed|1:obj|1:obj:été");
    assert_eq!(deps_of("été"), "1:dep:lower|1:dep:unlisted|1:obj|1:obj:été");
    assert_eq!(deps_of("ÉTÉ"), "1:obj|1:obj:été");
    // A digit has no place in a label part (docs/labels.md).
    assert_eq!(deps_of("x1"), "1:obj|1:obj:x");
    // No lemma: the form `w` stands in.
    assert_eq!(deps_of("_"), "1:dep:lower|1:dep:unlisted|1:obj|1:obj:w");
    assert_eq!(
        deps_of("wanted"),
        "1:dep:lower|1:dep:unlisted|1:obj|1:obj:wanted"
    );
}

/// A workspace reused by another rule set reads this sentence's lemmas through that rule set's
/// `[lemmas]`: a label made from a lemma is the lemma of this sentence's word, not of the word at
/// the same position in the sentence enhanced before.
#[test]
fn a_workspace_reused_by_another_rule_set_forgets_the_lemmas_it_looked_up() {
    use eudify::conllu::{EnhancedLayer, RawBlock, Sentence};
    use eudify::engine::Workspace;
    let source = RuleSource::from_dir(std::path::Path::new(ENGINE_RULES)).unwrap();
    let load = |name: &str| {
        Engine::new(&load_ruleset(&source, name).unwrap_or_else(|e| panic!("{}", e.render())))
    };
    let (tests_lemmas, labels_only) = (load("lemmas"), load("lemma_label"));
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
        eudify::conllu::write_sentence(&mut out, sentence, Some(&layer));
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

/// LEMMA blanked in word and empty-node lines, as a parser without a lemmatiser writes it.
fn blank_lemmas(conllu: &str) -> String {
    conllu
        .lines()
        .map(|line| {
            let mut cols: Vec<&str> = line.split('\t').collect();
            if cols.len() == 10 && !cols[0].contains('-') {
                cols[2] = "_";
            }
            cols.join("\t") + "\n"
        })
        .collect()
}

/// A word without a lemma (LEMMA `_`) has its lower-cased form as lemma, mapped through the
/// lexicon's `[lemmas]` (`wants` → `want`), in lemma tests and in labels alike (`lemma_label`
/// has no lemma test: its label is read from the columns, not the lemma table). A lemma that is
/// given is never mapped, and a word whose form is `_` too has no lemma.
#[test]
fn a_word_without_a_lemma_reads_its_form_mapped_through_the_lexicon() {
    let sentence = |form: &str, lemma: &str| {
        format!("1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n2\t{form}\t{lemma}\tNOUN\t_\t_\t1\tobj\t_\t_\n\n")
    };
    let deps = |profile: &str, form: &str, lemma: &str| {
        let out = run(
            &["enhance", "--rules", ENGINE_RULES, "--lang", profile],
            sentence(form, lemma).as_bytes(),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .nth(1)
            .unwrap()
            .split('\t')
            .nth(8)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        deps("lemmas", "Wants", "_"),
        "1:dep:listed|1:dep:lower|1:obj|1:obj:want"
    );
    assert_eq!(
        deps("lemmas", "Wants", "want"),
        deps("lemmas", "Wants", "_")
    );
    assert_eq!(
        deps("lemmas", "Wants", "wants"),
        "1:dep:lower|1:dep:unlisted|1:obj|1:obj:wants"
    );
    // Lower-cased, then tested: `Été` is listed, `été` is not.
    assert_eq!(
        deps("lemmas", "Été", "_"),
        "1:dep:lower|1:dep:unlisted|1:obj|1:obj:été"
    );
    assert_eq!(deps("lemmas", "_", "_"), "1:obj");
    assert_eq!(deps("lemma_label", "Wants", "_"), "1:obj|1:obj:want");
    assert_eq!(deps("lemma_label", "ÉTÉ", "_"), "1:obj|1:obj:été");
    assert_eq!(deps("lemma_label", "Wants", "wants"), "1:obj|1:obj:wants");
    assert_eq!(deps("lemma_label", "_", "_"), "1:obj");
}

/// Without lemmas, the embedded profiles give the case labels, `conj` subtypes and control
/// edges they give with them: English `in` under `obl`, `and` under `conj`, `promised` (a
/// subject-control verb, through `[lemmas]`) with an object; Czech vocalised `ve` → `v` and
/// `se` → `s`.
#[test]
fn profiles_enhance_a_sentence_without_lemmas_as_with_them() {
    let english = "1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tpromised\tpromise\tVERB\tVBD\t_\t0\troot\t_\t_\n\
        3\thim\the\tPRON\tPRP\t_\t2\tobj\t_\t_\n4\tto\tto\tPART\tTO\t_\t5\tmark\t_\t_\n5\tsit\tsit\tVERB\tVB\t_\t2\txcomp\t_\t_\n\
        6\tin\tin\tADP\tIN\t_\t8\tcase\t_\t_\n7\tthe\tthe\tDET\tDT\t_\t8\tdet\t_\t_\n8\tchair\tchair\tNOUN\tNN\t_\t5\tobl\t_\t_\n\
        9\tand\tand\tCCONJ\tCC\t_\t10\tcc\t_\t_\n10\twait\twait\tVERB\tVB\t_\t5\tconj\t_\t_\n11\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n\n";
    let czech = "1\tSeděl\tsedět\tVERB\t_\tGender=Masc|Number=Sing|Tense=Past|VerbForm=Part\t0\troot\t_\t_\n\
        2\tve\tv\tADP\t_\tAdpType=Voc|Case=Loc\t3\tcase\t_\t_\n3\tškole\tškola\tNOUN\t_\tCase=Loc|Gender=Fem|Number=Sing\t1\tobl\t_\t_\n\
        4\tse\ts\tADP\t_\tAdpType=Voc|Case=Ins\t5\tcase\t_\t_\n5\tsestrou\tsestra\tNOUN\t_\tCase=Ins|Gender=Fem|Number=Sing\t1\tobl\t_\t_\n\
        6\ta\ta\tCCONJ\t_\t_\t7\tcc\t_\t_\n7\tbratrem\tbratr\tNOUN\t_\tCase=Ins|Gender=Masc|Number=Sing\t5\tconj\t_\t_\n\
        8\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n";
    // Language, sentence, and the DEPS of some words (numbered from 1).
    type Case<'a> = (&'a str, &'a str, &'a [(usize, &'a str)]);
    let cases: [Case; 2] = [
        (
            "en",
            english,
            &[
                // `wait`, conjoined to the xcomp, is controlled too.
                (1, "2:nsubj|5:nsubj:xsubj|10:nsubj:xsubj"),
                (3, "2:obj"),
                (8, "5:obl:in"),
                (10, "2:xcomp|5:conj:and"),
            ],
        ),
        (
            "cs",
            czech,
            &[
                (3, "1:obl:v:loc"),
                (5, "1:obl:s:ins"),
                (7, "1:obl:s:ins|5:conj"),
            ],
        ),
    ];
    for (lang, sentence, expected) in cases {
        let deps = |input: &str| {
            let out = run(&["enhance", "--lang", lang], input.as_bytes());
            assert!(out.status.success(), "{}", text(&out.stderr));
            text(&out.stdout)
                .lines()
                .map(|l| l.split('\t').nth(8).unwrap_or("").to_string())
                .collect::<Vec<_>>()
        };
        let (with, without) = (deps(sentence), deps(&blank_lemmas(sentence)));
        for &(word, label) in expected {
            assert_eq!(with[word - 1], label, "{lang} word {word}");
        }
        assert_eq!(without, with, "{lang} without lemmas");
    }
}

/// Enhances CoNLL-U `lines` (one sentence) with the `language_v2` test profile; the DEPS of
/// each line, empty nodes included, as `ID DEPS`.
fn language_v2(lines: &[&str]) -> Vec<String> {
    let input = format!("{}\n\n", lines.join("\n"));
    let out = run(
        &["enhance", "--rules", ENGINE_RULES, "--lang", "language_v2"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            format!("{} {}", c[0], c[8])
        })
        .collect()
}

/// `M.Case == H.Case` holds when both have the feature and their value sets share a value;
/// `!=` is its negation (so it holds when either lacks the feature).
#[test]
fn agreement_compares_value_sets_and_fails_on_a_missing_feature() {
    let case = |modifier: &str, head: &str| {
        let deps = language_v2(&[
            &format!("1\tbig\tbig\tADJ\t_\t{modifier}\t2\tamod\t_\t_"),
            &format!("2\thouse\thouse\tNOUN\t_\t{head}\t0\troot\t_\t_"),
        ]);
        deps[0].clone()
    };
    assert_eq!(case("Case=Nom", "Case=Nom"), "1 2:amod|2:amod:agree");
    assert_eq!(case("Case=Acc,Nom", "Case=Nom"), "1 2:amod|2:amod:agree");
    assert_eq!(case("Case=Nom", "Case=Gen,Nom"), "1 2:amod|2:amod:agree");
    assert_eq!(case("Case=Acc", "Case=Nom"), "1 2:amod|2:amod:disagree");
    assert_eq!(
        case("Case=Acc,Gen", "Case=Dat,Nom"),
        "1 2:amod|2:amod:disagree"
    );
    assert_eq!(
        case("Number=Sing", "Case=Nom"),
        "1 2:amod|2:amod:clash|2:amod:disagree"
    );
    assert_eq!(case("_", "_"), "1 2:amod|2:amod:disagree");
    // In a `without` block (number_clash): only a Number the head does not share.
    assert_eq!(
        case("Case=Nom|Number=Plur", "Case=Nom|Number=Sing"),
        "1 2:amod|2:amod:agree|2:amod:clash"
    );
    assert_eq!(
        case("Case=Nom|Number=Plur,Sing", "Case=Nom|Number=Sing"),
        "1 2:amod|2:amod:agree"
    );
    assert_eq!(
        case("Case=Nom|Number=Sing", "Case=Nom"),
        "1 2:amod|2:amod:agree|2:amod:clash"
    );
}

/// A descent reaches words 1 to 4 edges below the clause's verb through the edges it allows,
/// and stops at a clause boundary (`ccomp`) and below the depth bound.
#[test]
fn descent_reaches_words_within_its_depth_and_stops_at_excluded_relations() {
    // A chain of `obl` below the relative clause's verb, a relative pronoun at depth `depth`.
    let deps_of_pronoun = |depth: usize, last: &str| {
        let mut lines = vec![
            "1\tman\tman\tNOUN\t_\t_\t0\troot\t_\t_".to_string(),
            "2\twent\tgo\tVERB\t_\t_\t1\tacl:relcl\t_\t_".to_string(),
        ];
        for d in 1..depth {
            lines.push(format!("{}\tx\tx\tNOUN\t_\t_\t{}\tobl\t_\t_", d + 2, d + 1));
        }
        lines.push(format!(
            "{}\twhich\twhich\tPRON\t_\tPronType=Rel\t{}\t{last}\t_\t_",
            depth + 2,
            depth + 1
        ));
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        language_v2(&refs).last().unwrap().clone()
    };
    // `1:ref`: walked down from the verb; `1:dep:below`: up from the pronoun (bound first).
    for depth in 1..=4 {
        let deps = deps_of_pronoun(depth, "nmod");
        assert!(
            deps.contains("1:ref") && deps.contains("1:dep:below"),
            "depth {depth}: {deps}"
        );
        let deps = deps_of_pronoun(depth, "ccomp");
        assert!(
            !deps.contains("1:ref") && !deps.contains("1:dep:below"),
            "depth {depth}, ccomp: {deps}"
        );
    }
    let deps = deps_of_pronoun(5, "nmod");
    assert!(
        !deps.contains("1:ref") && !deps.contains("1:dep:below"),
        "depth 5: {deps}"
    );
}

/// `E = empty after N` writes an empty node with every column `_` and no CopyOf, and the
/// output validates.
#[test]
fn a_blank_empty_node_has_every_column_blank_and_validates() {
    let input = "1\tTu\ttu\tPRON\t_\t_\t0\troot\t_\t_\n2\tprom\tprom\tADV\t_\t_\t1\torphan\t_\t_\n3\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n";
    let out = run(
        &["enhance", "--rules", ENGINE_RULES, "--lang", "language_v2"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\n1.1\t_\t_\t_\t_\t_\t_\t_\t0:root\t_\n"),
        "{stdout}"
    );
    assert!(
        stdout.starts_with("1\tTu\ttu\tPRON\t_\t_\t0\troot\t1.1:nsubj\t_\n"),
        "{stdout}"
    );
    let validated = run(&["validate", "-"], stdout.as_bytes());
    assert!(validated.status.success(), "{}", text(&validated.stdout));
}

/// The rule examples of the language-v2 test rules run under `eudify test --rules`.
#[test]
fn language_v2_rule_examples_pass() {
    let out = run(&["test", "--rules", ENGINE_RULES], b"");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("4 passed, 0 failed"), "{stdout}");
}

/// The `lv` profile's blank predicates (rules/blank/blank.rules) end to end: the empty node
/// takes the root, the nominal and the orphans get their relations in the clause by form, a
/// verbal conjunct of the nominal is coordinated with the clause.
#[test]
fn lv_clauses_without_a_predicate_get_a_blank_empty_node() {
    let input = "1\tViņai\tviņa\tPRON\t_\tCase=Dat\t3\tobl\t_\t_\n\
                 2\trokas\troka\tNOUN\t_\tCase=Gen\t3\tnmod\t_\t_\n\
                 3\tsomiņa\tsomiņa\tNOUN\t_\tCase=Nom\t0\troot\t_\t_\n\
                 4\ttikai\ttikai\tADV\t_\t_\t3\torphan\t_\t_\n\
                 5\taiz\taiz\tADP\t_\t_\t6\tcase\t_\t_\n\
                 6\tkrēsla\tkrēsls\tNOUN\t_\tCase=Gen\t3\torphan\t_\t_\n\
                 7\tnenāk\tnākt\tVERB\t_\t_\t3\tconj\t_\t_\n\
                 8\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_\n\n";
    let out = run(&["enhance", "--lang", "lv"], input.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let deps: Vec<String> = stdout
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            format!("{} {}", c[0], c[8])
        })
        .collect();
    assert_eq!(
        deps,
        [
            "1 3.1:obl:dat",
            "2 3:nmod:gen",
            "3 3.1:nsubj",
            "3.1 0:root",
            "4 3.1:advmod",
            "5 6:case",
            "6 3.1:obl:aiz",
            "7 3.1:conj",
            "8 3.1:punct"
        ],
        "{stdout}"
    );
}

/// DEPS of node `id` after `eudify enhance --lang LANG` on a sentence written one word a line as
/// `FORM LEMMA UPOS FEATS HEAD DEPREL` (ids 1, 2, ... in order).
fn relative_deps(lang: &str, words: &[&str], id: &str) -> String {
    let mut input = String::new();
    for (i, w) in words.iter().enumerate() {
        let c: Vec<&str> = w.split(' ').collect();
        assert_eq!(c.len(), 6, "{w}");
        input += &format!(
            "{}\t{}\t{}\t{}\t_\t{}\t{}\t{}\t_\t_\n",
            i + 1,
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            c[5]
        );
    }
    input.push('\n');
    let out = run(&["enhance", "--lang", lang], input.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout.lines().find(|l| l.split('\t').next() == Some(id));
    line.unwrap_or_else(|| panic!("no node {id}:\n{stdout}"))
        .split('\t')
        .nth(8)
        .unwrap()
        .to_string()
}

/// Each relative-clause rule of rules/universal/relative*.rules, rules/bg and rules/en under
/// the profile of a treebank that annotates it (the conventions measured on the dev treebanks),
/// and the treebanks that do not: each line fails when its rule or setting is removed.
#[test]
fn relative_clauses_follow_each_treebanks_conventions() {
    let cases: &[(&str, &[&str], &str, &str)] = &[
        // acl_participle (fr): passive participle, present participle, past participle without
        // Voice (spaCy): passive, active with an auxiliary, active when unaccusative.
        (
            "fr",
            &[
                "énergie énergie NOUN _ 0 root",
                "dépensée dépenser VERB Tense=Past|VerbForm=Part|Voice=Pass 1 acl",
            ],
            "1",
            "0:root|2:nsubj:pass",
        ),
        (
            "fr",
            &[
                "pénalités pénalité NOUN _ 0 root",
                "portant porter VERB Tense=Pres|VerbForm=Part 1 acl",
            ],
            "1",
            "0:root|2:nsubj",
        ),
        (
            "fr",
            &[
                "énergie énergie NOUN _ 0 root",
                "dépensée dépenser VERB Tense=Past|VerbForm=Part 1 acl",
            ],
            "1",
            "0:root|2:nsubj:pass",
        ),
        (
            "fr",
            &[
                "patients patient NOUN _ 0 root",
                "ayant avoir AUX VerbForm=Part 3 aux:tense",
                "reçu recevoir VERB Tense=Past|VerbForm=Part 1 acl",
                "aspirine aspirine NOUN _ 3 obj",
            ],
            "1",
            "0:root|3:nsubj",
        ),
        (
            "fr",
            &[
                "Paulette Paulette PROPN _ 0 root",
                "née naître VERB Tense=Past|VerbForm=Part 1 acl",
            ],
            "1",
            "0:root|2:nsubj",
        ),
        (
            "en",
            &[
                "energy energy NOUN _ 0 root",
                "spent spend VERB Tense=Past|VerbForm=Part|Voice=Pass 1 acl",
            ],
            "1",
            "0:root",
        ),
        // relcl_zero: uk що-relatives, EWT zero relatives (subject, object, stranded oblique,
        // passive); GUM (en) gives zero relatives no edge.
        (
            "uk",
            &[
                "той той DET PronType=Dem 0 root",
                "що що SCONJ _ 3 mark",
                "атестував атестувати VERB _ 1 acl:relcl",
            ],
            "1",
            "0:root|3:nsubj",
        ),
        (
            "en_ewt",
            &[
                "nukes nuke NOUN _ 0 root",
                "they they PRON _ 3 nsubj",
                "seen see VERB VerbForm=Part 1 acl:relcl",
            ],
            "1",
            "0:root|3:obj",
        ),
        (
            "en",
            &[
                "nukes nuke NOUN _ 0 root",
                "they they PRON _ 3 nsubj",
                "seen see VERB VerbForm=Part 1 acl:relcl",
            ],
            "1",
            "0:root",
        ),
        (
            "en_ewt",
            &[
                "freedom freedom NOUN _ 0 root",
                "we we PRON _ 3 nsubj",
                "believe believe VERB _ 1 acl:relcl",
                "in in ADP _ 3 obl",
            ],
            "1",
            "0:root|3:obl",
        ),
        (
            "en_ewt",
            &[
                "time time NOUN _ 0 root",
                "we we PRON _ 3 nsubj",
                "have have VERB _ 1 acl:relcl",
                "lights light NOUN _ 3 obj",
            ],
            "1",
            "0:root|3:obl",
        ),
        (
            "en_ewt",
            &[
                "money money NOUN _ 0 root",
                "being be AUX _ 3 aux:pass",
                "paid pay VERB VerbForm=Part 1 acl:relcl",
            ],
            "1",
            "0:root|3:nsubj:pass",
        ),
        (
            "ta",
            &[
                "பலர் பலர் NOUN _ 0 root",
                "வந்த வா VERB VerbForm=Part 1 acl:relcl",
            ],
            "1",
            "0:root|2:nsubj",
        ),
        // Relative adverbs: obl (cs, uk, which keeps the adverb's edge), advmod (nl waar),
        // ref only (nl waarin, it dove); GUM keeps the adverb's edge, EWT does not.
        (
            "cs",
            &[
                "město město NOUN _ 0 root",
                "kde kde ADV PronType=Int,Rel 4 advmod",
                "on on PRON _ 4 nsubj",
                "žije žít VERB _ 1 acl:relcl",
            ],
            "1",
            "0:root|4:obl",
        ),
        (
            "uk",
            &[
                "точки точка NOUN _ 0 root",
                "де де ADV PronType=Rel 4 advmod",
                "вона вона PRON _ 4 nsubj",
                "перебувала перебувати VERB _ 1 acl:relcl",
            ],
            "2",
            "1:ref|4:advmod",
        ),
        (
            "nl",
            &[
                "huis huis NOUN _ 0 root",
                "waar waar ADV _ 4 advmod",
                "ik ik PRON _ 4 nsubj",
                "woon wonen VERB _ 1 acl:relcl",
            ],
            "1",
            "0:root|4:advmod",
        ),
        (
            "nl",
            &[
                "wereld wereld NOUN _ 0 root",
                "waarin waarin ADV _ 4 advmod",
                "verhalen verhaal NOUN _ 4 nsubj",
                "spelen spelen VERB _ 1 acl:relcl",
            ],
            "1",
            "0:root",
        ),
        (
            "nl",
            &[
                "wereld wereld NOUN _ 0 root",
                "waarin waarin ADV _ 4 advmod",
                "verhalen verhaal NOUN _ 4 nsubj",
                "spelen spelen VERB _ 1 acl:relcl",
            ],
            "2",
            "1:ref",
        ),
        (
            "it",
            &[
                "Kindu Kindu PROPN _ 0 root",
                "dove dove ADV _ 3 advmod",
                "inviati inviare VERB _ 1 acl:relcl",
            ],
            "2",
            "1:ref",
        ),
        (
            "en",
            &[
                "town town NOUN _ 0 root",
                "where where ADV PronType=Rel 4 advmod",
                "I I PRON _ 4 nsubj",
                "live live VERB _ 1 acl:relcl",
            ],
            "2",
            "1:ref|4:advmod",
        ),
        (
            "en_ewt",
            &[
                "town town NOUN _ 0 root",
                "where where ADV PronType=Rel 4 advmod",
                "I I PRON _ 4 nsubj",
                "live live VERB _ 1 acl:relcl",
            ],
            "2",
            "1:ref",
        ),
        // pt "o qual": the head of the fixed expression is the relative; nl `wat` (PronType=Int).
        (
            "pt",
            &[
                "situações situação NOUN _ 0 root",
                "as o PRON PronType=Dem 4 nsubj",
                "quais qual PRON PronType=Rel 2 fixed",
                "ocorrem ocorrer VERB _ 1 acl:relcl",
            ],
            "2",
            "1:ref",
        ),
        (
            "nl",
            &[
                "Aspro Aspro PROPN _ 0 root",
                "wat wat PRON PronType=Int 3 nsubj",
                "veroverde veroveren VERB _ 1 acl:relcl",
            ],
            "1",
            "0:root|3:nsubj",
        ),
        // A possessive relative determiner: the noun is an nmod (cs).
        (
            "cs",
            &[
                "jednotky jednotka NOUN _ 0 root",
                "jejichž jehož DET Poss=Yes|PronType=Rel 3 det",
                "likvidace likvidace NOUN _ 4 nsubj",
                "proběhla proběhnout VERB _ 1 acl:relcl",
            ],
            "1",
            "0:root|3:nmod",
        ),
        // et: the noun keeps the copular subject label the pronoun had in the basic tree.
        (
            "et",
            &[
                "tädi tädi NOUN _ 0 root",
                "kes kes PRON PronType=Int,Rel 4 nsubj:cop",
                "on olema AUX _ 4 cop",
                "hea hea ADJ _ 1 acl:relcl",
            ],
            "1",
            "0:root|4:nsubj:cop",
        ),
        // et: a relative pronoun heading its clause ("see, kellel on lipuke") is a ref, and
        // the noun takes the clause's subject.
        (
            "et",
            &[
                "see see PRON PronType=Dem 0 root",
                "kellel kes PRON PronType=Int,Rel 1 acl:relcl",
                "on olema AUX _ 2 cop",
                "lipuke lipuke NOUN _ 2 nsubj:cop",
            ],
            "4",
            "1:nsubj|2:nsubj",
        ),
        (
            "et",
            &[
                "see see PRON PronType=Dem 0 root",
                "kellel kes PRON PronType=Int,Rel 1 acl:relcl",
                "on olema AUX _ 2 cop",
                "lipuke lipuke NOUN _ 2 nsubj:cop",
            ],
            "2",
            "1:ref",
        ),
        // et: the pronoun of a relative clause conjoined to another is replaced by the noun too.
        (
            "et",
            &[
                "rahvakild rahvakild NOUN _ 0 root",
                "millele mis PRON PronType=Int,Rel 3 obl",
                "pandi panema VERB _ 1 acl:relcl",
                "ja ja CCONJ _ 6 cc",
                "mis mis PRON PronType=Int,Rel 6 nsubj",
                "püüab püüdma VERB _ 3 conj",
            ],
            "1",
            "0:root|3:obl|6:nsubj",
        ),
        // et: a pronoun heading a conjoined relative clause gives the noun no conj edge.
        (
            "et",
            &[
                "klient klient NOUN _ 0 root",
                "kes kes PRON PronType=Int,Rel 3 nsubj",
                "maksis maksma VERB _ 1 acl:relcl",
                "ja ja CCONJ _ 5 cc",
                "kellega kes PRON PronType=Int,Rel 3 conj",
                "polnud olema AUX _ 5 cop",
                "probleeme probleem NOUN _ 5 nsubj:cop",
            ],
            "1",
            "0:root|3:nsubj",
        ),
        // et: a later conjunct of a copular relative clause gets the noun as plain nsubj.
        (
            "et",
            &[
                "need see PRON _ 0 root",
                "kes kes PRON PronType=Int,Rel 4 nsubj:cop",
                "on olema AUX _ 4 cop",
                "ausad aus ADJ _ 1 acl:relcl",
                "ja ja CCONJ _ 6 cc",
                "helded helde ADJ _ 4 conj",
            ],
            "1",
            "0:root|4:nsubj:cop|6:nsubj",
        ),
        // et: a relative clause after coordinated nouns refers to each conjunct before it.
        (
            "et",
            &[
                "maa-usk maa_usk NOUN Case=Nom 0 root",
                "või või CCONJ _ 3 cc",
                "loodususk loodus_usk NOUN Case=Nom 1 conj",
                "mis mis PRON PronType=Int,Rel 5 nsubj",
                "aitab aitama VERB _ 1 acl:relcl",
            ],
            "4",
            "1:ref|3:ref",
        ),
        // et: "reeglid, mis on lubatud ja mis mitte": a conjoined relative pronoun with remnants
        // heads a gapped relative clause (an empty node with the noun's role and acl:relcl).
        (
            "et",
            &[
                "reegleid reegel NOUN Case=Par 0 root",
                "mis mis PRON PronType=Int,Rel 4 obj",
                "on olema AUX _ 4 aux",
                "lubatud lubama VERB _ 1 acl:relcl",
                "ja ja CCONJ _ 6 cc",
                "mis mis PRON PronType=Int,Rel 4 conj",
                "mitte mitte ADV Polarity=Neg 6 orphan",
            ],
            "6.1",
            "1:acl:relcl|4:conj",
        ),
        (
            "et",
            &[
                "reegleid reegel NOUN Case=Par 0 root",
                "mis mis PRON PronType=Int,Rel 4 obj",
                "on olema AUX _ 4 aux",
                "lubatud lubama VERB _ 1 acl:relcl",
                "ja ja CCONJ _ 6 cc",
                "mis mis PRON PronType=Int,Rel 4 conj",
                "mitte mitte ADV Polarity=Neg 6 orphan",
            ],
            "1",
            "0:root|4:obj|6.1:obj",
        ),
        // Conjuncts of a relative clause share the noun as subject in sv, not in uk.
        (
            "sv",
            &[
                "personer person NOUN _ 0 root",
                "som som PRON PronType=Rel 3 nsubj",
                "känner känna VERB _ 1 acl:relcl",
                "och och CCONJ _ 5 cc",
                "tar ta VERB _ 3 conj",
            ],
            "1",
            "0:root|3:nsubj|5:nsubj",
        ),
        (
            "uk",
            &[
                "автора автор NOUN _ 0 root",
                "який який DET PronType=Rel 3 nsubj",
                "почуває почувати VERB _ 1 acl:relcl",
                "і і CCONJ _ 5 cc",
                "діє діяти VERB _ 3 conj",
            ],
            "1",
            "0:root|3:nsubj",
        ),
        // bg: an adverbial clause with защото is a relative clause on the main predicate.
        (
            "bg",
            &[
                "Той той PRON _ 2 nsubj",
                "пръска пръскам VERB _ 0 root",
                "защото защото ADV _ 4 advmod",
                "са съм AUX _ 2 advcl",
            ],
            "3",
            "2:ref",
        ),
        // en: a sentential relative is the csubj of its clause's antecedent.
        (
            "en",
            &[
                "He he PRON _ 2 nsubj",
                "left leave VERB _ 0 root",
                "which which PRON PronType=Rel 4 nsubj",
                "surprised surprise VERB _ 2 advcl:relcl",
            ],
            "2",
            "0:root|4:csubj",
        ),
    ];
    for (lang, words, id, expected) in cases {
        assert_eq!(
            relative_deps(lang, words, id),
            *expected,
            "--lang {lang}, node {id} of {words:?}"
        );
    }
}

/// et: a reflexive object leaves a secondary predicate the clause's subject ("ta pidas end
/// targaks": targaks =nsubj=> ta); a plain object is the predicate's subject (universal rule).
#[test]
fn et_reflexive_object_leaves_the_secondary_predicate_the_subject() {
    let sentence = |object: &str| {
        [
            "ta tema PRON Case=Nom|PronType=Prs 2 nsubj".to_string(),
            "pidas pidama VERB _ 0 root".to_string(),
            object.to_string(),
            "targaks tark ADJ Case=Tra 2 xcomp".to_string(),
        ]
    };
    let reflexive = sentence("end ise PRON Case=Par|PronType=Prs|Reflex=Yes 2 obj");
    let words: Vec<&str> = reflexive.iter().map(String::as_str).collect();
    assert_eq!(relative_deps("et", &words, "1"), "2:nsubj|4:nsubj");
    assert_eq!(relative_deps("et", &words, "3"), "2:obj");
    let plain = sentence("teda tema PRON Case=Par|PronType=Prs 2 obj");
    let words: Vec<&str> = plain.iter().map(String::as_str).collect();
    assert_eq!(relative_deps("et", &words, "1"), "2:nsubj");
    assert_eq!(relative_deps("et", &words, "3"), "2:obj|4:nsubj");
}

/// et: an essive secondary predicate ("as what") describes the subject where the verb has one
/// (näitlejana =nsubj=> Ivo); a translative one ("into what") the object (universal rule).
#[test]
fn et_essive_secondary_predicate_takes_the_subject() {
    let sentence = |predicate: &str| {
        [
            "Ivo Ivo PROPN Case=Nom 2 nsubj".to_string(),
            "alustas alustama VERB _ 0 root".to_string(),
            "tööd töö NOUN Case=Par 2 obj".to_string(),
            predicate.to_string(),
        ]
    };
    let essive = sentence("näitlejana näitleja NOUN Case=Ess 2 xcomp");
    let words: Vec<&str> = essive.iter().map(String::as_str).collect();
    assert_eq!(relative_deps("et", &words, "1"), "2:nsubj|4:nsubj");
    assert_eq!(relative_deps("et", &words, "3"), "2:obj");
    let translative = sentence("näitlejaks näitleja NOUN Case=Tra 2 xcomp");
    let words: Vec<&str> = translative.iter().map(String::as_str).collect();
    assert_eq!(relative_deps("et", &words, "1"), "2:nsubj");
    assert_eq!(relative_deps("et", &words, "3"), "2:obj|4:nsubj");
}

/// et: a later conjunct in another mood than the first (on the verb, or on the auxiliary of
/// either) does not share the first one's subject; one in the same mood does.
#[test]
fn et_a_conjunct_in_another_mood_shares_no_subject() {
    let deps = |words: &[&str]| relative_deps("et", words, "1");
    let same = [
        "ta tema PRON Case=Nom 2 nsubj",
        "räägib rääkima VERB Mood=Ind 0 root",
        "ja ja CCONJ _ 4 cc",
        "tahab tahtma VERB Mood=Ind 2 conj",
    ];
    assert_eq!(deps(&same), "2:nsubj|4:nsubj");
    let other = [
        "ta tema PRON Case=Nom 2 nsubj",
        "räägib rääkima VERB Mood=Ind 0 root",
        "ja ja CCONJ _ 4 cc",
        "tahaks tahtma VERB Mood=Cnd 2 conj",
    ];
    assert_eq!(deps(&other), "2:nsubj");
    let first_auxiliary = [
        "ma mina PRON Case=Nom 3 nsubj",
        "olen olema AUX Mood=Ind 3 aux",
        "tegelenud tegelema VERB VerbForm=Part 0 root",
        "ja ja CCONJ _ 5 cc",
        "vaadake vaatama VERB Mood=Imp 3 conj",
    ];
    assert_eq!(deps(&first_auxiliary), "3:nsubj");
    let own_auxiliary = [
        "ta tema PRON Case=Nom 2 nsubj",
        "seletas seletama VERB Mood=Ind 0 root",
        "ja ja CCONJ _ 5 cc",
        "oleks olema AUX Mood=Cnd 5 aux",
        "astunud astuma VERB VerbForm=Part 2 conj",
    ];
    assert_eq!(deps(&own_auxiliary), "2:nsubj");
}

/// et: "ta lubas mul minna": lubama (allow) controls through an adessive oblique, as the other
/// object-control verbs of the lexicon do; without one its subject controls ("lubas tulla").
#[test]
fn et_lubama_controls_through_an_adessive_oblique() {
    let with_oblique = [
        "ta tema PRON Case=Nom 2 nsubj",
        "lubas lubama VERB _ 0 root",
        "mul mina PRON Case=Ade 2 obl",
        "minna minema VERB VerbForm=Inf 2 xcomp",
    ];
    assert_eq!(relative_deps("et", &with_oblique, "1"), "2:nsubj");
    assert_eq!(relative_deps("et", &with_oblique, "3"), "2:obl|4:nsubj");
    let without = [
        "ta tema PRON Case=Nom 2 nsubj",
        "lubas lubama VERB _ 0 root",
        "tulla tulema VERB VerbForm=Inf 2 xcomp",
    ];
    assert_eq!(relative_deps("et", &without, "1"), "2:nsubj|3:nsubj");
}

/// A phase ends early only when no rule would search again: here no rule has a delta plan, and
/// the label the first round removes makes the rule whose `without` block it fed match in the
/// second round, as when every rule is searched whole in every round.
#[test]
fn a_removed_label_makes_a_rule_without_delta_plans_search_again() {
    let input = "# sent_id = w\n1\tI\tI\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tread\tread\tVERB\t_\t_\t0\troot\t_\t_\n\
        3\tbooks\tbook\tNOUN\t_\t_\t2\tobj\t_\t_\n\n";
    let out = run(
        &["enhance", "--rules", ENGINE_RULES, "--lang", "whole"],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\n1\tI\tI\tPRON\t_\t_\t2\tnsubj\t2:dep:noobj|2:nsubj\t_\n"),
        "{stdout}"
    );

    use eudify::conllu::{EnhancedLayer, RawBlock, Sentence};
    let source = RuleSource::from_dir(std::path::Path::new(ENGINE_RULES)).unwrap();
    let rule_set = load_ruleset(&source, "whole").unwrap_or_else(|e| panic!("{}", e.render()));
    let mut exhaustive = Engine::new(&rule_set);
    assert!(exhaustive.rules.iter().all(|r| r.delta_plans.is_empty()));
    exhaustive.exhaustive_rounds = true;
    let sentence = Sentence::parse(RawBlock {
        bytes: input.as_bytes().to_vec(),
        first_line: 1,
        starts_input: true,
    })
    .unwrap();
    let mut layer = EnhancedLayer::default();
    exhaustive.enhance(&sentence, &mut layer).unwrap();
    let mut written = Vec::new();
    eudify::conllu::write_sentence(&mut written, &sentence, Some(&layer));
    assert_eq!(text(&written), stdout);
}
