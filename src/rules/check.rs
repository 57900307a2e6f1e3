//! The semantic checker: raw AST → [`CheckedRule`], collecting every error of every rule.
//!
//! What is checked (each error located by a span, rendered with a caret):
//! rules outside a phase, duplicate rule names, unknown or wrongly typed profile settings,
//! unknown node variables in constraints, order constraints, actions and templates, actions on
//! variables bound only inside a `without` block, edge variables used but not declared (or
//! declared twice, or on a negated edge), unknown lexicon lists, invalid regexes, unknown UPOS
//! tags, empty values, contradictory constraints (no value can satisfy all tests of a field, a
//! feature both required and forbidden, a node with two basic heads, an edge both required and
//! forbidden, a word-order cycle), `without` blocks that are empty, can never match, or always
//! match, rules without actions, invalid labels built from literal text, and examples (CoNLL-U
//! that does not parse, malformed `expect` lines), relations that are not UD's, features that are
//! neither UD's universal ones nor declared by the profile, enhancement names not declared in
//! `rules/vocabulary.toml`, and match patterns whose variables are not all connected by edges
//! (each separate group would multiply the search by the sentence length).
//!
//! The checked form is built for one profile's settings at the same time: guards are evaluated
//! and setting references substituted (see [`crate::rules::ast`]).

use super::ast::*;
use super::diagnostic::Diagnostic;
use super::lexicon::Lexicon;
use super::profile::{SettingType, SettingValue, Settings};
use super::source::SourceMap;
use super::vocabulary::{Items, Vocabulary};
use std::sync::Arc;
use crate::ud::{is_relation, is_universal_feature, UNIVERSAL_FEATURES};
use crate::conllu::{NodeId, RawBlock, Sentence};
use super::text_regex::TextRegex;
use rustc_hash::{FxHashMap, FxHashSet};

pub use crate::ud::UPOS_TAGS;

/// The candidate closest to `name` by edit distance (a transposition counts as one edit), if
/// close enough to be a likely typo. Names shorter than three characters get no suggestion:
/// every one-letter variable is one edit away from every other.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = name.chars().count() / 3;
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit && *d > 0)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// Optimal string alignment distance.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// The label `parts` give with each value from the input or from a matched edge standing in as
/// a value it can take (`dep` for an edge's label, `x` for text; text is cleaned when rendered,
/// so any is as good), optional parts in or out: what is left to check is the literal text.
fn label_skeleton(parts: &[TemplatePart], with_optional: bool) -> String {
    let mut label = String::new();
    for part in parts {
        if part.optional {
            if !with_optional {
                continue;
            }
            label.push(':');
        }
        match &part.value {
            TemplateValue::Literal(text) => label.push_str(text),
            TemplateValue::Edge { part: EdgeLabelPart::Label | EdgeLabelPart::Univ, .. } => label.push_str("dep"),
            _ => label.push('x'),
        }
    }
    label
}

/// Everything a rule is checked against.
pub struct Context<'a> {
    pub sources: &'a SourceMap,
    pub lexicon: &'a Lexicon,
    pub settings: &'a Settings,
    /// The declared enhancement names.
    pub vocabulary: &'a Vocabulary,
    /// Language-specific feature names the profile declares (UD's universal ones are built in).
    pub features: &'a [String],
}

/// Checks every rule of `files` (duplicate names are looked for across all of them) and builds
/// the checked rules for `ctx.settings`. Returns the rules whose guard holds, the names of those
/// whose guard does not, and every diagnostic (errors and warnings); the rules are only
/// meaningful when there is no error.
pub fn check_files(
    files: &[RuleFile],
    ctx: &Context<'_>,
) -> (Vec<CheckedRule>, Vec<String>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut seen: FxHashMap<&str, &Rule> = FxHashMap::default();
    let mut active = Vec::new();
    let mut inactive = Vec::new();
    for file in files {
        for rule in &file.rules {
            if let Some(first) = seen.get(rule.name.text.as_str()) {
                let at = location(ctx.sources, first.name.span);
                diagnostics.push(
                    Diagnostic::error(
                        rule.name.span,
                        format!("duplicate rule name `{}`", rule.name.text),
                    )
                    .with_note(format!("first defined at {at}")),
                );
            } else {
                seen.insert(&rule.name.text, rule);
            }
            let mut checker = RuleChecker::new(ctx, &file.path, &mut diagnostics);
            let checked = checker.rule(rule);
            let enabled = rule
                .guard
                .as_ref()
                .is_none_or(|g| eval_guard(g, ctx.settings));
            match checked {
                Some(checked) if enabled => active.push(checked),
                _ if !enabled => inactive.push(rule.name.text.clone()),
                _ => {}
            }
        }
    }
    (active, inactive, diagnostics)
}

/// `path:line:col` of a span.
pub fn location(sources: &SourceMap, span: Span) -> String {
    let path = sources.get(span.file).map_or("?", |f| f.path.as_str());
    format!("{path}:{}:{}", span.line, span.col)
}

/// Evaluates a (type-checked) guard under `settings`; ill-typed parts count as false.
pub fn eval_guard(guard: &Guard, settings: &Settings) -> bool {
    match &guard.kind {
        GuardKind::Setting(name) => settings.flag(&name.text),
        GuardKind::Equals { setting, value } => settings.text(&setting.text) == Some(value.text.as_str()),
        GuardKind::Contains { setting, value } => settings.list(&setting.text).contains(&value.text),
        GuardKind::Not(inner) => !eval_guard(inner, settings),
        GuardKind::And(parts) => parts.iter().all(|g| eval_guard(g, settings)),
        GuardKind::Or(parts) => parts.iter().any(|g| eval_guard(g, settings)),
    }
}

