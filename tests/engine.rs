//! The engine end to end through the command line: `--rules DIR`, parallel edges, the step
//! limit, `explain`, `test`, `check` and `profiles`; the relative-clause conventions as
//! `enhances!` lines. The embedded rules' examples and the rounds are unit tests
//! (src/engine/tests_rule_sets.rs).

use crate::common::{enhances, run, text, ENGINE_RULES, FEEDING_SENTENCES, I_READ_BOOKS};

/// Snapshots of this module's whole outputs (`explain`, the sample per profile), in
/// `snapshots/engine/`.
fn snapshot(name: &str, value: &str) {
    insta::with_settings!({snapshot_path => "../snapshots/engine", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name.to_string(), value);
    });
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
    let input = FEEDING_SENTENCES;
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
}

/// `[empty]` anchors a rule on empty nodes, `[!empty]` on words: the empty node made in round
/// one is found in round two by the rule that scans empty nodes (its anchor, which asks for an
/// empty node, admits the sentence only then), as a search of the whole graph in every round
/// finds it. `empty` takes no value.
#[test]
fn rules_anchored_on_empty_nodes_find_the_nodes_made_in_earlier_rounds() {
    let input = I_READ_BOOKS;
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

// Each relative-clause rule of rules/universal/relative*.rules, rules/bg and rules/en under
// the profile of a treebank that annotates it (the conventions measured on the dev treebanks),
// and the treebanks that do not: each line fails when its rule or setting is removed.
enhances! {
    /// acl_participle (fr): passive participle, present participle, past participle without
    /// Voice (spaCy): passive, active with an auxiliary, active when unaccusative.
    fn acl_participles_take_their_subject_by_voice_and_auxiliary {
        "fr", "1 énergie énergie NOUN _ 0 root
               2 dépensée dépenser VERB Tense=Past|VerbForm=Part|Voice=Pass 1 acl"
            => "1 0:root|2:nsubj:pass";
        "fr", "1 pénalités pénalité NOUN _ 0 root
               2 portant porter VERB Tense=Pres|VerbForm=Part 1 acl"
            => "1 0:root|2:nsubj";
        "fr", "1 énergie énergie NOUN _ 0 root
               2 dépensée dépenser VERB Tense=Past|VerbForm=Part 1 acl"
            => "1 0:root|2:nsubj:pass";
        "fr", "1 patients patient NOUN _ 0 root
               2 ayant avoir AUX VerbForm=Part 3 aux:tense
               3 reçu recevoir VERB Tense=Past|VerbForm=Part 1 acl
               4 aspirine aspirine NOUN _ 3 obj"
            => "1 0:root|3:nsubj";
        "fr", "1 Paulette Paulette PROPN _ 0 root
               2 née naître VERB Tense=Past|VerbForm=Part 1 acl"
            => "1 0:root|2:nsubj";
        "en", "1 energy energy NOUN _ 0 root
               2 spent spend VERB Tense=Past|VerbForm=Part|Voice=Pass 1 acl"
            => "1 0:root";
    }

    /// relcl_zero: uk що-relatives, EWT zero relatives (subject, object, stranded oblique,
    /// passive); GUM (en) gives zero relatives no edge.
    fn zero_relatives_follow_each_treebank {
        "uk", "1 той той DET PronType=Dem 0 root
               2 що що SCONJ _ 3 mark
               3 атестував атестувати VERB _ 1 acl:relcl"
            => "1 0:root|3:nsubj";
        "en_ewt", "1 nukes nuke NOUN _ 0 root
                   2 they they PRON _ 3 nsubj
                   3 seen see VERB VerbForm=Part 1 acl:relcl"
            => "1 0:root|3:obj";
        "en", "1 nukes nuke NOUN _ 0 root
               2 they they PRON _ 3 nsubj
               3 seen see VERB VerbForm=Part 1 acl:relcl"
            => "1 0:root";
        "en_ewt", "1 freedom freedom NOUN _ 0 root
                   2 we we PRON _ 3 nsubj
                   3 believe believe VERB _ 1 acl:relcl
                   4 in in ADP _ 3 obl"
            => "1 0:root|3:obl";
        "en_ewt", "1 time time NOUN _ 0 root
                   2 we we PRON _ 3 nsubj
                   3 have have VERB _ 1 acl:relcl
                   4 lights light NOUN _ 3 obj"
            => "1 0:root|3:obl";
        "en_ewt", "1 money money NOUN _ 0 root
                   2 being be AUX _ 3 aux:pass
                   3 paid pay VERB VerbForm=Part 1 acl:relcl"
            => "1 0:root|3:nsubj:pass";
        "ta", "1 பலர் பலர் NOUN _ 0 root
               2 வந்த வா VERB VerbForm=Part 1 acl:relcl"
            => "1 0:root|2:nsubj";
    }

    /// Relative adverbs: obl (cs, uk, which keeps the adverb's edge), advmod (nl waar),
    /// ref only (nl waarin, it dove); GUM keeps the adverb's edge, EWT does not.
    fn relative_adverbs_follow_each_treebank {
        "cs", "1 město město NOUN _ 0 root
               2 kde kde ADV PronType=Int,Rel 4 advmod
               3 on on PRON _ 4 nsubj
               4 žije žít VERB _ 1 acl:relcl"
            => "1 0:root|4:obl";
        "uk", "1 точки точка NOUN _ 0 root
               2 де де ADV PronType=Rel 4 advmod
               3 вона вона PRON _ 4 nsubj
               4 перебувала перебувати VERB _ 1 acl:relcl"
            => "2 1:ref|4:advmod";
        "nl", "1 huis huis NOUN _ 0 root
               2 waar waar ADV _ 4 advmod
               3 ik ik PRON _ 4 nsubj
               4 woon wonen VERB _ 1 acl:relcl"
            => "1 0:root|4:advmod";
        "nl", "1 wereld wereld NOUN _ 0 root
               2 waarin waarin ADV _ 4 advmod
               3 verhalen verhaal NOUN _ 4 nsubj
               4 spelen spelen VERB _ 1 acl:relcl"
            => "1 0:root";
        "nl", "1 wereld wereld NOUN _ 0 root
               2 waarin waarin ADV _ 4 advmod
               3 verhalen verhaal NOUN _ 4 nsubj
               4 spelen spelen VERB _ 1 acl:relcl"
            => "2 1:ref";
        "it", "1 Kindu Kindu PROPN _ 0 root
               2 dove dove ADV _ 3 advmod
               3 inviati inviare VERB _ 1 acl:relcl"
            => "2 1:ref";
        "en", "1 town town NOUN _ 0 root
               2 where where ADV PronType=Rel 4 advmod
               3 I I PRON _ 4 nsubj
               4 live live VERB _ 1 acl:relcl"
            => "2 1:ref|4:advmod";
        "en_ewt", "1 town town NOUN _ 0 root
                   2 where where ADV PronType=Rel 4 advmod
                   3 I I PRON _ 4 nsubj
                   4 live live VERB _ 1 acl:relcl"
            => "2 1:ref";
    }

    /// pt "o qual": the head of the fixed expression is the relative; nl `wat` (PronType=Int).
    fn the_head_of_o_qual_and_nl_wat_are_relatives {
        "pt", "1 situações situação NOUN _ 0 root
               2 as o PRON PronType=Dem 4 nsubj
               3 quais qual PRON PronType=Rel 2 fixed
               4 ocorrem ocorrer VERB _ 1 acl:relcl"
            => "2 1:ref";
        "nl", "1 Aspro Aspro PROPN _ 0 root
               2 wat wat PRON PronType=Int 3 nsubj
               3 veroverde veroveren VERB _ 1 acl:relcl"
            => "1 0:root|3:nsubj";
    }

    /// A possessive relative determiner: the noun is an nmod (cs).
    fn a_possessive_relative_determiner_makes_the_noun_an_nmod {
        "cs", "1 jednotky jednotka NOUN _ 0 root
               2 jejichž jehož DET Poss=Yes|PronType=Rel 3 det
               3 likvidace likvidace NOUN _ 4 nsubj
               4 proběhla proběhnout VERB _ 1 acl:relcl"
            => "1 0:root|3:nmod";
    }

    /// et: the noun keeps the copular subject label the pronoun had in the basic tree.
    fn et_the_noun_keeps_the_copular_subject_label {
        "et", "1 tädi tädi NOUN _ 0 root
               2 kes kes PRON PronType=Int,Rel 4 nsubj:cop
               3 on olema AUX _ 4 cop
               4 hea hea ADJ _ 1 acl:relcl"
            => "1 0:root|4:nsubj:cop";
    }

    /// et: a relative pronoun heading its clause ("see, kellel on lipuke") is a ref, and
    /// the noun takes the clause's subject.
    fn et_a_relative_pronoun_heading_its_clause_is_a_ref {
        "et", "1 see see PRON PronType=Dem 0 root
               2 kellel kes PRON PronType=Int,Rel 1 acl:relcl
               3 on olema AUX _ 2 cop
               4 lipuke lipuke NOUN _ 2 nsubj:cop"
            => "4 1:nsubj|2:nsubj";
        "et", "1 see see PRON PronType=Dem 0 root
               2 kellel kes PRON PronType=Int,Rel 1 acl:relcl
               3 on olema AUX _ 2 cop
               4 lipuke lipuke NOUN _ 2 nsubj:cop"
            => "2 1:ref";
    }

    /// et: the pronoun of a relative clause conjoined to another is replaced by the noun too.
    fn et_the_pronoun_of_a_conjoined_relative_clause_is_replaced {
        "et", "1 rahvakild rahvakild NOUN _ 0 root
               2 millele mis PRON PronType=Int,Rel 3 obl
               3 pandi panema VERB _ 1 acl:relcl
               4 ja ja CCONJ _ 6 cc
               5 mis mis PRON PronType=Int,Rel 6 nsubj
               6 püüab püüdma VERB _ 3 conj"
            => "1 0:root|3:obl|6:nsubj";
    }

    /// et: a pronoun heading a conjoined relative clause gives the noun no conj edge.
    fn et_a_pronoun_heading_a_conjoined_relative_clause_gives_no_conj_edge {
        "et", "1 klient klient NOUN _ 0 root
               2 kes kes PRON PronType=Int,Rel 3 nsubj
               3 maksis maksma VERB _ 1 acl:relcl
               4 ja ja CCONJ _ 5 cc
               5 kellega kes PRON PronType=Int,Rel 3 conj
               6 polnud olema AUX _ 5 cop
               7 probleeme probleem NOUN _ 5 nsubj:cop"
            => "1 0:root|3:nsubj";
    }

    /// et: a later conjunct of a copular relative clause gets the noun as plain nsubj.
    fn et_a_later_copular_conjunct_gets_plain_nsubj {
        "et", "1 need see PRON _ 0 root
               2 kes kes PRON PronType=Int,Rel 4 nsubj:cop
               3 on olema AUX _ 4 cop
               4 ausad aus ADJ _ 1 acl:relcl
               5 ja ja CCONJ _ 6 cc
               6 helded helde ADJ _ 4 conj"
            => "1 0:root|4:nsubj:cop|6:nsubj";
    }

    /// et: a relative clause after coordinated nouns refers to each conjunct before it.
    fn et_a_relative_clause_after_coordinated_nouns_refers_to_each {
        "et", "1 maa-usk maa_usk NOUN Case=Nom 0 root
               2 või või CCONJ _ 3 cc
               3 loodususk loodus_usk NOUN Case=Nom 1 conj
               4 mis mis PRON PronType=Int,Rel 5 nsubj
               5 aitab aitama VERB _ 1 acl:relcl"
            => "4 1:ref|3:ref";
    }

    /// et: "reeglid, mis on lubatud ja mis mitte": a conjoined relative pronoun with remnants
    /// heads a gapped relative clause (an empty node with the noun's role and acl:relcl).
    fn et_a_gapped_relative_clause_gets_an_empty_node {
        "et", "1 reegleid reegel NOUN Case=Par 0 root
               2 mis mis PRON PronType=Int,Rel 4 obj
               3 on olema AUX _ 4 aux
               4 lubatud lubama VERB _ 1 acl:relcl
               5 ja ja CCONJ _ 6 cc
               6 mis mis PRON PronType=Int,Rel 4 conj
               7 mitte mitte ADV Polarity=Neg 6 orphan"
            => "6.1 1:acl:relcl|4:conj";
        "et", "1 reegleid reegel NOUN Case=Par 0 root
               2 mis mis PRON PronType=Int,Rel 4 obj
               3 on olema AUX _ 4 aux
               4 lubatud lubama VERB _ 1 acl:relcl
               5 ja ja CCONJ _ 6 cc
               6 mis mis PRON PronType=Int,Rel 4 conj
               7 mitte mitte ADV Polarity=Neg 6 orphan"
            => "1 0:root|4:obj|6.1:obj";
    }

    /// Conjuncts of a relative clause share the noun as subject in sv, not in uk.
    fn conjuncts_of_a_relative_clause_share_the_noun_in_sv_not_uk {
        "sv", "1 personer person NOUN _ 0 root
               2 som som PRON PronType=Rel 3 nsubj
               3 känner känna VERB _ 1 acl:relcl
               4 och och CCONJ _ 5 cc
               5 tar ta VERB _ 3 conj"
            => "1 0:root|3:nsubj|5:nsubj";
        "uk", "1 автора автор NOUN _ 0 root
               2 який який DET PronType=Rel 3 nsubj
               3 почуває почувати VERB _ 1 acl:relcl
               4 і і CCONJ _ 5 cc
               5 діє діяти VERB _ 3 conj"
            => "1 0:root|3:nsubj";
    }

    /// bg: an adverbial clause with защото is a relative clause on the main predicate.
    fn bg_a_zashtoto_clause_is_relative_on_the_main_predicate {
        "bg", "1 Той той PRON _ 2 nsubj
               2 пръска пръскам VERB _ 0 root
               3 защото защото ADV _ 4 advmod
               4 са съм AUX _ 2 advcl"
            => "3 2:ref";
    }

    /// en: a sentential relative is the csubj of its clause's antecedent.
    fn en_a_sentential_relative_is_the_csubj_of_its_antecedent {
        "en", "1 He he PRON _ 2 nsubj
               2 left leave VERB _ 0 root
               3 which which PRON PronType=Rel 4 nsubj
               4 surprised surprise VERB _ 2 advcl:relcl"
            => "2 0:root|4:csubj";
    }
}

enhances! {
    /// et: a reflexive object leaves a secondary predicate the clause's subject ("ta pidas end
    /// targaks": targaks =nsubj=> ta); a plain object is the predicate's subject (universal rule).
    fn et_reflexive_object_leaves_the_secondary_predicate_the_subject {
        "et", "1 ta tema PRON Case=Nom|PronType=Prs 2 nsubj
               2 pidas pidama VERB _ 0 root
               3 end ise PRON Case=Par|PronType=Prs|Reflex=Yes 2 obj
               4 targaks tark ADJ Case=Tra 2 xcomp"
            => "1 2:nsubj|4:nsubj
                3 2:obj";
        "et", "1 ta tema PRON Case=Nom|PronType=Prs 2 nsubj
               2 pidas pidama VERB _ 0 root
               3 teda tema PRON Case=Par|PronType=Prs 2 obj
               4 targaks tark ADJ Case=Tra 2 xcomp"
            => "1 2:nsubj
                3 2:obj|4:nsubj";
    }

    /// et: an essive secondary predicate ("as what") describes the subject where the verb has one
    /// (näitlejana =nsubj=> Ivo); a translative one ("into what") the object (universal rule).
    fn et_essive_secondary_predicate_takes_the_subject {
        "et", "1 Ivo Ivo PROPN Case=Nom 2 nsubj
               2 alustas alustama VERB _ 0 root
               3 tööd töö NOUN Case=Par 2 obj
               4 näitlejana näitleja NOUN Case=Ess 2 xcomp"
            => "1 2:nsubj|4:nsubj
                3 2:obj";
        "et", "1 Ivo Ivo PROPN Case=Nom 2 nsubj
               2 alustas alustama VERB _ 0 root
               3 tööd töö NOUN Case=Par 2 obj
               4 näitlejaks näitleja NOUN Case=Tra 2 xcomp"
            => "1 2:nsubj
                3 2:obj|4:nsubj";
    }

    /// et: a later conjunct in another mood than the first (on the verb, or on the auxiliary of
    /// either) does not share the first one's subject; one in the same mood does.
    fn et_a_conjunct_in_another_mood_shares_no_subject {
        "et", "1 ta tema PRON Case=Nom 2 nsubj
               2 räägib rääkima VERB Mood=Ind 0 root
               3 ja ja CCONJ _ 4 cc
               4 tahab tahtma VERB Mood=Ind 2 conj"
            => "1 2:nsubj|4:nsubj";
        "et", "1 ta tema PRON Case=Nom 2 nsubj
               2 räägib rääkima VERB Mood=Ind 0 root
               3 ja ja CCONJ _ 4 cc
               4 tahaks tahtma VERB Mood=Cnd 2 conj"
            => "1 2:nsubj";
        "et", "1 ma mina PRON Case=Nom 3 nsubj
               2 olen olema AUX Mood=Ind 3 aux
               3 tegelenud tegelema VERB VerbForm=Part 0 root
               4 ja ja CCONJ _ 5 cc
               5 vaadake vaatama VERB Mood=Imp 3 conj"
            => "1 3:nsubj";
        "et", "1 ta tema PRON Case=Nom 2 nsubj
               2 seletas seletama VERB Mood=Ind 0 root
               3 ja ja CCONJ _ 5 cc
               4 oleks olema AUX Mood=Cnd 5 aux
               5 astunud astuma VERB VerbForm=Part 2 conj"
            => "1 2:nsubj";
    }

    /// et: "ta lubas mul minna": lubama (allow) controls through an adessive oblique, as the other
    /// object-control verbs of the lexicon do; without one its subject controls ("lubas tulla").
    fn et_lubama_controls_through_an_adessive_oblique {
        "et", "1 ta tema PRON Case=Nom 2 nsubj
               2 lubas lubama VERB _ 0 root
               3 mul mina PRON Case=Ade 2 obl
               4 minna minema VERB VerbForm=Inf 2 xcomp"
            => "1 2:nsubj
                3 2:obl|4:nsubj";
        "et", "1 ta tema PRON Case=Nom 2 nsubj
               2 lubas lubama VERB _ 0 root
               3 tulla tulema VERB VerbForm=Inf 2 xcomp"
            => "1 2:nsubj|3:nsubj";
    }
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
}
