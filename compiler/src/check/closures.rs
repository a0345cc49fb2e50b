//! The diagnostic for a name that is a variable of an *enclosing*
//! function (§11.1.4: there are no closures).
//!
//! A function or arrow function declared inside another function or block
//! is a global function: its body sees only globals, its own parameters
//! and its own locals. Someone coming from JavaScript writes
//! `void func inner() { count++ }` inside `outer` and gets `unknown name
//! 'count'`; when the name is in fact a parameter or local of an enclosing
//! function (or of a block around the declaration), the error says so,
//! says that Festina has no closures, and what to do instead. The check
//! only runs on the error path, walking the syntax tree upwards from the
//! use.

use crate::ast::{self, Node};
use crate::syntax::SyntaxKind::{
    self, ARROW_FUNC, BLOCK, FOR_STMT, FUNC_DECL, ON_DECL, PARAM, PARAM_LIST, SOURCE_FILE,
    THREAD_DECL, TRY_STMT, VAR_DECL,
};

/// The message for `unknown name 'name'` used at `at` (a node inside the
/// function being checked), when `name` is a variable of something
/// enclosing that function; `None` otherwise.
pub(super) fn closure_message(at: Option<Node>, name: &str) -> Option<String> {
    let mut node = at?;
    // The function whose body holds the use; its own scope was searched.
    let mut inner: Option<SyntaxKind> = None;
    loop {
        let kind = node.kind();
        if matches!(kind, SOURCE_FILE | THREAD_DECL) {
            return None;
        }
        if inner.is_some() && declares(&node, name) {
            let owner = owner_of(&node);
            let what = match inner {
                Some(ARROW_FUNC) => "an arrow function",
                _ => "a nested function",
            };
            return Some(format!(
                "unknown name '{name}': it is a variable of {owner}, and Festina has no closures \
                 ({what} sees only globals, its own parameters and its own locals, §11.1.4); \
                 pass '{name}' as a parameter, or keep it in a global or in a struct you pass"
            ));
        }
        if inner.is_none() && matches!(kind, FUNC_DECL | ARROW_FUNC | ON_DECL) {
            inner = Some(kind);
        }
        node = node.parent()?;
    }
}

/// True when `node` (an enclosing block, loop, `try`, function or arrow)
/// binds `name` for the code inside it.
fn declares(node: &Node, name: &str) -> bool {
    let named = |t: Option<ast::Token>| t.is_some_and(|t| t.text() == name);
    match node.kind() {
        BLOCK => node
            .children()
            .filter(|c| c.kind() == VAR_DECL)
            .any(|c| named(ast::VarDecl::cast(c).and_then(|v| v.name()))),
        FOR_STMT => named(
            ast::ForStmt::cast(node.clone())
                .and_then(|f| f.init())
                .and_then(|v| v.name()),
        ),
        TRY_STMT => named(ast::TryStmt::cast(node.clone()).and_then(|t| t.catch_name())),
        FUNC_DECL | ARROW_FUNC | ON_DECL => node
            .children()
            .filter(|c| c.kind() == PARAM_LIST)
            .flat_map(|l| {
                l.children()
                    .filter(|p| p.kind() == PARAM)
                    .collect::<Vec<_>>()
            })
            .any(|p| named(ast::Param::cast(p).and_then(|p| p.name()))),
        _ => false,
    }
}

/// How to name the function (or top-level code) that owns the variable
/// declared by `node`.
fn owner_of(node: &Node) -> String {
    let mut n = Some(node.clone());
    while let Some(x) = n {
        match x.kind() {
            FUNC_DECL => {
                return match ast::FuncDecl::cast(x).and_then(|f| f.name()) {
                    Some(name) => format!("function '{}'", name.text()),
                    None => "the enclosing function".to_string(),
                }
            }
            ARROW_FUNC => return "the enclosing arrow function".to_string(),
            ON_DECL => {
                return match ast::OnDecl::cast(x).and_then(|h| h.name()) {
                    Some(name) => format!("handler 'on {}'", name.text()),
                    None => "the enclosing handler".to_string(),
                }
            }
            SOURCE_FILE => return "the top-level code".to_string(),
            _ => n = x.parent(),
        }
    }
    "the top-level code".to_string()
}
