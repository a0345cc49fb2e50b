//! Statements (§10).

use super::ty::has_text_form;
use super::{Checker, ValueSym};
use crate::ast;
use crate::hir::{Expr, ExprKind, Place, Stmt, StmtKind};
use festina_vm::types::Type;

impl Checker<'_> {
    /// Statements of a block, in a new scope (§10.1).
    pub(super) fn check_block_stmts(&mut self, b: &ast::Block) -> Vec<Stmt> {
        self.push_scope();
        let out = self.check_stmts(b);
        self.pop_scope();
        out
    }

    fn block(&mut self, b: Option<ast::Block>) -> Vec<Stmt> {
        match b {
            Some(b) => self.check_block_stmts(&b),
            None => Vec::new(),
        }
    }

    /// One statement; `None` for declarations that produce no code.
    pub(super) fn check_stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        let range = s.syntax().text_range();
        let line = self.line(range);
        let kind = match s {
            ast::Stmt::VarDecl(v) => return self.check_local_decl(v),
            ast::Stmt::ExprStmt(e) => return self.check_expr_stmt(&e.expr()?, line),
            ast::Stmt::Block(b) => StmtKind::Block(self.check_block_stmts(b)),
            ast::Stmt::IfStmt(i) => self.check_if(i),
            ast::Stmt::WhileStmt(w) => {
                let cond = self.check_cond(w.condition());
                self.fs.loop_depth += 1;
                let body = self.block(w.body());
                self.fs.loop_depth -= 1;
                StmtKind::Loop {
                    cond,
                    body,
                    update: Vec::new(),
                }
            }
            ast::Stmt::ForStmt(f) => return Some(self.check_for(f, line)),
            ast::Stmt::MatchStmt(m) => return self.check_match(m, line),
            ast::Stmt::TryStmt(t) => self.check_try(t),
            ast::Stmt::ThrowStmt(t) => StmtKind::Throw(self.rendered(t.expr(), range)),
            ast::Stmt::ReturnStmt(r) => self.check_return(r),
            ast::Stmt::BreakStmt(_) | ast::Stmt::ContinueStmt(_) => {
                let is_break = matches!(s, ast::Stmt::BreakStmt(_));
                if self.fs.loop_depth == 0 {
                    let word = if is_break { "break" } else { "continue" };
                    self.error(range, format!("'{word}' outside of a loop"));
                }
                if is_break {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
            ast::Stmt::FreeStmt(f) => StmtKind::Free(self.free_target(f.expr(), range, "free")?),
            ast::Stmt::ClearStmt(c) => {
                StmtKind::Clear(self.free_target(c.expr(), range, "clear")?)
            }
            ast::Stmt::DeleteStmt(d) => {
                let place = self.delete_target(d.expr(), range)?;
                // `delete row.col` also marks the column undefined (§15.5).
                match self.lower_row_delete(place, line) {
                    Ok(s) => return Some(s),
                    Err(place) => StmtKind::Delete(place),
                }
            }
            ast::Stmt::FuncDecl(_) => return None,
            ast::Stmt::StructDecl(_) | ast::Stmt::TableDecl(_) | ast::Stmt::EnumDecl(_) => {
                if !self.fs.top_level || self.fs.scopes.len() > 1 {
                    self.error(
                        range,
                        "struct, table and enum declarations must be at the top level",
                    );
                }
                return None;
            }
            ast::Stmt::ImportDecl(_) => {
                self.error(range, "'import' must be at the top level of a file");
                return None;
            }
            ast::Stmt::OnDecl(h) => {
                self.check_on_stmt(h);
                return None;
            }
            ast::Stmt::ThreadDecl(_) => {
                // Hoisted by `collect_threads` at the top level.
                if !self.fs.top_level || self.fs.scopes.len() > 1 {
                    self.error(range, "threads must be declared at the top level (§20.1)");
                }
                return None;
            }
            ast::Stmt::LoadStmt(l) => return self.check_load_stmt(l, line),
            ast::Stmt::HttpStmt(h) => StmtKind::Expr(self.http_stmt(h, range, line)?),
            ast::Stmt::TestDecl(t) => {
                let init = self.test_group_init(t);
                let name = t.name()?;
                let id = self.declare_local(
                    name.text(),
                    Type::Test,
                    name.text_range(),
                    true,
                    false,
                    false,
                );
                let init = init?;
                StmtKind::Let {
                    local: id,
                    init: Some(init),
                }
            }
        };
        Some(Stmt { kind, line })
    }

    /// A condition: must be `bool` (§10.4).
    fn check_cond(&mut self, e: Option<ast::Expr>) -> Expr {
        let Some(e) = e else {
            return Expr {
                kind: ExprKind::Bool(false),
                ty: Type::Error,
                line: 0,
            };
        };
        let range = e.syntax().text_range();
        let v = self.check_expr(&e, Some(&Type::Bool));
        if !matches!(v.ty, Type::Bool | Type::Error) {
            let shown = self.show(&v.ty);
            self.error(range, format!("condition must be bool, found {shown}"));
        }
        v
    }

    fn check_if(&mut self, i: &ast::IfStmt) -> StmtKind {
        let cond = self.check_cond(i.condition());
        let then_body = self.block(i.then_branch());
        let else_body = match i.else_branch() {
            Some(ast::ElseBranch::Block(b)) => self.check_block_stmts(&b),
            Some(ast::ElseBranch::If(nested)) => {
                let line = self.line(nested.syntax().text_range());
                vec![Stmt {
                    kind: self.check_if(&nested),
                    line,
                }]
            }
            None => Vec::new(),
        };
        StmtKind::If {
            cond,
            then_body,
            else_body,
        }
    }

    /// `for init, cond, update { body }` (§10.6): the init variable is
    /// scoped to the loop.
    fn check_for(&mut self, f: &ast::ForStmt, line: u32) -> Stmt {
        self.push_scope();
        let init = f.init().and_then(|v| self.check_local_decl(&v));
        let cond = self.check_cond(f.condition());
        let update = match f.update() {
            Some(u) => {
                let uline = self.line(u.syntax().text_range());
                self.check_expr_stmt(&u, uline).into_iter().collect()
            }
            None => Vec::new(),
        };
        self.fs.loop_depth += 1;
        let body = self.block(f.body());
        self.fs.loop_depth -= 1;
        self.pop_scope();
        let mut stmts: Vec<Stmt> = init.into_iter().collect();
        stmts.push(Stmt {
            kind: StmtKind::Loop { cond, body, update },
            line,
        });
        Stmt {
            kind: StmtKind::Block(stmts),
            line,
        }
    }

    fn check_try(&mut self, t: &ast::TryStmt) -> StmtKind {
        let body = self.block(t.body());
        self.push_scope();
        let catch_local = match t.catch_name() {
            Some(name) => {
                let is_text = match t.catch_type() {
                    Some(ast::TypeRef::Named(n)) => n.token().is_some_and(|k| k.text() == "text"),
                    _ => false,
                };
                if !is_text {
                    self.error(
                        name.text_range(),
                        "the catch variable must be declared ':text' (§10.10)",
                    );
                }
                self.declare_local(
                    name.text(),
                    Type::Text,
                    name.text_range(),
                    false,
                    false,
                    false,
                )
            }
            None => self.declare_local(
                "<catch>",
                Type::Text,
                t.syntax().text_range(),
                false,
                false,
                false,
            ),
        };
        let handler = self.block(t.catch_body());
        self.pop_scope();
        StmtKind::Try {
            body,
            catch_local,
            handler,
        }
    }

    fn check_return(&mut self, r: &ast::ReturnStmt) -> StmtKind {
        let range = r.syntax().text_range();
        let ret = self.fs.ret.clone().unwrap_or(Type::Void);
        match (r.expr(), ret == Type::Void) {
            (None, true) => StmtKind::Return(None),
            (Some(e), true) => {
                self.error(
                    e.syntax().text_range(),
                    "a void function, handler or top-level code cannot return a value",
                );
                StmtKind::Return(None)
            }
            (None, false) => {
                let shown = self.show(&ret);
                self.error(
                    range,
                    format!("this function must return a value of type {shown}"),
                );
                StmtKind::Return(None)
            }
            (Some(e), false) => {
                let erange = e.syntax().text_range();
                let v = self.check_expr(&e, Some(&ret));
                StmtKind::Return(Some(self.coerce(v, &ret, erange, None)))
            }
        }
    }

    /// An expression rendered as text (for `throw`, §8.21).
    fn rendered(&mut self, e: Option<ast::Expr>, range: rowan::TextRange) -> Expr {
        let Some(e) = e else {
            return Expr {
                kind: ExprKind::Text(String::new()),
                ty: Type::Text,
                line: self.line(range),
            };
        };
        let erange = e.syntax().text_range();
        let v = self.check_expr(&e, None);
        self.render_text(v, erange)
    }

    /// Wrap `v` in a text rendering, or report a type with no text form.
    pub(super) fn render_text(&mut self, v: Expr, range: rowan::TextRange) -> Expr {
        if !has_text_form(&v.ty) {
            let shown = self.show(&v.ty);
            self.error(range, format!("a value of type {shown} has no text form"));
        }
        if v.ty == Type::Text {
            let line = v.line;
            return Expr {
                kind: ExprKind::ToText {
                    expr: Box::new(v),
                    null_empty: true,
                },
                ty: Type::Text,
                line,
            };
        }
        let null_empty = matches!(v.ty, Type::Ascii);
        let line = v.line;
        Expr {
            kind: ExprKind::ToText {
                expr: Box::new(v),
                null_empty,
            },
            ty: Type::Text,
            line,
        }
    }

    /// The variable a `free`/`clear` names (§10.11).
    fn free_target(
        &mut self,
        e: Option<ast::Expr>,
        range: rowan::TextRange,
        word: &str,
    ) -> Option<Place> {
        let e = e?;
        let ast::Expr::NameRef(n) = &e else {
            self.error(
                e.syntax().text_range(),
                format!("'{word}' needs a variable name"),
            );
            return None;
        };
        let name = n.token()?.text().to_string();
        if let Some(l) = self.lookup_local(&name) {
            if l.is_const {
                self.error(range, format!("cannot {word} constant '{name}'"));
            } else if l.is_param && !l.manual {
                self.error(
                    range,
                    format!("cannot {word} parameter '{name}'; only a 'T?' parameter may be freed"),
                );
            }
            return Some(Place::Local(l.id));
        }
        match self.lookup_value(&name) {
            Some(ValueSym::Global(g)) => {
                if self.global_info[g as usize].is_const {
                    self.error(range, format!("cannot {word} constant '{name}'"));
                }
                Some(Place::Global(g))
            }
            Some(ValueSym::Func(_)) => {
                self.error(range, format!("cannot {word} function '{name}'"));
                None
            }
            None => {
                let msg = super::closures::closure_message(Some(e.syntax().clone()), &name)
                    .unwrap_or_else(|| format!("unknown name '{name}'"));
                self.error(e.syntax().text_range(), msg);
                None
            }
        }
    }

    /// The field or map entry a `delete` names (§10.11).
    fn delete_target(&mut self, e: Option<ast::Expr>, range: rowan::TextRange) -> Option<Place> {
        let e = e?;
        match &e {
            ast::Expr::Field(_) | ast::Expr::Index(_) => {
                let place = self.check_place(&e)?;
                match &place {
                    Place::Field { .. } | Place::WeakField { .. } | Place::MapEntry { .. } => {
                        Some(place)
                    }
                    _ => {
                        self.error(range, "'delete' needs a struct field or a map entry");
                        None
                    }
                }
            }
            _ => {
                self.error(
                    range,
                    "'delete' needs a field or map entry; use 'free x' to release a variable",
                );
                None
            }
        }
    }

    /// `match` (§10.9), lowered to an `if` chain on the enum tag.
    fn check_match(&mut self, m: &ast::MatchStmt, line: u32) -> Option<Stmt> {
        let range = m.syntax().text_range();
        let subject_ast = m.subject()?;
        if !is_simple_subject(&subject_ast) {
            self.error(
                subject_ast.syntax().text_range(),
                "a match subject must be a variable or a chain of field accesses",
            );
            return None;
        }
        let srange = subject_ast.syntax().text_range();
        let subject = self.check_expr(&subject_ast, None);
        let enum_id = match subject.ty.strip_manual() {
            Type::Enum(e) => Some(*e),
            _ => None,
        };
        let names: Vec<String> = match enum_id {
            Some(e) => self.module.enums[e as usize].member_names.clone(),
            None => vec![self.show(&subject.ty)],
        };
        let mut seen: Vec<String> = Vec::new();
        let mut arms: Vec<(Option<usize>, Vec<Stmt>)> = Vec::new();
        let mut has_default = false;
        for arm in m.arms() {
            let body = self.block(arm.body());
            if arm.is_default() {
                has_default = true;
                arms.push((None, body));
                continue;
            }
            let Some(tag) = arm.tag() else { continue };
            let text = ast::unescape_string(tag.text()).unwrap_or_default();
            if seen.contains(&text) {
                self.error(
                    tag.text_range(),
                    format!("match tag '{text}' appears twice"),
                );
                continue;
            }
            seen.push(text.clone());
            match names.iter().position(|n| *n == text) {
                Some(i) => arms.push((Some(i), body)),
                None => {
                    let shown = self.show(&subject.ty);
                    self.error(
                        tag.text_range(),
                        format!("unknown match tag '{text}' for type {shown}"),
                    );
                }
            }
        }
        if enum_id.is_some() && !has_default {
            let missing: Vec<&String> = names.iter().filter(|n| !seen.contains(n)).collect();
            if !missing.is_empty() {
                let list = missing
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let shown = self.show(&subject.ty);
                self.error(range, format!("match on {shown} does not cover {list}"));
            }
        }
        let _ = srange;
        Some(self.lower_match(subject, enum_id, arms, line))
    }

    fn lower_match(
        &mut self,
        subject: Expr,
        enum_id: Option<u32>,
        arms: Vec<(Option<usize>, Vec<Stmt>)>,
        line: u32,
    ) -> Stmt {
        let mut else_body: Vec<Stmt> = Vec::new();
        // The default arm runs when no tag matched, wherever it is written.
        let mut tagged = Vec::new();
        for (tag, body) in arms {
            match tag {
                None => else_body = body,
                Some(i) => tagged.push((i, body)),
            }
        }
        for (i, body) in tagged.into_iter().rev() {
            let cond = match enum_id {
                Some(e) => Expr {
                    kind: ExprKind::Binary(
                        crate::hir::BinOp::EqInt,
                        Box::new([
                            Expr {
                                kind: ExprKind::EnumTag {
                                    expr: Box::new(subject.clone()),
                                    enum_id: e,
                                },
                                ty: Type::Int,
                                line,
                            },
                            Expr {
                                kind: ExprKind::Int(i as i64),
                                ty: Type::Int,
                                line,
                            },
                        ]),
                    ),
                    ty: Type::Bool,
                    line,
                },
                None => Expr {
                    kind: ExprKind::Bool(true),
                    ty: Type::Bool,
                    line,
                },
            };
            else_body = vec![Stmt {
                kind: StmtKind::If {
                    cond,
                    then_body: body,
                    else_body,
                },
                line,
            }];
        }
        Stmt {
            kind: StmtKind::Block(else_body),
            line,
        }
    }
}

/// §10.9: an identifier followed by zero or more `.name` accesses.
fn is_simple_subject(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::NameRef(_) => true,
        ast::Expr::Field(f) => f.receiver().is_some_and(|r| is_simple_subject(&r)),
        ast::Expr::Paren(p) => p.expr().is_some_and(|r| is_simple_subject(&r)),
        _ => false,
    }
}
