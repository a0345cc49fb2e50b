//! `http` literals (§9.1.4), the client's send shorthands (§19.5) and
//! the read-only fields of the network types (§8.16, §9.11).
//!
//! `req.send()` with no argument is the method table's `http_send`; its
//! two shorthands are built here: the initializer `http x = {...}.send()`
//! (an `http` literal sent by the native `http_send_value`, which returns
//! it, so `x` holds the sent value) and the statement `http {...}` (an
//! anonymous literal sent by `http_send`).
//!
//! A `{...}` where an `http` value is expected (an `http` binding's
//! initializer or assignment, an `http` parameter such as `req.send(...)`'s,
//! an `http` field or element) is an `http` literal. Its keys are string
//! literals (or the `{ name }` shorthand) drawn from `url`, `method`,
//! `code`, `headers`, `body` and `callback`, each at most once; anything
//! else is a compile error. It becomes a call of the native `http_new`
//! with the arguments `url, method, code, headers, body, body kind,
//! callback` (absent keys `null`). The body is handed over already
//! converted (§19.2): a value with a text form is rendered (§8.21: JSON
//! for a struct, row, array, map or enum), a `blob` passes as it is, an
//! `aud` or an `img` becomes its encoded bytes (natives `http_body_aud`,
//! `http_body_img`: an image's own file, or a PNG of its pixels); the kind
//! ([`BodyKind`]) records which, for the response's default
//! `content-type`.

use super::ty::has_text_form;
use super::Checker;
use crate::ast;
use crate::hir::{Expr, ExprKind};
use festina_signatures::tables::http::BodyKind;
use festina_vm::types::Type;
use rowan::TextRange;

/// The keys of an `http` literal and the type each value must have (the
/// body excepted: see the module documentation).
const KEYS: [&str; 6] = ["url", "method", "code", "headers", "body", "callback"];

fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}

