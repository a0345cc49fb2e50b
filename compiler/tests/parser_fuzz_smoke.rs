//! Deterministic fuzz smoke test: mutations of every corpus `.f` file in
//! the repository (byte flips, truncations, deletions, splices of two
//! files, inserted tricky tokens) must parse without panicking and
//! round-trip exactly, and the typed AST accessors must not panic on the
//! resulting trees. A fixed total budget is spread over the corpus (the
//! repository holds hundreds of programs); set `FESTINA_FUZZ_MUTATIONS=n`
//! to run `n` mutations per file instead.

use std::fs;
use std::panic;
use std::path::{Path, PathBuf};

use festina_compiler::ast::{self, Expr, Stmt, TemplatePart, TypeRef};
use festina_compiler::parsing::parse;
use festina_compiler::syntax::SyntaxNode;

/// Total mutations per run, spread over the corpus files...
const MUTATION_BUDGET: usize = 40_000;
/// ...but never fewer than this many per file.
const MIN_MUTATIONS_PER_FILE: usize = 50;
/// The typed accessors are exercised on one mutation in this many.
const EXERCISE_EVERY: usize = 8;

/// Tokens that stress the modal lexer and the recovery paths.
const TRICKY: &[&str] = &[
    "{", "}", "(", ")", "[", "]", "${", "`", "\"", "'", "/", "/*", "*/", "//", "\\", "\n", ";",
    ",", "=", "=>", "?", ":", "===", "if ", "else ", "func ", "int ", "import ", "match ", "try ",
    "catch ", ".", "é", "\0", "\r\n", "$", "#",
];

/// More of them: the forms added after edition 0.44 (bitwise operators,
/// hex literals, `weak`, `test`, lines that begin with an operator).
const TRICKY_LATER: &[&str] = &[
    "&",
    "|",
    "^",
    "~",
    "<<",
    ">>",
    "0x",
    "0xF.",
    "weak ",
    "test t = ",
    "\n|| ",
    "\n? ",
    "\n: ",
];

/// xorshift64*: a tiny seeded PRNG so runs are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

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

fn corpus() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    files.into_iter().filter_map(|p| fs::read(p).ok()).collect()
}

fn mutate(rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
    let mut bytes = base.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        match rng.below(5) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => {
                let cut = rng.below(bytes.len() + 1);
                bytes.truncate(cut);
            }
            2 => {
                let cut = rng.below(bytes.len() + 1);
                let from = rng.below(other.len() + 1);
                bytes.truncate(cut);
                bytes.extend_from_slice(&other[from..]);
            }
            3 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                let len = rng.below(8).min(bytes.len() - i);
                bytes.drain(i..i + len);
            }
            _ => {
                let k = rng.below(TRICKY.len() + TRICKY_LATER.len());
                let token = TRICKY
                    .get(k)
                    .unwrap_or_else(|| &TRICKY_LATER[k - TRICKY.len()]);
                let token = token.as_bytes();
                let at = rng.below(bytes.len() + 1);
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
    bytes
}

/// Calls the typed accessors on every node: none may panic on a broken
/// tree.
fn exercise(root: &SyntaxNode) {
    for node in root.descendants() {
        if let Some(stmt) = Stmt::cast(node.clone()) {
            exercise_stmt(&stmt);
        }
        if let Some(expr) = Expr::cast(node.clone()) {
            exercise_expr(&expr);
        }
        if let Some(TypeRef::Func(f)) = TypeRef::cast(node.clone()) {
            let _ = (f.params().count(), f.ret(), f.void_token());
        }
    }
}

