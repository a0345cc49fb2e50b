//! Type resolution (§8.19) and assignability (§8.20).

use super::{Checker, TypeSym};
use crate::ast;
use crate::hir::{Expr, ExprKind};
use festina_vm::types::Type;
use rowan::TextRange;

/// Where a `?` is permitted (§8.18).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ManualOk {
    /// Variable declarations and parameters.
    Yes,
    /// Everywhere else (fields, elements, return types, const).
    No,
}

impl Checker<'_> {
    /// Resolve a written type. Unknown names and misplaced `?`/`amor`
    /// are reported; the result is then `Type::Error`.
    pub(super) fn resolve_type(&mut self, t: &ast::TypeRef, manual: ManualOk) -> Type {
        match t {
            ast::TypeRef::Named(n) => self.resolve_named(n),
            ast::TypeRef::Arr(a) => {
                let elem = match a.elem() {
                    Some(e) => self.resolve_type(&e, ManualOk::No),
                    None => Type::Error,
                };
                if a.is_amor() {
                    Type::Amor(Box::new(elem))
                } else {
                    Type::Arr(Box::new(elem))
                }
            }
            ast::TypeRef::Map(m) => {
                let elem = match m.elem() {
                    Some(e) => self.resolve_type(&e, ManualOk::No),
                    None => Type::Error,
                };
                if matches!(elem, Type::Arr(_) | Type::Amor(_) | Type::Map(_)) {
                    let range = m.syntax().text_range();
                    self.error(range, "a map cannot hold arrays or maps (§8.8)");
                    return Type::Error;
                }
                Type::Map(Box::new(elem))
            }
            ast::TypeRef::Func(f) => {
                let params = f
                    .params()
                    .map(|p| self.resolve_type(&p, ManualOk::No))
                    .collect();
                let ret = match f.ret() {
                    Some(r) => self.resolve_type(&r, ManualOk::No),
                    None => Type::Void,
                };
                Type::Func(params, Box::new(ret))
            }
            ast::TypeRef::Manual(m) => {
                let range = m.syntax().text_range();
                let inner = match m.inner() {
                    Some(i) => self.resolve_type(&i, ManualOk::No),
                    None => Type::Error,
                };
                if manual == ManualOk::No {
                    self.error(
                        range,
                        "'?' is only allowed on a variable or parameter type (§8.18)",
                    );
                    return inner;
                }
                normalize_manual(inner)
            }
        }
    }

    fn resolve_named(&mut self, n: &ast::NamedType) -> Type {
        let Some(tok) = n.token() else {
            return Type::Error;
        };
        let name = tok.text();
        if let Some(t) = builtin_type(name) {
            return t;
        }
        match self.types.get(name).copied() {
            Some(TypeSym::Struct(id)) => Type::Struct(id),
            Some(TypeSym::Table(id)) => Type::Table(id),
            Some(TypeSym::Enum(id)) => Type::Enum(id),
            None => {
                self.error(tok.text_range(), format!("unknown type '{name}'"));
                Type::Error
            }
        }
    }

    /// Convert `e` to `target` where §8.20 allows it, or report
    /// `cannot assign value of type S to T` at `range` (prefixed by
    /// `what` when given, e.g. `argument 1 of 'f'`).
    pub(super) fn coerce(
        &mut self,
        e: Expr,
        target: &Type,
        range: TextRange,
        what: Option<&str>,
    ) -> Expr {
        self.coerce_labelled(e, target, range, |_: &Self| what.map(str::to_string))
    }

    /// [`Self::coerce`] with the error label computed by `what` only when
    /// the conversion fails.
    pub(super) fn coerce_labelled(
        &mut self,
        e: Expr,
        target: &Type,
        range: TextRange,
        what: impl FnOnce(&Self) -> Option<String>,
    ) -> Expr {
        if e.ty == Type::Text && matches!(target.strip_manual(), Type::Color | Type::Font) {
            return self.style_literal(e, target, range);
        }
        match self.try_coerce(e, target) {
            Ok(e) => e,
            Err(e) if e.ty == Type::Void => {
                self.error(range, "a call of a void function has no value to use");
                Expr {
                    ty: Type::Error,
                    ..e
                }
            }
            Err(e) => {
                let msg = format!(
                    "cannot assign value of type {} to {}",
                    self.show(&e.ty),
                    self.show(target)
                );
                match what(self) {
                    Some(w) => self.error(range, format!("{w}: {msg}")),
                    None => self.error(range, msg),
                }
                Expr {
                    ty: Type::Error,
                    ..e
                }
            }
        }
    }

    /// Convert the call argument `e` (argument of `label`) to its
    /// parameter type `target`, as [`Self::coerce`] does, except that a
    /// `text` never becomes a `color` or `font` at a call (§8.14: they are
    /// resolved where a `color`/`font` binding is written, so
    /// `fillStyle('red')` is an error, as in the reference).
    pub(super) fn coerce_arg(
        &mut self,
        e: Expr,
        target: &Type,
        range: TextRange,
        label: &str,
    ) -> Expr {
        if e.ty == Type::Text && matches!(target.strip_manual(), Type::Color | Type::Font) {
            let msg = style_arg_message(target);
            self.error(range, format!("{label}: {msg}"));
            return Expr {
                ty: Type::Error,
                ..e
            };
        }
        self.coerce(e, target, range, Some(label))
    }

    /// A `text` expression where a `color` or `font` is expected (§8.14,
    /// §8.20 rule 5): a string literal is resolved now (to a packed
    /// `0xRRGGBB` int or `null` for a color; to a `font_literal` call of
    /// the font's canonical text for a font); an unknown color name, a bad
    /// font or any other text expression is a compile error.
    fn style_literal(&mut self, e: Expr, target: &Type, range: TextRange) -> Expr {
        use festina_signatures::style::{parse_color, parse_font};
        let is_color = *target.strip_manual() == Type::Color;
        let line = e.line;
        let ExprKind::Text(s) = &e.kind else {
            let msg = if is_color {
                "a color must come from a literal, so the compiler can resolve it once: write `color name = '...'` and use `name`, or, to choose one at run time, use fillStyle(red, green, blue) with each component 0-255 (§8.14)"
            } else {
                "a font must come from a literal, so the compiler can resolve it once: write `font name = '...'` and use `name`, or, to choose one at run time, use changeFont(px, style, family) (§8.14)"
            };
            self.error(range, msg);
            return Expr {
                ty: Type::Error,
                ..e
            };
        };
        let resolved = if is_color {
            parse_color(s).map(|c| match c {
                Some(rgb) => ExprKind::Int(rgb as i64),
                None => ExprKind::Null,
            })
        } else {
            parse_font(s).map(|spec| {
                let id = self.native("font_literal");
                ExprKind::CallNative {
                    id,
                    args: vec![Expr {
                        kind: ExprKind::Text(spec.encode()),
                        ty: Type::Text,
                        line,
                    }],
                }
            })
        };
        match resolved {
            Ok(kind) => Expr {
                kind,
                ty: target.clone(),
                line,
            },
            Err(msg) => {
                self.error(range, msg);
                Expr {
                    ty: Type::Error,
                    ..e
                }
            }
        }
    }

    /// The conversion of §8.20, or the unchanged expression as `Err`
    /// (rule 5's `text` → `blob` becomes a `blob_load` native call, and
    /// `text` → `img` an `img_load`, `text` → `aud` an `aud_load`).
    pub(super) fn try_coerce(&mut self, mut e: Expr, target: &Type) -> Result<Expr, Expr> {
        let plain_target = target.strip_manual();
        if matches!(target, Type::Manual(_)) && e.ty == *plain_target && !is_fresh(&e) {
            return Err(e);
        }
        if e.ty == *target
            || e.ty == *plain_target
            || matches!(e.ty, Type::Error)
            || matches!(target, Type::Error)
        {
            if e.ty != Type::Error {
                e.ty = target.clone();
            }
            return Ok(e);
        }
        if e.ty == Type::Null && *target != Type::Void {
            e.ty = target.clone();
            return Ok(e);
        }
        // §8.20 rule 4: a member value is assignable to its enum, except
        // when the enum binding is manually managed (`Shape? s = circle`
        // is an error; §8.18 allows only a fresh construction of `Shape`).
        if let Type::Enum(eid) = target {
            let members = &self.module.enums[*eid as usize].members;
            if let Some(m) = members.iter().position(|m| *m == e.ty) {
                let line = e.line;
                return Ok(Expr {
                    kind: ExprKind::EnumWrap {
                        expr: Box::new(e),
                        enum_id: *eid,
                        member: m as u16,
                    },
                    ty: target.clone(),
                    line,
                });
            }
        }
        // §8.20 rule 5: a text assigned to a blob is a path, loaded at run
        // time (§8.6); an unreadable path gives an empty blob.
        if e.ty == Type::Text && *plain_target == Type::Blob {
            let id = self.native("blob_load");
            let line = e.line;
            return Ok(Expr {
                kind: ExprKind::CallNative { id, args: vec![e] },
                ty: target.clone(),
                line,
            });
        }
        // §8.13: a text assigned to an img or an aud is a path, loaded and
        // decoded at run time; an unreadable or undecodable file is a
        // runtime failure there.
        let media_load = match plain_target {
            Type::Img => Some("img_load"),
            Type::Aud => Some("aud_load"),
            _ => None,
        };
        if let (Type::Text, Some(native)) = (&e.ty, media_load) {
            let id = self.native(native);
            let line = e.line;
            return Ok(Expr {
                kind: ExprKind::CallNative { id, args: vec![e] },
                ty: target.clone(),
                line,
            });
        }
        if e.ty == Type::Text && *plain_target == Type::Ascii {
            if let ExprKind::Text(s) = &e.kind {
                if s.is_ascii() {
                    let bytes = s.as_bytes().to_vec();
                    return Ok(Expr {
                        kind: ExprKind::Ascii(bytes),
                        ty: target.clone(),
                        line: e.line,
                    });
                }
            }
        }
        Err(e)
    }
}