/// Reports unknown settings, settings of the wrong type, and texts a setting cannot hold
/// (`profile.gapping_node_place == "after_frist"`, `"gaping" in profile.annotates`: checked as
/// the setting's values in a profile are) in a guard.
pub fn check_guard(guard: &Guard, vocabulary: &Vocabulary, diagnostics: &mut Vec<Diagnostic>) {
    let mut expect = |name: &Name, value: Option<&Name>, wanted: SettingType, usage: &str| {
        match vocabulary.setting(&name.text) {
            None => diagnostics.push(vocabulary.unknown_setting(name.span, &name.text, "profile.")),
            Some(decl) if decl.kind != wanted => diagnostics.push(Diagnostic::error(
                name.span,
                format!(
                    "`profile.{}` is {}, but {usage} needs {}",
                    name.text,
                    decl.kind.describe(),
                    wanted.describe()
                ),
            )),
            Some(decl) => {
                if let Some(value) = value {
                    let problem =
                        vocabulary.item_problem(&name.text, decl.items, &decl.values, &value.text, value.span);
                    diagnostics.extend(problem);
                }
            }
        }
    };
    match &guard.kind {
        GuardKind::Setting(name) => expect(name, None, SettingType::Bool, "a condition on its own"),
        GuardKind::Equals { setting, value } => expect(setting, Some(value), SettingType::Text, "`==`"),
        GuardKind::Contains { setting, value } => expect(setting, Some(value), SettingType::List, "`in`"),
        GuardKind::Not(inner) => check_guard(inner, vocabulary, diagnostics),
        GuardKind::And(parts) | GuardKind::Or(parts) => {
            parts.iter().for_each(|g| check_guard(g, vocabulary, diagnostics))
        }
    }
}

