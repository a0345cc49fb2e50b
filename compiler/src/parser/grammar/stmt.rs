//! Statements (§10) and blocks.

use super::{decl, expect_name, expr, recover_line, types};
use crate::parser::Parser;
use crate::syntax::SyntaxKind::{self, *};

/// Statements up to `}` (inside a block) or the end of the file, with the
/// `NEWLINE` / `;` separators of §7.1 as direct children.
pub(crate) fn statement_list(p: &mut Parser<'_>, in_block: bool) {
    loop {
        let before = p.progress_mark();
        match p.current() {
            NEWLINE | SEMICOLON => p.bump(),
            EOF => break,
            R_CURLY if in_block => break,
            _ => {
                let errors = p.error_count();
                statement(p);
                statement_end(p, in_block, p.error_count() > errors);
                if !in_block {
                    p.statement_done();
                }
            }
        }
        if p.progress_mark() == before {
            p.err_and_bump("unexpected token");
        }
    }
}

/// After a statement: a line feed, `;`, `}`, the end of input, or the
/// start of another statement must follow. Two statements on one line
/// separated only by blanks (`{ end = i break }`) are accepted, as the
/// reference compiler accepts them (it reads line feeds as blanks).
/// Anything else is an error; when the statement already reported one,
/// the rest of the line is skipped silently (one error per broken
/// statement).
fn statement_end(p: &mut Parser<'_>, in_block: bool, already_broken: bool) {
    match p.current() {
        NEWLINE | SEMICOLON | EOF => {}
        R_CURLY if in_block => {}
        _ if !already_broken && at_statement_start(p) => {}
        _ => {
            if !already_broken {
                p.error("expected the end of the statement (a new line or ';')");
            }
            recover_line(p);
        }
    }
}

/// True when the next token ends a statement.
pub(crate) fn at_statement_end(p: &Parser<'_>) -> bool {
    p.at_any(&[NEWLINE, SEMICOLON, R_CURLY, EOF])
}

/// True when the next token can begin a statement (a keyword that starts
/// one, a block, or anything that starts an expression or declaration),
/// except `-`/`+`, which after a complete statement on the same line are
/// more likely a mistake than a new statement.
fn at_statement_start(p: &Parser<'_>) -> bool {
    let kind = p.current();
    matches!(
        kind,
        L_CURLY
            | IF_KW
            | WHILE_KW
            | FOR_KW
            | MATCH_KW
            | TRY_KW
            | RETURN_KW
            | BREAK_KW
            | CONTINUE_KW
            | THROW_KW
            | FREE_KW
            | CLEAR_KW
            | DELETE_KW
            | STRUCT_KW
            | TABLE_KW
            | ENUM_KW
            | ON_KW
            | THREAD_KW
            | CONST_KW
            | FUNC_KW
            | VOID_KW
    ) || (expr::at_expr_start(p) && !matches!(kind, MINUS | PLUS))
}

/// One statement (§10, Annex A `Statement`).
pub(crate) fn statement(p: &mut Parser<'_>) {
    if !p.enter() {
        recover_line(p);
        p.leave();
        return;
    }
    statement_inner(p);
    p.leave();
}

fn statement_inner(p: &mut Parser<'_>) {
    match p.current() {
        L_CURLY => {
            block(p);
        }
        IF_KW => if_stmt(p),
        WHILE_KW => while_stmt(p),
        FOR_KW => for_stmt(p),
        MATCH_KW => match_stmt(p),
        TRY_KW => try_stmt(p),
        RETURN_KW => return_stmt(p),
        BREAK_KW => keyword_only(p, BREAK_STMT),
        CONTINUE_KW => keyword_only(p, CONTINUE_STMT),
        THROW_KW => keyword_expr(p, THROW_STMT),
        FREE_KW => keyword_expr(p, FREE_STMT),
        CLEAR_KW => keyword_expr(p, CLEAR_STMT),
        DELETE_KW => keyword_expr(p, DELETE_STMT),
        _ => other_statement(p),
    }
}

