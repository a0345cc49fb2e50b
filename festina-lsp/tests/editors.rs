//! The editor glue in `editors/` is consistent: the VS Code extension's
//! manifest names files that exist and starts `festina lsp`, and its
//! TextMate grammar is valid JSON whose every pattern compiles and whose
//! keyword rules cover every reserved word of the lexer (§7.4).

use festina_compiler::syntax::SyntaxKind;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn vscode() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode")
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_manifest_names_files_that_exist_and_starts_the_server() {
    let dir = vscode();
    let manifest = json(&dir.join("package.json"));
    let language = &manifest["contributes"]["languages"][0];
    assert_eq!(language["id"], "festina");
    assert_eq!(language["extensions"][0], ".f");
    for file in [
        manifest["main"].as_str().unwrap(),
        language["configuration"].as_str().unwrap(),
        manifest["contributes"]["grammars"][0]["path"]
            .as_str()
            .unwrap(),
    ] {
        assert!(dir.join(file).is_file(), "{file} is missing");
    }
    json(&dir.join("language-configuration.json"));
    assert_eq!(manifest["activationEvents"][0], "onLanguage:festina");
    assert!(manifest["dependencies"]["vscode-languageclient"].is_string());
    let client = std::fs::read_to_string(dir.join("extension.js")).unwrap();
    assert!(
        client.contains("args: ['lsp']"),
        "the client must start `festina lsp`"
    );
}

/// Every `match`, `begin` and `end` pattern in the grammar.
fn patterns(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (key, value) in map {
                if matches!(key.as_str(), "match" | "begin" | "end") {
                    out.push(value.as_str().expect("a pattern is a string").to_string());
                } else {
                    patterns(value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| patterns(i, out)),
        _ => {}
    }
}

#[test]
fn the_grammar_compiles_and_covers_every_keyword() {
    let grammar = json(&vscode().join("syntaxes/festina.tmLanguage.json"));
    assert_eq!(grammar["scopeName"], "source.festina");
    let mut all = Vec::new();
    patterns(&grammar, &mut all);
    assert!(all.len() > 20, "only {} patterns", all.len());
    for p in &all {
        if let Err(e) = fancy_regex::Regex::new(p) {
            panic!("pattern {p:?} does not compile: {e}");
        }
    }
    let keyword_rules: Vec<fancy_regex::Regex> = grammar["repository"]["keywords"]["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| fancy_regex::Regex::new(r["match"].as_str().unwrap()).unwrap())
        .collect();
    let words: Vec<String> = SyntaxKind::ALL
        .iter()
        .filter(|k| k.is_keyword())
        .map(|k| format!("{k:?}").trim_end_matches("_KW").to_lowercase())
        .collect();
    assert!(words.len() > 40);
    for word in words {
        assert_eq!(
            SyntaxKind::from_keyword(&word).map(|k| k.is_keyword()),
            Some(true)
        );
        assert!(
            keyword_rules.iter().any(|r| r.is_match(&word).unwrap()),
            "the grammar does not colour the keyword '{word}'"
        );
    }
}
