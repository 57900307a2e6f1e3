//! Labels valid by construction (`docs/labels.md`): whatever the input offers — hostile lemmas,
//! forms, feature values, DEPRELs — every label written fits UD's grammar, no input text adds
//! a DEPS edge, every column but DEPS stays byte for byte, and every repair is counted.

use crate::common::{all_but_deps, enhancer, run, text};
use eudify::repair_kinds::{
    NOT_A_RELATION, PART_DROPPED, ROOT_EDGE, ROOT_ELSEWHERE, TEXT_CLEANED, TEXT_DROPPED,
};
use eudify::validate::validate_reader;
use eudify::Summary;

/// `input` enhanced under `profile` on one thread, checked to be valid and to keep every column
/// but DEPS; the output and the run's summary.
fn enhance(profile: &str, input: &str) -> (String, Summary) {
    let (out, summary) = enhancer(profile)
        .enhance_str(input)
        .unwrap_or_else(|e| panic!("{profile}: {e}"));
    let out = out.into_bytes();
    assert_eq!(
        all_but_deps(&out),
        all_but_deps(input.as_bytes()),
        "{profile}: only DEPS may change"
    );
    let report = validate_reader("out", &out[..]).unwrap();
    let mut problems = Vec::new();
    report.write_to(&mut problems).unwrap();
    assert!(
        report.is_valid(),
        "{profile}: {}\n{}",
        text(&problems),
        text(&out)
    );
    (String::from_utf8(out).unwrap(), summary)
}

/// A sentence from `(form, lemma, upos, feats, head, deprel)` rows.
fn sentence(words: &[(&str, &str, &str, &str, u32, &str)]) -> String {
    let mut s = String::new();
    for (i, (form, lemma, upos, feats, head, deprel)) in words.iter().enumerate() {
        s += &format!(
            "{}\t{form}\t{lemma}\t{upos}\t_\t{feats}\t{head}\t{deprel}\t_\t_\n",
            i + 1
        );
    }
    s + "\n"
}

/// DEPS of word `n` (1-based) of the first sentence of `output`.
fn deps(output: &str, n: usize) -> String {
    let line = output
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .nth(n - 1)
        .unwrap();
    line.split('\t').nth(8).unwrap().to_string()
}

/// A profile with Case values in labels that spells markers by lemma, so that the lemmas of
/// these sentences reach the label (`cs` spells fixed expressions by form: `fixed_marker_forms`).
const LEMMA_MARKERS: &str = "lt";

/// `Jde na X domě`: an `obl` with the preposition `na`, whose `fixed` child has `lemma`.
fn czech_fixed(lemma: &str, case: &str) -> String {
    sentence(&[
        ("Jde", "jít", "VERB", "_", 0, "root"),
        ("na", "na", "ADP", "_", 4, "case"),
        ("x", lemma, "ADP", "_", 2, "fixed"),
        ("domě", "dům", "NOUN", case, 1, "obl"),
    ])
}

#[test]
fn a_fixed_lemma_cannot_add_a_deps_edge() {
    let (out, summary) = enhance(LEMMA_MARKERS, &czech_fixed("x|3:nsubj", "Case=Loc"));
    assert_eq!(deps(&out, 4), "1:obl:na_xnsubj:loc");
    assert_eq!(summary.repairs.count(TEXT_CLEANED), 1);
}

#[test]
fn quote_marks_inside_a_multiword_preposition_are_left_out() {
    let input = sentence(&[
        ("Jde", "jít", "VERB", "_", 0, "root"),
        ("na", "na", "ADP", "_", 5, "case"),
        ("základě", "základ", "NOUN", "_", 2, "fixed"),
        ("„", "„", "PUNCT", "_", 2, "fixed"),
        ("smlouvy", "smlouva", "NOUN", "Case=Gen", 1, "obl"),
    ]);
    let (out, summary) = enhance(LEMMA_MARKERS, &input);
    assert_eq!(deps(&out, 5), "1:obl:na_základ:gen");
    assert_eq!(summary.repairs.count(TEXT_CLEANED), 1);
}