/// Compiles a regex, reporting an error at `span` when it is invalid.
fn compile_regex(
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

/// Scope of node variables while checking one rule.
type Scope = FxHashMap<String, VarId>;

struct RuleChecker<'c, 'a> {
    ctx: &'c Context<'a>,
    path: &'c str,
    diagnostics: &'c mut Vec<Diagnostic>,
    /// Number of errors before this rule: more means the rule failed.
    errors_before: usize,
    vars: Vec<VarInfo>,
    edge_vars: Vec<EdgeVarInfo>,
    edge_index: FxHashMap<String, EdgeVarId>,
    /// Variables bound only inside some `without` block (for a better message in actions).
    without_only: FxHashSet<String>,
}

impl<'c, 'a> RuleChecker<'c, 'a> {
    fn new(ctx: &'c Context<'a>, path: &'c str, diagnostics: &'c mut Vec<Diagnostic>) -> Self {
        let errors_before = diagnostics.iter().filter(|d| d.is_error()).count();
        RuleChecker {
            ctx,
            path,
            diagnostics,
            errors_before,
            vars: Vec::new(),
            edge_vars: Vec::new(),
            edge_index: FxHashMap::default(),
            without_only: FxHashSet::default(),
        }
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    fn text(&self, span: Span) -> &str {
        self.ctx
            .sources
            .get(span.file)
            .and_then(|f| f.text.get(span.start..span.end))
            .unwrap_or_default()
    }

    fn failed(&self) -> bool {
        self.diagnostics.iter().filter(|d| d.is_error()).count() > self.errors_before
    }

    fn rule(&mut self, rule: &Rule) -> Option<CheckedRule> {
        if rule.phase.text.is_empty() {
            self.error(
                rule.name.span,
                format!(
                    "rule `{}` comes before any `phase NAME` line",
                    rule.name.text
                ),
            );
        }
        if let Some(guard) = &rule.guard {
            check_guard(guard, self.ctx.vocabulary, self.diagnostics);
        }

        // Edge variables are declared by positive edges of the match block, before anything
        // (including labels of the match block itself) can refer to them.
        for (index, edge) in rule.pattern.edges.iter().enumerate() {
            let Some(var) = &edge.var else { continue };
            if edge.negated {
                self.error(
                    var.span,
                    format!("`{}:` names a negated edge, which binds nothing", var.text),
                );
            } else if self.edge_index.contains_key(&var.text) {
                self.error(
                    var.span,
                    format!("edge variable `{}` is declared twice", var.text),
                );
            } else {
                self.edge_index
                    .insert(var.text.clone(), self.edge_vars.len());
                self.edge_vars.push(EdgeVarInfo {
                    name: var.text.clone(),
                    span: var.span,
                    edge: index,
                });
            }
        }
        for without in &rule.withouts {
            for edge in &without.edges {
                if let Some(var) = &edge.var {
                    self.error(
                        var.span,
                        "edge variables can only be declared in the match block",
                    );
                }
            }
        }

        let empty = Scope::default();
        let (pattern, mut scope) = self.pattern(&rule.pattern, &empty, VarOrigin::Match);
        self.connected(&rule.pattern, &empty);
        self.contradictions(&[&rule.pattern], &pattern, "this rule can never match");

        let mut withouts = Vec::new();
        for (i, without) in rule.withouts.iter().enumerate() {
            let (checked, local) = self.pattern(without, &scope, VarOrigin::Without(i));
            self.connected(without, &scope);
            for name in local.keys().filter(|n| !scope.contains_key(*n)) {
                self.without_only.insert(name.clone());
            }
            self.check_without(rule, without, &checked, &pattern);
            withouts.push(checked);
        }

        let mut actions = Vec::new();
        for (i, action) in rule.actions.iter().enumerate() {
            if let Some(a) = self.action(i, action, &mut scope) {
                actions.push(a);
            }
        }
        if rule.actions.is_empty() {
            self.error(
                rule.name.span,
                format!(
                    "rule `{}` has no actions (its `do` block is empty)",
                    rule.name.text
                ),
            );
        }
        let examples = rule
            .examples
            .iter()
            .filter_map(|e| self.example(e))
            .collect();
        if self.failed() {
            return None;
        }
        Some(CheckedRule {
            name: rule.name.text.clone(),
            phase: rule.phase.text.clone(),
            path: self.path.to_string(),
            span: rule.span,
            vars: std::mem::take(&mut self.vars),
            edge_vars: std::mem::take(&mut self.edge_vars),
            pattern,
            withouts,
            actions,
            examples,
            source: rule.clone(),
        })
    }

    // ---- patterns -------------------------------------------------------------------------

    /// Binds the block's new variables (in order of first mention) and compiles it. Returns the
    /// block and the scope inside it (outer variables plus its own).
    fn pattern(
        &mut self,
        pattern: &Pattern,
        outer: &Scope,
        origin: VarOrigin,
    ) -> (CheckedPattern, Scope) {
        let mut mentions: Vec<&Name> = Vec::new();
        mentions.extend(pattern.nodes.iter().map(|n| &n.var));
        for edge in &pattern.edges {
            mentions.push(&edge.from);
            mentions.push(&edge.to);
        }
        for order in &pattern.order {
            match order {
                OrderConstraint::Before { left, right, .. } => {
                    mentions.push(left.var());
                    mentions.push(right.var());
                }
                OrderConstraint::Distinct { a, b, .. } => {
                    mentions.push(a);
                    mentions.push(b);
                }
                OrderConstraint::Agree { left, right, .. } => {
                    mentions.push(&left.var);
                    mentions.push(&right.var);
                }
            }
        }
        mentions.sort_by_key(|n| n.span.start);
        let mut scope = outer.clone();
        let start = self.vars.len();
        for name in mentions {
            if !scope.contains_key(&name.text) {
                scope.insert(name.text.clone(), self.vars.len());
                self.vars.push(VarInfo {
                    name: name.text.clone(),
                    span: name.span,
                    origin,
                });
            }
        }
        let mut checked = CheckedPattern {
            new_vars: start..self.vars.len(),
            ..CheckedPattern::default()
        };

        // Node tests, declarations of one variable merged.
        let mut by_var: Vec<(VarId, Vec<FieldTest>)> = Vec::new();
        for decl in &pattern.nodes {
            let var = scope[&decl.var.text];
            let tests: Vec<FieldTest> = decl
                .constraints
                .iter()
                .filter_map(|c| self.constraint(c))
                .collect();
            match by_var.iter_mut().find(|(v, _)| *v == var) {
                Some((_, existing)) => existing.extend(tests),
                None => by_var.push((var, tests)),
            }
        }
        checked.nodes = by_var
            .into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(var, tests)| NodeTest { var, tests })
            .collect();

        for edge in &pattern.edges {
            let label = self.label_pattern(&edge.label, edge.var.as_ref());
            let var = edge
                .var
                .as_ref()
                .and_then(|v| self.edge_index.get(&v.text).copied())
                .filter(|_| origin == VarOrigin::Match);
            let depth = edge.repeat.and_then(|r| self.depth(edge, r));
            if let Some(label) = label {
                checked.edges.push(EdgeTest {
                    var,
                    depth,
                    from: scope[&edge.from.text],
                    to: scope[&edge.to.text],
                    layer: edge.layer,
                    label,
                    negated: edge.negated,
                    span: edge.span,
                });
            }
            if edge.from.text == edge.to.text {
                self.error(
                    edge.span,
                    format!(
                        "an edge from `{}` to itself can never match",
                        edge.from.text
                    ),
                );
            }
        }
        for order in &pattern.order {
            match order {
                OrderConstraint::Before {
                    left,
                    right,
                    immediately,
                    span,
                } => {
                    let operand = |o: &OrderOperand| match o {
                        OrderOperand::Node(n) => Operand::Node(scope[&n.text]),
                        OrderOperand::Subtree(n) => Operand::Subtree(scope[&n.text]),
                    };
                    if left.var().text == right.var().text {
                        self.error(
                            *span,
                            format!("`{}` cannot come before itself", left.var().text),
                        );
                    }
                    checked.order.push(OrderTest::Before {
                        left: operand(left),
                        right: operand(right),
                        immediately: *immediately,
                    });
                }
                OrderConstraint::Distinct { a, b, span } => {
                    if a.text == b.text {
                        self.error(*span, format!("`{} != {}` can never hold", a.text, b.text));
                    }
                    checked
                        .order
                        .push(OrderTest::Distinct(scope[&a.text], scope[&b.text]));
                }
                OrderConstraint::Agree { left, right, negated, span } => {
                    let known_left = self.known_feature(&left.feature.text, left.feature.span);
                    let known_right = self.known_feature(&right.feature.text, right.feature.span);
                    if left.var.text == right.var.text {
                        self.error(
                            *span,
                            format!("this compares `{}` with itself: agreement is between two nodes", left.var.text),
                        );
                    } else if known_left && known_right {
                        checked.order.push(OrderTest::Agree {
                            left: scope[&left.var.text],
                            left_feature: left.feature.text.clone(),
                            right: scope[&right.var.text],
                            right_feature: right.feature.text.clone(),
                            negated: *negated,
                        });
                    }
                }
            }
        }
        (checked, scope)
    }

    /// Checks a descent's bounds and where it may stand: on a positive, unnamed basic edge
    /// (the enhanced graph may have cycles; a path binds no single edge).
    fn depth(&mut self, edge: &EdgePattern, repeat: Repeat) -> Option<Depth> {
        let limit = Repeat::LIMIT;
        let problem = if edge.layer == Layer::Enhanced {
            Some("a descent follows basic edges only: write `-[..]->+`, not `=[..]=>+`".to_string())
        } else if edge.negated {
            Some("a descent cannot be negated: put it in a `without` block".to_string())
        } else if let Some(var) = &edge.var {
            Some(format!("a descent is a path, not one edge: it cannot be named (`{}:`)", var.text))
        } else if repeat.min == 0 {
            Some("a descent has at least one edge (`{1,n}`): the two ends are distinct nodes".to_string())
        } else if repeat.min > repeat.max {
            Some(format!("the least depth {} is above the greatest {}", repeat.min, repeat.max))
        } else if repeat.max > limit {
            Some(format!("a descent goes at most {limit} edges deep, not {}", repeat.max))
        } else {
            None
        };
        match problem {
            Some(message) => {
                self.error(repeat.span, message);
                None
            }
            None => Some(Depth { min: repeat.min as u8, max: repeat.max as u8 }),
        }
    }

    fn constraint(&mut self, c: &Constraint) -> Option<FieldTest> {
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
                for value in values {
                    if value.is_empty() {
                        self.error(c.span, "an empty value never matches (a missing value is written `_` and tested with `!Field`)");
                        return None;
                    }
                    if c.field == Field::Upos
                        && !case_insensitive
                        && !UPOS_TAGS.contains(&value.as_str())
                    {
                        self.diagnostics.push(super::vocabulary::unknown_upos(c.span, value));
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
                let words = self.setting_list(name, &[Items::Text, Items::Upos], "a node constraint")?;
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

    fn label_pattern(&mut self, label: &LabelPattern, own: Option<&Name>) -> Option<LabelTest> {
        Some(match label {
            LabelPattern::Any { .. } => LabelTest::Any,
            LabelPattern::Exact { label, span } => {
                self.known_relation(label.split(':').next().unwrap_or_default(), *span)?;
                LabelTest::Exact(label.clone())
            }
            LabelPattern::Universal { univ, span } => {
                self.known_relation(univ, *span)?;
                LabelTest::Universal(univ.clone())
            }
            LabelPattern::Subtype { sub, .. } => LabelTest::Subtype(sub.clone()),
            LabelPattern::Regex { pattern, span } => {
                LabelTest::Regex(compile_regex(pattern, false, *span, self.diagnostics)?)
            }
            LabelPattern::SameLabel { edge, span } => {
                if own.is_some_and(|o| o.text == edge.text) {
                    self.error(
                        *span,
                        format!("the label of `{}` cannot refer to itself", edge.text),
                    );
                    return None;
                }
                LabelTest::SameLabel(self.edge_var(edge)?)
            }
            LabelPattern::Setting { name, .. } => {
                let items = self.setting_list(name, &[Items::Relation], "an edge pattern")?;
                // Checked when the profile was read: `univ`, `univ:sub` or `univ:*`.
                LabelTest::Alternatives(
                    items
                        .iter()
                        .map(|item| match item.strip_suffix(":*") {
                            Some(univ) => LabelTest::Universal(univ.to_string()),
                            None => LabelTest::Exact(item.clone()),
                        })
                        .collect(),
                )
            }
            LabelPattern::Alternatives { options, .. } => {
                let options: Vec<Option<LabelTest>> =
                    options.iter().map(|o| self.label_pattern(o, own)).collect();
                LabelTest::Alternatives(options.into_iter().collect::<Option<_>>()?)
            }
            LabelPattern::Not { inner, .. } => {
                LabelTest::Not(Box::new(self.label_pattern(inner, own)?))
            }
        })
    }

    /// The items of list setting `name` (`@profile.NAME`), which `usage` needs to hold one of
    /// the kinds `wanted`; reports it when it is no such list.
    fn setting_list(&mut self, name: &Name, wanted: &[Items], usage: &str) -> Option<&'a [String]> {
        let vocabulary = self.ctx.vocabulary;
        let Some(decl) = vocabulary.setting(&name.text) else {
            self.diagnostics.push(vocabulary.unknown_setting(name.span, &name.text, "@profile."));
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

    fn edge_var(&mut self, name: &Name) -> Option<EdgeVarId> {
        if let Some(&e) = self.edge_index.get(&name.text) {
            return Some(e);
        }
        let mut d = Diagnostic::error(
            name.span,
            format!("edge variable `{}` is not declared", name.text),
        );
        d = match closest(&name.text, self.edge_index.keys().map(String::as_str)) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(format!(
                "declare it on an edge of the match block: `{}: A -[...]-> B`",
                name.text
            )),
        };
        self.diagnostics.push(d);
        None
    }

    /// Reports what makes a block impossible: `blocks` are the patterns whose constraints hold
    /// together (the match block, plus the `without` block being checked), `checked` the block's
    /// compiled form (plus, for a `without`, the match's).
    fn contradictions(
        &mut self,
        blocks: &[&Pattern],
        checked: &CheckedPattern,
        consequence: &str,
    ) -> bool {
        let mut found = false;
        // Field tests of each node across the blocks.
        let mut tests: FxHashMap<VarId, Vec<&FieldTest>> = FxHashMap::default();
        for node in &checked.nodes {
            tests.entry(node.var).or_default().extend(node.tests.iter());
        }
        let mut vars: Vec<_> = tests.keys().copied().collect();
        vars.sort_unstable();
        for var in vars {
            let var_tests = &tests[&var];
            let mut fields: Vec<&Field> = var_tests.iter().map(|t| &t.field).collect();
            fields.dedup();
            let mut reported = FxHashSet::default();
            for field in fields {
                if !reported.insert(field.clone()) {
                    continue;
                }
                let on_field: Vec<&FieldTest> = var_tests
                    .iter()
                    .copied()
                    .filter(|t| t.field == *field)
                    .collect();
                if let Some(reason) = field_contradiction(&on_field) {
                    let span = on_field.last().map_or(Span::default(), |t| t.span);
                    let name = &self.vars[var].name;
                    self.diagnostics.push(
                        Diagnostic::error(
                            span,
                            format!("contradictory constraints on `{field}` of `{name}`: {reason}"),
                        )
                        .with_note(consequence.to_string()),
                    );
                    found = true;
                }
            }
        }
        // Basic tree: one head per node, one label per edge; required vs forbidden edges.
        let edges: Vec<&EdgeTest> = checked.edges.iter().collect();
        let raw_edges: Vec<&EdgePattern> = blocks.iter().flat_map(|b| b.edges.iter()).collect();
        for (i, a) in edges.iter().enumerate() {
            for b in &edges[i + 1..] {
                if a.negated
                    || b.negated
                    || a.depth.is_some()
                    || b.depth.is_some()
                    || a.layer != Layer::Basic
                    || b.layer != Layer::Basic
                    || a.to != b.to
                {
                    continue;
                }
                if a.from != b.from {
                    let name = &self.vars[a.to].name;
                    self.diagnostics.push(
                        Diagnostic::error(
                            b.span,
                            format!("`{name}` would need two heads in the basic tree"),
                        )
                        .with_note(consequence.to_string()),
                    );
                    found = true;
                } else if let (LabelTest::Exact(x), LabelTest::Exact(y)) = (&a.label, &b.label) {
                    if x != y {
                        self.diagnostics.push(
                            Diagnostic::error(
                                b.span,
                                format!("a basic edge cannot be both `{x}` and `{y}`"),
                            )
                            .with_note(consequence.to_string()),
                        );
                        found = true;
                    }
                }
            }
        }
        for neg in raw_edges.iter().filter(|e| e.negated) {
            let same = raw_edges.iter().find(|pos| {
                !pos.negated
                    && pos.layer == neg.layer
                    && pos.from.text == neg.from.text
                    && pos.to.text == neg.to.text
                    && squash(self.text(pos.label.span())) == squash(self.text(neg.label.span()))
            });
            if same.is_some() {
                self.diagnostics.push(
                    Diagnostic::error(neg.span, "this edge is both required and forbidden")
                        .with_note(consequence.to_string()),
                );
                found = true;
            }
        }
        // Word-order cycles among plain nodes.
        let before: Vec<(VarId, VarId)> = checked
            .order
            .iter()
            .filter_map(|o| match o {
                OrderTest::Before { left, right, .. } => {
                    let var = |o: &Operand| match o {
                        Operand::Node(v) | Operand::Subtree(v) => *v,
                    };
                    Some((var(left), var(right)))
                }
                OrderTest::Distinct(..) | OrderTest::Agree { .. } => None,
            })
            .filter(|(a, b)| a != b)
            .collect();
        if let Some(cycle_at) = order_cycle(&before) {
            let span = blocks
                .iter()
                .flat_map(|b| b.order.iter())
                .find_map(|o| match o {
                    OrderConstraint::Before { left, span, .. }
                        if left.var().text == self.vars[cycle_at].name =>
                    {
                        Some(*span)
                    }
                    _ => None,
                });
            if let Some(span) = span {
                self.diagnostics.push(
                    Diagnostic::error(span, "these word-order constraints form a cycle")
                        .with_note(consequence.to_string()),
                );
                found = true;
            }
        }
        found
    }

    fn check_without(
        &mut self,
        rule: &Rule,
        without: &Pattern,
        checked: &CheckedPattern,
        matched: &CheckedPattern,
    ) {
        if without.nodes.is_empty() && without.edges.is_empty() && without.order.is_empty() {
            self.error(
                without.span,
                "an empty `without` block always matches, so the rule could never apply",
            );
            return;
        }
        // Together with the match block: if impossible, the block never matches.
        let mut combined = matched.clone();
        combined.nodes.extend(checked.nodes.iter().cloned());
        combined.edges.extend(checked.edges.iter().cloned());
        combined.order.extend(checked.order.iter().cloned());
        let before = self.diagnostics.len();
        self.contradictions(
            &[&rule.pattern, without],
            &combined,
            "so this `without` block can never match and has no effect",
        );
        // Keep only diagnostics that involve the without block.
        let wspan = without.span;
        let mut i = before;
        while i < self.diagnostics.len() {
            let inside = self.diagnostics[i]
                .span
                .is_some_and(|s| s.start >= wspan.start && s.end <= wspan.end);
            if inside {
                i += 1;
            } else {
                self.diagnostics.remove(i);
            }
        }
        // Always matches: nothing new, and every item repeats the match block.
        if checked.new_vars.is_empty() {
            let match_items: FxHashSet<String> = items_text(self, &rule.pattern);
            let own: FxHashSet<String> = items_text(self, without);
            if own.iter().all(|item| match_items.contains(item)) {
                self.error(wspan, "this `without` block only repeats the match block, so it always matches and the rule could never apply");
            }
        }
    }

    // ---- actions --------------------------------------------------------------------------

    /// A node variable an action or template uses.
    fn action_var(&mut self, name: &Name, scope: &Scope) -> Option<VarId> {
        if let Some(&v) = scope.get(&name.text) {
            return Some(v);
        }
        let d = if self.without_only.contains(&name.text) {
            Diagnostic::error(name.span, format!("`{}` is only bound inside a `without` block; actions can only use variables of the match block", name.text))
        } else {
            let d = Diagnostic::error(name.span, format!("unknown node variable `{}`", name.text));
            let mut known: Vec<&str> = scope.keys().map(String::as_str).collect();
            known.sort_unstable();
            match closest(&name.text, known.iter().copied()) {
                Some(s) => d.with_note(format!("did you mean `{s}`?")),
                None => d.with_note(format!(
                    "variables bound by the match block: {}",
                    known.join(", ")
                )),
            }
        };
        self.diagnostics.push(d);
        None
    }

    fn action(
        &mut self,
        index: usize,
        action: &Action,
        scope: &mut Scope,
    ) -> Option<CheckedAction> {
        match &action.kind {
            ActionKind::AddEdge { from, to, label } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                let label = self.template(label, scope);
                self.distinct_ends(from, to, action.span);
                Some(CheckedAction::AddEdge {
                    from: f?,
                    to: t?,
                    label: label?,
                })
            }
            ActionKind::DeleteEdge { from, to, label } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                let label = self.label_pattern(label, None);
                Some(CheckedAction::DeleteEdge {
                    from: f?,
                    to: t?,
                    label: label?,
                })
            }
            ActionKind::Relabel {
                from,
                to,
                label,
                new_label,
            } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                let label = self.label_pattern(label, None);
                let new_label = self.template(new_label, scope);
                Some(CheckedAction::Relabel {
                    from: f?,
                    to: t?,
                    label: label?,
                    new_label: new_label?,
                })
            }
            ActionKind::AddEmptyNode {
                var,
                copy_of,
                place,
                anchor,
            } => {
                let c = copy_of.as_ref().map(|v| self.action_var(v, scope));
                let a = self.action_var(anchor, scope);
                if scope.contains_key(&var.text) {
                    self.error(
                        var.span,
                        format!(
                            "`{}` is already bound; the new empty node needs a new name",
                            var.text
                        ),
                    );
                    return None;
                }
                let id = self.vars.len();
                self.vars.push(VarInfo {
                    name: var.text.clone(),
                    span: var.span,
                    origin: VarOrigin::Action(index),
                });
                scope.insert(var.text.clone(), id);
                Some(CheckedAction::AddEmptyNode {
                    var: id,
                    copy_of: match c {
                        Some(c) => Some(c?),
                        None => None,
                    },
                    place: *place,
                    anchor: a?,
                })
            }
            ActionKind::TransferEdges {
                mode,
                direction,
                from,
                to,
                matching,
            } => {
                let (f, t) = (self.action_var(from, scope), self.action_var(to, scope));
                self.distinct_ends(from, to, action.span);
                let matching = match matching {
                    Some(p) => self.label_pattern(p, None)?,
                    None => LabelTest::Any,
                };
                Some(CheckedAction::TransferEdges {
                    mode: *mode,
                    direction: *direction,
                    from: f?,
                    to: t?,
                    matching,
                })
            }
        }
    }

    fn distinct_ends(&mut self, from: &Name, to: &Name, span: Span) {
        if from.text == to.text {
            self.error(
                span,
                format!(
                    "`{}` to itself: an edge needs two distinct nodes",
                    from.text
                ),
            );
        }
    }

    /// Checks a label template and resolves it for the profile's settings.
    fn template(&mut self, expr: &LabelExpr, scope: &Scope) -> Option<Template> {
        let mut ok = true;
        let mut parts = Vec::new();
        let mut all_literal = true;
        for part in &expr.parts {
            if let Some(guard) = &part.guard {
                check_guard(guard, self.ctx.vocabulary, self.diagnostics);
            }
            let value = match &part.value {
                PartValue::Literal(text) => Some(TemplateValue::Literal(text.clone())),
                PartValue::Edge { edge, part } => {
                    self.edge_var(edge).map(|e| TemplateValue::Edge {
                        edge: e,
                        part: *part,
                    })
                }
                PartValue::Lemma(n) => self.action_var(n, scope).map(TemplateValue::Lemma),
                PartValue::Form(n) => self.action_var(n, scope).map(TemplateValue::Form),
                PartValue::Marker(n) => {
                    let settings = self.ctx.settings;
                    let spelling = MarkerSpelling {
                        fixed_forms: settings.flag("fixed_marker_forms"),
                        form_upos: settings
                            .list("marker_form_upos")
                            .iter()
                            .fold(0, |bits, upos| bits | crate::graph::upos_bit(upos)),
                        first_word: settings.flag("fixed_marker_first"),
                    };
                    self.action_var(n, scope).map(|node| TemplateValue::Marker { node, spelling })
                }
                PartValue::Feature { node, feature } => {
                    let valid = feature.text.starts_with(|c: char| c.is_ascii_uppercase())
                        && feature
                            .text
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '[' || c == ']');
                    if !valid {
                        self.error(feature.span, format!("invalid feature name `{}`: features are written like `Case`, `Number[psor]`", feature.text));
                    }
                    let valid = valid && self.known_feature(&feature.text, feature.span);
                    self.action_var(node, scope)
                        .filter(|_| valid)
                        .map(|n| TemplateValue::Feature {
                            node: n,
                            feature: feature.text.clone(),
                        })
                }
                PartValue::Setting(name) => match (
                    self.ctx.vocabulary.setting(&name.text).map(|d| d.kind),
                    self.ctx.settings.get(&name.text),
                ) {
                    (Some(SettingType::Text), Some(SettingValue::Text(text))) => {
                        Some(TemplateValue::Literal(text.to_string()))
                    }
                    (Some(other), _) => {
                        self.error(
                            name.span,
                            format!(
                                "`profile.{}` is {}; a label part needs a string",
                                name.text,
                                other.describe()
                            ),
                        );
                        None
                    }
                    (None, _) => {
                        let d = self.ctx.vocabulary.unknown_setting(name.span, &name.text, "profile.");
                        self.diagnostics.push(d);
                        None
                    }
                },
            };
            let Some(value) = value else {
                ok = false;
                continue;
            };
            if !matches!(part.value, PartValue::Literal(_)) {
                all_literal = false;
            }
            let enabled = part
                .guard
                .as_ref()
                .is_none_or(|g| eval_guard(g, self.ctx.settings));
            if enabled {
                parts.push(TemplatePart {
                    value,
                    optional: part.optional,
                });
            }
        }
        if !ok {
            return None;
        }
        if expr.parts.is_empty() {
            self.error(expr.span, "empty label");
            return None;
        }
        // The universal part, when literal text spells it: all of a leading literal that ends
        // at `:` or is followed only by optional parts (which write `:value`).
        if let Some(TemplatePart { value: TemplateValue::Literal(lead), .. }) = parts.first() {
            let rest_optional = parts[1..].iter().all(|p| p.optional);
            let univ = match lead.split_once(':') {
                Some((univ, _)) => Some(univ),
                None if rest_optional => Some(lead.as_str()),
                None => None,
            };
            // A malformed name (`Nsubj`) is left to the grammar's message below.
            if let Some(univ) = univ.filter(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_lowercase())) {
                self.known_relation(univ, expr.span)?;
            }
        }
        // The literal text must fit UD's label grammar whatever the values: a rule can then
        // write no label that `validate` refuses (values are cleaned when rendered).
        for with_optional in [true, false] {
            let label = label_skeleton(&parts, with_optional);
            if label.is_empty() {
                continue;
            }
            if let Some(problem) = crate::ud::enhanced_label_problem(&label) {
                let message = if all_literal {
                    problem
                } else {
                    format!("this template cannot give a valid label: {problem} (its values standing in as `dep` and `x`)")
                };
                self.error(expr.span, message);
                return None;
            }
        }
        Some(Template { parts })
    }

    // ---- UD vocabulary --------------------------------------------------------------------

    /// Whether `univ` is a UD relation; reports it at `span` when not.
    fn known_relation(&mut self, univ: &str, span: Span) -> Option<()> {
        if is_relation(univ) {
            return Some(());
        }
        self.diagnostics.push(super::vocabulary::unknown_relation(span, univ));
        None
    }

    /// Whether `name` (`Case`, `Number[psor]`) is a universal feature or one the profile
    /// declares; reports it at `span` when not.
    fn known_feature(&mut self, name: &str, span: Span) -> bool {
        let base = name.split_once('[').map_or(name, |(base, _)| base);
        if is_universal_feature(name) || self.ctx.features.iter().any(|f| f == base || f == name) {
            return true;
        }
        let candidates = UNIVERSAL_FEATURES
            .iter()
            .map(|(f, _)| *f)
            .chain(self.ctx.features.iter().map(String::as_str));
        let d = Diagnostic::error(span, format!("unknown feature `{base}`"));
        self.diagnostics.push(match closest(base, candidates) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(
                "not a UD universal feature: declare a language-specific one in the profile's \
                 `features` list",
            ),
        });
        false
    }

    /// Reports variables of `pattern` that no chain of its edges ties to the others (or, in a
    /// `without` block, to the match's variables in `outer`): the matcher would try every word
    /// for each separate group, multiplying the work by the sentence length each time.
    fn connected(&mut self, pattern: &Pattern, outer: &Scope) {
        // Union-find over the block's variables; the outer ones are one group already bound.
        let mut names: Vec<&Name> = Vec::new();
        let mut mentions: Vec<&Name> = pattern.nodes.iter().map(|n| &n.var).collect();
        for edge in &pattern.edges {
            mentions.extend([&edge.from, &edge.to]);
        }
        for order in &pattern.order {
            match order {
                OrderConstraint::Before { left, right, .. } => {
                    mentions.extend([left.var(), right.var()])
                }
                OrderConstraint::Distinct { a, b, .. } => mentions.extend([a, b]),
                OrderConstraint::Agree { left, right, .. } => mentions.extend([&left.var, &right.var]),
            }
        }
        mentions.sort_by_key(|n| n.span.start);
        let mut index: FxHashMap<&str, usize> = FxHashMap::default();
        for name in mentions {
            if !index.contains_key(name.text.as_str()) {
                index.insert(&name.text, names.len());
                names.push(name);
            }
        }
        let mut parent: Vec<usize> = (0..names.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let position = |text: &str| index.get(text).copied();
        let bound: Vec<usize> = (0..names.len())
            .filter(|&i| outer.contains_key(&names[i].text))
            .collect();
        for pair in bound.windows(2) {
            let (a, b) = (root(&mut parent, pair[0]), root(&mut parent, pair[1]));
            parent[a] = b;
        }
        for edge in pattern.edges.iter().filter(|e| !e.negated) {
            if let (Some(a), Some(b)) = (position(&edge.from.text), position(&edge.to.text)) {
                let (a, b) = (root(&mut parent, a), root(&mut parent, b));
                parent[a] = b;
            }
        }
        let main = match bound.first() {
            Some(&b) => root(&mut parent, b),
            None if names.is_empty() => return,
            None => root(&mut parent, 0),
        };
        let roots: Vec<usize> = (0..names.len()).map(|i| root(&mut parent, i)).collect();
        let members = |r: usize| -> Vec<&str> {
            (0..names.len())
                .filter(|&j| roots[j] == r)
                .map(|j| names[j].text.as_str())
                .collect()
        };
        let others = members(main);
        // Each group once, in order of first mention; a few are enough to show the problem.
        const SHOWN: usize = 5;
        let mut seen: FxHashSet<usize> = FxHashSet::default();
        let firsts: Vec<usize> = (0..names.len())
            .filter(|&i| roots[i] != main && seen.insert(roots[i]))
            .collect();
        for (k, &i) in firsts.iter().take(SHOWN).enumerate() {
            let group = members(roots[i]);
            let what = if group.len() == 1 {
                format!("`{}` is", group[0])
            } else {
                format!("`{}` are", group.join("`, `"))
            };
            let d = Diagnostic::error(
                names[i].span,
                format!(
                    "{what} not connected to `{}` by an edge: the matcher would try every word \
                     for each unconnected group, multiplying the work by the sentence length",
                    others.join("`, `")
                ),
            );
            let mut d = d.with_note(format!(
                "link it with an edge of this block, e.g. `{} -[dep]-> {}` or a chain of edges \
                 (order constraints such as `<<` do not connect)",
                others.first().copied().unwrap_or("H"),
                group[0]
            ));
            if k + 1 == SHOWN && firsts.len() > SHOWN {
                d = d.with_note(format!("and {} more unconnected groups", firsts.len() - SHOWN));
            }
            self.diagnostics.push(d);
        }
    }

    // ---- examples -------------------------------------------------------------------------

    fn example(&mut self, example: &Example) -> Option<CheckedExample> {
        let mut ok = true;
        let block = RawBlock {
            bytes: example.conllu.clone().into_bytes(),
            first_line: 1,
            starts_input: false,
        };
        let line_span = |checker: &Self, index: usize| -> Span {
            let line = example
                .source_lines
                .get(index.saturating_sub(1))
                .copied()
                .unwrap_or(example.span.line);
            let file = checker.ctx.sources.get(example.span.file);
            let start = file.map_or(example.span.start, |f| f.line_start(line));
            let text = file.map_or("", |f| f.line_text(line));
            let indent = text.len() - text.trim_start().len();
            checker.ctx.sources.span(
                example.span.file,
                start + indent,
                start + text.trim_end().len(),
            )
        };
        let mut ids: FxHashSet<String> = FxHashSet::default();
        if example.conllu.is_empty() {
            self.error(example.span, "the example has no words");
            ok = false;
        } else {
            match Sentence::parse(block) {
                Ok(sentence) => {
                    for token in sentence.tokens_in_order() {
                        ids.insert(sentence.column(token, 0).to_string());
                    }
                }
                Err(error) => {
                    let (_, e) = *error;
                    let span = line_span(self, e.line);
                    self.error(span, format!("example is not valid CoNLL-U: {}", e.message));
                    ok = false;
                }
            }
        }
        let mut expect = Vec::new();
        for expectation in &example.expects {
            if let Some(guard) = &expectation.guard {
                check_guard(guard, self.ctx.vocabulary, self.diagnostics);
            }
            if expectation.lines.is_empty() {
                self.error(expectation.span, "an empty `expect` block checks nothing");
                ok = false;
            }
            let enabled = expectation
                .guard
                .as_ref()
                .is_none_or(|g| eval_guard(g, self.ctx.settings));
            for line in &expectation.lines {
                let id_ok = NodeId::parse(&line.id).is_some_and(|id| !id.is_root());
                if !id_ok {
                    self.error(
                        line.span,
                        format!("`{}` is not a word or empty-node ID", line.id),
                    );
                    ok = false;
                    continue;
                }
                if !line.id.contains('.') && !ids.is_empty() && !ids.contains(&line.id) {
                    self.error(line.span, format!("the example has no word {}", line.id));
                    ok = false;
                }
                if let Err(reason) = check_deps(&line.deps) {
                    self.error(
                        line.span,
                        format!("expected DEPS `{}`: {reason}", line.deps),
                    );
                    ok = false;
                }
                if enabled {
                    expect.push((line.id.clone(), line.deps.clone()));
                }
            }
        }
        ok.then(|| CheckedExample {
            conllu: example.conllu.clone(),
            expect,
            span: example.span,
        })
    }
}

