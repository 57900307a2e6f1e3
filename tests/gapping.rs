//! Gapping end to end (rules/universal/gapping.rules under the shipped profiles): the empty node
//! of a gapped conjunct, its parent and conj subtype, and the remnants' relations. Each
//! sentence is in tests/data/gapping; the test names the rules it depends on.

use crate::common::{enhance, id_deps, run, text};

/// `ID DEPS` of every word and empty node of `file` (tests/data/gapping) enhanced by `--lang`.
fn deps(lang: &str, file: &str) -> Vec<String> {
    let path = format!("{}/tests/data/gapping/{file}", env!("CARGO_MANIFEST_DIR"));
    let input = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    id_deps(&enhance(lang, &input))
}

/// "Mary eats apples and Sue oranges": the empty node takes the coordinator and the conj with
/// its subtype (gapping_empty_node, gapping_empty_conj_label); without Case, the remnants are
/// read by word order (gapping_remnant_subject_by_order, gapping_remnant_complement_by_order).
#[test]
fn english_remnants_take_their_counterparts_relations_by_word_order() {
    assert_eq!(
        deps("en", "en_order.conllu"),
        [
            "1 2:nsubj",
            "2 0:root",
            "3 2:obj",
            "4 5.1:cc",
            "5 5.1:nsubj",
            "5.1 2:conj:and",
            "6 5.1:obj"
        ]
    );
}

/// The empty node, not the remnant, gets the full clause's parent (gapping_empty_parent,
/// gapping_remnant_not_conjunct); a marked remnant is an oblique with its marker
/// (gapping_remnant_marked).
#[test]
fn the_empty_node_gets_the_full_clauses_parent_and_a_marked_remnant_its_marker() {
    assert_eq!(
        deps("en", "en_parent.conllu"),
        [
            "1 2:nsubj",
            "2 0:root",
            "3 4:nsubj",
            "4 2:ccomp",
            "5 4:obj",
            "6 7.1:cc",
            "7 7.1:nsubj",
            "7.1 2:ccomp|4:conj:and",
            "8 7.1:obj",
            "9 10:case",
            "10 7.1:obl:at"
        ]
    );
}

/// A remnant no rule can label is `dep` (orphan_left_over), never `orphan`.
#[test]
fn a_remnant_without_a_counterpart_is_dep() {
    let deps = deps("en", "en_leftover.conllu");
    assert!(deps.contains(&"8 6.1:dep".to_string()), "{deps:?}");
    assert!(deps.contains(&"6.1 2:conj:and".to_string()), "{deps:?}");
}

/// Czech: the gapped clause of a root verb is a root too, on the empty node and not on the
/// remnant (gapping_empty_root, gapping_remnant_not_conjunct); remnants are `dep` but adverbs
/// `advmod` (remnant_relations = false; gapping_remnant_adverb).
#[test]
fn czech_gapped_clause_of_the_root_is_a_root_with_dep_remnants() {
    assert_eq!(
        deps("cs", "cs_root.conllu"),
        [
            "1 2:advmod",
            "2 0:root",
            "3 2:nsubj",
            "4 6.1:cc",
            "5 6.1:advmod",
            "6 6.1:dep",
            "6.1 0:root|2:conj",
            "7 2:punct"
        ]
    );
}

/// Latvian: a remnant in the Case of one unmarked argument takes its relation, obl:loc
/// included (gapping_remnant_same_case); a marked one is obl:MARKER (gapping_remnant_marked).
#[test]
fn latvian_remnants_take_the_relation_of_the_argument_in_their_case() {
    assert_eq!(
        deps("lv", "lv_case.conllu"),
        [
            "1 2:nsubj",
            "2 0:root",
            "3 2:obj",
            "4 2:obl:loc",
            "5 6.1:punct",
            "6 6.1:nsubj",
            "6.1 2:conj",
            "7 6.1:obj",
            "8 6.1:obl:loc",
            "9 10.1:punct",
            "10 10.1:nsubj",
            "10.1 2:conj",
            "11 12:case",
            "12 10.1:obl:uz",
            "13 10.1:obl:loc",
            "14 2:punct"
        ]
    );
}

/// Latvian remnants without a counterpart in their Case: nominative nsubj, accusative obj,
/// another Case obl:CASE (gapping_remnant_nominative, _accusative, _oblique).
#[test]
fn latvian_remnants_without_a_counterpart_are_read_off_their_case() {
    assert_eq!(
        deps("lv", "lv_form.conllu"),
        [
            "1 0:root",
            "2 1:obj",
            "3 1:obl:loc",
            "4 5.1:punct",
            "5 5.1:nsubj",
            "5.1 1:conj",
            "6 5.1:obj",
            "7 5.1:obl:dat"
        ]
    );
}

/// LVTB's empty nodes are active verbs: the remnant of a passive subject is nsubj
/// (lv_empty_node_subject_active); the quotation marks around a remnant's name stay on it while
/// the clause's comma and dash go to the empty node (lv_quotes_stay_with_name).
#[test]
fn latvian_remnants_are_active_subjects_and_keep_their_quotes() {
    assert_eq!(
        deps("lv", "lv_quoted.conllu"),
        [
            "1 2:punct",
            "2 4:nsubj:pass",
            "3 2:punct",
            "4 0:root",
            "5 6:amod",
            "6 4:obl:loc",
            "7 9.1:punct",
            "8 9:punct",
            "9 9.1:nsubj",
            "9.1 4:conj",
            "10 9:punct",
            "11 9.1:punct",
            "12 13:amod",
            "13 9.1:obl:loc",
            "14 4:punct"
        ]
    );
}

