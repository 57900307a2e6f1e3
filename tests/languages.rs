//! Languages without dev data: the Russian, Arabic and Belarusian profiles (written from the
//! guidelines and the validator's permitted labels, checked against small samples of the
//! treebanks: see their header comments) on hand-built sentences, and the table of fallback
//! profiles for every other language with a UD treebank (`rules/languages.toml`).

use crate::common::{self, deps_by, run, text};
use std::collections::BTreeMap;

const NEW_PROFILES: [&str; 3] = ["ru", "ar", "be"];

/// Enhances `conllu` under `--lang lang` (see [`crate::common::enhance`]) and returns the DEPS
/// column of each word line by FORM. The sentences hold one word without a lemma on purpose
/// (to test `[lemmas]`), which is no repair.
fn enhance(lang: &str, conllu: &str) -> BTreeMap<String, String> {
    deps_by(common::enhance(lang, conllu).as_bytes(), 1)
}

fn expect(lang: &str, deps: &BTreeMap<String, String>, expected: &[(&str, &str)]) {
    for (form, want) in expected {
        assert_eq!(
            deps.get(*form).map(String::as_str),
            Some(*want),
            "{lang}: DEPS of {form}: {deps:?}"
        );
    }
}

/// The new profiles check clean and are listed by `eudify profiles` (how they load and resolve
/// is a unit test in src/rules/tests_languages.rs).
#[test]
fn the_new_profiles_check_clean_and_are_listed() {
    let check = run(&["check"], b"");
    assert!(check.status.success(), "{}", text(&check.stderr));
    let listed = text(&run(&["profiles"], b"").stdout);
    for name in NEW_PROFILES {
        assert!(
            listed.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} not listed:\n{listed}"
        );
    }
}

/// Marker + Case value on obl and nmod, a controlled subject, a relative pronoun known only from
/// the lexicon (no PronType), and a vocalised preposition without a lemma (`во`, lemma `в`).
#[test]
fn russian_gets_marker_and_case_labels_and_controlled_subjects() {
    let conllu = "\
# text = Мальчик хочет жить в городе без родителей.
1\tМальчик\tмальчик\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t2\tnsubj\t_\t_
2\tхочет\tхотеть\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
3\tжить\tжить\tVERB\t_\tAspect=Imp|VerbForm=Inf|Voice=Act\t2\txcomp\t_\t_
4\tв\tв\tADP\t_\t_\t5\tcase\t_\t_
5\tгороде\tгород\tNOUN\t_\tAnimacy=Inan|Case=Loc|Gender=Masc|Number=Sing\t3\tobl\t_\t_
6\tбез\tбез\tADP\t_\t_\t7\tcase\t_\t_
7\tродителей\tродитель\tNOUN\t_\tAnimacy=Anim|Case=Gen|Gender=Masc|Number=Plur\t5\tnmod\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

# text = Дом, который построил отец, стоит во дворе.
1\tДом\tдом\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t7\tnsubj\t_\tSpaceAfter=No
2\t,\t,\tPUNCT\t_\t_\t4\tpunct\t_\t_
3\tкоторый\tкоторый\tPRON\t_\tCase=Acc|Gender=Masc|Number=Sing\t4\tobj\t_\t_
4\tпостроил\tпостроить\tVERB\t_\tAspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t1\tacl:relcl\t_\t_
5\tотец\tотец\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t4\tnsubj\t_\tSpaceAfter=No
6\t,\t,\tPUNCT\t_\t_\t4\tpunct\t_\t_
7\tстоит\tстоять\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
8\tво\t_\tADP\t_\t_\t9\tcase\t_\t_
9\tдворе\tдвор\tNOUN\t_\tAnimacy=Inan|Case=Loc|Gender=Masc|Number=Sing\t7\tobl\t_\tSpaceAfter=No
10\t.\t.\tPUNCT\t_\t_\t7\tpunct\t_\t_

";
    let deps = enhance("ru", conllu);
    expect(
        "ru",
        &deps,
        &[
            ("Мальчик", "2:nsubj|3:nsubj"),
            ("городе", "3:obl:в:loc"),
            ("родителей", "5:nmod:без:gen"),
            ("который", "1:ref"),
            ("Дом", "4:obj|7:nsubj"),
            ("дворе", "7:obl:в:loc"),
        ],
    );
}

