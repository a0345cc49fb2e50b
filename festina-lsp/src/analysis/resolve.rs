//! Name resolution and typing of one file within its unit (see the module
//! documentation of `analysis`).

use super::builtins::{self, Builtin};
use super::outline::{params, return_type, token, type_child};
use super::ty::{is_type_node, Ty};
use super::{Def, DefKey, DefKind, Unit};
use festina_compiler::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};
use festina_signatures::{Shape, BUILTINS, MATH, MATH_CONSTANTS, METHODS, PROPERTIES, VALUES};
use rowan::{NodeOrToken, TextRange, TextSize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use SyntaxKind::*;

/// What a name use denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A declaration of the program.
    Def(DefKey),
    /// A builtin.
    Builtin(Builtin),
    /// A file (an import's path).
    File(PathBuf),
}

/// One name use (or declaration) in the file.
#[derive(Clone, Debug)]
pub struct Ref {
    /// The range of the name.
    pub range: TextRange,
    /// What it denotes.
    pub target: Target,
    /// True at the declaration itself.
    pub decl: bool,
    /// The value's type at this place, when it differs from the
    /// declaration's (a `match` arm narrows an enum to its member).
    pub narrowed: Option<Ty>,
}

/// What a `.` is applied to, for completion after it.
#[derive(Clone, Debug)]
pub enum Receiver {
    /// A value of this type.
    Value(Ty),
    /// The `Math` namespace.
    Math,
    /// The `environment` namespace.
    Environment,
}

/// A place right after a `.`.
#[derive(Clone, Debug)]
pub struct MemberSite {
    /// Offset just after the `.`.
    pub dot_end: u32,
    /// What is before the `.`.
    pub receiver: Receiver,
}

/// One file's names resolved.
#[derive(Default)]
pub struct Resolved {
    /// Every name use and declaration, by position.
    pub refs: Vec<Ref>,
    /// The file's locals and parameters, with where each is visible.
    pub locals: HashMap<DefKey, Def>,
    /// Every `.` with its receiver.
    pub members: Vec<MemberSite>,
}

impl Resolved {
    /// The name use or declaration at `offset` (touching either end).
    pub fn at(&self, offset: u32) -> Option<&Ref> {
        let at = TextSize::from(offset);
        let i = self.refs.partition_point(|r| r.range.end() < at);
        self.refs[i..]
            .iter()
            .take_while(|r| r.range.start() <= at)
            .find(|r| r.range.contains_inclusive(at))
    }
}

/// A name in scope.
struct Binding {
    name: String,
    key: DefKey,
    ty: Ty,
    narrowed: bool,
}

/// A block (or parameter list) scope.
struct Scope {
    /// Where the scope ends.
    end: TextSize,
    names: Vec<Binding>,
}

struct Resolver<'u> {
    unit: &'u Unit,
    file: Rc<Path>,
    scopes: Vec<Scope>,
    /// The return type of the function being walked.
    ret: Option<Ty>,
    out: Resolved,
}

/// Resolves the names of `file` (a file of `unit`).
pub fn resolve(unit: &Unit, file: &super::FileData) -> Resolved {
    let mut r = Resolver {
        unit,
        file: file.path.clone(),
        scopes: Vec::new(),
        ret: None,
        out: Resolved::default(),
    };
    let root = file.root();
    r.push_scope(root.text_range().end());
    for child in root.children() {
        r.stmt(&child);
    }
    r.pop_scope();
    r.out.refs.sort_by_key(|x| (x.range.start(), x.range.end()));
    r.out.members.sort_by_key(|m| m.dot_end);
    r.out
}

/// True for the kinds of expression nodes.
fn is_expr(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        LITERAL
            | TEMPLATE
            | REGEX_LIT
            | NAME_REF
            | PAREN_EXPR
            | ARRAY_LIT
            | MAP_LIT
            | ARROW_FUNC
            | FIELD_EXPR
            | INDEX_EXPR
            | CALL_EXPR
            | POSTFIX_EXPR
            | PREFIX_EXPR
            | BIN_EXPR
            | TERNARY_EXPR
            | ASSIGN_EXPR
            | TYPE_ARG
    )
}

