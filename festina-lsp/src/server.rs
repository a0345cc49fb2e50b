//! The server's state and its message loop (see the crate documentation).

use crate::analysis::builtins::{self, Builtin, SPECIALS};
use crate::analysis::ty::{recv_text, shape_text, Ty};
use crate::analysis::{
    resolve, DefKey, DefKind, FileData, Files, Receiver, Resolved, Target, Unit,
};
use crate::text::{file_key, path_to_uri, uri_to_path, Encoding, LineIndex};
use festina_compiler::driver::{self, Diagnostic as CompilerDiagnostic};
use festina_compiler::format::{format, FormatError};
use festina_signatures::{BUILTINS, MATH, MATH_CONSTANTS, METHODS, PROPERTIES, VALUES};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    Completion, Formatting, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, Diagnostic,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentFormattingParams, Documentation, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, Location, MarkupContent, MarkupKind,
    Position, PositionEncodingKind, PublishDiagnosticsParams, Range, ReferenceParams, TextEdit,
    Uri,
};
use rowan::TextRange;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

/// Most `.f` files of the workspace folders searched for references.
const WORKSPACE_FILE_LIMIT: usize = 10_000;

/// An open document.
struct Doc {
    uri: Uri,
    text: String,
    version: i32,
    /// The parsed text, built when a request needs it.
    data: RefCell<Option<Rc<FileData>>>,
}

/// Files read from disk, by key path, with the modification time and
/// length they had when read.
type DiskCache = HashMap<PathBuf, (Option<SystemTime>, u64, Rc<FileData>)>;

/// The server's state: the open documents and what was read from disk.
struct Server {
    encoding: Encoding,
    /// The workspace folders.
    roots: Vec<PathBuf>,
    /// Open documents, by key path.
    docs: HashMap<PathBuf, Doc>,
    /// Files read from disk, with the modification time and length they
    /// had.
    disk: RefCell<DiskCache>,
    /// Documents whose diagnostics must be computed again.
    dirty: BTreeSet<PathBuf>,
    /// Documents closed since the last diagnostics (their diagnostics are
    /// cleared).
    closed: Vec<Uri>,
    /// Counts the changes to open documents; an analysis made before the
    /// last change is stale.
    generation: u64,
    /// The last analysis of each document (see [`Analyzed`]).
    analyzed: RefCell<HashMap<PathBuf, Rc<Analyzed>>>,
}

/// A document analysed within its unit, kept until a document changes or
/// a file of the unit changes on disk.
struct Analyzed {
    data: Rc<FileData>,
    unit: Unit,
    resolved: Resolved,
    /// [`Server::generation`] when it was made.
    generation: u64,
    /// The unit's files read from disk, with their modification times.
    disk: Vec<(PathBuf, Option<SystemTime>)>,
}

impl Files for Server {
    fn load(&self, path: &Path) -> Option<Rc<FileData>> {
        if let Some(doc) = self.docs.get(path) {
            let mut data = doc.data.borrow_mut();
            if let Some(d) = &*data {
                return Some(d.clone());
            }
            let d = Rc::new(FileData::new(Rc::from(path), doc.text.clone()));
            *data = Some(d.clone());
            return Some(d);
        }
        let meta = std::fs::metadata(path).ok()?;
        let stamp = (meta.modified().ok(), meta.len());
        if let Some((time, len, d)) = self.disk.borrow().get(path) {
            if (*time, *len) == stamp {
                return Some(d.clone());
            }
        }
        let text = std::fs::read_to_string(path).ok()?;
        let d = Rc::new(FileData::new(Rc::from(path), text));
        self.disk
            .borrow_mut()
            .insert(path.to_path_buf(), (stamp.0, stamp.1, d.clone()));
        Some(d)
    }
}

