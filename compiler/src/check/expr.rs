//! Expressions (§9), expression statements and assignment targets.

use super::{Checker, ValueSym};
use crate::ast;
use crate::hir::{BinOp, Expr, ExprKind, Place, Stmt, StmtKind, UnOp};
use festina_signatures::{Shape, BUILTINS};
use festina_vm::types::Type;
use rowan::TextRange;

use crate::limits::{MAX_ARGS, MAX_EXPR_DEPTH};

/// Shorthand for building an expression.
fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}

fn boxed(kind: ExprKind, ty: Type, line: u32) -> Box<Expr> {
    Box::new(mk(kind, ty, line))
}

impl Checker<'_> {
    /// Check an expression in a position that is not a struct-literal
    /// position (§8.9.4): arguments, operands, conditions, returns.
    pub(super) fn check_expr(&mut self, e: &ast::Expr, expected: Option<&Type>) -> Expr {
        self.expr(e, expected, false)
    }

    /// Check an expression in a declaration initializer or assignment
    /// value, where `{...}` may be a struct literal (§8.9.4).
    pub(super) fn check_expr_struct_ok(&mut self, e: &ast::Expr, expected: Option<&Type>) -> Expr {
        self.expr(e, expected, true)
    }

    fn error_expr(&self, line: u32) -> Expr {
        mk(ExprKind::Null, Type::Error, line)
    }

    fn expr(&mut self, e: &ast::Expr, expected: Option<&Type>, struct_ok: bool) -> Expr {
        let range = e.syntax().text_range();
        let line = self.line(range);
        if self.depth >= MAX_EXPR_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                self.error(range, "this expression is nested too deeply");
            }
            return self.error_expr(line);
        }
        self.depth += 1;
        let out = self.expr_inner(e, expected, struct_ok, line, range);
        self.depth -= 1;
        out
    }

    fn expr_inner(
        &mut self,
        e: &ast::Expr,
        expected: Option<&Type>,
        struct_ok: bool,
        line: u32,
        range: TextRange,
    ) -> Expr {
        match e {
            ast::Expr::Literal(l) => self.literal(l, expected, line),
            ast::Expr::Template(t) => self.template(t, line),
            ast::Expr::Regex(r) => self.regex_literal(r, line),
            ast::Expr::NameRef(n) => self.name_ref(n, line),
            ast::Expr::Paren(p) => match p.expr() {
                Some(inner) => self.expr(&inner, expected, struct_ok),
                None => self.error_expr(line),
            },
            ast::Expr::ArrayLit(a) => self.array_lit(a, expected, struct_ok, line),
            ast::Expr::MapLit(m) => self.map_lit(m, expected, struct_ok, line),
            ast::Expr::Arrow(a) => self.check_arrow(a),
            ast::Expr::Field(f) => self.field(f, line),
            ast::Expr::Index(i) => self.index(i, line),
            ast::Expr::Call(c) => {
                if expected.is_some_and(|t| *t.strip_manual() == Type::Http) {
                    if let Some(e) = self.http_send_lit(c, line) {
                        return e;
                    }
                }
                self.call(c, line)
            }
            ast::Expr::Postfix(p) => self.postfix_value(p, range, line),
            ast::Expr::Prefix(p) => self.prefix(p, line),
            ast::Expr::Binary(b) => self.binary(b, line),
            ast::Expr::Ternary(t) => self.ternary(t, expected, line),
            ast::Expr::Assign(_) => {
                self.error(range, "an assignment can only be used as a statement");
                self.error_expr(line)
            }
        }
    }

    // ---- literals ----

    fn literal(&mut self, l: &ast::Literal, expected: Option<&Type>, line: u32) -> Expr {
        let Some(tok) = l.token() else {
            return self.error_expr(line);
        };
        let text = tok.text();
        match l.kind() {
            ast::LiteralKind::Int => match int_literal(text) {
                Some(v) => mk(ExprKind::Int(v), Type::Int, line),
                None => {
                    self.error(tok.text_range(), "integer literal is out of range for int");
                    mk(ExprKind::Int(0), Type::Error, line)
                }
            },
            ast::LiteralKind::Float => mk(
                ExprKind::Float(text.parse().unwrap_or(0.0)),
                Type::Float,
                line,
            ),
            ast::LiteralKind::True => mk(ExprKind::Bool(true), Type::Bool, line),
            ast::LiteralKind::False => mk(ExprKind::Bool(false), Type::Bool, line),
            ast::LiteralKind::Null => mk(ExprKind::Null, Type::Null, line),
            ast::LiteralKind::String => {
                let s = match ast::unescape_string(text) {
                    Ok(s) => s,
                    Err(_) => return mk(ExprKind::Text(String::new()), Type::Error, line),
                };
                if matches!(expected.map(|t| t.strip_manual()), Some(Type::Ascii)) && !s.is_ascii()
                {
                    self.error(
                        tok.text_range(),
                        "an ascii literal may only contain ASCII characters (§8.5)",
                    );
                    return mk(ExprKind::Text(s), Type::Error, line);
                }
                mk(ExprKind::Text(s), Type::Text, line)
            }
        }
    }

    fn template(&mut self, t: &ast::Template, line: u32) -> Expr {
        let mut parts = Vec::new();
        for p in t.parts() {
            match p {
                ast::TemplatePart::Chunk(tok) => {
                    let s = ast::unescape_template_chunk(tok.text()).unwrap_or_default();
                    if !s.is_empty() {
                        parts.push(mk(ExprKind::Text(s), Type::Text, line));
                    }
                }
                ast::TemplatePart::Subst(e) => {
                    let range = e.syntax().text_range();
                    let v = self.check_expr(&e, None);
                    parts.push(self.render_text(v, range));
                }
            }
        }
        mk(ExprKind::Template(parts), Type::Text, line)
    }

    fn regex_literal(&mut self, r: &ast::Regex, line: u32) -> Expr {
        let range = r.syntax().text_range();
        for c in r.flags().chars() {
            if c != 'i' && c != 'g' {
                self.error(
                    range,
                    format!("invalid regex flag '{c}'; only 'i' and 'g' are allowed"),
                );
                return self.error_expr(line);
            }
        }
        self.regex_literal_call(r.pattern(), r.flags(), line)
    }

    fn name_ref(&mut self, n: &ast::NameRef, line: u32) -> Expr {
        let Some(tok) = n.token() else {
            return self.error_expr(line);
        };
        self.resolve_name(&tok, line)
    }

    /// The value a name denotes: local, global, function, `argv`, or a
    /// read-only global value of the library (`clientWidth`, §16.2).
    fn resolve_name(&mut self, tok: &ast::Token, line: u32) -> Expr {
        let name = tok.text();
        if let Some(l) = self.lookup_local(name) {
            let ty = self.fs.locals[l.id as usize].ty.clone();
            return mk(ExprKind::Local(l.id), ty, line);
        }
        match self.lookup_value(name) {
            Some(ValueSym::Global(g)) => {
                let ty = self.module.globals[g as usize].ty.clone();
                // Globals are created at their declaration; one holding null
                // stays null (reading a field through it fails).
                mk(
                    ExprKind::Global {
                        global: g,
                        vivify: false,
                    },
                    ty,
                    line,
                )
            }
            Some(ValueSym::Func(f)) => {
                let sig = &self.sigs[f as usize];
                let ty = Type::Func(sig.params.clone(), Box::new(sig.ret.clone()));
                mk(ExprKind::FuncRef(f), ty, line)
            }
            None => {
                if name == "argv" {
                    let id = self.native("argv");
                    return mk(
                        ExprKind::CallNative {
                            id,
                            args: Vec::new(),
                        },
                        Type::Arr(Box::new(Type::Text)),
                        line,
                    );
                }
                if let Some(v) = festina_signatures::VALUES.iter().find(|v| v.name == name) {
                    let id = self.native(v.native);
                    return mk(
                        ExprKind::CallNative {
                            id,
                            args: Vec::new(),
                        },
                        shape_type(v.ret),
                        line,
                    );
                }
                if self.isolation_error(name, tok.text_range()) {
                } else if let Some(msg) = super::methods::bare_namespace_message(name) {
                    self.error(tok.text_range(), msg);
                } else if BUILTINS.iter().any(|b| b.name == name) {
                    self.error(
                        tok.text_range(),
                        format!("built-in function '{name}' must be called"),
                    );
                } else if festina_signatures::RESERVED_GLOBALS.contains(&name) {
                    self.error(
                        tok.text_range(),
                        format!("'{name}' is not available in this build"),
                    );
                } else {
                    let msg = super::closures::closure_message(tok.parent(), name)
                        .unwrap_or_else(|| format!("unknown name '{name}'"));
                    self.error(tok.text_range(), msg);
                }
                self.error_expr(line)
            }
        }
    }

    // ---- collections ----

    fn array_lit(
        &mut self,
        a: &ast::ArrayLit,
        expected: Option<&Type>,
        struct_ok: bool,
        line: u32,
    ) -> Expr {
        let range = a.syntax().text_range();
        if expected == Some(&Type::Error) {
            return self.poisoned_literal(a.syntax(), line);
        }
        let target = expected.map(|t| t.strip_manual().clone());
        if let Some(t @ (Type::Arr(_) | Type::Amor(_))) = &target {
            let elem = t.elem().cloned().unwrap_or(Type::Error);
            let mut elems = Vec::new();
            for el in a.elements() {
                let erange = el.syntax().text_range();
                let v = self.expr(&el, Some(&elem), struct_ok);
                elems.push(self.coerce(v, &elem, erange, None));
            }
            return mk(ExprKind::NewArr(elems), t.clone(), line);
        }
        let values: Vec<(Expr, TextRange)> = a
            .elements()
            .map(|el| {
                let r = el.syntax().text_range();
                (self.expr(&el, None, false), r)
            })
            .collect();
        let Some(elem) = self.common_type(&values, range, "array literal") else {
            return self.error_expr(line);
        };
        let elems = values
            .into_iter()
            .map(|(v, r)| self.coerce(v, &elem, r, None))
            .collect();
        mk(ExprKind::NewArr(elems), Type::Arr(Box::new(elem)), line)
    }

    /// A literal whose expected type is already in error: its elements
    /// are still checked (for their own mistakes) but no type is inferred,
    /// so one mistake reports one error.
    fn poisoned_literal(&mut self, node: &ast::Node, line: u32) -> Expr {
        for child in node.children() {
            if let Some(e) = ast::Expr::cast(child.clone()) {
                self.check_expr(&e, Some(&Type::Error));
            } else if let Some(entry) = ast::MapEntry::cast(child) {
                if let Some(v) = entry.value() {
                    self.check_expr(&v, Some(&Type::Error));
                }
            }
        }
        self.error_expr(line)
    }

    /// The one type all `values` share (nulls aside), for a literal
    /// without an expected type.
    fn common_type(
        &mut self,
        values: &[(Expr, TextRange)],
        range: TextRange,
        what: &str,
    ) -> Option<Type> {
        let first = values
            .iter()
            .find(|(v, _)| v.ty != Type::Null)
            .map(|(v, _)| v.ty.clone());
        let Some(first) = first else {
            self.error(
                range,
                format!("cannot infer the type of this {what}; declare the variable's type"),
            );
            return None;
        };
        for (v, r) in values {
            if v.ty != first && v.ty != Type::Null && v.ty != Type::Error && first != Type::Error {
                let (a, b) = (self.show(&first), self.show(&v.ty));
                let msg = if what == "map literal" {
                    format!("map literal values must have one type: found {a} and {b}")
                } else {
                    format!("array literal elements must have one type: found {a} and {b}")
                };
                self.error(*r, msg);
                return None;
            }
        }
        Some(first)
    }

    fn map_lit(
        &mut self,
        m: &ast::MapLit,
        expected: Option<&Type>,
        struct_ok: bool,
        line: u32,
    ) -> Expr {
        let range = m.syntax().text_range();
        if expected == Some(&Type::Error) {
            return self.poisoned_literal(m.syntax(), line);
        }
        let target = expected.map(|t| t.strip_manual().clone());
        match &target {
            Some(Type::Struct(sid)) => {
                if !struct_ok {
                    self.error(
                        range,
                        "a struct literal is not allowed here; build the value in a variable first (§8.9.4)",
                    );
                    return self.error_expr(line);
                }
                return self.struct_lit(m, *sid, line);
            }
            Some(Type::Table(_)) => {
                self.error(range, "a table row has no literal form (§8.10)");
                return self.error_expr(line);
            }
            Some(Type::Http) => return self.http_lit(m, line),
            _ => {}
        }
        let value_ty = match &target {
            Some(Type::Map(t)) => Some((**t).clone()),
            _ => None,
        };
        let mut seen_keys: hashbrown::HashSet<String> = hashbrown::HashSet::new();
        let mut entries = Vec::new();
        for entry in m.entries() {
            let Some((key, key_lit, value_ast, vrange)) = self.map_entry_parts(&entry) else {
                continue;
            };
            if let Some(k) = key_lit {
                if seen_keys.contains(&k) {
                    self.error(
                        entry.syntax().text_range(),
                        format!("duplicate key '{k}' in map literal"),
                    );
                }
                seen_keys.insert(k);
            }
            let value = match &value_ast {
                Some(v) => self.expr(v, value_ty.as_ref(), struct_ok),
                None => self.shorthand_value(&entry, line),
            };
            entries.push((key, value, vrange));
        }
        let vty = match value_ty {
            Some(t) => t,
            None => {
                let vals: Vec<(Expr, TextRange)> =
                    entries.iter().map(|(_, v, r)| (v.clone(), *r)).collect();
                match self.common_type(&vals, range, "map literal") {
                    Some(t) => t,
                    None => return self.error_expr(line),
                }
            }
        };
        if matches!(vty, Type::Arr(_) | Type::Amor(_) | Type::Map(_)) {
            self.error(range, "a map cannot hold arrays or maps (§8.8)");
        }
        let out = entries
            .into_iter()
            .map(|(k, v, r)| (k, self.coerce(v, &vty, r, None)))
            .collect();
        mk(ExprKind::NewMap(out), Type::Map(Box::new(vty)), line)
    }

    /// Key expression, literal key text if the key is a string literal,
    /// value syntax (None for `{ name }` shorthand) and value range.
    fn map_entry_parts(
        &mut self,
        entry: &ast::MapEntry,
    ) -> Option<(Expr, Option<String>, Option<ast::Expr>, TextRange)> {
        let line = self.line(entry.syntax().text_range());
        if let Some(name) = entry.shorthand() {
            let key = mk(ExprKind::Text(name.text().to_string()), Type::Text, line);
            return Some((key, Some(name.text().to_string()), None, name.text_range()));
        }
        let key_ast = entry.key()?;
        let value_ast = entry.value();
        let vrange = value_ast
            .as_ref()
            .map_or(entry.syntax().text_range(), |v| v.syntax().text_range());
        let key_lit = string_literal(&key_ast).or_else(|| rendered_literal(&key_ast));
        let krange = key_ast.syntax().text_range();
        let key = self.map_key(&key_ast, krange);
        value_ast.as_ref()?;
        Some((key, key_lit, value_ast, vrange))
    }

    pub(super) fn shorthand_value(&mut self, entry: &ast::MapEntry, line: u32) -> Expr {
        match entry.shorthand() {
            Some(name) => self.resolve_name(&name, line),
            None => self.error_expr(line),
        }
    }

    /// A struct literal (§8.9.4).
    fn struct_lit(&mut self, m: &ast::MapLit, sid: u32, line: u32) -> Expr {
        let sname = self.module.structs[sid as usize].name.clone();
        let mut fields: Vec<(u16, Expr)> = Vec::new();
        for entry in m.entries() {
            let erange = entry.syntax().text_range();
            let (fname, frange, value_ast) = if let Some(name) = entry.shorthand() {
                (name.text().to_string(), name.text_range(), None)
            } else {
                let Some(key) = entry.key() else { continue };
                let Some(k) = string_literal(&key) else {
                    self.error(
                        key.syntax().text_range(),
                        "struct literal keys must be string literals (§8.9.4)",
                    );
                    continue;
                };
                (k, key.syntax().text_range(), entry.value())
            };
            let Some(idx) = self.struct_field(sid, &fname) else {
                self.error(
                    frange,
                    format!("unknown field '{fname}' in struct literal of type {sname}"),
                );
                continue;
            };
            // A weak field takes a value of its target type.
            let fty = match &self.module.structs[sid as usize].fields[idx].ty {
                Type::Weak(t) => (**t).clone(),
                t => t.clone(),
            };
            if fields.iter().any(|(i, _)| *i as usize == idx) {
                self.error(frange, format!("field '{fname}' is given twice"));
                continue;
            }
            let value = match &value_ast {
                Some(v) => {
                    let vr = v.syntax().text_range();
                    let x = self.expr(v, Some(&fty), true);
                    self.coerce(x, &fty, vr, None)
                }
                None => {
                    let x = self.shorthand_value(&entry, line);
                    self.coerce(x, &fty, erange, None)
                }
            };
            fields.push((idx as u16, value));
        }
        mk(ExprKind::NewStruct { sid, fields }, Type::Struct(sid), line)
    }

    // ---- member access and indexing ----

    fn field(&mut self, f: &ast::Field, line: u32) -> Expr {
        let range = f.syntax().text_range();
        let (Some(recv), Some(name)) = (f.receiver(), f.name()) else {
            return self.error_expr(line);
        };
        if let Some(e) = self.namespace_member(&recv, &name, line) {
            return e;
        }
        let obj = self.receiver(&recv);
        if obj.ty.strip_manual() == &Type::Thread && name.text() == "main" {
            return self.worker_main(obj, line);
        }
        self.member(obj, name.text(), name.text_range(), range, line)
    }

    /// An expression reached as the receiver of `.`, a method call or an
    /// index: a struct field read here is created when null (§8.9.2).
    pub(super) fn receiver(&mut self, e: &ast::Expr) -> Expr {
        let v = self.check_expr(e, None);
        as_receiver(v)
    }

    fn member(
        &mut self,
        obj: Expr,
        fname: &str,
        nrange: TextRange,
        _range: TextRange,
        line: u32,
    ) -> Expr {
        let ty = obj.ty.strip_manual().clone();
        match &ty {
            Type::Error => self.error_expr(line),
            Type::Struct(sid) => {
                match self.struct_field(*sid, fname) {
                    Some(i) => {
                        let fty = self.module.structs[*sid as usize].fields[i].ty.clone();
                        if let Type::Weak(target) = fty {
                            // Never vivified: an unset or dead target reads null.
                            return mk(
                                ExprKind::WeakField {
                                    obj: Box::new(obj),
                                    field: i as u16,
                                },
                                *target,
                                line,
                            );
                        }
                        // A null array or map field is created on any
                        // read (§8.9.2); a struct field only when reached
                        // as a receiver (`as_receiver`): a terminal read
                        // answers what the field holds, as the reference
                        // does after edition 0.44.
                        let vivify = matches!(
                            fty.strip_manual(),
                            Type::Arr(_) | Type::Amor(_) | Type::Map(_)
                        );
                        mk(
                            ExprKind::Field {
                                obj: Box::new(obj),
                                field: i as u16,
                                vivify,
                            },
                            fty,
                            line,
                        )
                    }
                    None => self.unknown_member(&ty, fname, nrange, line),
                }
            }
            Type::Table(tid) => self.row_member(obj, *tid, fname, nrange, line),
            Type::Enum(eid) => self.enum_member(obj, *eid, fname, nrange, line),
            Type::Text if fname == "length" => {
                mk(ExprKind::TextLen(Box::new(obj)), Type::Int, line)
            }
            Type::Ascii if fname == "length" => {
                mk(ExprKind::AsciiLen(Box::new(obj)), Type::Int, line)
            }
            Type::Arr(_) | Type::Amor(_) if fname == "length" => {
                mk(ExprKind::ArrLen(Box::new(obj)), Type::Int, line)
            }
            Type::Map(_) => {
                // `m.key` reads entry 'key' (as `delete m.key` names it, §10.11).
                let vty = ty.elem().cloned().unwrap_or(Type::Error);
                let key = boxed(ExprKind::Text(fname.to_string()), Type::Text, line);
                mk(
                    ExprKind::MapGet {
                        map: Box::new(obj),
                        key,
                    },
                    vty,
                    line,
                )
            }
            _ => self.property_or_unknown(obj, &ty, fname, nrange, line),
        }
    }

    pub(super) fn unknown_member(
        &mut self,
        ty: &Type,
        name: &str,
        range: TextRange,
        line: u32,
    ) -> Expr {
        let shown = self.show(ty);
        if is_method_name(ty, name) {
            self.error(range, format!("method '{name}' of {shown} must be called"));
            return self.error_expr(line);
        }
        self.error(range, format!("unknown member '{name}' on type {shown}"));
        self.error_expr(line)
    }

    fn enum_member(
        &mut self,
        obj: Expr,
        eid: u32,
        fname: &str,
        range: TextRange,
        line: u32,
    ) -> Expr {
        let en = &self.module.enums[eid as usize];
        if !en.pure_struct {
            let shown = en.name.clone();
            self.error(
                range,
                format!("field access on enum {shown} needs every member to be a struct (§8.11)"),
            );
            return self.error_expr(line);
        }
        let mut found = None;
        for m in &en.members {
            if let Type::Struct(sid) = m {
                if let Some(i) = self.struct_field(*sid, fname) {
                    let fty = self.module.structs[*sid as usize].fields[i].ty.clone();
                    found = Some((*sid, i as u16, fty));
                }
            }
        }
        match found {
            Some((sid, field, fty)) => mk(
                ExprKind::EnumField {
                    obj: Box::new(obj),
                    sid,
                    field,
                    name: fname.to_string(),
                },
                fty,
                line,
            ),
            None => self.unknown_member(&Type::Enum(eid), fname, range, line),
        }
    }

    fn index(&mut self, i: &ast::Index, line: u32) -> Expr {
        let (Some(base), Some(idx)) = (i.base(), i.index()) else {
            return self.error_expr(line);
        };
        if let Some(e) = self.namespace_index(&base, &idx, line) {
            return e;
        }
        let brange = base.syntax().text_range();
        let irange = idx.syntax().text_range();
        let b = self.receiver(&base);
        let ty = b.ty.strip_manual().clone();
        match &ty {
            Type::Error => self.error_expr(line),
            Type::Arr(el) | Type::Amor(el) => {
                let ix = self.int_operand(&idx, irange);
                mk(
                    ExprKind::Index {
                        arr: Box::new(b),
                        index: Box::new(ix),
                    },
                    (**el).clone(),
                    line,
                )
            }
            Type::Map(el) => {
                let k = self.map_key(&idx, irange);
                mk(
                    ExprKind::MapGet {
                        map: Box::new(b),
                        key: Box::new(k),
                    },
                    (**el).clone(),
                    line,
                )
            }
            Type::Text => {
                let ix = self.int_operand(&idx, irange);
                mk(
                    ExprKind::TextIndex(Box::new(b), Box::new(ix)),
                    Type::Text,
                    line,
                )
            }
            Type::Ascii => {
                let ix = self.int_operand(&idx, irange);
                mk(
                    ExprKind::AsciiIndex(Box::new(b), Box::new(ix)),
                    Type::Ascii,
                    line,
                )
            }
            _ => {
                let shown = self.show(&ty);
                self.error(brange, format!("cannot index a value of type {shown}"));
                self.error_expr(line)
            }
        }
    }

    /// [`Checker::int_operand`] for the other modules.
    pub(super) fn int_operand_pub(&mut self, e: &ast::Expr, range: TextRange) -> Expr {
        self.int_operand(e, range)
    }

    fn int_operand(&mut self, e: &ast::Expr, range: TextRange) -> Expr {
        let v = self.check_expr(e, Some(&Type::Int));
        if !matches!(v.ty, Type::Int | Type::Error) {
            let shown = self.show(&v.ty);
            self.error(range, format!("an index must be int, found {shown}"));
        }
        v
    }

    // ---- calls ----

    fn call(&mut self, c: &ast::Call, line: u32) -> Expr {
        let range = c.syntax().text_range();
        let args: Vec<ast::Expr> = c.arg_list().map(|l| l.args().collect()).unwrap_or_default();
        let Some(callee) = c.callee() else {
            return self.error_expr(line);
        };
        match &callee {
            ast::Expr::NameRef(n) => {
                let Some(tok) = n.token() else {
                    return self.error_expr(line);
                };
                let name = tok.text().to_string();
                if name == "sqlite" {
                    return self.sqlite_misplaced(c, line);
                }
                if name == "postMessage" && self.lookup_local(&name).is_none() {
                    return self.post_to_main(&args, None, range, line);
                }
                if self.lookup_local(&name).is_none() {
                    match self.lookup_value(&name) {
                        Some(ValueSym::Func(f)) => return self.direct_call(f, &args, range, line),
                        Some(ValueSym::Global(_)) => {}
                        None => {
                            if BUILTINS.iter().any(|b| b.name == name) {
                                return self.builtin_call(&name, &args, range, line);
                            }
                        }
                    }
                }
                let f = self.check_expr(&callee, None);
                self.value_call(f, &args, range, line)
            }
            ast::Expr::Field(f) => self.method_call(f, &args, range, line),
            _ => {
                let f = self.check_expr(&callee, None);
                self.value_call(f, &args, range, line)
            }
        }
    }

    /// Checks call arguments against `params`. `what` names the callee
    /// in error messages; it is only called when there is an error.
    fn check_args(
        &mut self,
        what: &dyn Fn(&Self) -> String,
        params: &[Type],
        args: &[ast::Expr],
        range: TextRange,
    ) -> Vec<Expr> {
        if args.len() > MAX_ARGS {
            self.error(
                range,
                format!("a call may pass at most {MAX_ARGS} arguments"),
            );
            return Vec::new();
        }
        if params.len() != args.len() {
            let callee = what(self);
            self.arity_error(range, &callee, &params.len().to_string(), args.len());
        }
        let error = Type::Error;
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let arange = a.syntax().text_range();
            let pty = params.get(i).unwrap_or(&error);
            let v = self.check_expr(a, Some(pty));
            if v.ty == Type::Text && matches!(pty.strip_manual(), Type::Color | Type::Font) {
                let label = format!("argument {} of {}", i + 1, what(self));
                out.push(self.coerce_arg(v, pty, arange, &label));
                continue;
            }
            out.push(self.coerce_labelled(v, pty, arange, |c: &Self| {
                Some(format!("argument {} of {}", i + 1, what(c)))
            }));
        }
        out
    }

    fn direct_call(&mut self, f: u32, args: &[ast::Expr], range: TextRange, line: u32) -> Expr {
        let sig = &self.sigs[f as usize];
        let (params, ret) = (sig.params.clone(), sig.ret.clone());
        let what = move |c: &Self| format!("'{}'", c.sigs[f as usize].name);
        let args = self.check_args(&what, &params, args, range);
        mk(ExprKind::Call { func: f, args }, ret, line)
    }

    fn value_call(&mut self, f: Expr, args: &[ast::Expr], range: TextRange, line: u32) -> Expr {
        match f.ty.strip_manual().clone() {
            Type::Func(params, ret) => {
                let args = self.check_args(
                    &|_: &Self| "this function value".to_string(),
                    &params,
                    args,
                    range,
                );
                mk(
                    ExprKind::CallValue {
                        callee: Box::new(f),
                        args,
                    },
                    *ret,
                    line,
                )
            }
            Type::Test => self.test_assertion(f, args, range, line),
            Type::Error => self.error_expr(line),
            other => {
                let shown = self.show(&other);
                self.error(range, format!("a value of type {shown} cannot be called"));
                self.error_expr(line)
            }
        }
    }

    fn builtin_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        let Some(b) = BUILTINS
            .iter()
            .find(|b| b.name == name && b.params.len() == args.len())
        else {
            let arities: Vec<String> = BUILTINS
                .iter()
                .filter(|b| b.name == name)
                .map(|b| b.params.len().to_string())
                .collect();
            self.arity_error(
                range,
                &format!("'{name}'"),
                &arities.join(" or "),
                args.len(),
            );
            return self.error_expr(line);
        };
        self.check_thread_builtin(name, b.native, range);
        let mut out = Vec::new();
        for (i, (a, shape)) in args.iter().zip(b.params.iter()).enumerate() {
            let arange = a.syntax().text_range();
            let v = match shape {
                Shape::Rendered => {
                    let v = self.check_expr(a, None);
                    self.render_text(v, arange)
                }
                Shape::TimerCallback => self.timer_callback(a, name, i),
                _ => {
                    let ty = shape_type(*shape);
                    let v = self.check_expr(a, Some(&ty));
                    // §8.3: an int argument is promoted where a float is
                    // wanted; §8.18: drawImage accepts an img? source.
                    let v = if ty == Type::Float && v.ty == Type::Int {
                        super::methods::promote(v)
                    } else if *shape == Shape::ImgSource {
                        super::ty::img_source(v)
                    } else {
                        v
                    };
                    let label = format!("argument {} of '{name}'", i + 1);
                    self.coerce_arg(v, &ty, arange, &label)
                }
            };
            out.push(v);
        }
        let id = self.native(b.native);
        mk(
            ExprKind::CallNative { id, args: out },
            shape_type(b.ret),
            line,
        )
    }

    fn method_call(
        &mut self,
        f: &ast::Field,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        if let Some(e) = self.namespace_call(f, args, range, line) {
            return e;
        }
        let (Some(recv), Some(name)) = (f.receiver(), f.name()) else {
            return self.error_expr(line);
        };
        if let Some(t) = self.thread_target(&recv) {
            return self.thread_call(t, name.text(), args, None, range, line);
        }
        // `.callback(fn)` chained on a postMessage (§20.4).
        if name.text() == "callback" {
            if let ast::Expr::Call(inner) = &recv {
                let iargs: Vec<ast::Expr> = inner
                    .arg_list()
                    .map(|l| l.args().collect())
                    .unwrap_or_default();
                let cb = args.first();
                match inner.callee() {
                    Some(ast::Expr::Field(pf))
                        if pf.name().is_some_and(|n| n.text() == "postMessage") =>
                    {
                        if let Some(t) = pf.receiver().and_then(|r| self.thread_target(&r)) {
                            if args.len() != 1 {
                                self.arity_error(range, "'callback'", "1", args.len());
                            }
                            return self.thread_call(t, "postMessage", &iargs, cb, range, line);
                        }
                    }
                    Some(ast::Expr::NameRef(n))
                        if n.token().is_some_and(|t| t.text() == "postMessage")
                            && self.lookup_local("postMessage").is_none() =>
                    {
                        if args.len() != 1 {
                            self.arity_error(range, "'callback'", "1", args.len());
                        }
                        return self.post_to_main(&iargs, cb, range, line);
                    }
                    _ => {}
                }
            }
        }
        let obj = self.receiver(&recv);
        let m = name.text().to_string();
        let ty = obj.ty.strip_manual().clone();
        if ty == Type::Test {
            if m == "near" {
                return self.test_near(obj, args, range, line);
            }
            self.error(
                name.text_range(),
                format!("a test group has no method '{m}'; call it to assert, or use 'near'"),
            );
            return self.error_expr(line);
        }
        // A struct field holding a function value is called like a method.
        if let Type::Struct(sid) = &ty {
            if self.struct_field(*sid, &m).is_some() {
                let fv = self.member(obj, &m, name.text_range(), range, line);
                return self.value_call(fv, args, range, line);
            }
        }
        let arity = |c: &mut Self, n: usize| -> bool {
            if args.len() != n {
                c.arity_error(range, &format!("'{m}'"), &n.to_string(), args.len());
                false
            } else {
                true
            }
        };
        match (&ty, m.as_str()) {
            (Type::Error, _) => self.error_expr(line),
            (Type::Thread, "reply") => self.worker_reply(obj, args, range, line),
            (Type::Text, "callback") => self.text_callback(obj, args, range, line),
            (Type::Table(tid), "undefined") => {
                self.row_undefined_call(obj, *tid, args, range, line)
            }
            (Type::Arr(el) | Type::Amor(el), "push") => {
                if !arity(self, 1) {
                    return self.error_expr(line);
                }
                let el = (**el).clone();
                let arange = args[0].syntax().text_range();
                let v = self.check_expr(&args[0], Some(&el));
                let v = self.coerce(v, &el, arange, Some("argument 1 of 'push'"));
                mk(
                    ExprKind::ArrPush(Box::new(obj), Box::new(v)),
                    Type::Int,
                    line,
                )
            }
            (Type::Arr(el) | Type::Amor(el), "pop") => {
                if !arity(self, 0) {
                    return self.error_expr(line);
                }
                let el = (**el).clone();
                mk(ExprKind::ArrPop(Box::new(obj)), el, line)
            }
            (Type::Ascii, "charCodeAt") => {
                if !arity(self, 1) {
                    return self.error_expr(line);
                }
                let irange = args[0].syntax().text_range();
                let ix = self.int_operand(&args[0], irange);
                mk(
                    ExprKind::AsciiCodeAt(Box::new(obj), Box::new(ix)),
                    Type::Int,
                    line,
                )
            }
            (Type::Int, "toFloat") => {
                if !arity(self, 0) {
                    return self.error_expr(line);
                }
                mk(ExprKind::IntToFloat(Box::new(obj)), Type::Float, line)
            }
            (_, "toText") if super::ty::has_text_form(&ty) && ty != Type::Null => {
                if !arity(self, 0) {
                    return self.error_expr(line);
                }
                let null_empty = matches!(ty, Type::Text | Type::Ascii);
                mk(
                    ExprKind::ToText {
                        expr: Box::new(obj),
                        null_empty,
                    },
                    Type::Text,
                    line,
                )
            }
            _ => self.resolve_method(obj, f, &m, name.text_range(), range, line),
        }
    }

    // ---- operators ----

    fn prefix(&mut self, p: &ast::Prefix, line: u32) -> Expr {
        let range = p.syntax().text_range();
        let Some(operand) = p.operand() else {
            return self.error_expr(line);
        };
        let op = p
            .op_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        // `-9223372036854775808` is the one literal that only fits negated.
        if op == "-" {
            if let ast::Expr::Literal(l) = &operand {
                if let Some(t) = l.token() {
                    if t.text() == "9223372036854775808" {
                        return mk(ExprKind::Int(i64::MIN), Type::Int, line);
                    }
                }
            }
        }
        let v = self.check_expr(&operand, None);
        match (op.as_str(), v.ty.clone()) {
            (_, Type::Error) => self.error_expr(line),
            ("-", Type::Int) => match v.kind {
                ExprKind::Int(n) => mk(ExprKind::Int(n.wrapping_neg()), Type::Int, line),
                _ => mk(ExprKind::Unary(UnOp::NegInt, Box::new(v)), Type::Int, line),
            },
            ("-", Type::Float) => match v.kind {
                ExprKind::Float(x) => mk(ExprKind::Float(-x), Type::Float, line),
                _ => mk(
                    ExprKind::Unary(UnOp::NegFloat, Box::new(v)),
                    Type::Float,
                    line,
                ),
            },
            ("+", Type::Int | Type::Float) => v,
            ("!", Type::Bool) => mk(ExprKind::Unary(UnOp::Not, Box::new(v)), Type::Bool, line),
            ("~", Type::Int) => match v.kind {
                ExprKind::Int(n) => mk(ExprKind::Int(!n), Type::Int, line),
                _ => mk(ExprKind::Unary(UnOp::NotInt, Box::new(v)), Type::Int, line),
            },
            ("~", ty) => {
                let shown = self.show(&ty);
                self.error(
                    range,
                    format!("operator '~' needs an int operand, found {shown} (§8.3)"),
                );
                self.error_expr(line)
            }
            ("typeof", ty) => self.typeof_expr(v, ty, line),
            (op, ty) => {
                let shown = self.show(&ty);
                self.error(
                    range,
                    format!("operator '{op}' cannot be applied to {shown}"),
                );
                self.error_expr(line)
            }
        }
    }

    fn typeof_expr(&mut self, v: Expr, ty: Type, line: u32) -> Expr {
        if let Type::Enum(eid) = ty.strip_manual() {
            return mk(
                ExprKind::TypeofEnum {
                    expr: Box::new(v),
                    enum_id: *eid,
                },
                Type::Text,
                line,
            );
        }
        let name = self.show(ty.strip_manual());
        mk(ExprKind::Text(name), Type::Text, line)
    }

    fn binary(&mut self, b: &ast::Binary, line: u32) -> Expr {
        let range = b.syntax().text_range();
        let op_token = b.op_token();
        let op_range = op_token.as_ref().map_or(range, |t| t.text_range());
        let op = op_token.as_ref().map_or("", |t| t.text());
        let (Some(la), Some(ra)) = (b.lhs(), b.rhs()) else {
            return self.error_expr(line);
        };
        if op == "===" || op == "!==" {
            let fix = if op == "===" { "==" } else { "!=" };
            let r = op_range;
            self.error(
                r,
                format!("'{op}' is not supported in Festina; use '{fix}'"),
            );
            self.check_expr(&la, None);
            self.check_expr(&ra, None);
            return self.error_expr(line);
        }
        if op == "&&" || op == "||" {
            let l = self.bool_operand(&la, op);
            let r = self.bool_operand(&ra, op);
            let kind = if op == "&&" {
                ExprKind::And(Box::new(l), Box::new(r))
            } else {
                ExprKind::Or(Box::new(l), Box::new(r))
            };
            return mk(kind, Type::Bool, line);
        }
        let l = self.check_expr(&la, None);
        let r = self.check_expr(&ra, None);
        if l.ty == Type::Error || r.ty == Type::Error {
            return self.error_expr(line);
        }
        match op {
            "==" | "!=" => self.equality(op, l, r, op_range, line),
            "&" | "|" | "^" | "<<" | ">>" => self.bitwise(op, l, r, op_range, line),
            _ => self.arith(op, l, r, op_range, line),
        }
    }

    /// `&`, `|`, `^`, `<<`, `>>` on two ints (the reference's addition to
    /// §8.3 after edition 0.44); any other operand type is an error, never
    /// a silent conversion.
    fn bitwise(&mut self, op: &str, l: Expr, r: Expr, range: TextRange, line: u32) -> Expr {
        let (lt, rt) = (l.ty.strip_manual().clone(), r.ty.strip_manual().clone());
        if lt != Type::Int || rt != Type::Int {
            let (a, b) = (self.show(&lt), self.show(&rt));
            self.error(
                range,
                format!("operator '{op}' needs int operands, found {a} and {b} (§8.3)"),
            );
            return self.error_expr(line);
        }
        let bop = match op {
            "&" => BinOp::AndInt,
            "|" => BinOp::OrInt,
            "^" => BinOp::XorInt,
            "<<" => BinOp::ShlInt,
            _ => BinOp::ShrInt,
        };
        mk(ExprKind::Binary(bop, Box::new([l, r])), Type::Int, line)
    }

    /// `ascii + text` or `text + ascii`: with a string literal on the text
    /// side, the literal is converted at compile time (§8.5) and the result
    /// is `ascii`; otherwise the ascii side is widened to `text` (as if by
    /// `.toText()`) and the result is `text` (the reference's rule after
    /// edition 0.44).
    fn mixed_concat(&mut self, l: Expr, r: Expr, line: u32) -> Expr {
        let (l, r) = (literal_to_ascii(l), literal_to_ascii(r));
        if l.ty == Type::Ascii && r.ty == Type::Ascii {
            return mk(
                ExprKind::Binary(BinOp::ConcatAscii, Box::new([l, r])),
                Type::Ascii,
                line,
            );
        }
        let widen = |e: Expr| {
            if *e.ty.strip_manual() == Type::Ascii {
                let line = e.line;
                mk(
                    ExprKind::ToText {
                        expr: Box::new(e),
                        null_empty: true,
                    },
                    Type::Text,
                    line,
                )
            } else {
                e
            }
        };
        mk(
            ExprKind::Binary(BinOp::Concat, Box::new([widen(l), widen(r)])),
            Type::Text,
            line,
        )
    }

    /// An `ascii` compared with a string literal: both as `ascii`, the
    /// literal converted at compile time (§8.5).
    fn ascii_with_literal(&self, l: &Expr, r: &Expr) -> Option<(Expr, Expr)> {
        let (a, b) = (literal_to_ascii(l.clone()), literal_to_ascii(r.clone()));
        (*a.ty.strip_manual() == Type::Ascii
            && *b.ty.strip_manual() == Type::Ascii
            && (l.ty != a.ty || r.ty != b.ty))
            .then_some((a, b))
    }

    /// A map key (§8.8): a `text` expression, or any value with a text
    /// form, which is rendered as if by `.toText()` (`m[7]` is `m['7']`,
    /// the reference's rule after edition 0.44).
    fn map_key(&mut self, e: &ast::Expr, range: TextRange) -> Expr {
        let k = self.check_expr(e, Some(&Type::Text));
        match k.ty.strip_manual() {
            Type::Text | Type::Error => k,
            Type::Null => self.coerce(k, &Type::Text, range, None),
            t if super::ty::has_text_form(t) => self.render_text(k, range),
            t => {
                let shown = self.show(t);
                self.error(
                    range,
                    format!("a map key must be text or have a text form (§8.21), found {shown}"),
                );
                self.error_expr(k.line)
            }
        }
    }

    /// `x++` / `x--` used as a value: the int variable's value before the
    /// step (the reference's addition after edition 0.44).
    fn postfix_value(&mut self, p: &ast::Postfix, range: TextRange, line: u32) -> Expr {
        let Some(operand) = p.operand() else {
            return self.error_expr(line);
        };
        let delta = match p.op_token().map(|t| t.text().to_string()).as_deref() {
            Some("--") => -1,
            _ => 1,
        };
        if !matches!(operand, ast::Expr::NameRef(_)) {
            self.error(range, "'++' and '--' need an int variable (§9.5)");
            return self.error_expr(line);
        }
        let Some((place, ty)) = self.place_typed(&operand) else {
            return self.error_expr(line);
        };
        if !matches!(ty, Type::Int | Type::Error) {
            self.error(range, "'++' and '--' need an int variable");
            return self.error_expr(line);
        }
        mk(
            ExprKind::PostIncrement {
                place: Box::new(place),
                delta,
            },
            Type::Int,
            line,
        )
    }

    fn bool_operand(&mut self, e: &ast::Expr, op: &str) -> Expr {
        let range = e.syntax().text_range();
        let v = self.check_expr(e, Some(&Type::Bool));
        if !matches!(v.ty, Type::Bool | Type::Error) {
            let shown = self.show(&v.ty);
            self.error(
                range,
                format!("operands of '{op}' must be bool, found {shown}"),
            );
        }
        v
    }

    fn arith(&mut self, op: &str, l: Expr, r: Expr, range: TextRange, line: u32) -> Expr {
        let (lt, rt) = (l.ty.strip_manual().clone(), r.ty.strip_manual().clone());
        if op == "+" && lt == Type::Text && rt == Type::Text {
            // Two string literals fold into one (so `ascii a = 'x' + 'y'`
            // is still a literal converted at compile time).
            if let (ExprKind::Text(a), ExprKind::Text(b)) = (&l.kind, &r.kind) {
                return mk(ExprKind::Text(format!("{a}{b}")), Type::Text, line);
            }
            return mk(
                ExprKind::Binary(BinOp::Concat, Box::new([l, r])),
                Type::Text,
                line,
            );
        }
        if op == "+" && lt == Type::Ascii && rt == Type::Ascii {
            return mk(
                ExprKind::Binary(BinOp::ConcatAscii, Box::new([l, r])),
                Type::Ascii,
                line,
            );
        }
        if op == "+"
            && matches!(
                (&lt, &rt),
                (Type::Ascii, Type::Text) | (Type::Text, Type::Ascii)
            )
        {
            return self.mixed_concat(l, r, line);
        }
        if !lt.is_numeric() || !rt.is_numeric() {
            let (a, b) = (self.show(&lt), self.show(&rt));
            self.error(
                range,
                format!("operator '{op}' cannot be applied to {a} and {b}"),
            );
            return self.error_expr(line);
        }
        let both_int = lt == Type::Int && rt == Type::Int;
        if both_int && op != "/" {
            let bop = match op {
                "+" => BinOp::AddInt,
                "-" => BinOp::SubInt,
                "*" => BinOp::MulInt,
                "%" => BinOp::ModInt,
                "<" => BinOp::LtInt,
                "<=" => BinOp::LeInt,
                ">" => BinOp::GtInt,
                _ => BinOp::GeInt,
            };
            let ty = if matches!(op, "<" | "<=" | ">" | ">=") {
                Type::Bool
            } else {
                Type::Int
            };
            return mk(ExprKind::Binary(bop, Box::new([l, r])), ty, line);
        }
        let (l, r) = (to_float(l), to_float(r));
        let bop = match op {
            "+" => BinOp::AddFloat,
            "-" => BinOp::SubFloat,
            "*" => BinOp::MulFloat,
            "/" => BinOp::DivFloat,
            "%" => BinOp::ModFloat,
            "<" => BinOp::LtFloat,
            "<=" => BinOp::LeFloat,
            ">" => BinOp::GtFloat,
            _ => BinOp::GeFloat,
        };
        let ty = if matches!(op, "<" | "<=" | ">" | ">=") {
            Type::Bool
        } else {
            Type::Float
        };
        mk(ExprKind::Binary(bop, Box::new([l, r])), ty, line)
    }

    fn equality(&mut self, op: &str, l: Expr, r: Expr, range: TextRange, line: u32) -> Expr {
        let negate = op == "!=";
        if l.ty == Type::Null || r.ty == Type::Null {
            let other = if l.ty == Type::Null { r } else { l };
            if other.ty == Type::Thread {
                self.error(range, "a thread value cannot be compared (§8.17)");
                return self.error_expr(line);
            }
            if other.ty == Type::Float {
                // A null float is NaN: equal to nothing, unequal to nothing (§8.2).
                return mk(ExprKind::Bool(false), Type::Bool, line);
            }
            if other.ty == Type::Null {
                return mk(ExprKind::Bool(!negate), Type::Bool, line);
            }
            return mk(
                ExprKind::IsNull {
                    expr: Box::new(no_vivify(other)),
                    negate,
                },
                Type::Bool,
                line,
            );
        }
        let (lt, rt) = (l.ty.strip_manual().clone(), r.ty.strip_manual().clone());
        let bop = if lt.is_numeric() && rt.is_numeric() {
            if lt == Type::Int && rt == Type::Int {
                if negate {
                    BinOp::NeInt
                } else {
                    BinOp::EqInt
                }
            } else {
                let (l, r) = (to_float(l), to_float(r));
                let bop = if negate {
                    BinOp::NeFloat
                } else {
                    BinOp::EqFloat
                };
                return mk(ExprKind::Binary(bop, Box::new([l, r])), Type::Bool, line);
            }
        } else if lt == rt && matches!(lt, Type::Bool | Type::Color) {
            if negate {
                BinOp::NeBool
            } else {
                BinOp::EqBool
            }
        } else if lt == rt && matches!(lt, Type::Text | Type::Ascii) {
            if negate {
                BinOp::NeText
            } else {
                BinOp::EqText
            }
        } else if let Some((l, r)) = self.ascii_with_literal(&l, &r) {
            // `a == 'none'` on an ascii: the literal is converted at
            // compile time (§8.5), as the reference compiler does.
            let bop = if negate { BinOp::NeText } else { BinOp::EqText };
            return mk(ExprKind::Binary(bop, Box::new([l, r])), Type::Bool, line);
        } else if lt == rt
            && matches!(
                lt,
                Type::Struct(_) | Type::Table(_) | Type::Arr(_) | Type::Amor(_) | Type::Map(_)
            )
        {
            // Structs, rows, arrays and maps are references: `==` asks
            // whether both sides are the same value (§8.9.1), as the
            // reference compiler answers after edition 0.44.
            if negate {
                BinOp::NeRef
            } else {
                BinOp::EqRef
            }
        } else {
            let (a, b) = (self.show(&lt), self.show(&rt));
            self.error(range, format!("cannot compare {a} with {b} using '{op}'"));
            return self.error_expr(line);
        };
        mk(ExprKind::Binary(bop, Box::new([l, r])), Type::Bool, line)
    }

    fn ternary(&mut self, t: &ast::Ternary, expected: Option<&Type>, line: u32) -> Expr {
        let range = t.syntax().text_range();
        let cond = match t.condition() {
            Some(c) => {
                let crange = c.syntax().text_range();
                let v = self.check_expr(&c, Some(&Type::Bool));
                if !matches!(v.ty, Type::Bool | Type::Error) {
                    let shown = self.show(&v.ty);
                    self.error(crange, format!("condition must be bool, found {shown}"));
                }
                v
            }
            None => return self.error_expr(line),
        };
        let (Some(ta), Some(ea)) = (t.then_expr(), t.else_expr()) else {
            return self.error_expr(line);
        };
        let a = self.check_expr(&ta, expected);
        let b = self.check_expr(&ea, expected);
        // String literals where an ascii is expected, or beside an ascii
        // branch, are converted at compile time (§8.5).
        let want_ascii = matches!(expected.map(Type::strip_manual), Some(Type::Ascii))
            || a.ty == Type::Ascii
            || b.ty == Type::Ascii;
        let (a, b) = if want_ascii {
            (literal_to_ascii(a), literal_to_ascii(b))
        } else {
            (a, b)
        };
        if a.ty.is_numeric() && b.ty.is_numeric() && a.ty != b.ty {
            let (x, y) = (self.show(&a.ty), self.show(&b.ty));
            self.error(
                range,
                format!("the branches of '?:' have different types: {x} and {y}"),
            );
            return self.error_expr(line);
        }
        let ty = if a.ty == b.ty || b.ty == Type::Null {
            a.ty.clone()
        } else if a.ty == Type::Null {
            b.ty.clone()
        } else if a.ty == Type::Error || b.ty == Type::Error {
            Type::Error
        } else if let Some(exp) = expected {
            // Both branches may convert to the expected type (e.g. enum members).
            let (ar, br) = (ta.syntax().text_range(), ea.syntax().text_range());
            let a2 = self.coerce(a, exp, ar, None);
            let b2 = self.coerce(b, exp, br, None);
            return mk(
                ExprKind::Cond(Box::new(cond), Box::new(a2), Box::new(b2)),
                exp.clone(),
                line,
            );
        } else {
            let (x, y) = (self.show(&a.ty), self.show(&b.ty));
            self.error(
                range,
                format!("the branches of '?:' have different types: {x} and {y}"),
            );
            Type::Error
        };
        let a = Expr {
            ty: ty.clone(),
            ..a
        };
        let b = Expr {
            ty: ty.clone(),
            ..b
        };
        mk(
            ExprKind::Cond(Box::new(cond), Box::new(a), Box::new(b)),
            ty,
            line,
        )
    }

    // ---- statements made of expressions ----

    /// An expression statement (§10.3): an assignment, a call or `++`/`--`.
    pub(super) fn check_expr_stmt(&mut self, e: &ast::Expr, line: u32) -> Option<Stmt> {
        let range = e.syntax().text_range();
        let kind = match e {
            ast::Expr::Assign(a) => return self.assignment(a, line),
            ast::Expr::Postfix(p) => {
                let operand = p.operand()?;
                let delta = match p.op_token().map(|t| t.text().to_string()).as_deref() {
                    Some("--") => -1,
                    _ => 1,
                };
                if !matches!(operand, ast::Expr::NameRef(_)) {
                    self.error(range, "'++' and '--' need an int variable (§9.5)");
                    return None;
                }
                let (place, ty) = self.place_typed(&operand)?;
                if !matches!(ty, Type::Int | Type::Error) {
                    self.error(range, "'++' and '--' need an int variable");
                    return None;
                }
                StmtKind::Increment { place, delta }
            }
            ast::Expr::Call(c) => {
                if let Some(s) = self.fail_stmt(c, line) {
                    return Some(s);
                }
                if let Some(s) = self.sqlite_stmt(c, line) {
                    return Some(s);
                }
                self.dropped_assertion = false;
                let v = self.check_expr(e, None);
                if std::mem::take(&mut self.dropped_assertion)
                    && matches!(v.kind, ExprKind::Bool(_))
                {
                    // An assertion outside a test build: no code at all.
                    return None;
                }
                StmtKind::Expr(v)
            }
            ast::Expr::Paren(p) => {
                let inner = p.expr()?;
                if matches!(
                    inner,
                    ast::Expr::Call(_) | ast::Expr::Assign(_) | ast::Expr::Postfix(_)
                ) {
                    return self.check_expr_stmt(&inner, line);
                }
                self.error(
                    range,
                    "this expression does nothing; only assignments, calls and '++'/'--' can be statements (a line that begins with '(' starts a new statement: it does not continue the line before)",
                );
                self.check_expr(e, None);
                return None;
            }
            ast::Expr::ArrayLit(_) => {
                self.error(
                    range,
                    "this expression does nothing; only assignments, calls and '++'/'--' can be statements (a line that begins with '[' starts a new statement: it does not continue the line before)",
                );
                self.check_expr(e, None);
                return None;
            }
            _ => {
                self.error(
                    range,
                    "this expression does nothing; only assignments, calls and '++'/'--' can be statements",
                );
                self.check_expr(e, None);
                return None;
            }
        };
        Some(Stmt { kind, line })
    }

    /// `fail(msg)` with one argument is the `Fail` statement (§14.2).
    fn fail_stmt(&mut self, c: &ast::Call, line: u32) -> Option<Stmt> {
        let ast::Expr::NameRef(n) = c.callee()? else {
            return None;
        };
        if n.token()?.text() != "fail" || self.lookup_local("fail").is_some() {
            return None;
        }
        let args: Vec<ast::Expr> = c.arg_list().map(|l| l.args().collect()).unwrap_or_default();
        if args.len() != 1 {
            return None;
        }
        let range = args[0].syntax().text_range();
        let v = self.check_expr(&args[0], None);
        let t = self.render_text(v, range);
        Some(Stmt {
            kind: StmtKind::Fail(t),
            line,
        })
    }

    fn assignment(&mut self, a: &ast::Assign, line: u32) -> Option<Stmt> {
        if self.database_url_elsewhere(a).is_some() {
            return None;
        }
        let target = a.target()?;
        let value_ast = a.value()?;
        let vrange = value_ast.syntax().text_range();
        let (place, ty) = self.place_typed(&target)?;
        let value = self.check_expr_struct_ok(&value_ast, Some(&ty));
        let value = self.coerce(value, &ty, vrange, None);
        // `row.col = v` marks the column defined (§15.5): a native.
        let (place, value) = match self.lower_row_assign(place, value, line) {
            Ok(s) => return Some(s),
            Err(pv) => pv,
        };
        if ty == Type::Text {
            if let Some(parts) = append_parts(&place, &value) {
                return Some(Stmt {
                    kind: StmtKind::Append { place, parts },
                    line,
                });
            }
        }
        Some(Stmt {
            kind: StmtKind::Assign { place, value },
            line,
        })
    }

    /// An assignment target (§9.11).
    pub(super) fn check_place(&mut self, e: &ast::Expr) -> Option<Place> {
        self.place_typed(e).map(|(p, _)| p)
    }

    fn place_typed(&mut self, e: &ast::Expr) -> Option<(Place, Type)> {
        let range = e.syntax().text_range();
        match e {
            ast::Expr::Paren(p) => self.place_typed(&p.expr()?),
            ast::Expr::NameRef(n) => {
                let tok = n.token()?;
                let name = tok.text();
                if let Some(l) = self.lookup_local(name) {
                    if l.is_const {
                        self.error(range, format!("cannot assign to constant '{name}'"));
                    }
                    let ty = self.fs.locals[l.id as usize].ty.clone();
                    return Some((Place::Local(l.id), ty));
                }
                match self.lookup_value(name) {
                    Some(ValueSym::Global(g)) => {
                        if self.global_info[g as usize].is_const {
                            self.error(range, format!("cannot assign to constant '{name}'"));
                        }
                        let _ = self.global_info[g as usize].manual;
                        Some((Place::Global(g), self.module.globals[g as usize].ty.clone()))
                    }
                    Some(ValueSym::Func(_)) => {
                        self.error(range, format!("cannot assign to function '{name}'"));
                        None
                    }
                    None => {
                        if self.isolation_error(name, range) {
                        } else if festina_signatures::RESERVED_GLOBALS.contains(&name) {
                            self.error(range, format!("cannot assign to read-only '{name}'"));
                        } else {
                            let msg = super::closures::closure_message(tok.parent(), name)
                                .unwrap_or_else(|| format!("unknown name '{name}'"));
                            self.error(range, msg);
                        }
                        None
                    }
                }
            }
            ast::Expr::Field(f) => {
                let recv = f.receiver()?;
                if let Some(ns) = super::methods::is_namespace(&recv) {
                    self.error(range, format!("cannot assign to read-only '{ns}'"));
                    return None;
                }
                let name = f.name()?;
                let fname = name.text().to_string();
                let obj = self.receiver(&recv);
                match obj.ty.strip_manual().clone() {
                    Type::Struct(sid) => match self.struct_field(sid, &fname) {
                        Some(i) => {
                            let fty = self.module.structs[sid as usize].fields[i].ty.clone();
                            if let Type::Weak(target) = fty {
                                return Some((
                                    Place::WeakField {
                                        obj: Box::new(obj),
                                        field: i as u16,
                                    },
                                    *target,
                                ));
                            }
                            Some((
                                Place::Field {
                                    obj: Box::new(obj),
                                    field: i as u16,
                                },
                                fty,
                            ))
                        }
                        None => {
                            self.unknown_member(&Type::Struct(sid), &fname, name.text_range(), 0);
                            None
                        }
                    },
                    Type::Table(tid) => self.row_place(obj, tid, &fname, name.text_range(), range),
                    Type::Map(el) => {
                        let line = self.line(range);
                        let key = boxed(ExprKind::Text(fname), Type::Text, line);
                        Some((
                            Place::MapEntry {
                                map: Box::new(obj),
                                key,
                            },
                            *el,
                        ))
                    }
                    Type::Error => None,
                    ty if self.network_field_place(&ty, &fname, name.text_range()) => None,
                    ty => {
                        if fname == "length"
                            && matches!(ty, Type::Text | Type::Ascii | Type::Arr(_) | Type::Amor(_))
                        {
                            self.error(range, "cannot assign to read-only 'length'");
                        } else {
                            self.unknown_member(&ty, &fname, name.text_range(), 0);
                        }
                        None
                    }
                }
            }
            ast::Expr::Index(i) => {
                let base = i.base()?;
                if let Some(ns) = super::methods::is_namespace(&base) {
                    self.error(range, format!("cannot assign to read-only '{ns}'"));
                    return None;
                }
                let idx = i.index()?;
                let irange = idx.syntax().text_range();
                let b = self.receiver(&base);
                match b.ty.strip_manual().clone() {
                    Type::Arr(el) | Type::Amor(el) => {
                        let ix = self.int_operand(&idx, irange);
                        Some((
                            Place::Index {
                                arr: Box::new(b),
                                index: Box::new(ix),
                            },
                            *el,
                        ))
                    }
                    Type::Map(el) => {
                        let k = self.map_key(&idx, irange);
                        Some((
                            Place::MapEntry {
                                map: Box::new(b),
                                key: Box::new(k),
                            },
                            *el,
                        ))
                    }
                    Type::Text | Type::Ascii => {
                        self.error(
                            range,
                            "cannot assign to a character of a text; text is read-only",
                        );
                        None
                    }
                    Type::Error => None,
                    ty => {
                        let shown = self.show(&ty);
                        self.error(range, format!("cannot index a value of type {shown}"));
                        None
                    }
                }
            }
            _ => {
                self.error(
                    range,
                    "this cannot be assigned to; the target must be a variable, field or element",
                );
                None
            }
        }
    }
}

