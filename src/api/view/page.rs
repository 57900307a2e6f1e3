//! The page and the notebook fragment: the templates beside this file, filled with the model
//! as JSON and the script that draws it. Nothing is fetched: the style and the script are
//! inline, so a page opens from `file://` and a fragment works in a notebook's output cell.

use super::View;
use std::sync::atomic::{AtomicU64, Ordering};

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

impl View {
    /// The whole page: the sentences and the side panel (scores, errors per rule, filters,
    /// the edge clicked), one self-contained HTML file.
    pub fn page_html(&self) -> String {
        let json = self.script_json();
        let mut page = String::with_capacity(json.len() + PAGE.len() + STYLE.len() + SCRIPT.len());
        // Filled in one pass, so that nothing inserted is searched for markers again.
        let mut rest = PAGE;
        while let Some(start) = rest.find("{{") {
            let end = start + rest[start..].find("}}").expect("a template marker ends") + 2;
            page.push_str(&rest[..start]);
            match &rest[start..end] {
                "{{TITLE}}" => page.push_str(&escape_html(&format!("eudify view: {}", self.name))),
                "{{CSS}}" => page.push_str(STYLE),
                "{{JS}}" => page.push_str(SCRIPT),
                "{{DATA}}" => page.push_str(&json),
                marker => unreachable!("unknown template marker {marker}"),
            }
            rest = &rest[end..];
        }
        page.push_str(rest);
        page
    }

    /// The sentences alone, drawn as on the page, with a line under them telling the edge
    /// clicked: an HTML fragment for a notebook's output cell. Its element ids are its own
    /// (several fragments can share a document) and its script runs where it is inserted.
    pub fn sentences_html(&self) -> String {
        let id = fragment_id();
        format!(
            "<div class=\"eudify-view fragment\" id=\"{id}\"></div>\n<style>\n{STYLE}</style>\n\
             <script type=\"application/json\" id=\"{id}-data\">{json}</script>\n<script>\n{SCRIPT}\
             window.eudifyView.renderFragment(document.getElementById(\"{id}\"),\n  \
             JSON.parse(document.getElementById(\"{id}-data\").textContent));\n</script>\n",
            json = self.script_json()
        )
    }

    /// The model as JSON that can sit inside a `<script>` element: no `<`, `>` or `&` (written
    /// as JSON escapes), so no text of the treebank can end the element.
    fn script_json(&self) -> String {
        let json = self.to_json();
        let mut safe = String::with_capacity(json.len() + json.len() / 64);
        for c in json.chars() {
            match c {
                '<' => safe.push_str("\\u003c"),
                '>' => safe.push_str("\\u003e"),
                '&' => safe.push_str("\\u0026"),
                c => safe.push(c),
            }
        }
        safe
    }
}

/// Text escaped for HTML element content and attribute values.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An element id no other fragment has: this process's count of fragments, with the process
/// and the time, since a notebook keeps the outputs of kernels that have ended.
fn fragment_id() -> String {
    static FRAGMENTS: AtomicU64 = AtomicU64::new(0);
    let n = FRAGMENTS.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("eudify-view-{:x}-{nanos:x}-{n}", std::process::id())
}
