//! Dependents shared by conjuncts (`rules/universal/shared.rules`): each rule on a sentence of a
//! treebank whose profile enables it, and the same sentence under that profile with the rule
//! disabled, so that every test shows the rule itself makes the difference.

use crate::common::{enhance, run, text};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The embedded rules exported once (`eudify rules export`) into a temporary folder, where
/// `check` adds profiles.
fn exported() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // One folder per process: test runners that start a process per test (nextest) would
        // otherwise export over each other.
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("shared_rules_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = run(&["rules", "export", dir.to_str().unwrap()], b"");
        assert!(out.status.success(), "{}", text(&out.stderr));
        dir
    })
}

/// DEPS of each word of `output`.
fn deps(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split('\t').nth(8).unwrap().to_string())
        .collect()
}

/// DEPS of each word of `input` (one sentence, ten tab-separated columns a line) enhanced
/// under `profile`.
fn deps_under(profile: &str, input: &str) -> Vec<String> {
    deps(&enhance(profile, &format!("{}\n\n", input.trim())))
}

/// As [`deps_under`], with a profile written into the [`exported`] rules.
fn deps_in_export(profile: &str, input: &str) -> Vec<String> {
    let enhancer = eudify::Enhancer::for_profile(profile, Some(exported()))
        .unwrap_or_else(|e| panic!("{profile}: {e}"));
    let (output, _) = enhancer
        .enhance_str(&format!("{}\n\n", input.trim()))
        .unwrap_or_else(|e| panic!("{profile}: {e}"));
    deps(&output)
}

/// Checks `expected` (word number → DEPS) of `input` (one sentence, ten tab-separated columns
/// a line) under `profile`, and that disabling `rule` in that profile changes at least one of
/// those words.
fn check(profile: &str, rule: &str, input: &str, expected: &[(usize, &str)]) {
    let with = deps_under(profile, input);
    for &(word, want) in expected {
        assert_eq!(with[word - 1], want, "{profile}: word {word} with {rule}");
    }
    let dir = exported();
    let off = format!("{profile}_without_{rule}");
    std::fs::write(
        dir.join(format!("profiles/{off}.toml")),
        format!("name = \"{off}\"\ndescription = \"{profile} without {rule}\"\nextends = \"{profile}\"\ndisable = [\"{rule}\"]\n"),
    )
    .unwrap();
    let without = deps_in_export(&off, input);
    assert!(
        expected
            .iter()
            .any(|&(word, want)| without[word - 1] != want),
        "{profile}: the expected DEPS do not depend on {rule}: {without:?}"
    );
}

/// Ten columns from (form, upos, feats, head, deprel), lemma = form.
fn sentence(words: &[(&str, &str, &str, u32, &str)]) -> String {
    let mut text = String::new();
    for (i, (form, upos, feats, head, rel)) in words.iter().enumerate() {
        text += &format!(
            "{}\t{form}\t{form}\t{upos}\t_\t{feats}\t{head}\t{rel}\t_\t_\n",
            i + 1
        );
    }
    text
}

#[test]
fn a_preposition_before_the_first_conjunct_is_shared() {
    // pl "w domu i ogrodzie": ogrodzie has no preposition of its own.
    let input = sentence(&[
        ("w", "ADP", "_", 2, "case"),
        ("domu", "NOUN", "Case=Loc", 0, "root"),
        ("i", "CCONJ", "_", 4, "cc"),
        ("ogrodzie", "NOUN", "Case=Loc", 2, "conj"),
    ]);
    check(
        "pl",
        "shared_dependent_before",
        &input,
        &[(1, "2:case|4:case")],
    );
}

#[test]
fn a_subordinator_is_shared_by_a_conjunct_without_a_subject_of_its_own() {
    // pt "que ela chegou, ele saiu e voltou": saiu has its own subject, voltou none.
    let input = sentence(&[
        ("que", "SCONJ", "_", 3, "mark"),
        ("ela", "PRON", "_", 3, "nsubj"),
        ("chegou", "VERB", "_", 0, "root"),
        ("ele", "PRON", "_", 5, "nsubj"),
        ("saiu", "VERB", "_", 3, "conj"),
        ("e", "CCONJ", "_", 7, "cc"),
        ("voltou", "VERB", "_", 3, "conj"),
    ]);
    check(
        "pt",
        "shared_dependent_before",
        &input,
        &[(1, "3:mark|7:mark")],
    );
}

