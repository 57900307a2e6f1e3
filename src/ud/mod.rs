//! UD facts, kept once: the universal relations, UPOS tags, universal features and the grammar
//! of basic and enhanced relation labels. The graph, the rule checker, `validate` and `eval`
//! all read them from here, so a label a rule can write and a label `validate` accepts are the
//! same thing. Text from the input enters labels only through [`push_label_text`],
//! [`push_feature_value`] and [`repair_label`] (`docs/labels.md`).

mod basic;
mod labels;
pub mod repairs;
mod text;

pub use basic::{deprel_problem, feats_problems, is_feature_name, is_feature_value, upos_problem};
pub use labels::{enhanced_label_problem, is_enhanced_label, repair_label, universal_part};
pub use repairs::Repairs;
pub use text::{push_feature_value, push_label_text, TextFix};

/// The 37 universal relations, plus `ref`, which exists only in the enhanced layer. Their order
/// is the bit order of [`crate::graph::relation_bit`].
pub const RELATIONS: &[&str] = &[
    "acl",
    "advcl",
    "advmod",
    "amod",
    "appos",
    "aux",
    "case",
    "cc",
    "ccomp",
    "clf",
    "compound",
    "conj",
    "cop",
    "csubj",
    "dep",
    "det",
    "discourse",
    "dislocated",
    "expl",
    "fixed",
    "flat",
    "goeswith",
    "iobj",
    "list",
    "mark",
    "nmod",
    "nsubj",
    "nummod",
    "obj",
    "obl",
    "orphan",
    "parataxis",
    "punct",
    "reparandum",
    "root",
    "vocative",
    "xcomp",
    "ref",
];

/// The 17 universal part-of-speech tags.
pub const UPOS_TAGS: &[&str] = &[
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
    "PUNCT", "SCONJ", "SYM", "VERB", "X",
];

/// UD's universal features with their universal values (UD v2 guidelines; every universal value
/// UD's validator data permits in some language is here). Language-specific features, and the
/// language-specific values of universal ones (Swedish `VerbForm=Stem`), are declared as data in
/// the profiles' `features`, not here.
pub const UNIVERSAL_FEATURES: &[(&str, &[&str])] = &[
    // Lexical features.
    (
        "PronType",
        &[
            "Art", "Dem", "Emp", "Exc", "Ind", "Int", "Neg", "Prs", "Rcp", "Rel", "Tot",
        ],
    ),
    (
        "NumType",
        &["Card", "Dist", "Frac", "Mult", "Ord", "Range", "Sets"],
    ),
    ("Poss", &["Yes"]),
    ("Reflex", &["Yes"]),
    ("Foreign", &["Yes"]),
    ("Abbr", &["Yes"]),
    ("Typo", &["Yes"]),
    // A UPOS tag: the guidelines name ten, treebanks use every tag but PUNCT (UD's validator
    // data, udtools' `feats.json`).
    ("ExtPos", UPOS_TAGS),
    // Nominal features.
    ("Gender", &["Com", "Fem", "Masc", "Neut"]),
    ("Animacy", &["Anim", "Hum", "Inan", "Nhum"]),
    (
        "NounClass",
        &[
            "Bantu1", "Bantu2", "Bantu3", "Bantu4", "Bantu5", "Bantu6", "Bantu7", "Bantu8",
            "Bantu9", "Bantu10", "Bantu11", "Bantu12", "Bantu13", "Bantu14", "Bantu15", "Bantu16",
            "Bantu17", "Bantu18", "Bantu19", "Bantu20", "Bantu21", "Bantu22", "Bantu23", "Wol1",
            "Wol2", "Wol3", "Wol4", "Wol5", "Wol6", "Wol7", "Wol8", "Wol9", "Wol10", "Wol11",
            "Wol12",
        ],
    ),
    (
        "Number",
        &[
            "Coll", "Count", "Dual", "Grpa", "Grpl", "Inv", "Pauc", "Plur", "Ptan", "Sing", "Tri",
        ],
    ),
    (
        "Case",
        &[
            "Abs", "Acc", "Erg", "Nom", "Abe", "Ben", "Cau", "Cmp", "Cns", "Com", "Dat", "Dis",
            "Equ", "Gen", "Ins", "Par", "Tem", "Tra", "Voc", "Abl", "Add", "Ade", "All", "Del",
            "Ela", "Ess", "Ill", "Ine", "Lat", "Loc", "Per", "Sbe", "Sbl", "Spl", "Sub", "Sup",
            "Ter",
        ],
    ),
    ("Definite", &["Com", "Cons", "Def", "Ind", "Spec"]),
    (
        "Deixis",
        &["Abv", "Bel", "Even", "Med", "Nvis", "Prox", "Remt"],
    ),
    ("DeixisRef", &["1", "2"]),
    ("Degree", &["Abs", "Aug", "Cmp", "Dim", "Equ", "Pos", "Sup"]),
    // Verbal features.
    (
        "VerbForm",
        &["Conv", "Fin", "Gdv", "Ger", "Inf", "Part", "Sup", "Vnoun"],
    ),
    (
        "Mood",
        &[
            "Adm", "Cnd", "Des", "Imp", "Ind", "Int", "Irr", "Jus", "Nec", "Opt", "Pot", "Prp",
            "Qot", "Sub",
        ],
    ),
    ("Tense", &["Fut", "Imp", "Past", "Pqp", "Pres"]),
    ("Aspect", &["Hab", "Imp", "Iter", "Perf", "Prog", "Prosp"]),
    (
        "Voice",
        &[
            "Act", "Antip", "Bfoc", "Cau", "Dir", "Inv", "Lfoc", "Mid", "Pass", "Rcp",
        ],
    ),
    ("Evident", &["Fh", "Nfh"]),
    ("Polarity", &["Neg", "Pos"]),
    ("Person", &["0", "1", "2", "3", "4"]),
    ("Polite", &["Elev", "Form", "Humb", "Infm"]),
    ("Clusivity", &["Ex", "In"]),
];

/// The universal values of universal feature `name`, alone or layered (`Number[psor]` takes
/// `Number`'s), or `None` for a feature that is not universal.
pub fn universal_feature_values(name: &str) -> Option<&'static [&'static str]> {
    let base = name.split_once('[').map_or(name, |(base, _)| base);
    UNIVERSAL_FEATURES
        .iter()
        .find(|(f, _)| *f == base)
        .map(|(_, values)| *values)
}

/// Whether `name` is one of [`RELATIONS`] (a universal part, no subtype).
pub fn is_relation(name: &str) -> bool {
    RELATIONS.contains(&name)
}

/// Whether `name` is one of [`UPOS_TAGS`].
pub fn is_upos(name: &str) -> bool {
    UPOS_TAGS.contains(&name)
}

/// Whether `name` is a universal feature, alone or layered (`Number[psor]`).
pub fn is_universal_feature(name: &str) -> bool {
    universal_feature_values(name).is_some()
}
