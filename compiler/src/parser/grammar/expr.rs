//! Expressions (§9), by precedence climbing (§9.13).

use super::{decl, delimited, expect_closer, recover_group, recover_in_list, types};
use crate::parser::{CompletedMarker, Parser};
use crate::syntax::{binary_precedence, SyntaxKind::*};

/// True when the next token can begin an expression.
pub(crate) fn at_expr_start(p: &Parser<'_>) -> bool {
    let kind = p.current();
    kind.is_type_keyword()
        || matches!(
            kind,
            INT_NUMBER
                | FLOAT_NUMBER
                | STRING
                | TRUE_KW
                | FALSE_KW
                | NULL_KW
                | REGEX
                | BACKTICK
                | IDENT
                | LOG_KW
                | FAIL_KW
                | SQLITE_KW
                | L_PAREN
                | L_BRACK
                | MINUS
                | PLUS
                | BANG
                | TILDE
                | TYPEOF_KW
                | VOID_KW
                | ARR_KW
                | MAP_KW
                | AMOR_KW
                | FUNC_KW
        )
        || (kind == L_CURLY && !p.no_map())
}

/// True when the tokens from the `n`th one look like arrow parameters:
/// `( )` followed by `=>`, or `( name :`.
pub(crate) fn arrow_params_ahead(p: &Parser<'_>, n: usize) -> bool {
    p.nth(n) == L_PAREN
        && ((p.nth(n + 1) == R_PAREN && p.nth(n + 2) == FAT_ARROW)
            || (p.nth(n + 1) == IDENT && p.nth(n + 2) == COLON))
}

/// `Expression ::= Assignment | ConditionalExpression` (§9.11, §9.10).
/// Reports `expected expression` when none starts here.
pub(crate) fn expr(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !p.enter() {
        recover_group(p);
        p.leave();
        return None;
    }
    let result = assignment(p);
    p.leave();
    result
}

/// True when the next token is a line feed and the first token of the
/// next non-empty line is `kind` (`?`, `:` or `=`): the line continues the
/// expression of the line before. The reference compiler reads line feeds
/// as blanks, and JavaScript programmers break long expressions before
/// an operator; so does `binary` for a line that begins with a binary
/// operator. A line that begins with `(` or `[` still starts a new
/// statement (the JavaScript hazard; README, differences).
fn line_starts_with(p: &Parser<'_>, kind: crate::syntax::SyntaxKind) -> bool {
    p.at(NEWLINE) && p.current_after_newlines() == kind
}

/// `target = value`, right-associative, lowest precedence.
fn assignment(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let lhs = ternary(p)?;
    if line_starts_with(p, EQ) {
        p.skip_newlines();
    }
    if !p.at(EQ) {
        return Some(lhs);
    }
    let m = lhs.precede(p);
    p.bump_then_skip_newlines();
    expr(p);
    Some(m.complete(p, ASSIGN_EXPR))
}

/// `c ? a : b`, right-associative.
fn ternary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let cond = binary(p, 0)?;
    if line_starts_with(p, QUESTION) {
        p.skip_newlines();
    }
    if !p.at(QUESTION) {
        return Some(cond);
    }
    let m = cond.precede(p);
    p.bump_then_skip_newlines();
    expr(p);
    if line_starts_with(p, COLON) {
        p.skip_newlines();
    }
    if p.at(COLON) {
        p.bump_then_skip_newlines();
        expr(p);
    } else {
        p.error("expected ':' and the else branch of '?:'");
    }
    Some(m.complete(p, TERNARY_EXPR))
}

/// Binary operators with binding power above `min` (§9.7-§9.9).
fn binary(p: &mut Parser<'_>, min: u8) -> Option<CompletedMarker> {
    let mut lhs = unary(p)?;
    loop {
        // A line that begins with a binary operator continues this one.
        if p.at(NEWLINE) && binary_precedence(p.current_after_newlines()).is_some() {
            p.skip_newlines();
        }
        let Some(prec) = binary_precedence(p.current()) else {
            break;
        };
        if prec <= min {
            break;
        }
        if is_compound_assignment(p) {
            compound_assignment(p, lhs);
            break;
        }
        let m = lhs.precede(p);
        p.bump_then_skip_newlines();
        binary(p, prec);
        lhs = m.complete(p, BIN_EXPR);
    }
    Some(lhs)
}

/// True at `+=`, `-=`, `*=`, `/=`, `%=`, `&=`, `|=`, `^=`, `<<=` or `>>=`
/// (not Festina operators, §7.6).
fn is_compound_assignment(p: &Parser<'_>) -> bool {
    matches!(
        p.current(),
        PLUS | MINUS | STAR | SLASH | PERCENT | AMP | PIPE | CARET | SHL | SHR
    ) && p.next_is_glued(EQ)
}

