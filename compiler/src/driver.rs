//! The compiler driver: file in, program or diagnostics out.
//!
//! `compile_file` resolves imports (§6.2) into one compilation unit,
//! parses every file, runs the checker and the code generator. Files are
//! identified by canonical path (so `./a.f` and `x/../a.f` are one file),
//! each is processed once, imported files come before their importer, and
//! a cycle is reported at the import that closes it. Diagnostics name the
//! file a statement came from, as a path relative to the entry file's
//! directory the way the user wrote it.

use crate::ast;
use crate::check::{self, Unit};
use crate::hir;
use crate::syntax;
use festina_vm::program::Program;
use hashbrown::HashMap;
use rowan::TextRange;
use std::path::{Component, Path, PathBuf};

/// A compile error (§14.1) located in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name as the user named it (entry path, or the import path
    /// joined to its importer's directory).
    pub file: String,
    /// 1-based line; 0 when the error concerns the whole file (unreadable).
    pub line: u32,
    /// 1-based column, counted in code points.
    pub col: u32,
    /// The message, without the `error:` prefix.
    pub message: String,
    /// The text of the offending source line (no newline).
    pub source_line: String,
}

/// Compile the program whose entry file is `path` (§6.2, §21.1): resolve
/// imports, parse, check, generate bytecode. Errors: every diagnostic
/// found, in file then position order.
pub fn compile_file(path: &Path) -> Result<Program, Vec<Diagnostic>> {
    compile_file_with(path, Options::default())
}

/// How a program is compiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Compile the assertions of `test` groups (a `festina test` build,
    /// the reference's §11.7); otherwise they are checked and dropped, and
    /// the program carries no trace of them.
    pub tests: bool,
}

/// [`compile_file`] with `options`.
pub fn compile_file_with(path: &Path, options: Options) -> Result<Program, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    with_big_stack(move || {
        let loader = Loader {
            tests: options.tests,
            ..Loader::default()
        };
        let module = loader.check(&path)?;
        Ok(crate::codegen::generate(&module))
    })
}

/// Stack size for the compiler's thread: the parser, checker and code
/// generator recurse over the syntax tree, and a pathological input (a
/// 3,000-term `+` chain) must get a diagnostic, not a stack overflow.
const COMPILER_STACK: usize = 256 << 20;

/// Run `f` on a thread with a [`COMPILER_STACK`]-byte stack and wait for it.
fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match std::thread::Builder::new()
        .name("festina-compiler".into())
        .stack_size(COMPILER_STACK)
        .spawn(f)
    {
        Ok(handle) => match handle.join() {
            Ok(v) => v,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        // No thread could be made: compile on this one.
        Err(_) => no_compiler_thread(),
    }
}

#[cold]
fn no_compiler_thread<T>() -> T {
    eprintln!("festina: could not start the compiler thread");
    std::process::exit(2)
}

/// Compile source text held in memory as if it were the file `name`
/// (imports resolve relative to the current directory). Used by tests and
/// fuzzing.
pub fn compile_source(name: &str, text: &str) -> Result<Program, Vec<Diagnostic>> {
    compile_source_with(name, text, Options::default())
}

/// [`compile_source`] with `options`.
pub fn compile_source_with(
    name: &str,
    text: &str,
    options: Options,
) -> Result<Program, Vec<Diagnostic>> {
    let (name, text) = (name.to_string(), text.to_string());
    with_big_stack(move || {
        let loader = Loader {
            preloaded: Some((name.clone(), text)),
            tests: options.tests,
            ..Loader::default()
        };
        let module = loader.check(Path::new(&name))?;
        Ok(crate::codegen::generate(&module))
    })
}

/// Resolve, parse and check source text held in memory as the file `name`.
pub fn check_source(name: &str, text: &str) -> Result<hir::Module, Vec<Diagnostic>> {
    let loader = Loader {
        preloaded: Some((name.to_string(), text.to_string())),
        ..Loader::default()
    };
    loader.check(Path::new(name))
}

/// Resolve, parse and check without generating code (`festina check`).
pub fn check_file(path: &Path) -> Result<hir::Module, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    with_big_stack(move || Loader::default().check(&path))
}

/// One loaded source file.
struct Source {
    display: String,
    text: String,
    root: ast::SourceFile,
}

#[derive(Default)]
struct Loader {
    sources: Vec<Source>,
    by_path: HashMap<PathBuf, u32>,
    /// Post-order: imports before importers.
    order: Vec<u32>,
    diags: Vec<Diagnostic>,
    preloaded: Option<(String, String)>,
    /// Compile assertions (see [`Options::tests`]).
    tests: bool,
}

impl Loader {
    fn check(mut self, entry: &Path) -> Result<hir::Module, Vec<Diagnostic>> {
        let display = entry.display().to_string();
        let mut stack = Vec::new();
        self.visit(entry, display, &mut stack, None);
        if !self.diags.is_empty() {
            return Err(self.diags);
        }
        let entry_idx = *self.order.last().unwrap_or(&0);
        let units: Vec<Unit> = self
            .order
            .iter()
            .map(|&i| {
                let s = &self.sources[i as usize];
                Unit {
                    file: i,
                    root: s.root.clone(),
                    text: s.text.clone(),
                    is_entry: i == entry_idx,
                }
            })
            .collect();
        let files: Vec<String> = self.sources.iter().map(|s| s.display.clone()).collect();
        check::check_with(&units, files, self.tests).map_err(|errs| {
            errs.into_iter()
                .map(|e| self.diagnostic(e.file, e.range, e.message))
                .collect()
        })
    }

