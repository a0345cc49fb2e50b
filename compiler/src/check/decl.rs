//! Declaration passes: type names, type bodies, function signatures,
//! globals, and the driving of body checks (§6.6, §11).

use super::ty::ManualOk;
use super::{Checker, FieldIndex, FnState, FuncSig, GlobalInfo, LocalSym, TypeSym, ValueSym};
use crate::ast;
use crate::hir::{self, Expr, ExprKind, Stmt, StmtKind};
use crate::limits::{MAX_ENUM_MEMBERS, MAX_FIELDS};
use crate::syntax::SyntaxKind;
use festina_vm::program::{Enum, Field, Global, Record};
use festina_vm::types::{Type, TypeDisplay};
use hashbrown::{HashMap, HashSet};

impl Checker<'_> {
    /// Pass 1: every struct, table and enum name (§6.7 type namespace).
    pub(super) fn collect_type_names(&mut self) {
        for u in self.units {
            self.file = u.file;
            for stmt in u.root.statements() {
                let (name, sym) = match &stmt {
                    ast::Stmt::StructDecl(s) => {
                        let id = self.module.structs.len() as u32;
                        self.module.structs.push(empty_record(s.name()));
                        (s.name(), TypeSym::Struct(id))
                    }
                    ast::Stmt::TableDecl(t) => {
                        let id = self.module.tables.len() as u32;
                        self.module.tables.push(empty_record(t.name()));
                        (t.name(), TypeSym::Table(id))
                    }
                    ast::Stmt::EnumDecl(e) => {
                        let id = self.module.enums.len() as u32;
                        self.module.enums.push(Enum {
                            name: e.name().map(|t| t.text().to_string()).unwrap_or_default(),
                            members: Vec::new(),
                            member_names: Vec::new(),
                            pure_struct: false,
                        });
                        (e.name(), TypeSym::Enum(id))
                    }
                    _ => continue,
                };
                let Some(name) = name else { continue };
                let text = name.text().to_string();
                if super::ty::builtin_type(&text).is_some() || self.types.contains_key(&text) {
                    self.error(
                        name.text_range(),
                        format!("type '{text}' is already declared"),
                    );
                    continue;
                }
                self.types.insert(text, sym);
            }
        }
    }

    /// Pass 2: fields, columns and enum members; cycle capability.
    pub(super) fn resolve_type_bodies(&mut self) {
        for u in self.units {
            self.file = u.file;
            for stmt in u.root.statements() {
                match &stmt {
                    ast::Stmt::StructDecl(s) => {
                        let Some(TypeSym::Struct(id)) = self.type_sym(s.name()) else {
                            continue;
                        };
                        let fields = self.resolve_fields(s.fields(), false);
                        self.module.structs[id as usize].fields = fields;
                    }
                    ast::Stmt::TableDecl(t) => {
                        let Some(TypeSym::Table(id)) = self.type_sym(t.name()) else {
                            continue;
                        };
                        let fields = self.resolve_fields(t.fields(), true);
                        for (f, decl) in fields.iter().zip(t.fields()) {
                            if !matches!(
                                f.ty,
                                Type::Int
                                    | Type::Float
                                    | Type::Bool
                                    | Type::Text
                                    | Type::Blob
                                    | Type::Img
                                    | Type::Aud
                                    | Type::Error
                            ) {
                                let range = decl.syntax().text_range();
                                self.error(
                                    range,
                                    format!("table column '{}' must be int, float, bool, text, blob, img or aud", f.name),
                                );
                            }
                        }
                        self.module.tables[id as usize].fields = fields;
                        self.check_table_decl(id, t.syntax().text_range());
                    }
                    ast::Stmt::EnumDecl(e) => self.resolve_enum(e),
                    _ => {}
                }
            }
        }
        self.compute_cycles();
        self.field_index = FieldIndex::new(&self.module.structs, &self.module.tables);
    }

    fn type_sym(&self, name: Option<ast::Token>) -> Option<TypeSym> {
        self.types.get(name?.text()).copied()
    }

    /// The fields of a struct or (`is_table`) a table. A `weak` field
    /// (`parent:weak Node`, the reference's addition after edition 0.44)
    /// gets the type `weak T`; only a struct's field of struct type may be
    /// weak.
    fn resolve_fields(
        &mut self,
        fields: impl Iterator<Item = ast::FieldDecl>,
        is_table: bool,
    ) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        // The names so far, for the duplicate check (a scan of `out` made
        // a 30,000-field struct quadratic).
        let mut seen: hashbrown::HashSet<String> = hashbrown::HashSet::new();
        for f in fields {
            let Some(name) = f.name() else { continue };
            let mut ty = match f.ty() {
                Some(t) => self.resolve_type(&t, ManualOk::No),
                None => Type::Error,
            };
            if let Some(weak) = f.weak_token() {
                if is_table {
                    self.error(
                        weak.text_range(),
                        "a table column cannot be weak: 'weak' applies to struct fields of struct type",
                    );
                    ty = Type::Error;
                } else if matches!(ty, Type::Struct(_)) {
                    ty = Type::Weak(Box::new(ty));
                } else if ty != Type::Error {
                    let shown = self.show(&ty);
                    self.error(
                        weak.text_range(),
                        format!(
                            "field '{}' cannot be weak: 'weak' applies only to a field of struct type, not {shown}",
                            name.text()
                        ),
                    );
                }
            }
            if out.len() == MAX_FIELDS {
                self.error(
                    name.text_range(),
                    format!("a struct or table may declare at most {MAX_FIELDS} fields"),
                );
            }
            let text = name.text();
            if !seen.insert(text.to_string()) {
                self.error(
                    name.text_range(),
                    format!("field '{text}' is declared twice"),
                );
                continue;
            }
            out.push(Field {
                name: text.to_string(),
                ty,
            });
        }
        out
    }

    fn resolve_enum(&mut self, e: &ast::EnumDecl) {
        let Some(TypeSym::Enum(id)) = self.type_sym(e.name()) else {
            return;
        };
        let mut members: Vec<Type> = Vec::new();
        let mut listed: HashSet<Type> = HashSet::new();
        for m in e.members() {
            let range = m.syntax().text_range();
            let ty = self.resolve_type(&m, ManualOk::No);
            if matches!(ty, Type::Enum(_)) {
                self.error(range, "an enum member cannot be another enum (§8.11)");
                continue;
            }
            if ty != Type::Error && !listed.insert(ty.clone()) {
                let shown = self.show(&ty);
                self.error(range, format!("enum member '{shown}' is listed twice"));
                continue;
            }
            if members.len() == MAX_ENUM_MEMBERS {
                self.error(
                    range,
                    format!("an enum may have at most {MAX_ENUM_MEMBERS} members"),
                );
            }
            members.push(ty);
        }
        let pure_struct =
            !members.is_empty() && members.iter().all(|m| matches!(m, Type::Struct(_)));
        // §8.11: members that share a field name are an error.
        let mut seen: HashMap<String, u32> = HashMap::new();
        let mut clashes = Vec::new();
        for m in &members {
            if let Type::Struct(sid) = m {
                for f in &self.module.structs[*sid as usize].fields {
                    if let Some(other) = seen.insert(f.name.clone(), *sid) {
                        if other != *sid {
                            let a = self.module.structs[other as usize].name.clone();
                            let b = self.module.structs[*sid as usize].name.clone();
                            clashes.push(format!(
                                "enum members '{a}' and '{b}' both declare field '{}'",
                                f.name
                            ));
                        }
                    }
                }
            }
        }
        for msg in clashes {
            self.error(e.syntax().text_range(), msg);
        }
        let member_names = members.iter().map(|m| self.show(m)).collect();
        let en = &mut self.module.enums[id as usize];
        en.members = members;
        en.member_names = member_names;
        en.pure_struct = pure_struct;
    }

    /// Mark struct types that can reach themselves through fields,
    /// elements or map values (not through enums, §13.3).
    fn compute_cycles(&mut self) {
        let n = self.module.structs.len();
        let edges: Vec<Vec<u32>> = self
            .module
            .structs
            .iter()
            .map(|r| {
                let mut out = Vec::new();
                for f in &r.fields {
                    struct_targets(&f.ty, &mut out);
                }
                out
            })
            .collect();
        for start in 0..n {
            let mut seen = HashSet::new();
            let mut stack: Vec<u32> = edges[start].clone();
            let mut cyclic = false;
            while let Some(s) = stack.pop() {
                if s as usize == start {
                    cyclic = true;
                    break;
                }
                if seen.insert(s) {
                    stack.extend(edges[s as usize].iter().copied());
                }
            }
            self.module.structs[start].may_cycle = cyclic;
        }
    }

    /// Pass 3: every function declaration anywhere is a global function.
    pub(super) fn collect_functions(&mut self) {
        for u in self.units {
            self.file = u.file;
            let decls: Vec<ast::FuncDecl> =
                ast::descendants_of_kind(u.root.syntax(), SyntaxKind::FUNC_DECL)
                    .into_iter()
                    .filter_map(ast::FuncDecl::cast)
                    .filter(|f| !super::threads::in_thread_body(f.syntax()))
                    .collect();
            for f in &decls {
                self.declare_function(f);
            }
            self.func_decls.push(decls);
        }
    }

    fn declare_function(&mut self, f: &ast::FuncDecl) {
        let id = self.declare_function_shell(f);
        if let Some(tok) = f.name() {
            let name = tok.text().to_string();
            self.declare_value(name, tok.text_range(), ValueSym::Func(id));
        }
    }

    /// A function's signature and empty body in the module; its id. The
    /// caller puts the name in a namespace.
    pub(super) fn declare_function_shell(&mut self, f: &ast::FuncDecl) -> u32 {
        let mut params = Vec::new();
        if let Some(list) = f.param_list() {
            for p in list.params() {
                params.push(match p.ty() {
                    Some(t) => self.resolve_type(&t, ManualOk::Yes),
                    None => Type::Error,
                });
            }
        }
        let ret = match f.ret_type() {
            Some(t) => self.resolve_type(&t, ManualOk::No),
            None => Type::Void,
        };
        let name = f.name().map(|t| t.text().to_string()).unwrap_or_default();
        let id = self.module.functions.len() as u32;
        let line = self.line(f.syntax().text_range());
        self.module.functions.push(hir::Function {
            name: name.clone(),
            file: self.file,
            line,
            nparams: params.len() as u32,
            locals: Vec::new(),
            ret: ret.clone(),
            body: Vec::new(),
        });
        self.sigs.push(FuncSig {
            name: name.clone(),
            params,
            ret,
        });
        self.func_ids.insert(f.syntax().clone(), id);
        id
    }

    /// Enter `name` into the global value namespace (§6.7), reporting a
    /// builtin's name or a duplicate.
    pub(super) fn declare_value(&mut self, name: String, range: rowan::TextRange, sym: ValueSym) {
        if !self.check_not_builtin(&name, range) {
            return;
        }
        if self.values.contains_key(&name) {
            self.error(range, format!("'{name}' is already declared"));
        } else {
            self.values.insert(name, sym);
        }
    }

    /// Start checking a function-like body: fresh state returning `ret`,
    /// one scope holding the parameters (§11.1.3).
    pub(super) fn begin_body(&mut self, ret: Type, params: Option<ast::ParamList>, types: &[Type]) {
        self.fs = FnState {
            ret: Some(ret),
            ..FnState::default()
        };
        self.push_scope();
        if let Some(list) = params {
            for (p, ty) in list.params().zip(types.iter()) {
                let Some(name) = p.name() else { continue };
                let manual = matches!(ty, Type::Manual(_));
                self.declare_local(
                    name.text(),
                    ty.clone(),
                    name.text_range(),
                    false,
                    true,
                    manual,
                );
            }
        }
    }

    /// Pass 4: top-level variable and constant declarations are globals.
    pub(super) fn collect_globals(&mut self) {
        for u in self.units {
            self.file = u.file;
            for stmt in u.root.statements() {
                if let ast::Stmt::TestDecl(t) = &stmt {
                    self.collect_test_global(t);
                    continue;
                }
                let ast::Stmt::VarDecl(v) = stmt else {
                    continue;
                };
                let Some(name) = v.name() else { continue };
                let ty = match v.ty() {
                    Some(t) => self.resolve_type(
                        &t,
                        if v.is_const() {
                            ManualOk::No
                        } else {
                            ManualOk::Yes
                        },
                    ),
                    None => Type::Error,
                };
                let manual = matches!(ty, Type::Manual(_));
                let text = name.text().to_string();
                let id = self.module.globals.len() as u32;
                self.module.globals.push(Global {
                    name: text.clone(),
                    ty,
                });
                self.global_info.push(GlobalInfo {
                    is_const: v.is_const(),
                    manual,
                });
                self.global_ids.insert(v.syntax().clone(), id);
                self.declare_value(text, name.text_range(), ValueSym::Global(id));
            }
        }
    }

    /// A top-level `test name = ...` (see `testing`): a constant global
    /// of type `test`.
    fn collect_test_global(&mut self, t: &ast::TestDecl) {
        let Some(name) = t.name() else { return };
        let text = name.text().to_string();
        let id = self.module.globals.len() as u32;
        self.module.globals.push(Global {
            name: text.clone(),
            ty: Type::Test,
        });
        self.global_info.push(GlobalInfo {
            is_const: true,
            manual: false,
        });
        self.global_ids.insert(t.syntax().clone(), id);
        self.declare_value(text, name.text_range(), ValueSym::Global(id));
    }

    /// Pass 5a: bodies of declared functions.
    pub(super) fn check_function_bodies(&mut self) {
        let all = std::mem::take(&mut self.func_decls);
        for (u, decls) in self.units.iter().zip(all) {
            self.file = u.file;
            for f in decls {
                let Some(&id) = self.func_ids.get(f.syntax()) else {
                    continue;
                };
                self.check_function(&f, id);
            }
        }
    }

    pub(super) fn check_function(&mut self, f: &ast::FuncDecl, id: u32) {
        let sig = self.sigs[id as usize].clone();
        self.begin_body(sig.ret.clone(), f.param_list(), &sig.params);
        // The body's outermost block is the parameters' scope (§6.7): a
        // local may not redeclare a parameter.
        let mut body = match f.body() {
            Some(b) => self.check_stmts(&b),
            None => Vec::new(),
        };
        self.pop_scope();
        finish_body(&mut body, &sig.ret, self.line(f.syntax().text_range()));
        let func = &mut self.module.functions[id as usize];
        func.locals = std::mem::take(&mut self.fs.locals);
        func.body = body;
        self.body_done(id);
    }

    /// Pass 5b: each file's top-level statements become `<top:file>`;
    /// the entry function `<main>` calls them in unit order (§6.3).
    pub(super) fn check_top_levels(&mut self) {
        let mut tops = Vec::new();
        for u in self.units {
            self.file = u.file;
            self.fs = FnState {
                top_level: true,
                ..FnState::default()
            };
            self.push_scope();
            let mut body = Vec::new();
            let mut first = true;
            for stmt in u.root.statements() {
                if let Some(s) = self.check_top_stmt(&stmt, first && u.is_entry) {
                    body.push(s);
                }
                first = false;
            }
            self.pop_scope();
            let id = self.module.functions.len() as u32;
            self.module.functions.push(hir::Function {
                name: format!("<top:{}>", self.module.files[u.file as usize]),
                file: u.file,
                line: 1,
                nparams: 0,
                locals: std::mem::take(&mut self.fs.locals),
                ret: Type::Void,
                body,
            });
            tops.push((id, u.file));
        }
        let entry_file = self.units.iter().find(|u| u.is_entry).map_or(0, |u| u.file);
        // §6.5: the database is opened and synchronised before any
        // top-level code (see `db`).
        let mut open = self.db_open_stmts();
        // §20.2: every thread starts before the first top-level statement.
        open.extend(self.thread_start_stmts());
        let body = open
            .into_iter()
            .chain(tops.into_iter().map(|(id, _)| Stmt {
                kind: StmtKind::Expr(Expr {
                    kind: ExprKind::Call {
                        func: id,
                        args: Vec::new(),
                    },
                    ty: Type::Void,
                    line: 1,
                }),
                line: 1,
            }))
            .chain(self.window_events_stmt())
            .collect();
        self.module.entry = self.module.functions.len() as u32;
        self.module.functions.push(hir::Function {
            name: "<main>".to_string(),
            file: entry_file,
            line: 1,
            nparams: 0,
            locals: Vec::new(),
            ret: Type::Void,
            body,
        });
    }

    /// A top-level statement: variable declarations initialise globals;
    /// declarations were handled by the passes; the rest is code.
    fn check_top_stmt(&mut self, stmt: &ast::Stmt, first_of_entry: bool) -> Option<Stmt> {
        match stmt {
            ast::Stmt::VarDecl(v) => {
                let id = *self.global_ids.get(v.syntax())?;
                let s = self.check_global_init(v, id);
                self.globals_visible = self.globals_visible.max(id as usize + 1);
                Some(s)
            }
            ast::Stmt::TestDecl(t) => {
                let id = *self.global_ids.get(t.syntax())?;
                let init = self.test_group_init(t);
                self.globals_visible = self.globals_visible.max(id as usize + 1);
                let line = self.line(t.syntax().text_range());
                Some(Stmt {
                    kind: StmtKind::InitGlobal {
                        global: id,
                        init: Some(init?),
                    },
                    line,
                })
            }
            ast::Stmt::StructDecl(_) | ast::Stmt::TableDecl(_) | ast::Stmt::EnumDecl(_) => None,
            ast::Stmt::FuncDecl(_) | ast::Stmt::ImportDecl(_) => None,
            _ => {
                if first_of_entry && self.database_url_first(stmt).is_some() {
                    return None;
                }
                self.check_stmt(stmt)
            }
        }
    }

    fn check_global_init(&mut self, v: &ast::VarDecl, id: u32) -> Stmt {
        let range = v.syntax().text_range();
        let line = self.line(range);
        let ty = self.module.globals[id as usize].ty.clone();
        let is_const = self.global_info[id as usize].is_const;
        let init = self.check_decl_init(v, &ty, is_const);
        Stmt {
            kind: StmtKind::InitGlobal { global: id, init },
            line,
        }
    }

    /// A local variable declaration statement.
    pub(super) fn check_local_decl(&mut self, v: &ast::VarDecl) -> Option<Stmt> {
        let range = v.syntax().text_range();
        let line = self.line(range);
        let name = v.name()?;
        let ty = match v.ty() {
            Some(t) => self.resolve_type(
                &t,
                if v.is_const() {
                    ManualOk::No
                } else {
                    ManualOk::Yes
                },
            ),
            None => Type::Error,
        };
        let init = self.check_decl_init(v, &ty, v.is_const());
        let manual = matches!(ty, Type::Manual(_));
        let id = self.declare_local(
            name.text(),
            ty,
            name.text_range(),
            v.is_const(),
            false,
            manual,
        );
        Some(Stmt {
            kind: StmtKind::Let { local: id, init },
            line,
        })
    }

    /// The initializer of a declaration, checked against its type, with the
    /// §10.2 rules on `amor`, table rows and `const`.
    pub(super) fn check_decl_init(
        &mut self,
        v: &ast::VarDecl,
        ty: &Type,
        is_const: bool,
    ) -> Option<Expr> {
        let range = v.syntax().text_range();
        let name = v.name().map(|t| t.text().to_string()).unwrap_or_default();
        match v.init() {
            Some(e) => {
                let erange = e.syntax().text_range();
                // `arr[T] rows = sqlite(...)` receives the rows (§15.4).
                let value = match super::db::sqlite_call_of(&e) {
                    Some(c) => {
                        let line = self.line(erange);
                        self.sqlite_call(&c, Some(ty), line)
                    }
                    None => self.check_expr_struct_ok(&e, Some(ty)),
                };
                Some(self.coerce(value, ty, erange, None))
            }
            None => {
                if is_const {
                    self.error(range, format!("constant '{name}' needs an initializer"));
                } else if matches!(ty.strip_manual(), Type::Amor(_)) {
                    self.error(
                        range,
                        format!("'amor' variable '{name}' needs an initializer (§8.7)"),
                    );
                } else if matches!(ty, Type::Table(_)) {
                    self.error(
                        range,
                        format!("table-row variable '{name}' needs an initializer (§8.10)"),
                    );
                }
                None
            }
        }
    }

    /// Check an arrow function (§9.1.5): a fresh global function whose
    /// body sees only globals and its parameters.
    pub(super) fn check_arrow(&mut self, a: &ast::Arrow) -> Expr {
        let range = a.syntax().text_range();
        let line = self.line(range);
        let mut params = Vec::new();
        let mut names = Vec::new();
        if let Some(list) = a.param_list() {
            for p in list.params() {
                let ty = match p.ty() {
                    Some(t) => self.resolve_type(&t, ManualOk::Yes),
                    None => Type::Error,
                };
                names.push(p.name());
                params.push(ty);
            }
        }
        let ret = match a.ret_type() {
            Some(t) => self.resolve_type(&t, ManualOk::No),
            None => Type::Void,
        };
        let outer = std::mem::replace(
            &mut self.fs,
            FnState {
                ret: Some(ret.clone()),
                ..FnState::default()
            },
        );
        self.push_scope();
        for (name, ty) in names.iter().zip(params.iter()) {
            let Some(name) = name else { continue };
            let manual = matches!(ty, Type::Manual(_));
            self.declare_local(
                name.text(),
                ty.clone(),
                name.text_range(),
                false,
                true,
                manual,
            );
        }
        let body = match a.body() {
            Some(b) => {
                let brange = b.syntax().text_range();
                let value = self.check_expr(&b, if ret == Type::Void { None } else { Some(&ret) });
                if ret == Type::Void {
                    vec![Stmt {
                        kind: StmtKind::Expr(value),
                        line,
                    }]
                } else {
                    let v = self.coerce(value, &ret, brange, None);
                    vec![Stmt {
                        kind: StmtKind::Return(Some(v)),
                        line,
                    }]
                }
            }
            None => Vec::new(),
        };
        let inner = std::mem::replace(&mut self.fs, outer);
        let id = self.module.functions.len() as u32;
        self.module.functions.push(hir::Function {
            name: format!("<arrow@{line}>"),
            file: self.file,
            line,
            nparams: params.len() as u32,
            locals: inner.locals,
            ret: ret.clone(),
            body,
        });
        self.sigs.push(FuncSig {
            name: "<arrow>".to_string(),
            params: params.clone(),
            ret: ret.clone(),
        });
        self.body_done(id);
        Expr {
            kind: ExprKind::FuncRef(id),
            ty: Type::Func(params, Box::new(ret)),
            line,
        }
    }

    /// Name of a type for messages, through the module's tables.
    #[allow(dead_code)]
    pub(super) fn type_name(&self, ty: &Type) -> String {
        TypeDisplay { ty, names: self }.to_string()
    }

    /// Look up a local symbol (helper for statements).
    #[allow(dead_code)]
    pub(super) fn local_sym(&self, name: &str) -> Option<LocalSym> {
        self.lookup_local(name)
    }
}