/// Reports `x += 2` as `unexpected '+=' (write x = x + 2)` and wraps the
/// operator in an `ERROR` node, so that `x = 2` still parses as an
/// assignment.
fn compound_assignment(p: &mut Parser<'_>, lhs: CompletedMarker) {
    let target = p.text_since(lhs.start_token()).trim().to_string();
    let op = p.nth_text(0);
    let op_range = p.current_range();
    let m = p.start();
    p.bump();
    let value = p.rest_of_line_after_current();
    let value = if value.is_empty() { "..." } else { value };
    let range = op_range.cover(p.current_range());
    p.error_at(
        range,
        format!("unexpected '{op}=' (write {target} = {target} {op} {value})"),
    );
    m.complete(p, ERROR);
}

/// `- + ! ~ typeof` prefix operators (§9.6; `~` is the bitwise not).
fn unary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !matches!(p.current(), MINUS | PLUS | BANG | TILDE | TYPEOF_KW) {
        return postfix(p);
    }
    if !p.enter() {
        recover_group(p);
        p.leave();
        return None;
    }
    let m = p.start();
    p.bump_then_skip_newlines();
    if unary(p).is_none() {
        // The error was reported by the operand.
    }
    p.leave();
    Some(m.complete(p, PREFIX_EXPR))
}

/// Member access, indexing, calls and `++`/`--` (§9.2-§9.5). A line that
/// starts with `.` continues the chain.
fn postfix(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let mut lhs = primary(p)?;
    loop {
        lhs = match p.current() {
            DOT => field(p, lhs),
            L_PAREN => call(p, lhs),
            L_BRACK => index(p, lhs),
            PLUS2 | MINUS2 => {
                let m = lhs.precede(p);
                p.bump();
                m.complete(p, POSTFIX_EXPR)
            }
            NEWLINE if p.current_after_newlines() == DOT => {
                p.skip_newlines();
                continue;
            }
            _ => break,
        };
    }
    Some(lhs)
}

/// `receiver.name`, where the name may be a reserved word (§7.4).
fn field(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    let m = lhs.precede(p);
    p.bump();
    let kind = p.current();
    if kind == IDENT || kind.is_keyword() {
        p.bump();
    } else {
        p.error("expected a member name after '.'");
    }
    m.complete(p, FIELD_EXPR)
}

fn call(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    let m = lhs.precede(p);
    arg_list(p);
    m.complete(p, CALL_EXPR)
}

/// `( arg, ... )`.
fn arg_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.with_ctx(true, false, |p| {
        p.bump();
        delimited(p, R_PAREN, at_expr_start, argument);
        expect_closer(p, R_PAREN);
    });
    m.complete(p, ARG_LIST);
}

/// A call argument: an expression, or a keyword/composite type standing
/// alone (`s.toArr(arr[int])`, §9.4), which becomes a `TYPE_ARG`.
fn argument(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let kind = p.current();
    let type_start = kind.is_type_keyword()
        || matches!(kind, ARR_KW | MAP_KW | AMOR_KW)
        || (kind == FUNC_KW && p.nth(1) == L_BRACK);
    let bare = type_start && matches!(p.nth(1), COMMA | R_PAREN);
    if !(bare || (type_start && matches!(kind, ARR_KW | MAP_KW | AMOR_KW | FUNC_KW))) {
        return expr(p);
    }
    Some(type_or_arrow(p, true))
}

fn index(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    let m = lhs.precede(p);
    p.with_ctx(true, false, |p| {
        p.bump();
        expr(p);
        expect_closer(p, R_BRACK);
    });
    m.complete(p, INDEX_EXPR)
}

/// Primary expressions (§9.1). Bad-character tokens (already reported by
/// the lexer) in front of it are wrapped in `ERROR` nodes and skipped.
fn primary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let skipped_junk = p.at_lexer_error();
    while p.at_lexer_error() {
        let m = p.start();
        p.bump();
        m.complete(p, ERROR);
    }
    if skipped_junk && !at_expr_start(p) {
        return None;
    }
    let kind = p.current();
    let done = match kind {
        INT_NUMBER | FLOAT_NUMBER | STRING | TRUE_KW | FALSE_KW | NULL_KW => single(p, LITERAL),
        REGEX => single(p, REGEX_LIT),
        BACKTICK => template(p),
        IDENT if arrow_params_ahead(p, 1) => ident_arrow(p),
        IDENT | LOG_KW | FAIL_KW | SQLITE_KW => single(p, NAME_REF),
        L_PAREN => paren(p),
        L_BRACK => array(p),
        L_CURLY if !p.no_map() => map(p),
        VOID_KW => void_arrow(p),
        _ if types::at_type_start(p) => type_or_arrow(p, false),
        _ => {
            expected_expression(p);
            return None;
        }
    };
    Some(done)
}