/// Checks a DEPS value: `_` or `head:label|head:label`, heads word or empty-node IDs (or 0).
fn check_deps(deps: &str) -> Result<(), String> {
    if deps.is_empty() {
        return Err("missing (write `_` for none)".to_string());
    }
    if deps == "_" {
        return Ok(());
    }
    for item in deps.split('|') {
        let Some((head, label)) = item.split_once(':') else {
            return Err(format!("`{item}` is not `head:label`"));
        };
        if NodeId::parse(head).is_none() {
            return Err(format!("`{head}` is not a node ID"));
        }
        if let Some(problem) = crate::ud::enhanced_label_problem(label) {
            return Err(format!("`{label}` is not a valid label: {problem}"));
        }
    }
    Ok(())
}

/// Whitespace-insensitive text, to compare items as written.
fn squash(text: &str) -> String {
    text.split_whitespace().collect()
}

/// Every item of a block as squashed text (for "repeats the match block").
fn items_text(checker: &RuleChecker<'_, '_>, pattern: &Pattern) -> FxHashSet<String> {
    let mut items = FxHashSet::default();
    for node in &pattern.nodes {
        for c in &node.constraints {
            items.insert(format!(
                "{}[{}]",
                node.var.text,
                squash(checker.text(c.span))
            ));
        }
        if node.constraints.is_empty() {
            items.insert(node.var.text.clone());
        }
    }
    for edge in &pattern.edges {
        let text = squash(checker.text(edge.span));
        // Drop an `e:` prefix: a named edge and an unnamed one test the same thing.
        let text = match &edge.var {
            Some(v) => text
                .strip_prefix(&format!("{}:", v.text))
                .unwrap_or(&text)
                .to_string(),
            None => text,
        };
        items.insert(text);
    }
    for order in &pattern.order {
        let span = match order {
            OrderConstraint::Before { span, .. }
            | OrderConstraint::Distinct { span, .. }
            | OrderConstraint::Agree { span, .. } => *span,
        };
        items.insert(squash(checker.text(span)));
    }
    items
}