#[test]
fn a_copula_is_shared_by_a_later_non_verbal_conjunct_only() {
    // fi "talo on iso ja kaunis ja seisoo": the verb seisoo takes no copula.
    let input = sentence(&[
        ("talo", "NOUN", "_", 3, "nsubj:cop"),
        ("on", "AUX", "_", 3, "cop"),
        ("iso", "ADJ", "_", 0, "root"),
        ("ja", "CCONJ", "_", 5, "cc"),
        ("kaunis", "ADJ", "_", 3, "conj"),
        ("ja", "CCONJ", "_", 7, "cc"),
        ("seisoo", "VERB", "VerbForm=Fin", 3, "conj"),
    ]);
    check("fi", "shared_copula", &input, &[(2, "3:cop|5:cop")]);
}

#[test]
fn an_auxiliary_is_shared_by_a_later_non_finite_conjunct_only() {
    // lv "viņš ir atnācis un aizgājis un smejas": the finite smejas takes no auxiliary.
    let input = sentence(&[
        ("viņš", "PRON", "_", 3, "nsubj"),
        ("ir", "AUX", "VerbForm=Fin", 3, "aux"),
        ("atnācis", "VERB", "VerbForm=Part", 0, "root"),
        ("un", "CCONJ", "_", 5, "cc"),
        ("aizgājis", "VERB", "VerbForm=Part", 3, "conj"),
        ("un", "CCONJ", "_", 7, "cc"),
        ("smejas", "VERB", "VerbForm=Fin", 3, "conj"),
    ]);
    check("lv", "shared_auxiliary", &input, &[(2, "3:aux|5:aux")]);
}

#[test]
fn a_determiner_is_shared_by_a_later_bare_conjunct() {
    // nl "de mannen en vrouwen en oude kinderen": kinderen has a modifier of its own.
    let input = sentence(&[
        ("de", "DET", "_", 2, "det"),
        ("mannen", "NOUN", "_", 0, "root"),
        ("en", "CCONJ", "_", 4, "cc"),
        ("vrouwen", "NOUN", "_", 2, "conj"),
        ("en", "CCONJ", "_", 7, "cc"),
        ("oude", "ADJ", "_", 7, "amod"),
        ("kinderen", "NOUN", "_", 2, "conj"),
    ]);
    check(
        "nl",
        "shared_modifier_before",
        &input,
        &[(1, "2:det|4:det")],
    );
}

#[test]
fn an_adjective_is_shared_only_by_a_conjunct_it_agrees_with() {
    // sk "nové zákony a predpisy a smernica": the singular feminine smernica is not "nové".
    let input = sentence(&[
        ("nové", "ADJ", "Case=Nom|Gender=Masc|Number=Plur", 2, "amod"),
        (
            "zákony",
            "NOUN",
            "Case=Nom|Gender=Masc|Number=Plur",
            0,
            "root",
        ),
        ("a", "CCONJ", "_", 4, "cc"),
        (
            "predpisy",
            "NOUN",
            "Case=Nom|Gender=Masc|Number=Plur",
            2,
            "conj",
        ),
        ("a", "CCONJ", "_", 6, "cc"),
        (
            "smernica",
            "NOUN",
            "Case=Nom|Gender=Fem|Number=Sing",
            2,
            "conj",
        ),
    ]);
    check(
        "sk",
        "shared_modifier_before",
        &input,
        &[(1, "2:amod|4:amod")],
    );
}

#[test]
fn a_verb_disagreeing_with_the_subject_does_not_share_it() {
    // pl "ona przyszła i wyszedł, i wyszła": wyszedł is masculine, so its subject is someone else.
    let input = sentence(&[
        ("ona", "PRON", "Gender=Fem|Person=3", 2, "nsubj"),
        (
            "przyszła",
            "VERB",
            "Gender=Fem|Person=3|VerbForm=Fin",
            0,
            "root",
        ),
        ("i", "CCONJ", "_", 4, "cc"),
        (
            "wyszedł",
            "VERB",
            "Gender=Masc|Person=3|VerbForm=Fin",
            2,
            "conj",
        ),
        ("i", "CCONJ", "_", 6, "cc"),
        (
            "wyszła",
            "VERB",
            "Gender=Fem|Person=3|VerbForm=Fin",
            2,
            "conj",
        ),
    ]);
    check("pl", "shared_subject", &input, &[(1, "2:nsubj|6:nsubj")]);
}

