//! Pass: node constraints — fields that exist (UD's universal features or the profile's own),
//! values that can match (no empty value, known UPOS tags), regexes that compile, lexicon lists
//! and `@profile` lists that exist and hold the right kind of item — resolved as they are lowered.

use super::closest;
use super::lower::RuleChecker;
use crate::rules::ast::{Constraint, Field, Name, Span, ValueTest};
use crate::rules::diagnostic::Diagnostic;
use crate::rules::ir::{CheckedValueTest, FieldTest};
use crate::rules::profile::SettingType;
use crate::rules::text_regex::TextRegex;
use crate::rules::vocabulary::Items;
use crate::ud::{is_universal_feature, universal_feature_values, UNIVERSAL_FEATURES, UPOS_TAGS};
use std::sync::Arc;

/// Compiles a regex, reporting an error at `span` when it is invalid.
pub(super) fn compile_regex(
    pattern: &str,
    case_insensitive: bool,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<TextRegex> {
    let full = if case_insensitive {
        format!("(?i){pattern}")
    } else {
        pattern.to_string()
    };
    // Rule sets repeat the same few patterns (`^[\p{L}\p{M}]+$` in many rules); compiling
    // each once per thread makes loading a profile several times faster. Clones share it.
    thread_local! {
        static COMPILED: std::cell::RefCell<std::collections::HashMap<String, TextRegex>> = Default::default();
    }
    if let Some(re) = COMPILED.with(|c| c.borrow().get(&full).cloned()) {
        return Some(re);
    }
    match TextRegex::new(&full) {
        Ok(re) => {
            COMPILED.with(|c| c.borrow_mut().insert(full, re.clone()));
            Some(re)
        }
        Err(e) => {
            // The regex crate's message ends with a line "error: what went wrong".
            let text = e.to_string();
            let reason = text
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid");
            let reason = reason.trim().trim_start_matches("error: ");
            diagnostics.push(Diagnostic::error(span, format!("invalid regex: {reason}")));
            None
        }
    }
}

impl<'a> RuleChecker<'_, 'a> {
    pub(super) fn constraint(&mut self, c: &Constraint) -> Option<FieldTest> {
        if let Field::Feature(name) = &c.field {
            if !self.known_feature(name, c.field_span) {
                return None;
            }
        }
        let test = match &c.test {
            ValueTest::Equals {
                values,
                case_insensitive,
            } => {
                let mut after = c.field_span.end;
                for value in values {
                    if value.is_empty() {
                        self.error(c.span, "an empty value never matches (a missing value is written `_` and tested with `!Field`)");
                        return None;
                    }
                    let span = self.value_span(c.span, &mut after, value);
                    if let Field::Feature(name) = &c.field {
                        if !self.known_value(name, value, *case_insensitive, span) {
                            return None;
                        }
                    }
                    if c.field == Field::Upos
                        && !case_insensitive
                        && !UPOS_TAGS.contains(&value.as_str())
                    {
                        self.diagnostics
                            .push(crate::rules::vocabulary::unknown_upos(c.span, value));
                        return None;
                    }
                }
                let values = if *case_insensitive {
                    values.iter().map(|v| v.to_lowercase()).collect()
                } else {
                    values.clone()
                };
                CheckedValueTest::Equals {
                    values,
                    case_insensitive: *case_insensitive,
                }
            }
            ValueTest::Regex {
                pattern,
                case_insensitive,
                span,
            } => CheckedValueTest::Regex(compile_regex(
                pattern,
                *case_insensitive,
                *span,
                self.diagnostics,
            )?),
            ValueTest::InLexicon(list) => match self.ctx.lexicon.get(&list.path) {
                Some(words) => CheckedValueTest::InLexicon {
                    path: list.path.clone(),
                    words: words.clone(),
                },
                None => {
                    let mut d = Diagnostic::error(
                        list.span,
                        format!("unknown lexicon list `@{}`", list.path),
                    );
                    d = match closest(&list.path, self.ctx.lexicon.names()) {
                        Some(s) => d.with_note(format!("did you mean `@{s}`?")),
                        None => d.with_note(format!(
                            "lists: {}",
                            self.ctx.lexicon.names().collect::<Vec<_>>().join(", ")
                        )),
                    };
                    self.diagnostics.push(d);
                    return None;
                }
            },
            ValueTest::InSetting(name) => {
                let words =
                    self.setting_list(name, &[Items::Text, Items::Upos], "a node constraint")?;
                // The profile's list holds values of the feature: each must be one.
                if let Field::Feature(feature) = &c.field {
                    let setting = format!("`@profile.{}`", name.text);
                    let problem = words
                        .iter()
                        .find_map(|w| Some((w, self.value_problem(feature, w, false)?)));
                    if let Some((word, problem)) = problem {
                        let d = Diagnostic::error(
                            name.span,
                            format!("{setting} holds `{word}`, which is no value of feature `{feature}`"),
                        );
                        self.diagnostics
                            .push(problem.into_iter().fold(d, Diagnostic::with_note));
                        return None;
                    }
                }
                CheckedValueTest::InLexicon {
                    path: format!("profile.{}", name.text),
                    words: Arc::new(words.iter().cloned().collect()),
                }
            }
            ValueTest::Present => CheckedValueTest::Present,
        };
        Some(FieldTest {
            field: c.field.clone(),
            test,
            negated: c.negated,
            span: c.span,
        })
    }

    /// The items of list setting `name` (`@profile.NAME`), which `usage` needs to hold one of
    /// the kinds `wanted`; reports it when it is no such list.
    pub(super) fn setting_list(
        &mut self,
        name: &Name,
        wanted: &[Items],
        usage: &str,
    ) -> Option<&'a [String]> {
        let vocabulary = self.ctx.vocabulary;
        let Some(decl) = vocabulary.setting(&name.text) else {
            self.diagnostics
                .push(vocabulary.unknown_setting(name.span, &name.text, "@profile."));
            return None;
        };
        if decl.kind != SettingType::List || !wanted.contains(&decl.items) {
            let what = match decl.kind {
                SettingType::List => format!("a list of {} items", decl.items.name()),
                other => other.describe().to_string(),
            };
            let wanted: Vec<&str> = wanted.iter().map(|i| i.name()).collect();
            self.error(
                name.span,
                format!(
                    "`@profile.{}` is {what}, but {usage} needs a list of {} items",
                    name.text,
                    wanted.join(" or ")
                ),
            );
            return None;
        }
        Some(self.ctx.settings.list(&name.text))
    }

    /// Where `value`, the next value of a constraint spanning `constraint`, is written: searched
    /// from byte `after` (then moved past it), else the whole constraint (a quoted value with
    /// escapes).
    fn value_span(&self, constraint: Span, after: &mut usize, value: &str) -> Span {
        let text = self
            .ctx
            .sources
            .get(constraint.file)
            .and_then(|f| f.text.get(*after..constraint.end));
        match text.and_then(|t| t.find(value)) {
            Some(at) => {
                let start = *after + at;
                *after = start + value.len();
                self.ctx.sources.span(constraint.file, start, *after)
            }
            None => constraint,
        }
    }

    /// Whether `value` is a value of feature `name` (known to exist): universal, or declared by
    /// the profile; reports it at `span` when not. Several values (`Int,Rel`) are each one.
    fn known_value(&mut self, name: &str, value: &str, case_insensitive: bool, span: Span) -> bool {
        let Some(notes) = self.value_problem(name, value, case_insensitive) else {
            return true;
        };
        let base = name.split_once('[').map_or(name, |(base, _)| base);
        let d = Diagnostic::error(span, format!("unknown value `{value}` of feature `{base}`"));
        self.diagnostics
            .push(notes.into_iter().fold(d, Diagnostic::with_note));
        false
    }

    /// Why `value` is no value of feature `name`, as notes (a did-you-mean, else the values
    /// there are and where a language-specific one is declared), or `None` when it is one.
    fn value_problem(
        &self,
        name: &str,
        value: &str,
        case_insensitive: bool,
    ) -> Option<Vec<String>> {
        let declared = self.ctx.features.values(name)?;
        let universal = universal_feature_values(name).unwrap_or_default();
        let known: Vec<&str> = universal.iter().copied().chain(declared).collect();
        let is_known = |v: &str| {
            known
                .iter()
                .any(|k| *k == v || (case_insensitive && k.eq_ignore_ascii_case(v)))
        };
        let unknown: Vec<&str> = value.split(',').filter(|v| !is_known(v)).collect();
        let first = *unknown.first()?;
        let mut notes = Vec::new();
        match closest(first, known.iter().copied()) {
            Some(s) => notes.push(format!("did you mean `{s}`?")),
            None => {
                let mut sorted = known.clone();
                sorted.sort_unstable();
                sorted.dedup();
                let values = if sorted.is_empty() {
                    "none declared".to_string()
                } else {
                    sorted.join(", ")
                };
                notes.push(format!("values: {values}"));
            }
        }
        if first != value {
            notes.push(format!(
                "`{value}` holds several values, joined by `,`: `{first}` is the unknown one"
            ));
        }
        notes.push(
            "a language-specific value is declared in the profile's `[features]` table \
             (`Name = [\"Value\"]`)"
                .to_string(),
        );
        Some(notes)
    }

    /// Whether `name` (`Case`, `Number[psor]`) is a universal feature or one the profile
    /// declares; reports it at `span` when not.
    pub(super) fn known_feature(&mut self, name: &str, span: Span) -> bool {
        let base = name.split_once('[').map_or(name, |(base, _)| base);
        if is_universal_feature(name) || self.ctx.features.knows(name) {
            return true;
        }
        let candidates = UNIVERSAL_FEATURES
            .iter()
            .map(|(f, _)| *f)
            .chain(self.ctx.features.names());
        let mut d = Diagnostic::error(span, format!("unknown feature `{base}`"));
        // `PronType=Int,Rel` reads as `PronType=Int` and a feature `Rel`.
        if let Some((feature, _)) = UNIVERSAL_FEATURES
            .iter()
            .find(|(_, values)| values.contains(&name))
        {
            d = d.with_note(format!(
                "`{name}` is a value of `{feature}`: several values of a word are one quoted value, \
                 `{feature}=\"…,{name}\"` (a bare `,` starts the next constraint)"
            ));
        }
        self.diagnostics.push(match closest(base, candidates) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(
                "not a UD universal feature: declare a language-specific one in the profile's \
                 `features`",
            ),
        });
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::resolving;

    #[test]
    fn fields_and_values_resolve() {
        assert_eq!(
            resolving("match { H -[obj]-> N;  N [upos=NUON, lemma=\"\", Gendr=Masc]; } do { add H =[dep]=> N; }"),
            [
                "error: unknown UPOS tag `NUON`",
                "error: an empty value never matches (a missing value is written `_` and tested with `!Field`)",
                "error: unknown feature `Gendr`",
            ]
        );
        assert_eq!(
            resolving("match { H -[obj]-> N;  N [lemma in @control.subjekt, form=/(/]; } do { add H =[dep]=> N; }"),
            ["error: unknown lexicon list `@control.subjekt`", "error: invalid regex: unclosed group"]
        );
    }

    #[test]
    fn feature_values_are_uds() {
        assert_eq!(
            resolving("match { H -[obj]-> N;  N [VerbForm=Gerr, Case=Acc|Dtt, PronType=\"Int,Rell\"]; } do { add H =[dep]=> N; }"),
            [
                "error: unknown value `Gerr` of feature `VerbForm`",
                "error: unknown value `Dtt` of feature `Case`",
                "error: unknown value `Int,Rell` of feature `PronType`",
            ]
        );
        // Several values unquoted: the second reads as a feature.
        assert_eq!(
            resolving("match { H -[obj]-> N;  N [PronType=Int,Rel]; } do { add H =[dep]=> N; }"),
            ["error: unknown feature `Rel`"]
        );
        // Several values, a layered feature, case-insensitive values, a profile list of values.
        assert!(resolving("match { H -[obj]-> N;  N [PronType=\"Int,Rel\", Number[psor]=Sing, Case~=acc, Case in @profile.xsubj_oblique_cases]; } do { add H =[dep]=> N; }").is_empty());
    }
}
