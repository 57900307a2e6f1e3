//! The parent of a coordination and the labels of later conjuncts, as each treebank has them:
//! the profile settings `conj_parent_never`, `conj_parent_nested`, `conj_own_marker`,
//! `conj_relation_by_category`, `conj_basic_label` and `conj_predicate_upos`, each run through
//! the whole profile on a sentence where two profiles that set it differently must disagree.

use crate::common::{deps_by, enhance, sentence};
use std::collections::BTreeMap;

/// Enhances one sentence under `--lang lang` (the embedded rules), checks that the output
/// validates, and returns the DEPS column by ID.
fn deps(lang: &str, conllu: &str) -> BTreeMap<String, String> {
    deps_by(enhance(lang, conllu).as_bytes(), 0)
}

/// Asserts the DEPS of word `id` under each profile of `expected`.
fn expect(conllu: &str, id: &str, expected: &[(&str, &str)]) {
    for (lang, want) in expected {
        let got = deps(lang, conllu);
        assert_eq!(
            got.get(id).map(String::as_str),
            Some(*want),
            "--lang {lang}, DEPS of {id}: {got:?}"
        );
    }
}

#[test]
fn each_treebank_passes_its_own_relations_to_later_conjuncts() {
    // obj passes everywhere; BTB passes nothing but subjects, objects and amod
    let objects = sentence(
        "
        1 I I PRON _ 2 nsubj
        2 saw see VERB _ 0 root
        3 cats cat NOUN _ 2 obj
        4 and and CCONJ _ 5 cc
        5 dogs dog NOUN _ 3 conj",
    );
    expect(
        &objects,
        "5",
        &[
            ("bg", "2:obj|3:conj"),
            ("nl", "2:obj|3:conj:and"),
            ("cs", "2:obj|3:conj"),
        ],
    );
    let nouns = sentence(
        "
        1 новини новина NOUN _ 0 root
        2 за за ADP _ 3 case
        3 войни война NOUN _ 1 nmod
        4 и и CCONJ _ 5 cc
        5 глад глад NOUN _ 3 conj",
    );
    expect(&nouns, "5", &[("bg", "3:conj"), ("uk", "1:nmod|3:conj")]);
    // Dutch passes no clausal complement
    let clauses = sentence(
        "
        1 I I PRON _ 2 nsubj
        2 think think VERB _ 0 root
        3 she she PRON _ 4 nsubj
        4 came come VERB _ 2 ccomp
        5 and and CCONJ _ 6 cc
        6 left leave VERB _ 4 conj",
    );
    expect(
        &clauses,
        "6",
        &[
            ("nl", "4:conj:and"),
            ("bg", "4:conj"),
            ("en", "2:ccomp|4:conj:and"),
            ("cs", "2:ccomp|4:conj"),
        ],
    );
    // parataxis: Estonian passes it, English does not
    let parataxis = sentence(
        "
        1 he he PRON _ 2 nsubj
        2 said say VERB _ 0 root
        3 : : PUNCT _ 4 punct
        4 come come VERB _ 2 parataxis
        5 and and CCONJ _ 6 cc
        6 see see VERB _ 4 conj",
    );
    expect(
        &parataxis,
        "6",
        &[("et", "2:parataxis|4:conj"), ("en", "4:conj:and")],
    );
    // French Sequoia gives the parent to no conjunct of an obl:mod
    let oblique = sentence(
        "
        1 inutile inutile ADJ _ 0 root
        2 à à ADP _ 3 case
        3 moment moment NOUN _ 1 obl:mod
        4 et et CCONJ _ 6 cc
        5 en en ADP _ 6 case
        6 hiver hiver NOUN _ 3 conj",
    );
    expect(
        &oblique,
        "6",
        &[("fr", "3:conj"), ("it", "1:obl:mod|3:conj:et")],
    );
}

#[test]
fn nested_coordinations_take_the_outer_parent_or_the_outer_conj_as_the_treebank_does() {
    // "I drink tea, and coffee or milk": milk is a conjunct of coffee, coffee one of tea
    let nested = sentence(
        "
        1 I I PRON _ 2 nsubj
        2 drink drink VERB _ 0 root
        3 tea tea NOUN _ 2 obj
        4 and and CCONJ _ 5 cc
        5 coffee coffee NOUN _ 3 conj
        6 or or CCONJ _ 7 cc
        7 milk milk NOUN _ 5 conj",
    );
    expect(
        &nested,
        "7",
        &[
            ("cs", "2:obj|5:conj"),         // through: the outer parent
            ("en", "5:conj:or"),            // EWT: neither
            ("en_gum", "3:conj|5:conj:or"), // GUM: the outer conj
            ("pl", "3:conj|5:conj"),        // PDB: the outer conj, not the parent
        ],
    );
    // the same for the root: "přišel, viděl a zvítězil" with zvítězil a conjunct of viděl
    let roots = sentence(
        "
        1 přišel přijít VERB _ 0 root
        2 , , PUNCT _ 3 punct
        3 viděl vidět VERB _ 1 conj
        4 a a CCONJ _ 5 cc
        5 zvítězil zvítězit VERB _ 3 conj",
    );
    expect(
        &roots,
        "3",
        &[("cs", "0:root|1:conj"), ("pl", "0:root|1:conj")],
    );
    expect(
        &roots,
        "5",
        &[("cs", "0:root|3:conj"), ("pl", "1:conj|3:conj")],
    );
}

