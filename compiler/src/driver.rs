//! The compiler driver: file in, program or diagnostics out.
//!
//! `compile_file` resolves imports (§6.2) into one compilation unit,
//! parses every file, runs the checker and the code generator. Files are
//! identified by canonical path (so `./a.f` and `x/../a.f` are one file),
//! each is processed once, imported files come before their importer, and
//! a cycle is reported at the import that closes it. Diagnostics name the
//! file a statement came from, as a path relative to the entry file's
//! directory the way the user wrote it.
//!
//! # Memory
//!
//! A large program is compiled in about 350 bytes a line at the peak
//! (benches/RESULTS.md, "Front end at scale"; 1 KB before), because no
//! stage's data outlives its use:
//!
//! - a file's text is held once (`Rc<str>`), shared by the loader, the
//!   syntax tree and the checker's unit;
//! - the tokens (6 bytes each) live only while the file is parsed, and
//!   the parser hands its events (8 bytes each) to the tree builder after
//!   every top-level statement ([`crate::parsing`]), so only the flat
//!   syntax tree (16 bytes a node or significant token, [`crate::ast`])
//!   stays;
//! - `Loader::compile` streams: the checker hands each function to the
//!   code generator as soon as its body is checked
//!   ([`check::check_streaming`], [`crate::codegen::Generator`]), so a
//!   function's HIR lives only until its bytecode exists; the syntax trees
//!   are dropped when checking ends, and the top-level code (whose
//!   globals may be kept in registers, decided once every function is
//!   known) and the entry function are compiled last. Top-level code is
//!   therefore the one part whose HIR is held whole: a program written
//!   mostly at the top level peaks higher (its AST and HIR together).

use crate::ast;
use crate::check::{self, Unit};
use crate::hir;
use crate::parsing;
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
    /// The excerpt shown under the message: the offending source line (no
    /// newline), or, for a line longer than [`EXCERPT_WIDTH`] code points,
    /// a window of that many around the column, with `...` where it was cut.
    pub source_line: String,
    /// 1-based column of the caret within `source_line` (equal to `col`
    /// unless the line was cut).
    pub caret: u32,
}

/// Most code points of a source line shown under a diagnostic; a longer
/// line is cut to a window around the column.
pub const EXCERPT_WIDTH: usize = 100;

/// The excerpt of `line` shown for a diagnostic at 1-based column `col`
/// (code points) and the caret's column within it: the whole line when it
/// is at most [`EXCERPT_WIDTH`] code points, otherwise a window of that
/// many, starting at most half a window before the column, with `...`
/// marking each cut end.
pub fn excerpt(line: &str, col: u32) -> (String, u32) {
    let len = line.chars().count();
    if len <= EXCERPT_WIDTH {
        return (line.to_string(), col);
    }
    let at = (col.max(1) - 1) as usize;
    let start = at
        .saturating_sub(EXCERPT_WIDTH / 2)
        .min(len - EXCERPT_WIDTH);
    let end = start + EXCERPT_WIDTH;
    let mut out = String::new();
    if start > 0 {
        out.push_str("...");
    }
    out.extend(line.chars().skip(start).take(EXCERPT_WIDTH));
    if end < len {
        out.push_str("...");
    }
    let shift = if start > 0 { 3 } else { 0 };
    (out, (at - start + shift + 1) as u32)
}

/// Compile the program whose entry file is `path` (§6.2, §21.1): resolve
/// imports, parse, check, generate bytecode. Errors: every diagnostic
/// found, in file then position order.
/// Code generation follows the environment's switches
/// ([`crate::codegen::Options::from_env`]: `FESTINA_NO_FUSION`,
/// `FESTINA_NO_OPT`).
pub fn compile_file(path: &Path) -> Result<Program, Vec<Diagnostic>> {
    compile_file_with(path, crate::codegen::Options::from_env())
}

/// [`compile_file`] with explicit code generation options.
pub fn compile_file_with(
    path: &Path,
    options: crate::codegen::Options,
) -> Result<Program, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    with_big_stack(move || {
        let mut loader = Loader::default();
        loader.compile(&path, options)
    })
}

/// Compile the program whose entry file is `path` as a test build
/// (`festina test`, the reference's §11.7): as [`compile_file`], with the
/// assertions of `test` groups compiled. In every other build they are
/// checked and dropped, and the program carries no code for them.
pub fn compile_tests(path: &Path) -> Result<Program, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    let options = crate::codegen::Options::from_env();
    with_big_stack(move || {
        let mut loader = Loader {
            tests: true,
            ..Loader::default()
        };
        loader.compile(&path, options)
    })
}

