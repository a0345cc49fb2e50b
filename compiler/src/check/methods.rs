//! Builtin methods, properties and namespaces (§16.2, §16.3, §16.4).
//!
//! Method calls `recv.name(args)` that are not a struct field holding a
//! function and not one of the checker's inline forms (`push`, `pop`,
//! `toText`, ...; see `expr.rs`) are resolved here against the stdlib's
//! method table [`festina_signatures::METHODS`]:
//!
//! 1. the entries whose [`Recv`] accepts the receiver's static type and
//!    whose name matches (none: `unknown method`);
//! 2. those taking as many arguments as given (none: `wrong number of
//!    arguments ..., expected N`);
//! 3. with one candidate left, each argument is checked against its
//!    parameter shape with that type expected (so `[]`, `null` and arrows
//!    get their types); with several (`split(text)` / `split(regex)`), the
//!    arguments are checked on their own and the first entry whose shapes
//!    accept them wins.
//!
//! A native method becomes `CallNative(native, [receiver, args...])`. Type
//! arguments (`toStruct(User)`, `toArr(arr[int])`) are resolved to a type,
//! checked to have a JSON form (§16.4: any field of another type, however
//! deeply nested, is a compile error), interned in [`crate::hir::Module::types`]
//! and passed as the `int` index of the type to parse into.
//!
//! The `Math` and `environment` globals (§16.2) are namespaces, not
//! values: `Math.f(args)`, `Math.PI`, `Math.E`, `environment.NAME` and
//! `environment[key]` are resolved here, and using either name by itself
//! is a compile error.

use super::ty::{builtin_type, ManualOk};
use super::{Checker, TypeSym};
use crate::ast;
use crate::hir::{Expr, ExprKind};
use festina_signatures::{Impl, Method, Recv, Shape, MATH, MATH_CONSTANTS, METHODS, PROPERTIES};
use festina_vm::types::Type;
use rowan::TextRange;

/// Shorthand for building an expression.
fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}

/// What receiver-relative and type-argument shapes resolve against.
struct Ctx {
    /// The receiver's type (manual modifier removed).
    recv: Type,
    /// Its element type, for arrays and maps.
    elem: Option<Type>,
    /// The type written as the type argument, once resolved.
    type_arg: Option<Type>,
}

impl Ctx {
    /// No receiver (global functions, `Math`).
    fn none() -> Ctx {
        Ctx {
            recv: Type::Error,
            elem: None,
            type_arg: None,
        }
    }
}

/// The type of a shape that names one type by itself; `None` for the
/// receiver-relative and type-argument shapes.
pub(super) fn plain_shape_type(s: Shape) -> Option<Type> {
    Some(match s {
        Shape::Int => Type::Int,
        Shape::Float => Type::Float,
        Shape::Bool => Type::Bool,
        Shape::Text | Shape::Rendered => Type::Text,
        Shape::Ascii => Type::Ascii,
        Shape::Regex => Type::Regex,
        Shape::Blob => Type::Blob,
        Shape::MapText => Type::Map(Box::new(Type::Text)),
        Shape::ArrText => Type::Arr(Box::new(Type::Text)),
        Shape::Void => Type::Void,
        Shape::TimerCallback => Type::Func(Vec::new(), Box::new(Type::Void)),
        Shape::Aud => Type::Aud,
        Shape::Http => Type::Http,
        Shape::Socket => Type::Socket,
        Shape::Url => Type::Url,
        Shape::HttpCallback => Type::Func(vec![Type::Http], Box::new(Type::Void)),
        Shape::Color => Type::Color,
        Shape::Font => Type::Font,
        Shape::Img | Shape::ImgSource => Type::Img,
        Shape::Elem
        | Shape::Recv
        | Shape::ArrOfElem
        | Shape::Comparator
        | Shape::ForEachFn
        | Shape::TypeArg
        | Shape::StructTypeArg
        | Shape::OfTypeArg
        | Shape::ArrOfTypeArg => return None,
    })
}

