//! The type checker: syntax trees of a whole compilation unit in, typed
//! [`hir::Module`] or diagnostics out (§6–§11, §14.1).
//!
//! # Design
//!
//! Checking runs in passes over all files of the unit (§6.2: imported files
//! first, in import order):
//!
//! 1. **Type names** (§6.6, §6.7): every `struct`, `table` and `enum` name
//!    enters the type namespace, so declarations may refer to each other
//!    in any order.
//! 2. **Type bodies**: struct fields, table columns and enum members are
//!    resolved; which struct types can reach themselves (and so need cycle
//!    collection, §13.3) is computed.
//! 3. **Functions** (§11.1.2): every function declaration anywhere — top
//!    level, nested in blocks or other functions — is a global function; its
//!    signature enters the value namespace. The declarations are found
//!    once per file by a scan of the file's flat tree index
//!    (`ast::descendants_of_kind`) and kept for pass 5.
//!    Top-level event handlers (§11.5) are hoisted the same way: each
//!    becomes a function and an entry of the module's handler table (see
//!    `events`).
//! 4. **Globals**: top-level variable and constant declarations become
//!    global slots. Functions see every global; top-level code sees a
//!    global only after its declaration (§6.6: variables are not hoisted).
//! 5. **Bodies**: every function body, and each file's top-level statements
//!    (as a function `<top:file>`; the entry function calls them in unit
//!    order, §6.3), are checked into HIR.
//!
//! Expressions are checked with an optional *expected type* flowing inward
//! (§8.9.4: it decides whether `{...}` is a struct or a map literal and
//! types `[]` and `null`). A mistake yields [`Type::Error`], which is
//! compatible with everything, so one mistake reports one diagnostic and
//! independent mistakes are all reported.

mod closures;
mod db;
mod decl;
mod events;
mod expr;
mod http;
mod methods;
mod stmt;
mod testing;
mod threads;
mod ty;

use crate::ast;
use crate::hir::{self, FuncId, GlobalId, LocalId, NativeId};
use festina_vm::types::{Type, TypeDisplay, TypeNames};
use hashbrown::HashMap;
use rowan::TextRange;

/// One parsed source file of the unit.
pub struct Unit {
    /// Index into the module's file table.
    pub file: u32,
    /// Root of the file's syntax tree.
    pub root: ast::SourceFile,
    /// The file's text (for line computation), shared with its tree.
    pub text: std::rc::Rc<str>,
    /// True for the entry file (§6.3).
    pub is_entry: bool,
}

/// A checker diagnostic: file index, byte range, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// File index.
    pub file: u32,
    /// Source range.
    pub range: TextRange,
    /// Message (no `error:` prefix).
    pub message: String,
}

/// Check a whole unit. `files` are the file names (index = `Unit::file`).
/// Errors: every diagnostic found.
pub fn check(units: &[Unit], files: Vec<String>) -> Result<hir::Module, Vec<CheckError>> {
    check_with(units, files, false)
}

/// [`check`], with `tests` set for a build that runs its assertions
/// (`festina test`, see `testing`); otherwise they are checked and
/// dropped.
pub fn check_with(
    units: &[Unit],
    files: Vec<String>,
    tests: bool,
) -> Result<hir::Module, Vec<CheckError>> {
    check_streaming(units, files, tests, None)
}

/// What [`check_streaming`] hands over: function `id` of the module
/// being built, with its body, as soon as it is checked.
pub type BodySink<'s> = &'s mut dyn FnMut(&hir::Module, hir::FuncId, &hir::Function);