/// Whether `name` is a method (not a property) of values of type `ty`.
fn is_method_name(ty: &Type, name: &str) -> bool {
    super::methods::is_method(ty.strip_manual(), name)
}

/// `int` operands are promoted to `float` (§8.3).
fn to_float(e: Expr) -> Expr {
    if e.ty == Type::Int {
        let line = e.line;
        if let ExprKind::Int(n) = e.kind {
            return mk(ExprKind::Float(n as f64), Type::Float, line);
        }
        return mk(ExprKind::IntToFloat(Box::new(e)), Type::Float, line);
    }
    e
}

/// `e` reached as a receiver: a struct field read is created when null
/// (§8.9.2), as is a global (through a parenthesised expression too).
fn as_receiver(mut e: Expr) -> Expr {
    if let ExprKind::Field { vivify, .. } = &mut e.kind {
        if e.ty.vivifies() {
            *vivify = true;
        }
    }
    e
}

/// The value of an integer literal: decimal, or hexadecimal `0x..`
/// (the reference's addition to §7.5.1 after edition 0.44; sixteen hex
/// digits give the 64-bit pattern, so `0xFFFFFFFFFFFFFFFF` is `-1`).
/// `None` when it does not fit.
fn int_literal(text: &str) -> Option<i64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok().map(|v| v as i64),
        None => text.parse::<i64>().ok(),
    }
}

