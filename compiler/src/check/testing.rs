//! The `test` type: groups of assertions and `festina test` (the
//! reference's §11.7, added after edition 0.44).
//!
//! `test name = description` declares a binding of type `test` (a global
//! at top level, a local in a block); its description is any `text`
//! expression. Calling the binding asserts: `name(actual, expected)`
//! compares two values of one type the way `==` does, and
//! `name.near(actual, expected, tolerance)` two numbers within a
//! tolerance. Both are `bool` expressions (true when the assertion
//! held).
//!
//! Assertions exist only in a build made for `festina test`
//! ([`super::Checker::tests`]): there, a declaration registers its group
//! with the run's test registry (native `test_group`, whose result, the
//! group's index, is the binding's value) and each assertion calls
//! `test_eq`/`test_near` with the group, the operands and the assertion's
//! own source text, which the report quotes. In every other build
//! (`festina app.f`, `festina compile`) the checker still checks them,
//! then drops them: a declaration emits no code, an assertion statement
//! none either, and an assertion used as a value is the constant `true`
//! (its operands are not evaluated).
//!
//! Operands are restricted: `int`/`float` (mixed operands compare as
//! `float`), `bool`, `text`, `ascii` (a string literal beside an `ascii`
//! is converted), `color`, and `null` against any of these. Structs,
//! rows, arrays, maps and enums are rejected with a message naming
//! identity: `==` compares them by reference (§8.9.1), so an assertion
//! over two separately built values would fail while meaning to pass.

use super::Checker;
use crate::ast;
use crate::hir::{Expr, ExprKind};
use festina_vm::types::Type;
use rowan::TextRange;

fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}