/// The significant tokens that are direct children of `node`.
fn tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .filter(|t| !t.kind().is_trivia() && t.kind() != NEWLINE)
}

/// The expression children of `node`.
fn exprs(node: &SyntaxNode) -> impl Iterator<Item = SyntaxNode> {
    node.children().filter(|c| is_expr(c.kind()))
}

/// The member name of a `FIELD_EXPR` (the token after the `.`).
fn member_name(node: &SyntaxNode) -> Option<SyntaxToken> {
    let mut after_dot = false;
    for t in tokens(node) {
        if after_dot && (t.kind() == IDENT || t.kind().is_keyword()) {
            return Some(t);
        }
        after_dot = t.kind() == DOT;
    }
    None
}

/// The `.` of a `FIELD_EXPR`.
fn dot(node: &SyntaxNode) -> Option<SyntaxToken> {
    token(node, DOT)
}

/// The name of a `NAME_REF`.
fn name_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    tokens(node).next()
}

impl Resolver<'_> {
    // ---- scopes ----

    fn push_scope(&mut self, end: TextSize) {
        self.scopes.push(Scope {
            end,
            names: Vec::new(),
        });
    }

    fn pop_scope(&mut self) {
        let Some(scope) = self.scopes.pop() else {
            return;
        };
        for b in scope.names {
            if b.narrowed {
                continue;
            }
            if let Some(def) = self.out.locals.get_mut(&b.key) {
                let from = def.visible.map_or(def.name_range.end(), |v| v.start());
                let start = from.min(scope.end);
                def.visible = Some(TextRange::new(start, scope.end));
            }
        }
    }

    /// Walks `f` with no enclosing locals (a function or arrow body: no
    /// closures).
    fn fresh_scopes<T>(&mut self, end: TextSize, ret: Ty, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::take(&mut self.scopes);
        let saved_ret = self.ret.replace(ret);
        self.push_scope(end);
        let result = f(self);
        self.pop_scope();
        self.scopes = saved;
        self.ret = saved_ret;
        result
    }

    fn key(&self, name: &SyntaxToken) -> DefKey {
        DefKey {
            file: self.file.clone(),
            at: name.text_range().start().into(),
        }
    }

    /// Declares a local (or parameter) named by `name` in the innermost
    /// scope, visible from `from` to the end of the scope.
    fn declare(&mut self, name: &SyntaxToken, ty: Ty, kind: DefKind, from: TextSize) {
        let key = self.key(name);
        let detail = match kind {
            DefKind::Param => format!("{}:{ty}", name.text()),
            _ => format!("{ty} {}", name.text()),
        };
        self.out.locals.insert(
            key.clone(),
            Def {
                key: key.clone(),
                kind,
                name: name.text().to_string(),
                name_range: name.text_range(),
                ty: ty.clone(),
                detail,
                owner: None,
                members: Vec::new(),
                visible: Some(TextRange::empty(from)),
            },
        );
        self.reference(name.text_range(), Target::Def(key.clone()), true);
        if let Some(scope) = self.scopes.last_mut() {
            scope.names.push(Binding {
                name: name.text().to_string(),
                key,
                ty,
                narrowed: false,
            });
        }
    }

    fn reference(&mut self, range: TextRange, target: Target, decl: bool) {
        self.out.refs.push(Ref {
            range,
            target,
            decl,
            narrowed: None,
        });
    }

    /// Records the declaration of a unit-level name (already in the
    /// unit's outline) at its own name.
    fn declaration(&mut self, name: &SyntaxToken) {
        let key = self.key(name);
        if self.unit.defs.contains_key(&key) {
            self.reference(name.text_range(), Target::Def(key), true);
        }
    }

    /// What `name` denotes here: a local, then a unit-level value.
    fn lookup(&self, name: &str) -> Option<(DefKey, Ty, bool)> {
        for scope in self.scopes.iter().rev() {
            if let Some(b) = scope.names.iter().rev().find(|b| b.name == name) {
                return Some((b.key.clone(), b.ty.clone(), b.narrowed));
            }
        }
        let key = self.unit.values.get(name)?;
        let def = self.unit.defs.get(key)?;
        Some((key.clone(), def.ty.clone(), false))
    }

    // ---- types ----

    /// The type written by the type node `node`, recording the struct,
    /// table and enum names in it.
    fn type_node(&mut self, node: &SyntaxNode) -> Ty {
        // (`descendants` starts with the node itself.)
        for named in node.descendants().filter(|n| n.kind() == NAMED_TYPE) {
            if let Some(t) = tokens(&named).find(|t| t.kind() == IDENT) {
                if let Some(key) = self.unit.types.get(t.text()).cloned() {
                    self.reference(t.text_range(), Target::Def(key), false);
                }
            }
        }
        Ty::from_syntax(node)
    }

    /// The type written as the direct type child of `node`.
    fn type_of_child(&mut self, node: &SyntaxNode) -> Ty {
        match type_child(node) {
            Some(t) => self.type_node(&t),
            None => Ty::Unknown,
        }
    }

    // ---- statements ----

    fn stmt(&mut self, n: &SyntaxNode) {
        match n.kind() {
            VAR_DECL => self.var_decl(n),
            FUNC_DECL => self.func_decl(n),
            ON_DECL => {
                let list = n.children().find(|c| c.kind() == PARAM_LIST);
                let body = n.children().find(|c| c.kind() == BLOCK);
                self.fresh_scopes(n.text_range().end(), Ty::Void, |r| {
                    if let Some(list) = &list {
                        r.params(list);
                    }
                    if let Some(body) = &body {
                        r.block(body);
                    }
                });
            }
            STRUCT_DECL | TABLE_DECL => {
                if let Some(name) = token(n, IDENT) {
                    self.declaration(&name);
                }
                for field in n.children().filter(|c| c.kind() == FIELD_DECL) {
                    if let Some(name) = tokens(&field).find(|t| t.kind() == IDENT) {
                        self.declaration(&name);
                    }
                    self.type_of_child(&field);
                }
            }
            ENUM_DECL => {
                if let Some(name) = token(n, IDENT) {
                    self.declaration(&name);
                }
                for t in n.children().filter(|c| is_type_node(c.kind())) {
                    self.type_node(&t);
                }
            }
            TEST_DECL => {
                if let Some(name) = tokens(n).filter(|t| t.kind() == IDENT).nth(1) {
                    self.declaration(&name);
                }
                for e in exprs(n) {
                    self.expr(&e, None);
                }
            }
            IMPORT_DECL => {
                if let Some(path) = token(n, IMPORT_PATH) {
                    let file = self.unit.file(&self.file).and_then(|f| {
                        f.outline
                            .imports
                            .iter()
                            .find(|i| i.range == path.text_range())
                            .and_then(|i| i.target.clone())
                    });
                    if let Some(target) = file {
                        self.reference(path.text_range(), Target::File(target), false);
                    }
                }
            }
            BLOCK => self.block(n),
            FOR_STMT => {
                self.push_scope(n.text_range().end());
                for c in n.children() {
                    match c.kind() {
                        BLOCK => self.block(&c),
                        _ => self.any(&c),
                    }
                }
                self.pop_scope();
            }
            MATCH_STMT => self.match_stmt(n),
            TRY_STMT => self.try_stmt(n),
            RETURN_STMT => {
                let ret = self.ret.clone();
                for e in exprs(n) {
                    self.expr(&e, ret.as_ref());
                }
            }
            _ => {
                for c in n.children() {
                    self.any(&c);
                }
            }
        }
    }

    /// A node of any kind: an expression, a statement, a type, or
    /// anything else (an error node), whose children are walked.
    fn any(&mut self, n: &SyntaxNode) {
        let kind = n.kind();
        if is_expr(kind) {
            self.expr(n, None);
        } else if is_type_node(kind) {
            self.type_node(n);
        } else {
            self.stmt(n);
        }
    }

    fn block(&mut self, b: &SyntaxNode) {
        self.push_scope(b.text_range().end());
        for c in b.children() {
            self.stmt(&c);
        }
        self.pop_scope();
    }

    fn var_decl(&mut self, n: &SyntaxNode) {
        let ty = self.type_of_child(n);
        for e in exprs(n) {
            self.expr(&e, Some(&ty));
        }
        let Some(name) = token(n, IDENT) else { return };
        if n.parent().is_some_and(|p| p.kind() == SOURCE_FILE) {
            self.declaration(&name);
        } else {
            self.declare(&name, ty, DefKind::Local, n.text_range().end());
        }
    }

    fn func_decl(&mut self, n: &SyntaxNode) {
        if let Some(name) = token(n, IDENT) {
            self.declaration(&name);
        }
        self.type_of_child(n);
        let ret = return_type(n);
        let list = n.children().find(|c| c.kind() == PARAM_LIST);
        let body = n.children().find(|c| c.kind() == BLOCK);
        self.fresh_scopes(n.text_range().end(), ret, |r| {
            if let Some(list) = &list {
                r.params(list);
            }
            if let Some(body) = &body {
                r.block(body);
            }
        });
    }

    /// Declares the parameters of a `PARAM_LIST` in the innermost scope.
    fn params(&mut self, list: &SyntaxNode) {
        for p in list.children().filter(|p| p.kind() == PARAM) {
            self.type_of_child(&p);
        }
        for (name, ty) in params(list) {
            let from = name.text_range().end();
            self.declare(&name, ty, DefKind::Param, from);
        }
    }

    fn match_stmt(&mut self, n: &SyntaxNode) {
        let subject = exprs(n).next();
        let subject_ty = subject.as_ref().map_or(Ty::Unknown, |s| self.expr(s, None));
        // `match s` (or `match (s)`) narrows `s` in each arm.
        let mut name = subject.clone();
        while let Some(s) = name.clone().filter(|s| s.kind() == PAREN_EXPR) {
            name = exprs(&s).next();
        }
        let subject_name = name
            .filter(|s| s.kind() == NAME_REF)
            .and_then(|s| name_token(&s))
            .and_then(|t| {
                self.lookup(t.text())
                    .map(|(k, _, _)| (t.text().to_string(), k))
            });
        for arm in n.children().filter(|c| c.kind() == MATCH_ARM) {
            let tag = token(&arm, STRING).map(|t| {
                let text = t.text();
                let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
                (t.text_range(), inner.to_string())
            });
            self.push_scope(arm.text_range().end());
            if let Some((range, tag)) = &tag {
                if let Some(key) = self.unit.types.get(tag).cloned() {
                    self.reference(*range, Target::Def(key), false);
                    if let (Some((name, key)), true) = (&subject_name, subject_ty != Ty::Unknown) {
                        if let Some(scope) = self.scopes.last_mut() {
                            scope.names.push(Binding {
                                name: name.clone(),
                                key: key.clone(),
                                ty: Ty::Named(tag.clone()),
                                narrowed: true,
                            });
                        }
                    }
                }
            }
            if let Some(body) = arm.children().find(|c| c.kind() == BLOCK) {
                self.block(&body);
            }
            self.pop_scope();
        }
    }

    fn try_stmt(&mut self, n: &SyntaxNode) {
        let mut after_catch = false;
        let mut caught: Option<(SyntaxToken, Ty)> = None;
        for e in n.children_with_tokens() {
            match e {
                NodeOrToken::Token(t) if t.kind() == CATCH_KW => after_catch = true,
                NodeOrToken::Token(t) if after_catch && t.kind() == IDENT && caught.is_none() => {
                    caught = Some((t, Ty::Unknown));
                }
                NodeOrToken::Node(c) if is_type_node(c.kind()) => {
                    let ty = self.type_node(&c);
                    if let Some((_, t)) = &mut caught {
                        *t = ty;
                    }
                }
                NodeOrToken::Node(c) if c.kind() == BLOCK => {
                    if after_catch {
                        self.push_scope(c.text_range().end());
                        if let Some((name, ty)) = caught.take() {
                            let from = name.text_range().end();
                            self.declare(&name, ty, DefKind::Param, from);
                        }
                        self.block(&c);
                        self.pop_scope();
                    } else {
                        self.block(&c);
                    }
                }
                NodeOrToken::Node(c) => self.any(&c),
                NodeOrToken::Token(_) => {}
            }
        }
    }

    // ---- expressions ----

    /// Resolves the names in the expression `n` and gives its type;
    /// `expected` is the type the context wants (it types `{...}` as a
    /// struct literal).
    fn expr(&mut self, n: &SyntaxNode, expected: Option<&Ty>) -> Ty {
        match n.kind() {
            LITERAL => match tokens(n).next().map(|t| t.kind()) {
                Some(INT_NUMBER) => Ty::Scalar("int"),
                Some(FLOAT_NUMBER) => Ty::Scalar("float"),
                Some(STRING) => match expected.map(Ty::strip_manual) {
                    Some(Ty::Scalar("ascii")) => Ty::Scalar("ascii"),
                    _ => Ty::Scalar("text"),
                },
                Some(TRUE_KW | FALSE_KW) => Ty::Scalar("bool"),
                Some(NULL_KW) => expected.cloned().unwrap_or(Ty::Null),
                _ => Ty::Unknown,
            },
            TEMPLATE => {
                for sub in n.children().filter(|c| c.kind() == TEMPLATE_SUBST) {
                    for e in exprs(&sub) {
                        self.expr(&e, None);
                    }
                }
                Ty::Scalar("text")
            }
            REGEX_LIT => Ty::Scalar("regex"),
            NAME_REF => self.name_ref(n),
            PAREN_EXPR => match exprs(n).next() {
                Some(e) => self.expr(&e, expected),
                None => Ty::Unknown,
            },
            ARRAY_LIT => {
                let elem = expected.map(Ty::element);
                let mut first = None;
                for e in exprs(n) {
                    let t = self.expr(&e, elem.as_ref());
                    first.get_or_insert(t);
                }
                match expected {
                    Some(t) => t.clone(),
                    None => Ty::Arr(Box::new(first.unwrap_or(Ty::Unknown))),
                }
            }
            MAP_LIT => self.map_lit(n, expected),
            ARROW_FUNC => {
                self.type_of_child(n);
                let ret = return_type(n);
                let list = n.children().find(|c| c.kind() == PARAM_LIST);
                let body = exprs(n).last();
                let param_tys = list
                    .as_ref()
                    .map(|l| params(l).into_iter().map(|p| p.1).collect())
                    .unwrap_or_default();
                self.fresh_scopes(n.text_range().end(), ret.clone(), |r| {
                    if let Some(list) = &list {
                        r.params(list);
                    }
                    if let Some(body) = &body {
                        r.expr(body, Some(&ret));
                    }
                });
                Ty::Func(param_tys, Box::new(ret))
            }
            FIELD_EXPR => self.field_expr(n),
            CALL_EXPR => self.call(n),
            INDEX_EXPR => {
                let mut parts = exprs(n);
                let base = parts.next();
                let index = parts.next();
                let env = base
                    .as_ref()
                    .is_some_and(|b| self.is_namespace(b, "environment"));
                let base_ty = match &base {
                    Some(b) if env => {
                        self.name_ref(b);
                        Ty::Unknown
                    }
                    Some(b) => self.expr(b, None),
                    None => Ty::Unknown,
                };
                if let Some(i) = index {
                    self.expr(&i, None);
                }
                if env {
                    Ty::Scalar("text")
                } else {
                    base_ty.element()
                }
            }
            POSTFIX_EXPR => {
                for e in exprs(n) {
                    self.expr(&e, None);
                }
                Ty::Scalar("int")
            }
            PREFIX_EXPR => {
                let op = tokens(n).next().map(|t| t.kind());
                let operand = exprs(n).next().map(|e| self.expr(&e, None));
                match op {
                    Some(BANG) => Ty::Scalar("bool"),
                    Some(TYPEOF_KW) => Ty::Scalar("text"),
                    _ => operand.unwrap_or(Ty::Unknown),
                }
            }
            BIN_EXPR => {
                let sides: Vec<SyntaxNode> = exprs(n).collect();
                let tys: Vec<Ty> = sides.iter().map(|e| self.expr(e, None)).collect();
                let op = tokens(n)
                    .find(|t| t.kind().is_binary_op())
                    .map(|t| t.kind());
                binary_type(op, &tys)
            }
            TERNARY_EXPR => {
                let parts: Vec<SyntaxNode> = exprs(n).collect();
                let mut result = Ty::Unknown;
                for (i, e) in parts.iter().enumerate() {
                    let t = self.expr(e, if i == 0 { None } else { expected });
                    if i > 0 && matches!(result, Ty::Unknown | Ty::Null) {
                        result = t;
                    }
                }
                result
            }
            ASSIGN_EXPR => {
                let parts: Vec<SyntaxNode> = exprs(n).collect();
                let target = parts.first().map_or(Ty::Unknown, |e| self.expr(e, None));
                for e in parts.iter().skip(1) {
                    self.expr(e, Some(&target));
                }
                target
            }
            TYPE_ARG => self.type_of_child(n),
            _ => {
                self.any(n);
                Ty::Unknown
            }
        }
    }

    /// True when `node` is the bare name `name` of a builtin namespace
    /// that no declaration shadows.
    fn is_namespace(&self, node: &SyntaxNode, name: &str) -> bool {
        node.kind() == NAME_REF
            && name_token(node).is_some_and(|t| t.text() == name)
            && self.lookup(name).is_none()
    }

    fn name_ref(&mut self, n: &SyntaxNode) -> Ty {
        let Some(name) = name_token(n) else {
            return Ty::Unknown;
        };
        if let Some((key, ty, narrowed)) = self.lookup(name.text()) {
            self.out.refs.push(Ref {
                range: name.text_range(),
                target: Target::Def(key),
                decl: false,
                narrowed: narrowed.then(|| ty.clone()),
            });
            return ty;
        }
        if let Some(b) = builtins::global(name.text()) {
            self.reference(name.text_range(), Target::Builtin(b), false);
            if name.text() == "argv" {
                return Ty::Arr(Box::new(Ty::Scalar("text")));
            }
            if let Builtin::Value(v) = b {
                if let Some(entry) = VALUES.iter().find(|e| e.name == v) {
                    return Ty::of_shape(entry.ret, &Ty::Unknown, &Ty::Unknown);
                }
            }
        }
        Ty::Unknown
    }

    fn member_site(&mut self, field: &SyntaxNode, receiver: Receiver) {
        if let Some(dot) = dot(field) {
            self.out.members.push(MemberSite {
                dot_end: dot.text_range().end().into(),
                receiver,
            });
        }
    }

    /// `recv.name` read as a value (not called).
    fn field_expr(&mut self, n: &SyntaxNode) -> Ty {
        let Some(recv) = exprs(n).next() else {
            return Ty::Unknown;
        };
        let name = member_name(n);
        if self.is_namespace(&recv, "Math") {
            self.name_ref(&recv);
            self.member_site(n, Receiver::Math);
            if let Some(name) = &name {
                if let Some(b) = builtins::math(name.text()) {
                    self.reference(name.text_range(), Target::Builtin(b), false);
                    if MATH_CONSTANTS.iter().any(|c| c.0 == name.text()) {
                        return Ty::Scalar("float");
                    }
                }
            }
            return Ty::Unknown;
        }
        if self.is_namespace(&recv, "environment") {
            self.name_ref(&recv);
            self.member_site(n, Receiver::Environment);
            return Ty::Scalar("text");
        }
        let recv_ty = self.expr(&recv, None);
        self.member_site(n, Receiver::Value(recv_ty.clone()));
        let Some(name) = name else {
            return Ty::Unknown;
        };
        self.member(&recv_ty, &name).0
    }

    /// The member `name` of a value of type `recv_ty`: a field (its type)
    /// or a builtin method or property (the property's type); records
    /// the reference. Also gives the method's result type, if it is one.
    fn member(&mut self, recv_ty: &Ty, name: &SyntaxToken) -> (Ty, Option<Builtin>) {
        if let Some(field) = self.unit.field(recv_ty, name.text()) {
            let (key, ty) = (field.key.clone(), field.ty.clone());
            self.reference(name.text_range(), Target::Def(key), false);
            return (ty, None);
        }
        if name.text() == "rowid" {
            return (Ty::Scalar("int"), None);
        }
        let recvs = recv_ty.receivers(|n| self.unit.is_record(n));
        let Some(b) = builtins::member(&recvs, name.text()) else {
            return (Ty::Unknown, None);
        };
        self.reference(name.text_range(), Target::Builtin(b), false);
        let Builtin::Member(recv, member) = b else {
            return (Ty::Unknown, None);
        };
        let prop = PROPERTIES
            .iter()
            .find(|p| p.recv == recv && p.name == member)
            .map(|p| Ty::of_shape(p.ret, recv_ty, &Ty::Unknown));
        (prop.unwrap_or(Ty::Unknown), Some(b))
    }

    fn call(&mut self, n: &SyntaxNode) -> Ty {
        let Some(callee) = exprs(n).next() else {
            return Ty::Unknown;
        };
        let args: Vec<SyntaxNode> = n
            .children()
            .find(|c| c.kind() == ARG_LIST)
            .map(|l| exprs(&l).collect())
            .unwrap_or_default();
        let (ret, param_tys) = match callee.kind() {
            FIELD_EXPR => self.method_call(&callee, &args),
            NAME_REF => {
                let ty = self.name_ref(&callee);
                let name = name_token(&callee).map(|t| t.text().to_string());
                match ty {
                    Ty::Func(params, ret) => (*ret, params),
                    _ => match name.as_deref().and_then(builtins::global) {
                        Some(Builtin::Global(b)) => {
                            let entry = BUILTINS
                                .iter()
                                .find(|f| f.name == b && f.params.len() == args.len())
                                .or_else(|| BUILTINS.iter().find(|f| f.name == b));
                            let ret = entry.map_or(Ty::Unknown, |f| {
                                Ty::of_shape(f.ret, &Ty::Unknown, &Ty::Unknown)
                            });
                            (ret, Vec::new())
                        }
                        _ => (Ty::Unknown, Vec::new()),
                    },
                }
            }
            _ => match self.expr(&callee, None) {
                Ty::Func(params, ret) => (*ret, params),
                _ => (Ty::Unknown, Vec::new()),
            },
        };
        for (i, a) in args.iter().enumerate() {
            // A type argument is walked by `method_call`.
            if a.kind() == TYPE_ARG && callee.kind() == FIELD_EXPR {
                continue;
            }
            self.expr(a, param_tys.get(i));
        }
        ret
    }

    /// `recv.name(args)`: gives the result type and the parameter types.
    fn method_call(&mut self, callee: &SyntaxNode, args: &[SyntaxNode]) -> (Ty, Vec<Ty>) {
        let Some(recv) = exprs(callee).next() else {
            return (Ty::Unknown, Vec::new());
        };
        let name = member_name(callee);
        if self.is_namespace(&recv, "Math") {
            self.name_ref(&recv);
            self.member_site(callee, Receiver::Math);
            let Some(name) = name else {
                return (Ty::Unknown, Vec::new());
            };
            if let Some(b) = builtins::math(name.text()) {
                self.reference(name.text_range(), Target::Builtin(b), false);
            }
            let ret = MATH
                .iter()
                .find(|f| f.name == name.text())
                .map_or(Ty::Unknown, |f| {
                    Ty::of_shape(f.ret, &Ty::Unknown, &Ty::Unknown)
                });
            return (ret, Vec::new());
        }
        let recv_ty = self.expr(&recv, None);
        self.member_site(callee, Receiver::Value(recv_ty.clone()));
        let Some(name) = name else {
            return (Ty::Unknown, Vec::new());
        };
        let (ty, builtin) = self.member(&recv_ty, &name);
        if let Ty::Func(params, ret) = ty {
            return (*ret, params); // a field holding a function
        }
        let Some(Builtin::Member(recv, member)) = builtin else {
            return (Ty::Unknown, Vec::new());
        };
        let entry = METHODS
            .iter()
            .filter(|m| m.recv == recv && m.name == member)
            .find(|m| m.params.len() == args.len())
            .or_else(|| METHODS.iter().find(|m| m.recv == recv && m.name == member));
        let Some(entry) = entry else {
            return (Ty::Unknown, Vec::new());
        };
        // `toStruct(T)`, `toArr(T)`: the first argument is a type.
        let mut type_arg = Ty::Unknown;
        if matches!(
            entry.params.first(),
            Some(Shape::TypeArg | Shape::StructTypeArg)
        ) {
            if let Some(a) = args.first() {
                type_arg = match a.kind() {
                    NAME_REF => {
                        let t = name_token(a);
                        if let Some(t) = &t {
                            if let Some(key) = self.unit.types.get(t.text()).cloned() {
                                self.reference(t.text_range(), Target::Def(key), false);
                            }
                        }
                        t.map_or(Ty::Unknown, |t| Ty::scalar(t.text()))
                    }
                    TYPE_ARG => self.type_of_child(a),
                    _ => Ty::Unknown,
                };
            }
        }
        let params = entry
            .params
            .iter()
            .map(|&s| Ty::of_shape(s, &recv_ty, &type_arg))
            .collect();
        (Ty::of_shape(entry.ret, &recv_ty, &type_arg), params)
    }

    /// `{...}`: a struct literal when the context wants a struct or table
    /// (its keys are the fields), else a map literal.
    fn map_lit(&mut self, n: &SyntaxNode, expected: Option<&Ty>) -> Ty {
        let record = expected
            .map(Ty::strip_manual)
            .filter(|t| matches!(t, Ty::Named(name) if self.unit.is_record(name)))
            .cloned();
        let mut value_ty = None;
        for entry in n.children().filter(|c| c.kind() == MAP_ENTRY) {
            let parts: Vec<SyntaxNode> = exprs(&entry).collect();
            if parts.is_empty() {
                // `{ name }`: the variable `name`.
                if let Some(t) = tokens(&entry).find(|t| t.kind() == IDENT) {
                    if let Some((key, ..)) = self.lookup(t.text()) {
                        self.reference(t.text_range(), Target::Def(key), false);
                    }
                }
                continue;
            }
            let mut field_ty = None;
            if let (Some(record), Some(key)) = (&record, parts.first()) {
                let literal = tokens(key).next().filter(|t| t.kind() == STRING);
                if let Some(lit) = literal {
                    let text = lit.text();
                    let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
                    if let Some(field) = self.unit.field(record, inner) {
                        let (fkey, fty) = (field.key.clone(), field.ty.clone());
                        self.reference(lit.text_range(), Target::Def(fkey), false);
                        field_ty = Some(fty);
                    }
                }
            } else if let Some(key) = parts.first() {
                self.expr(key, None);
            }
            let want = field_ty.or_else(|| expected.map(Ty::element));
            for v in parts.iter().skip(1) {
                let t = self.expr(v, want.as_ref());
                value_ty.get_or_insert(t);
            }
        }
        match (record, expected) {
            (Some(r), _) => r,
            (None, Some(t)) => t.clone(),
            (None, None) => Ty::Map(Box::new(value_ty.unwrap_or(Ty::Unknown))),
        }
    }
}

/// The type of a binary expression from its operator and operand types.
fn binary_type(op: Option<SyntaxKind>, tys: &[Ty]) -> Ty {
    let is = |name: &str| {
        tys.iter()
            .any(|t| matches!(t.strip_manual(), Ty::Scalar(s) if *s == name))
    };
    match op {
        Some(EQ2 | NEQ | EQ3 | NEQ2 | LT | GT | LTEQ | GTEQ | AMP2 | PIPE2) => Ty::Scalar("bool"),
        Some(SLASH) => Ty::Scalar("float"),
        Some(AMP | PIPE | CARET | SHL | SHR) => Ty::Scalar("int"),
        Some(PLUS) if is("text") => Ty::Scalar("text"),
        Some(PLUS) if is("ascii") => Ty::Scalar("ascii"),
        Some(PLUS | MINUS | STAR | PERCENT) if is("float") => Ty::Scalar("float"),
        Some(PLUS | MINUS | STAR | PERCENT) if is("int") => Ty::Scalar("int"),
        _ => Ty::Unknown,
    }
}