fn other_statement(p: &mut Parser<'_>) {
    match p.current() {
        IMPORT_KW => decl::import_decl(p),
        STRUCT_KW => decl::record_decl(p, STRUCT_DECL),
        TABLE_KW => decl::record_decl(p, TABLE_DECL),
        ENUM_KW => decl::enum_decl(p),
        ON_KW => decl::on_decl(p),
        THREAD_KW if p.nth(1) == IDENT && matches!(p.nth(2), L_CURLY | L_BRACK) => {
            decl::thread_decl(p)
        }
        HTTP_KW if p.nth(1) == L_CURLY => keyword_expr(p, HTTP_STMT),
        BLOB_KW | IMG_KW | AUD_KW if is_load_statement(p) => keyword_expr(p, LOAD_STMT),
        VAR_KW | LET_KW => var_or_let(p),
        IDENT if is_test_decl(p) => decl::test_decl(p),
        ELSE_KW => misplaced(p, "'else' without a matching 'if'"),
        CATCH_KW => misplaced(p, "'catch' without a matching 'try'"),
        CONST_KW => var_decl(p),
        FUNC_KW if p.nth(1) == IDENT => decl::untyped_func(p),
        _ if starts_typed_statement(p) => typed_statement(p),
        _ if expr::at_expr_start(p) => expr_stmt(p),
        R_CURLY | R_PAREN | R_BRACK => {
            let closer = p.nth_text(0);
            misplaced(p, &format!("unmatched '{closer}'"));
        }
        kind if crate::syntax::binary_precedence(kind).is_some()
            || matches!(kind, QUESTION | COLON) =>
        {
            let op = p.nth_text(0);
            misplaced(
                p,
                &format!(
                    "'{op}' cannot begin a statement: a line that begins with an operator continues the expression of the line before, and there is no expression before it here"
                ),
            );
        }
        _ => misplaced(p, "expected a statement"),
    }
}

/// `test name = ...`: the contextual word `test`, a name and `=` (the
/// reference's §11.7). `test = 5`, `test(1, 2)` and `test.x` stay
/// ordinary uses of a name `test`.
fn is_test_decl(p: &Parser<'_>) -> bool {
    p.at_contextual("test") && p.nth(1) == IDENT && p.nth(2) == EQ
}

/// `var x = 1` / `let x = 1`: reserved, never valid (§7.4, Annex D).
fn var_or_let(p: &mut Parser<'_>) {
    let keyword = p.nth_text(0);
    let name = if p.nth(1) == IDENT {
        p.nth_text(1)
    } else {
        "x"
    };
    p.error(format!(
        "'{keyword}' is not Festina: declare with a type, e.g. 'int {name} = ...'"
    ));
    recover_line(p);
}

fn misplaced(p: &mut Parser<'_>, message: &str) {
    p.error(message);
    recover_line(p);
}

/// `blob|img|aud` starts an anonymous load (§10.3) unless a declaration,
/// function or arrow follows.
fn is_load_statement(p: &Parser<'_>) -> bool {
    match p.nth(1) {
        IDENT | QUESTION | FUNC_KW => false,
        L_PAREN => !expr::arrow_params_ahead(p, 1),
        _ => true,
    }
}

/// True when the statement begins with a type: a variable or function
/// declaration, or a statement-level arrow expression.
fn starts_typed_statement(p: &Parser<'_>) -> bool {
    let kind = p.current();
    if kind.is_type_keyword() || matches!(kind, ARR_KW | MAP_KW | AMOR_KW | VOID_KW) {
        return true;
    }
    match kind {
        FUNC_KW => p.nth(1) == L_BRACK,
        IDENT => {
            // `Name`, `Name?`, `Name??` ... followed by a name or `func`.
            let mut n = 1;
            while p.nth(n) == QUESTION {
                n += 1;
            }
            match p.nth(n) {
                FUNC_KW => true,
                IDENT => n == 1 || p.nth(n + 1) != COLON,
                _ => false,
            }
        }
        _ => false,
    }
}

