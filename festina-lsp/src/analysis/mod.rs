//! What the editor knows about a program: its declarations, where every
//! name leads, and the static type of the names and expressions it can
//! type; built from the lossless syntax tree (`festina_compiler::parsing`),
//! so that it works on a file that does not compile yet.
//!
//! # Design
//!
//! - A [`FileData`] is one parsed file (text, green tree, line index)
//!   with its [`Outline`]: the declarations every file of a program sees
//!   (functions, wherever they are declared, top-level globals and test
//!   groups, structs, tables and their fields, enums) and its imports.
//!   The server keeps one per open document and per file read from disk,
//!   and rebuilds it only when the text changes.
//! - A [`Unit`] is a file with everything it imports, transitively
//!   (§6.2: one compilation unit): the outlines merged into one type and
//!   one value namespace.
//! - [`resolve`] walks one file of a unit with the scopes of §6 (block
//!   scopes, parameters, no closures: a function or arrow body sees only
//!   its parameters, its own locals and the globals) and types each
//!   expression bottom-up from the declared types (every declaration
//!   names its type, §8), the fields of the records and the builtin
//!   signatures. The result ([`Resolved`]) lists every name use with what
//!   it denotes, the locals with where they are visible, and the places
//!   after a `.` with the type before it (for completion).
//!
//! A declaration is known by its [`DefKey`]: the file and the offset of
//! its name, the same in every unit that contains the file. Everything
//! here runs on the server's one thread; nothing is shared.

pub mod builtins;
mod outline;
mod resolve;
pub mod ty;

pub use outline::{outline, Import, Outline};
pub use resolve::{resolve, MemberSite, Receiver, Ref, Resolved, Target};

use crate::text::LineIndex;
use festina_compiler::parsing::{parse, Parse};
use festina_compiler::syntax::SyntaxNode;
use rowan::TextRange;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use ty::Ty;

/// The identity of a declaration: its file and the offset of its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DefKey {
    /// The file's key path (canonical, see [`crate::text::file_key`]).
    pub file: Rc<Path>,
    /// Byte offset of the declared name.
    pub at: u32,
}

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// A function (§11.1), wherever it is declared.
    Function,
    /// A top-level variable (§6.4).
    Global,
    /// A top-level constant (§10.2).
    Constant,
    /// A local variable.
    Local,
    /// A parameter of a function, handler or arrow, or a caught error.
    Param,
    /// A struct (§8.9).
    Struct,
    /// A table (§8.10).
    Table,
    /// An enum (§8.11).
    Enum,
    /// A field of a struct or table.
    Field,
    /// A `test` group (the reference's §11.7).
    TestGroup,
}

/// One declaration.
#[derive(Clone, Debug)]
pub struct Def {
    /// Its identity.
    pub key: DefKey,
    /// What it declares.
    pub kind: DefKind,
    /// The declared name.
    pub name: String,
    /// The range of the name.
    pub name_range: TextRange,
    /// The value's type: a variable's declared type, a function's
    /// `func[...]` type, a field's type; for a record or enum, `Named`.
    pub ty: Ty,
    /// The declaration as hover shows it (`int func square(n:int)`).
    pub detail: String,
    /// For a field: the struct or table it belongs to.
    pub owner: Option<String>,
    /// For an enum: its member types' names.
    pub members: Vec<String>,
    /// For a local: where its name is in scope.
    pub visible: Option<TextRange>,
}

/// One parsed file.
pub struct FileData {
    /// The key path (canonical when the file exists).
    pub path: Rc<Path>,
    /// The text.
    pub text: String,
    /// The parse: the green tree and the syntax errors.
    pub parse: Parse,
    /// Line starts, for positions.
    pub lines: LineIndex,
    /// Its declarations and imports.
    pub outline: Outline,
}

impl FileData {
    /// Parses `text` as the file `path` (a key path).
    pub fn new(path: Rc<Path>, text: String) -> FileData {
        let parse = parse(&text);
        let lines = LineIndex::new(&text);
        let root = parse.syntax_node();
        let outline = outline(&path, &root);
        FileData {
            path,
            text,
            parse,
            lines,
            outline,
        }
    }