/// Serves the protocol on `connection` until `exit` (see the crate
/// documentation). Errors: a broken connection or a malformed
/// `initialize`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let encoding = if offers_utf8(&params) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": { "name": "festina", "version": env!("CARGO_PKG_VERSION") },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let mut server = Server {
        encoding,
        roots: workspace_roots(&params),
        docs: HashMap::new(),
        disk: RefCell::new(HashMap::new()),
        dirty: BTreeSet::new(),
        closed: Vec::new(),
        generation: 0,
        analyzed: RefCell::new(HashMap::new()),
    };
    loop {
        let msg = match connection.receiver.recv() {
            Ok(msg) => msg,
            Err(_) => return Err("the client closed the connection".to_string()),
        };
        match msg {
            Message::Request(req) => {
                if connection
                    .handle_shutdown(&req)
                    .map_err(|e| e.to_string())?
                {
                    return Ok(());
                }
                let id = req.id.clone();
                // A bug in one answer must not take the editor's server
                // down: it becomes an error response.
                let response = catch_unwind(AssertUnwindSafe(|| server.request(req)))
                    .unwrap_or_else(|_| {
                        Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            "festina lsp: internal error while answering".to_string(),
                        )
                    });
                send(connection, response.into())?;
            }
            Message::Notification(note) => {
                if note.method == "exit" {
                    return Err("exit without shutdown".to_string());
                }
                if catch_unwind(AssertUnwindSafe(|| server.notification(note))).is_err() {
                    eprintln!("festina lsp: internal error while handling a notification");
                }
            }
            Message::Response(_) => {}
        }
        // Diagnostics once the burst of messages is handled.
        if connection.receiver.is_empty() {
            let notes = catch_unwind(AssertUnwindSafe(|| server.diagnostics()));
            for note in notes.unwrap_or_default() {
                send(connection, note.into())?;
            }
        }
    }
}

fn send(connection: &Connection, msg: Message) -> Result<(), String> {
    connection
        .sender
        .send(msg)
        .map_err(|_| "the client closed the connection".to_string())
}

/// True when the client accepts positions counted in UTF-8 bytes.
fn offers_utf8(params: &Value) -> bool {
    params
        .pointer("/capabilities/general/positionEncodings")
        .and_then(Value::as_array)
        .is_some_and(|list| list.iter().any(|e| e == "utf-8"))
}

/// The workspace folders of `initialize` (or its root URI).
fn workspace_roots(params: &Value) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = params
        .get("workspaceFolders")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| f.get("uri")?.as_str()?.parse::<Uri>().ok())
        .filter_map(|u| uri_to_path(&u))
        .collect();
    if roots.is_empty() {
        if let Some(root) = params
            .get("rootUri")
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<Uri>().ok())
            .and_then(|u| uri_to_path(&u))
        {
            roots.push(root);
        }
    }
    roots
}

fn capabilities(encoding: Encoding) -> Value {
    serde_json::json!({
        "positionEncoding": match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        },
        "textDocumentSync": { "openClose": true, "change": 2 },
        "hoverProvider": true,
        "definitionProvider": true,
        "referencesProvider": true,
        "completionProvider": { "triggerCharacters": ["."] },
        "documentFormattingProvider": true,
    })
}

/// A request's parameters, or the error response for malformed ones.
fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Box<Response>> {
    serde_json::from_value(req.params.clone()).map_err(|e| {
        Box::new(Response::new_err(
            req.id.clone(),
            ErrorCode::InvalidParams as i32,
            format!("invalid parameters: {e}"),
        ))
    })
}

fn reply<T: serde::Serialize>(id: RequestId, result: T) -> Response {
    Response::new_ok(id, result)
}

impl Server {
    // ---- documents ----