    /// Load `path` and, depth first, everything it imports.
    fn visit(
        &mut self,
        path: &Path,
        display: String,
        stack: &mut Vec<PathBuf>,
        site: Option<(u32, TextRange)>,
    ) {
        let (canon, text) = match self.read(path) {
            Ok(x) => x,
            Err(msg) => {
                match site {
                    Some((file, range)) => {
                        let d = self.diagnostic(
                            file,
                            range,
                            format!("cannot import '{display}': {msg}"),
                        );
                        self.diags.push(d);
                    }
                    None => self.diags.push(Diagnostic {
                        file: display,
                        line: 0,
                        col: 0,
                        message: format!("cannot read file: {msg}"),
                        source_line: String::new(),
                    }),
                }
                return;
            }
        };
        if let Some(pos) = stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = stack[pos..]
                .iter()
                .map(|p| self.sources[self.by_path[p] as usize].display.clone())
                .chain(std::iter::once(display.clone()))
                .collect();
            if let Some((file, range)) = site {
                let d = self.diagnostic(
                    file,
                    range,
                    format!("circular import: {}", chain.join(" -> ")),
                );
                self.diags.push(d);
            }
            return;
        }
        if self.by_path.contains_key(&canon) {
            return;
        }
        let (errors, root) = syntax::parse_ast_only(&text);
        let idx = self.sources.len() as u32;
        self.sources.push(Source {
            display: display.clone(),
            text,
            root: root.clone(),
        });
        self.by_path.insert(canon.clone(), idx);
        for e in errors {
            let d = self.diagnostic(idx, e.range, e.message);
            self.diags.push(d);
        }
        let base_dir = Path::new(&display)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // Imports resolve against the file's real location (§6.2: canonical
        // paths), so a symlinked entry file finds its real neighbours.
        let real_dir = canon
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| path.parent().map(Path::to_path_buf).unwrap_or_default());
        stack.push(canon);
        for stmt in root.statements() {
            let ast::Stmt::ImportDecl(imp) = stmt else {
                continue;
            };
            let range = imp.syntax().text_range();
            let Some(rel) = imp.path() else { continue };
            let rel = rel.trim().to_string();
            if !rel.ends_with(".f") {
                let d = self.diagnostic(
                    idx,
                    range,
                    format!("an import path must name a '.f' file, found '{rel}'"),
                );
                self.diags.push(d);
                continue;
            }
            let shown = clean(&base_dir.join(&rel));
            self.visit(&real_dir.join(&rel), shown, stack, Some((idx, range)));
        }
        stack.pop();
        self.order.push(idx);
    }

    fn read(&mut self, path: &Path) -> Result<(PathBuf, String), String> {
        if let Some((name, text)) = &self.preloaded {
            if path == Path::new(name) && self.sources.is_empty() {
                let canon = std::env::current_dir().unwrap_or_default().join(name);
                let text = text.clone();
                return Ok((clean_path(&canon), text));
            }
        }
        let canon = std::fs::canonicalize(path).map_err(|e| io_message(&e))?;
        let bytes = std::fs::read(&canon).map_err(|e| io_message(&e))?;
        let text =
            String::from_utf8(bytes).map_err(|_| "the file is not valid UTF-8".to_string())?;
        Ok((canon, text))
    }

    fn diagnostic(&self, file: u32, range: TextRange, message: String) -> Diagnostic {
        let src = &self.sources[file as usize];
        let offset = usize::from(range.start()).min(src.text.len());
        let before = &src.text[..floor_char_boundary(&src.text, offset)];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = before.matches('\n').count() as u32 + 1;
        let col = before[line_start..].chars().count() as u32 + 1;
        let line_end = src.text[line_start..]
            .find('\n')
            .map_or(src.text.len(), |i| line_start + i);
        let source_line = src.text[line_start..line_end]
            .trim_end_matches('\r')
            .to_string();
        Diagnostic {
            file: src.display.clone(),
            line,
            col,
            message,
            source_line,
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// Lexically normalise a display path: drop `.` and fold `x/..`.
fn clean(p: &Path) -> String {
    clean_path(p).display().to_string()
}

fn clean_path(p: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// Render diagnostics as `file:line:col: error: message`, the source line
/// with a gutter, and a caret under the column (§14.1).
pub fn render_diagnostics(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        if d.line == 0 {
            out.push_str(&format!("{}: error: {}\n", d.file, d.message));
            continue;
        }
        let num = d.line.to_string();
        let pad = " ".repeat(num.len());
        let caret: String = d
            .source_line
            .chars()
            .take(d.col.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!(
            "{}:{}:{}: error: {}\n {} | {}\n {} | {}^\n",
            d.file, d.line, d.col, d.message, num, d.source_line, pad, caret
        ));
    }
    out
}
