//! cargo-fuzz target: the parser must never panic and must always
//! reproduce its input exactly (`cargo fuzz run parse` from `compiler/`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let parse = festina_compiler::parsing::parse(text);
        assert_eq!(parse.syntax_node().text().to_string(), text);
        // Walk the typed API too: accessors must not panic on broken trees.
        for stmt in parse.source_file().statements() {
            let _ = stmt.syntax().text_range();
        }
    }
});