/// `Tell me W you left`: an adverbial clause with the wh-adverb W (`advcl:{lemma(W)}` in `en`).
fn english_wh(lemma: &str) -> String {
    sentence(&[
        ("Tell", "tell", "VERB", "Mood=Imp", 0, "root"),
        ("me", "I", "PRON", "_", 1, "iobj"),
        ("how", lemma, "ADV", "PronType=Int", 5, "advmod"),
        ("you", "you", "PRON", "_", 5, "nsubj"),
        ("left", "leave", "VERB", "_", 1, "advcl"),
    ])
}

#[test]
fn punctuation_space_and_absent_lemmas_give_the_bare_label() {
    assert_eq!(
        deps(&enhance("en", &english_wh("how")).0, 5),
        "1:advcl:how",
        "the rule applies"
    );
    // No lemma (`_`): the form stands in (docs/rule-language.md, "Words without a lemma").
    let (out, summary) = enhance("en", &english_wh("_"));
    assert_eq!(
        (deps(&out, 5).as_str(), summary.repairs.total()),
        ("1:advcl:how", 0)
    );
    for (lemma, dropped) in [("?", 1), (" ", 1), ("„", 1)] {
        let (out, summary) = enhance("en", &english_wh(lemma));
        assert_eq!(deps(&out, 5), "1:advcl", "{lemma:?}");
        assert_eq!(summary.repairs.count(TEXT_DROPPED), dropped, "{lemma:?}");
        assert_eq!(summary.repairs.total(), dropped, "{lemma:?}");
    }
    // A fixed part of which nothing is left is left out with its joint.
    let (out, summary) = enhance(LEMMA_MARKERS, &czech_fixed("?", "Case=Loc"));
    assert_eq!(deps(&out, 4), "1:obl:na:loc");
    assert_eq!(summary.repairs.count(TEXT_CLEANED), 1);
}

#[test]
fn a_wh_adverb_with_a_space_is_joined() {
    let (out, summary) = enhance("en", &english_wh("how come"));
    assert_eq!(deps(&out, 5), "1:advcl:how_come");
    assert_eq!(summary.repairs.count(TEXT_CLEANED), 1);
}

#[test]
fn labels_are_lower_case_and_nfc() {
    // Title case lower-cases (not a repair); a letter with no lower-case form is dropped; NFC
    // composes.
    for (lemma, marker, cleaned) in [
        ("Ǆa", "ǆa", 0),
        ("ℂhow", "how", 1),
        ("ho\u{301}w", "hów", 1),
    ] {
        let (out, summary) = enhance("en", &english_wh(lemma));
        assert_eq!(deps(&out, 5), format!("1:advcl:{marker}"), "{lemma:?}");
        assert_eq!(summary.repairs.count(TEXT_CLEANED), cleaned, "{lemma:?}");
    }
}

#[test]
fn case_values_with_several_values_or_digits() {
    let (out, summary) = enhance(LEMMA_MARKERS, &czech_fixed("základ", "Case=Acc,Nom"));
    assert_eq!(
        deps(&out, 4),
        "1:obl:na_základ",
        "several values: no case part"
    );
    assert_eq!(summary.repairs.count(TEXT_DROPPED), 1);
    let (out, summary) = enhance(LEMMA_MARKERS, &czech_fixed("základ", "Case=Gen2"));
    assert_eq!(deps(&out, 4), "1:obl:na_základ:gen");
    assert_eq!(summary.repairs.count(TEXT_CLEANED), 1);
}

