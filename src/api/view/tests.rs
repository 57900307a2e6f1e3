use super::*;

/// Mary sang and danced in Prague: its basic tree only.
const BASIC: &str = "# sent_id = s1\n# text = Mary sang and danced in Prague\n\
    1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t_\t_\n2\tsang\tsing\tVERB\t_\t_\t0\troot\t_\t_\n\
    3\tand\tand\tCCONJ\t_\t_\t4\tcc\t_\t_\n4\tdanced\tdance\tVERB\t_\t_\t2\tconj\t_\t_\n\
    5\tin\tin\tADP\t_\t_\t6\tcase\t_\t_\n6\tPrague\tPrague\tPROPN\t_\t_\t4\tobl\t_\t_\n\n";

/// The same with a gold enhanced layer: the shared subject is there, `obl:in` is not (gold
/// says `obl`), and gold has an edge the rules do not make (6 → 2 obl).
const GOLD: &str = "# sent_id = s1\n# text = Mary sang and danced in Prague\n\
    1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj|4:nsubj\t_\n2\tsang\tsing\tVERB\t_\t_\t0\troot\t0:root\t_\n\
    3\tand\tand\tCCONJ\t_\t_\t4\tcc\t4:cc\t_\n4\tdanced\tdance\tVERB\t_\t_\t2\tconj\t2:conj:and\t_\n\
    5\tin\tin\tADP\t_\t_\t6\tcase\t6:case\t_\n6\tPrague\tPrague\tPROPN\t_\t_\t4\tobl\t2:obl|4:obl\t_\n\n";

fn edge<'v>(edges: &'v [ViewEdge], dep: &str, head: &str) -> &'v ViewEdge {
    edges
        .iter()
        .find(|e| e.dep == dep && e.head == head)
        .unwrap_or_else(|| panic!("no edge {head} → {dep} in {edges:?}"))
}

#[test]
fn without_rules_the_files_deps_are_drawn_unattributed() {
    let view = View::build(None, "g", GOLD.as_bytes(), None, None).unwrap();
    assert_eq!(
        (view.profile.as_deref(), view.gold.as_deref()),
        (None, None)
    );
    let s = &view.sentences[0];
    assert_eq!(
        (s.sent_id.as_deref(), s.line, s.words.len()),
        (Some("s1"), 1, 6)
    );
    assert_eq!(s.basic.len(), 6);
    assert_eq!(s.enhanced.len(), 8);
    assert!(s
        .enhanced
        .iter()
        .all(|e| e.origin.is_none() && e.rule.is_none()));
    assert_eq!(edge(&s.enhanced, "6", "2").phenomenon, Some("S"));
    assert!(view.rules.is_empty() && view.scores.is_none());
}

#[test]
fn rules_name_the_edges_they_made_and_gold_marks_them() {
    let enhancer = Enhancer::for_profile("en", None).unwrap();
    let mut gold = GOLD.as_bytes();
    let view = View::build(
        Some(&enhancer),
        "in",
        BASIC.as_bytes(),
        Some(("gold", &mut gold)),
        None,
    )
    .unwrap();
    let s = &view.sentences[0];
    let shared = edge(&s.enhanced, "1", "4");
    assert_eq!(shared.origin, Some(EdgeOrigin::Added));
    assert_eq!(shared.gold, Some(GoldStatus::Correct));
    let rule = &view.rules[shared.rule.unwrap()];
    assert_eq!(rule.name, "shared_subject");
    assert!(rule.source.starts_with("rule shared_subject") && rule.source.ends_with('}'));
    assert!(rule.file.ends_with(".rules") && rule.line > 0, "{rule:?}");
    let case = edge(&s.enhanced, "6", "4");
    assert_eq!(
        (case.origin, case.was.as_deref(), case.label.as_str()),
        (Some(EdgeOrigin::Relabelled), Some("obl"), "obl:in")
    );
    assert_eq!(case.gold, Some(GoldStatus::Wrong));
    assert_eq!(edge(&s.enhanced, "1", "2").origin, Some(EdgeOrigin::Copy));
    let missing: Vec<(&str, &str, &str)> = s
        .missing
        .iter()
        .map(|e| (e.head.as_str(), e.dep.as_str(), e.label.as_str()))
        .collect();
    assert_eq!(missing, [("2", "6", "obl"), ("4", "6", "obl")]);
    assert!(s.compared);
    // 6 of the 7 system edges are gold's, of its 8: F1 = 12/15.
    assert_eq!(s.elas, Some(80.0));
    let scores = view.scores.as_ref().unwrap();
    assert_eq!(
        (scores.elas.gold, scores.elas.system, scores.elas.correct),
        (8, 7, 6)
    );
    let case_row = scores
        .rules
        .iter()
        .find(|r| r.rule.is_some_and(|i| view.rules[i].name == "case_label"))
        .unwrap();
    assert_eq!((case_row.produced, case_row.wrong), (1, 1));
    // Per phenomenon: the shared subject made, the shared `obl` (6 → 2) not.
    let shared = scores.phenomena.iter().find(|p| p.code == "S").unwrap();
    assert_eq!((shared.gold, shared.system, shared.correct), (2, 1, 1));
}

#[test]
fn with_rules_an_input_with_deps_is_its_own_gold() {
    let enhancer = Enhancer::for_profile("en", None).unwrap();
    let view = View::build(Some(&enhancer), "g", GOLD.as_bytes(), None, None).unwrap();
    assert_eq!(view.gold.as_deref(), Some("g"));
    assert_eq!(view.sentences[0].elas, Some(80.0));
    let view = View::build(Some(&enhancer), "b", BASIC.as_bytes(), None, None).unwrap();
    assert_eq!((view.gold, view.sentences[0].elas), (None, None));
}

