//! Event handlers (§11.5), timer callbacks (§12.4) and background loads
//! (§12.5).
//!
//! # Handlers
//! `on NAME(params) { body }` at the top level of any file of the unit is
//! hoisted (§6.6): [`Checker::collect_handlers`] runs with the function
//! passes, turns each handler into a global function named `<on NAME>`
//! and lists it in [`hir::Module::handlers`], which codegen copies to the
//! program's handler table (the VM looks handlers up there, so they are
//! "registered" before any top-level statement runs). Rules:
//! - at most one handler per event name in the top-level context, across
//!   all files;
//! - a known event's parameter types must match its fixed signature
//!   exactly (parameter names are free; `message` takes a sender `thread`
//!   and any message type); `load` exists only inside a thread body;
//! - an unknown event name is accepted and never fires (§11.5);
//! - a handler anywhere but the top level is an error (thread bodies are
//!   not available in this build), as is `on request use POOL`.
//!
//! Handler bodies are checked like function bodies
//! ([`Checker::check_handler_bodies`]): they see every global and return
//! nothing.
//!
//! # Timer callbacks
//! `setTimeout`/`setInterval` take the *bare name* of a declared
//! zero-parameter `void` function ([`Checker::timer_callback`]); a local,
//! a global holding a function value, an arrow or any other expression is
//! a compile error (§11.1.4).
//!
//! # Background loads
//! `path.callback(fn)` on a `text` ([`Checker::text_callback`]) with `fn`
//! of type `func[blob]:void` yields a `blob` (native `blob_load_async`),
//! with `func[img]:void` an `img` (`img_load_async`), with
//! `func[aud]:void` an `aud` (`aud_load_async`); the statement form
//! `blob path.callback(fn)` evaluates it for effect
//! ([`Checker::check_load_stmt`]).

use super::ty::ManualOk;
use super::{Checker, FuncSig, ValueSym};
use crate::ast;
use crate::hir::{self, Expr, ExprKind, Stmt, StmtKind};
use festina_vm::program::EventHandler;
use festina_vm::types::Type;
use rowan::TextRange;

/// The fixed signature of a known event, by name (§11.5): `None` for an
/// unknown event; `Some(None)` for `message`, whose second parameter is
/// the program's own message type.
fn event_signature(name: &str) -> Option<Option<Vec<Type>>> {
    let int2 = || vec![Type::Int, Type::Int];
    Some(Some(match name {
        "mouseDown" | "mouseUp" => vec![Type::Int, Type::Int, Type::Int],
        "mouse" | "mouseWheelUp" | "mouseWheelDown" => int2(),
        "keyDown" | "keyUp" => vec![Type::Text],
        "resize" | "close" | "load" => Vec::new(),
        "exit" => vec![Type::Int],
        "request" => vec![Type::Http],
        "upgrade" | "socketClose" => vec![Type::Socket],
        "socketMessage" => vec![Type::Socket, Type::Blob],
        "message" => return Some(None),
        _ => return None,
    }))
}