    /// The root of the red tree.
    pub fn root(&self) -> SyntaxNode {
        self.parse.syntax_node()
    }
}

/// Where the files of a unit come from: the editor's buffers or the disk.
pub trait Files {
    /// The file at the key path `path`, if it can be read.
    fn load(&self, path: &Path) -> Option<Rc<FileData>>;
}

/// A file and everything it imports (§6.2), with the merged namespaces.
pub struct Unit {
    /// The files: the entry first, then its imports breadth-first.
    pub files: Vec<Rc<FileData>>,
    /// Struct, table and enum names.
    pub types: HashMap<String, DefKey>,
    /// Functions, globals, constants and test groups.
    pub values: HashMap<String, DefKey>,
    /// The fields, by record name and field name.
    pub fields: HashMap<(String, String), DefKey>,
    /// Every declaration of [`Unit::types`], [`Unit::values`] and
    /// [`Unit::fields`].
    pub defs: HashMap<DefKey, Def>,
}

impl Unit {
    /// The unit whose entry file is `entry`. An import that cannot be
    /// read is left out (the compiler reports it).
    pub fn new(entry: Rc<FileData>, files: &dyn Files) -> Unit {
        let mut unit = Unit {
            files: Vec::new(),
            types: HashMap::new(),
            values: HashMap::new(),
            fields: HashMap::new(),
            defs: HashMap::new(),
        };
        let mut seen: Vec<PathBuf> = vec![entry.path.to_path_buf()];
        let mut queue = std::collections::VecDeque::from([entry]);
        while let Some(file) = queue.pop_front() {
            for import in &file.outline.imports {
                let Some(target) = &import.target else {
                    continue;
                };
                if seen.contains(target) {
                    continue;
                }
                seen.push(target.clone());
                if let Some(data) = files.load(target) {
                    queue.push_back(data);
                }
            }
            unit.add(file);
        }
        unit
    }

    fn add(&mut self, file: Rc<FileData>) {
        for def in &file.outline.defs {
            let key = def.key.clone();
            match def.kind {
                DefKind::Struct | DefKind::Table | DefKind::Enum => {
                    self.types.entry(def.name.clone()).or_insert(key.clone());
                }
                DefKind::Field => {
                    let owner = def.owner.clone().unwrap_or_default();
                    self.fields
                        .entry((owner, def.name.clone()))
                        .or_insert(key.clone());
                }
                _ => {
                    self.values.entry(def.name.clone()).or_insert(key.clone());
                }
            }
            self.defs.insert(key, def.clone());
        }
        self.files.push(file);
    }

    /// The file of the unit at `path`.
    pub fn file(&self, path: &Path) -> Option<&Rc<FileData>> {
        self.files.iter().find(|f| &*f.path == path)
    }

    /// True when `name` is a struct or table of the unit.
    pub fn is_record(&self, name: &str) -> bool {
        self.types
            .get(name)
            .and_then(|k| self.defs.get(k))
            .is_some_and(|d| matches!(d.kind, DefKind::Struct | DefKind::Table))
    }

    /// The fields of the struct or table `name`, in declaration order.
    pub fn fields_of(&self, name: &str) -> Vec<&Def> {
        let mut out: Vec<&Def> = self
            .defs
            .values()
            .filter(|d| d.kind == DefKind::Field && d.owner.as_deref() == Some(name))
            .collect();
        out.sort_by_key(|d| (d.key.file.clone(), d.key.at));
        out
    }

    /// The field `field` of a value of type `ty` (a record, or an enum
    /// one of whose members declares it), with its declaration.
    pub fn field(&self, ty: &Ty, field: &str) -> Option<&Def> {
        let Ty::Named(name) = ty.strip_manual() else {
            return None;
        };
        if let Some(key) = self.fields.get(&(name.clone(), field.to_string())) {
            return self.defs.get(key);
        }
        let def = self.defs.get(self.types.get(name)?)?;
        def.members.iter().find_map(|member| {
            self.fields
                .get(&(member.clone(), field.to_string()))
                .and_then(|k| self.defs.get(k))
        })
    }
}

#[cfg(test)]
mod tests;