/// [`check_with`], handing each function to `sink` as soon as its body is
/// checked (while no error has been found), after which the module keeps
/// only its signature: declared functions, handlers and arrow functions.
/// Top-level code and the entry function stay in the module (the code
/// generator compiles them last, see [`crate::codegen::Generator`]). The
/// module at hand holds every declaration by the time a body is handed
/// over. The driver uses this so that a function's HIR lives only until
/// its bytecode exists.
pub fn check_streaming<'a>(
    units: &'a [Unit],
    files: Vec<String>,
    tests: bool,
    sink: Option<BodySink<'a>>,
) -> Result<hir::Module, Vec<CheckError>> {
    let mut c = Checker::new(units, files);
    c.tests = tests;
    c.sink = sink;
    c.run();
    if c.errors.is_empty() {
        Ok(c.module)
    } else {
        c.errors.sort_by_key(|e| (e.file, e.range.start()));
        Err(c.errors)
    }
}

/// The built-in global values and namespaces of §16.2 (the reserved
/// global names that are not functions): no declaration, local or
/// global, may take one of these names (§6.7).
const BUILTIN_VALUES: &[&str] = &[
    "Math",
    "environment",
    "argv",
    "clientWidth",
    "clientHeight",
    "screenWidth",
    "screenHeight",
    "devicePixelRatio",
];

use crate::limits::MAX_LOCALS;

/// What a type name denotes.
#[derive(Clone, Copy, Debug)]
enum TypeSym {
    Struct(u32),
    Table(u32),
    Enum(u32),
}

/// What a global value name denotes.
#[derive(Clone, Copy, Debug)]
enum ValueSym {
    Global(GlobalId),
    Func(FuncId),
}

/// A local variable's symbol.
#[derive(Clone, Copy, Debug)]
struct LocalSym {
    id: LocalId,
    is_const: bool,
    is_param: bool,
    manual: bool,
}

/// Signature of a declared function.
#[derive(Clone, Debug)]
struct FuncSig {
    name: String,
    params: Vec<Type>,
    ret: Type,
}

/// The position of each field by name, for the structs and tables with
/// more than [`FieldIndex::SCAN`] fields (a field access on a smaller one
/// scans its few fields): a program reading fields of a 30,000-field
/// struct 65,537 times took 36 s to check with a linear search per read.
/// Built once the fields of every type are resolved.
#[derive(Default)]
struct FieldIndex {
    structs: Vec<HashMap<String, u16>>,
    tables: Vec<HashMap<String, u16>>,
}

impl FieldIndex {
    /// Records with at most this many fields are searched in order.
    const SCAN: usize = 8;

    fn new(
        structs: &[festina_vm::program::Record],
        tables: &[festina_vm::program::Record],
    ) -> Self {
        let index = |recs: &[festina_vm::program::Record]| {
            recs.iter()
                .map(|r| {
                    if r.fields.len() <= Self::SCAN {
                        return HashMap::new();
                    }
                    let mut m = HashMap::with_capacity(r.fields.len());
                    for (i, f) in r.fields.iter().enumerate() {
                        // The first of two fields with one name (already
                        // an error) wins, as the scan would have it.
                        m.entry(f.name.clone()).or_insert(i as u16);
                    }
                    m
                })
                .collect()
        };
        FieldIndex {
            structs: index(structs),
            tables: index(tables),
        }
    }

    fn find(
        map: Option<&HashMap<String, u16>>,
        rec: &festina_vm::program::Record,
        name: &str,
    ) -> Option<usize> {
        match map {
            Some(m) if !m.is_empty() => m.get(name).map(|&i| i as usize),
            _ => rec.fields.iter().position(|f| f.name == name),
        }
    }
}

/// Per-global facts the checker needs beyond the VM's `Global`.
#[derive(Clone, Debug)]
struct GlobalInfo {
    is_const: bool,
    manual: bool,
}

/// State of the function body being checked.
#[derive(Default)]
struct FnState {
    locals: Vec<hir::Local>,
    scopes: Vec<HashMap<String, LocalSym>>,
    ret: Option<Type>,
    loop_depth: u32,
    /// True while checking a file's top-level statements.
    top_level: bool,
}

