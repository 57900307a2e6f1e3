//! Errors and warnings about rule files, profiles and lexicons, rendered with the offending
//! source line and a caret under the offending text:
//!
//! ```text
//! rules/universal/case.rules:5:10: error: unknown node variable `X`
//!   |
//! 5 |   do { add X =[obl]=> N; }
//!   |            ^
//!   = note: variables bound here: H, N, C
//! ```
//!
//! Syntax errors (from pest) and semantic errors (from the checker) look the same.

use super::ast::Span;
use super::source::SourceMap;
use std::fmt::Write as _;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One message, located by a span, or by a file path alone (e.g. a missing file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    /// For messages without a span: the file they are about.
    pub path: Option<String>,
    /// Extra lines printed after the caret (`= note: ...`).
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: Some(span),
            path: None,
            notes: vec![],
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// An error about a whole file (or about no file when `path` is empty).
    pub fn file_error(path: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        let path = path.into();
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            path: (!path.is_empty()).then_some(path),
            notes: vec![],
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: error: message`, the source line, a caret line, then the notes.
    pub fn render(&self, sources: &SourceMap) -> String {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = String::new();
        let file = self.span.and_then(|s| sources.get(s.file));
        match (self.span, file) {
            (Some(span), Some(file)) => {
                let _ = writeln!(
                    out,
                    "{}:{}:{}: {level}: {}",
                    file.path,
                    span.line,
                    span.col,
                    cut(&self.message)
                );
                let line_text = file.line_text(span.line);
                let number = span.line.to_string();
                let pad = " ".repeat(number.len());
                let before = span.col.saturating_sub(1) as usize;
                let line_end = file.line_start(span.line) + line_text.len();
                let width = if span.end > span.start {
                    file.text
                        .get(span.start..span.end.min(line_end))
                        .map_or(1, |t| t.chars().count().max(1))
                } else {
                    1
                };
                let (shown, before, width) = window(line_text, before, width);
                let _ = writeln!(out, "{pad} |");
                let _ = writeln!(out, "{number} | {shown}");
                let _ = writeln!(out, "{pad} | {}{}", " ".repeat(before), "^".repeat(width));
                for note in &self.notes {
                    let _ = writeln!(out, "{pad} = note: {}", cut(note));
                }
            }
            _ => {
                match &self.path {
                    Some(path) => {
                        let _ = writeln!(out, "{path}: {level}: {}", cut(&self.message));
                    }
                    None => {
                        let _ = writeln!(out, "{level}: {}", cut(&self.message));
                    }
                }
                for note in &self.notes {
                    let _ = writeln!(out, "  = note: {}", cut(note));
                }
            }
        }
        out
    }
}

/// Source lines longer than this many characters are shown as a window around the caret.
pub const MAX_SHOWN: usize = 120;

/// Messages and notes quote the source (a name, a label); past this many characters the quote
/// is cut.
const MAX_MESSAGE: usize = 300;

/// `text`, cut to [`MAX_MESSAGE`] characters with `…` after the cut.
fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_MESSAGE) {
        Some((at, _)) => format!("{}…", &text[..at]).into(),
        None => text.into(),
    }
}

/// The part of a source line to show, and the caret's column and width within it: the whole
/// line when short, else [`MAX_SHOWN`] characters around the caret, `…` marking each cut. Tabs
/// are shown as one space each so that the caret lines up.
fn window(line: &str, before: usize, width: usize) -> (String, usize, usize) {
    let tab = |c: char| if c == '\t' { ' ' } else { c };
    let length = line.chars().count();
    if length <= MAX_SHOWN {
        return (line.chars().map(tab).collect(), before, width);
    }
    let start = before.saturating_sub(MAX_SHOWN / 4).min(length - MAX_SHOWN);
    let end = start + MAX_SHOWN;
    let mut shown = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.extend(line.chars().skip(start).take(MAX_SHOWN).map(tab));
    if end < length {
        shown.push('…');
    }
    let caret = before.saturating_sub(start) + usize::from(start > 0);
    let width = width.min(end.saturating_sub(before)).max(1);
    (shown, caret, width)
}

/// Renders every diagnostic, in order, separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(sources))
        .collect::<Vec<_>>()
        .join("\n")
}

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