/// PADT: vocalised marker lemma + Case value, a genitive construct without a marker
/// (`nmod:gen`), an unvocalised preposition without a lemma (`في`, lemma `فِي`), and a clause
/// marker without a Case value (`advcl:لِأَنَّ`).
#[test]
fn arabic_gets_vocalised_marker_and_case_labels() {
    let conllu = "\
# text = ذهب الولد إلى مدرسة المدينة في الصباح
1\tذهب\tذَهَب\tVERB\t_\tAspect=Perf|Gender=Masc|Number=Sing|Person=3|Voice=Act\t0\troot\t_\t_
2\tالولد\tوَلَد\tNOUN\t_\tCase=Nom|Definite=Def|Gender=Masc|Number=Sing\t1\tnsubj\t_\t_
3\tإلى\tإِلَى\tADP\t_\tAdpType=Prep\t4\tcase\t_\t_
4\tمدرسة\tمَدرَسَة\tNOUN\t_\tCase=Gen|Definite=Cons|Gender=Fem|Number=Sing\t1\tobl\t_\t_
5\tالمدينة\tمَدِينَة\tNOUN\t_\tCase=Gen|Definite=Def|Gender=Fem|Number=Sing\t4\tnmod\t_\t_
6\tفي\t_\tADP\t_\tAdpType=Prep\t7\tcase\t_\t_
7\tالصباح\tصَبَاح\tNOUN\t_\tCase=Gen|Definite=Def|Gender=Masc|Number=Sing\t1\tobl\t_\t_

# text = سافر الرجل لأن الشركة طلبت
1\tسافر\tسَافَر\tVERB\t_\tAspect=Perf|Gender=Masc|Number=Sing|Person=3|Voice=Act\t0\troot\t_\t_
2\tالرجل\tرَجُل\tNOUN\t_\tCase=Nom|Definite=Def|Gender=Masc|Number=Sing\t1\tnsubj\t_\t_
3\tلأن\tلِأَنَّ\tSCONJ\t_\t_\t5\tmark\t_\t_
4\tالشركة\tشَرِكَة\tNOUN\t_\tCase=Acc|Definite=Def|Gender=Fem|Number=Sing\t5\tnsubj\t_\t_
5\tطلبت\tطَلَب\tVERB\t_\tAspect=Perf|Gender=Fem|Number=Sing|Person=3|Voice=Act\t1\tadvcl\t_\t_

";
    let deps = enhance("ar", conllu);
    expect(
        "ar",
        &deps,
        &[
            ("الولد", "1:nsubj"),
            ("مدرسة", "1:obl:إِلَى:gen"),
            ("المدينة", "4:nmod:gen"),
            ("الصباح", "1:obl:فِي:gen"),
            ("طلبت", "1:advcl:لِأَنَّ"),
        ],
    );
}

/// Marker + Case value, a controlled subject, and the non-syllabic `ў` without a lemma (`у`).
#[test]
fn belarusian_gets_marker_and_case_labels_and_controlled_subjects() {
    let conllu = "\
# text = Хлопчык хоча жыць ў горадзе з сябрамі.
1\tХлопчык\tхлопчык\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t2\tnsubj\t_\t_
2\tхоча\tхацець\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t0\troot\t_\t_
3\tжыць\tжыць\tVERB\t_\tAspect=Imp|VerbForm=Inf\t2\txcomp\t_\t_
4\tў\t_\tADP\t_\t_\t5\tcase\t_\t_
5\tгорадзе\tгорад\tNOUN\t_\tAnimacy=Inan|Case=Loc|Gender=Masc|Number=Sing\t3\tobl\t_\t_
6\tз\tз\tADP\t_\t_\t7\tcase\t_\t_
7\tсябрамі\tсябар\tNOUN\t_\tAnimacy=Anim|Case=Ins|Gender=Masc|Number=Plur\t5\tnmod\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

";
    let deps = enhance("be", conllu);
    expect(
        "be",
        &deps,
        &[
            ("Хлопчык", "2:nsubj|3:nsubj"),
            ("горадзе", "3:obl:у:loc"),
            ("сябрамі", "5:nmod:з:ins"),
        ],
    );
}