/// `Type name [= e]`, `Type func ...` or `Type (params) => e`.
fn typed_statement(p: &mut Parser<'_>) {
    let outer = p.start();
    let inner = p.start();
    let is_void = p.eat(VOID_KW);
    if !is_void {
        types::type_ref(p);
    }
    match p.current() {
        FUNC_KW => {
            inner.abandon(p);
            decl::func_rest(p);
            outer.complete(p, FUNC_DECL);
        }
        L_PAREN => {
            expr::arrow_rest(p);
            inner.complete(p, ARROW_FUNC);
            outer.complete(p, EXPR_STMT);
        }
        _ => {
            inner.abandon(p);
            if is_void {
                p.error("'void' is not a type: it only marks a function that returns nothing");
            }
            var_decl_rest(p);
            outer.complete(p, VAR_DECL);
        }
    }
}

/// `[const] Type name [= Expression]` (§10.2).
pub(crate) fn var_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.eat(CONST_KW);
    types::type_ref(p);
    var_decl_rest(p);
    m.complete(p, VAR_DECL);
}

fn var_decl_rest(p: &mut Parser<'_>) {
    expect_name(p, "a variable name");
    if p.at(EQ) {
        p.bump_then_skip_newlines();
        expr::expr(p);
    }
}

fn expr_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    expr::expr(p);
    m.complete(p, EXPR_STMT);
}

fn keyword_only(p: &mut Parser<'_>, kind: SyntaxKind) {
    let m = p.start();
    p.bump();
    m.complete(p, kind);
}

/// `keyword Expression`: throw, free, clear, delete, http, blob/img/aud.
fn keyword_expr(p: &mut Parser<'_>, kind: SyntaxKind) {
    let m = p.start();
    p.bump();
    expr::expr(p);
    m.complete(p, kind);
}

fn return_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    if !at_statement_end(p) {
        expr::expr(p);
    }
    m.complete(p, RETURN_STMT);
}

/// `{ Statement* }` (§10.1).
pub(crate) fn block(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    p.with_ctx(false, false, |p| {
        statement_list(p, true);
        p.expect(R_CURLY, "'}'");
    });
    m.complete(p, BLOCK);
}

/// A block, allowing the `{` on the following line; reports its absence
/// as `expected '{' {context}`, e.g. `after the if condition`.
pub(crate) fn block_or_error(p: &mut Parser<'_>, context: &str) {
    if p.at(NEWLINE) && p.current_after_newlines() == L_CURLY {
        p.skip_newlines();
    }
    if p.at(L_CURLY) {
        block(p);
    } else {
        p.error(format!("expected '{{' {context}"));
    }
}

/// A condition: an expression in which `{` cannot open a map (§10.4).
fn condition(p: &mut Parser<'_>) {
    let nl = p.newlines_are_trivia();
    p.with_ctx(nl, true, |p| {
        expr::expr(p);
    });
}

/// Skips line feeds when the next real token is `kind` (`else`, `catch`).
fn skip_newlines_before(p: &mut Parser<'_>, kind: SyntaxKind) {
    if p.at(NEWLINE) && p.current_after_newlines() == kind {
        p.skip_newlines();
    }
}

/// `if c { } else if c { } else { }` (§10.4); the `else if` chain is
/// parsed iteratively, producing nested `IF_STMT` nodes.
fn if_stmt(p: &mut Parser<'_>) {
    let mut open = Vec::new();
    loop {
        open.push(p.start());
        p.bump();
        condition(p);
        block_or_error(p, "after the if condition");
        skip_newlines_before(p, ELSE_KW);
        if !p.eat(ELSE_KW) {
            break;
        }
        match p.current() {
            IF_KW => continue,
            L_CURLY => block(p),
            _ => p.error("expected 'if' or '{' after 'else'"),
        }
        break;
    }
    while let Some(m) = open.pop() {
        m.complete(p, IF_STMT);
    }
}

fn while_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    condition(p);
    block_or_error(p, "after the while condition");
    m.complete(p, WHILE_STMT);
}

/// `for Decl, Cond, Update { }` (§10.6).
fn for_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    if c_style_for_header(p) {
        c_style_for(p);
        block_or_error(p, "after the for header");
        m.complete(p, FOR_STMT);
        return;
    }
    let nl = p.newlines_are_trivia();
    p.with_ctx(nl, true, |p| {
        if !p.at(L_CURLY) {
            var_decl(p);
        }
        for _ in 0..2 {
            if p.at(L_CURLY) {
                p.error("expected ',' and the rest of the for header");
                return;
            }
            if p.at(COMMA) {
                p.bump_then_skip_newlines();
            } else {
                p.error("expected ','");
            }
            expr::expr(p);
        }
    });
    block_or_error(p, "after the for header");
    m.complete(p, FOR_STMT);
}