/// Reports a missing expression, swallowing the offending token unless
/// it can end or separate something.
fn expected_expression(p: &mut Parser<'_>) {
    p.error("expected an expression");
    let stop = [
        NEWLINE, SEMICOLON, EOF, R_PAREN, R_BRACK, R_CURLY, L_CURLY, COMMA, COLON, FAT_ARROW,
    ];
    if !p.at_any(&stop) {
        recover_group(p);
    }
}

fn single(p: &mut Parser<'_>, kind: crate::syntax::SyntaxKind) -> CompletedMarker {
    let m = p.start();
    p.bump();
    m.complete(p, kind)
}

/// `` `chunk${expr}chunk` `` (§7.5.3).
fn template(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump();
    loop {
        match p.current() {
            TEMPLATE_CHUNK => p.bump(),
            DOLLAR_L_CURLY => substitution(p),
            BACKTICK => {
                p.bump();
                break;
            }
            // Only the end of input can get here; the lexer reported it.
            _ => break,
        }
    }
    m.complete(p, TEMPLATE)
}

fn substitution(p: &mut Parser<'_>) {
    let m = p.start();
    p.with_ctx(true, false, |p| {
        p.bump();
        expr(p);
        if !p.at(R_CURLY) && !p.at(EOF) {
            // (At the end of input the lexer already reported it.)
            p.error("expected '}' to close the template substitution");
            recover_substitution(p);
        }
        p.eat(R_CURLY);
    });
    m.complete(p, TEMPLATE_SUBST);
}

/// Skips to the `}` that the lexer paired with `${` (only braces count,
/// exactly as in the lexer).
fn recover_substitution(p: &mut Parser<'_>) {
    let m = p.start();
    let mut depth = 0usize;
    loop {
        match p.current() {
            EOF => break,
            R_CURLY if depth == 0 => break,
            R_CURLY => depth -= 1,
            L_CURLY | DOLLAR_L_CURLY => depth += 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR);
}

fn paren(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.with_ctx(true, false, |p| {
        p.bump();
        expr(p);
        expect_closer(p, R_PAREN);
    });
    m.complete(p, PAREN_EXPR)
}

fn array(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.with_ctx(true, false, |p| {
        p.bump();
        delimited(p, R_BRACK, at_expr_start, expr);
        expect_closer(p, R_BRACK);
    });
    m.complete(p, ARRAY_LIT)
}

/// `{ key: value, name }` (§9.1.3).
fn map(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.with_ctx(true, false, |p| {
        p.bump();
        delimited(p, R_CURLY, at_expr_start, map_entry);
        expect_closer(p, R_CURLY);
    });
    m.complete(p, MAP_LIT)
}

fn map_entry(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !at_expr_start(p) {
        p.error("expected a map entry 'key: value'");
        return None;
    }
    let m = p.start();
    if p.at(IDENT) && matches!(p.nth(1), COMMA | R_CURLY) {
        p.bump();
        return Some(m.complete(p, MAP_ENTRY));
    }
    expr(p);
    if p.at(COLON) {
        p.bump_then_skip_newlines();
        expr(p);
    } else {
        p.error("expected ':' and the value");
        recover_in_list(p, R_CURLY);
    }
    Some(m.complete(p, MAP_ENTRY))
}

/// `( params ) => body` after the return type of an arrow (§9.1.5).
pub(crate) fn arrow_rest(p: &mut Parser<'_>) {
    if p.at(L_PAREN) {
        decl::param_list(p);
    } else {
        p.error("expected '(' and the arrow function parameters");
        return;
    }
    if p.at(FAT_ARROW) {
        p.bump_then_skip_newlines();
        expr(p);
    } else {
        p.error("expected '=>' and the arrow function body");
    }
}

/// `Name (params) => body`, an arrow returning a declared type.
fn ident_arrow(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    single(p, NAMED_TYPE);
    arrow_rest(p);
    m.complete(p, ARROW_FUNC)
}

fn void_arrow(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump();
    arrow_rest(p);
    m.complete(p, ARROW_FUNC)
}

/// A keyword type in expression position: an arrow if `(` follows,
/// otherwise a type argument such as `s.toArr(arr[int])` (§9.4), which
/// is an error unless `type_arg_ok` (directly inside an argument list).
fn type_or_arrow(p: &mut Parser<'_>, type_arg_ok: bool) -> CompletedMarker {
    let m = p.start();
    types::type_ref(p);
    if p.at(L_PAREN) {
        arrow_rest(p);
        return m.complete(p, ARROW_FUNC);
    }
    let ty = m.complete(p, TYPE_ARG);
    if !type_arg_ok {
        let range = p.range_since(ty.start_token());
        p.error_at(
            range,
            "a type cannot be used as a value here (an arrow function needs '(params) =>')",
        );
    }
    ty
}