/// Compile the program whose entry file `path` has already been read
/// (its bytes are `bytes`), as [`compile_file`] does: the entry file is
/// not read again, so a pipe, a named pipe or `/dev/stdin` works (it can
/// be read only once). Imports of an entry that is not a regular file
/// (`festina <(...)`) resolve against the current directory.
pub fn compile_read_file(path: &Path, bytes: Vec<u8>) -> Result<Program, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    let options = crate::codegen::Options::from_env();
    with_big_stack(move || {
        let mut loader = Loader {
            entry_bytes: Some((path.clone(), bytes)),
            ..Loader::default()
        };
        loader.compile(&path, options)
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
    compile_source_with(name, text, crate::codegen::Options::default())
}

/// [`compile_source`] with explicit code generation options.
pub fn compile_source_with(
    name: &str,
    text: &str,
    options: crate::codegen::Options,
) -> Result<Program, Vec<Diagnostic>> {
    let (name, text) = (name.to_string(), text.to_string());
    with_big_stack(move || {
        let mut loader = Loader::preloaded(&name, &text);
        loader.compile(Path::new(&name), options)
    })
}

/// Resolve, parse and check source text held in memory as the file `name`.
pub fn check_source(name: &str, text: &str) -> Result<hir::Module, Vec<Diagnostic>> {
    Loader::preloaded(name, text).check(Path::new(name))
}

/// Resolve, parse and check without generating code (`festina check`).
pub fn check_file(path: &Path) -> Result<hir::Module, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    with_big_stack(move || Loader::default().check(&path))
}

/// [`check_file`] for an editor: a file whose path (absolute, as
/// [`std::fs::canonicalize`] gives it, or cleaned when it does not exist
/// on disk) is a key of `unsaved` is read from there instead of the disk,
/// the entry file included. Diagnostics are as [`check_file`] gives them;
/// with an absolute `path`, every `Diagnostic::file` is absolute too.
/// Used by the language server (`festina lsp`).
pub fn check_file_with_unsaved(
    path: &Path,
    unsaved: std::collections::HashMap<PathBuf, String>,
) -> Result<hir::Module, Vec<Diagnostic>> {
    let path = path.to_path_buf();
    with_big_stack(move || {
        Loader {
            unsaved,
            ..Loader::default()
        }
        .check(&path)
    })
}

/// One loaded source file.
struct Source {
    display: String,
    /// The file's text, shared with its syntax tree and its checker unit.
    text: std::rc::Rc<str>,
    /// The syntax tree, until the checker takes it ([`Loader::load`]).
    root: Option<ast::SourceFile>,
    /// Byte offset of the start of each line, built for the first
    /// diagnostic in the file (so many diagnostics in a large file each
    /// find their line by binary search).
    line_starts: std::cell::OnceCell<Vec<usize>>,
}

#[derive(Default)]
struct Loader {
    sources: Vec<Source>,
    by_path: HashMap<PathBuf, u32>,
    /// Post-order: imports before importers.
    order: Vec<u32>,
    diags: Vec<Diagnostic>,
    /// Source text held in memory for the entry file (`compile_source`).
    preloaded: Option<(String, String)>,
    /// The entry file's bytes, already read by the caller (which may only
    /// read it once: a pipe, `/dev/stdin`).
    entry_bytes: Option<(PathBuf, Vec<u8>)>,
    /// Compile the assertions of `test` groups ([`compile_tests`]).
    tests: bool,
    /// Texts that replace files on disk, by absolute path
    /// ([`check_file_with_unsaved`]).
    unsaved: std::collections::HashMap<PathBuf, String>,
}

impl Loader {
    /// A loader whose entry file `name` has the text `text`.
    fn preloaded(name: &str, text: &str) -> Loader {
        Loader {
            preloaded: Some((name.to_string(), text.to_string())),
            ..Loader::default()
        }
    }

    fn check(&mut self, entry: &Path) -> Result<hir::Module, Vec<Diagnostic>> {
        let (units, files) = self.load(entry)?;
        let result = check::check_with(&units, files, self.tests);
        self.check_result(result)
    }

    /// Load, parse and check the program whose entry file is `entry`, and
    /// generate its bytecode: each function's code as soon as the checker
    /// has finished it (so that its HIR is dropped at once), the syntax
    /// trees dropped once checking is over, then the top-level code and the
    /// entry (see "Memory" in the module documentation). Errors: the
    /// diagnostics of [`Loader::check`], or a limit the code generator
    /// found.
    fn compile(
        &mut self,
        entry: &Path,
        options: crate::codegen::Options,
    ) -> Result<Program, Vec<Diagnostic>> {
        let (units, files) = self.load(entry)?;
        let mut gen = crate::codegen::Generator::new(options);
        let result = check::check_streaming(
            &units,
            files,
            self.tests,
            Some(&mut |module: &hir::Module, id, f: &hir::Function| gen.add(module, id, f)),
        );
        drop(units);
        let module = self.check_result(result)?;
        gen.finish(&module)
            .map_err(|e| vec![self.limit_diagnostic(e)])
    }