/// The first variable on a cycle of `before` pairs, if any.
fn order_cycle(before: &[(VarId, VarId)]) -> Option<VarId> {
    let nodes: FxHashSet<VarId> = before.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let mut nodes: Vec<VarId> = nodes.into_iter().collect();
    nodes.sort_unstable();
    // 0 = unvisited, 1 = on the stack, 2 = done.
    fn visit(n: VarId, before: &[(VarId, VarId)], state: &mut FxHashMap<VarId, u8>) -> bool {
        match state.get(&n) {
            Some(1) => return true,
            Some(2) => return false,
            _ => {}
        }
        state.insert(n, 1);
        for (_, next) in before.iter().filter(|(a, _)| *a == n) {
            if visit(*next, before, state) {
                return true;
            }
        }
        state.insert(n, 2);
        false
    }
    let mut state = FxHashMap::default();
    nodes.into_iter().find(|&n| {
        let mut fresh = FxHashMap::default();
        let cyclic = visit(n, before, &mut fresh);
        state.extend(fresh);
        cyclic
    })
}

/// Why the tests of one field of one node can never hold together, if they cannot.
fn field_contradiction(tests: &[&FieldTest]) -> Option<String> {
    let absent = tests
        .iter()
        .any(|t| t.negated && matches!(t.test, CheckedValueTest::Present));
    let requires_value = tests.iter().any(|t| !t.negated);
    if absent && requires_value {
        return Some("required to be absent and to have a value".to_string());
    }
    // Candidate values: the intersection of the positive case-sensitive alternatives.
    let mut candidates: Option<Vec<&str>> = None;
    for t in tests {
        if let (
            false,
            CheckedValueTest::Equals {
                values,
                case_insensitive: false,
            },
        ) = (t.negated, &t.test)
        {
            candidates = Some(match candidates {
                None => values.iter().map(String::as_str).collect(),
                Some(c) => c
                    .into_iter()
                    .filter(|v| values.iter().any(|w| w == v))
                    .collect(),
            });
        }
    }
    let candidates = candidates?;
    let survivors: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|v| tests.iter().all(|t| value_passes(t, v)))
        .collect();
    if survivors.is_empty() {
        let mut shown = candidates.clone();
        shown.dedup();
        if shown.is_empty() {
            return Some("the alternatives have no value in common".to_string());
        }
        return Some(format!(
            "no value satisfies them all (candidates: {})",
            shown.join(", ")
        ));
    }
    None
}

fn value_passes(test: &FieldTest, value: &str) -> bool {
    let positive = match &test.test {
        CheckedValueTest::Equals {
            values,
            case_insensitive,
        } => {
            if *case_insensitive {
                let lower = value.to_lowercase();
                values.contains(&lower)
            } else {
                values.iter().any(|v| v == value)
            }
        }
        CheckedValueTest::Regex(re) => re.is_match(value),
        CheckedValueTest::InLexicon { words, .. } => words.contains(value),
        CheckedValueTest::Present => true,
    };
    positive != test.negated
}