/// Line index of one file: byte offsets of line starts.
///
/// The checker asks for the line of nearly every node it visits, mostly
/// in source order, so the index of the last line found is kept and tried
/// (with the line after it) before a binary search.
struct Lines {
    starts: Vec<u32>,
    last: std::cell::Cell<usize>,
}

impl Lines {
    fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i as u32 + 1);
            }
        }
        Lines {
            starts,
            last: std::cell::Cell::new(0),
        }
    }

    /// The 1-based line holding byte `offset`.
    fn line_of(&self, offset: u32) -> u32 {
        // Index of the last line start at or before `offset`.
        let holds = |k: usize| {
            self.starts.get(k).is_some_and(|&s| s <= offset)
                && self.starts.get(k + 1).is_none_or(|&next| offset < next)
        };
        let last = self.last.get();
        let k = if holds(last) {
            last
        } else if holds(last + 1) {
            last + 1
        } else {
            match self.starts.binary_search(&offset) {
                Ok(i) => i,
                Err(i) => i.saturating_sub(1),
            }
        };
        self.last.set(k);
        k as u32 + 1
    }
}

struct Checker<'a> {
    units: &'a [Unit],
    /// Where finished function bodies go (see [`check_streaming`]).
    sink: Option<BodySink<'a>>,
    lines: Vec<Lines>,
    errors: Vec<CheckError>,
    module: hir::Module,
    types: HashMap<String, TypeSym>,
    values: HashMap<String, ValueSym>,
    sigs: Vec<FuncSig>,
    global_info: Vec<GlobalInfo>,
    /// Globals whose declaration top-level code has passed.
    globals_visible: usize,
    natives: HashMap<String, NativeId>,
    /// Every function declaration of each unit (in `units` order), found
    /// once by `collect_functions` and reused by `check_function_bodies`.
    func_decls: Vec<Vec<ast::FuncDecl>>,
    /// Function declarations, by syntax node, to their ids.
    func_ids: HashMap<ast::Node, FuncId>,
    /// Global declarations, by syntax node, to their ids.
    global_ids: HashMap<ast::Node, GlobalId>,
    fs: FnState,
    /// Emptied scope tables, kept for reuse by `push_scope`.
    scope_pool: Vec<HashMap<String, LocalSym>>,
    file: u32,
    /// Current expression nesting depth (see `MAX_EXPR_DEPTH`).
    depth: u32,
    /// Whether the nesting error was reported (once per unit).
    depth_reported: bool,
    /// Whether the program calls `sqlite()` or sets `DatabaseURL`, so
    /// that the entry function opens the database (see `db`).
    uses_db: bool,
    /// Whether a table column or a query field is an `aud`, so that the
    /// entry function lets the database decode them (see `db`).
    aud_columns: bool,
    /// The same for `img` columns and fields.
    img_columns: bool,
    /// The checked value of the entry file's `DatabaseURL` (§6.4).
    db_url: Option<hir::Expr>,
    /// Assertions are compiled (a `festina test` build; see `testing`).
    tests: bool,
    /// Field positions by name (see [`FieldIndex`]).
    field_index: FieldIndex,
    /// Set when an assertion was dropped (not a test build), so that an
    /// assertion statement emits nothing.
    dropped_assertion: bool,
    /// Declared threads, in declaration order (the runtime's ids; see
    /// `threads`).
    threads: Vec<threads::ThreadInfo>,
    /// Thread names to their ids.
    thread_names: HashMap<String, u32>,
    /// The thread whose body is being checked.
    cur_thread: Option<u32>,
    /// True while a thread body's handlers are declared.
    declaring_thread: bool,
    /// Each receiver's reply type (`None`: main), fixed by its first
    /// `worker.reply` (§20.4).
    reply_types: HashMap<Option<u32>, Type>,
    /// Posts whose `.callback` is checked once every body is.
    posts: Vec<threads::PostSite>,
}