fn exercise_stmt(stmt: &Stmt) {
    match stmt {
        Stmt::VarDecl(v) => drop((v.is_const(), v.ty(), v.name(), v.init())),
        Stmt::IfStmt(i) => drop((i.condition(), i.then_branch(), i.else_branch())),
        Stmt::ForStmt(f) => drop((f.init(), f.condition(), f.update(), f.body())),
        Stmt::MatchStmt(m) => {
            for arm in m.arms() {
                let _ = (arm.tag(), arm.is_default(), arm.body());
            }
        }
        Stmt::TryStmt(t) => drop((t.body(), t.catch_name(), t.catch_type(), t.catch_body())),
        Stmt::ImportDecl(i) => drop(i.path()),
        Stmt::OnDecl(o) => drop((o.name(), o.param_list(), o.body(), o.use_target())),
        Stmt::ThreadDecl(t) => drop((t.name(), t.pool_size(), t.is_pool(), t.body())),
        Stmt::FuncDecl(f) => drop((f.ret_type(), f.name(), f.param_list(), f.body())),
        Stmt::TestDecl(t) => drop((t.name(), t.description())),
        Stmt::StructDecl(s) => {
            for f in s.fields() {
                drop((f.name(), f.weak_token(), f.ty()));
            }
        }
        _ => {}
    }
}

fn exercise_expr(expr: &Expr) {
    match expr {
        Expr::Literal(l) => {
            if let Some(token) = l.token() {
                let _ = ast::unescape_string(token.text());
            }
        }
        Expr::Template(t) => {
            for part in t.parts() {
                if let TemplatePart::Chunk(c) = part {
                    let _ = ast::unescape_template_chunk(c.text());
                }
            }
        }
        Expr::Regex(r) => drop((r.pattern(), r.flags())),
        Expr::MapLit(m) => {
            for e in m.entries() {
                let _ = (e.key(), e.value(), e.shorthand());
            }
        }
        Expr::Binary(b) => drop((b.lhs(), b.rhs(), b.op_kind())),
        Expr::Ternary(t) => drop((t.condition(), t.then_expr(), t.else_expr())),
        Expr::Assign(a) => drop((a.target(), a.value())),
        Expr::Field(f) => drop((f.receiver(), f.name())),
        Expr::Index(i) => drop((i.base(), i.index())),
        Expr::Call(c) => drop(c.arg_list().map(|a| a.items().count())),
        Expr::Arrow(a) => drop((a.ret_type(), a.param_list(), a.body())),
        _ => {}
    }
}

fn check(text: &str, walk_ast: bool) -> Result<(), String> {
    let result = panic::catch_unwind(|| {
        let parse = parse(text);
        if walk_ast {
            exercise(&parse.syntax_node());
        }
        parse.syntax_node().text() == text
    });
    match result {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!("round trip failed for {text:?}")),
        Err(_) => Err(format!("panic while parsing {text:?}")),
    }
}

#[test]
fn mutated_corpus_never_panics_and_round_trips() {
    let files = corpus();
    assert!(!files.is_empty(), "no corpus files");
    // `FESTINA_FUZZ_MUTATIONS=n` sets the per-file count explicitly.
    let per_file = std::env::var("FESTINA_FUZZ_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or((MUTATION_BUDGET / files.len()).max(MIN_MUTATIONS_PER_FILE));
    let mut rng = Rng(0x5EED_F00D_CAFE_BABE);
    for (index, base) in files.iter().enumerate() {
        let other = &files[(index * 7 + 3) % files.len()];
        for round in 0..per_file {
            let bytes = mutate(&mut rng, base, other);
            let text = String::from_utf8_lossy(&bytes);
            if let Err(message) = check(&text, round % EXERCISE_EVERY == 0) {
                panic!("{message}");
            }
        }
    }
}

#[test]
fn pathological_inputs() {
    let deep_parens = "(".repeat(5000);
    let deep_blocks = "{".repeat(5000);
    let deep_templates = "`${".repeat(2000);
    let deep_types = "arr[".repeat(3000);
    let long_chain = "a + ".repeat(3000) + "a";
    let prefixes = "-".repeat(5000) + "x";
    let else_ifs = "if a { } else ".repeat(3000) + "{ }";
    for text in [
        deep_parens,
        deep_blocks,
        deep_templates,
        deep_types,
        long_chain,
        prefixes,
        else_ifs,
        String::new(),
        "\0\0\0".into(),
        "`".into(),
        "/".into(),
        "'".into(),
        "}}}}".into(),
    ] {
        if let Err(message) = check(&text, true) {
            panic!("{}", message.chars().take(200).collect::<String>());
        }
    }
}