    /// Read and parse the entry file and its imports into checker units
    /// (imports first) and the file table; the loader keeps only the
    /// texts, so the syntax trees live as long as the units.
    fn load(&mut self, entry: &Path) -> Result<(Vec<Unit>, Vec<String>), Vec<Diagnostic>> {
        let display = entry.display().to_string();
        let mut stack = Vec::new();
        self.visit(entry, display, &mut stack, None);
        if !self.diags.is_empty() {
            return Err(std::mem::take(&mut self.diags));
        }
        let entry_idx = *self.order.last().unwrap_or(&0);
        let units: Vec<Unit> = self
            .order
            .iter()
            .filter_map(|&i| {
                let s = &mut self.sources[i as usize];
                Some(Unit {
                    file: i,
                    root: s.root.take()?,
                    text: std::rc::Rc::clone(&s.text),
                    is_entry: i == entry_idx,
                })
            })
            .collect();
        let files: Vec<String> = self.sources.iter().map(|s| s.display.clone()).collect();
        Ok((units, files))
    }

    /// The checker's errors as diagnostics.
    fn check_result(
        &self,
        result: Result<hir::Module, Vec<check::CheckError>>,
    ) -> Result<hir::Module, Vec<Diagnostic>> {
        result.map_err(|errs| {
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
        let (canon, text, in_cwd) = match self.read(path) {
            Ok(x) => x,
            Err(ReadError::Io(msg)) => {
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
                        caret: 0,
                    }),
                }
                return;
            }
            Err(ReadError::Utf8(bytes, err)) => {
                self.diags.push(utf8_diagnostic(display, &bytes, err));
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
        let text: std::rc::Rc<str> = std::rc::Rc::from(text);
        let (errors, root) = parsing::parse_ast_only(std::rc::Rc::clone(&text));
        let idx = self.sources.len() as u32;
        self.sources.push(Source {
            display: display.clone(),
            text,
            root: Some(root.clone()),
            line_starts: std::cell::OnceCell::new(),
        });
        self.by_path.insert(canon.clone(), idx);
        for e in errors {
            let d = self.diagnostic(idx, e.range, e.message);
            self.diags.push(d);
        }
        let base_dir = if in_cwd {
            PathBuf::new()
        } else {
            Path::new(&display)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        };
        // Imports resolve against the file's real location (§6.2: canonical
        // paths), so a symlinked entry file finds its real neighbours; an
        // entry that is no file on disk (a pipe) imports from the current
        // directory.
        let real_dir = if in_cwd {
            std::env::current_dir().unwrap_or_default()
        } else {
            canon
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| path.parent().map(Path::to_path_buf).unwrap_or_default())
        };
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

    /// Read a source file once: its canonical path (its identity for
    /// imports, §6.2), its text, and whether its imports resolve against
    /// the current directory (an entry that is no file on disk).
    fn read(&mut self, path: &Path) -> Result<(PathBuf, String, bool), ReadError> {
        let cwd = || std::env::current_dir().unwrap_or_default();
        if let Some((name, text)) = &self.preloaded {
            if path == Path::new(name) && self.sources.is_empty() {
                let canon = cwd().join(name);
                let text = text.clone();
                return Ok((clean_path(&canon), text, false));
            }
        }
        if self.sources.is_empty() {
            if let Some((entry, _)) = &self.entry_bytes {
                if entry == path {
                    let (_, bytes) = self.entry_bytes.take().expect("checked");
                    let text = decode_source(bytes)?;
                    // A pipe has no canonical path (`/dev/fd/63` names
                    // `pipe:[...]`): it is known by the name it was given.
                    return Ok(match std::fs::canonicalize(path) {
                        Ok(canon) => {
                            let beside = in_a_directory(&canon);
                            (canon, text, !beside)
                        }
                        Err(_) => (clean_path(&cwd().join(path)), text, true),
                    });
                }
            }
        }
        if !self.unsaved.is_empty() {
            let key = std::fs::canonicalize(path).unwrap_or_else(|_| clean_path(&cwd().join(path)));
            if let Some(text) = self.unsaved.get(&key) {
                return Ok((key, text.clone(), false));
            }
        }
        let canon = std::fs::canonicalize(path).map_err(|e| ReadError::Io(io_message(&e)))?;
        let bytes = std::fs::read(&canon).map_err(|e| ReadError::Io(io_message(&e)))?;
        Ok((canon, decode_source(bytes)?, false))
    }

    /// A limit the code generator found, as a diagnostic at the start of
    /// the statement's line.
    fn limit_diagnostic(&self, e: crate::codegen::LimitError) -> Diagnostic {
        let src = &self.sources[e.file as usize];
        let start: usize = src
            .text
            .split_inclusive('\n')
            .take(e.line.saturating_sub(1) as usize)
            .map(str::len)
            .sum();
        let indent = src.text[start..]
            .find(|c: char| c != ' ' && c != '\t')
            .unwrap_or(0);
        let at = u32::try_from(start + indent).unwrap_or(u32::MAX);
        self.diagnostic(e.file, TextRange::empty(at.into()), e.message)
    }

    fn diagnostic(&self, file: u32, range: TextRange, message: String) -> Diagnostic {
        let src = &self.sources[file as usize];
        let starts = src.line_starts.get_or_init(|| line_starts(&src.text));
        locate(&src.display, &src.text, starts, range, message)
    }
}

/// Byte offset of the start of each line of `text`.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The diagnostic for `message` at `range` of `text`, the source of the
/// file shown as `file` (§14.1: line, column in code points, and the
/// source line under it), as the compiler reports it. Used by tools that
/// parse a file themselves (`festina fmt` reports a file's syntax errors
/// with it).
pub fn diagnostic_at(file: &str, text: &str, range: TextRange, message: String) -> Diagnostic {
    locate(file, text, &line_starts(text), range, message)
}

/// [`diagnostic_at`] with the line starts of `text` already known.
fn locate(
    file: &str,
    text: &str,
    starts: &[usize],
    range: TextRange,
    message: String,
) -> Diagnostic {
    let offset = floor_char_boundary(text, usize::from(range.start()).min(text.len()));
    // The last line starting at or before `offset`.
    let index = starts.partition_point(|&s| s <= offset) - 1;
    let line_start = starts[index];
    let line = index as u32 + 1;
    let col = text[line_start..offset].chars().count() as u32 + 1;
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let (source_line, caret) = excerpt(text[line_start..line_end].trim_end_matches('\r'), col);
    Diagnostic {
        file: file.to_string(),
        line,
        col,
        message,
        source_line,
        caret,
    }
}

/// True if `canon` is a regular file or a named pipe: something in a
/// directory, whose imports resolve beside it (not a terminal or other
/// device reached through `/dev/stdin`).
fn in_a_directory(canon: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(canon) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_fifo() {
            return true;
        }
    }
    meta.is_file()
}

