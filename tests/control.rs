//! Control (controlled subjects of xcomps) under the shipped profiles: each rule of
//! `rules/universal/control.rules` and the settings and lexicon lists it reads, on hand-built
//! sentences that follow the treebanks' conventions (see the dev treebank named in each test).

use crate::common::enhances;

enhances! {
    /// "Le médicament doit être utilisé": the controlled subject of a passive xcomp is a passive
    /// subject where the treebank marks voice on it (Sequoia `nsubj:pass`, LassySmall
    /// `nsubj:pass:xsubj`, where only a participle with an auxiliary is controlled), a plain one
    /// where it does not (Czech).
    fn a_passive_xcomp_gets_a_passive_controlled_subject {
        "fr", "
            1 Le le DET _ 2 det
            2 médicament médicament NOUN _ 3 nsubj
            3 doit devoir VERB VerbForm=Fin 0 root
            4 être être AUX VerbForm=Inf 5 aux:pass
            5 utilisé utiliser VERB VerbForm=Part|Voice=Pass 3 xcomp"
            => "2 3:nsubj|5:nsubj:pass";
        "nl", "
            1 Het het DET _ 2 det
            2 bedrag bedrag NOUN _ 3 nsubj
            3 moet moeten VERB VerbForm=Fin 0 root
            4 worden worden AUX VerbForm=Inf 5 aux:pass
            5 betaald betalen VERB VerbForm=Part 3 xcomp"
            => "2 3:nsubj|5:nsubj:pass:xsubj";
        // A participle without an auxiliary is a secondary predicate in Dutch: no subject.
        "nl", "
            1 Hij hij PRON _ 2 nsubj
            2 voelt voelen VERB VerbForm=Fin 0 root
            3 zich zich PRON Reflex=Yes 2 expl:pv
            4 miskend miskennen VERB VerbForm=Part 2 xcomp"
            => "1 2:nsubj";
        "cs", "
            1 Zákon zákon NOUN _ 2 nsubj
            2 musí muset VERB VerbForm=Fin 0 root
            3 být být AUX VerbForm=Inf 4 aux:pass
            4 schválen schválit VERB VerbForm=Part|Voice=Pass 2 xcomp"
            => "1 2:nsubj|4:nsubj:xsubj";
    }

    /// A reflexive passive (`expl:pass`, Sequoia "la collaboration a pu s'établir") and a passive
    /// participle without auxiliary (`Voice=Pass`, Porttinari "parece esquecido") are passive too.
    fn reflexive_and_participial_passives_count_as_passive {
        "fr", "
            1 La le DET _ 2 det
            2 collaboration collaboration NOUN _ 4 nsubj
            3 a avoir AUX VerbForm=Fin 4 aux:tense
            4 pu pouvoir VERB VerbForm=Part 0 root
            5 s' se PRON Reflex=Yes 6 expl:pass
            6 établir établir VERB VerbForm=Inf 4 xcomp"
            => "2 4:nsubj|6:nsubj:pass";
        "pt", "
            1 O o DET _ 2 det
            2 problema problema NOUN _ 3 nsubj
            3 parece parecer VERB VerbForm=Fin 0 root
            4 esquecido esquecer VERB VerbForm=Part|Voice=Pass 3 xcomp"
            => "2 3:nsubj|4:nsubj:pass";
    }

    /// "She wants to sing and dance": each conjunct of a coordinated xcomp gets the controlled
    /// subject (the rules follow the xcomp edge coordination gave the later conjunct), except in
    /// treebanks that control the first one only (`xsubj_not_conjuncts`).
    fn conjoined_xcomps_each_get_the_controlled_subject {
        "en", "
            1 She she PRON _ 2 nsubj
            2 wants want VERB VerbForm=Fin 0 root
            3 to to PART _ 4 mark
            4 sing sing VERB VerbForm=Inf 2 xcomp
            5 and and CCONJ _ 6 cc
            6 dance dance VERB VerbForm=Inf 4 conj"
            => "
            1 2:nsubj|4:nsubj:xsubj|6:nsubj:xsubj
            6 2:xcomp|4:conj:and";
        // A later conjunct with its own subject keeps it alone.
        "en", "
            1 She she PRON _ 2 nsubj
            2 wants want VERB VerbForm=Fin 0 root
            3 to to PART _ 4 mark
            4 sing sing VERB VerbForm=Inf 2 xcomp
            5 and and CCONJ _ 7 cc
            6 he he PRON _ 7 nsubj
            7 dances dance VERB VerbForm=Fin 4 conj"
            => "1 2:nsubj|4:nsubj:xsubj";
        // Ukrainian IU controls the first conjunct only ("киця вміла скакати і відчиняти").
        "uk", "
            1 Киця киця NOUN Case=Nom 2 nsubj
            2 вміла вміти VERB VerbForm=Fin 0 root
            3 скакати скакати VERB VerbForm=Inf 2 xcomp
            4 і і CCONJ _ 5 cc
            5 відчиняти відчиняти VERB VerbForm=Inf 3 conj"
            => "1 2:nsubj|3:nsubj:xsubj";
    }

    /// Ukrainian IU gives `xcomp:pred` a controlled subject labelled `nsubj:pred`: the governor's
    /// object if it has one ("руйнування називають корозією"), else its subject ("проблема
    /// виявилася нездоланною"). Other profiles leave `xcomp:pred` alone (Polish PDB has none).
    fn a_predicative_xcomp_subtype_is_controlled_where_the_treebank_says_so {
        "uk", "
            1 Руйнування руйнування NOUN Case=Acc 2 obj
            2 називають називати VERB VerbForm=Fin 0 root
            3 корозією корозія NOUN Case=Ins 2 xcomp:pred"
            => "1 2:obj|3:nsubj:pred";
        "uk", "
            1 Проблема проблема NOUN Case=Nom 2 nsubj
            2 виявилася виявитися VERB VerbForm=Fin 0 root
            3 нездоланною нездоланний ADJ Case=Ins 2 xcomp:pred"
            => "1 2:nsubj|3:nsubj:pred";
        "pl_lfg", "
            1 Problem problem NOUN Case=Nom 2 nsubj
            2 okazał okazać VERB VerbForm=Fin 0 root
            3 się się PRON _ 2 expl:pv
            4 trudny trudny ADJ Case=Nom 2 xcomp:pred"
            => "1 2:nsubj";
    }

    /// Czech and Slovak give no controlled subject to the xcomp of an adjective ("uživatel je
    /// oprávněn účtovat": CLTT), English does ("he is able to leave").
    fn adjectival_governors_control_only_where_the_treebank_annotates_it {
        "cs", "
            1 Uživatel uživatel NOUN Case=Nom 3 nsubj
            2 je být AUX VerbForm=Fin 3 cop
            3 oprávněn oprávněný ADJ Variant=Short 0 root
            4 účtovat účtovat VERB VerbForm=Inf 3 xcomp
            5 poplatek poplatek NOUN Case=Acc 4 obj"
            => "1 3:nsubj";
        "sk", "
            1 Uživatel uživatel NOUN Case=Nom 3 nsubj
            2 je být AUX VerbForm=Fin 3 cop
            3 oprávněn oprávněný ADJ Variant=Short 0 root
            4 účtovat účtovat VERB VerbForm=Inf 3 xcomp
            5 poplatek poplatek NOUN Case=Acc 4 obj"
            => "1 3:nsubj";
        "en", "
            1 He he PRON _ 3 nsubj
            2 is be AUX VerbForm=Fin 3 cop
            3 able able ADJ _ 0 root
            4 to to PART _ 5 mark
            5 leave leave VERB VerbForm=Inf 3 xcomp"
            => "1 3:nsubj|5:nsubj:xsubj";
    }

    /// Latvian LVTB gives secondary predicates no controlled subject — converbs ("ienāca
    /// smaidot"), participles ("ieskrēja satraukta"), adjectives ("gulēja mierīga") — but the
    /// complements of copular verbs one ("kļuva sarkana", "tika uzskatīts": a passive one).
    fn latvian_secondary_predicates_get_a_subject_only_from_copular_verbs {
        "lv", "
            1 Viņa viņa PRON Case=Nom 2 nsubj
            2 ienāca ienākt VERB VerbForm=Fin 0 root
            3 smaidot smaidīt VERB VerbForm=Conv 2 xcomp"
            => "1 2:nsubj";
        "lv", "
            1 Viņa viņa PRON Case=Nom 2 nsubj
            2 ieskrēja ieskriet VERB VerbForm=Fin 0 root
            3 satraukta satraukt VERB VerbForm=Part|Voice=Pass 2 xcomp"
            => "1 2:nsubj";
        "lv", "
            1 Viņa viņa PRON Case=Nom 2 nsubj
            2 gulēja gulēt VERB VerbForm=Fin 0 root
            3 mierīga mierīgs ADJ Case=Nom 2 xcomp"
            => "1 2:nsubj";
        "lv", "
            1 Viņa viņa PRON Case=Nom 2 nsubj
            2 kļuva kļūt VERB VerbForm=Fin 0 root
            3 sarkana sarkans ADJ Case=Nom 2 xcomp"
            => "1 2:nsubj|3:nsubj";
        "lv", "
            1 Tas tas PRON Case=Nom 2 nsubj
            2 tika tikt VERB VerbForm=Fin 0 root
            3 uzskatīts uzskatīt VERB VerbForm=Part|Voice=Pass 2 xcomp"
            => "1 2:nsubj|3:nsubj:pass";
        // The same converb and adjective get the subject under the universal profile.
        "universal", "
            1 Viņa viņa PRON Case=Nom 2 nsubj
            2 ienāca ienākt VERB VerbForm=Fin 0 root
            3 smaidot smaidīt VERB VerbForm=Conv 2 xcomp"
            => "1 2:nsubj|3:nsubj";
        "universal", "
            1 Viņa viņa PRON Case=Nom 2 nsubj
            2 gulēja gulēt VERB VerbForm=Fin 0 root
            3 mierīga mierīgs ADJ Case=Nom 2 xcomp"
            => "1 2:nsubj|3:nsubj";
    }

    /// A non-verbal xcomp with its own copula is controlled like a verbal one where secondary
    /// predicates are not (Sequoia "il doit être honnête"); Finnish TDT labels it `nsubj:cop`, as
    /// its copular subjects.
    fn copular_xcomps_are_controlled_and_labelled_as_the_treebank_does {
        "fr", "
            1 Il il PRON _ 2 nsubj
            2 doit devoir VERB VerbForm=Fin 0 root
            3 être être AUX VerbForm=Inf 4 cop
            4 honnête honnête ADJ _ 2 xcomp"
            => "1 2:nsubj|4:nsubj";
        "fi", "
            1 Tila tila NOUN Case=Nom 2 nsubj
            2 alkaa alkaa VERB VerbForm=Fin 0 root
            3 olla olla AUX VerbForm=Inf 4 cop
            4 ahdas ahdas ADJ Case=Nom 2 xcomp"
            => "1 2:nsubj|4:nsubj:cop";
        // Without a copula, no subject in Sequoia: "il la trouve belle" is a secondary predicate.
        "fr", "
            1 Il il PRON _ 2 nsubj
            2 semble sembler VERB VerbForm=Fin 0 root
            3 fatigué fatigué ADJ _ 2 xcomp"
            => "1 2:nsubj";
    }

    /// Lithuanian ALKSNIS annotates controlled subjects for its control verbs only: "nori dirbti"
    /// (norėti, listed) has one, "siūlo įtraukti" (siūlyti, not listed) has none.
    fn lithuanian_controls_through_the_lexicon_only {
        "lt", "
            1 Jis jis PRON Case=Nom 2 nsubj
            2 nori norėti VERB VerbForm=Fin 0 root
            3 dirbti dirbti VERB VerbForm=Inf 2 xcomp"
            => "1 2:nsubj|3:nsubj:xsubj";
        "lt", "
            1 Jis jis PRON Case=Nom 2 nsubj
            2 siūlo siūlyti VERB VerbForm=Fin 0 root
            3 įtraukti įtraukti VERB VerbForm=Inf 2 xcomp"
            => "1 2:nsubj";
    }

    /// Object control against subject control from the lexicons: the French light verbs control
    /// through their subject despite the noun object ("il a l'occasion de partir"), Polish
    /// impersonal się-verbs through the dative ("udało mi się uciec"), and an object-control verb
    /// through an unmarked dative oblique where the treebank makes it obl (Czech "umožnil lidem
    /// odejít", Estonian adessive "võimaldas mul näha").
    fn lexicons_choose_the_controller {
        "fr", "
            1 Il il PRON _ 2 nsubj
            2 a avoir VERB VerbForm=Fin 0 root
            3 l' le DET _ 4 det
            4 occasion occasion NOUN _ 2 obj
            5 de de ADP _ 6 mark
            6 partir partir VERB VerbForm=Inf 2 xcomp"
            => "
            1 2:nsubj|6:nsubj
            4 2:obj";
        "pl_lfg", "
            1 Udało udać VERB VerbForm=Fin 0 root
            2 mi ja PRON Case=Dat 1 iobj
            3 się się PRON _ 1 expl:pv
            4 uciec uciec VERB VerbForm=Inf 1 xcomp"
            => "2 1:iobj|4:nsubj";
        "cs", "
            1 Zákon zákon NOUN Case=Nom 2 nsubj
            2 umožnil umožnit VERB VerbForm=Fin 0 root
            3 lidem člověk NOUN Case=Dat 2 obl:arg
            4 odejít odejít VERB VerbForm=Inf 2 xcomp"
            => "
            1 2:nsubj
            3 2:obl:arg:dat|4:nsubj:xsubj";
        "et", "
            1 See see PRON Case=Nom 2 nsubj
            2 võimaldas võimaldama VERB VerbForm=Fin 0 root
            3 mul mina PRON Case=Ade 2 obl
            4 näha nägema VERB VerbForm=Inf 2 xcomp"
            => "
            1 2:nsubj
            3 2:obl|4:nsubj";
    }

    /// The object that controls is read from the enhanced graph: in a relative clause it is the
    /// antecedent, not the relative pronoun ("the man that they saw leave").
    fn a_relative_pronoun_object_controls_through_its_antecedent {
        "en", "
            1 the the DET _ 2 det
            2 man man NOUN _ 0 root
            3 that that PRON PronType=Rel 5 obj
            4 they they PRON _ 5 nsubj
            5 saw see VERB VerbForm=Fin 2 acl:relcl
            6 leave leave VERB VerbForm=Inf 5 xcomp"
            => "
            2 0:root|5:obj|6:nsubj:xsubj
            3 2:ref";
    }
}