/// Finnish TDT keeps the remnant's conj and coordinator beside the empty node's
/// (gapping_remnant_keeps_conj, remnant_keeps_conj), and puts the node before the first
/// remnant (gapping_empty_node_before_first_orphan).
#[test]
fn finnish_remnant_keeps_its_conj_beside_the_empty_node() {
    assert_eq!(
        deps("fi", "fi_kept.conllu"),
        [
            "1 0:root",
            "2 1:obj",
            "3 3.1:cc|5:cc",
            "3.1 1:conj",
            "4 3.1:advmod",
            "5 1:conj|3.1:obj",
            "6 1:punct"
        ]
    );
}

/// The empty node stands where the treebank puts it (`gapping_node_place`): Estonian after the
/// first remnant, the conjunct's head or an orphan before it (gapping_empty_node_after_first,
/// gapping_empty_node_after_first_orphan), Dutch before it (gapping_empty_node_before_first);
/// a remnant in the Case of the full verb's argument takes its relation (gapping_remnant_same_case).
#[test]
fn the_empty_node_stands_where_the_treebank_puts_it() {
    let et = [
        "1 2:nsubj",
        "2 0:root",
        "3 2:obj",
        "4 5.1:cc",
        "5 5.1:nsubj",
        "5.1 0:root|2:conj",
        "6 5.1:obj",
        "7 2:punct",
    ];
    assert_eq!(deps("et", "et_place2.conllu"), et);
    assert_eq!(
        deps("et", "et_place.conllu"),
        [
            "1 2:nsubj",
            "2 0:root",
            "3 2:obj",
            "4 5.1:cc",
            "5 5.1:advmod",
            "5.1 0:root|2:conj",
            "6 5.1:nsubj",
            "7 5.1:obj",
            "8 2:punct"
        ]
    );
    assert_eq!(
        deps("nl", "nl_place.conllu"),
        [
            "1 2:nsubj",
            "2 0:root",
            "3 2:obj",
            "4 4.1:cc",
            "4.1 2:conj:en",
            "5 4.1:nsubj",
            "6 4.1:obj"
        ]
    );
}

/// A `gapping_node_place` no rule knows (a typo) is an error at its place in the profile with a
/// did-you-mean, not a value that quietly acts as the default (`values` in
/// rules/vocabulary.toml).
#[test]
fn an_unknown_node_place_is_an_error() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gapping_place_rules");
    let _ = std::fs::remove_dir_all(&dir);
    for entry in walkdir::WalkDir::new("rules") {
        let entry = entry.unwrap();
        let target = dir.join(entry.path());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
    let rules = dir.join("rules");
    std::fs::write(
        rules.join("profiles/nl_typo.toml"),
        "name = \"nl_typo\"\ndescription = \"nl with a misspelt node place\"\nextends = \"nl\"\n\n\
         [settings]\ngapping_node_place = \"before_frist\"\n",
    )
    .unwrap();
    let out = run(
        &[
            "enhance",
            "--rules",
            rules.to_str().unwrap(),
            "--lang",
            "nl_typo",
            "tests/data/gapping/nl_place.conllu",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("profiles/nl_typo.toml:6:22: error: `before_frist` is not a value of setting `gapping_node_place`"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `before_first`?"), "{stderr}");
}

/// Estonian: an unmarked partitive or genitive remnant is the object when the full verb has
/// one (gapping_remnant_object_case, `remnant_object_cases`; the universal reading would make
/// the partitive an oblique), and a symbol takes the relation of the full verb's symbol
/// (gapping_remnant_symbol; without it `%` would be `dep`).
#[test]
fn estonian_object_case_and_symbol_remnants_take_their_counterparts_relations() {
    assert_eq!(
        deps("et", "et_object.conllu"),
        [
            "1 2:nsubj",
            "2 0:root",
            "3 2:obj",
            "4 5.1:punct",
            "5 5.1:obj",
            "5.1 0:root|2:conj",
            "6 5.1:advmod",
            "7 2:punct",
            "1 2:nsubj",
            "2 0:root",
            "3 4:nummod",
            "4 2:obl",
            "5 6.1:punct",
            "6 6.1:nsubj",
            "6.1 0:root|2:conj",
            "7 8:nummod",
            "8 6.1:obl",
            "9 2:punct"
        ]
    );
}
/// Finnish: a gapped clause with no subject among its remnants shares the full clause's
/// subject on its empty node (rules/fi/gapping.rules, fi_gapping_empty_shared_subject).
#[test]
fn finnish_gapped_clause_without_a_subject_shares_the_full_clauses() {
    assert_eq!(
        deps("fi", "fi_subject.conllu"),
        [
            "1 2:nsubj|5.1:nsubj",
            "2 0:root",
            "3 2:obl",
            "4 2:obj",
            "5 5.1:cc|6:cc",
            "5.1 2:conj",
            "6 2:conj|5.1:obl",
            "7 5.1:obj",
            "8 2:punct"
        ]
    );
}

/// Finnish: an unmarked partitive remnant with no counterpart of its Case is the object of
/// the missing verb (the fi profile's `remnant_object_cases`, rules/universal/gapping.rules
/// gapping_remnant_object_case), not `obl`.
#[test]
fn finnish_partitive_remnant_without_counterpart_is_the_object() {
    let deps = deps("fi", "fi_partitive.conllu");
    assert!(deps.contains(&"5 1:conj|3.1:obj".to_string()), "{deps:?}");
    assert!(deps.contains(&"3.1 1:conj".to_string()), "{deps:?}");
}