/// A record whose name is known and whose fields come in pass 2.
fn empty_record(name: Option<ast::Token>) -> Record {
    Record {
        name: name.map(|t| t.text().to_string()).unwrap_or_default(),
        fields: Vec::new(),
        may_cycle: false,
    }
}

/// Struct ids directly reachable from a field of type `ty`.
fn struct_targets(ty: &Type, out: &mut Vec<u32>) {
    match ty.strip_manual() {
        Type::Struct(id) => out.push(*id),
        Type::Arr(t) | Type::Amor(t) | Type::Map(t) => struct_targets(t, out),
        _ => {}
    }
}

/// A non-void function whose body can end without `return` returns the
/// scalar zero of its type (`0`, `0.0`, `false`), any other type `null`:
/// §10.8 and §11.1 only require `return` to carry a value, and the
/// reference compiles such a function with this result.
pub(super) fn finish_body(body: &mut Vec<Stmt>, ret: &Type, line: u32) {
    if *ret != Type::Void
        && !matches!(
            body.last(),
            Some(Stmt {
                kind: StmtKind::Return(_),
                ..
            })
        )
    {
        body.push(Stmt {
            kind: StmtKind::Return(Some(Expr {
                kind: match ret.strip_manual() {
                    Type::Int => ExprKind::Int(0),
                    Type::Float => ExprKind::Float(0.0),
                    Type::Bool => ExprKind::Bool(false),
                    _ => ExprKind::Null,
                },
                ty: ret.clone(),
                line,
            })),
            line,
        });
    }
}