#[test]
fn a_gapped_conjunct_takes_no_parent_once_its_conj_went_to_the_empty_node() {
    // "Petr šel do kina a Marie do divadla": Marie hangs from the empty node standing for šel
    // (as a `dep`: Czech writes remnants so, `remnant_relations = false`), not from the root
    let gapped = sentence(
        "
        1 Petr Petr PROPN Case=Nom 2 nsubj
        2 šel jít VERB _ 0 root
        3 do do ADP Case=Gen 4 case
        4 kina kino NOUN Case=Gen 2 obl
        5 a a CCONJ _ 6 cc
        6 Marie Marie PROPN Case=Nom 2 conj
        7 do do ADP Case=Gen 8 case
        8 divadla divadlo NOUN Case=Gen 6 orphan",
    );
    let got = deps("cs", &gapped);
    assert_eq!(got.get("6").map(String::as_str), Some("6.1:dep"), "{got:?}");
    assert!(
        got.get("6.1").is_some_and(|d| d.contains("2:conj")),
        "{got:?}"
    );
}

#[test]
fn a_later_conjunct_takes_its_own_marker_or_the_first_ones_label() {
    let en = sentence(
        "
        1 live live VERB _ 0 root
        2 in in ADP _ 3 case
        3 Prague Prague PROPN _ 1 obl
        4 and and CCONJ _ 6 cc
        5 near near ADP _ 6 case
        6 Brno Brno PROPN _ 3 conj",
    );
    expect(
        &en,
        "6",
        &[
            ("en", "1:obl:near|3:conj:and"),
            ("en_gum", "1:obl:in|3:conj:and"),
        ],
    );
    let cs = sentence(
        "
        1 bydlí bydlet VERB _ 0 root
        2 v v ADP Case=Loc 3 case
        3 Praze Praha PROPN Case=Loc 1 obl
        4 a a CCONJ _ 6 cc
        5 u u ADP Case=Gen 6 case
        6 Brna Brno PROPN Case=Gen 3 conj",
    );
    expect(
        &cs,
        "6",
        &[("cs", "1:obl:v:loc|3:conj"), ("lt", "1:obl:u:gen|3:conj")],
    );
}

#[test]
fn an_adverb_coordinated_with_an_obl_is_an_advmod_where_the_treebank_says_so() {
    let adverb = sentence(
        "
        1 platí platit VERB _ 0 root
        2 v v ADP Case=Loc 3 case
        3 létě léto NOUN Case=Loc 1 obl
        4 i i CCONJ _ 5 cc
        5 jindy jindy ADV _ 3 conj",
    );
    expect(
        &adverb,
        "5",
        &[("cs", "1:advmod|3:conj"), ("pl", "1:obl|3:conj")],
    );
    let noun = sentence(
        "
        1 platí platit VERB _ 0 root
        2 jindy jindy ADV _ 1 advmod
        3 i i CCONJ _ 5 cc
        4 v v ADP Case=Loc 5 case
        5 létě léto NOUN Case=Loc 2 conj",
    );
    expect(
        &noun,
        "5",
        &[("cs", "1:obl|2:conj"), ("pl", "1:advmod|2:conj")],
    );
}

#[test]
fn estonian_ewt_gives_later_conjuncts_the_basic_relation() {
    // "Mees ja naine on targad": EDT nsubj for both subjects, EWT nsubj:cop for the second
    let copular = sentence(
        "
        1 Mees mees NOUN _ 5 nsubj:cop
        2 ja ja CCONJ _ 3 cc
        3 naine naine NOUN _ 1 conj
        4 on olema AUX _ 5 cop
        5 targad tark ADJ _ 0 root",
    );
    expect(&copular, "1", &[("et", "5:nsubj"), ("et_ewt", "5:nsubj")]);
    expect(
        &copular,
        "3",
        &[("et", "1:conj|5:nsubj"), ("et_ewt", "1:conj|5:nsubj:cop")],
    );
}

#[test]
fn the_relative_clause_of_the_first_conjunct_is_its_own() {
    // "vidím dům, který jsem postavil, a zahradu": the clause's obj is dům, not zahradu
    let relative = sentence(
        "
        1 vidím vidět VERB _ 0 root
        2 dům dům NOUN Case=Acc 1 obj
        3 , , PUNCT _ 6 punct
        4 který který DET Case=Acc|PronType=Rel 6 obj
        5 jsem být AUX _ 6 aux
        6 postavil postavit VERB _ 2 acl:relcl
        7 a a CCONJ _ 8 cc
        8 zahradu zahrada NOUN Case=Acc 2 conj",
    );
    expect(&relative, "2", &[("cs", "1:obj|6:obj")]);
    expect(&relative, "8", &[("cs", "1:obj|2:conj")]);
}

