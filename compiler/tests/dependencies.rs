//! The compiler links nothing that programs use at run time: it depends on
//! the signature tables (`festina-signatures`), never on the standard
//! library (`festina-stdlib`), so `festina check` and the compiler's tests
//! need neither SQLite nor, later, cairo, X11 or ALSA.
//!
//! Checked twice: the manifest's own dependency lists against an allow
//! list (a new dependency is a deliberate edit here), and the resolved
//! tree (`cargo tree -p festina-compiler`, all edge kinds) for any crate
//! of the standard library or its libraries.

use std::path::Path;
use std::process::Command;

/// What `compiler/Cargo.toml` may depend on, in any section.
const ALLOWED: &[&str] = &[
    "festina-vm",
    "festina-signatures",
    "logos",
    "rowan",
    "smallvec",
    "bumpalo",
    "hashbrown",
    "criterion",
];

/// Crates that must not appear anywhere in the compiler's resolved tree.
const FORBIDDEN: &[&str] = &["festina-stdlib", "rusqlite", "libsqlite3-sys"];

/// The dependency names of every `[*dependencies]` section of a manifest.
fn manifest_dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line
                .trim_matches(|c| c == '[' || c == ']')
                .ends_with("dependencies");
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                names.push(name.trim().to_string());
            }
        }
    }
    names
}

#[test]
fn the_manifest_names_only_allowed_dependencies() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("read Cargo.toml");
    let deps = manifest_dependencies(&manifest);
    assert!(
        deps.iter().any(|d| d == "festina-signatures"),
        "manifest not understood: {deps:?}"
    );
    for dep in &deps {
        assert!(
            ALLOWED.contains(&dep.as_str()),
            "compiler/Cargo.toml depends on {dep}: the compiler must not link what programs \
             use at run time (see this test's doc)"
        );
    }
}

#[test]
fn the_resolved_tree_has_no_runtime_library() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "-p",
            "festina-compiler",
            "-e",
            "normal,build,dev",
            "--prefix",
            "none",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && tree.contains("festina-signatures"),
        "cargo tree failed: {}\n{tree}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in tree.lines() {
        let name = line.split_whitespace().next().unwrap_or("");
        assert!(
            !FORBIDDEN.contains(&name),
            "the compiler's dependency tree contains {name}:\n{tree}"
        );
    }
}