/// The text form of an int or bool literal used as a map key, for the
/// duplicate-key check of map literals.
fn rendered_literal(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Literal(l) => match l.kind() {
            ast::LiteralKind::Int => int_literal(l.token()?.text()).map(|v| v.to_string()),
            ast::LiteralKind::True => Some("true".into()),
            ast::LiteralKind::False => Some("false".into()),
            _ => None,
        },
        _ => None,
    }
}

/// A string literal of ASCII characters as an `ascii` literal (§8.5);
/// anything else unchanged.
fn literal_to_ascii(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Text(s) if e.ty == Type::Text && s.is_ascii() => Expr {
            kind: ExprKind::Ascii(s.as_bytes().to_vec()),
            ty: Type::Ascii,
            line: e.line,
        },
        _ => e,
    }
}

/// A null test does not reach (and so does not create) a struct field or
/// a global. An array or map field is an empty container whenever it is
/// read, so testing it still creates it (it is never null).
fn no_vivify(mut e: Expr) -> Expr {
    let container = matches!(
        e.ty.strip_manual(),
        Type::Arr(_) | Type::Amor(_) | Type::Map(_)
    );
    match &mut e.kind {
        ExprKind::Field { vivify, .. } if !container => *vivify = false,
        ExprKind::Global { vivify, .. } => *vivify = false,
        _ => {}
    }
    e
}