impl<'a> Checker<'a> {
    fn new(units: &'a [Unit], files: Vec<String>) -> Self {
        let lines = {
            let mut v: Vec<Lines> = (0..files.len()).map(|_| Lines::new("")).collect();
            for u in units {
                v[u.file as usize] = Lines::new(&u.text);
            }
            v
        };
        let module = hir::Module {
            files,
            ..hir::Module::default()
        };
        Checker {
            units,
            sink: None,
            lines,
            errors: Vec::new(),
            module,
            types: HashMap::new(),
            values: HashMap::new(),
            sigs: Vec::new(),
            global_info: Vec::new(),
            globals_visible: 0,
            natives: HashMap::new(),
            func_decls: Vec::new(),
            func_ids: HashMap::new(),
            global_ids: HashMap::new(),
            fs: FnState::default(),
            scope_pool: Vec::new(),
            file: 0,
            depth: 0,
            depth_reported: false,
            uses_db: false,
            aud_columns: false,
            img_columns: false,
            db_url: None,
            tests: false,
            dropped_assertion: false,
            threads: Vec::new(),
            thread_names: HashMap::new(),
            cur_thread: None,
            declaring_thread: false,
            reply_types: HashMap::new(),
            posts: Vec::new(),
            field_index: FieldIndex::default(),
        }
    }

    /// Function `id`'s body is checked: hand it to the sink, if there is
    /// one and no error was found so far, keeping its signature in the
    /// module (see [`check_streaming`]).
    fn body_done(&mut self, id: hir::FuncId) {
        if !self.errors.is_empty() {
            return;
        }
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        let shell = &mut self.module.functions[id as usize];
        let f = hir::Function {
            name: shell.name.clone(),
            file: shell.file,
            line: shell.line,
            nparams: shell.nparams,
            locals: std::mem::take(&mut shell.locals),
            ret: shell.ret.clone(),
            body: std::mem::take(&mut shell.body),
        };
        sink(&self.module, id, &f);
    }

    /// The index of field `name` of struct `sid`, if it has one.
    fn struct_field(&self, sid: u32, name: &str) -> Option<usize> {
        let rec = self.module.structs.get(sid as usize)?;
        FieldIndex::find(self.field_index.structs.get(sid as usize), rec, name)
    }

    /// The index of column `name` of table `tid`, if it has one.
    fn table_field(&self, tid: u32, name: &str) -> Option<usize> {
        let rec = self.module.tables.get(tid as usize)?;
        FieldIndex::find(self.field_index.tables.get(tid as usize), rec, name)
    }

    fn run(&mut self) {
        self.collect_type_names();
        self.resolve_type_bodies();
        self.collect_functions();
        self.collect_handlers();
        self.collect_threads();
        self.collect_globals();
        self.check_thread_bodies();
        self.check_function_bodies();
        self.check_handler_bodies();
        self.check_top_levels();
        self.check_posts();
        self.check_database_paths();
    }

    // ---- diagnostics and positions ----

    fn error(&mut self, range: TextRange, message: impl Into<String>) {
        self.errors.push(CheckError {
            file: self.file,
            range,
            message: message.into(),
        });
    }

    /// Report a call with the wrong number of arguments (§9.4): `what`
    /// names the callee as written (`'push'`), `expected` the count or
    /// counts it accepts (`2`, `1 or 2`).
    fn arity_error(&mut self, range: TextRange, what: &str, expected: &str, found: usize) {
        self.error(
            range,
            format!("wrong number of arguments to {what}: expected {expected}, found {found}"),
        );
    }

    fn line(&self, range: TextRange) -> u32 {
        self.lines[self.file as usize].line_of(range.start().into())
    }

    fn show(&self, ty: &Type) -> String {
        TypeDisplay { ty, names: self }.to_string()
    }

    fn native(&mut self, name: &str) -> NativeId {
        if let Some(&id) = self.natives.get(name) {
            return id;
        }
        let id = self.module.natives.len() as NativeId;
        self.module.natives.push(name.to_string());
        self.natives.insert(name.to_string(), id);
        id
    }

