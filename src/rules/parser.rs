//! Text → raw AST ([`RuleFile`]) with pest.
//!
//! A syntax error stops the file (pest reports the first one, rendered like every other
//! diagnostic). Errors the grammar cannot express but that need no context — an unknown field
//! name, an unknown regex flag, an unknown template function — are collected here while the rest
//! of the file is still built (the offending piece is left out), so that the checker can report
//! its own errors for the same file in the same run.

use super::ast::*;
use super::diagnostic::Diagnostic;
use super::source::SourceMap;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser as _;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "rules/grammar.pest"]
    pub struct RuleParser;
}

use grammar::{Rule as R, RuleParser};

/// A parsed file and the errors found while building it. `file` is `None` after a syntax error.
#[derive(Debug)]
pub struct Parsed {
    pub file: Option<RuleFile>,
    pub errors: Vec<Diagnostic>,
}

/// Parses file `file` of `sources`.
pub fn parse_file(sources: &SourceMap, file: FileId) -> Parsed {
    let Some(source) = sources.get(file) else {
        return Parsed {
            file: None,
            errors: vec![Diagnostic::file_error("", "no such source file")],
        };
    };
    let text = &source.text;
    // pest descends once per level: refuse absurd nesting before it overflows the stack.
    if let Some((start, end)) = too_deep(text) {
        let message = format!(
            "nesting deeper than {MAX_NESTING} levels (parentheses and `not`): simplify the condition or pattern"
        );
        return Parsed {
            file: None,
            errors: vec![Diagnostic::error(sources.span(file, start, end), message)],
        };
    }
    let mut builder = Builder {
        sources,
        file,
        offset: 0,
        errors: Vec::new(),
    };
    let mut out = RuleFile {
        file,
        path: source.path.clone(),
        phases: Vec::new(),
        rules: Vec::new(),
    };
    // One top-level item (`phase` line or rule) at a time: pest keeps a token for every
    // grammar rule it matched until its pairs are dropped, so parsing the whole file at once
    // held ~20 bytes of tokens per byte of source (a 5 MB file: 95 MB before the AST was built).
    let (mut at, mut previous) = (skip_blank(text, 0), 0);
    while at < text.len() {
        let item = &text[at..];
        let kind = if starts_keyword(item, "phase") {
            R::phase_decl
        } else {
            R::rule
        };
        let Ok(mut pairs) = RuleParser::parse(kind, item) else {
            return Parsed {
                file: None,
                errors: vec![syntax_error(sources, file, text, previous)],
            };
        };
        let pair = pairs.next().expect("a parsed item is one pair");
        let end = at + pair.as_span().end();
        builder.offset = at;
        builder.item(pair, &mut out);
        (previous, at) = (at, skip_blank(text, end));
    }
    Parsed {
        file: Some(out),
        errors: builder.errors,
    }
}

/// Parses file `file` of `sources` as a search pattern (a `match` block and `without` blocks,
/// as `eudify grep` takes them): a rule named `query` with no actions, or the errors. A pattern
/// is small: it is parsed whole.
pub fn parse_query(sources: &SourceMap, file: FileId) -> (Option<Rule>, Vec<Diagnostic>) {
    let Some(source) = sources.get(file) else {
        return (None, vec![Diagnostic::file_error("", "no such source file")]);
    };
    let text = &source.text;
    if let Some((start, end)) = too_deep(text) {
        let message = format!(
            "nesting deeper than {MAX_NESTING} levels (parentheses and `not`): simplify the pattern"
        );
        return (None, vec![Diagnostic::error(sources.span(file, start, end), message)]);
    }
    let root = match RuleParser::parse(R::query, text) {
        Ok(mut pairs) => pairs.next().expect("the query rule always produces a pair"),
        Err(error) => {
            let (start, end) = match error.location {
                InputLocation::Pos(p) => (p, p),
                InputLocation::Span((s, e)) => (s, e),
            };
            let message = format!("syntax error: {}", syntax_message(&error.variant));
            return (None, vec![Diagnostic::error(sources.span(file, start, end), message)]);
        }
    };
    let mut builder = Builder {
        sources,
        file,
        offset: 0,
        errors: Vec::new(),
    };
    let name = Name {
        text: "query".to_string(),
        span: builder.span(&root),
    };
    let mut rule = Rule {
        name: name.clone(),
        file,
        span: name.span,
        phase: name,
        guard: None,
        phase_guard: None,
        pattern: Pattern::default(),
        withouts: Vec::new(),
        actions: Vec::new(),
        examples: Vec::new(),
    };
    for part in args(root) {
        match part.as_rule() {
            R::match_block => rule.pattern = builder.pattern(part),
            R::without_block => rule.withouts.push(builder.pattern(part)),
            _ => {}
        }
    }
    (Some(rule), builder.errors)
}

/// The syntax error of a file whose items parse up to `from` (the start of the last item that
/// parsed, or 0): the whole grammar run again from there, so that the message and position are
/// those of a parse of the whole file (what pest expected at the furthest point it reached).
fn syntax_error(sources: &SourceMap, file: FileId, text: &str, from: usize) -> Diagnostic {
    let error = match RuleParser::parse(R::file, &text[from..]) {
        Err(error) => error,
        // Not reached: an item that does not parse alone does not parse in the file either.
        Ok(_) => {
            return Diagnostic::error(sources.span(file, from, from), "syntax error".to_string())
        }
    };
    let (start, end) = match error.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let message = format!("syntax error: {}", syntax_message(&error.variant));
    Diagnostic::error(sources.span(file, from + start, from + end), message)
}

