//! Profile resolution by the languages table (`rules/languages.toml`): the new profiles (ru,
//! ar, be) load clean, every row names a shipped profile, unknown codes resolve with a warning,
//! a rules folder brings its own table. Their use by the command is in tests/languages.rs.

use crate::rules::{list_profiles, load_ruleset, resolve_profile, RuleSource};
use std::collections::BTreeMap;

const NEW_PROFILES: [&str; 3] = ["ru", "ar", "be"];

#[test]
fn the_new_profiles_load_clean_and_mark_case() {
    let source = RuleSource::embedded();
    for name in NEW_PROFILES {
        let rule_set =
            load_ruleset(&source, name).unwrap_or_else(|e| panic!("{name}: {}", e.render()));
        assert!(
            rule_set.warnings.is_empty(),
            "{name}: {} warnings",
            rule_set.warnings.len()
        );
        assert!(
            rule_set.settings.flag("case_feature"),
            "{name}: labels carry the Case value"
        );
        // SynTagRus and HSE label a controlled subject plain nsubj; PADT's sample had none.
        let xsubj = if name == "ar" { "nsubj:xsubj" } else { "nsubj" };
        assert_eq!(rule_set.settings.text("xsubj_label"), Some(xsubj), "{name}");
        assert_eq!(resolve_profile(&source, name), (name.to_string(), None));
        let (profile, warning) = resolve_profile(&source, &format!("{name}_tb"));
        assert_eq!(profile, name);
        assert!(warning.unwrap().starts_with("no profile for treebank"));
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    language: String,
    family: String,
    case: bool,
    profile: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    languages: BTreeMap<String, Row>,
}

fn table() -> BTreeMap<String, Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/languages.toml");
    let text = std::fs::read_to_string(path).expect("rules/languages.toml reads");
    toml::from_str::<Table>(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .languages
}

/// Every row names a shipped profile that loads; no row shadows a language's own profile; a
/// language with Case in its labels gets a profile that puts Case there; every language the
/// validator lists labels for is covered (a profile or a row); the table covers UD's languages.
#[test]
fn the_fallback_table_names_shipped_profiles_consistently() {
    let source = RuleSource::embedded();
    let table = table();
    let names = list_profiles(&source).unwrap_or_else(|_| panic!("profiles read"));
    let names: Vec<&str> = names.iter().map(|p| p.name.as_str()).collect();
    let mut case_of = BTreeMap::new();
    for (code, row) in &table {
        assert!(
            (2..=3).contains(&code.len()) && code.chars().all(|c| c.is_ascii_lowercase()),
            "`{code}` is not an ISO 639 code"
        );
        assert!(
            !names.contains(&code.as_str()),
            "`{code}` has its own profile"
        );
        assert!(
            names.contains(&row.profile.as_str()),
            "{code}: no profile `{}`",
            row.profile
        );
        assert!(!row.language.is_empty() && !row.family.is_empty(), "{code}");
        let case = *case_of.entry(row.profile.clone()).or_insert_with(|| {
            load_ruleset(&source, &row.profile)
                .unwrap_or_else(|e| panic!("{}: {}", row.profile, e.render()))
                .settings
                .flag("case_feature")
        });
        if row.case {
            assert!(
                case,
                "{code} ({}) has Case in its labels, `{}` does not add it",
                row.language, row.profile
            );
        }
    }
    // The languages of the validator's per-language label lists
    // (/work/shared/docs/enhanced-labels-by-language.md).
    for code in [
        "ar", "be", "bg", "cs", "en", "it", "lt", "ltg", "lv", "nl", "pl", "pt", "ru", "sk", "sv",
        "ta",
    ] {
        assert!(
            names.contains(&code) || table.contains_key(code),
            "`{code}` is covered by neither a profile nor the table"
        );
    }
    let own = names.iter().filter(|n| n.len() == 2).count();
    assert!(
        table.len() + own >= 150,
        "{} rows + {own} language profiles",
        table.len()
    );
}

/// Codes without a profile resolve by the table, with a warning that says which profile and why.
#[test]
fn unknown_codes_resolve_by_the_table() {
    let source = RuleSource::embedded();
    for (code, row) in table() {
        for asked in [code.clone(), format!("{code}_tb"), code.to_uppercase()] {
            let (profile, warning) = resolve_profile(&source, &asked);
            assert_eq!(profile, row.profile, "{asked}");
            let warning = warning.unwrap_or_else(|| panic!("{asked}: no warning"));
            assert!(
                warning.contains(&format!("using `{}`", row.profile))
                    && warning.contains(&row.language)
                    && warning.contains(&row.family),
                "{asked}: {warning}"
            );
        }
    }
    assert_eq!(
        resolve_profile(&source, "hsb_ufal").1.as_deref(),
        Some("no profile for `hsb_ufal` (Upper Sorbian): using `cs` (West Slavic, Case in labels)")
    );
    let (profile, warning) = resolve_profile(&source, "zz");
    assert_eq!(profile, "universal");
    assert!(warning
        .unwrap()
        .contains("nor a row in rules/languages.toml"));
}

/// A rules folder reads its own table, and the embedded one when it has none; a row naming a
/// profile the folder lacks, or a table that does not read, falls back to `universal` and says so.
#[test]
fn a_rules_folder_brings_its_own_table() {
    let dir = std::env::temp_dir().join(format!("eudify-languages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    RuleSource::export(&dir).expect("export");
    let table = dir.join("languages.toml");
    std::fs::remove_file(&table).expect("the export holds the table");
    let source = RuleSource::from_dir(&dir).expect("folder reads");
    assert_eq!(resolve_profile(&source, "hsb").0, "cs");

    std::fs::write(&table, "[languages]\nhsb = { language = \"Upper Sorbian\", family = \"West Slavic\", case = true, profile = \"pl\" }\nxq = { language = \"X\", family = \"Y\", case = false, profile = \"nope\" }\n").unwrap();
    let source = RuleSource::from_dir(&dir).expect("folder reads");
    assert_eq!(resolve_profile(&source, "hsb").0, "pl");
    assert_eq!(resolve_profile(&source, "hr").0, "universal");
    let (profile, warning) = resolve_profile(&source, "xq");
    assert_eq!(profile, "universal");
    assert!(warning
        .unwrap()
        .contains("names `nope`, which does not exist"));

    std::fs::write(&table, "[languages]\nhsb = 3\n").unwrap();
    let source = RuleSource::from_dir(&dir).expect("folder reads");
    let (profile, warning) = resolve_profile(&source, "hsb");
    assert_eq!(profile, "universal");
    assert!(warning.unwrap().contains("languages.toml"));
    std::fs::remove_dir_all(&dir).unwrap();
}