/// The type of shape `s` for receiver context `ctx` (`Error` if the
/// context lacks what the shape needs).
fn shape_type(s: Shape, ctx: &Ctx) -> Type {
    if let Some(t) = plain_shape_type(s) {
        return t;
    }
    let elem = || ctx.elem.clone().unwrap_or(Type::Error);
    match s {
        Shape::Elem => elem(),
        Shape::Recv => ctx.recv.clone(),
        Shape::ArrOfElem => Type::Arr(Box::new(elem())),
        Shape::Comparator => Type::Func(vec![elem(), elem()], Box::new(Type::Int)),
        Shape::ForEachFn => Type::Func(vec![elem(), Type::Text], Box::new(Type::Void)),
        Shape::TypeArg | Shape::StructTypeArg | Shape::OfTypeArg => {
            ctx.type_arg.clone().unwrap_or(Type::Error)
        }
        Shape::ArrOfTypeArg => Type::Arr(Box::new(ctx.type_arg.clone().unwrap_or(Type::Error))),
        _ => Type::Error,
    }
}

/// True if receivers of kind `r` include values of type `ty`.
pub(super) fn recv_accepts(r: Recv, ty: &Type) -> bool {
    match (r, ty.strip_manual()) {
        (Recv::Int, Type::Int)
        | (Recv::Float, Type::Float)
        | (Recv::Bool, Type::Bool)
        | (Recv::Text, Type::Text)
        | (Recv::Ascii, Type::Ascii)
        | (Recv::Arr, Type::Arr(_) | Type::Amor(_))
        | (Recv::Map, Type::Map(_))
        | (Recv::Struct, Type::Struct(_))
        | (Recv::Regex, Type::Regex)
        | (Recv::Blob, Type::Blob)
        | (Recv::Img, Type::Img)
        | (Recv::Aud, Type::Aud)
        | (Recv::Http, Type::Http)
        | (Recv::Socket, Type::Socket)
        | (Recv::Url, Type::Url) => true,
        (Recv::ArrOfScalar, Type::Arr(e) | Type::Amor(e)) => matches!(
            e.strip_manual(),
            Type::Int | Type::Float | Type::Bool | Type::Text | Type::Ascii
        ),
        _ => false,
    }
}

/// Whether `name` is a method (not a property) of values of type `ty`,
/// for the "must be called" diagnostic.
pub(super) fn is_method(ty: &Type, name: &str) -> bool {
    METHODS
        .iter()
        .any(|m| m.name == name && recv_accepts(m.recv, ty))
        || (name == "toText" && super::ty::has_text_form(ty))
        || (name == "undefined" && matches!(ty, Type::Table(_)))
}

/// The namespaces of §16.2 that are not values.
fn namespace_of(e: &ast::Expr) -> Option<&'static str> {
    let ast::Expr::NameRef(n) = e else {
        return None;
    };
    match n.token()?.text() {
        "Math" => Some("Math"),
        "environment" => Some("environment"),
        _ => None,
    }
}

/// The diagnostic for a namespace name used as a value (§16.2).
pub(super) fn bare_namespace_message(name: &str) -> Option<&'static str> {
    match name {
        "Math" => Some(
            "'Math' is a namespace, not a value; use one of its members, such as Math.floor(x) or Math.PI (§16.2)",
        ),
        "environment" => Some(
            "'environment' cannot be used by itself; read a variable as environment.NAME or environment['NAME'] (§16.2)",
        ),
        _ => None,
    }
}

/// True if `e` names the `Math` or `environment` namespace (for
/// assignment diagnostics).
pub(super) fn is_namespace(e: &ast::Expr) -> Option<&'static str> {
    namespace_of(e)
}