/// Why a source file could not be loaded.
enum ReadError {
    /// The file could not be read (the OS's reason).
    Io(String),
    /// The bytes are not UTF-8; the error locates the first bad byte.
    Utf8(Vec<u8>, std::str::Utf8Error),
}

/// The text of a source file, or where it stops being UTF-8.
fn decode_source(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let err = e.utf8_error();
        ReadError::Utf8(e.into_bytes(), err)
    })
}

/// The diagnostic for a source file that is not UTF-8 (§7.1): the line
/// and column (in code points) of the first bad byte, with the line shown
/// as far as it decodes.
fn utf8_diagnostic(file: String, bytes: &[u8], err: std::str::Utf8Error) -> Diagnostic {
    let good = err.valid_up_to();
    // Everything before the bad byte is valid UTF-8.
    let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let line = prefix.matches('\n').count() as u32 + 1;
    let col = prefix[line_start..].chars().count() as u32 + 1;
    let line_end = bytes[good..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| good + i);
    let text = String::from_utf8_lossy(&bytes[line_start..line_end]);
    let (source_line, caret) = excerpt(text.trim_end_matches('\r'), col);
    let message = match err.error_len() {
        Some(_) => format!(
            "invalid UTF-8: byte 0x{:02X} does not begin or continue a character here (source files must be UTF-8)",
            bytes[good]
        ),
        None => "invalid UTF-8: the file ends inside a character (source files must be UTF-8)"
            .to_string(),
    };
    Diagnostic {
        file,
        line,
        col,
        message,
        source_line,
        caret,
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

/// `p` with `.` components dropped and `x/..` folded, without touching
/// the disk (a leading `..` stays). How file names are shown in
/// diagnostics (§14.1), and how the language server names a file that
/// does not exist yet.
pub fn clean_path(p: &Path) -> PathBuf {
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
            .take(d.caret.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!(
            "{}:{}:{}: error: {}\n {} | {}\n {} | {}^\n",
            d.file, d.line, d.col, d.message, num, d.source_line, pad, caret
        ));
    }
    out
}
