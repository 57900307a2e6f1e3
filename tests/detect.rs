//! No silent profile: without a language, the profile comes from a treebank code in the input's
//! name or comments, else from the language its words show; weak evidence is an error.

use crate::common::{dev_files, run, sample_files, text, treebank_code, treebank_name};
use eudify::detect::Evidence;
use eudify::{detect_profile, Error};

/// The text without `# sent_id` and `# newdoc id` lines: only the words can tell.
fn hidden(conllu: &str) -> String {
    conllu
        .lines()
        .filter(|l| !l.starts_with("# sent_id") && !l.starts_with("# newdoc id"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The first `n` sentences of `conllu`.
fn first_sentences(conllu: &str, n: usize) -> String {
    conllu
        .split_inclusive("\n\n")
        .take(n)
        .collect::<Vec<_>>()
        .concat()
}

/// The language part of a treebank's `--lang` code (`en` of `en_ewt`).
fn language(code: &str) -> &str {
    code.split('_').next().unwrap()
}

#[test]
fn the_samples_are_identified_from_their_words_with_their_names_hidden() {
    for file in sample_files() {
        let conllu = std::fs::read_to_string(&file).unwrap();
        let code = treebank_code(&file);
        // 30 sentences: a short text still shows its language.
        let sample = hidden(&first_sentences(&conllu, 30));
        let detection = detect_profile("input.conllu", &sample, None)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(detection.profile, language(&code), "{}", file.display());
        assert!(matches!(detection.evidence, Evidence::Text(_)));
        assert!(detection.to_string().contains("identified from the text"));
    }
}

#[test]
fn every_dev_treebank_with_words_is_identified_and_one_without_is_refused() {
    let Some(files) = dev_files() else {
        return;
    };
    for file in files {
        let conllu = hidden(&std::fs::read_to_string(&file).unwrap());
        let treebank = treebank_name(&file);
        // GUMReddit is distributed without its words (FORM `_`, `__` on multiword tokens).
        let has_words = conllu.lines().any(|l| {
            l.split('\t')
                .nth(1)
                .is_some_and(|form| form.chars().any(|c| c != '_'))
        });
        match detect_profile("input.conllu", &conllu, None) {
            Ok(detection) => {
                assert!(has_words, "{treebank}: chosen without words: {detection}");
                assert_eq!(
                    detection.profile,
                    language(&treebank_code(&file)),
                    "{treebank}"
                );
            }
            Err(Error::NoProfile { .. }) => assert!(!has_words, "{treebank} refused"),
            Err(e) => panic!("{treebank}: {e}"),
        }
    }
}

#[test]
fn a_treebank_code_in_the_name_or_a_comment_decides() {
    let sentence = "1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n";
    let by_name = detect_profile("/data/cs_cac-ud-dev.conllu", sentence, None).unwrap();
    assert_eq!(by_name.code, "cs_cac");
    assert_eq!(by_name.profile, "cs");
    assert_eq!(
        by_name.to_string(),
        "profile cs (from file name \"cs_cac-ud-dev.conllu\"; no profile for treebank `cs_cac`: using the language profile `cs`)"
    );
    let by_sent_id = detect_profile(
        "input.conllu",
        format!("# sent_id = sv-ud-dev-1\n{sentence}"),
        None,
    )
    .unwrap();
    assert_eq!(by_sent_id.profile, "sv");
    let by_newdoc = detect_profile(
        "-",
        format!("# newdoc id = en_ewt-weblog-1\n# sent_id = 1\n{sentence}"),
        None,
    )
    .unwrap();
    assert_eq!(by_newdoc.profile, "en_ewt");
    // sent_ids that are no codes (`sme:1356`, North Sami's code followed by no treebank name).
    let no_code = detect_profile(
        "in.conllu",
        format!("# sent_id = sme:1356:.r.\n{sentence}"),
        None,
    );
    assert!(matches!(no_code, Err(Error::NoProfile { .. })));
}

#[test]
fn weak_evidence_asks_for_the_language() {
    let sentence = "1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n";
    let error = detect_profile("in.conllu", sentence, None).unwrap_err();
    assert!(matches!(error, Error::NoProfile { .. }));
    assert!(error.is_invalid_input());
    let message = error.to_string();
    assert!(message.starts_with("in.conllu: cannot tell"), "{message}");
    assert!(message.contains("--lang"), "{message}");
}

#[test]
fn enhance_without_lang_says_the_profile_and_enhances_as_with_it() {
    let file = crate::common::sample_file("Czech-CAC");
    let conllu = hidden(&std::fs::read_to_string(&file).unwrap());
    let chosen = run(&["enhance"], conllu.as_bytes());
    assert!(chosen.status.success(), "{}", text(&chosen.stderr));
    let said = text(&chosen.stderr);
    assert!(
        said.starts_with("eudify: profile cs (identified from the text: "),
        "{said}"
    );
    let given = run(&["enhance", "--lang", "cs"], conllu.as_bytes());
    assert_eq!(chosen.stdout, given.stdout);
    assert!(
        !text(&given.stderr).contains("profile"),
        "{}",
        text(&given.stderr)
    );
    // explain reads stdin once too.
    let explained = run(&["explain", "-"], conllu.as_bytes());
    assert!(explained.status.success(), "{}", text(&explained.stderr));
    assert_eq!(
        explained.stdout,
        run(&["explain", "--lang", "cs", "-"], conllu.as_bytes()).stdout
    );
}

#[test]
fn enhance_without_lang_on_too_little_exits_1_asking_for_it() {
    let out = run(
        &["enhance"],
        b"1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let said = text(&out.stderr);
    assert!(said.starts_with("<stdin>: cannot tell"), "{said}");
    assert!(said.contains("--lang CODE"), "{said}");
}

#[test]
fn inputs_that_need_different_profiles_are_refused() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("detect-mixed");
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    for treebank in ["Czech-CAC", "English-EWT"] {
        let conllu =
            hidden(&std::fs::read_to_string(crate::common::sample_file(treebank)).unwrap());
        let path = dir.join(format!("{treebank}.conllu"));
        std::fs::write(&path, conllu).unwrap();
        paths.push(path.to_str().unwrap().to_string());
    }
    let out = run(&["enhance", &paths[0], &paths[1]], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("need different profiles"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn invalid_input_without_lang_gets_its_own_error_not_a_question() {
    for file in crate::common::bad_files() {
        let path = file.to_str().unwrap();
        let given = run(&["enhance", "--lang", "universal", path], b"");
        let chosen = run(&["enhance", path], b"");
        assert_eq!(chosen.status.code(), given.status.code(), "{path}");
        assert_eq!(text(&chosen.stderr), text(&given.stderr), "{path}");
    }
}

#[test]
fn an_empty_input_needs_no_profile() {
    let out = run(&["enhance"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with(
        "eudify: profile universal (the input has no words: every profile gives the same output)"
    ));
}
