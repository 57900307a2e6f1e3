//! The lexicon entries a gold sample evidences, read off its enhanced graphs by UD's own
//! relations, never by a language's words: a verb whose xcomp gets its subject (or object) as
//! controlled subject is a control verb; a word attached by `ref` is a relative word (one whose
//! clause gives the noun no role is a roleless one); in a relative clause without a `ref` word
//! whose noun the gold gives a role, a `mark` is a relative complementiser, and the noun, when
//! that role is an oblique, a noun of time, manner or reason.

use crate::conllu::sentence::{DEPREL, FORM, LEMMA};
use crate::conllu::{Sentence, Token};
use std::collections::BTreeMap;

/// Words of one lexicon list with how many gold edges evidence each.
pub type Evidence = BTreeMap<String, usize>;

/// The lists fit can learn, with the evidence each reads (a line for the written comment).
pub const LEARNED_LISTS: [(&str, &str); 6] = [
    (
        "control.subject",
        "governors of an xcomp whose controlled subject is their own nsubj",
    ),
    (
        "control.object",
        "governors of an xcomp whose controlled subject is their obj or iobj",
    ),
    ("relative.pronouns", "words the gold attaches by `ref`"),
    (
        "relative.roleless",
        "words the gold attaches by `ref` whose clause gives the noun no role",
    ),
    (
        "relative.markers",
        "`mark` words of a relative clause without `ref` whose noun the clause gives a role",
    ),
    (
        "relative.adverbial_heads",
        "nouns of a relative clause without `ref` that the clause gives an oblique role",
    ),
];

fn universal(label: &str) -> &str {
    label.split(':').next().unwrap_or(label)
}

/// The lemma lexicons list: lower-cased, the form's when there is no lemma.
fn lemma(sentence: &Sentence, word: u32) -> String {
    lemma_of(sentence, sentence.word(word))
}

/// [`lemma`] of a token.
pub fn lemma_of(sentence: &Sentence, token: &Token) -> String {
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
        relative_clauses(sentence, &mut lists);
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

/// The relative-clause lists, from each `acl:relcl` clause of the sentence.
fn relative_clauses(sentence: &Sentence, lists: &mut BTreeMap<String, Evidence>) {
    let mut add = |list: &str, word: String| {
        *lists
            .get_mut(list)
            .expect("declared in LEARNED_LISTS")
            .entry(word)
            .or_default() += 1;
    };
    // The enhanced labels from `head` to `dependent` (words, not empty nodes).
    let labels = |head: u32, dependent: u32| -> Vec<&str> {
        sentence
            .deps(sentence.word(dependent))
            .filter(|(h, _)| !h.is_empty_node() && h.word == head)
            .map(|(_, label)| label)
            .collect()
    };
    let count = sentence.words.len() as u32;
    for clause in 1..=count {
        let token = sentence.word(clause);
        if sentence.column(token, DEPREL) != "acl:relcl" || token.head == 0 {
            continue;
        }
        let noun = token.head;
        let in_clause: Vec<u32> = (1..=count)
            .filter(|&w| sentence.word(w).head == clause)
            .collect();
        let refs: Vec<u32> = in_clause
            .iter()
            .copied()
            .filter(|&w| labels(noun, w).contains(&"ref"))
            .collect();
        let roles = labels(clause, noun);
        if roles.is_empty() {
            for &word in &refs {
                add("relative.roleless", lemma(sentence, word));
            }
            continue;
        }
        if !refs.is_empty() {
            continue;
        }
        for &word in &in_clause {
            if universal(sentence.column(sentence.word(word), DEPREL)) == "mark" {
                add("relative.markers", lemma(sentence, word));
            }
        }
        if roles.iter().any(|label| universal(label) == "obl") {
            add("relative.adverbial_heads", lemma(sentence, noun));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::learn;
    use crate::conllu::{RawBlock, Sentence};

    /// A sentence from rows `FORM HEAD DEPREL DEPS` (lemma: the form, UPOS `X`).
    fn sentence(rows: &[&str]) -> Sentence {
        let mut text = String::new();
        for (i, row) in rows.iter().enumerate() {
            let [form, head, deprel, deps] = row.split(' ').collect::<Vec<_>>()[..] else {
                panic!("{row}")
            };
            let id = i + 1;
            text += &format!("{id}\t{form}\t{form}\tX\t_\t_\t{head}\t{deprel}\t{deps}\t_\n");
        }
        let bytes = (text + "\n").into_bytes();
        let block = RawBlock {
            bytes,
            first_line: 1,
            starts_input: true,
        };
        Sentence::parse(block).unwrap()
    }

    /// The words `learn` reads off `rows` for `list`.
    fn learned(list: &str, rows: &[&str]) -> Vec<String> {
        learn(&[sentence(rows)])[list].keys().cloned().collect()
    }

    macro_rules! evidence_test {
        ($name:ident, $list:expr, [$($row:expr),* $(,)?], [$($word:expr),*]) => {
            #[test]
            fn $name() {
                let expected: Vec<String> = vec![$($word.to_string()),*];
                assert_eq!(learned($list, &[$($row),*]), expected);
            }
        };
    }

    // uk "той, що атестував": the noun is the clause's subject, `що` fills no role.
    evidence_test!(
        marker_of_a_clause_giving_the_noun_a_role,
        "relative.markers",
        [
            "той 0 root 0:root|3:nsubj",
            "що 3 mark 3:mark",
            "атестував 1 acl:relcl 1:acl:relcl"
        ],
        ["що"]
    );
    evidence_test!(
        no_marker_where_a_ref_word_takes_the_role,
        "relative.markers",
        [
            "man 0 root 0:root|3:nsubj",
            "who 3 nsubj 1:ref",
            "left 1 acl:relcl 1:acl:relcl"
        ],
        []
    );
    evidence_test!(
        ref_word_of_a_clause_giving_the_noun_no_role,
        "relative.roleless",
        [
            "wereld 0 root 0:root",
            "waarin 3 obl 1:ref",
            "spelen 1 acl:relcl 1:acl:relcl"
        ],
        ["waarin"]
    );
    evidence_test!(
        ref_word_with_a_role_is_not_roleless,
        "relative.roleless",
        [
            "man 0 root 0:root|3:nsubj",
            "who 3 nsubj 1:ref",
            "left 1 acl:relcl 1:acl:relcl"
        ],
        []
    );
    // en "the time we have": the noun is an oblique of a clause without a relative word.
    evidence_test!(
        noun_an_oblique_of_a_zero_relative,
        "relative.adverbial_heads",
        [
            "time 0 root 0:root|3:obl",
            "we 3 nsubj 3:nsubj",
            "have 1 acl:relcl 1:acl:relcl"
        ],
        ["time"]
    );
    evidence_test!(
        noun_an_object_of_a_zero_relative_is_none,
        "relative.adverbial_heads",
        [
            "book 0 root 0:root|3:obj",
            "we 3 nsubj 3:nsubj",
            "read 1 acl:relcl 1:acl:relcl"
        ],
        []
    );
}