#[test]
fn search_matches_are_marked_by_variable() {
    let pattern = Pattern::new("match { H =[nsubj]=> S; H -[conj]-> C; }").unwrap();
    let view = View::build(None, "g", GOLD.as_bytes(), None, Some(&pattern)).unwrap();
    assert_eq!(
        view.search,
        Some(SearchSummary {
            sentences: 1,
            matches: 1
        })
    );
    let found = &view.sentences[0].matches;
    assert_eq!(
        found,
        &[vec![
            ("H".to_string(), "2".to_string()),
            ("S".to_string(), "1".to_string()),
            ("C".to_string(), "4".to_string())
        ]]
    );
}

#[test]
fn bad_input_and_another_gold_text_are_input_errors_at_their_line() {
    let bad = format!("{BASIC}1\tA\ta\tX\t_\t_\t7\tdep\t_\t_\n\n");
    match View::build(None, "in", bad.as_bytes(), None, None) {
        Err(Error::Input { file, line, .. }) => assert_eq!((file.as_str(), line), ("in", 10)),
        other => panic!("{other:?}"),
    }
    let enhancer = Enhancer::for_profile("en", None).unwrap();
    let mut other = GOLD.replace("Prague", "Paris").into_bytes();
    let mut gold = &other[..];
    match View::build(
        Some(&enhancer),
        "in",
        BASIC.as_bytes(),
        Some(("gold", &mut gold)),
        None,
    ) {
        Err(Error::Input { file, .. }) => assert_eq!(file, "in"),
        other => panic!("{other:?}"),
    }
    other.clear();
}

#[test]
fn the_page_holds_no_markup_from_the_treebank() {
    let hostile = BASIC
        .replace("s1", "</script><script>alert(1)</script>")
        .replace("Mary\tMary", "<b>&amp;Mary</b>\tMary");
    let view = View::build(None, "<in>", hostile.as_bytes(), None, None).unwrap();
    for html in [view.page_html(), view.sentences_html()] {
        assert!(!html.contains("alert") && !html.contains("<b>"), "{html}");
        assert_eq!(html.matches("<script").count(), 2, "the data and the code");
        // The model is there in base64 (tests/view.rs reads it back).
        let start = html.find("application/gzip").unwrap();
        let data = &html[start + html[start..].find('>').unwrap() + 1..];
        let data = &data[..data.find("</script>").unwrap()];
        assert!(data.len() > 100);
        assert!(data
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)));
    }
    assert!(view
        .page_html()
        .contains("<title>eudify view: &lt;in&gt;</title>"));
}

#[test]
fn base64_as_rfc_4648_writes_it() {
    for (bytes, text) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(page::base64(bytes.as_bytes()), text);
    }
    assert_eq!(page::base64(&[0xfb, 0xff]), "+/8=");
}

#[test]
fn fragments_have_ids_of_their_own() {
    let view = View::build(None, "g", GOLD.as_bytes(), None, None).unwrap();
    let id = |html: String| {
        html[html.find("id=\"").unwrap() + 4..]
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    assert_ne!(id(view.sentences_html()), id(view.sentences_html()));
}

/// GOLD's sentence cut in two by the system: the edges between words of one system sentence
/// compare through the scorer's alignment (in the system's numbering); gold edges across the cut
/// cannot be drawn and are left to ELAS.
#[test]
fn a_differently_segmented_sentence_is_marked_through_the_alignment() {
    let system = "# sent_id = a\n# text = Mary sang\n\
        1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n2\tsang\tsing\tVERB\t_\t_\t0\troot\t0:root\t_\n\n\
        # sent_id = b\n# text = and danced in Prague\n\
        1\tand\tand\tCCONJ\t_\t_\t2\tcc\t2:cc\t_\n2\tdanced\tdance\tVERB\t_\t_\t0\troot\t0:root\t_\n\
        3\tin\tin\tADP\t_\t_\t4\tcase\t4:case\t_\n4\tPrague\tPrague\tPROPN\t_\t_\t2\tobl\t2:obl:in\t_\n\n";
    let mut gold = GOLD.as_bytes();
    let view = View::build(
        None,
        "sys",
        system.as_bytes(),
        Some(("gold", &mut gold)),
        None,
    )
    .unwrap();
    let status = |s: &ViewSentence, dep: &str, head: &str| edge(&s.enhanced, dep, head).gold;
    let (a, b) = (&view.sentences[0], &view.sentences[1]);
    assert_eq!(status(a, "1", "2"), Some(GoldStatus::Correct));
    assert_eq!(status(a, "2", "0"), Some(GoldStatus::Correct));
    assert_eq!(status(b, "1", "2"), Some(GoldStatus::Correct));
    assert_eq!(status(b, "3", "4"), Some(GoldStatus::Correct));
    // Gold's `danced` is a conjunct of `sang`, and `obl:in` is gold's plain `obl`.
    assert_eq!(status(b, "2", "0"), Some(GoldStatus::Wrong));
    assert_eq!(status(b, "4", "2"), Some(GoldStatus::Wrong));
    let missing: Vec<_> = b
        .missing
        .iter()
        .map(|e| (e.dep.as_str(), e.head.as_str(), e.label.as_str()))
        .collect();
    assert_eq!(missing, [("4", "2", "obl")]);
    assert!(a.missing.is_empty());
    assert!(a.elas.is_some() && a.elas == b.elas);
}
