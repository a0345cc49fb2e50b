//! The built-in database in the checker (§6.4, §8.10, §15): `sqlite()`
//! calls, table-row members, and `DatabaseURL`.
//!
//! Everything here lowers to `CallNative`s of the natives in
//! `festina_stdlib::db` (see that module for their arguments; they are
//! listed in `festina_signatures::tables::database`), so codegen
//! and the VM need nothing database-specific:
//!
//! - `sqlite(sql[, [p, ...]])` as a statement is `sqlite_exec(sql, mode,
//!   p...)`; as the initializer of an `arr[Table]` or `arr[Struct]`
//!   declaration it is `sqlite_query(sql, mode, p...)` of that array type
//!   (§15.4). Anywhere else it is a compile error. The parameters must be
//!   an array literal, the one literal whose elements may mix types; each
//!   element must be a bindable type (`int`, `float`, `bool`, `text`,
//!   `ascii`, `blob`, `img`, `aud` or `null`) and becomes its own native
//!   argument, so no array is built per call.
//! - Reading `row.col` is a plain field read of the column's slot and
//!   `row.rowid` one of the rowid slot (`festina_vm::row`); `row.col = v`,
//!   `delete row.col` and `row.undefined(col)` are the natives `row_set`,
//!   `row_delete` and `row_undefined`, which keep track of the columns a
//!   row defines (§15.5). `rowid` is read-only (§9.11).
//! - `aud` and `img` columns and query fields (§15.3) hold the value's
//!   encoded bytes: it binds as those bytes, and a program with an `aud`
//!   (`img`) column or query field calls `aud_columns` (`img_columns`, of
//!   the audio or canvas facility) before `db_open`, so that the database
//!   natives can decode them without linking the decoders themselves
//!   (`festina_stdlib::audio::AudColumns`, `festina_stdlib::canvas::ImgColumns`).
//! - `DatabaseURL = text` must be the entry file's first statement (§6.4);
//!   its value is evaluated first in the entry function and passed to
//!   `db_open`, which the entry function calls before any top-level code
//!   when the program uses the database at all: declares a table, calls
//!   `sqlite()` or sets `DatabaseURL` (LANGUAGE.md). Elsewhere in the entry
//!   file it is a compile error; in an imported file it has no effect
//!   (its value is still checked).

use super::{Checker, ValueSym};
use crate::ast;
use crate::hir::{Expr, ExprKind, Place, Stmt, StmtKind};
use festina_vm::types::Type;
use rowan::TextRange;

/// The most parameters one `sqlite()` call may bind (each is an argument
/// of the native call, which takes at most 255).
const MAX_SQL_PARAMS: usize = 250;

fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}

/// The `sqlite(...)` call `e` is (through parentheses), if it is one.
pub(super) fn sqlite_call_of(e: &ast::Expr) -> Option<ast::Call> {
    match e {
        ast::Expr::Call(c) => match c.callee()? {
            ast::Expr::NameRef(n) if n.token()?.text() == "sqlite" => Some(c.clone()),
            _ => None,
        },
        ast::Expr::Paren(p) => sqlite_call_of(&p.expr()?),
        _ => None,
    }
}

/// Whether `e` (an expression statement) is `DatabaseURL = value`.
/// The value of a `DatabaseURL = value` statement.
pub(super) fn database_url_stmt(stmt: &ast::Stmt) -> Option<ast::Expr> {
    let ast::Stmt::ExprStmt(s) = stmt else {
        return None;
    };
    s.expr().and_then(|e| database_url_value(&e))
}

fn database_url_value(e: &ast::Expr) -> Option<ast::Expr> {
    let ast::Expr::Assign(a) = e else { return None };
    match a.target()? {
        ast::Expr::NameRef(n) if n.token()?.text() == "DatabaseURL" => a.value(),
        _ => None,
    }
}

