//! Every `.f` file in the repository (`examples/`, `tests/`,
//! `compiler/tests/parser_data/`, ...; `target/` skipped) must parse into a
//! tree whose text is exactly the source.

use std::fs;
use std::path::{Path, PathBuf};

use festina_compiler::parsing::parse;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "f") {
            out.push(path);
        }
    }
}

/// All `.f` files under the repository root.
fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    files
}

#[test]
fn every_source_file_round_trips() {
    let files = corpus();
    assert!(!files.is_empty(), "no .f files found");
    for path in files {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let parse = parse(&text);
        assert_eq!(
            parse.syntax_node().text().to_string(),
            text,
            "tree text differs from {}",
            path.display()
        );
    }
}