#[test]
fn a_bare_nominal_conjunct_shares_the_subject_where_the_treebank_does() {
    // "the skin is smooth and soft": soft has the subject in English, pružná none in Czech.
    let en = sentence(&[
        ("skin", "NOUN", "_", 3, "nsubj"),
        ("is", "AUX", "_", 3, "cop"),
        ("smooth", "ADJ", "_", 0, "root"),
        ("and", "CCONJ", "_", 5, "cc"),
        ("soft", "ADJ", "_", 3, "conj"),
    ]);
    check("en", "shared_subject", &en, &[(1, "3:nsubj|5:nsubj")]);
    let cs = sentence(&[
        ("pleť", "NOUN", "_", 3, "nsubj"),
        ("je", "AUX", "_", 3, "cop"),
        ("hladká", "ADJ", "_", 0, "root"),
        ("a", "CCONJ", "_", 5, "cc"),
        ("pružná", "ADJ", "_", 3, "conj"),
    ]);
    assert_eq!(deps_under("cs", &cs)[0], "3:nsubj");
}

#[test]
fn a_nominal_conjunct_with_its_own_copula_shares_the_subject() {
    // cs "pleť je hladká a je pružná"
    let input = sentence(&[
        ("pleť", "NOUN", "_", 3, "nsubj"),
        ("je", "AUX", "_", 3, "cop"),
        ("hladká", "ADJ", "_", 0, "root"),
        ("a", "CCONJ", "_", 6, "cc"),
        ("je", "AUX", "_", 6, "cop"),
        ("pružná", "ADJ", "_", 3, "conj"),
    ]);
    check(
        "cs",
        "shared_subject_copular",
        &input,
        &[(1, "3:nsubj|6:nsubj")],
    );
}

#[test]
fn a_passive_conjunct_takes_the_subject_as_nsubj_pass() {
    // en "he came and was arrested"; Czech keeps the first conjunct's label.
    let input = sentence(&[
        ("he", "PRON", "_", 2, "nsubj"),
        ("came", "VERB", "VerbForm=Fin", 0, "root"),
        ("and", "CCONJ", "_", 5, "cc"),
        ("was", "AUX", "_", 5, "aux:pass"),
        ("arrested", "VERB", "VerbForm=Part", 2, "conj"),
    ]);
    check(
        "en",
        "shared_subject_passive",
        &input,
        &[(1, "2:nsubj|5:nsubj:pass")],
    );
    assert_eq!(deps_under("cs", &input)[0], "2:nsubj|5:nsubj");
}

#[test]
fn an_active_finite_conjunct_takes_a_passive_subject_as_nsubj() {
    // nl "hij werd uitgelachen en kwam thuis"
    let input = sentence(&[
        ("hij", "PRON", "_", 3, "nsubj:pass"),
        ("werd", "AUX", "_", 3, "aux:pass"),
        ("uitgelachen", "VERB", "VerbForm=Part", 0, "root"),
        ("en", "CCONJ", "_", 5, "cc"),
        ("kwam", "VERB", "VerbForm=Fin", 3, "conj"),
    ]);
    check(
        "nl",
        "shared_subject_active",
        &input,
        &[(1, "3:nsubj:pass|5:nsubj")],
    );
}

#[test]
fn a_noun_modifier_after_the_last_conjunct_is_shared_even_beside_its_own() {
    // fr "le prix des terrains et des maisons de ville de la région": maisons has its own nmod
    // (ville), and shares région, attached to terrains after the last conjunct.
    let input = sentence(&[
        ("prix", "NOUN", "_", 0, "root"),
        ("des", "ADP", "_", 3, "case"),
        ("terrains", "NOUN", "_", 1, "nmod"),
        ("et", "CCONJ", "_", 6, "cc"),
        ("des", "ADP", "_", 6, "case"),
        ("maisons", "NOUN", "_", 3, "conj"),
        ("de", "ADP", "_", 8, "case"),
        ("ville", "NOUN", "_", 6, "nmod"),
        ("de", "ADP", "_", 11, "case"),
        ("la", "DET", "_", 11, "det"),
        ("région", "NOUN", "_", 3, "nmod"),
    ]);
    check(
        "fr",
        "shared_dependent_after",
        &input,
        &[(11, "3:nmod|6:nmod")],
    );
    // Italian shares no nmod after the conjuncts.
    let it = deps_under("it", &input);
    assert!(
        it[10].starts_with("3:nmod") && !it[10].contains("6:"),
        "{it:?}"
    );
}