/// SynTagRus: a counted nominal takes the Case of its governing numeral (`за три дня`:
/// obl:за:acc though дня is genitive; `пять минут` obl:acc), and a controlled subject under a
/// passive xcomp is nsubj:pass.
#[test]
fn russian_numeral_case_and_passive_controlled_subject() {
    let conllu = "\
# text = Мост был построен за три дня.
1\tМост\tмост\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t3\tnsubj:pass\t_\t_
2\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t3\taux:pass\t_\t_
3\tпостроен\tпостроить\tVERB\t_\tAspect=Perf|Gender=Masc|Number=Sing|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass\t0\troot\t_\t_
4\tза\tза\tADP\t_\t_\t6\tcase\t_\t_
5\tтри\tтри\tNUM\t_\tAnimacy=Inan|Case=Acc|NumType=Card\t6\tnummod:gov\t_\t_
6\tдня\tдень\tNOUN\t_\tAnimacy=Inan|Case=Gen|Gender=Masc|Number=Sing\t3\tobl\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

# text = Письмо должно быть отправлено пять минут назад.
1\tПисьмо\tписьмо\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Neut|Number=Sing\t2\tnsubj:pass\t_\t_
2\tдолжно\tдолжен\tADJ\t_\tDegree=Pos|Gender=Neut|Number=Sing|Variant=Short\t0\troot\t_\t_
3\tбыть\tбыть\tAUX\t_\tAspect=Imp|VerbForm=Inf|Voice=Act\t4\taux:pass\t_\t_
4\tотправлено\tотправить\tVERB\t_\tAspect=Perf|Gender=Neut|Number=Sing|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass\t2\txcomp\t_\t_
5\tпять\tпять\tNUM\t_\tCase=Acc|NumType=Card\t6\tnummod:gov\t_\t_
6\tминут\tминута\tNOUN\t_\tAnimacy=Inan|Case=Gen|Gender=Fem|Number=Plur\t7\tobl\t_\t_
7\tназад\tназад\tADV\t_\tDegree=Pos\t4\tadvmod\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

";
    let deps = enhance("ru", conllu);
    expect(
        "ru",
        &deps,
        &[
            ("дня", "3:obl:за:acc"),
            ("минут", "7:obl:acc"),
            ("Письмо", "2:nsubj:pass|4:nsubj:pass"),
        ],
    );
}

/// PADT writes the genitive a preposition governs where the features leave it open: a clause
/// after `بعد أن` or the purposive `لِ`, a foreign name after `في`; an adverbial-accusative
/// preposition (`نحو`, Case=Acc) gives a Case-less numeral no Case value.
#[test]
fn arabic_prepositions_govern_the_genitive() {
    let conllu = "\
# text = سافر بعد ان انتهى العمل ليزور باريس
1\tسافر\tسَافَر\tVERB\t_\tAspect=Perf|Gender=Masc|Number=Sing|Person=3|Voice=Act\t0\troot\t_\t_
2\tبعد\tبَعدَ\tADP\t_\tAdpType=Prep|Case=Acc\t4\tmark\t_\t_
3\tان\tأَن\tSCONJ\t_\t_\t4\tmark\t_\t_
4\tانتهى\tاِنتَهَى\tVERB\t_\tAspect=Perf|Gender=Masc|Number=Sing|Person=3|Voice=Act\t1\tadvcl\t_\t_
5\tالعمل\tعَمَل\tNOUN\t_\tCase=Nom|Definite=Def|Number=Sing\t4\tnsubj\t_\t_
6\tل\tلِ\tCCONJ\t_\t_\t7\tmark\t_\t_
7\tيزور\tزَار\tVERB\t_\tAspect=Imp|Gender=Masc|Mood=Sub|Number=Sing|Person=3|VerbForm=Fin|Voice=Act\t1\tadvcl\t_\t_
8\tباريس\tبَارِيس\tX\t_\tForeign=Yes\t7\tobj\t_\t_

# text = عاش في بوسطن نحو 30 عاما
1\tعاش\tعَاش\tVERB\t_\tAspect=Perf|Gender=Masc|Number=Sing|Person=3|Voice=Act\t0\troot\t_\t_
2\tفي\tفِي\tADP\t_\tAdpType=Prep\t3\tcase\t_\t_
3\tبوسطن\tبُوسطُن\tX\t_\tForeign=Yes\t1\tobl\t_\t_
4\tنحو\tنَحوَ\tADP\t_\tAdpType=Prep|Case=Acc\t5\tcase\t_\t_
5\t30\t30\tNUM\t_\tNumForm=Digit\t1\tobl\t_\t_
6\tعاما\tعَام\tNOUN\t_\tCase=Acc|Definite=Ind|Number=Sing\t5\tnmod\t_\t_

";
    let deps = enhance("ar", conllu);
    expect(
        "ar",
        &deps,
        &[
            ("انتهى", "1:advcl:بَعدَ:gen"),
            ("يزور", "1:advcl:لِ:gen"),
            ("بوسطن", "1:obl:فِي:gen"),
            ("30", "1:obl:نَحوَ"),
            ("عاما", "5:nmod:acc"),
        ],
    );
}