impl Checker<'_> {
    // ---- sqlite() ----

    /// A `sqlite(...)` call (§15.4). `target` is the declared type of the
    /// binding it initializes, `None` for the statement form.
    pub(super) fn sqlite_call(&mut self, c: &ast::Call, target: Option<&Type>, line: u32) -> Expr {
        let range = c.syntax().text_range();
        self.check_thread_sqlite(range);
        let items: Vec<ast::Arg> = c
            .arg_list()
            .map(|l| l.items().collect())
            .unwrap_or_default();
        if items.is_empty() || items.len() > 2 {
            self.arity_error(range, "'sqlite'", "1 or 2", items.len());
            return self.db_error_expr(line);
        }
        let mut args = Vec::new();
        let sql_ast = match &items[0] {
            ast::Arg::Value(e) => e.clone(),
            ast::Arg::Type(t) => {
                self.error(t.syntax().text_range(), "the SQL of 'sqlite' must be text");
                return self.db_error_expr(line);
            }
        };
        let srange = sql_ast.syntax().text_range();
        let literal =
            matches!(&sql_ast, ast::Expr::Literal(l) if l.kind() == ast::LiteralKind::String);
        let sql = self.check_expr(&sql_ast, Some(&Type::Text));
        args.push(self.coerce(sql, &Type::Text, srange, Some("argument 1 of 'sqlite'")));
        let mut params = Vec::new();
        if let Some(p) = items.get(1) {
            match p {
                ast::Arg::Value(ast::Expr::ArrayLit(a)) => {
                    for el in a.elements() {
                        let erange = el.syntax().text_range();
                        let v = self.check_expr(&el, None);
                        params.push(self.sql_param(v, erange));
                    }
                }
                other => {
                    let prange = match other {
                        ast::Arg::Value(e) => e.syntax().text_range(),
                        ast::Arg::Type(t) => t.syntax().text_range(),
                    };
                    if let ast::Arg::Value(e) = other {
                        self.check_expr(e, None);
                    }
                    self.error(
                        prange,
                        "the parameters of 'sqlite' must be an array literal such as [id, name] (§15.4)",
                    );
                }
            }
        }
        if params.len() > MAX_SQL_PARAMS {
            self.error(
                range,
                format!("a 'sqlite' call may bind at most {MAX_SQL_PARAMS} parameters"),
            );
        }
        self.uses_db = true;
        let (native, ty, type_index) = match target {
            None => ("sqlite_exec", Type::Void, 0),
            Some(t) => match self.query_target(t, range) {
                Some(elem) => {
                    let arr = Type::Arr(Box::new(elem));
                    let idx = self.intern_type(arr.clone());
                    ("sqlite_query", arr, idx as i64)
                }
                None => return self.db_error_expr(line),
            },
        };
        args.push(mk(
            ExprKind::Int((type_index << 1) | literal as i64),
            Type::Int,
            line,
        ));
        args.extend(params);
        let id = self.native(native);
        mk(ExprKind::CallNative { id, args }, ty, line)
    }

    fn db_error_expr(&self, line: u32) -> Expr {
        mk(ExprKind::Null, Type::Error, line)
    }

    /// The element type a query result goes into: `T` of an `arr[T]`
    /// (or `arr[T]?`) whose `T` is a table, or a struct whose fields are
    /// all queryable (§15.5). Reports anything else.
    fn query_target(&mut self, t: &Type, range: TextRange) -> Option<Type> {
        let elem = match t.strip_manual() {
            Type::Error => return None,
            Type::Arr(e) => (**e).clone(),
            other => {
                let shown = self.show(other);
                self.error(
                    range,
                    format!("the rows of 'sqlite' go into an arr[Table] or arr[Struct], not {shown} (§15.5)"),
                );
                return None;
            }
        };
        match &elem {
            Type::Table(_) | Type::Error => Some(elem),
            Type::Struct(sid) => {
                let rec = &self.module.structs[*sid as usize];
                let bad = rec.fields.iter().find(|f| !is_queryable(&f.ty)).cloned();
                if let Some(f) = bad {
                    let (sname, fty) = (rec.name.clone(), self.show(&f.ty));
                    self.error(
                        range,
                        format!(
                            "struct {sname} cannot receive query rows: field '{}' is {fty}; fields must be int, float, bool, text, blob, img or aud (§15.5)",
                            f.name
                        ),
                    );
                    return None;
                }
                if rec.fields.iter().any(|f| f.ty == Type::Aud) {
                    self.aud_columns = true;
                }
                if rec.fields.iter().any(|f| f.ty == Type::Img) {
                    self.img_columns = true;
                }
                Some(elem)
            }
            other => {
                let shown = self.show(other);
                self.error(
                    range,
                    format!("the rows of 'sqlite' go into an arr[Table] or arr[Struct], not arr[{shown}] (§15.5)"),
                );
                None
            }
        }
    }

    /// One element of a `sqlite()` parameter list: any bindable value
    /// (§15.3, §15.4).
    fn sql_param(&mut self, v: Expr, range: TextRange) -> Expr {
        match v.ty.strip_manual() {
            Type::Int
            | Type::Float
            | Type::Bool
            | Type::Text
            | Type::Ascii
            | Type::Blob
            | Type::Img
            | Type::Aud
            | Type::Null
            | Type::Error => v,
            Type::Void => {
                self.error(range, "a call of a void function has no value to use");
                v
            }
            other => {
                let shown = self.show(other);
                self.error(
                    range,
                    format!("a value of type {shown} cannot be a SQL parameter; use int, float, bool, text, ascii, blob, img or aud (§15.3)"),
                );
                v
            }
        }
    }

    /// `sqlite(...)` as an expression statement, if `c` is one.
    pub(super) fn sqlite_stmt(&mut self, c: &ast::Call, line: u32) -> Option<Stmt> {
        let call = sqlite_call_of(&ast::Expr::Call(c.clone()))?;
        let e = self.sqlite_call(&call, None, line);
        Some(Stmt {
            kind: StmtKind::Expr(e),
            line,
        })
    }

    /// A `sqlite(...)` call anywhere but a statement or a declaration's
    /// initializer: a compile error (§15.4).
    pub(super) fn sqlite_misplaced(&mut self, c: &ast::Call, line: u32) -> Expr {
        self.error(
            c.syntax().text_range(),
            "'sqlite' can only be called as a statement or as the initializer of an arr[Table] or arr[Struct] declaration (§15.4)",
        );
        if let Some(l) = c.arg_list() {
            for a in l.args() {
                if !matches!(a, ast::Expr::ArrayLit(_)) {
                    self.check_expr(&a, None);
                }
            }
        }
        self.db_error_expr(line)
    }

    // ---- rows ----

    /// `row.name` on a row of table `tid`: a column, or `rowid` (§9.2).
    pub(super) fn row_member(
        &mut self,
        obj: Expr,
        tid: u32,
        fname: &str,
        nrange: TextRange,
        line: u32,
    ) -> Expr {
        let ncols = self.module.tables[tid as usize].fields.len();
        if let Some(i) = self.table_field(tid, fname) {
            let ty = self.module.tables[tid as usize].fields[i].ty.clone();
            return mk(
                ExprKind::Field {
                    obj: Box::new(obj),
                    field: i as u16,
                    vivify: false,
                },
                ty,
                line,
            );
        }
        if fname == "rowid" {
            return mk(
                ExprKind::Field {
                    obj: Box::new(obj),
                    field: festina_vm::row::rowid_slot(ncols) as u16,
                    vivify: false,
                },
                Type::Int,
                line,
            );
        }
        self.unknown_member(&Type::Table(tid), fname, nrange, line)
    }

    /// `row.col` as an assignment or `delete` target: the column's place
    /// (lowered to a native by [`Checker::lower_row_assign`] and
    /// [`Checker::lower_row_delete`]); `rowid` is read-only (§9.11).
    pub(super) fn row_place(
        &mut self,
        obj: Expr,
        tid: u32,
        fname: &str,
        nrange: TextRange,
        range: TextRange,
    ) -> Option<(Place, Type)> {
        if let Some(i) = self.table_field(tid, fname) {
            let ty = self.module.tables[tid as usize].fields[i].ty.clone();
            return Some((
                Place::Field {
                    obj: Box::new(obj),
                    field: i as u16,
                },
                ty,
            ));
        }
        if fname == "rowid" {
            self.error(range, "cannot assign to read-only 'rowid'");
        } else {
            self.unknown_member(&Type::Table(tid), fname, nrange, 0);
        }
        None
    }

    /// `row.col = value` as the `row_set` native; other places come back.
    pub(super) fn lower_row_assign(
        &mut self,
        place: Place,
        value: Expr,
        line: u32,
    ) -> Result<Stmt, (Place, Expr)> {
        let (obj, field, tid) = match place {
            Place::Field { obj, field } => match obj.ty.strip_manual() {
                Type::Table(tid) => {
                    let tid = *tid;
                    (obj, field, tid)
                }
                _ => return Err((Place::Field { obj, field }, value)),
            },
            other => return Err((other, value)),
        };
        let id = self.native("row_set");
        let args = vec![
            *obj,
            mk(ExprKind::Int(tid as i64), Type::Int, line),
            mk(ExprKind::Int(field as i64), Type::Int, line),
            value,
        ];
        Ok(Stmt {
            kind: StmtKind::Expr(mk(ExprKind::CallNative { id, args }, Type::Void, line)),
            line,
        })
    }

    /// `delete row.col` as the `row_delete` native (§10.11); other places
    /// come back.
    pub(super) fn lower_row_delete(&mut self, place: Place, line: u32) -> Result<Stmt, Place> {
        let (obj, field, tid) = match place {
            Place::Field { obj, field } => match obj.ty.strip_manual() {
                Type::Table(tid) => {
                    let tid = *tid;
                    (obj, field, tid)
                }
                _ => return Err(Place::Field { obj, field }),
            },
            other => return Err(other),
        };
        let id = self.native("row_delete");
        let args = vec![
            *obj,
            mk(ExprKind::Int(tid as i64), Type::Int, line),
            mk(ExprKind::Int(field as i64), Type::Int, line),
        ];
        Ok(Stmt {
            kind: StmtKind::Expr(mk(ExprKind::CallNative { id, args }, Type::Void, line)),
            line,
        })
    }

    /// `row.undefined(col)` (§15.5): `col` is any text; a name the table
    /// does not declare is a runtime failure.
    pub(super) fn row_undefined_call(
        &mut self,
        obj: Expr,
        tid: u32,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        if args.len() != 1 {
            self.arity_error(range, "'undefined'", "1", args.len());
            return self.db_error_expr(line);
        }
        let arange = args[0].syntax().text_range();
        let name = self.check_expr(&args[0], Some(&Type::Text));
        let name = self.coerce(name, &Type::Text, arange, Some("argument 1 of 'undefined'"));
        let id = self.native("row_undefined");
        let args = vec![obj, mk(ExprKind::Int(tid as i64), Type::Int, line), name];
        mk(ExprKind::CallNative { id, args }, Type::Bool, line)
    }

    /// Rules on a table declaration beyond its column types: at least one
    /// column, and a name SQLite does not reserve.
    pub(super) fn check_table_decl(&mut self, tid: u32, range: TextRange) {
        let rec = &self.module.tables[tid as usize];
        let name = rec.name.clone();
        let no_columns = rec.fields.is_empty();
        if rec.fields.iter().any(|f| f.ty == Type::Aud) {
            self.aud_columns = true;
        }
        if rec.fields.iter().any(|f| f.ty == Type::Img) {
            self.img_columns = true;
        }
        if no_columns {
            self.error(range, format!("table '{name}' needs at least one column"));
        }
        if name.to_ascii_lowercase().starts_with("sqlite_") {
            self.error(
                range,
                format!(
                    "table name '{name}' is reserved by SQLite (names starting with 'sqlite_')"
                ),
            );
        }
    }

    // ---- DatabaseURL ----

    /// The entry file's first statement, when it is `DatabaseURL = value`
    /// (§6.4): the value is checked and kept for `db_open`. `None` if the
    /// statement is something else.
    pub(super) fn database_url_first(&mut self, stmt: &ast::Stmt) -> Option<()> {
        let ast::Stmt::ExprStmt(s) = stmt else {
            return None;
        };
        let value = database_url_value(&s.expr()?)?;
        let v = self.database_url_value_expr(&value);
        self.db_url = Some(v);
        self.uses_db = true;
        Some(())
    }

    fn database_url_value_expr(&mut self, value: &ast::Expr) -> Expr {
        let vrange = value.syntax().text_range();
        let v = self.check_expr(value, Some(&Type::Text));
        self.coerce(v, &Type::Text, vrange, Some("DatabaseURL"))
    }

    /// `DatabaseURL = value` anywhere but the entry file's first
    /// statement, when `DatabaseURL` names no variable: a compile error in
    /// the entry file, no effect in an imported one (§6.4). `None` when
    /// `a` is another assignment.
    pub(super) fn database_url_elsewhere(&mut self, a: &ast::Assign) -> Option<()> {
        let target = a.target()?;
        let ast::Expr::NameRef(n) = &target else {
            return None;
        };
        if n.token()?.text() != "DatabaseURL"
            || self.lookup_local("DatabaseURL").is_some()
            || matches!(self.lookup_value("DatabaseURL"), Some(ValueSym::Global(_)))
        {
            return None;
        }
        let is_entry = self.units.iter().any(|u| u.file == self.file && u.is_entry);
        if let Some(v) = a.value() {
            self.database_url_value_expr(&v);
        }
        if is_entry {
            self.error(
                a.syntax().text_range(),
                "'DatabaseURL' must be the first statement of the entry file, before any import (§6.4)",
            );
        }
        Some(())
    }

    /// The entry function's first statement in a program that uses the
    /// database: open it (with the `DatabaseURL` value, if any) and
    /// synchronise every table (§6.5 step 2), after `aud_columns` and
    /// `img_columns` when an `aud` or `img` column or query field needs
    /// decoding (module docs). Empty for a program that does not use the
    /// database.
    pub(super) fn db_open_stmts(&mut self) -> Vec<Stmt> {
        if !self.uses_db && self.module.tables.is_empty() {
            return Vec::new();
        }
        // Kept: the thread part compares it with the threads' (§20.7).
        let url = self
            .db_url
            .clone()
            .unwrap_or_else(|| mk(ExprKind::Null, Type::Text, 1));
        self.db_open_with(url)
    }

    /// Open the interpreter's database at `url` (a `text`, or `null` for
    /// the default) and synchronize the tables: the main program's, or a
    /// thread's own (§20.7).
    pub(super) fn db_open_with(&mut self, url: Expr) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        for (wanted, native) in [
            (self.aud_columns, "aud_columns"),
            (self.img_columns, "img_columns"),
        ] {
            if wanted {
                let id = self.native(native);
                stmts.push(Stmt {
                    kind: StmtKind::Expr(mk(
                        ExprKind::CallNative { id, args: vec![] },
                        Type::Void,
                        1,
                    )),
                    line: 1,
                });
            }
        }
        let line = url.line;
        let id = self.native("db_open");
        let open = Stmt {
            kind: StmtKind::Expr(mk(
                ExprKind::CallNative {
                    id,
                    args: vec![url],
                },
                Type::Void,
                line,
            )),
            line,
        };
        stmts.push(open);
        stmts
    }
}

/// Whether a struct field of type `ty` can receive a result column
/// (§15.5).
fn is_queryable(ty: &Type) -> bool {
    matches!(
        ty.strip_manual(),
        Type::Int
            | Type::Float
            | Type::Bool
            | Type::Text
            | Type::Blob
            | Type::Img
            | Type::Aud
            | Type::Error
    )
}
