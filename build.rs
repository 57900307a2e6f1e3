//! Embeds every file under `rules/` and `lexicons/` into the binary: writes
//! `$OUT_DIR/embedded_rules.rs` with `include_str!` entries sorted by path (see
//! `src/rules/source.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.is_file() {
            out.push(path);
        }
    }
}

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for top in ["rules", "lexicons"] {
        // A directory here makes cargo rerun the script when anything inside it changes.
        println!("cargo:rerun-if-changed={top}");
        collect(&root.join(top), &mut files);
    }
    let mut entries: Vec<(String, PathBuf)> = files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(&root).ok()?;
            let virtual_path: Vec<_> = rel
                .components()
                .map(|c| c.as_os_str().to_str().map(String::from))
                .collect::<Option<_>>()?;
            Some((virtual_path.join("/"), path))
        })
        .collect();
    entries.sort();
    let mut code = String::from("pub static FILES: &[(&str, &str)] = &[\n");
    for (virtual_path, path) in &entries {
        writeln!(
            code,
            "    ({virtual_path:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("embedded_rules.rs");
    std::fs::write(out, code).expect("write embedded_rules.rs");
}