/// The offset of the first byte from `at` that the grammar's WHITESPACE and COMMENT do not skip.
fn skip_blank(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while at < bytes.len() {
        match bytes[at] {
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            b'#' => {
                at += memchr::memchr2(b'\n', b'\r', &bytes[at..]).unwrap_or(bytes.len() - at);
            }
            _ => break,
        }
    }
    at
}

/// Whether `text` starts with the keyword `word` (not a longer identifier).
fn starts_keyword(text: &str, word: &str) -> bool {
    text.strip_prefix(word).is_some_and(|rest| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The deepest nesting of parentheses and `not` a rule file may have. Real rules use a few
/// levels; the parser recurses once per level, and a stack holds some thousands.
pub const MAX_NESTING: usize = 64;

/// Where nesting of `(` and `not` first goes past [`MAX_NESTING`] (byte range of the token), by
/// a scan that follows the grammar's lexical shapes: comments, strings (whose `{...}` template
/// parts are code again), regexes after `=`, `|`, `[`, `(`, `!` or `,`, and the verbatim blocks
/// of examples. An unbalanced `(` in text the scan misreads only adds a level.
fn too_deep(text: &str) -> Option<(usize, usize)> {
    #[derive(PartialEq)]
    enum Open {
        Paren,
        Not,
        /// A `{` part inside a quoted string: its `}` returns to the string.
        Template,
    }
    let bytes = text.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    let mut in_string = false;
    let mut raw_pending = false;
    let mut last = b' ';
    let mut i = 0;
    let pop_nots = |stack: &mut Vec<Open>| {
        while stack.last() == Some(&Open::Not) {
            stack.pop();
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' | b'\n' => in_string = false,
                b'{' => {
                    stack.push(Open::Template);
                    in_string = false;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                pop_nots(&mut stack);
                in_string = true;
            }
            b'/' if matches!(last, b'=' | b'|' | b'[' | b'(' | b'!' | b',') => {
                pop_nots(&mut stack);
                i += 1;
                while i < bytes.len() && bytes[i] != b'/' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' => {
                stack.push(Open::Paren);
                if stack.len() > MAX_NESTING {
                    return Some((i, i + 1));
                }
            }
            b')' => {
                pop_nots(&mut stack);
                if stack.last() == Some(&Open::Paren) {
                    stack.pop();
                }
                pop_nots(&mut stack);
            }
            b'}' if stack.last() == Some(&Open::Template) => {
                stack.pop();
                in_string = true;
            }
            b'{' if raw_pending => {
                raw_pending = false;
                let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                let rest = text[i + 1..end].trim_start();
                if rest.is_empty() || rest.starts_with('#') {
                    // Verbatim lines up to one whose first non-blank character is `}`.
                    i = end;
                    while i < bytes.len() {
                        let line_end = text[i + 1..].find('\n').map_or(bytes.len(), |n| i + 1 + n);
                        if text[(i + 1).min(line_end)..line_end]
                            .trim_start()
                            .starts_with('}')
                        {
                            break;
                        }
                        i = line_end;
                    }
                }
            }
            b if b.is_ascii_alphanumeric() || b == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &text[start..i] {
                    "not" => {
                        stack.push(Open::Not);
                        if stack.len() > MAX_NESTING {
                            return Some((start, i));
                        }
                    }
                    word => {
                        pop_nots(&mut stack);
                        if word == "example" || word == "expect" {
                            raw_pending = true;
                        }
                    }
                }
                last = b'a';
                continue;
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            last = b;
        }
        i += 1;
    }
    None
}

/// "expected A, B or C" with friendly names, each once.
fn syntax_message(variant: &ErrorVariant<R>) -> String {
    match variant {
        ErrorVariant::CustomError { message } => message.clone(),
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let list = |rules: &[R]| {
                let mut names: Vec<String> = Vec::new();
                for kind in rules {
                    let name = friendly_name(kind);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                match names.split_last() {
                    None => String::new(),
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                }
            };
            match (positives.is_empty(), negatives.is_empty()) {
                (false, true) => format!("expected {}", list(positives)),
                (true, false) => format!("{} is not allowed here", list(negatives)),
                (false, false) => format!(
                    "expected {}; {} is not allowed here",
                    list(positives),
                    list(negatives)
                ),
                (true, true) => "unexpected input".to_string(),
            }
        }
    }
}

/// Names shown in "expected ..." messages: words, never the grammar's internal rule names
/// (the match is exhaustive so that a new grammar rule needs a name here).
fn friendly_name(kind: &R) -> String {
    let name = match kind {
        R::EOI => "end of file",
        R::ident | R::edge_var => "a name",
        R::phase_decl => "`phase NAME`",
        R::rule => "`rule NAME { ... }`",
        R::guard | R::guard_and | R::guard_not | R::guard_contains | R::guard_equals => {
            "a profile condition"
        }
        R::setting => "`profile.SETTING`",
        R::eq_op => "`==` or `!=`",
        R::match_block => "`match { ... }`",
        R::without_block => "`without { ... }`",
        R::do_block => "`do { ... }`",
        R::edge_item | R::order_item | R::node_item => "a node, edge or order constraint",
        R::agree_item | R::agree_operand => "an agreement such as `N.Case == H.Case`",
        R::agree_op => "`==` or `!=`",
        R::repeat => "a descent bound (`+`, `{1,4}`)",
        R::empty_copy => "`copy of NODE`",
        R::basic_arrow => "`-[label]->`",
        R::close_basic => "`]->`",
        R::close_enhanced => "`]=>`",
        R::item_end => "`;`",
        R::neg => "`!`",
        R::kw_profile => "`profile.SETTING`",
        R::optional_mark => "`?`",
        R::kw_not => "`not`",
        R::kw_in => "`in`",
        R::kw_when => "`when`",
        R::kw_as => "`as`",
        R::part_call | R::edge_part => "a template part such as `lemma(N)` or `e.label`",
        R::enhanced_arrow => "`=[label]=>`",
        R::order_op => "an order operator (`<<`, `<`, `>>`, `>`, `!=`)",
        R::subtree => "`subtree(NODE)`",
        R::constraint | R::in_constraint | R::compare_constraint | R::presence_constraint => {
            "a node constraint such as `upos=NOUN`"
        }
        R::cmp_op => "`=`, `!=`, `~=` or `!~=`",
        R::field | R::field_name => "a field name (form, lemma, upos, xpos, misc or a feature)",
        R::value_alts | R::bare_value => "a value",
        R::lexicon_ref => "a lexicon list `@group.list`",
        R::profile_list => "a profile list `@profile.NAME`",
        R::label_pattern
        | R::label_alts
        | R::label_exact
        | R::label_univ
        | R::label_any
        | R::label_any_sub => "a label pattern",
        R::label_same => "`e.label`",
        R::label_expr | R::quoted_template | R::bare_template => "a label template",
        R::template_part => "a `{...}` template part",
        R::add_action
        | R::delete_action
        | R::relabel_action
        | R::empty_action
        | R::transfer_action
        // These keywords only start an action: one phrase reads better than the list.
        | R::kw_add
        | R::kw_delete
        | R::kw_relabel
        | R::transfer_mode => {
            "an action (add, delete, relabel, copy, move, `E = empty [copy of ...]`)"
        }
        R::example => "`example { ... } expect { ... }`",
        R::expect_block => "`expect { ... }`",
        R::raw_block => "a block of lines `{ ... }` (the `{` ends its line)",
        R::string => "a quoted string",
        R::regex => "a regex `/.../`",
        R::place => "`after` or `before`",
        R::direction => "`incoming` or `outgoing`",
        R::kw_phase => "`phase`",
        R::kw_rule => "`rule`",
        R::kw_match => "`match`",
        R::kw_without => "`without`",
        R::kw_do => "`do`",
        R::kw_example => "`example`",
        R::kw_expect => "`expect`",
        R::kw_empty => "`empty`",
        R::kw_copy => "`copy`",
        R::kw_of => "`of`",
        R::kw_to => "`to`",
        R::kw_matching => "`matching`",
        R::kw_and => "`and`",
        R::kw_or => "`or`",
        R::kw_subtree => "`subtree`",
        R::keyword => "a keyword",
        R::file => "a rule file",
        R::query => "a search pattern `match { ... }`",
        R::WHITESPACE => "white space",
        R::COMMENT => "a `#` comment",
        R::ident_char => "a letter, digit or `_`",
        R::action => "an action (add, delete, relabel, copy, move, `E = empty [copy of ...]`)",
        R::bare_text | R::quoted_text => "label text",
        R::edge_arrow => "`-[label]->` or `=[label]=>`",
        R::edge_field => "`label`, `univ` or `sub`",
        R::guard_atom => "a profile condition",
        R::label_atom | R::label_word => "a label",
        R::lexicon_path => "a lexicon list name `group.list`",
        R::misc_key => "a MISC attribute name",
        R::order_operand => "a node or `subtree(NODE)`",
        R::part_arg => "a node or feature name",
        R::part_value => "a template part such as `lemma(N)` or `e.label`",
        R::pattern_body => "`{ ... }`",
        R::pattern_item => "a node, edge or order constraint",
        R::raw_line => "a line",
        R::regex_body => "a regex",
        R::regex_flags => "regex flags",
        R::string_inner => "text",
        R::value => "a value",
    };
    name.to_string()
}

/// Whether a pair is a keyword or closing token (skipped when reading a rule's arguments).
fn is_keyword(kind: R) -> bool {
    matches!(
        kind,
        R::kw_phase
            | R::kw_rule
            | R::kw_when
            | R::kw_match
            | R::kw_without
            | R::kw_do
            | R::kw_example
            | R::kw_expect
            | R::kw_add
            | R::kw_delete
            | R::kw_relabel
            | R::kw_as
            | R::kw_empty
            | R::kw_copy
            | R::kw_of
            | R::kw_to
            | R::kw_matching
            | R::kw_in
            | R::kw_not
            | R::kw_and
            | R::kw_or
            | R::kw_subtree
            | R::kw_profile
            | R::close_basic
            | R::close_enhanced
    )
}

/// The children of a pair, keywords left out.
fn args(pair: Pair<'_, R>) -> impl Iterator<Item = Pair<'_, R>> {
    pair.into_inner().filter(|p| !is_keyword(p.as_rule()))
}

/// Undoes `\x` escapes in quoted strings (`\"` → `"`, `\\` → `\`, `\n` → newline).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

struct Builder<'s> {
    sources: &'s SourceMap,
    file: FileId,
    /// Where the item being built starts in the file: pest's positions are from there.
    offset: usize,
    errors: Vec<Diagnostic>,
}

impl<'s> Builder<'s> {
    fn span(&self, pair: &Pair<'_, R>) -> Span {
        let s = pair.as_span();
        let offset = self.offset;
        self.sources
            .span(self.file, offset + s.start(), offset + s.end())
    }

    fn name(&self, pair: &Pair<'_, R>) -> Name {
        Name {
            text: pair.as_str().to_string(),
            span: self.span(pair),
        }
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::error(span, message));
    }

    /// Adds a top-level item (a `phase` line or a rule) to `out`.
    fn item(&mut self, item: Pair<'_, R>, out: &mut RuleFile) {
        match item.as_rule() {
            R::phase_decl => {
                let mut parts = args(item);
                let name = self.name(&parts.next().expect("phase name"));
                let guard = parts
                    .find(|p| p.as_rule() == R::guard)
                    .map(|g| self.guard(g));
                out.phases.push(PhaseLine { name, guard });
            }
            R::rule => {
                // Before any `phase` line the phase is empty; the checker reports it.
                let (phase, phase_guard) = match out.phases.last() {
                    Some(line) => (line.name.clone(), line.guard.clone()),
                    None => (
                        Name {
                            text: String::new(),
                            span: self.span(&item),
                        },
                        None,
                    ),
                };
                let rule = self.rule(item, phase, phase_guard);
                out.rules.push(rule);
            }
            _ => {}
        }
    }

    fn rule(&mut self, pair: Pair<'_, R>, phase: Name, phase_guard: Option<Guard>) -> Rule {
        let span = self.span(&pair);
        let mut inner = args(pair);
        let name = self.name(&inner.next().expect("rule name"));
        let mut rule = Rule {
            name,
            file: self.file,
            span,
            phase,
            guard: None,
            phase_guard,
            pattern: Pattern::default(),
            withouts: Vec::new(),
            actions: Vec::new(),
            examples: Vec::new(),
        };
        for part in inner {
            match part.as_rule() {
                R::guard => rule.guard = Some(self.guard(part)),
                R::match_block => rule.pattern = self.pattern(part),
                R::without_block => rule.withouts.push(self.pattern(part)),
                R::do_block => {
                    for action in args(part) {
                        if let Some(action) = self.action(action) {
                            rule.actions.push(action);
                        }
                    }
                }
                R::example => rule.examples.push(self.example(part)),
                _ => {}
            }
        }
        rule
    }

    // ---- guards ---------------------------------------------------------------------------

    fn guard(&mut self, pair: Pair<'_, R>) -> Guard {
        let span = self.span(&pair);
        let kind = pair.as_rule();
        let negated = pair.clone().into_inner().any(|p| p.as_rule() == R::kw_not);
        let mut children: Vec<Pair<'_, R>> = args(pair).collect();
        let guard_kind = match kind {
            R::guard | R::guard_and => {
                if children.len() == 1 {
                    return self.guard(children.pop().expect("one child"));
                }
                let parts = children.into_iter().map(|c| self.guard(c)).collect();
                if kind == R::guard {
                    GuardKind::Or(parts)
                } else {
                    GuardKind::And(parts)
                }
            }
            R::guard_not => {
                let child = children.pop().expect("operand");
                let inner = self.guard(child);
                if negated {
                    GuardKind::Not(Box::new(inner))
                } else {
                    return inner;
                }
            }
            R::guard_contains => {
                let value = self.quoted(&children[0]);
                let setting = self.setting_name(children[1].clone());
                GuardKind::Contains { setting, value }
            }
            R::guard_equals => {
                let setting = self.setting_name(children[0].clone());
                let value = self.quoted(&children[2]);
                let equals = GuardKind::Equals { setting, value };
                if children[1].as_str() == "!=" {
                    GuardKind::Not(Box::new(Guard { kind: equals, span }))
                } else {
                    equals
                }
            }
            R::setting => {
                // The pair itself is the setting (reached through guard_not's atom).
                let name = Name {
                    text: children.pop().expect("setting name").as_str().to_string(),
                    span,
                };
                GuardKind::Setting(name)
            }
            _ => unreachable!("not a guard: {kind:?}"),
        };
        Guard {
            kind: guard_kind,
            span,
        }
    }

    /// A string literal's text, with the span of the literal (quotes included).
    fn quoted(&self, pair: &Pair<'_, R>) -> Name {
        Name {
            text: unescape(pair.clone().into_inner().as_str()),
            span: self.span(pair),
        }
    }

    /// `profile.NAME` → `NAME` (span covering `profile.NAME`).
    fn setting_name(&self, pair: Pair<'_, R>) -> Name {
        let span = self.span(&pair);
        let name = args(pair).next().expect("setting name");
        Name {
            text: name.as_str().to_string(),
            span,
        }
    }

    // ---- patterns -------------------------------------------------------------------------

    fn pattern(&mut self, pair: Pair<'_, R>) -> Pattern {
        let mut pattern = Pattern {
            span: self.span(&pair),
            ..Pattern::default()
        };
        for item in args(pair) {
            match item.as_rule() {
                R::node_item => {
                    let span = self.span(&item);
                    let mut inner = item.into_inner();
                    let var = self.name(&inner.next().expect("node name"));
                    let constraints = inner.filter_map(|c| self.constraint(c)).collect();
                    pattern.nodes.push(NodeDecl {
                        var,
                        constraints,
                        span,
                    });
                }
                R::edge_item => {
                    if let Some(edge) = self.edge(item) {
                        pattern.edges.push(edge);
                    }
                }
                R::order_item => {
                    if let Some(order) = self.order(item) {
                        pattern.order.push(order);
                    }
                }
                R::agree_item => {
                    if let Some(agree) = self.agree(item) {
                        pattern.order.push(agree);
                    }
                }
                _ => {}
            }
        }
        pattern
    }

    fn edge(&mut self, pair: Pair<'_, R>) -> Option<EdgePattern> {
        let span = self.span(&pair);
        let mut var = None;
        let mut nodes = Vec::new();
        let mut arrow = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                R::edge_var => var = Some(self.name(&child)),
                R::ident => nodes.push(self.name(&child)),
                R::basic_arrow | R::enhanced_arrow => arrow = Some(child),
                _ => {}
            }
        }
        let arrow = arrow?;
        let layer = if arrow.as_rule() == R::basic_arrow {
            Layer::Basic
        } else {
            Layer::Enhanced
        };
        let mut negated = false;
        let mut label = None;
        let mut repeat = None;
        for child in arrow.into_inner() {
            match child.as_rule() {
                R::neg => negated = true,
                R::label_pattern => label = self.label_pattern(child),
                R::repeat => repeat = Some(self.repeat(&child)),
                _ => {}
            }
        }
        let (to, from) = (nodes.pop()?, nodes.pop()?);
        Some(EdgePattern {
            var,
            repeat,
            from,
            to,
            layer,
            label: label?,
            negated,
            span,
        })
    }

    /// `+` or `{m}` / `{m,n}` after an arrow (bounds checked by the checker; a number too large
    /// for `u32` is taken as `u32::MAX`, which the checker rejects).
    fn repeat(&mut self, pair: &Pair<'_, R>) -> Repeat {
        let span = self.span(pair);
        let text = pair.as_str();
        if text == "+" {
            return Repeat {
                min: 1,
                max: Repeat::DEFAULT_MAX,
                span,
            };
        }
        let inner = text.trim_start_matches('{').trim_end_matches('}');
        let number = |t: &str| t.parse::<u32>().unwrap_or(u32::MAX);
        let (min, max) = match inner.split_once(',') {
            Some((a, b)) => (number(a), number(b)),
            None => (number(inner), number(inner)),
        };
        Repeat { min, max, span }
    }

    /// `A.Case == B.Case`, `A.Number != B.Number[psor]`.
    fn agree(&mut self, pair: Pair<'_, R>) -> Option<OrderConstraint> {
        let span = self.span(&pair);
        let mut operands = Vec::new();
        let mut negated = false;
        for child in pair.into_inner() {
            match child.as_rule() {
                R::agree_op => negated = child.as_str() == "!=",
                R::agree_operand => {
                    let mut inner = child.into_inner();
                    let var = self.name(&inner.next().expect("node name"));
                    let feature = self.name(&inner.next().expect("feature name"));
                    if !feature.text.starts_with(|c: char| c.is_ascii_uppercase())
                        || feature.text.contains('_')
                    {
                        self.error(
                            feature.span,
                            format!(
                                "agreement compares features (`{0}.Case == X.Case`), not `{1}`",
                                var.text, feature.text
                            ),
                        );
                        return None;
                    }
                    operands.push(AgreeOperand { var, feature });
                }
                _ => {}
            }
        }
        let right = operands.pop()?;
        let left = operands.pop()?;
        Some(OrderConstraint::Agree {
            left,
            right,
            negated,
            span,
        })
    }

    fn order(&mut self, pair: Pair<'_, R>) -> Option<OrderConstraint> {
        let span = self.span(&pair);
        let mut operands = Vec::new();
        let mut op = "";
        for child in pair.into_inner() {
            match child.as_rule() {
                R::ident => operands.push(OrderOperand::Node(self.name(&child))),
                R::subtree => {
                    let node = args(child).next().expect("subtree node");
                    operands.push(OrderOperand::Subtree(self.name(&node)));
                }
                R::order_op => op = child.as_str(),
                _ => {}
            }
        }
        let right = operands.pop()?;
        let left = operands.pop()?;
        Some(match op {
            "<<" => OrderConstraint::Before {
                left,
                right,
                immediately: false,
                span,
            },
            "<" => OrderConstraint::Before {
                left,
                right,
                immediately: true,
                span,
            },
            ">>" => OrderConstraint::Before {
                left: right,
                right: left,
                immediately: false,
                span,
            },
            ">" => OrderConstraint::Before {
                left: right,
                right: left,
                immediately: true,
                span,
            },
            _ => match (left, right) {
                (OrderOperand::Node(a), OrderOperand::Node(b)) => {
                    OrderConstraint::Distinct { a, b, span }
                }
                _ => {
                    self.error(span, "`!=` compares two nodes, not subtrees");
                    return None;
                }
            },
        })
    }

    fn constraint(&mut self, pair: Pair<'_, R>) -> Option<Constraint> {
        let span = self.span(&pair);
        let pair = pair.into_inner().next().expect("constraint kind");
        let kind = pair.as_rule();
        let mut field = None;
        let mut negated = false;
        let mut op = "";
        let mut test = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                R::field => field = Some(child),
                R::neg | R::kw_not => negated = true,
                R::cmp_op => op = child.as_str(),
                R::profile_list => {
                    let name = child.clone().into_inner().find(|p| p.as_rule() == R::ident);
                    test = name.map(|n| ValueTest::InSetting(self.name(&n)));
                }
                R::lexicon_ref => {
                    let path = child.clone().into_inner().as_str().to_string();
                    test = Some(ValueTest::InLexicon(LexiconRef {
                        path,
                        span: self.span(&child),
                    }));
                }
                R::regex => {
                    test = self
                        .regex(child, op.contains('~'))
                        .map(|(pattern, ci, span)| ValueTest::Regex {
                            pattern,
                            case_insensitive: ci,
                            span,
                        })
                }
                R::value_alts => {
                    let values = child
                        .into_inner()
                        .map(|v| match v.as_rule() {
                            R::string => unescape(v.into_inner().as_str()),
                            _ => v.as_str().to_string(),
                        })
                        .collect();
                    test = Some(ValueTest::Equals {
                        values,
                        case_insensitive: op.contains('~'),
                    });
                }
                _ => {}
            }
        }
        if kind == R::compare_constraint {
            negated = op.starts_with('!');
        }
        if kind == R::presence_constraint {
            test = Some(ValueTest::Present);
        }
        let field_pair = field?;
        let field_span = self.span(&field_pair);
        let field = self.field(field_pair)?;
        if field == Field::Empty && kind != R::presence_constraint {
            self.error(
                span,
                "`empty` has no value: write `[empty]` (an empty node) or `[!empty]` (a word)"
                    .to_string(),
            );
            return None;
        }
        Some(Constraint {
            field,
            test: test?,
            negated,
            span,
            field_span,
        })
    }

    /// A field name: `form lemma upos xpos misc misc.Key` (upper-case aliases FORM ... MISC), or
    /// a feature `[A-Z][A-Za-z0-9]*` with an optional layer `[psor]`.
    fn field(&mut self, pair: Pair<'_, R>) -> Option<Field> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = inner.next().expect("field name").as_str();
        let key = inner.next().map(|k| k.as_str().to_string());
        let column = match name {
            "form" | "FORM" => Some(Field::Form),
            "lemma" | "LEMMA" => Some(Field::Lemma),
            "upos" | "UPOS" => Some(Field::Upos),
            "xpos" | "XPOS" => Some(Field::Xpos),
            "misc" | "MISC" => return Some(Field::Misc(key)),
            "empty" => Some(Field::Empty),
            _ => None,
        };
        if key.is_some() {
            self.error(
                span,
                format!("only `misc` has attributes (`misc.Key`), not `{name}`"),
            );
            return None;
        }
        if let Some(column) = column {
            return Some(column);
        }
        let first = name.chars().next().unwrap_or('a');
        if first.is_ascii_uppercase() {
            if name.contains('_') {
                self.error(span, format!("invalid feature name `{name}`: features are written like `Case`, `PronType`, `Number[psor]`"));
                return None;
            }
            return Some(Field::Feature(name.to_string()));
        }
        let mut diagnostic = Diagnostic::error(span, format!("unknown field `{name}`"));
        let known = ["form", "lemma", "upos", "xpos", "misc", "empty"];
        diagnostic = match super::diagnostic::closest(name, known.iter().copied()) {
            Some(suggestion) => diagnostic.with_note(format!("did you mean `{suggestion}`?")),
            None => diagnostic.with_note(
                "fields are form, lemma, upos, xpos, misc, misc.Key, empty, or a feature such as Case",
            ),
        };
        self.errors.push(diagnostic);
        None
    }

    /// `/body/flags` → (pattern with `\/` unescaped, case-insensitive, span).
    fn regex(&mut self, pair: Pair<'_, R>, force_ci: bool) -> Option<(String, bool, Span)> {
        let span = self.span(&pair);
        let mut body = "";
        let mut flags = "";
        for child in pair.into_inner() {
            match child.as_rule() {
                R::regex_body => body = child.as_str(),
                R::regex_flags => flags = child.as_str(),
                _ => {}
            }
        }
        match flags {
            "" | "i" => Some((body.replace("\\/", "/"), force_ci || flags == "i", span)),
            _ => {
                self.error(
                    span,
                    format!("unknown regex flag `{flags}` (only `i`, case-insensitive, exists)"),
                );
                None
            }
        }
    }

    // ---- labels ---------------------------------------------------------------------------

    fn label_pattern(&mut self, pair: Pair<'_, R>) -> Option<LabelPattern> {
        let span = self.span(&pair);
        let mut negated = false;
        let mut inner = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                R::neg => negated = true,
                R::label_alts => inner = self.label_alts(child),
                _ => {}
            }
        }
        let inner = inner?;
        Some(if negated {
            LabelPattern::Not {
                inner: Box::new(inner),
                span,
            }
        } else {
            inner
        })
    }

    fn label_alts(&mut self, pair: Pair<'_, R>) -> Option<LabelPattern> {
        let span = self.span(&pair);
        let mut options = Vec::new();
        for atom in pair.into_inner() {
            let atom_span = self.span(&atom);
            let option = match atom.as_rule() {
                R::label_alts => self.label_alts(atom),
                R::regex => {
                    self.regex(atom, false)
                        .map(|(pattern, ci, span)| LabelPattern::Regex {
                            pattern: if ci {
                                format!("(?i){pattern}")
                            } else {
                                pattern
                            },
                            span,
                        })
                }
                R::profile_list => {
                    let name = atom.into_inner().find(|p| p.as_rule() == R::ident);
                    name.map(|n| LabelPattern::Setting {
                        name: self.name(&n),
                        span: atom_span,
                    })
                }
                R::label_same => {
                    let edge = self.name(&atom.into_inner().next().expect("edge variable"));
                    Some(LabelPattern::SameLabel {
                        edge,
                        span: atom_span,
                    })
                }
                R::label_any_sub => {
                    let sub = atom.into_inner().as_str().to_string();
                    Some(LabelPattern::Subtype {
                        sub,
                        span: atom_span,
                    })
                }
                R::label_any => Some(LabelPattern::Any { span: atom_span }),
                R::label_univ => {
                    let univ = atom.into_inner().as_str().to_string();
                    Some(LabelPattern::Universal {
                        univ,
                        span: atom_span,
                    })
                }
                R::label_exact => Some(LabelPattern::Exact {
                    label: atom.as_str().to_string(),
                    span: atom_span,
                }),
                _ => None,
            };
            options.push(option?);
        }
        if options.len() == 1 {
            options.pop()
        } else {
            Some(LabelPattern::Alternatives { options, span })
        }
    }

    fn label_expr(&mut self, pair: Pair<'_, R>) -> LabelExpr {
        let span = self.span(&pair);
        let template = pair.into_inner().next().expect("template");
        let quoted = template.as_rule() == R::quoted_template;
        let mut parts = Vec::new();
        for child in template.into_inner() {
            let part_span = self.span(&child);
            match child.as_rule() {
                R::quoted_text | R::bare_text => {
                    let text = if quoted {
                        unescape(child.as_str())
                    } else {
                        child.as_str().to_string()
                    };
                    parts.push(LabelPart {
                        value: PartValue::Literal(text),
                        optional: false,
                        guard: None,
                        span: part_span,
                    });
                }
                R::template_part => {
                    if let Some(part) = self.template_part(child) {
                        parts.push(part);
                    }
                }
                _ => {}
            }
        }
        LabelExpr { parts, span }
    }

    fn template_part(&mut self, pair: Pair<'_, R>) -> Option<LabelPart> {
        let span = self.span(&pair);
        let mut optional = false;
        let mut guard = None;
        let mut value = None;
        for child in args(pair) {
            match child.as_rule() {
                R::optional_mark => optional = true,
                R::guard => guard = Some(self.guard(child)),
                R::string => {
                    value = Some(PartValue::Literal(unescape(child.into_inner().as_str())))
                }
                R::setting => value = Some(PartValue::Setting(self.setting_name(child))),
                R::edge_part => {
                    let child_span = self.span(&child);
                    let mut inner = child.into_inner();
                    let edge = self.name(&inner.next().expect("edge variable"));
                    let part = match inner.next().expect("edge field").as_str() {
                        "label" => EdgeLabelPart::Label,
                        "univ" => EdgeLabelPart::Univ,
                        "sub" => EdgeLabelPart::Sub,
                        other => {
                            self.error(
                                child_span,
                                format!(
                                    "unknown edge part `{other}`: use `label`, `univ` or `sub`"
                                ),
                            );
                            return None;
                        }
                    };
                    value = Some(PartValue::Edge { edge, part });
                }
                R::part_call => value = Some(self.part_call(child)?),
                _ => {}
            }
        }
        Some(LabelPart {
            value: value?,
            optional,
            guard,
            span,
        })
    }

    /// `lemma(N)`, `form(N)`, `marker(N)`, `feat(N, Feature)`.
    fn part_call(&mut self, pair: Pair<'_, R>) -> Option<PartValue> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let function = inner.next().expect("function name").as_str().to_string();
        let arguments: Vec<Name> = inner.map(|a| self.name(&a)).collect();
        let arity = if function == "feat" { 2 } else { 1 };
        let known = ["lemma", "form", "marker", "feat"];
        if !known.contains(&function.as_str()) {
            let mut d = Diagnostic::error(span, format!("unknown template function `{function}`"));
            d = d.with_note("template parts are {e.label}, {e.univ}, {e.sub}, {lemma(N)}, {form(N)}, {marker(N)}, {feat(N, Feature)}, {profile.SETTING}, {\"text\"}");
            self.errors.push(d);
            return None;
        }
        if arguments.len() != arity {
            let expected = if arity == 2 {
                "a node and a feature name"
            } else {
                "one node"
            };
            self.error(
                span,
                format!(
                    "`{function}` takes {expected}, not {} argument(s)",
                    arguments.len()
                ),
            );
            return None;
        }
        let mut arguments = arguments.into_iter();
        let node = arguments.next().expect("arity checked");
        Some(match function.as_str() {
            "lemma" => PartValue::Lemma(node),
            "form" => PartValue::Form(node),
            "marker" => PartValue::Marker(node),
            _ => PartValue::Feature {
                node,
                feature: arguments.next().expect("arity checked"),
            },
        })
    }

    // ---- actions --------------------------------------------------------------------------

    fn action(&mut self, pair: Pair<'_, R>) -> Option<Action> {
        let span = self.span(&pair);
        let action_rule = pair.as_rule();
        let children: Vec<Pair<'_, R>> = args(pair).collect();
        let name = |b: &Self, i: usize| b.name(&children[i]);
        let kind = match action_rule {
            R::add_action => ActionKind::AddEdge {
                from: name(self, 0),
                label: self.label_expr(children[1].clone()),
                to: name(self, 2),
            },
            R::delete_action => ActionKind::DeleteEdge {
                from: name(self, 0),
                label: self.label_pattern(children[1].clone())?,
                to: name(self, 2),
            },
            R::relabel_action => ActionKind::Relabel {
                from: name(self, 0),
                label: self.label_pattern(children[1].clone())?,
                to: name(self, 2),
                new_label: self.label_expr(children[3].clone()),
            },
            R::empty_action => {
                // `E = empty [copy of V] after|before N`.
                let copy_of = children
                    .iter()
                    .find(|c| c.as_rule() == R::empty_copy)
                    .and_then(|c| args(c.clone()).next())
                    .map(|v| self.name(&v));
                let place = children
                    .iter()
                    .find(|c| c.as_rule() == R::place)
                    .expect("a place");
                ActionKind::AddEmptyNode {
                    var: name(self, 0),
                    copy_of,
                    place: if place.as_str() == "after" {
                        Place::After
                    } else {
                        Place::Before
                    },
                    anchor: self.name(children.last().expect("an anchor")),
                }
            }
            R::transfer_action => ActionKind::TransferEdges {
                mode: if children[0].as_str() == "copy" {
                    TransferMode::Copy
                } else {
                    TransferMode::Move
                },
                direction: if children[1].as_str() == "incoming" {
                    Direction::Incoming
                } else {
                    Direction::Outgoing
                },
                from: name(self, 2),
                to: name(self, 3),
                matching: match children.get(4) {
                    Some(p) => Some(self.label_pattern(p.clone())?),
                    None => None,
                },
            },
            _ => return None,
        };
        Some(Action { kind, span })
    }

    // ---- examples -------------------------------------------------------------------------

    fn example(&mut self, pair: Pair<'_, R>) -> Example {
        let span = self.span(&pair);
        let mut example = Example {
            conllu: String::new(),
            source_lines: Vec::new(),
            expects: Vec::new(),
            span,
        };
        for child in args(pair) {
            match child.as_rule() {
                R::raw_block => {
                    for line in child.into_inner() {
                        let text = line.as_str().trim();
                        if text.is_empty() {
                            continue;
                        }
                        let columns: Vec<&str> = if text.starts_with('#') {
                            vec![text]
                        } else if text.contains('\t') {
                            // Tab-separated: runs of tabs (alignment) separate columns.
                            text.split('\t')
                                .map(str::trim)
                                .filter(|c| !c.is_empty())
                                .collect()
                        } else {
                            text.split_whitespace().collect()
                        };
                        example.conllu.push_str(&columns.join("\t"));
                        example.conllu.push('\n');
                        example.source_lines.push(self.span(&line).line);
                    }
                }
                R::expect_block => example.expects.push(self.expectation(child)),
                _ => {}
            }
        }
        example
    }

    fn expectation(&mut self, pair: Pair<'_, R>) -> Expectation {
        let span = self.span(&pair);
        let mut expectation = Expectation {
            guard: None,
            lines: Vec::new(),
            span,
        };
        for child in args(pair) {
            match child.as_rule() {
                R::guard => expectation.guard = Some(self.guard(child)),
                R::raw_block => {
                    for line in child.into_inner() {
                        let raw = line.as_str();
                        let text = raw.trim();
                        if text.is_empty() || text.starts_with('#') {
                            continue;
                        }
                        let start = self.offset
                            + line.as_span().start()
                            + (raw.len() - raw.trim_start().len());
                        let line_span = self.sources.span(self.file, start, start + text.len());
                        let mut words = text.split_whitespace();
                        let id = words.next().unwrap_or_default().to_string();
                        let deps = words.collect::<Vec<_>>().join(" ");
                        expectation.lines.push(ExpectLine {
                            id,
                            deps,
                            span: line_span,
                        });
                    }
                }
                _ => {}
            }
        }
        expectation
    }
}