#[test]
fn a_subject_after_the_first_verb_is_shared_where_the_treebank_does() {
    // nl "daarna ging hij naar huis en sliep"; Czech leaves such a later verb its dropped subject.
    let input = sentence(&[
        ("daarna", "ADV", "_", 2, "advmod"),
        ("ging", "VERB", "_", 0, "root"),
        ("hij", "PRON", "_", 2, "nsubj"),
        ("naar", "ADP", "_", 5, "case"),
        ("huis", "NOUN", "_", 2, "obl"),
        ("en", "CCONJ", "_", 7, "cc"),
        ("sliep", "VERB", "_", 2, "conj"),
    ]);
    check(
        "nl",
        "shared_subject_inverted",
        &input,
        &[(3, "2:nsubj|7:nsubj")],
    );
    assert_eq!(deps_under("cs", &input)[2], "2:nsubj");
}

#[test]
fn an_estonian_impersonal_or_modal_infinitive_conjunct_takes_no_shared_subject() {
    // "Pere tahtis ja maksti ja saab salvestada ja läks": the impersonal maksti and the
    // infinitive with a modal of its own take no subject (impersonal_verbforms,
    // unshared_aux_verbforms), the active läks does; without the two settings all three would.
    let input = sentence(&[
        ("Pere", "NOUN", "Case=Nom|Number=Sing", 2, "nsubj"),
        (
            "tahtis",
            "VERB",
            "Mood=Ind|Number=Sing|Person=3|VerbForm=Fin|Voice=Act",
            0,
            "root",
        ),
        ("ja", "CCONJ", "_", 4, "cc"),
        (
            "maksti",
            "VERB",
            "Mood=Ind|VerbForm=Fin|Voice=Pass",
            2,
            "conj",
        ),
        ("ja", "CCONJ", "_", 7, "cc"),
        ("saab", "AUX", "Mood=Ind|Person=3|VerbForm=Fin", 7, "aux"),
        ("salvestada", "VERB", "VerbForm=Inf", 2, "conj"),
        ("ja", "CCONJ", "_", 9, "cc"),
        (
            "läks",
            "VERB",
            "Mood=Ind|Number=Sing|Person=3|VerbForm=Fin|Voice=Act",
            2,
            "conj",
        ),
    ]);
    assert_eq!(deps_under("et", &input)[0], "2:nsubj|9:nsubj");
    let dir = exported();
    std::fs::write(
        dir.join("profiles/et_every_conjunct.toml"),
        "name = \"et_every_conjunct\"\ndescription = \"et sharing with every conjunct\"\nextends = \"et\"\n[settings]\nimpersonal_verbforms = []\nunshared_aux_verbforms = []\n",
    )
    .unwrap();
    assert_eq!(
        deps_in_export("et_every_conjunct", &input)[0],
        "2:nsubj|4:nsubj|7:nsubj|9:nsubj"
    );
}

#[test]
fn a_subject_without_person_is_not_shared_with_a_first_or_second_person_verb() {
    // et "See kummitab ja ärkan ja kordub": ärkan (I wake) has a subject of its own, dropped;
    // kordub (it recurs) shares "see".
    let input = sentence(&[
        (
            "See",
            "PRON",
            "Case=Nom|Number=Sing|PronType=Dem",
            2,
            "nsubj",
        ),
        (
            "kummitab",
            "VERB",
            "Number=Sing|Person=3|VerbForm=Fin",
            0,
            "root",
        ),
        ("ja", "CCONJ", "_", 4, "cc"),
        (
            "ärkan",
            "VERB",
            "Number=Sing|Person=1|VerbForm=Fin",
            2,
            "conj",
        ),
        ("ja", "CCONJ", "_", 6, "cc"),
        (
            "kordub",
            "VERB",
            "Number=Sing|Person=3|VerbForm=Fin",
            2,
            "conj",
        ),
    ]);
    check("et", "shared_subject", &input, &[(1, "2:nsubj|6:nsubj")]);
}

#[test]
fn an_estonian_nominative_nominal_conjunct_shares_the_subject() {
    // "Maja on suur ja ilus, majas ...": ilus (nominative) shares the subject, the inessive
    // majas does not.
    let input = sentence(&[
        ("Maja", "NOUN", "Case=Nom|Number=Sing", 3, "nsubj:cop"),
        ("on", "AUX", "_", 3, "cop"),
        ("suur", "ADJ", "Case=Nom|Number=Sing", 0, "root"),
        ("ja", "CCONJ", "_", 5, "cc"),
        ("ilus", "ADJ", "Case=Nom|Number=Sing", 3, "conj"),
        ("ja", "CCONJ", "_", 7, "cc"),
        ("majas", "NOUN", "Case=Ine|Number=Sing", 3, "conj"),
    ]);
    check(
        "et",
        "et_shared_subject_nominative",
        &input,
        &[(1, "3:nsubj|5:nsubj")],
    );
}