impl Checker<'_> {
    /// The initializer of `test name = description`: the registration of
    /// the group, or `None` outside a test build (nothing is emitted).
    pub(super) fn test_group_init(&mut self, t: &ast::TestDecl) -> Option<Expr> {
        let range = t.syntax().text_range();
        let line = self.line(range);
        let name = t.name().map(|n| n.text().to_string()).unwrap_or_default();
        let desc = match t.description() {
            Some(d) => {
                let drange = d.syntax().text_range();
                let v = self.check_expr(&d, Some(&Type::Text));
                match v.ty.strip_manual() {
                    Type::Text | Type::Error => v,
                    Type::Ascii => self.render_text(v, drange),
                    other => {
                        let shown = self.show(other);
                        self.error(
                            drange,
                            format!("a test description must be text, found {shown}"),
                        );
                        v
                    }
                }
            }
            None => mk(ExprKind::Text(String::new()), Type::Text, line),
        };
        if !self.tests {
            return None;
        }
        let id = self.native("test_group");
        Some(mk(
            ExprKind::CallNative {
                id,
                args: vec![desc, mk(ExprKind::Text(name), Type::Text, line)],
            },
            Type::Test,
            line,
        ))
    }

    /// `group(actual, expected)`: an equality assertion (see the module
    /// documentation).
    pub(super) fn test_assertion(
        &mut self,
        group: Expr,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        if !self.assertion_arity(args, 2, "a test assertion", range) {
            return mk(ExprKind::Null, Type::Error, line);
        }
        let (ra, rb) = (args[0].syntax().text_range(), args[1].syntax().text_range());
        let a = self.check_expr(&args[0], None);
        let hint = match a.ty {
            Type::Null | Type::Error => None,
            ref t => Some(t.clone()),
        };
        let b = self.check_expr(&args[1], hint.as_ref());
        let Some((a, b)) = self.assertion_operands(a, b, ra, rb) else {
            return mk(ExprKind::Null, Type::Error, line);
        };
        self.lower_assertion("test_eq", vec![group, a, b], range, line)
    }

    /// `group.near(actual, expected, tolerance)`: passes when the two
    /// numbers differ by at most `tolerance`.
    pub(super) fn test_near(
        &mut self,
        group: Expr,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        if !self.assertion_arity(args, 3, "'near'", range) {
            return mk(ExprKind::Null, Type::Error, line);
        }
        let mut ops = Vec::with_capacity(3);
        for a in args {
            let r = a.syntax().text_range();
            let v = self.check_expr(a, Some(&Type::Float));
            match v.ty.strip_manual() {
                Type::Float => ops.push(v),
                Type::Int => ops.push(promote(v)),
                Type::Error => return mk(ExprKind::Null, Type::Error, line),
                other => {
                    let shown = self.show(other);
                    self.error(
                        r,
                        format!("the arguments of 'near' must be numbers, found {shown}"),
                    );
                    return mk(ExprKind::Null, Type::Error, line);
                }
            }
        }
        let mut call_args = vec![group];
        call_args.extend(ops);
        self.lower_assertion("test_near", call_args, range, line)
    }

    /// A checked assertion: in a test build, a call of `native` with `args`
    /// and the assertion's source text; otherwise the constant `true`
    /// (nothing evaluated), marked as dropped.
    fn lower_assertion(
        &mut self,
        native: &str,
        mut args: Vec<Expr>,
        range: TextRange,
        line: u32,
    ) -> Expr {
        if !self.tests {
            self.dropped_assertion = true;
            return mk(ExprKind::Bool(true), Type::Bool, line);
        }
        args.push(self.assertion_source(range, line));
        let id = self.native(native);
        mk(ExprKind::CallNative { id, args }, Type::Bool, line)
    }

    /// True when `args` has `n` arguments; otherwise reports the arity
    /// of `what` and checks the arguments for their own mistakes.
    fn assertion_arity(
        &mut self,
        args: &[ast::Expr],
        n: usize,
        what: &str,
        range: TextRange,
    ) -> bool {
        if args.len() == n {
            return true;
        }
        self.arity_error(range, what, &n.to_string(), args.len());
        for a in args {
            self.check_expr(a, None);
        }
        false
    }

    /// The two operands of an equality assertion converted to one type,
    /// or `None` after reporting why they cannot be compared.
    fn assertion_operands(
        &mut self,
        a: Expr,
        b: Expr,
        ra: TextRange,
        rb: TextRange,
    ) -> Option<(Expr, Expr)> {
        if a.ty == Type::Error || b.ty == Type::Error {
            return None;
        }
        for (v, r) in [(&a, ra), (&b, rb)] {
            let t = v.ty.strip_manual();
            if matches!(
                t,
                Type::Struct(_)
                    | Type::Table(_)
                    | Type::Arr(_)
                    | Type::Amor(_)
                    | Type::Map(_)
                    | Type::Enum(_)
            ) {
                let shown = self.show(t);
                self.error(
                    r,
                    format!(
                        "a test assertion cannot compare {shown} values: they compare by identity (§8.9.1), so two values built separately would never be equal; assert on their fields instead"
                    ),
                );
                return None;
            }
            if !matches!(
                t,
                Type::Int
                    | Type::Float
                    | Type::Bool
                    | Type::Text
                    | Type::Ascii
                    | Type::Color
                    | Type::Null
            ) {
                let shown = self.show(t);
                self.error(
                    r,
                    format!("a test assertion cannot compare {shown} values; compare int, float, bool, text or ascii values"),
                );
                return None;
            }
        }
        let (ta, tb) = (a.ty.strip_manual().clone(), b.ty.strip_manual().clone());
        if ta == Type::Null || tb == Type::Null || ta == tb {
            let ty = if ta == Type::Null { tb } else { ta };
            return Some((
                Expr {
                    ty: ty.clone(),
                    ..a
                },
                Expr { ty, ..b },
            ));
        }
        if ta.is_numeric() && tb.is_numeric() {
            return Some((promote(a), promote(b)));
        }
        // A string literal beside an ascii is converted (§8.5).
        if ta == Type::Ascii || tb == Type::Ascii {
            let (a2, b2) = (
                self.try_coerce(a, &Type::Ascii),
                self.try_coerce(b, &Type::Ascii),
            );
            if let (Ok(a), Ok(b)) = (a2, b2) {
                return Some((a, b));
            }
        }
        let (x, y) = (self.show(&ta), self.show(&tb));
        self.error(
            ra.cover(rb),
            format!("a test assertion compares two values of one type, found {x} and {y}"),
        );
        None
    }

    /// The assertion's own source text, blanks and line breaks collapsed
    /// to single spaces: what a failure line quotes.
    fn assertion_source(&self, range: TextRange, line: u32) -> Expr {
        let text = self
            .units
            .iter()
            .find(|u| u.file == self.file)
            .and_then(|u| {
                u.text
                    .get(usize::from(range.start())..usize::from(range.end()))
            })
            .unwrap_or("");
        let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
        mk(ExprKind::Text(collapsed), Type::Text, line)
    }
}

/// `int` → `float` (a `float` stays as it is).
fn promote(e: Expr) -> Expr {
    let line = e.line;
    match e.ty.strip_manual() {
        Type::Int => {
            if let ExprKind::Int(n) = e.kind {
                return mk(ExprKind::Float(n as f64), Type::Float, line);
            }
            mk(ExprKind::IntToFloat(Box::new(e)), Type::Float, line)
        }
        _ => e,
    }
}