    // ---- scopes ----

    fn push_scope(&mut self) {
        let scope = self.scope_pool.pop().unwrap_or_default();
        self.fs.scopes.push(scope);
    }

    fn pop_scope(&mut self) {
        if let Some(mut scope) = self.fs.scopes.pop() {
            scope.clear();
            self.scope_pool.push(scope);
        }
    }

    /// Checks the statements of a block (in the current scope), in order.
    fn check_stmts(&mut self, b: &ast::Block) -> Vec<hir::Stmt> {
        let mut out = Vec::with_capacity(b.statements().count());
        for s in b.statements() {
            if let Some(s) = self.check_stmt(&s) {
                out.push(s);
            }
        }
        out
    }

    /// Declare a local in the innermost scope. Reports a redeclaration in
    /// the same scope and the reuse of a built-in global value name (§6.7).
    /// A local or parameter may take the name of a built-in *function*
    /// (`close`, `scale`, `now`) and shadows it in its scope, as the
    /// reference compiler allows (README, differences).
    fn declare_local(
        &mut self,
        name: &str,
        ty: Type,
        range: TextRange,
        is_const: bool,
        is_param: bool,
        manual: bool,
    ) -> LocalId {
        if BUILTIN_VALUES.contains(&name) {
            self.check_not_builtin(name, range);
        }
        if self.fs.locals.len() >= MAX_LOCALS {
            if self.fs.locals.len() == MAX_LOCALS {
                self.error(
                    range,
                    format!("a function may declare at most {MAX_LOCALS} variables"),
                );
            }
            self.fs.locals.push(hir::Local {
                name: String::new(),
                ty: Type::Error,
            });
            return (self.fs.locals.len() - 1) as LocalId;
        }
        let id = self.fs.locals.len() as LocalId;
        self.fs.locals.push(hir::Local {
            name: name.to_string(),
            ty,
        });
        let sym = LocalSym {
            id,
            is_const,
            is_param,
            manual,
        };
        if self.fs.scopes.is_empty() {
            self.push_scope();
        }
        let scope = self.fs.scopes.last_mut().expect("a scope was pushed");
        if scope.contains_key(name) {
            self.error(range, format!("'{name}' is already declared in this scope"));
        } else {
            scope.insert(name.to_string(), sym);
        }
        id
    }

    fn check_not_builtin(&mut self, name: &str, range: TextRange) -> bool {
        if name == "Math" {
            self.error(
                range,
                "'Math' is the built-in math namespace and cannot be redeclared",
            );
            return false;
        }
        if festina_signatures::RESERVED_GLOBALS.contains(&name) {
            self.error(
                range,
                format!("'{name}' is a built-in name and cannot be redeclared"),
            );
            return false;
        }
        true
    }

    fn lookup_local(&self, name: &str) -> Option<LocalSym> {
        self.fs
            .scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
    }

    fn lookup_value(&self, name: &str) -> Option<ValueSym> {
        if let Some(t) = self.cur_thread {
            // §20.3: a thread body sees its own state and functions only.
            return self.threads[t as usize].values.get(name).copied();
        }
        match self.values.get(name).copied() {
            Some(ValueSym::Global(g))
                if self.fs.top_level && g as usize >= self.globals_visible =>
            {
                None
            }
            other => other,
        }
    }
}

impl TypeNames for Checker<'_> {
    fn struct_name(&self, id: u32) -> &str {
        self.module
            .structs
            .get(id as usize)
            .map_or("?", |r| &r.name)
    }
    fn table_name(&self, id: u32) -> &str {
        self.module.tables.get(id as usize).map_or("?", |r| &r.name)
    }
    fn enum_name(&self, id: u32) -> &str {
        self.module.enums.get(id as usize).map_or("?", |e| &e.name)
    }
}