impl Checker<'_> {
    /// An `http` literal (§9.1.4).
    pub(super) fn http_lit(&mut self, m: &ast::MapLit, line: u32) -> Expr {
        let mut args: [Option<Expr>; 6] = Default::default();
        let mut kind = BodyKind::None;
        for entry in m.entries() {
            let erange = entry.syntax().text_range();
            let (key, krange, value_ast) = if let Some(name) = entry.shorthand() {
                (name.text().to_string(), name.text_range(), None)
            } else {
                let Some(key) = entry.key() else { continue };
                let Some(k) = super::expr::string_literal(&key) else {
                    self.error(
                        key.syntax().text_range(),
                        "http literal keys must be string literals (§9.1.4)",
                    );
                    continue;
                };
                (k, key.syntax().text_range(), entry.value())
            };
            let Some(slot) = KEYS.iter().position(|k| *k == key) else {
                self.error(
                    krange,
                    format!(
                        "unknown key '{key}' in an http literal; its keys are url, method, code, headers, body and callback (§9.1.4)"
                    ),
                );
                continue;
            };
            if args[slot].is_some() {
                self.error(krange, format!("key '{key}' is given twice"));
                continue;
            }
            let vrange = value_ast
                .as_ref()
                .map_or(erange, |v| v.syntax().text_range());
            let value = match (&value_ast, key.as_str()) {
                (Some(v), "body") => self.check_expr(v, None),
                (Some(v), _) => {
                    let want = key_type(&key);
                    let x = self.check_expr(v, Some(&want));
                    self.coerce(x, &want, vrange, Some(&format!("'{key}'")))
                }
                (None, _) => {
                    let x = self.shorthand_value(&entry, line);
                    if key == "body" {
                        x
                    } else {
                        self.coerce(x, &key_type(&key), vrange, Some(&format!("'{key}'")))
                    }
                }
            };
            let value = if key == "body" {
                let (v, k) = self.http_body(value, vrange);
                kind = k;
                v
            } else {
                value
            };
            args[slot] = Some(value);
        }
        let null = || mk(ExprKind::Null, Type::Null, line);
        let [url, method, code, headers, body, callback] = args;
        let call_args = vec![
            url.unwrap_or_else(null),
            method.unwrap_or_else(null),
            code.unwrap_or_else(null),
            headers.unwrap_or_else(null),
            body.unwrap_or_else(null),
            mk(ExprKind::Int(kind as i64), Type::Int, line),
            callback.unwrap_or_else(null),
        ];
        let id = self.native("http_new");
        mk(
            ExprKind::CallNative {
                id,
                args: call_args,
            },
            Type::Http,
            line,
        )
    }

    /// `{...}.send()` where an `http` value is expected (an initializer
    /// or assignment, §19.5): the literal, sent, as the value. `None`
    /// when `c` is not that form.
    pub(super) fn http_send_lit(&mut self, c: &ast::Call, line: u32) -> Option<Expr> {
        let m = send_of_literal(c)?;
        let lit = self.http_lit(&m, line);
        let id = self.native("http_send_value");
        Some(mk(
            ExprKind::CallNative {
                id,
                args: vec![lit],
            },
            Type::Http,
            line,
        ))
    }

    /// The statement `http {...}` (§19.5): the literal sent, anonymously
    /// (with a `callback`, the request runs in the background).
    pub(super) fn http_stmt(
        &mut self,
        h: &ast::HttpStmt,
        range: TextRange,
        line: u32,
    ) -> Option<Expr> {
        let m = match h.expr() {
            Some(ast::Expr::MapLit(m)) => m,
            Some(ast::Expr::Call(c)) if send_of_literal(&c).is_some() => send_of_literal(&c)?,
            _ => {
                self.error(
                    range,
                    "an 'http' statement sends an http literal: http {'url': ..., 'method': ...} (§19.5)",
                );
                return None;
            }
        };
        let lit = self.http_lit(&m, line);
        let id = self.native("http_send");
        Some(mk(
            ExprKind::CallNative {
                id,
                args: vec![lit],
            },
            Type::Void,
            line,
        ))
    }

    /// An `http` literal's body, converted for `http_new` (see the module
    /// documentation), and its kind.
    fn http_body(&mut self, v: Expr, range: TextRange) -> (Expr, BodyKind) {
        let line = v.line;
        match v.ty.strip_manual().clone() {
            Type::Null | Type::Error => (v, BodyKind::None),
            Type::Blob => (v, BodyKind::Blob),
            Type::Aud => {
                let id = self.native("http_body_aud");
                let e = mk(ExprKind::CallNative { id, args: vec![v] }, Type::Blob, line);
                (e, BodyKind::Aud)
            }
            Type::Img => {
                let id = self.native("http_body_img");
                let e = mk(ExprKind::CallNative { id, args: vec![v] }, Type::Blob, line);
                (e, BodyKind::Img)
            }
            Type::Int | Type::Float | Type::Bool | Type::Text | Type::Ascii => {
                (self.render_text(v, range), BodyKind::Text)
            }
            ref t if has_text_form(t) => (self.render_text(v, range), BodyKind::Json),
            t => {
                let shown = self.show(&t);
                self.error(
                    range,
                    format!(
                        "an http body must be a value with a text form, a blob, an img or an aud, found {shown} (§19.2)"
                    ),
                );
                (mk(ExprKind::Null, Type::Error, line), BodyKind::None)
            }
        }
    }

    /// The diagnostic for an assignment to a field of an `http`, `url`
    /// or `socket` value (§9.11): `true` if `ty` is one of them.
    pub(super) fn network_field_place(&mut self, ty: &Type, name: &str, range: TextRange) -> bool {
        let what = match ty {
            Type::Http => "an http",
            Type::Url => "a url",
            Type::Socket => "a socket",
            _ => return false,
        };
        let known = festina_signatures::PROPERTIES
            .iter()
            .any(|p| p.name == name && super::methods::recv_accepts(p.recv, ty));
        if known {
            self.error(
                range,
                format!("cannot assign to read-only '{name}' of {what} value (§9.11)"),
            );
        } else {
            self.unknown_member(ty, name, range, 0);
        }
        true
    }
}

/// The map literal of `{...}.send()` (no arguments), if `c` is that.
fn send_of_literal(c: &ast::Call) -> Option<ast::MapLit> {
    let args = c.arg_list().map_or(0, |l| l.args().count());
    let Some(ast::Expr::Field(f)) = c.callee() else {
        return None;
    };
    if args != 0 || f.name()?.text() != "send" {
        return None;
    }
    let mut recv = f.receiver()?;
    while let ast::Expr::Paren(p) = &recv {
        recv = p.expr()?;
    }
    match recv {
        ast::Expr::MapLit(m) => Some(m),
        _ => None,
    }
}

/// The type the value of `key` (not `body`) must have.
fn key_type(key: &str) -> Type {
    match key {
        "code" => Type::Int,
        "headers" => Type::Map(Box::new(Type::Text)),
        "callback" => Type::Func(vec![Type::Http], Box::new(Type::Void)),
        _ => Type::Text,
    }
}
