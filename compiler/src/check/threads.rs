//! Threads (§20): declarations, isolation, messages and pools.
//!
//! # Design
//!
//! A `thread NAME { ... }` (or pool `NAME[N]`, `NAME[]`) at the top level
//! of any file becomes a [`ThreadInfo`] ([`Checker::collect_threads`],
//! with the function passes):
//! - each state declaration of the body is a global slot named
//!   `NAME.var`; every interpreter has its own globals, so the slot is the
//!   instance's private state and main never reads it;
//! - each function of the body is a global function reachable only by
//!   name from inside the body (the thread's own value namespace,
//!   [`ThreadInfo::values`], is searched before the program's);
//! - each handler (`load`, `message`, `exit`, `request`, `upgrade`,
//!   `socketMessage`, `socketClose`) is a function `<NAME on EVENT>`;
//! - the function `<NAME init>` initializes the state in order.
//!
//! The entry function declares every thread to the runtime
//! (`thread_declare(tid, instances, init, load, message, exit)`) and
//! starts them (`thread_start()`) before the first top-level statement
//! (§20.2); see `festina-stdlib`'s `threads` module for the runtime.
//!
//! While a thread body is checked ([`Checker::cur_thread`]), a name of the
//! program's own namespace (a global, a top-level function) is an
//! isolation error (§20.3), as are the canvas, window, audio, timer,
//! `close` and background-load builtins.
//!
//! Calls on a thread name: `NAME.postMessage(x)` (pool: routed),
//! `NAME[i].postMessage(x)`, `kill`, `live`, `isAlive`, `drain`; a bare
//! `postMessage(x)` in a body sends to main; `.callback(fn)` chains on a
//! post. `worker.main` and `worker.reply(x)` on the `worker` of `on
//! message`. The first `reply` in a receiver (main or a thread) fixes its
//! reply type; whether each post needs `.callback` is checked when every
//! body has been checked ([`Checker::check_posts`]).

use super::ty::ManualOk;
use super::{Checker, FnState, ValueSym};
use crate::ast;
use crate::hir::{self, Expr, ExprKind, Stmt, StmtKind};
use crate::syntax::SyntaxKind;
use festina_vm::types::Type;
use hashbrown::HashMap;
use rowan::TextRange;

/// The handlers a thread body may declare (§20.1).
const THREAD_EVENTS: &[&str] = &[
    "load",
    "message",
    "exit",
    "request",
    "upgrade",
    "socketMessage",
    "socketClose",
];

/// Builtins a thread body may not call (§20.3), besides the canvas,
/// window and audio facilities.
const FORBIDDEN: &[&str] = &[
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
    "close",
    "render",
];

/// A declared thread or pool.
#[derive(Clone, Debug)]
pub(super) struct ThreadInfo {
    pub(super) name: String,
    /// Instances: 1, or the pool size.
    pub(super) instances: u32,
    pub(super) pool: bool,
    /// The body's own names: state globals and private functions.
    pub(super) values: HashMap<String, ValueSym>,
    /// Handler functions by event name.
    pub(super) handlers: HashMap<String, u32>,
    /// The type `on message` accepts.
    pub(super) msg_type: Option<Type>,
    /// State declarations in order, with their globals.
    state: Vec<(ast::VarDecl, u32)>,
    /// Private function declarations with their ids.
    funcs: Vec<(ast::FuncDecl, u32)>,
    /// Handler declarations with their ids.
    ons: Vec<(ast::OnDecl, u32)>,
    file: u32,
    line: u32,
    /// `<NAME init>`.
    init: u32,
    /// The literal of the body's `DatabaseURL` (§20.7).
    db_url: Option<(String, TextRange)>,
}

/// A `postMessage` whose `.callback` is checked at the end.
#[derive(Clone, Debug)]
pub(super) struct PostSite {
    /// The receiver: a thread, or `None` for main.
    to: Option<u32>,
    /// The callback's type, if `.callback(fn)` was chained.
    callback: Option<Type>,
    file: u32,
    range: TextRange,
}

/// What a receiver expression names: thread `tid`, and the index
/// expression of `NAME[i]`.
pub(super) struct Target {
    tid: u32,
    index: Option<ast::Expr>,
}

fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}

/// True if `node` is a direct member of a thread body.
pub(super) fn in_thread_body(node: &ast::Node) -> bool {
    node.parent()
        .and_then(|b| b.parent())
        .is_some_and(|t| t.kind() == SyntaxKind::THREAD_DECL)
}

impl Checker<'_> {
    /// Pass 3b: every top-level thread declaration.
    pub(super) fn collect_threads(&mut self) {
        for u in self.units {
            self.file = u.file;
            for stmt in u.root.statements() {
                if let ast::Stmt::ThreadDecl(t) = stmt {
                    self.declare_thread(&t);
                }
            }
        }
        // §20.6: `NAME[]` takes the CPU count minus every other declared
        // instance, at least 1.
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let fixed: u32 = self
            .threads
            .iter()
            .filter(|t| t.instances > 0)
            .map(|t| t.instances)
            .sum();
        for t in &mut self.threads {
            if t.instances == 0 {
                t.instances = cpus.saturating_sub(fixed).max(1);
            }
        }
    }

    fn declare_thread(&mut self, t: &ast::ThreadDecl) {
        let range = t.syntax().text_range();
        let Some(name_tok) = t.name() else { return };
        let name = name_tok.text().to_string();
        if self.values.contains_key(&name) || self.thread_names.contains_key(&name) {
            self.error(
                name_tok.text_range(),
                format!("'{name}' is already declared"),
            );
            return;
        }
        if !self.check_not_builtin(&name, name_tok.text_range()) {
            return;
        }
        let instances = match (t.is_pool(), t.pool_size()) {
            (false, _) => 1,
            (true, None) => 0,
            (true, Some(n)) => match n.text().parse::<u32>() {
                Ok(v) if v >= 1 => v,
                Ok(_) => {
                    self.error(
                        n.text_range(),
                        "a thread pool needs at least 1 instance (§20.6)",
                    );
                    1
                }
                Err(_) => {
                    self.error(
                        n.text_range(),
                        format!(
                            "a thread pool of {} instances is out of range (at most {})",
                            n.text(),
                            u32::MAX
                        ),
                    );
                    1
                }
            },
        };
        let tid = self.threads.len() as u32;
        let line = self.line(range);
        let mut info = ThreadInfo {
            name: name.clone(),
            instances,
            pool: t.is_pool(),
            values: HashMap::new(),
            handlers: HashMap::new(),
            msg_type: None,
            state: Vec::new(),
            funcs: Vec::new(),
            ons: Vec::new(),
            file: self.file,
            line,
            init: 0,
            db_url: None,
        };
        let Some(body) = t.body() else { return };
        for (k, stmt) in body.statements().enumerate() {
            let srange = stmt.syntax().text_range();
            if let Some(value) = super::db::database_url_stmt(&stmt) {
                self.thread_database_url(&mut info, k, &value, srange);
                continue;
            }
            match &stmt {
                ast::Stmt::VarDecl(v) => {
                    let Some(vname) = v.name() else { continue };
                    let id = self.global_slot(v, format!("{name}.{}", vname.text()));
                    if info.values.contains_key(vname.text()) {
                        self.error(
                            vname.text_range(),
                            format!("'{}' is already declared in this thread", vname.text()),
                        );
                    }
                    info.values
                        .insert(vname.text().to_string(), ValueSym::Global(id));
                    info.state.push((v.clone(), id));
                }
                ast::Stmt::FuncDecl(f) => {
                    let id = self.declare_function_shell(f);
                    if let Some(fname) = f.name() {
                        if info.values.contains_key(fname.text()) {
                            self.error(
                                fname.text_range(),
                                format!("'{}' is already declared in this thread", fname.text()),
                            );
                        }
                        info.values
                            .insert(fname.text().to_string(), ValueSym::Func(id));
                    }
                    info.funcs.push((f.clone(), id));
                }
                ast::Stmt::OnDecl(h) => {
                    if let Some(id) = self.declare_thread_handler(h, &name, &mut info) {
                        info.ons.push((h.clone(), id));
                    }
                }
                _ => {
                    self.error(
                        srange,
                        "a thread body may contain only state declarations, functions and handlers (§20.1)",
                    );
                }
            }
        }
        let init = self.module.functions.len() as u32;
        self.module.functions.push(hir::Function {
            name: format!("<{name} init>"),
            file: self.file,
            line,
            nparams: 0,
            locals: Vec::new(),
            ret: Type::Void,
            body: Vec::new(),
        });
        self.sigs.push(super::FuncSig {
            name: format!("{name} init"),
            params: Vec::new(),
            ret: Type::Void,
        });
        info.init = init;
        self.thread_names.insert(name, tid);
        self.threads.push(info);
    }

    /// `DatabaseURL = '<literal>'` in a thread body (§20.7): first, a
    /// string literal, not in a pool.
    fn thread_database_url(
        &mut self,
        info: &mut ThreadInfo,
        k: usize,
        value: &ast::Expr,
        range: TextRange,
    ) {
        if k != 0 {
            self.error(
                range,
                "a thread's DatabaseURL must be the first statement of its body (§20.7)",
            );
        } else if info.pool {
            self.error(range, "a thread pool may not declare DatabaseURL (§20.6)");
        } else {
            match super::expr::string_literal(value) {
                Some(s) => info.db_url = Some((s, value.syntax().text_range())),
                None => self.error(
                    value.syntax().text_range(),
                    "a thread's DatabaseURL must be a string literal (§20.7)",
                ),
            }
        }
    }

    /// §20.7: the main program's database path and every thread's must be
    /// pairwise distinct.
    pub(super) fn check_database_paths(&mut self) {
        let main = match self.db_url.as_ref().map(|e| &e.kind) {
            Some(ExprKind::Text(s)) => Some(s.clone()),
            Some(_) => None,
            None => Some("festina.sqlite".to_string()),
        };
        let mut seen: Vec<(String, String)> = main
            .map(|m| vec![(m, "the main program".to_string())])
            .unwrap_or_default();
        for t in self.threads.clone() {
            let Some((path, range)) = t.db_url else {
                continue;
            };
            if let Some((_, other)) = seen.iter().find(|(p, _)| *p == path) {
                self.file = t.file;
                self.error(
                    range,
                    format!("thread '{}' uses the database '{path}' of {other}: every DatabaseURL must be distinct (§20.7)", t.name),
                );
            } else {
                seen.push((path, format!("thread '{}'", t.name)));
            }
        }
    }

    /// `sqlite()` inside a thread needs the thread's own database (§20.7).
    pub(super) fn check_thread_sqlite(&mut self, range: TextRange) {
        let Some(t) = self.cur_thread else { return };
        let info = &self.threads[t as usize];
        if info.db_url.is_none() {
            let name = info.name.clone();
            self.error(
                range,
                format!("'sqlite' inside thread '{name}' needs the thread's own database: make its first statement DatabaseURL = '<path>' (§20.7)"),
            );
        }
    }

    fn declare_thread_handler(
        &mut self,
        h: &ast::OnDecl,
        tname: &str,
        info: &mut ThreadInfo,
    ) -> Option<u32> {
        let name_tok = h.name()?;
        let event = name_tok.text().to_string();
        if h.use_token().is_some() {
            self.error(
                h.syntax().text_range(),
                "'on request use' belongs to the main program, not a thread body (§20.9)",
            );
            return None;
        }
        if !THREAD_EVENTS.contains(&event.as_str()) {
            self.error(
                name_tok.text_range(),
                format!("a thread body cannot handle event '{event}': only load, message, exit, request, upgrade, socketMessage and socketClose (§20.1)"),
            );
            return None;
        }
        let mut params = Vec::new();
        if let Some(list) = h.param_list() {
            for p in list.params() {
                params.push(match p.ty() {
                    Some(t) => self.resolve_type(&t, ManualOk::Yes),
                    None => Type::Error,
                });
            }
        }
        self.declaring_thread = true;
        self.check_event_params(&event, &params, name_tok.text_range(), h);
        self.declaring_thread = false;
        if info.handlers.contains_key(&event) {
            self.error(
                name_tok.text_range(),
                format!("event '{event}' already has a handler in thread '{tname}'"),
            );
            return None;
        }
        if event == "message" {
            if let Some(ty) = params.get(1) {
                self.check_sendable(ty, name_tok.text_range());
                info.msg_type = Some(ty.clone());
            }
        }
        let id = self.module.functions.len() as u32;
        let line = self.line(h.syntax().text_range());
        self.module.functions.push(hir::Function {
            name: format!("<{tname} on {event}>"),
            file: self.file,
            line,
            nparams: params.len() as u32,
            locals: Vec::new(),
            ret: Type::Void,
            body: Vec::new(),
        });
        self.sigs.push(super::FuncSig {
            name: format!("on {event}"),
            params,
            ret: Type::Void,
        });
        info.handlers.insert(event, id);
        Some(id)
    }

    /// §20.4: report a message type that cannot cross threads.
    pub(super) fn check_sendable(&mut self, ty: &Type, at: TextRange) {
        if let Some(what) = self.unsendable(ty, 0) {
            let shown = self.show(ty);
            self.error(
                at,
                format!("a message of type {shown} cannot be sent between threads: {what} (§20.4)"),
            );
        }
    }

    /// Why `ty` is not sendable, or `None`.
    fn unsendable(&self, ty: &Type, depth: u32) -> Option<String> {
        if depth > 64 {
            return None;
        }
        match ty {
            Type::Manual(_) | Type::Error => None,
            Type::Int
            | Type::Float
            | Type::Bool
            | Type::Text
            | Type::Ascii
            | Type::Color
            | Type::Font
            | Type::Blob
            | Type::Img
            | Type::Aud
            | Type::Url => None,
            Type::Arr(t) | Type::Amor(t) | Type::Map(t) => self.unsendable(t, depth + 1),
            Type::Struct(sid) => {
                let rec = self.module.structs.get(*sid as usize)?;
                if rec.may_cycle {
                    return Some(format!("struct {} refers to itself", rec.name));
                }
                rec.fields
                    .iter()
                    .find_map(|f| self.unsendable(&f.ty, depth + 1))
            }
            Type::Enum(eid) => {
                let e = self.module.enums.get(*eid as usize)?;
                e.members.iter().find_map(|m| self.unsendable(m, depth + 1))
            }
            Type::Table(_) => Some("table rows are not sendable".to_string()),
            other => Some(format!("{} values are not sendable", self.show(other))),
        }
    }

    /// Pass 5: the bodies of every thread (before the program's, so that
    /// the threads' reply types are known).
    pub(super) fn check_thread_bodies(&mut self) {
        for tid in 0..self.threads.len() {
            let info = self.threads[tid].clone();
            self.file = info.file;
            self.cur_thread = Some(tid as u32);
            for (f, id) in &info.funcs {
                self.check_function(f, *id);
            }
            for (h, id) in &info.ons {
                self.check_handler(h, *id);
            }
            // `<NAME init>`: the state, in order.
            self.fs = FnState {
                ret: Some(Type::Void),
                ..FnState::default()
            };
            self.push_scope();
            let mut body = Vec::new();
            if let Some((path, range)) = &info.db_url {
                // §20.7: the thread's own database, opened first.
                let line = self.line(*range);
                body = self.db_open_with(mk(ExprKind::Text(path.clone()), Type::Text, line));
            }
            for (v, g) in &info.state {
                let line = self.line(v.syntax().text_range());
                let ty = self.module.globals[*g as usize].ty.clone();
                let is_const = self.global_info[*g as usize].is_const;
                let init = self.check_decl_init(v, &ty, is_const);
                body.push(Stmt {
                    kind: StmtKind::InitGlobal { global: *g, init },
                    line,
                });
            }
            self.pop_scope();
            let func = &mut self.module.functions[info.init as usize];
            func.locals = std::mem::take(&mut self.fs.locals);
            func.body = body;
            self.body_done(info.init);
            self.cur_thread = None;
        }
    }

    /// The statements the entry function runs first: declare and start
    /// every thread (§20.2).
    pub(super) fn thread_start_stmts(&mut self) -> Vec<Stmt> {
        if self.threads.is_empty() {
            return Vec::new();
        }
        let declare = self.native("thread_declare");
        let start = self.native("thread_start");
        let mut out = Vec::new();
        let func_ty = Type::Func(Vec::new(), Box::new(Type::Void));
        for (tid, t) in self.threads.iter().enumerate() {
            let f = |id: Option<&u32>| match id {
                Some(&id) => mk(ExprKind::FuncRef(id), func_ty.clone(), t.line),
                None => mk(ExprKind::Null, func_ty.clone(), t.line),
            };
            let args = vec![
                mk(ExprKind::Int(tid as i64), Type::Int, t.line),
                mk(ExprKind::Int(t.instances as i64), Type::Int, t.line),
                f(Some(&t.init)),
                f(t.handlers.get("load")),
                f(t.handlers.get("message")),
                f(t.handlers.get("exit")),
                f(t.handlers.get("request")),
                f(t.handlers.get("upgrade")),
                f(t.handlers.get("socketMessage")),
                f(t.handlers.get("socketClose")),
            ];
            out.push(expr_stmt(
                mk(
                    ExprKind::CallNative { id: declare, args },
                    Type::Void,
                    t.line,
                ),
                t.line,
            ));
        }
        out.push(expr_stmt(
            mk(
                ExprKind::CallNative {
                    id: start,
                    args: Vec::new(),
                },
                Type::Void,
                1,
            ),
            1,
        ));
        out
    }

    /// The isolation error for `name` inside a thread body (§20.3), if it
    /// names something of the program's own namespace.
    pub(super) fn isolation_error(&mut self, name: &str, range: TextRange) -> bool {
        let Some(t) = self.cur_thread else {
            return false;
        };
        let tname = self.threads[t as usize].name.clone();
        match self.values.get(name) {
            Some(ValueSym::Global(_)) => {
                self.error(
                    range,
                    format!("thread '{tname}' cannot use the global variable '{name}': a thread body sees only its own state (§20.3)"),
                );
                true
            }
            Some(ValueSym::Func(_)) => {
                self.error(
                    range,
                    format!("thread '{tname}' cannot call the top-level function '{name}': declare it inside the thread body (§20.3)"),
                );
                true
            }
            None => false,
        }
    }

    /// Report a builtin a thread body may not use (§20.3).
    pub(super) fn check_thread_builtin(&mut self, name: &str, native: &str, range: TextRange) {
        let Some(t) = self.cur_thread else { return };
        let facility = festina_signatures::facility_of(native);
        let gated = matches!(
            facility,
            Some(
                festina_signatures::Facility::Canvas
                    | festina_signatures::Facility::Window
                    | festina_signatures::Facility::Audio
            )
        ) && name != "blankImage";
        // §20.8: a thread with an HTTP handler has its own server.
        let serves = ["request", "upgrade", "socketMessage", "socketClose"]
            .iter()
            .any(|e| self.threads[t as usize].handlers.contains_key(*e));
        let net = matches!(name, "openPort" | "closePort" | "openSecurePort") && !serves;
        if net {
            let tname = self.threads[t as usize].name.clone();
            self.error(
                range,
                format!("'{name}' inside thread '{tname}' needs the thread's own HTTP context: declare 'on request' (or a WebSocket handler) in its body (§20.8)"),
            );
        } else if gated || FORBIDDEN.contains(&name) {
            let tname = self.threads[t as usize].name.clone();
            self.error(
                range,
                format!("'{name}' cannot be used inside thread '{tname}' (§20.3)"),
            );
        }
    }

    /// Report a method a thread body may not call (§20.3): audio and
    /// window methods (every `img` method is allowed).
    pub(super) fn check_thread_method(&mut self, name: &str, native: &str, range: TextRange) {
        let Some(t) = self.cur_thread else { return };
        if matches!(
            festina_signatures::facility_of(native),
            Some(festina_signatures::Facility::Audio | festina_signatures::Facility::Window)
        ) {
            let tname = self.threads[t as usize].name.clone();
            self.error(
                range,
                format!(
                    "'{name}' cannot be used inside thread '{tname}' (§20.3: no audio or window)"
                ),
            );
        }
    }

    /// Report a background load inside a thread body (§20.3).
    pub(super) fn check_thread_load(&mut self, range: TextRange) {
        let Some(t) = self.cur_thread else { return };
        let tname = self.threads[t as usize].name.clone();
        self.error(
            range,
            format!("a background load ('.callback') cannot be used inside thread '{tname}'; load synchronously (§20.3)"),
        );
    }

    /// Report a use that only the main program may make.
    fn main_only(&mut self, what: &str, range: TextRange) -> bool {
        if self.cur_thread.is_some() {
            self.error(
                range,
                format!("'{what}' may only be called from the main program (§20.2)"),
            );
            return false;
        }
        true
    }

    /// The thread a receiver names: `NAME` or `NAME[i]` (a local or a
    /// value of that name shadows the thread).
    pub(super) fn thread_target(&self, e: &ast::Expr) -> Option<Target> {
        let (name_expr, index) = match e {
            ast::Expr::NameRef(_) => (e.clone(), None),
            ast::Expr::Index(i) => (i.base()?, Some(i.index()?)),
            _ => return None,
        };
        let ast::Expr::NameRef(n) = &name_expr else {
            return None;
        };
        let tok = n.token()?;
        let name = tok.text();
        if self.lookup_local(name).is_some() {
            return None;
        }
        let tid = *self.thread_names.get(name)?;
        Some(Target { tid, index })
    }

    /// A call `m(args)` on a thread target; `callback` is the argument of
    /// a chained `.callback(fn)` on a `postMessage`.
    pub(super) fn thread_call(
        &mut self,
        target: Target,
        m: &str,
        args: &[ast::Expr],
        callback: Option<&ast::Expr>,
        range: TextRange,
        line: u32,
    ) -> Expr {
        let info = self.threads[target.tid as usize].clone();
        let tname = info.name.clone();
        let tid_e = mk(ExprKind::Int(target.tid as i64), Type::Int, line);
        if target.index.is_none() && info.pool && !matches!(m, "postMessage" | "giveRequest") {
            self.error(
                range,
                format!("'{m}' on pool '{tname}' needs an instance: {tname}[i].{m}() (§20.6)"),
            );
            return self.error_expr_t(line);
        }
        let index = match &target.index {
            Some(ix) => {
                let irange = ix.syntax().text_range();
                Some(self.int_operand_pub(ix, irange))
            }
            None => None,
        };
        let idx_e = index.clone().unwrap_or_else(|| {
            mk(
                ExprKind::Int(if info.pool { -1 } else { 0 }),
                Type::Int,
                line,
            )
        });
        let want = |c: &mut Self, n: usize| {
            if args.len() != n {
                c.arity_error(range, &format!("'{m}'"), &n.to_string(), args.len());
                false
            } else {
                true
            }
        };
        let (native, call_args, ret): (&str, Vec<Expr>, Type) = match m {
            "postMessage" => {
                if !want(self, 1) {
                    return self.error_expr_t(line);
                }
                let Some(mt) = info.msg_type.clone() else {
                    self.error(
                        range,
                        format!("thread '{tname}' declares no 'on message' handler, so it cannot be sent messages (§20.4)"),
                    );
                    return self.error_expr_t(line);
                };
                let msg = self.message_arg(&args[0], &mt);
                let cb = self.post_callback(Some(target.tid), callback, range, line);
                ("thread_post", vec![tid_e, idx_e, msg, cb], Type::Bool)
            }
            "kill" | "isAlive" | "drain" => {
                if !self.main_only(m, range) || !want(self, 0) {
                    return self.error_expr_t(line);
                }
                let (native, ret) = match m {
                    "kill" => ("thread_kill", Type::Void),
                    "isAlive" => ("thread_is_alive", Type::Bool),
                    _ => ("thread_drain", Type::Void),
                };
                (native, vec![tid_e, idx_e], ret)
            }
            "live" => {
                if !self.main_only(m, range) || !want(self, 1) {
                    return self.error_expr_t(line);
                }
                let fty = Type::Func(vec![Type::Bool], Box::new(Type::Void));
                let arange = args[0].syntax().text_range();
                let f = self.check_expr(&args[0], Some(&fty));
                let f = self.coerce(f, &fty, arange, Some("argument 1 of 'live'"));
                ("thread_live", vec![tid_e, idx_e, f], Type::Bool)
            }
            "giveRequest" => {
                if !self.main_only(m, range) || !want(self, 1) {
                    return self.error_expr_t(line);
                }
                if !info.handlers.contains_key("request") {
                    self.error(
                        range,
                        format!("thread '{tname}' declares no 'on request' handler, so it cannot be given requests (§20.9)"),
                    );
                    return self.error_expr_t(line);
                }
                let arange = args[0].syntax().text_range();
                let r = self.check_expr(&args[0], None);
                if !matches!(&r.ty, Type::Manual(t) if **t == Type::Http) && r.ty != Type::Error {
                    let shown = self.show(&r.ty);
                    self.error(
                        arange,
                        format!("'giveRequest' takes the handler's manually managed request: declare it 'on request(req:http?)' (found {shown}, §20.9)"),
                    );
                }
                ("http_give_request", vec![tid_e, idx_e, r], Type::Void)
            }
            _ => {
                self.error(
                    range,
                    format!("a thread has no method '{m}': postMessage, kill, live, isAlive, drain (§20.2, §20.4)"),
                );
                return self.error_expr_t(line);
            }
        };
        let id = self.native(native);
        let call = mk(
            ExprKind::CallNative {
                id,
                args: call_args,
            },
            ret.clone(),
            line,
        );
        match (index, m) {
            // §20.6: out of range, a silent no-op whose arguments are not
            // evaluated (the index is evaluated twice).
            (Some(ix), "postMessage" | "live") => {
                let ok = self.native("thread_in_range");
                let test = mk(
                    ExprKind::CallNative {
                        id: ok,
                        args: vec![mk(ExprKind::Int(target.tid as i64), Type::Int, line), ix],
                    },
                    Type::Bool,
                    line,
                );
                mk(
                    ExprKind::Cond(
                        Box::new(test),
                        Box::new(call),
                        Box::new(mk(ExprKind::Bool(false), Type::Bool, line)),
                    ),
                    Type::Bool,
                    line,
                )
            }
            _ => call,
        }
    }

    /// A bare `postMessage(x)` in a thread body: to main (§20.4).
    pub(super) fn post_to_main(
        &mut self,
        args: &[ast::Expr],
        callback: Option<&ast::Expr>,
        range: TextRange,
        line: u32,
    ) -> Expr {
        if self.cur_thread.is_none() {
            self.error(
                range,
                "a bare 'postMessage' sends to the main program and is only available inside a thread body; send to a thread with NAME.postMessage(x) (§20.4)",
            );
            return self.error_expr_t(line);
        }
        if args.len() != 1 {
            self.arity_error(range, "'postMessage'", "1", args.len());
            return self.error_expr_t(line);
        }
        let main_ty = self
            .module
            .handlers
            .iter()
            .find(|h| h.event == "message")
            .and_then(|h| self.sigs[h.func as usize].params.get(1).cloned());
        let Some(mt) = main_ty else {
            self.error(
                range,
                "the main program declares no 'on message' handler, so a thread cannot send to it (§20.4)",
            );
            return self.error_expr_t(line);
        };
        let msg = self.message_arg(&args[0], &mt);
        let cb = self.post_callback(None, callback, range, line);
        let id = self.native("thread_post_main");
        mk(
            ExprKind::CallNative {
                id,
                args: vec![msg, cb],
            },
            Type::Void,
            line,
        )
    }

    fn message_arg(&mut self, a: &ast::Expr, mt: &Type) -> Expr {
        let arange = a.syntax().text_range();
        let v = self.check_expr(a, Some(mt));
        self.coerce(v, mt, arange, Some("the message"))
    }

    /// The callback argument of a post (or `null`), recorded for
    /// [`Checker::check_posts`].
    fn post_callback(
        &mut self,
        to: Option<u32>,
        callback: Option<&ast::Expr>,
        range: TextRange,
        line: u32,
    ) -> Expr {
        let (cb, ty) = match callback {
            Some(c) => {
                let v = self.check_expr(c, None);
                let ty = v.ty.clone();
                (v, Some(ty))
            }
            None => (
                mk(
                    ExprKind::Null,
                    Type::Func(Vec::new(), Box::new(Type::Void)),
                    line,
                ),
                None,
            ),
        };
        self.posts.push(PostSite {
            to,
            callback: ty,
            file: self.file,
            range,
        });
        cb
    }

    /// `worker.reply(x)` (§20.4): the first reply in a receiver fixes its
    /// reply type.
    pub(super) fn worker_reply(
        &mut self,
        worker: Expr,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        if args.len() != 1 {
            self.arity_error(range, "'reply'", "1", args.len());
            return self.error_expr_t(line);
        }
        let arange = args[0].syntax().text_range();
        let key = self.cur_thread;
        let v = match self.reply_types.get(&key).cloned() {
            Some(rt) => {
                let v = self.check_expr(&args[0], Some(&rt));
                self.coerce(v, &rt, arange, Some("the reply"))
            }
            None => {
                let v = self.check_expr(&args[0], None);
                if v.ty != Type::Error {
                    self.check_sendable(&v.ty, arange);
                    self.reply_types.insert(key, v.ty.clone());
                }
                v
            }
        };
        let id = self.native("thread_reply");
        mk(
            ExprKind::CallNative {
                id,
                args: vec![worker, v],
            },
            Type::Void,
            line,
        )
    }

    /// `on request use NAME` (§20.9): main's `on request(req:http?)`
    /// whose body is `NAME.giveRequest(req)`. `None` (reported) when
    /// `NAME` is no thread with an `on request`.
    pub(super) fn request_use_body(&mut self, h: &ast::OnDecl) -> Option<Vec<Stmt>> {
        let target = h.use_target()?;
        let range = target.text_range();
        let line = self.line(range);
        let Some(&tid) = self.thread_names.get(target.text()) else {
            self.error(
                range,
                format!(
                    "'on request use' needs a declared thread, and '{}' is none (§20.9)",
                    target.text()
                ),
            );
            return None;
        };
        if !self.threads[tid as usize].handlers.contains_key("request") {
            self.error(
                range,
                format!("thread '{}' declares no 'on request' handler, so it cannot be given requests (§20.9)", target.text()),
            );
            return None;
        }
        let id = self.native("http_give_request");
        let pool = self.threads[tid as usize].pool;
        let args = vec![
            mk(ExprKind::Int(tid as i64), Type::Int, line),
            mk(ExprKind::Int(if pool { -1 } else { 0 }), Type::Int, line),
            mk(ExprKind::Local(0), Type::Manual(Box::new(Type::Http)), line),
        ];
        Some(vec![expr_stmt(
            mk(ExprKind::CallNative { id, args }, Type::Void, line),
            line,
        )])
    }

    /// `worker.main` (§8.17).
    pub(super) fn worker_main(&mut self, worker: Expr, line: u32) -> Expr {
        let id = self.native("thread_worker_main");
        mk(
            ExprKind::CallNative {
                id,
                args: vec![worker],
            },
            Type::Bool,
            line,
        )
    }

    /// After every body: each post to a receiver that replies chains
    /// `.callback(fn:func[R]:void)`, and no other post does (§20.4).
    pub(super) fn check_posts(&mut self) {
        let posts = std::mem::take(&mut self.posts);
        for p in posts {
            self.file = p.file;
            let who = match p.to {
                Some(t) => format!("thread '{}'", self.threads[t as usize].name),
                None => "the main program".to_string(),
            };
            match (self.reply_types.get(&p.to).cloned(), p.callback) {
                (Some(rt), None) => {
                    let shown = self.show(&rt);
                    self.error(
                        p.range,
                        format!("{who} replies to its messages: this postMessage needs .callback(fn) with fn of type func[{shown}]:void (§20.4)"),
                    );
                }
                (None, Some(_)) => self.error(
                    p.range,
                    format!("'.callback' on a postMessage to {who}, which never replies (§20.4)"),
                ),
                (Some(rt), Some(ct)) => {
                    let want = Type::Func(vec![rt], Box::new(Type::Void));
                    if ct != want && ct != Type::Error {
                        let (w, f) = (self.show(&want), self.show(&ct));
                        self.error(
                            p.range,
                            format!("the callback of a postMessage to {who} must be of type {w}, found {f} (§20.4)"),
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }

    fn error_expr_t(&self, line: u32) -> Expr {
        mk(ExprKind::Null, Type::Error, line)
    }
}

fn expr_stmt(e: Expr, line: u32) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(e),
        line,
    }
}
