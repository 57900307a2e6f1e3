//! The lexicon entries a gold sample evidences, read off its enhanced graphs by UD's own
//! relations, never by a language's words: a verb whose xcomp gets its subject (or object) as
//! controlled subject is a control verb; a word attached by `ref` is a relative word.

use crate::conllu::sentence::{DEPREL, FORM, LEMMA};
use crate::conllu::Sentence;
use std::collections::BTreeMap;

/// Words of one lexicon list with how many gold edges evidence each.
pub type Evidence = BTreeMap<String, usize>;

/// The lists fit can learn, with the evidence each reads (a line for the written comment).
pub const LEARNED_LISTS: [(&str, &str); 3] = [
    (
        "control.subject",
        "governors of an xcomp whose controlled subject is their own nsubj",
    ),
    (
        "control.object",
        "governors of an xcomp whose controlled subject is their obj or iobj",
    ),
    ("relative.pronouns", "words the gold attaches by `ref`"),
];

fn universal(label: &str) -> &str {
    label.split(':').next().unwrap_or(label)
}

/// The lemma lexicons list: lower-cased, the form's when there is no lemma.
fn lemma(sentence: &Sentence, word: u32) -> String {
    let token = sentence.word(word);
    match sentence.column(token, LEMMA) {
        "_" => sentence.column(token, FORM).to_lowercase(),
        lemma => lemma.to_lowercase(),
    }
}

/// Every learnable list (`group.list`) with its evidenced words.
pub fn learn(sentences: &[Sentence]) -> BTreeMap<String, Evidence> {
    let mut lists: BTreeMap<String, Evidence> = LEARNED_LISTS
        .iter()
        .map(|(list, _)| (list.to_string(), Evidence::new()))
        .collect();
    for sentence in sentences {
        let deprel = |w: u32| universal(sentence.column(sentence.word(w), DEPREL));
        for (index, token) in sentence.words.iter().enumerate() {
            let dependent = index as u32 + 1;
            for (head, label) in sentence.deps(token) {
                if head.is_empty_node() || head.is_root() {
                    continue;
                }
                if label == "ref" {
                    *lists
                        .get_mut("relative.pronouns")
                        .expect("declared above")
                        .entry(lemma(sentence, dependent))
                        .or_default() += 1;
                    continue;
                }
                // A controlled subject: a subject of an xcomp that is not its basic dependent,
                // but a dependent of the xcomp's governor.
                let xcomp = head.word;
                if universal(label) != "nsubj" || deprel(xcomp) != "xcomp" {
                    continue;
                }
                let governor = sentence.word(xcomp).head;
                if token.head != governor || governor == 0 {
                    continue;
                }
                let list = match deprel(dependent) {
                    "nsubj" => "control.subject",
                    "obj" | "iobj" => "control.object",
                    _ => continue,
                };
                *lists
                    .get_mut(list)
                    .expect("declared above")
                    .entry(lemma(sentence, governor))
                    .or_default() += 1;
            }
        }
    }
    lists
}