#[test]
fn a_finnish_passive_conjunct_shares_no_subject() {
    // "Iglesias esitti kappaleen ja se julkaistiin": the impersonal passive has no subject
    // (the fi profile's `impersonal_verbforms`); an active conjunct shares it (shared_subject)
    let passive = sentence(
        "
        1 Iglesias Iglesias PROPN Case=Nom|Number=Sing 2 nsubj
        2 esitti esittää VERB Mood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Fin|Voice=Act 0 root
        3 kappaleen kappale NOUN Case=Gen|Number=Sing 2 obj
        4 ja ja CCONJ _ 5 cc
        5 julkaistiin julkaista VERB Mood=Ind|Tense=Past|VerbForm=Fin|Voice=Pass 2 conj",
    );
    expect(&passive, "1", &[("fi", "2:nsubj")]);
    let active = passive.replace(
        "Mood=Ind|Tense=Past|VerbForm=Fin|Voice=Pass",
        "Mood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Fin|Voice=Act",
    );
    expect(&active, "1", &[("fi", "2:nsubj|5:nsubj")]);
}

#[test]
fn a_finnish_nested_nominal_conjunct_shares_the_copula_and_subject() {
    // "Se on kissa, koira ja hiiri": hiiri is a conjunct of koira in the basic tree and shares
    // what koira shares of kissa (rules/fi/coordination.rules, fi_shared_nested)
    let nested = sentence(
        "
        1 Se se PRON Case=Nom|Number=Sing|PronType=Dem 3 nsubj:cop
        2 on olla AUX Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act 3 cop
        3 kissa kissa NOUN Case=Nom|Number=Sing 0 root
        4 , , PUNCT _ 5 punct
        5 koira koira NOUN Case=Nom|Number=Sing 3 conj
        6 ja ja CCONJ _ 7 cc
        7 hiiri hiiri NOUN Case=Nom|Number=Sing 5 conj",
    );
    expect(
        &nested,
        "1",
        &[("fi", "3:nsubj:cop|5:nsubj:cop|7:nsubj:cop")],
    );
    expect(&nested, "2", &[("fi", "3:cop|5:cop|7:cop")]);
}

#[test]
fn a_noun_conjoined_to_a_verb_takes_its_parent_only_with_a_predicates_dependents() {
    // cs lists NOUN in conj_predicate_upos (a parse's misattached noun), sk does not: the bare
    // noun (6) takes the ccomp only in sk, the noun with its own copula and subject (10) in both
    let clause = sentence(
        "
        1 Řekl říci VERB _ 0 root
        2 , , PUNCT _ 4 punct
        3 že že SCONJ _ 4 mark
        4 odpisuje odpisovat VERB _ 1 ccomp
        5 a a CCONJ _ 6 cc
        6 díla dílo NOUN Case=Nom 4 conj
        7 a a CCONJ _ 10 cc
        8 dílo dílo NOUN Case=Nom 10 nsubj
        9 je být AUX _ 10 cop
        10 památkou památka NOUN Case=Ins 4 conj",
    );
    expect(&clause, "6", &[("cs", "4:conj"), ("sk", "1:ccomp|4:conj")]);
    expect(
        &clause,
        "10",
        &[("cs", "1:ccomp|4:conj"), ("sk", "1:ccomp|4:conj")],
    );
    // the same for the root (conj_root): no 0:root for the bare noun, one for the copular clause
    let root = sentence(
        "
        1 Majetek majetek NOUN Case=Nom 2 nsubj
        2 odpisuje odpisovat VERB _ 0 root
        3 , , PUNCT _ 4 punct
        4 díla dílo NOUN Case=Nom 2 conj
        5 a a CCONJ _ 8 cc
        6 dílo dílo NOUN Case=Nom 8 nsubj
        7 je být AUX _ 8 cop
        8 památkou památka NOUN Case=Ins 2 conj",
    );
    expect(&root, "4", &[("cs", "2:conj")]);
    expect(&root, "8", &[("cs", "0:root|2:conj")]);
}

#[test]
fn a_latvian_debitive_conjunct_does_not_share_a_nominative_subject() {
    // "stādi iesakņojas un aug, un ar nezālēm jācīnās": aug shares stādi, the debitive jācīnās
    // (its subject would be dative) does not
    let debitive = sentence(
        "
        1 stādi stāds NOUN Case=Nom 2 nsubj
        2 iesakņojas iesakņoties VERB Mood=Ind 0 root
        3 un un CCONJ _ 4 cc
        4 aug augt VERB Mood=Ind 2 conj
        5 un un CCONJ _ 8 cc
        6 ar ar ADP _ 7 case
        7 nezālēm nezāle NOUN Case=Dat 8 obl
        8 jācīnās cīnīties VERB Mood=Nec 2 conj",
    );
    expect(&debitive, "1", &[("lv", "2:nsubj|4:nsubj")]);
}
