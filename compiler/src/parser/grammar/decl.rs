//! Declarations (§11) and `import` (§6.2).

use super::{delimited, expect_closer, expect_name, recover_line, stmt, types};
use crate::parser::Parser;
use crate::syntax::SyntaxKind::{self, *};

/// `import path` (§6.2); the path is one `IMPORT_PATH` token.
pub(crate) fn import_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    p.expect(IMPORT_PATH, "a file path after 'import'");
    m.complete(p, IMPORT_DECL);
}

/// The part of a function declaration after its return type (§11.1):
/// `func name(params) { }`.
pub(crate) fn func_rest(p: &mut Parser<'_>) {
    p.bump();
    expect_name(p, "a function name");
    if p.at(L_PAREN) {
        param_list(p);
    } else {
        p.error("expected '(' and the parameter list");
    }
    stmt::block_or_error(p, "to start the function body");
}

/// `func name() { }` without a return type: parsed as a function
/// declaration, with an error.
pub(crate) fn untyped_func(p: &mut Parser<'_>) {
    let m = p.start();
    p.error("a function declaration needs a return type or 'void' before 'func'");
    func_rest(p);
    m.complete(p, FUNC_DECL);
}

/// `( name:Type, ... )`.
pub(crate) fn param_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.with_ctx(true, false, |p| {
        p.bump();
        delimited(
            p,
            R_PAREN,
            |p| p.at(IDENT) || p.current().is_keyword(),
            param,
        );
        expect_closer(p, R_PAREN);
    });
    m.complete(p, PARAM_LIST);
}

/// `name:DeclaredType`.
fn param(p: &mut Parser<'_>) -> Option<()> {
    if !p.at(IDENT) && !p.current().is_keyword() {
        p.error("expected a parameter 'name:type'");
        return None;
    }
    let m = p.start();
    expect_name(p, "a parameter name");
    if p.expect(COLON, "':' and the parameter type") {
        types::type_ref(p);
    }
    m.complete(p, PARAM);
    Some(())
}

/// `struct|table Name { field:Type ... }` (§8.9, §8.10). Fields are
/// separated by line feeds, whitespace, `;` or `,`.
pub(crate) fn record_decl(p: &mut Parser<'_>, kind: SyntaxKind) {
    let m = p.start();
    p.bump();
    expect_name(p, "a name");
    stmt_skip_to_curly(p);
    if p.at(L_CURLY) {
        p.bump();
        p.with_ctx(false, false, fields);
    } else {
        p.error("expected '{' and the field list");
    }
    m.complete(p, kind);
}

fn stmt_skip_to_curly(p: &mut Parser<'_>) {
    if p.at(NEWLINE) && p.current_after_newlines() == L_CURLY {
        p.skip_newlines();
    }
}

fn fields(p: &mut Parser<'_>) {
    loop {
        match p.current() {
            NEWLINE | SEMICOLON | COMMA => p.bump(),
            R_CURLY => {
                p.bump();
                break;
            }
            EOF => {
                p.error("expected '}'");
                break;
            }
            IDENT => field_decl(p),
            _ => {
                p.error("expected a field 'name:type'");
                recover_line(p);
            }
        }
    }
}

/// `name:Type` or `name:weak Type`. `weak` (the reference's addition
/// after edition 0.44) is a contextual word: it is a modifier only
/// directly after the `:` and before a type; `weak:int` is a field named
/// `weak`, and `x:weak` (nothing after it) a field of a type named `weak`.
fn field_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    if p.expect(COLON, "':' and the field type") {
        if p.at_contextual("weak")
            && !matches!(p.nth(1), NEWLINE | SEMICOLON | COMMA | R_CURLY | EOF)
        {
            p.bump();
        }
        types::type_ref(p);
    }
    m.complete(p, FIELD_DECL);
}

/// `enum Name = Type, Type, ...` (§8.11).
pub(crate) fn enum_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    expect_name(p, "the enum name");
    if p.at(EQ) {
        p.bump_then_skip_newlines();
        types::type_ref(p);
        while p.at(COMMA) {
            p.bump_then_skip_newlines();
            types::type_ref(p);
        }
    } else {
        p.error("expected '=' and the member types");
    }
    m.complete(p, ENUM_DECL);
}

/// `test name = description` (the reference's §11.7): a group of
/// assertions. The caller checked the shape (`test`, a name, `=`).
pub(crate) fn test_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    p.bump();
    p.bump_then_skip_newlines();
    super::expr::expr(p);
    m.complete(p, TEST_DECL);
}

/// `on event(params) { }` or `on request use pool` (§11.5).
pub(crate) fn on_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    p.expect(IDENT, "an event name");
    if p.at_contextual("use") {
        p.bump();
        p.expect(IDENT, "a thread pool name after 'use'");
    } else if p.at(L_PAREN) {
        param_list(p);
        stmt::block_or_error(p, "to start the handler body");
    } else {
        p.error("expected '(' and the handler parameters");
    }
    m.complete(p, ON_DECL);
}

/// `thread name [ '[' [n] ']' ] { members }` (§11.6).
pub(crate) fn thread_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    p.bump();
    if p.at(L_BRACK) {
        p.with_ctx(true, false, |p| {
            p.bump();
            p.eat(INT_NUMBER);
            expect_closer(p, R_BRACK);
        });
    }
    stmt::block_or_error(p, "to start the thread body");
    m.complete(p, THREAD_DECL);
}
