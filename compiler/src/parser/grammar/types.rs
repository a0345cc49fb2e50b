//! Types (§8.1): `DeclaredType ::= Type [ '?' ]`.

use super::{delimited, expect_closer, recover_group};
use crate::parser::{CompletedMarker, Parser};
use crate::syntax::SyntaxKind::*;

/// True when the next token can begin a type.
pub(crate) fn at_type_start(p: &Parser<'_>) -> bool {
    let kind = p.current();
    kind.is_type_keyword() || matches!(kind, IDENT | ARR_KW | MAP_KW | AMOR_KW | FUNC_KW)
}

/// A type, followed by any number of `?` (checked later, §8.18).
/// Reports `expected a type` without consuming when none starts here.
pub(crate) fn type_ref(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !p.enter() {
        recover_group(p);
        p.leave();
        return None;
    }
    let result = type_ref_inner(p);
    p.leave();
    result
}

fn type_ref_inner(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let kind = p.current();
    let mut ty = if kind.is_type_keyword() || kind == IDENT {
        let m = p.start();
        p.bump();
        m.complete(p, NAMED_TYPE)
    } else {
        match kind {
            AMOR_KW | ARR_KW | MAP_KW => collection_type(p),
            FUNC_KW => func_type(p),
            _ => {
                p.error("expected a type");
                return None;
            }
        }
    };
    while p.at(QUESTION) {
        let m = ty.precede(p);
        p.bump();
        ty = m.complete(p, MANUAL_TYPE);
    }
    Some(ty)
}

/// `[amor] arr[T]` or `map[T]`.
fn collection_type(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let amor_range = p.current_range();
    let amor = p.eat(AMOR_KW);
    let kind = if p.at(MAP_KW) {
        if amor {
            p.error_at(
                amor_range,
                "'amor' may only precede 'arr' (amor map is not a type)",
            );
        }
        MAP_TYPE
    } else {
        ARR_TYPE
    };
    if !p.eat(ARR_KW) && !p.eat(MAP_KW) {
        p.error("expected 'arr' after 'amor'");
        return m.complete(p, kind);
    }
    element(p);
    m.complete(p, kind)
}

/// `[ T ]` after `arr` or `map`.
fn element(p: &mut Parser<'_>) {
    if !p.at(L_BRACK) {
        p.error("expected '[' and the element type");
        return;
    }
    p.with_ctx(true, false, |p| {
        p.bump();
        type_ref(p);
        expect_closer(p, R_BRACK);
    });
}

/// `func[T, ...]:R` where `R` is a type or `void`.
fn func_type(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump();
    if p.at(L_BRACK) {
        p.with_ctx(true, false, |p| {
            p.bump();
            delimited(p, R_BRACK, at_type_start, type_ref);
            expect_closer(p, R_BRACK);
        });
    } else {
        p.error("expected '[' and the parameter types");
    }
    if p.eat(COLON) {
        if !p.eat(VOID_KW) {
            type_ref(p);
        }
    } else {
        p.error("expected ':' and the return type");
    }
    m.complete(p, FUNC_TYPE)
}