/// True when the `for` header ahead is written the C way: in
/// parentheses, or with `;` between its parts (before the body's `{`, on
/// the header's line).
fn c_style_for_header(p: &Parser<'_>) -> bool {
    if p.at(L_PAREN) {
        return true;
    }
    let mut depth = 0usize;
    for n in 0..512 {
        match p.nth(n) {
            EOF | NEWLINE => return false,
            L_PAREN | L_BRACK => depth += 1,
            R_PAREN | R_BRACK => depth = depth.saturating_sub(1),
            L_CURLY if depth == 0 => return false,
            SEMICOLON if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// A C-style `for` header (`for (int i = 0; i < n; i++)`): one error that
/// shows the Festina form built from the user's own parts (§10.6), the
/// header wrapped in an `ERROR` node.
fn c_style_for(p: &mut Parser<'_>) {
    let at = p.current_range();
    let from = p.progress_mark();
    let m = p.start();
    let mut depth = 0;
    loop {
        match p.current() {
            EOF | NEWLINE => break,
            L_CURLY if depth == 0 => break,
            _ => depth = super::bump_counting(p, depth),
        }
    }
    m.complete(p, ERROR);
    let header = festina_for_header(p.text_since(from));
    p.error_at(
        at,
        format!(
            "a for header has no parentheses and separates its three parts with commas (§10.6): write `for {header} {{`"
        ),
    );
}

/// The parts of a C-style `for` header (`(init; cond; update)`) joined the
/// Festina way: `init, cond, update`.
fn festina_for_header(c: &str) -> String {
    let c = c.trim();
    let c = match c.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        Some(inner) => inner,
        None => c,
    };
    // Split on `;` outside brackets and quotes.
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    for (i, ch) in c.char_indices() {
        match (quote, ch) {
            (Some(q), _) if ch == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(ch),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ';') if depth == 0 => {
                parts.push(c[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(c[start..].trim());
    parts.retain(|x| !x.is_empty());
    parts.join(", ")
}

/// `match subject { 'Tag' { } default { } }` (§10.9).
fn match_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    condition(p);
    if p.at(NEWLINE) && p.current_after_newlines() == L_CURLY {
        p.skip_newlines();
    }
    if p.at(L_CURLY) {
        p.bump();
        p.with_ctx(false, false, match_arms);
    } else {
        p.error("expected '{' and the match arms");
    }
    m.complete(p, MATCH_STMT);
}

fn match_arms(p: &mut Parser<'_>) {
    loop {
        match p.current() {
            NEWLINE | SEMICOLON => p.bump(),
            R_CURLY => {
                p.bump();
                break;
            }
            EOF => {
                p.error("expected '}'");
                break;
            }
            STRING => match_arm(p),
            IDENT if p.at_contextual("default") => match_arm(p),
            _ => {
                p.error("expected a match arm: a string tag or 'default', then a block");
                recover_line(p);
            }
        }
    }
}

fn match_arm(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    block_or_error(p, "after the match tag");
    m.complete(p, MATCH_ARM);
}

/// `try { } catch (name:text) { }` (§10.10).
fn try_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump();
    block_or_error(p, "after 'try'");
    skip_newlines_before(p, CATCH_KW);
    if p.eat(CATCH_KW) {
        catch_header(p);
        block_or_error(p, "after the catch clause");
    } else {
        p.error("expected 'catch': every 'try' needs one");
    }
    m.complete(p, TRY_STMT);
}

fn catch_header(p: &mut Parser<'_>) {
    if !p.at(L_PAREN) {
        p.error("expected '(name:text)' after 'catch'");
        return;
    }
    p.with_ctx(true, false, |p| {
        p.bump();
        expect_name(p, "the name of the caught error");
        p.expect(COLON, "':'");
        types::type_ref(p);
        super::expect_closer(p, R_PAREN);
    });
}
