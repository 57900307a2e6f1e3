//! The semantic checker, staged like pest_meta's validator: raw syntax tree in, every
//! diagnostic of every rule out, and for one profile's settings the checked IR
//! ([`crate::rules::ir`]) of the rules whose guards hold.
//!
//! Passes, each a function returning its diagnostics, run rule by rule in the order a reader
//! meets what they check (so diagnostics come out in a stable order):
//!
//! * [`names`]: rule names unique across files, rules under a `phase` line, rules with actions;
//! * [`guards`]: `when` conditions of `phase` lines, rules, label parts and expectations
//!   (settings that exist, of the right type, with texts they can hold; a rule's guard that
//!   repeats its phase line's) — and their evaluation;
//! * [`fields`], [`labels`], [`actions`]: node constraints (fields, values, regexes, lexicon
//!   and `@profile` lists), edges (relations, edge variables, descents) and actions with their
//!   label templates, each resolved while [`lower`] lowers the rule to the IR (an error is
//!   found where a name fails to resolve);
//! * [`connectivity`]: every variable of a block tied to the others by edges;
//! * [`cost`] (warnings): blocks whose search grows as a high power of the sentence's length
//!   (variables tied only by edges any relation passes; two words both immediately before one);
//! * [`contradictions`]: blocks that can never match (no value satisfies a field's tests, two
//!   basic heads, an edge required and forbidden, a word-order cycle) and `without` blocks that
//!   are empty or always match;
//! * [`examples`]: examples that parse and `expect` lines that are well-formed.
//!
//! The lowering runs with the passes (contradictions are found on lowered blocks); its result
//! is kept only for rules with no error.

pub mod actions;
pub mod connectivity;
pub mod contradictions;
pub mod cost;
pub mod examples;
pub mod fields;
pub mod guards;
pub mod labels;
pub mod lower;
pub mod names;

pub use guards::{check_guard, eval_guard};

use super::ast::{RuleFile, Span};
use super::diagnostic::Diagnostic;
use super::ir::CheckedRule;
use super::lexicon::Lexicon;
use super::profile::{Features, Settings};
use super::source::SourceMap;
use super::vocabulary::Vocabulary;
use rustc_hash::FxHashMap;

pub use crate::ud::UPOS_TAGS;

/// Scope of node variables while checking one rule: name → index into the rule's variables.
pub type Scope = FxHashMap<String, crate::rules::ir::VarId>;

/// Everything a rule is checked against.
pub struct Context<'a> {
    pub sources: &'a SourceMap,
    pub lexicon: &'a Lexicon,
    pub settings: &'a Settings,
    /// The declared enhancement names.
    pub vocabulary: &'a Vocabulary,
    /// Language-specific features (and values) the profile declares (UD's universal ones are
    /// built in).
    pub features: &'a Features,
}

/// Checks every rule of `files` (duplicate names are looked for across all of them) and builds
/// the checked rules for `ctx.settings`. Returns the rules whose guards hold, the names of those
/// whose guards do not, and every diagnostic (errors and warnings); the rules are only
/// meaningful when there is no error.
pub fn check_files(
    files: &[RuleFile],
    ctx: &Context<'_>,
) -> (Vec<CheckedRule>, Vec<String>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut names = names::Names::default();
    let mut active = Vec::new();
    let mut inactive = Vec::new();
    for file in files {
        // Each `phase` line is checked where it stands, before the rules below it.
        let mut phase_lines = file.phases.iter().peekable();
        for rule in &file.rules {
            while let Some(line) = phase_lines.next_if(|l| l.name.span.start < rule.span.start) {
                diagnostics.extend(guards::phase_line(line, file, ctx.vocabulary));
            }
            diagnostics.extend(names.duplicate(rule, ctx.sources));
            let checked = lower::rule(rule, &file.path, ctx, &mut diagnostics);
            let enabled = guards::rule_enabled(rule, ctx.settings);
            match checked {
                Some(checked) if enabled => active.push(checked),
                _ if !enabled => inactive.push(rule.name.text.clone()),
                _ => {}
            }
        }
        for line in phase_lines {
            diagnostics.extend(guards::phase_line(line, file, ctx.vocabulary));
        }
    }
    (active, inactive, diagnostics)
}

/// `path:line:col` of a span.
pub fn location(sources: &SourceMap, span: Span) -> String {
    let path = sources.get(span.file).map_or("?", |f| f.path.as_str());
    format!("{path}:{}:{}", span.line, span.col)
}

/// Whitespace-insensitive text, to compare items as written.
fn squash(text: &str) -> String {
    text.split_whitespace().collect()
}

pub use crate::rules::diagnostic::closest;

/// Small rule texts parsed for the passes' unit tests, and their diagnostics as `line:col
/// severity: message` lines.
#[cfg(test)]
pub(crate) mod test_support {
    use super::Context;
    use crate::rules::ast::RuleFile;
    use crate::rules::diagnostic::Diagnostic;
    use crate::rules::lexicon::Lexicon;
    use crate::rules::profile::Settings;
    use crate::rules::source::{RuleSource, SourceMap};
    use crate::rules::vocabulary::Vocabulary;

    /// Parses `text` as one rule file (which must have no syntax error).
    pub fn parse(text: &str) -> (SourceMap, RuleFile) {
        let mut sources = SourceMap::new();
        let id = sources.add("test.rules", text);
        let parsed = crate::rules::parser::parse_file(&sources, id);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let file = parsed.file.expect("a parsed file");
        (sources, file)
    }

    /// Runs `f` with a context of default settings, the embedded vocabulary and lexicons, and no
    /// language-specific feature.
    pub fn with_context<T>(sources: &SourceMap, f: impl FnOnce(&Context<'_>) -> T) -> T {
        let vocabulary = Vocabulary::embedded();
        let settings = Settings::defaults(&vocabulary);
        let source = RuleSource::embedded();
        let (lexicon, _) = Lexicon::load(
            &source,
            &crate::rules::load::every_lexicon(&source),
            &mut SourceMap::new(),
        );
        let ctx = Context {
            sources,
            lexicon: &lexicon,
            settings: &settings,
            vocabulary: &vocabulary,
            features: &Default::default(),
        };
        f(&ctx)
    }

    /// Each diagnostic as `line:col severity: message`.
    pub fn messages(_sources: &SourceMap, diagnostics: &[Diagnostic]) -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| {
                let at = d
                    .span
                    .map_or(String::new(), |s| format!("{}:{} ", s.line, s.col));
                let severity = if d.is_error() { "error" } else { "warning" };
                format!("{at}{severity}: {}", d.message)
            })
            .collect()
    }

    /// Checks a whole rule text with [`super::check_files`]; its diagnostics as [`messages`].
    pub fn check(text: &str) -> Vec<String> {
        let (sources, file) = parse(text);
        with_context(&sources, |ctx| {
            messages(
                &sources,
                &super::check_files(std::slice::from_ref(&file), ctx).2,
            )
        })
    }

    /// The diagnostics of one rule with `blocks` (its match, without and do blocks), without
    /// their positions.
    pub fn resolving(blocks: &str) -> Vec<String> {
        check(&format!("phase p\nrule r {{ {blocks} }}\n"))
            .into_iter()
            .map(|m| {
                m.split_once(' ')
                    .map_or(m.clone(), |(_, rest)| rest.to_string())
            })
            .collect()
    }
}