impl Checker<'_> {
    /// Hoisting pass (§6.6, §11.5): every top-level `on` declaration of
    /// every file becomes a global function and a handler table entry.
    pub(super) fn collect_handlers(&mut self) {
        for u in self.units {
            self.file = u.file;
            for stmt in u.root.statements() {
                if let ast::Stmt::OnDecl(h) = stmt {
                    self.declare_handler(&h);
                }
            }
        }
    }

    fn declare_handler(&mut self, h: &ast::OnDecl) {
        let range = h.syntax().text_range();
        let Some(name_tok) = h.name() else { return };
        let name = name_tok.text().to_string();
        let mut params = Vec::new();
        if h.use_token().is_some() {
            // §20.9: `on request use NAME` is `on request(req:http?) {
            // NAME.giveRequest(req) }`; the body is made with the others.
            if name != "request" {
                self.error(
                    range,
                    "only 'on request' may be written 'on ... use NAME' (§20.9)",
                );
                return;
            }
            params.push(Type::Manual(Box::new(Type::Http)));
        }
        if let Some(list) = h.param_list() {
            for p in list.params() {
                params.push(match p.ty() {
                    Some(t) => self.resolve_type(&t, ManualOk::Yes),
                    None => Type::Error,
                });
            }
        }
        self.check_event_params(&name, &params, name_tok.text_range(), h);
        if self.module.handlers.iter().any(|x| x.event == name) {
            self.error(
                name_tok.text_range(),
                format!("event '{name}' already has a handler (one per event, §11.5)"),
            );
            return;
        }
        let id = self.module.functions.len() as u32;
        let line = self.line(range);
        self.module.functions.push(hir::Function {
            name: format!("<on {name}>"),
            file: self.file,
            line,
            nparams: params.len() as u32,
            locals: Vec::new(),
            ret: Type::Void,
            body: Vec::new(),
        });
        self.sigs.push(FuncSig {
            name: format!("on {name}"),
            params,
            ret: Type::Void,
        });
        self.func_ids.insert(h.syntax().clone(), id);
        self.module.handlers.push(EventHandler {
            event: name,
            func: id,
        });
    }

    /// Report parameters that do not match a known event's signature.
    pub(super) fn check_event_params(
        &mut self,
        name: &str,
        params: &[Type],
        at: TextRange,
        h: &ast::OnDecl,
    ) {
        if name == "load" && !self.declaring_thread {
            self.error(at, "event 'load' fires only inside a thread body (§11.5)");
            return;
        }
        let Some(sig) = event_signature(name) else {
            return;
        };
        let plain: Vec<Type> = params.iter().map(|t| t.strip_manual().clone()).collect();
        if plain.contains(&Type::Error) {
            return;
        }
        let ok = match &sig {
            Some(expected) => *expected == plain,
            None => plain.len() == 2 && plain[0] == Type::Thread,
        };
        if ok {
            return;
        }
        let expected = match &sig {
            Some(expected) => expected
                .iter()
                .map(|t| self.show(t))
                .collect::<Vec<_>>()
                .join(", "),
            None => "thread, T".to_string(),
        };
        let found = plain
            .iter()
            .map(|t| self.show(t))
            .collect::<Vec<_>>()
            .join(", ");
        let range = h.param_list().map_or(at, |l| l.syntax().text_range());
        self.error(
            range,
            format!("the handler for event '{name}' must take ({expected}), found ({found})"),
        );
    }

    /// The entry function's last statement in a program that declares
    /// any of the nine window events (§17.2: the window then exists once
    /// the entry function finishes): the native `window_events`, which
    /// opens it. `None` for any other program.
    pub(super) fn window_events_stmt(&mut self) -> Option<Stmt> {
        let wanted =
            self.module.handlers.iter().any(|h| {
                festina_signatures::tables::window::WINDOW_EVENTS.contains(&h.event.as_str())
            });
        if !wanted {
            return None;
        }
        let id = self.native("window_events");
        Some(Stmt {
            kind: StmtKind::Expr(Expr {
                kind: ExprKind::CallNative { id, args: vec![] },
                ty: Type::Void,
                line: 1,
            }),
            line: 1,
        })
    }

    /// Check the bodies of the handlers collected by
    /// [`Checker::collect_handlers`].
    pub(super) fn check_handler_bodies(&mut self) {
        for u in self.units {
            self.file = u.file;
            for stmt in u.root.statements() {
                let ast::Stmt::OnDecl(h) = stmt else { continue };
                let Some(&id) = self.func_ids.get(h.syntax()) else {
                    continue;
                };
                self.check_handler(&h, id);
            }
        }
    }

    pub(super) fn check_handler(&mut self, h: &ast::OnDecl, id: u32) {
        if h.use_token().is_some() {
            let body = self.request_use_body(h).unwrap_or_default();
            let func = &mut self.module.functions[id as usize];
            func.locals = vec![hir::Local {
                name: "req".to_string(),
                ty: Type::Manual(Box::new(Type::Http)),
            }];
            func.body = body;
            self.body_done(id);
            return;
        }
        let sig = self.sigs[id as usize].clone();
        self.begin_body(Type::Void, h.param_list(), &sig.params);
        let body = match h.body() {
            Some(b) => self.check_stmts(&b),
            None => Vec::new(),
        };
        self.pop_scope();
        let func = &mut self.module.functions[id as usize];
        func.locals = std::mem::take(&mut self.fs.locals);
        func.body = body;
        self.body_done(id);
    }

    /// An `on` declaration met as a statement: at the top level it was
    /// hoisted (nothing to run); anywhere else it is an error.
    pub(super) fn check_on_stmt(&mut self, h: &ast::OnDecl) {
        if !(self.fs.top_level && self.fs.scopes.len() <= 1) {
            self.error(
                h.syntax().text_range(),
                "event handlers must be declared at the top level (§11.5)",
            );
        }
    }

    /// Argument `index` of timer builtin `builtin`: the bare name of a
    /// declared zero-parameter void function (§12.4), as a function value.
    pub(super) fn timer_callback(&mut self, a: &ast::Expr, builtin: &str, index: usize) -> Expr {
        let range = a.syntax().text_range();
        let line = self.line(range);
        let what = format!("argument {} of '{builtin}'", index + 1);
        let func = match a {
            ast::Expr::NameRef(n) => n.token().and_then(|tok| {
                let name = tok.text().to_string();
                if self.lookup_local(&name).is_some() {
                    return None;
                }
                match self.lookup_value(&name) {
                    Some(ValueSym::Func(f)) => Some(f),
                    _ => None,
                }
            }),
            _ => None,
        };
        let Some(f) = func else {
            // Check the expression for its own mistakes first: an unknown
            // name is reported once, as such.
            let v = self.check_expr(a, None);
            if v.ty != Type::Error {
                self.error(
                    range,
                    format!("{what} must be the name of a declared function (§12.4)"),
                );
            }
            return mk(ExprKind::Null, Type::Error, line);
        };
        let sig = &self.sigs[f as usize];
        if !sig.params.is_empty() || sig.ret != Type::Void {
            let name = sig.name.clone();
            self.error(
                range,
                format!(
                    "{what}: function '{name}' must take no parameters and return nothing (§12.4)"
                ),
            );
        }
        mk(
            ExprKind::FuncRef(f),
            Type::Func(Vec::new(), Box::new(Type::Void)),
            line,
        )
    }

    /// `path.callback(fn)` on a text receiver (§12.5): `fn` decides what
    /// is loaded: `func[blob]:void` a blob, `func[img]:void` an image,
    /// `func[aud]:void` a clip.
    pub(super) fn text_callback(
        &mut self,
        path: Expr,
        args: &[ast::Expr],
        range: TextRange,
        line: u32,
    ) -> Expr {
        if args.len() != 1 {
            self.arity_error(range, "'callback'", "1", args.len());
            return mk(ExprKind::Null, Type::Error, line);
        }
        let arange = args[0].syntax().text_range();
        let f = self.check_expr(&args[0], None);
        let param = match f.ty.strip_manual() {
            Type::Func(ps, ret) if ps.len() == 1 && **ret == Type::Void => {
                Some(ps[0].strip_manual().clone())
            }
            Type::Error => return mk(ExprKind::Null, Type::Error, line),
            _ => None,
        };
        match param {
            Some(ty @ (Type::Blob | Type::Img | Type::Aud)) => {
                let native = match ty {
                    Type::Blob => "blob_load_async",
                    Type::Img => "img_load_async",
                    _ => "aud_load_async",
                };
                let id = self.native(native);
                mk(
                    ExprKind::CallNative {
                        id,
                        args: vec![path, f],
                    },
                    ty,
                    line,
                )
            }
            _ => {
                let shown = self.show(&f.ty);
                self.error(
                    arange,
                    format!("'callback' needs a function of type func[blob]:void, func[img]:void or func[aud]:void, found {shown} (§12.5)"),
                );
                mk(ExprKind::Null, Type::Error, line)
            }
        }
    }

    /// `blob path.callback(fn)` (§10.3): an anonymous background load,
    /// evaluated for effect; the keyword must match what `fn` loads.
    pub(super) fn check_load_stmt(&mut self, l: &ast::LoadStmt, line: u32) -> Option<Stmt> {
        let range = l.syntax().text_range();
        let kw = l.kind_token()?;
        let want = match kw.text() {
            "blob" => Type::Blob,
            "img" => Type::Img,
            _ => Type::Aud,
        };
        let e = l.expr()?;
        let is_callback = matches!(&e, ast::Expr::Call(c)
            if matches!(c.callee(), Some(ast::Expr::Field(f))
                if f.name().is_some_and(|n| n.text() == "callback")));
        if !is_callback {
            self.error(
                range,
                format!(
                    "a '{}' statement must be a background load: {} path.callback(fn) (§10.3)",
                    kw.text(),
                    kw.text()
                ),
            );
            return None;
        }
        let v = self.check_expr(&e, None);
        if v.ty != want && v.ty != Type::Error {
            let shown = self.show(&v.ty);
            self.error(
                range,
                format!("this statement loads a {shown}, not a {}", kw.text()),
            );
        }
        Some(Stmt {
            kind: StmtKind::Expr(v),
            line,
        })
    }
}

fn mk(kind: ExprKind, ty: Type, line: u32) -> Expr {
    Expr { kind, ty, line }
}