    fn notification(&mut self, note: Notification) {
        self.generation += 1;
        match note.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(note.params) else {
                    return;
                };
                let Some(path) = uri_to_path(&p.text_document.uri) else {
                    return;
                };
                let key = file_key(&path);
                self.docs.insert(
                    key.clone(),
                    Doc {
                        uri: p.text_document.uri,
                        text: p.text_document.text,
                        version: p.text_document.version,
                        data: RefCell::new(None),
                    },
                );
                self.changed(&key);
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(note.params)
                else {
                    return;
                };
                let Some(key) = uri_to_path(&p.text_document.uri).map(|p| file_key(&p)) else {
                    return;
                };
                let encoding = self.encoding;
                let Some(doc) = self.docs.get_mut(&key) else {
                    return;
                };
                for change in p.content_changes {
                    match change.range {
                        Some(range) => {
                            let index = LineIndex::new(&doc.text);
                            let r = index.text_range(&doc.text, range, encoding);
                            doc.text.replace_range(
                                usize::from(r.start())..usize::from(r.end()),
                                &change.text,
                            );
                        }
                        None => doc.text = change.text,
                    }
                }
                doc.version = p.text_document.version;
                *doc.data.borrow_mut() = None;
                self.changed(&key);
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(note.params)
                else {
                    return;
                };
                let Some(key) = uri_to_path(&p.text_document.uri).map(|p| file_key(&p)) else {
                    return;
                };
                self.analyzed.borrow_mut().remove(&key);
                if self.docs.remove(&key).is_some() {
                    self.dirty.remove(&key);
                    // Its importers read it from disk again.
                    self.changed(&key);
                    self.closed.push(p.text_document.uri);
                }
            }
            _ => {}
        }
    }

    /// Marks `key` and every open document that imports it as needing
    /// new diagnostics.
    fn changed(&mut self, key: &Path) {
        if self.docs.contains_key(key) {
            self.dirty.insert(key.to_path_buf());
        }
        let others: Vec<PathBuf> = self.docs.keys().filter(|k| *k != key).cloned().collect();
        for other in others {
            let Some(data) = self.load(&other) else {
                continue;
            };
            let unit = Unit::new(data, self);
            if unit.file(key).is_some() {
                self.dirty.insert(other);
            }
        }
    }

    // ---- diagnostics ----

    /// The `publishDiagnostics` notifications for the documents changed
    /// since the last call.
    fn diagnostics(&mut self) -> Vec<Notification> {
        let mut out = Vec::new();
        for uri in std::mem::take(&mut self.closed) {
            out.push(publish(uri, Vec::new(), None));
        }
        let dirty = std::mem::take(&mut self.dirty);
        if dirty.is_empty() {
            return out;
        }
        let unsaved: HashMap<PathBuf, String> = self
            .docs
            .iter()
            .map(|(k, d)| (k.clone(), d.text.clone()))
            .collect();
        for key in dirty {
            let Some(doc) = self.docs.get(&key) else {
                continue;
            };
            let found = match driver::check_file_with_unsaved(&key, unsaved.clone()) {
                Ok(_) => Vec::new(),
                Err(diags) => diags,
            };
            let diagnostics = self.to_lsp(&key, doc, &found);
            out.push(publish(doc.uri.clone(), diagnostics, Some(doc.version)));
        }
        out
    }

    /// The compiler's diagnostics of the program whose entry is `key`, as
    /// protocol diagnostics of that document: its own, and each one in
    /// an imported file on the import that leads there.
    fn to_lsp(&self, key: &Path, doc: &Doc, found: &[CompilerDiagnostic]) -> Vec<Diagnostic> {
        let own = key.display().to_string();
        let index = LineIndex::new(&doc.text);
        // The document's imports are needed only for errors elsewhere.
        let data = if found.iter().any(|d| d.file != own) {
            self.load(key)
        } else {
            None
        };
        let mut out = Vec::new();
        for d in found {
            let (range, message) = if d.file == own {
                (
                    self.range_at(&doc.text, &index, d.line, d.col),
                    d.message.clone(),
                )
            } else {
                let file = file_key(Path::new(&d.file));
                let import = data.as_ref().and_then(|data| {
                    data.outline
                        .imports
                        .iter()
                        .find(|i| i.target.as_deref() == Some(file.as_path()))
                        .or_else(|| data.outline.imports.first())
                        .map(|i| i.range)
                });
                let range = import.map_or(Range::default(), |r| {
                    index.range(&doc.text, r, self.encoding)
                });
                let shown = if d.line == 0 {
                    format!("{}: error: {}", d.file, d.message)
                } else {
                    format!("{}:{}:{}: error: {}", d.file, d.line, d.col, d.message)
                };
                (range, shown)
            };
            out.push(Diagnostic {
                range,
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("festina".to_string()),
                message,
                ..Diagnostic::default()
            });
        }
        out
    }

    /// The range of a compiler diagnostic at `line`:`col` (1-based, code
    /// points): from there over one word or one character.
    fn range_at(&self, text: &str, index: &LineIndex, line: u32, col: u32) -> Range {
        if line == 0 {
            return Range::default();
        }
        let start_of_line = index.offset(text, Position::new(line - 1, 0), Encoding::Utf8);
        let rest = &text[start_of_line..];
        let rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let at = rest
            .char_indices()
            .nth(col.saturating_sub(1) as usize)
            .map_or(rest.len(), |(i, _)| i);
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let tail = &rest[at..];
        let len = match tail.chars().next() {
            Some(c) if word(c) => tail.find(|c: char| !word(c)).unwrap_or(tail.len()),
            Some(c) => c.len_utf8(),
            None => 0,
        };
        let start = start_of_line + at;
        let range = TextRange::new((start as u32).into(), ((start + len) as u32).into());
        index.range(text, range, self.encoding)
    }

    // ---- requests ----

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => params::<HoverParams>(&req).map(|p| {
                let pos = p.text_document_position_params;
                reply(id.clone(), self.hover(&pos.text_document.uri, pos.position))
            }),
            GotoDefinition::METHOD => params::<GotoDefinitionParams>(&req).map(|p| {
                let pos = p.text_document_position_params;
                let found = self.definition(&pos.text_document.uri, pos.position);
                reply(id.clone(), found.map(GotoDefinitionResponse::Scalar))
            }),
            References::METHOD => params::<ReferenceParams>(&req).map(|p| {
                let pos = p.text_document_position;
                let found = self.references(
                    &pos.text_document.uri,
                    pos.position,
                    p.context.include_declaration,
                );
                reply(id.clone(), found)
            }),
            Completion::METHOD => params::<CompletionParams>(&req).map(|p| {
                let pos = p.text_document_position;
                let items = self.completion(&pos.text_document.uri, pos.position);
                reply(id.clone(), items.map(CompletionResponse::Array))
            }),
            Formatting::METHOD => {
                params::<DocumentFormattingParams>(&req).map(|p| self.formatting(id.clone(), &p))
            }
            _ => Ok(Response::new_err(
                id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("unknown request '{}'", req.method),
            )),
        };
        result.unwrap_or_else(|err| *err)
    }

    /// The document `uri` analysed within its unit (from the cache while
    /// nothing changed).
    fn open(&self, uri: &Uri) -> Option<Rc<Analyzed>> {
        let key = file_key(&uri_to_path(uri)?);
        if let Some(a) = self.analyzed.borrow().get(&key) {
            let fresh = a.generation == self.generation
                && a.disk.iter().all(|(path, time)| {
                    std::fs::metadata(path).ok().and_then(|m| m.modified().ok()) == *time
                });
            if fresh {
                return Some(a.clone());
            }
        }
        let data = self.load(&key)?;
        let unit = Unit::new(data.clone(), self);
        let resolved = resolve(&unit, &data);
        let disk = unit
            .files
            .iter()
            .filter(|f| !self.docs.contains_key(&*f.path))
            .map(|f| {
                let time = std::fs::metadata(&f.path)
                    .ok()
                    .and_then(|m| m.modified().ok());
                (f.path.to_path_buf(), time)
            })
            .collect();
        let a = Rc::new(Analyzed {
            data,
            unit,
            resolved,
            generation: self.generation,
            disk,
        });
        self.analyzed.borrow_mut().insert(key, a.clone());
        Some(a)
    }

    fn offset(&self, data: &FileData, pos: Position) -> u32 {
        data.lines.offset(&data.text, pos, self.encoding) as u32
    }

    /// The location of the declaration `key`.
    fn location(&self, unit: &Unit, resolved: &Resolved, key: &DefKey) -> Option<Location> {
        let def = resolved.locals.get(key).or_else(|| unit.defs.get(key))?;
        let data = match unit.file(&key.file) {
            Some(d) => d.clone(),
            None => self.load(&key.file)?,
        };
        Some(Location::new(
            path_to_uri(&key.file)?,
            data.lines.range(&data.text, def.name_range, self.encoding),
        ))
    }

    fn hover(&self, uri: &Uri, pos: Position) -> Option<Hover> {
        let a = self.open(uri)?;
        let (data, unit, resolved) = (&a.data, &a.unit, &a.resolved);
        let r = resolved.at(self.offset(data, pos))?;
        let value = match &r.target {
            Target::Builtin(b) => builtins::hover(*b),
            Target::File(path) => format!(
                "```festina\nimport {}\n```\n{}",
                data.text[r.range].trim(),
                path.display()
            ),
            Target::Def(key) => {
                let def = resolved.locals.get(key).or_else(|| unit.defs.get(key))?;
                let what = match def.kind {
                    DefKind::Function => "function".to_string(),
                    DefKind::Global => "global variable".to_string(),
                    DefKind::Constant => "global constant".to_string(),
                    DefKind::Local => "local variable".to_string(),
                    DefKind::Param => "parameter".to_string(),
                    DefKind::Struct => "struct".to_string(),
                    DefKind::Table => "table".to_string(),
                    DefKind::Enum => "enum".to_string(),
                    DefKind::Field => format!("field of {}", def.owner.as_deref().unwrap_or("?")),
                    DefKind::TestGroup => "test group".to_string(),
                };
                let mut text = format!("```festina\n{}\n```\n{what}", def.detail);
                if let Some(ty) = &r.narrowed {
                    text.push_str(&format!(", here a `{ty}` (this match arm)"));
                }
                if *key.file != *data.path {
                    if let Some(other) = unit.file(&key.file) {
                        let line = other
                            .lines
                            .position(&other.text, def.name_range.start().into(), self.encoding)
                            .line
                            + 1;
                        let shown = data
                            .path
                            .parent()
                            .and_then(|dir| key.file.strip_prefix(dir).ok())
                            .unwrap_or(&key.file);
                        text.push_str(&format!(", declared in {}:{line}", shown.display()));
                    }
                }
                text
            }
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(data.lines.range(&data.text, r.range, self.encoding)),
        })
    }

    fn definition(&self, uri: &Uri, pos: Position) -> Option<Location> {
        let a = self.open(uri)?;
        let (data, unit, resolved) = (&a.data, &a.unit, &a.resolved);
        let r = resolved.at(self.offset(data, pos))?;
        match &r.target {
            Target::Def(key) => self.location(unit, resolved, key),
            Target::File(path) => Some(Location::new(path_to_uri(path)?, Range::default())),
            Target::Builtin(_) => None,
        }
    }

    fn references(&self, uri: &Uri, pos: Position, with_decl: bool) -> Option<Vec<Location>> {
        let a = self.open(uri)?;
        let (data, unit, resolved) = (&a.data, &a.unit, &a.resolved);
        let key = match resolved.at(self.offset(data, pos))?.target.clone() {
            Target::Def(key) => key,
            Target::File(target) => return Some(self.imports_of(unit, &target)),
            Target::Builtin(_) => return Some(Vec::new()),
        };
        let mut out = Vec::new();
        let keep = |r: &&crate::analysis::Ref| {
            r.target == Target::Def(key.clone()) && (with_decl || !r.decl)
        };
        if resolved.locals.contains_key(&key) {
            for r in resolved.refs.iter().filter(keep) {
                out.push(Location::new(
                    uri.clone(),
                    data.lines.range(&data.text, r.range, self.encoding),
                ));
            }
            return Some(out);
        }
        let name = unit.defs.get(&key)?.name.clone();
        for path in self.candidate_files(unit) {
            let Some(file) = self.load(&path) else {
                continue;
            };
            if !file.text.contains(&name) {
                continue;
            }
            let file_unit = Unit::new(file.clone(), self);
            if !file_unit.defs.contains_key(&key) {
                continue;
            }
            let Some(file_uri) = path_to_uri(&path) else {
                continue;
            };
            let refs = resolve(&file_unit, &file);
            for r in refs.refs.iter().filter(keep) {
                out.push(Location::new(
                    file_uri.clone(),
                    file.lines.range(&file.text, r.range, self.encoding),
                ));
            }
        }
        Some(out)
    }

    /// The files a reference may be in, each once: the program of `unit`,
    /// the open documents and the workspace's `.f` files.
    fn candidate_files(&self, unit: &Unit) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = unit.files.iter().map(|f| f.path.to_path_buf()).collect();
        files.extend(self.docs.keys().cloned());
        files.extend(self.workspace_files());
        let mut seen = BTreeSet::new();
        files.retain(|p| seen.insert(p.clone()));
        files
    }

    /// The references of an imported file: the path of every `import` of
    /// `target` among the candidate files (its declaration is the file
    /// itself, so there is none to include).
    fn imports_of(&self, unit: &Unit, target: &Path) -> Vec<Location> {
        let mut out = Vec::new();
        for path in self.candidate_files(unit) {
            let Some(file) = self.load(&path) else {
                continue;
            };
            let Some(file_uri) = path_to_uri(&path) else {
                continue;
            };
            for import in &file.outline.imports {
                if import.target.as_deref() == Some(target) {
                    out.push(Location::new(
                        file_uri.clone(),
                        file.lines.range(&file.text, import.range, self.encoding),
                    ));
                }
            }
        }
        out
    }

    /// The `.f` files under the workspace folders (not under `target` or
    /// hidden directories), at most [`WORKSPACE_FILE_LIMIT`].
    fn workspace_files(&self) -> Vec<PathBuf> {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                if out.len() >= WORKSPACE_FILE_LIMIT {
                    return;
                }
                let name = e.file_name().to_string_lossy().into_owned();
                let path = e.path();
                let skipped = name.starts_with('.') || name == "target" || name == "node_modules";
                match e.file_type() {
                    Ok(t) if t.is_dir() && !skipped => walk(&path, out),
                    Ok(t) if !t.is_dir() && name.ends_with(".f") => out.push(file_key(&path)),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        for root in &self.roots {
            walk(root, &mut out);
        }
        out
    }

    fn completion(&self, uri: &Uri, pos: Position) -> Option<Vec<CompletionItem>> {
        let a = self.open(uri)?;
        let (data, unit, resolved) = (&a.data, &a.unit, &a.resolved);
        let offset = self.offset(data, pos) as usize;
        let before = &data.text[..offset.min(data.text.len())];
        let word_start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
            .last()
            .map_or(before.len(), |(i, _)| i);
        if before[..word_start].ends_with('.') {
            let site = resolved
                .members
                .iter()
                .find(|m| m.dot_end as usize == word_start)?;
            return Some(member_items(unit, &site.receiver));
        }
        Some(self.scope_items(unit, resolved, word_start as u32))
    }

    /// The names usable at `offset`: locals in scope, the program's
    /// declarations, the builtins and the keywords.
    fn scope_items(&self, unit: &Unit, resolved: &Resolved, offset: u32) -> Vec<CompletionItem> {
        let at = rowan::TextSize::from(offset);
        let mut items: Vec<CompletionItem> = Vec::new();
        let mut names = BTreeSet::new();
        let mut locals: Vec<_> = resolved
            .locals
            .values()
            .filter(|d| d.visible.is_some_and(|v| v.contains_inclusive(at)))
            .collect();
        // The innermost (latest) declaration of a name wins.
        locals.sort_by_key(|d| std::cmp::Reverse(d.name_range.start()));
        for def in locals.into_iter().chain(unit.defs.values()) {
            if def.kind == DefKind::Field || !names.insert(def.name.clone()) {
                continue;
            }
            let kind = match def.kind {
                DefKind::Function => CompletionItemKind::FUNCTION,
                DefKind::Struct | DefKind::Table => CompletionItemKind::STRUCT,
                DefKind::Enum => CompletionItemKind::ENUM,
                DefKind::Constant => CompletionItemKind::CONSTANT,
                _ => CompletionItemKind::VARIABLE,
            };
            items.push(item(&def.name, kind, &def.detail, None));
        }
        for b in BUILTINS {
            if names.insert(b.name.to_string()) {
                let builtin = Builtin::Global(b.name);
                items.push(builtin_item(builtin, CompletionItemKind::FUNCTION));
            }
        }
        for v in VALUES {
            if names.insert(v.name.to_string()) {
                let builtin = Builtin::Value(v.name);
                items.push(builtin_item(builtin, CompletionItemKind::CONSTANT));
            }
        }
        for s in SPECIALS {
            if names.insert(s.0.to_string()) {
                let kind = if s.0 == "Math" || s.0 == "environment" {
                    CompletionItemKind::MODULE
                } else {
                    CompletionItemKind::VARIABLE
                };
                items.push(builtin_item(Builtin::Special(s.0), kind));
            }
        }
        for kw in KEYWORDS {
            if names.insert(kw.to_string()) {
                items.push(item(kw, CompletionItemKind::KEYWORD, "", None));
            }
        }
        items
    }

    fn formatting(&self, id: RequestId, p: &DocumentFormattingParams) -> Response {
        let Some(key) = uri_to_path(&p.text_document.uri).map(|p| file_key(&p)) else {
            return reply(id, Option::<Vec<TextEdit>>::None);
        };
        let Some(doc) = self.docs.get(&key) else {
            return reply(id, Option::<Vec<TextEdit>>::None);
        };
        match format(&doc.text) {
            Ok(out) if out == doc.text => reply(id, Vec::<TextEdit>::new()),
            Ok(out) => {
                let index = LineIndex::new(&doc.text);
                let all = TextRange::up_to((doc.text.len() as u32).into());
                let range = index.range(&doc.text, all, self.encoding);
                reply(id, vec![TextEdit::new(range, out)])
            }
            Err(FormatError::Syntax(errors)) => Response::new_err(
                id,
                ErrorCode::RequestFailed as i32,
                format!(
                    "festina fmt: the file has {} syntax error(s); fix them first (see the problems list)",
                    errors.len()
                ),
            ),
            Err(e) => Response::new_err(id, ErrorCode::RequestFailed as i32, e.to_string()),
        }
    }
}

