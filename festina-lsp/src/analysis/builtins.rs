//! The builtins as the editor shows them: signatures rendered from the
//! tables of `festina-signatures`, with the clause and one line from its
//! `docs` module; and the few global names the checker handles itself
//! (`Math`, `argv`, `environment`, `DatabaseURL`, `sqlite`).

use super::ty::{recv_text, shape_text};
use festina_signatures::docs::{doc, Owner};
use festina_signatures::{Recv, BUILTINS, MATH, MATH_CONSTANTS, METHODS, PROPERTIES, VALUES};

/// A builtin a name resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A global function of the tables (§16.1).
    Global(&'static str),
    /// A read-only global value of the tables, e.g. `clientWidth` (§17.2).
    Value(&'static str),
    /// A function or constant of `Math` (§16.2).
    Math(&'static str),
    /// A method or property of a receiver kind (§16.3).
    Member(Recv, &'static str),
    /// A global the checker handles itself (see [`SPECIALS`]).
    Special(&'static str),
}

/// The globals the checker handles itself: name, what it is, clause and
/// description.
pub const SPECIALS: &[(&str, &str, &str, &str)] = &[
    (
        "Math",
        "namespace Math",
        "§16.2",
        "The math functions and the constants PI and E.",
    ),
    (
        "argv",
        "arr[text] argv",
        "§16.2",
        "The program path followed by its arguments.",
    ),
    (
        "environment",
        "namespace environment",
        "§16.2",
        "`environment.NAME` or `environment['NAME']`: the environment variable as text, or null.",
    ),
    (
        "DatabaseURL",
        "text DatabaseURL",
        "§6.4",
        "Assign the database file's name before the first query (default festina.sqlite).",
    ),
    (
        "sqlite",
        "sqlite(sql:text[, params:arr])",
        "§15.4",
        "Runs one SQL statement with bound parameters; as the initializer of an arr[Table] or arr[Struct] it fills the array with the rows.",
    ),
];

/// The builtin a bare name denotes, if any.
pub fn global(name: &str) -> Option<Builtin> {
    if let Some(b) = BUILTINS.iter().find(|b| b.name == name) {
        return Some(Builtin::Global(b.name));
    }
    if let Some(v) = VALUES.iter().find(|v| v.name == name) {
        return Some(Builtin::Value(v.name));
    }
    SPECIALS
        .iter()
        .find(|s| s.0 == name)
        .map(|s| Builtin::Special(s.0))
}

/// The `Math` member `name`, if any.
pub fn math(name: &str) -> Option<Builtin> {
    MATH.iter()
        .map(|b| b.name)
        .chain(MATH_CONSTANTS.iter().map(|c| c.0))
        .find(|n| *n == name)
        .map(Builtin::Math)
}

/// The method or property `name` of the first receiver kind in `recvs`
/// that has it.
pub fn member(recvs: &[Recv], name: &str) -> Option<Builtin> {
    recvs.iter().find_map(|&recv| {
        METHODS
            .iter()
            .filter(|m| m.recv == recv)
            .map(|m| m.name)
            .chain(PROPERTIES.iter().filter(|p| p.recv == recv).map(|p| p.name))
            .find(|n| *n == name)
            .map(|n| Builtin::Member(recv, n))
    })
}

/// Every signature of the builtin, as written in Festina.
pub fn signatures(b: Builtin) -> Vec<String> {
    let params = |ps: &[festina_signatures::Shape]| {
        ps.iter()
            .map(|&s| shape_text(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match b {
        Builtin::Global(name) => BUILTINS
            .iter()
            .filter(|f| f.name == name)
            .map(|f| format!("{name}({}): {}", params(f.params), shape_text(f.ret)))
            .collect(),
        Builtin::Value(name) => VALUES
            .iter()
            .filter(|v| v.name == name)
            .map(|v| format!("{name}: {}", shape_text(v.ret)))
            .collect(),
        Builtin::Math(name) => {
            let mut out: Vec<String> = MATH
                .iter()
                .filter(|f| f.name == name)
                .map(|f| format!("Math.{name}({}): {}", params(f.params), shape_text(f.ret)))
                .collect();
            if MATH_CONSTANTS.iter().any(|c| c.0 == name) {
                out.push(format!("Math.{name}: float"));
            }
            out
        }
        Builtin::Member(recv, name) => {
            let on = recv_text(recv);
            let mut out: Vec<String> = METHODS
                .iter()
                .filter(|m| m.recv == recv && m.name == name)
                .map(|m| format!("{on}.{name}({}): {}", params(m.params), shape_text(m.ret)))
                .collect();
            out.extend(
                PROPERTIES
                    .iter()
                    .filter(|p| p.recv == recv && p.name == name)
                    .map(|p| format!("{on}.{name}: {}", shape_text(p.ret))),
            );
            out
        }
        Builtin::Special(name) => SPECIALS
            .iter()
            .filter(|s| s.0 == name)
            .map(|s| s.1.to_string())
            .collect(),
    }
}

/// The clause and the line of documentation of the builtin.
pub fn documentation(b: Builtin) -> Option<(&'static str, &'static str)> {
    let found = match b {
        Builtin::Global(name) | Builtin::Value(name) => doc(Owner::Global, name),
        Builtin::Math(name) => doc(Owner::Math, name),
        Builtin::Member(recv, name) => doc(Owner::Recv(recv), name),
        Builtin::Special(name) => {
            return SPECIALS.iter().find(|s| s.0 == name).map(|s| (s.2, s.3));
        }
    };
    found.map(|d| (d.clause, d.text))
}

/// The hover text of the builtin (Markdown): its signatures in a code
/// block, then the clause and the line of documentation.
pub fn hover(b: Builtin) -> String {
    let mut out = String::from("```festina\n");
    for sig in signatures(b) {
        out.push_str(&sig);
        out.push('\n');
    }
    out.push_str("```\n");
    if let Some((clause, text)) = documentation(b) {
        out.push_str(&format!("builtin, {clause}: {text}"));
    }
    out
}

/// The name of the builtin.
pub fn name(b: Builtin) -> &'static str {
    match b {
        Builtin::Global(n)
        | Builtin::Value(n)
        | Builtin::Math(n)
        | Builtin::Member(_, n)
        | Builtin::Special(n) => n,
    }
}