/// The literal text of a string-literal expression.
pub(super) fn string_literal(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Literal(l) if l.kind() == ast::LiteralKind::String => {
            ast::unescape_string(l.token()?.text()).ok()
        }
        _ => None,
    }
}

/// The type of a builtin shape (receiver-relative shapes, which global
/// builtins never use, read as `<error>`).
fn shape_type(s: Shape) -> Type {
    super::methods::plain_shape_type(s).unwrap_or(Type::Error)
}

/// For `s = s + a + b` or `` s = `${s}ab` `` on a text variable `s`, the
/// pieces to append (§9.11 note); `None` if the shape differs or a later
/// piece reads `s` again.
fn append_parts(place: &Place, value: &Expr) -> Option<Vec<Expr>> {
    let is_target = |e: &Expr| match (&e.kind, place) {
        (ExprKind::Local(a), Place::Local(b)) => a == b,
        (ExprKind::Global { global: a, .. }, Place::Global(b)) => a == b,
        _ => false,
    };
    if !matches!(place, Place::Local(_) | Place::Global(_)) {
        return None;
    }
    let mut parts = Vec::new();
    match &value.kind {
        ExprKind::Binary(BinOp::Concat, _) => {
            let mut cur = value;
            let mut rights = Vec::new();
            while let ExprKind::Binary(BinOp::Concat, lr) = &cur.kind {
                let [l, r] = &**lr;
                rights.push(r.clone());
                cur = l;
            }
            if !is_target(cur) {
                return None;
            }
            rights.reverse();
            parts = rights;
        }
        ExprKind::Template(ps) => {
            let first = ps.first()?;
            let inner = match &first.kind {
                ExprKind::ToText { expr, .. } => expr,
                _ => return None,
            };
            if !is_target(inner) {
                return None;
            }
            parts.extend(ps[1..].iter().cloned());
        }
        _ => return None,
    }
    if parts.iter().any(|p| reads(p, place)) {
        return None;
    }
    Some(parts)
}

/// Whether `e` reads the variable `place` anywhere (conservatively: any
/// call might, for globals).
fn reads(e: &Expr, place: &Place) -> bool {
    e.contains(&mut |x| match (&x.kind, place) {
        (ExprKind::Local(a), Place::Local(b)) => a == b,
        (ExprKind::Global { global: a, .. }, Place::Global(b)) => a == b,
        (
            ExprKind::Call { .. } | ExprKind::CallValue { .. } | ExprKind::CallNative { .. },
            Place::Global(_),
        ) => true,
        _ => false,
    })
}