/// The reserved words offered by completion (§7.4).
const KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "match", "default", "return", "break", "continue", "try",
    "catch", "throw", "free", "clear", "delete", "func", "void", "struct", "table", "enum",
    "import", "const", "on", "test", "typeof", "true", "false", "null", "int", "float", "bool",
    "text", "ascii", "blob", "img", "aud", "arr", "map", "amor",
];

fn publish(uri: Uri, diagnostics: Vec<Diagnostic>, version: Option<i32>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    )
}

fn item(
    label: &str,
    kind: CompletionItemKind,
    detail: &str,
    doc: Option<String>,
) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: (!detail.is_empty()).then(|| detail.to_string()),
        documentation: doc.map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        }),
        ..CompletionItem::default()
    }
}

fn builtin_item(b: Builtin, kind: CompletionItemKind) -> CompletionItem {
    let detail = builtins::signatures(b).join(" | ");
    let doc = builtins::documentation(b).map(|(clause, text)| format!("{clause}: {text}"));
    item(builtins::name(b), kind, &detail, doc)
}

/// The completions after `receiver.`.
fn member_items(unit: &Unit, receiver: &Receiver) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    match receiver {
        Receiver::Math => {
            for f in MATH {
                if names.insert(f.name.to_string()) {
                    items.push(builtin_item(
                        Builtin::Math(f.name),
                        CompletionItemKind::FUNCTION,
                    ));
                }
            }
            for (c, _) in MATH_CONSTANTS {
                items.push(builtin_item(Builtin::Math(c), CompletionItemKind::CONSTANT));
            }
        }
        Receiver::Environment => {}
        Receiver::Value(ty) => {
            if let Ty::Named(name) = ty.strip_manual() {
                let mut records = vec![name.clone()];
                if let Some(def) = unit.types.get(name).and_then(|k| unit.defs.get(k)) {
                    records.extend(def.members.iter().cloned());
                }
                for record in records {
                    for field in unit.fields_of(&record) {
                        if names.insert(field.name.clone()) {
                            items.push(item(
                                &field.name,
                                CompletionItemKind::FIELD,
                                &field.detail,
                                None,
                            ));
                        }
                    }
                }
            }
            for recv in ty.receivers(|n| unit.is_record(n)) {
                for m in METHODS.iter().filter(|m| m.recv == recv) {
                    if names.insert(m.name.to_string()) {
                        items.push(builtin_item(
                            Builtin::Member(recv, m.name),
                            CompletionItemKind::METHOD,
                        ));
                    }
                }
                for p in PROPERTIES.iter().filter(|p| p.recv == recv) {
                    if names.insert(p.name.to_string()) {
                        let detail =
                            format!("{}.{}: {}", recv_text(recv), p.name, shape_text(p.ret));
                        let doc = builtins::documentation(Builtin::Member(recv, p.name))
                            .map(|(c, t)| format!("{c}: {t}"));
                        items.push(item(p.name, CompletionItemKind::PROPERTY, &detail, doc));
                    }
                }
            }
        }
    }
    items
}