/// HSE: a relative clause opened by `што` is plain `acl`, its pronoun PronType=Int, and still
/// gets `ref`; `мець` (мае намер) controls through its subject despite its object.
#[test]
fn belarusian_shto_relative_clause_and_subject_control() {
    let conllu = "\
# text = Ён зрабіў тое, што абяцаў.
1\tЁн\tён\tPRON\t_\tCase=Nom|Gender=Masc|Number=Sing|Person=3|PronType=Prs\t2\tnsubj\t_\t_
2\tзрабіў\tзрабіць\tVERB\t_\tAspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin\t0\troot\t_\t_
3\tтое\tтое\tPRON\t_\tCase=Acc|Gender=Neut|Number=Sing|PronType=Dem\t2\tobj\t_\tSpaceAfter=No
4\t,\t,\tPUNCT\t_\t_\t6\tpunct\t_\t_
5\tшто\tшто\tPRON\t_\tCase=Acc|Gender=Neut|Number=Sing|PronType=Int\t6\tobj\t_\t_
6\tабяцаў\tабяцаць\tVERB\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin\t3\tacl\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

# text = Горад мае намер пабудаваць мост.
1\tГорад\tгорад\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t2\tnsubj\t_\t_
2\tмае\tмець\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t0\troot\t_\t_
3\tнамер\tнамер\tNOUN\t_\tAnimacy=Inan|Case=Acc|Gender=Masc|Number=Sing\t2\tobj\t_\t_
4\tпабудаваць\tпабудаваць\tVERB\t_\tAspect=Perf|VerbForm=Inf\t2\txcomp\t_\t_
5\tмост\tмост\tNOUN\t_\tAnimacy=Inan|Case=Acc|Gender=Masc|Number=Sing\t4\tobj\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

";
    let deps = enhance("be", conllu);
    expect(
        "be",
        &deps,
        &[
            ("тое", "2:obj|6:obj"),
            ("што", "3:ref"),
            ("Горад", "2:nsubj|4:nsubj"),
            ("намер", "2:obj"),
        ],
    );
}

/// `--lang hsb` enhances under the profile the table names (`cs`), with its warning (how every
/// code of the table resolves is a unit test in src/rules/tests_languages.rs).
#[test]
fn an_unknown_code_enhances_under_the_table_profile_with_a_warning() {
    let out = run(
        &["enhance", "--lang", "hsb", "tests/data/sample.conllu"],
        b"",
    );
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("warning: no profile for `hsb` (Upper Sorbian): using `cs`"),
        "{}",
        text(&out.stderr)
    );
    let cs = run(
        &["enhance", "--lang", "cs", "tests/data/sample.conllu"],
        b"",
    );
    assert_eq!(out.stdout, cs.stdout);
}

/// `eudify check` reads the rules folder's table: a row naming a missing profile, a code that
/// is no language code and an empty field are errors at FILE:LINE:COL (exit 1); a row for a
/// code with a profile of its own is a warning; a table that does not parse is an error at its
/// line. The shipped table checks clean.
#[test]
fn check_validates_the_languages_table() {
    let shipped = run(&["check", "--rules", "rules"], b"");
    assert!(shipped.status.success(), "{}", text(&shipped.stderr));
    assert!(
        !text(&shipped.stderr).contains("languages.toml"),
        "{}",
        text(&shipped.stderr)
    );

    let dir = std::env::temp_dir().join(format!("eudify-languages-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    eudify::export_rules(&dir).expect("export");
    let table = dir.join("languages.toml");
    let dir_arg = dir.to_str().unwrap();
    std::fs::write(
        &table,
        "[languages]\n\
         hsb = { language = \"Upper Sorbian\", family = \"West Slavic\", case = true, profile = \"cs\" }\n\
         xq = { language = \"X\", family = \"Y\", case = false, profile = \"csx\" }\n\
         Q1 = { language = \"Q\", family = \"Y\", case = false, profile = \"cs\" }\n\
         ab = { language = \"\", family = \"Y\", case = false, profile = \"universal\" }\n\
         cs = { language = \"Czech\", family = \"West Slavic\", case = true, profile = \"cs\" }\n",
    )
    .unwrap();
    let out = run(&["check", "--rules", dir_arg], b"");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let path = table.display().to_string();
    for expected in [
        format!("{path}:3:62: error: row `xq` names the profile `csx`, which does not exist"),
        "did you mean `cs`?".to_string(),
        format!("{path}:4:1: error: `Q1` is not a language code"),
        format!("{path}:5:19: error: `language` of `ab` must be one line of text"),
        format!(
            "{path}:6:1: warning: row `cs` is never used: `--lang cs` selects the profile `cs`"
        ),
    ] {
        assert!(
            stderr.contains(&expected),
            "missing `{expected}` in:\n{stderr}"
        );
    }
    assert!(
        !stderr.contains("row `hsb`") && !stderr.contains(":2:"),
        "{stderr}"
    );

    std::fs::write(
        &table,
        "[languages]\nhsb = { language = \"Upper Sorbian\", case = true, profile = \"cs\" }\n",
    )
    .unwrap();
    let out = run(&["check", "--rules", dir_arg], b"");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{path}:2:")) && stderr.contains("missing field `family`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
