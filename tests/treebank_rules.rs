//! Rules of one treebank's folder (rules/sv, rules/fi) that act on what universal rules made,
//! so their own examples cannot show them: each runs here through the whole profile.

use crate::common::enhances;

enhances! {
    /// A foreign preposition gives no subtype (sv_foreign_preposition); a Swedish one does.
    fn swedish_foreign_prepositions_give_no_subtype {
        "sv", "
            1 läste läsa VERB _ 0 root
            2 Journal Journal NOUN Foreign=Yes 1 obj
            3 of of ADP Foreign=Yes 4 case
            4 Orthopsychiatry Orthopsychiatry NOUN Foreign=Yes 2 nmod"
            => "4 2:nmod";
        "sv", "
            1 läste läsa VERB _ 0 root
            2 Journal Journal NOUN Foreign=Yes 1 obj
            3 of of ADP _ 4 case
            4 Orthopsychiatry Orthopsychiatry NOUN Foreign=Yes 2 nmod"
            => "4 2:nmod:of";
    }
}