#[test]
fn dutch_and_or_is_joined_with_an_underscore() {
    // As a parser splits it: `/` and `of` fixed to `en`.
    let input = sentence(&[
        ("appels", "appel", "NOUN", "_", 0, "root"),
        ("en", "en", "CCONJ", "_", 5, "cc"),
        ("/", "/", "PUNCT", "_", 2, "fixed"),
        ("of", "of", "CCONJ", "_", 2, "fixed"),
        ("peren", "peer", "NOUN", "_", 1, "conj"),
    ]);
    let (out, summary) = enhance("nl", &input);
    assert_eq!(deps(&out, 5), "1:conj:en_of");
    assert_eq!(summary.repairs.count(TEXT_CLEANED), 1);
}

#[test]
fn spacy_root_is_case_folded_in_every_profile() {
    let input = sentence(&[
        ("Dogs", "dog", "NOUN", "_", 2, "nsubj"),
        ("bark", "bark", "VERB", "_", 0, "ROOT"),
    ]);
    for profile in ["basic", "universal", "en", "cs"] {
        let (out, summary) = enhance(profile, &input);
        assert_eq!(deps(&out, 2), "0:root", "{profile}");
        assert_eq!(summary.repairs.count("ROOT → root"), 1, "{profile}");
        assert_eq!(summary.repairs.total(), 1, "{profile}");
    }
}

#[test]
fn deprels_that_are_not_ud_relations_become_dep() {
    let input = sentence(&[
        ("a", "a", "X", "_", 0, "root"),
        ("b", "b", "X", "_", 1, "_"),
        ("c", "c", "X", "_", 1, "foo"),
        ("d", "d", "X", "_", 1, "obj|1:nsubj"),
        ("e", "e", "X", "_", 1, "obl:Tmod2"),
        ("f", "f", "X", "_", 1, "Nsubj:Pass"),
    ]);
    for profile in ["basic", "universal"] {
        let (out, summary) = enhance(profile, &input);
        let got: Vec<String> = (2..=6).map(|n| deps(&out, n)).collect();
        assert_eq!(
            got,
            ["1:dep", "1:dep", "1:dep", "1:obl", "1:nsubj:pass"],
            "{profile}"
        );
        assert_eq!(summary.repairs.count(NOT_A_RELATION), 3, "{profile}");
        assert_eq!(summary.repairs.count(PART_DROPPED), 1, "{profile}");
        assert_eq!(
            summary.repairs.count("Nsubj:Pass → nsubj:pass"),
            1,
            "{profile}"
        );
    }
}

#[test]
fn root_is_only_from_zero() {
    let input = sentence(&[
        ("a", "a", "X", "_", 0, "nsubj"),
        ("b", "b", "X", "_", 1, "root"),
    ]);
    let (out, summary) = enhance("basic", &input);
    assert_eq!(
        (deps(&out, 1), deps(&out, 2)),
        ("0:root".to_string(), "1:dep".to_string())
    );
    assert_eq!(
        (
            summary.repairs.count(ROOT_EDGE),
            summary.repairs.count(ROOT_ELSEWHERE)
        ),
        (1, 1)
    );
}

/// Repairs are counted per use, summed over sentences, and told on stderr; a clean run says
/// nothing.
#[test]
fn repairs_are_told_on_stderr() {
    let root = sentence(&[
        ("Dogs", "dog", "NOUN", "_", 2, "nsubj"),
        ("bark", "bark", "VERB", "_", 0, "ROOT"),
    ]);
    let input = root.repeat(3)
        + &sentence(&[
            ("a", "a", "X", "_", 0, "root"),
            ("b", "b", "X", "_", 1, "foo"),
        ]);
    let output = run(&["enhance", "--lang", "en"], input.as_bytes());
    assert!(output.status.success());
    assert_eq!(
        text(&output.stderr).trim_end(),
        "eudify: 4 sentences; 4 labels repaired (3 ROOT → root, 1 not a UD relation → dep)"
    );
    let clean = run(
        &["enhance", "--lang", "en"],
        root.replace("ROOT", "root").as_bytes(),
    );
    assert!(clean.status.success());
    assert_eq!(text(&clean.stderr), "");
}