/// Why a `text` argument cannot be a `color`/`font` parameter (§8.14).
fn style_arg_message(target: &Type) -> &'static str {
    if *target.strip_manual() == Type::Color {
        "a text is not a color: declare `color name = '...'` and pass `name`, or use the (red, green, blue) form for a color computed at run time (§8.14)"
    } else {
        "a text is not a font: declare `font name = '...'` and pass `name`, or use changeFont(px, style, family) for a font computed at run time (§8.14)"
    }
}

/// An image source argument (`drawImage`, §8.18): an `img?` is accepted
/// where an `img` is drawn from, so its manual modifier is dropped.
pub(super) fn img_source(mut e: Expr) -> Expr {
    if let Type::Manual(inner) = &e.ty {
        if **inner == Type::Img {
            e.ty = Type::Img;
        }
    }
    e
}

/// A fresh construction (§8.18): a literal or a call result.
fn is_fresh(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::NewArr(_)
            | ExprKind::NewMap(_)
            | ExprKind::NewStruct { .. }
            | ExprKind::Call { .. }
            | ExprKind::CallValue { .. }
            | ExprKind::CallNative { .. }
            | ExprKind::Text(_)
            | ExprKind::Template(_)
            | ExprKind::Null
    )
}

/// `T?` on scalars, `text`, `func`, tables: accepted with no effect (§8.18).
fn normalize_manual(inner: Type) -> Type {
    match inner {
        Type::Int
        | Type::Float
        | Type::Bool
        | Type::Color
        | Type::Font
        | Type::Func(..)
        | Type::Table(_)
        | Type::Text
        | Type::Error => inner,
        Type::Manual(_) => inner,
        other => Type::Manual(Box::new(other)),
    }
}

/// The built-in type named `name`, if any (§8.1).
pub(super) fn builtin_type(name: &str) -> Option<Type> {
    Some(match name {
        "int" => Type::Int,
        "float" => Type::Float,
        "bool" => Type::Bool,
        "text" => Type::Text,
        "ascii" => Type::Ascii,
        "blob" => Type::Blob,
        "img" => Type::Img,
        "aud" => Type::Aud,
        "regex" => Type::Regex,
        "color" => Type::Color,
        "font" => Type::Font,
        "http" => Type::Http,
        "socket" => Type::Socket,
        "url" => Type::Url,
        "thread" => Type::Thread,
        _ => return None,
    })
}

/// True if values of `ty` have a text form (§8.21).
pub(super) fn has_text_form(ty: &Type) -> bool {
    matches!(
        ty.strip_manual(),
        Type::Int
            | Type::Float
            | Type::Bool
            | Type::Text
            | Type::Ascii
            | Type::Blob
            | Type::Struct(_)
            | Type::Table(_)
            | Type::Arr(_)
            | Type::Amor(_)
            | Type::Map(_)
            | Type::Enum(_)
            | Type::Null
            | Type::Error
    )
}