impl Checker<'_> {
    // ---- namespaces (§16.2) ----

    /// `Math.PI`, `Math.E`, `environment.NAME`; `None` if `recv` is not a
    /// namespace.
    pub(super) fn namespace_member(
        &mut self,
        recv: &ast::Expr,
        name: &ast::Token,
        line: u32,
    ) -> Option<Expr> {
        let ns = namespace_of(recv)?;
        let member = name.text();
        if ns == "environment" {
            let id = self.native("env_get");
            let key = mk(ExprKind::Text(member.to_string()), Type::Text, line);
            return Some(mk(
                ExprKind::CallNative {
                    id,
                    args: vec![key],
                },
                Type::Text,
                line,
            ));
        }
        if let Some((_, v)) = MATH_CONSTANTS.iter().find(|(n, _)| *n == member) {
            return Some(mk(ExprKind::Float(*v), Type::Float, line));
        }
        if MATH.iter().any(|b| b.name == member) {
            self.error(
                name.text_range(),
                format!("'Math.{member}' is a function and must be called"),
            );
        } else {
            self.error(
                name.text_range(),
                format!("unknown member '{member}' of Math (§16.2)"),
            );
        }
        Some(self.err_expr(line))
    }

    /// `environment[key]`; `None` if `base` is not `environment`.
    pub(super) fn namespace_index(
        &mut self,
        base: &ast::Expr,
        idx: &ast::Expr,
        line: u32,
    ) -> Option<Expr> {
        let ns = namespace_of(base)?;
        if ns == "Math" {
            self.error(
                base.syntax().text_range(),
                "'Math' is a namespace and cannot be indexed (§16.2)",
            );
            return Some(self.err_expr(line));
        }
        let irange = idx.syntax().text_range();
        let k = self.check_expr(idx, Some(&Type::Text));
        let k = self.coerce(k, &Type::Text, irange, Some("an environment variable name"));
        let id = self.native("env_get");
        Some(mk(
            ExprKind::CallNative { id, args: vec![k] },
            Type::Text,
            line,
        ))
    }

    /// `Math.f(args)` (and the mistake `environment.NAME(...)`); `None` if
    /// the receiver is not a namespace.
    pub(super) fn namespace_call(
        &mut self,
        f: &ast::Field,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Option<Expr> {
        let recv = f.receiver()?;
        let ns = namespace_of(&recv)?;
        let Some(name) = f.name() else {
            return Some(self.err_expr(line));
        };
        let member = name.text().to_string();
        if ns == "environment" {
            self.error(
                range,
                format!("environment.{member} is a text value, not a function"),
            );
            return Some(self.err_expr(line));
        }
        let candidates: Vec<_> = MATH.iter().filter(|b| b.name == member).collect();
        if candidates.is_empty() {
            let msg = if MATH_CONSTANTS.iter().any(|(n, _)| *n == member) {
                format!("Math.{member} is a float constant, not a function")
            } else {
                format!("unknown member '{member}' of Math (§16.2)")
            };
            self.error(name.text_range(), msg);
            return Some(self.err_expr(line));
        }
        let Some(b) = candidates.iter().find(|b| b.params.len() == args.len()) else {
            let n = candidates[0].params.len();
            self.arity_error(
                range,
                &format!("'Math.{member}'"),
                &n.to_string(),
                args.len(),
            );
            return Some(self.err_expr(line));
        };
        let what = format!("'Math.{member}'");
        let mut out = Vec::with_capacity(args.len());
        for (i, (a, shape)) in args.iter().zip(b.params.iter()).enumerate() {
            let v = self.shape_arg(*shape, a, &Ctx::none(), &what, i);
            out.push(v);
        }
        let id = self.native(b.native);
        let ret = plain_shape_type(b.ret).unwrap_or(Type::Error);
        Some(mk(ExprKind::CallNative { id, args: out }, ret, line))
    }

    // ---- properties ----

    /// A native property of `ty` (e.g. a `blob`'s `.length`), or the
    /// unknown-member diagnostic.
    pub(super) fn property_or_unknown(
        &mut self,
        obj: Expr,
        ty: &Type,
        name: &str,
        nrange: TextRange,
        line: u32,
    ) -> Expr {
        let found = PROPERTIES
            .iter()
            .find(|p| p.name == name && recv_accepts(p.recv, ty));
        if let Some(p) = found {
            if let Impl::Native(native) = p.imp {
                let ctx = self.ctx_of(ty);
                let ret = shape_type(p.ret, &ctx);
                let id = self.native(native);
                return mk(
                    ExprKind::CallNative {
                        id,
                        args: vec![obj],
                    },
                    ret,
                    line,
                );
            }
        }
        self.unknown_member(ty, name, nrange, line)
    }

    fn ctx_of(&self, ty: &Type) -> Ctx {
        let recv = ty.strip_manual().clone();
        Ctx {
            elem: recv.elem().cloned(),
            recv,
            type_arg: None,
        }
    }

    fn err_expr(&self, line: u32) -> Expr {
        mk(ExprKind::Null, Type::Error, line)
    }

    // ---- methods (§16.3) ----

    /// Resolve `obj.name(args)` against [`METHODS`] (see the module
    /// documentation). `f` is the callee (`obj.name`); its parent call
    /// supplies the arguments, type arguments included.
    pub(super) fn resolve_method(
        &mut self,
        obj: Expr,
        f: &ast::Field,
        name: &str,
        nrange: TextRange,
        range: TextRange,
        line: u32,
    ) -> Expr {
        let ty = obj.ty.strip_manual().clone();
        let items: Vec<ast::Arg> = f
            .syntax()
            .parent()
            .and_then(ast::Call::cast)
            .and_then(|c| c.arg_list())
            .map(|l| l.items().collect())
            .unwrap_or_default();
        let candidates: Vec<&'static Method> = METHODS
            .iter()
            .filter(|m| m.name == name && recv_accepts(m.recv, &ty))
            .collect();
        if candidates.is_empty() {
            let shown = self.show(&ty);
            let join_like = METHODS
                .iter()
                .any(|m| m.name == name && m.recv == Recv::ArrOfScalar)
                && matches!(ty, Type::Arr(_) | Type::Amor(_));
            let msg = if join_like {
                format!("'{name}' needs an array of int, float, bool, text or ascii, found {shown}")
            } else {
                format!("unknown method '{name}' on type {shown}")
            };
            self.error(nrange, msg);
            self.check_items_for_errors(&items);
            return self.err_expr(line);
        }
        let fitting: Vec<&'static Method> = candidates
            .iter()
            .copied()
            .filter(|m| m.params.len() == items.len())
            .collect();
        if fitting.is_empty() {
            let mut arities: Vec<usize> = candidates.iter().map(|m| m.params.len()).collect();
            arities.sort_unstable();
            arities.dedup();
            let expected: Vec<String> = arities.iter().map(|n| n.to_string()).collect();
            self.arity_error(
                range,
                &format!("'{name}'"),
                &expected.join(" or "),
                items.len(),
            );
            self.check_items_for_errors(&items);
            return self.err_expr(line);
        }
        let mut ctx = self.ctx_of(&ty);
        let what = format!("'{name}'");
        let (method, args) = if fitting.len() == 1 {
            let m = fitting[0];
            let mut args = Vec::with_capacity(items.len());
            for (i, (item, shape)) in items.iter().zip(m.params.iter()).enumerate() {
                match self.method_item(*shape, item, &mut ctx, &what, i) {
                    Some(v) => args.push(v),
                    None => return self.err_expr(line),
                }
            }
            (m, args)
        } else {
            match self.overload(&fitting, &items, &ctx, name, range) {
                Some(pair) => pair,
                None => return self.err_expr(line),
            }
        };
        let ret = shape_type(method.ret, &ctx);
        match method.imp {
            Impl::Native(native) => {
                let id = self.native(native);
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push(obj);
                all.extend(args);
                mk(ExprKind::CallNative { id, args: all }, ret, line)
            }
            Impl::Inline => {
                // Inline methods are lowered in `method_call` before the
                // table is consulted; reaching here means a form it does
                // not lower (e.g. an unusual receiver type).
                let shown = self.show(&ty);
                self.error(
                    nrange,
                    format!("method '{name}' is not supported on {shown}"),
                );
                self.err_expr(line)
            }
        }
    }

    /// Check the arguments of a call already known to be wrong, so their
    /// own mistakes are still reported.
    fn check_items_for_errors(&mut self, items: &[ast::Arg]) {
        for item in items {
            if let ast::Arg::Value(e) = item {
                self.check_expr(e, None);
            }
        }
    }

    /// Pick among same-arity overloads by the arguments' own types.
    fn overload(
        &mut self,
        fitting: &[&'static Method],
        items: &[ast::Arg],
        ctx: &Ctx,
        name: &str,
        range: TextRange,
    ) -> Option<(&'static Method, Vec<Expr>)> {
        let mut vals = Vec::with_capacity(items.len());
        for item in items {
            match item {
                ast::Arg::Value(e) => {
                    let r = e.syntax().text_range();
                    vals.push((self.check_expr(e, None), r));
                }
                ast::Arg::Type(t) => {
                    self.error(
                        t.syntax().text_range(),
                        format!("'{name}' takes no type argument"),
                    );
                    return None;
                }
            }
        }
        if vals.iter().any(|(v, _)| v.ty == Type::Error) {
            return None;
        }
        let chosen = fitting.iter().copied().find(|m| {
            m.params.iter().zip(vals.iter()).all(|(s, (v, _))| {
                if *s == Shape::Rendered {
                    return super::ty::has_text_form(&v.ty);
                }
                let t = shape_type(*s, ctx);
                v.ty == Type::Null || v.ty.strip_manual() == t.strip_manual()
            })
        });
        let Some(m) = chosen else {
            // Name the first argument whose type no overload accepts.
            for (i, (v, r)) in vals.iter().enumerate() {
                let accepted: Vec<Type> = fitting
                    .iter()
                    .map(|m| shape_type(m.params[i], ctx))
                    .collect();
                let rendered = fitting
                    .iter()
                    .any(|m| m.params[i] == Shape::Rendered && super::ty::has_text_form(&v.ty));
                if !rendered
                    && !accepted
                        .iter()
                        .any(|t| t.strip_manual() == v.ty.strip_manual())
                {
                    let mut names: Vec<String> = fitting
                        .iter()
                        .map(|m| match m.params[i] {
                            Shape::Rendered => "any value with a text form".to_string(),
                            s => self.show(&shape_type(s, ctx)),
                        })
                        .collect();
                    names.dedup();
                    let found = self.show(&v.ty);
                    self.error(
                        *r,
                        format!(
                            "argument {} of '{name}': expected {}, found {found}",
                            i + 1,
                            names.join(" or ")
                        ),
                    );
                    return None;
                }
            }
            self.error(range, format!("no form of '{name}' takes these arguments"));
            return None;
        };
        let args = vals
            .into_iter()
            .zip(m.params.iter())
            .enumerate()
            .map(|(i, ((v, r), s))| {
                if *s == Shape::Rendered {
                    return self.render_text(v, r);
                }
                let t = shape_type(*s, ctx);
                let label = format!("argument {} of '{name}'", i + 1);
                self.coerce(v, &t, r, Some(&label))
            })
            .collect();
        Some((m, args))
    }

    /// Check one argument of a method against its shape. Type-argument
    /// shapes record the type in `ctx` and yield its index in
    /// `Module::types`. `None` after an error that poisons the call.
    fn method_item(
        &mut self,
        shape: Shape,
        item: &ast::Arg,
        ctx: &mut Ctx,
        what: &str,
        i: usize,
    ) -> Option<Expr> {
        let range = match item {
            ast::Arg::Value(e) => e.syntax().text_range(),
            ast::Arg::Type(t) => t.syntax().text_range(),
        };
        let line = self.line(range);
        if matches!(shape, Shape::TypeArg | Shape::StructTypeArg) {
            let t = self.type_argument(item, range)?;
            if shape == Shape::StructTypeArg && !matches!(t, Type::Struct(_)) {
                let shown = self.show(&t);
                self.error(
                    range,
                    format!(
                        "{what} needs a struct type, found {shown}; use toArr for arrays (§16.4)"
                    ),
                );
                return None;
            }
            if let Some(problem) = self.json_problem(&t) {
                self.error(range, problem);
                return None;
            }
            let target = if shape == Shape::TypeArg {
                Type::Arr(Box::new(t.clone()))
            } else {
                t.clone()
            };
            ctx.type_arg = Some(t);
            let idx = self.intern_type(target);
            return Some(mk(ExprKind::Int(idx as i64), Type::Int, line));
        }
        match item {
            ast::Arg::Value(e) => Some(self.shape_arg(shape, e, ctx, what, i)),
            ast::Arg::Type(t) => {
                self.error(
                    t.syntax().text_range(),
                    format!("argument {} of {what} must be a value, not a type", i + 1),
                );
                None
            }
        }
    }

    /// Check a value argument against a shape: with the shape's type
    /// expected, converted to it (an `int` promoted where a `float` is
    /// wanted, §8.3).
    fn shape_arg(&mut self, shape: Shape, e: &ast::Expr, ctx: &Ctx, what: &str, i: usize) -> Expr {
        let range = e.syntax().text_range();
        if shape == Shape::Rendered {
            let v = self.check_expr(e, None);
            return self.render_text(v, range);
        }
        let t = shape_type(shape, ctx);
        let v = self.check_expr(e, Some(&t));
        let v = if t == Type::Float && v.ty == Type::Int {
            promote(v)
        } else if shape == Shape::ImgSource {
            super::ty::img_source(v)
        } else {
            v
        };
        let label = format!("argument {} of {what}", i + 1);
        self.coerce_arg(v, &t, range, &label)
    }

    /// The type a type argument names: a keyword or composite type, or a
    /// bare identifier naming a declared type.
    fn type_argument(&mut self, item: &ast::Arg, range: TextRange) -> Option<Type> {
        match item {
            ast::Arg::Type(t) => {
                let tr = t.ty()?;
                let ty = self.resolve_type(&tr, ManualOk::No);
                (ty != Type::Error).then_some(ty)
            }
            ast::Arg::Value(ast::Expr::NameRef(n)) => {
                let tok = n.token()?;
                let name = tok.text();
                if let Some(t) = builtin_type(name) {
                    return Some(t);
                }
                match self.types.get(name).copied() {
                    Some(TypeSym::Struct(id)) => Some(Type::Struct(id)),
                    Some(TypeSym::Table(id)) => Some(Type::Table(id)),
                    Some(TypeSym::Enum(id)) => Some(Type::Enum(id)),
                    None => {
                        self.error(range, format!("unknown type '{name}'"));
                        None
                    }
                }
            }
            ast::Arg::Value(_) => {
                self.error(
                    range,
                    "expected a type here, such as User or arr[int] (§9.4)",
                );
                None
            }
        }
    }

    /// Why values of type `t` cannot be parsed from JSON (§16.4), or
    /// `None` if they can: scalars, `text`, `ascii`, structs, arrays, maps
    /// and enums made of those, to any depth.
    pub(super) fn json_problem(&self, t: &Type) -> Option<String> {
        let top = self.show(t);
        let mut seen = Vec::new();
        self.json_walk(t, &top, &mut seen).map(|(path, bad)| {
            let bad_shown = self.show(&bad);
            if path == top {
                format!("{top} cannot be parsed from JSON: {bad_shown} has no JSON form (§16.4)")
            } else {
                format!(
                    "{top} cannot be parsed from JSON: {path} is {bad_shown}, which has no JSON form (§16.4)"
                )
            }
        })
    }

    fn json_walk(&self, t: &Type, path: &str, seen: &mut Vec<u32>) -> Option<(String, Type)> {
        match t {
            Type::Int | Type::Float | Type::Bool | Type::Text | Type::Ascii | Type::Error => None,
            // A weak field is skipped by parsing (it stays null).
            Type::Weak(_) => None,
            Type::Manual(inner) => self.json_walk(inner, path, seen),
            Type::Arr(e) | Type::Amor(e) | Type::Map(e) => {
                self.json_walk(e, &format!("{path}[]"), seen)
            }
            Type::Struct(sid) => {
                if seen.contains(sid) {
                    return None;
                }
                seen.push(*sid);
                let rec = &self.module.structs[*sid as usize];
                for f in &rec.fields {
                    if let Some(bad) = self.json_walk(&f.ty, &format!("{path}.{}", f.name), seen) {
                        return Some(bad);
                    }
                }
                None
            }
            Type::Enum(eid) => {
                let members = self.module.enums[*eid as usize].members.clone();
                members.iter().find_map(|m| self.json_walk(m, path, seen))
            }
            other => Some((path.to_string(), other.clone())),
        }
    }

    /// The index of `t` in [`crate::hir::Module::types`], adding it if new.
    pub(super) fn intern_type(&mut self, t: Type) -> usize {
        if let Some(i) = self.module.types.iter().position(|x| *x == t) {
            return i;
        }
        self.module.types.push(t);
        self.module.types.len() - 1
    }

    /// A regex literal `/pattern/flags` (§7.5.5, §8.15): compiled by the
    /// VM the first time its site runs and kept for the life of the
    /// process; an invalid pattern is a runtime failure there.
    pub(super) fn regex_literal_call(&mut self, pattern: String, flags: String, line: u32) -> Expr {
        let id = self.native("regex_literal");
        let args = vec![
            mk(ExprKind::Text(pattern), Type::Text, line),
            mk(ExprKind::Text(flags), Type::Text, line),
        ];
        mk(ExprKind::CallNative { id, args }, Type::Regex, line)
    }
}

/// `int` → `float` promotion of an argument (§8.3).
pub(super) fn promote(e: Expr) -> Expr {
    let line = e.line;
    if let ExprKind::Int(n) = e.kind {
        return mk(ExprKind::Float(n as f64), Type::Float, line);
    }
    mk(ExprKind::IntToFloat(Box::new(e)), Type::Float, line)
}
