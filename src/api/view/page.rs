//! The page and the notebook fragment: the templates beside this file, filled with the model
//! as JSON and the script that draws it. Nothing is fetched: the style and the script are
//! inline, so a page opens from `file://` and a fragment works in a notebook's output cell.

use super::View;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

impl View {
    /// The whole page: the sentences and the side panel (scores, errors per rule, filters,
    /// the edge clicked), one self-contained HTML file.
    pub fn page_html(&self) -> String {
        let data = self.packed_json();
        let mut page = String::with_capacity(data.len() + PAGE.len() + STYLE.len() + SCRIPT.len());
        // Filled in one pass, so that nothing inserted is searched for markers again.
        let mut rest = PAGE;
        while let Some(start) = rest.find("{{") {
            let end = start + rest[start..].find("}}").expect("a template marker ends") + 2;
            page.push_str(&rest[..start]);
            match &rest[start..end] {
                "{{TITLE}}" => page.push_str(&escape_html(&format!("eudify view: {}", self.name))),
                "{{CSS}}" => page.push_str(STYLE),
                "{{JS}}" => page.push_str(SCRIPT),
                "{{DATA}}" => page.push_str(&data),
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
             <script type=\"application/gzip\" id=\"{id}-data\">{data}</script>\n<script>\n{SCRIPT}\
             window.eudifyView.start(\"fragment\", \"{id}\");\n</script>\n",
            data = self.packed_json()
        )
    }

    /// The model as JSON, gzip-compressed and in base64: what the page's data element holds.
    /// A tenth of the JSON's size, which is what a browser spends most of its time parsing on
    /// a page of many sentences; and base64 cannot end the element, whatever the treebank holds.
    fn packed_json(&self) -> String {
        let mut gzip = GzEncoder::new(Vec::new(), Compression::fast());
        gzip.write_all(self.to_json().as_bytes())
            .expect("writing to memory succeeds");
        base64(&gzip.finish().expect("writing to memory succeeds"))
    }
}

/// Standard base64 with padding (RFC 4648), which the page's `atob` reads.
pub(super) fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(match i <= chunk.len() {
                true => DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char,
                false => '=',
            });
        }
    }
    out
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
