//! Rules of one treebank's folder (rules/sv, rules/fi) that act on what universal rules made,
//! so their own examples cannot show them: each runs here through the whole profile.

use crate::common::{run, text};

/// DEPS of word `id` of one sentence (`ID FORM LEMMA UPOS FEATS HEAD DEPREL` lines) enhanced
/// under `--lang lang` (the embedded rules).
fn deps_of(lang: &str, words: &[&str], id: &str) -> String {
    let mut conllu = String::new();
    for word in words {
        let c: Vec<&str> = word.split_whitespace().collect();
        assert_eq!(c.len(), 7, "{word}");
        conllu += &format!(
            "{}\t{}\t{}\t{}\t_\t{}\t{}\t{}\t_\t_\n",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6]
        );
    }
    conllu += "\n";
    let out = run(&["enhance", "--lang", lang, "-"], conllu.as_bytes());
    assert!(out.status.success(), "{lang}: {}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .find(|l| l.split('\t').next() == Some(id))
        .map(|l| l.split('\t').nth(8).unwrap().to_string())
        .unwrap_or_else(|| panic!("no word {id}"))
}

/// A foreign preposition gives no subtype (sv_foreign_preposition); a Swedish one does.
#[test]
fn swedish_foreign_prepositions_give_no_subtype() {
    let title = |feats: &str| {
        deps_of(
            "sv",
            &[
                "1 läste läsa VERB _ 0 root",
                "2 Journal Journal NOUN Foreign=Yes 1 obj",
                &format!("3 of of ADP {feats} 4 case"),
                "4 Orthopsychiatry Orthopsychiatry NOUN Foreign=Yes 2 nmod",
            ],
            "4",
        )
    };
    assert_eq!(title("Foreign=Yes"), "2:nmod");
    assert_eq!(title("_"), "2:nmod:of");
}
