//! Grammar functions, one per construct of Annex A.
//!
//! Each function starts at the construct's first token (checked by the
//! caller), consumes what it can, reports what is missing, and never
//! consumes a token that could close an enclosing construct unless it
//! reports an error for it.

mod decl;
mod expr;
mod stmt;
mod types;

use super::Parser;
use crate::syntax::SyntaxKind::{self, *};

/// `Program ::= { Statement }` — the root `SOURCE_FILE` node.
pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start_root();
    stmt::statement_list(p, false);
    p.flush_all();
    m.complete(p, SOURCE_FILE);
}

/// Opening brackets, counted by the balanced recovery routines.
fn is_opener(kind: SyntaxKind) -> bool {
    matches!(kind, L_CURLY | L_PAREN | L_BRACK | DOLLAR_L_CURLY)
}

/// Closing brackets, counted by the balanced recovery routines.
fn is_closer(kind: SyntaxKind) -> bool {
    matches!(kind, R_CURLY | R_PAREN | R_BRACK)
}

/// Statement-level recovery: wraps the current token and everything after
/// it up to the end of the line, a `;` or an unbalanced closer (keeping
/// bracketed groups together, even across lines) in an `ERROR` node.
pub(crate) fn recover_line(p: &mut Parser<'_>) {
    if p.at(EOF) {
        return;
    }
    let m = p.start();
    let mut depth = bump_counting(p, 0);
    loop {
        let kind = p.current();
        let stop = match kind {
            EOF => true,
            NEWLINE | SEMICOLON => depth == 0,
            _ => is_closer(kind) && depth == 0,
        };
        if stop {
            break;
        }
        depth = bump_counting(p, depth);
    }
    m.complete(p, ERROR);
}

/// Bumps one token and returns the updated bracket depth.
pub(crate) fn bump_counting(p: &mut Parser<'_>, depth: usize) -> usize {
    let kind = p.current();
    p.bump();
    if is_opener(kind) {
        depth + 1
    } else if is_closer(kind) {
        depth.saturating_sub(1)
    } else {
        depth
    }
}

/// List-level recovery inside `open ... close`: wraps tokens up to the
/// next `,` or `close` at depth zero (or an unbalanced other closer) in an
/// `ERROR` node, never crossing a line feed at depth zero. Consumes
/// nothing when already at such a token.
pub(crate) fn recover_in_list(p: &mut Parser<'_>, close: SyntaxKind) {
    let stop = |p: &Parser<'_>| {
        let kind = p.current();
        kind == EOF || kind == COMMA || kind == close || is_closer(kind)
    };
    if stop(p) {
        return;
    }
    let m = p.start();
    let mut depth = bump_counting(p, 0);
    while !(depth == 0 && (stop(p) || p.newline_before_current())) && !p.at(EOF) {
        depth = bump_counting(p, depth);
    }
    m.complete(p, ERROR);
}

/// Wraps one token — or, if it opens a bracket, the whole balanced group —
/// in an `ERROR` node without recursing (used past the nesting limit).
pub(crate) fn recover_group(p: &mut Parser<'_>) {
    if p.at(EOF) || is_closer(p.current()) {
        return;
    }
    let m = p.start();
    let mut depth = bump_counting(p, 0);
    while depth > 0 && !p.at(EOF) {
        depth = bump_counting(p, depth);
    }
    m.complete(p, ERROR);
}

/// Parses `item (',' item)* [',']` up to `close` (not consumed), with
/// recovery between items. Newlines are expected to be trivia here.
///
/// Two items on one line separated only by blanks (`[1 2]`, `f(a b)`) are
/// accepted, as the reference compiler accepts them (its commas are
/// optional); `starts_item` tells whether the next token can begin an
/// item. A missing comma before an item on a later line is taken to mean
/// an unclosed list instead.
pub(crate) fn delimited<T>(
    p: &mut Parser<'_>,
    close: SyntaxKind,
    starts_item: impl Fn(&Parser<'_>) -> bool,
    item: impl Fn(&mut Parser<'_>) -> Option<T>,
) {
    while !p.at(close) && !p.at(EOF) {
        let before = p.progress_mark();
        item(p);
        if p.eat(COMMA) || p.at(close) {
            continue;
        }
        if p.newline_before_current() {
            // Most likely an unclosed list: let `expect_closer` report it
            // and leave the following lines to the statement parser.
            break;
        }
        if p.progress_mark() != before && starts_item(p) {
            continue;
        }
        p.error(format!("expected ',' or '{}'", punct_text(close)));
        recover_in_list(p, close);
        if p.eat(COMMA) {
            continue;
        }
        if p.progress_mark() == before || !p.at(close) {
            break;
        }
    }
}

/// The spelling of a closing punctuation kind, for messages.
pub(crate) fn punct_text(kind: SyntaxKind) -> &'static str {
    match kind {
        R_PAREN => ")",
        R_BRACK => "]",
        R_CURLY => "}",
        L_PAREN => "(",
        L_BRACK => "[",
        L_CURLY => "{",
        COLON => ":",
        COMMA => ",",
        EQ => "=",
        FAT_ARROW => "=>",
        _ => "token",
    }
}

/// Expects a declared name (§7.3). A reserved word there is reported as
/// `'log' is a reserved word` (§7.4) and wrapped in an `ERROR` node so
/// the declaration still parses; anything else reports `expected {what}`.
pub(crate) fn expect_name(p: &mut Parser<'_>, what: &str) -> bool {
    if p.eat(IDENT) {
        return true;
    }
    if p.current().is_keyword() && !p.newline_before_current() {
        let word = p.nth_text(0);
        p.error(format!("'{word}' is a reserved word"));
        let m = p.start();
        p.bump();
        m.complete(p, ERROR);
        return false;
    }
    p.error(format!("expected {what}"));
    false
}

/// Expects the closer of a bracketed list, recovering over junk on the
/// same line first. When the next token is on a later line the list is
/// taken to be unclosed and nothing is consumed.
pub(crate) fn expect_closer(p: &mut Parser<'_>, close: SyntaxKind) {
    if p.eat(close) {
        return;
    }
    p.error(format!("expected '{}'", punct_text(close)));
    if p.newline_before_current() {
        return;
    }
    recover_in_list(p, close);
    p.eat(close);
}
