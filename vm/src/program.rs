//! The loaded program: immutable, shareable across threads (`Arc<Program>`).
//!
//! A [`Program`] is what the compiler produces and what the serialized
//! bytecode format (see `crate::serialize`) stores: functions with their
//! code and line tables, one constant pool, the global slots, and the type
//! tables the VM needs for rendering, zero values and `typeof`.

use crate::opcode::Instr;
use crate::types::{EnumId, StructId, TableId, Type, TypeNames};

/// A constant-pool entry (`K[k]` in the instruction reference).
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    /// A 64-bit integer too wide for `LoadInt`'s 32-bit immediate.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A `text` literal (valid UTF-8, no NUL).
    Text(String),
    /// An `ascii` literal converted at compile time (§8.5).
    Ascii(Vec<u8>),
}

/// One compiled function (declared, arrow, or the generated entry, §6.3).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Source name (`<main>` for the entry function, `<arrow@line>` for arrows).
    pub name: String,
    /// Index into [`Program::files`] of the file it was declared in.
    pub file: u32,
    /// Number of parameters; they arrive in registers `0..nparams`.
    pub nparams: u16,
    /// Size of the register window (parameters included).
    pub nregs: u16,
    /// True if the function returns a value.
    pub returns_value: bool,
    /// The instructions.
    pub code: Vec<Instr>,
    /// Source line (1-based) of each instruction; same length as `code`.
    pub lines: Vec<u32>,
}

impl Function {
    /// A function written by hand (tests, benchmarks): returns a value,
    /// declared in file 0, instruction `i` on line `i + 1`.
    pub fn hand_written(name: &str, nparams: u16, nregs: u16, code: Vec<Instr>) -> Function {
        Function {
            name: name.into(),
            file: 0,
            nparams,
            nregs,
            returns_value: true,
            lines: (1..=code.len() as u32).collect(),
            code,
        }
    }
}

/// A global variable slot (`G[g]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// Source name.
    pub name: String,
    /// Declared type; decides its zero value at program start (§8.2).
    pub ty: Type,
}

/// A field of a struct or column of a table (§8.9, §8.10).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Field name as declared.
    pub name: String,
    /// Declared type.
    pub ty: Type,
}

/// A `struct` or `table` declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Declared name.
    pub name: String,
    /// Fields in declaration order; `GetField`'s `field` indexes this.
    pub fields: Vec<Field>,
    /// True if a value of this type can reach itself through fields,
    /// elements or map values (§13.3): only such types need cycle collection.
    pub may_cycle: bool,
}

/// An `enum` declaration (§8.11).
#[derive(Clone, Debug, PartialEq)]
pub struct Enum {
    /// Declared name.
    pub name: String,
    /// Member types in declaration order.
    pub members: Vec<Type>,
    /// What `typeof` answers for each member (`'User'`, `'int'`, `'arr[int]'`).
    pub member_names: Vec<String>,
    /// True if every member is a struct: values are then the struct itself
    /// (no box), and the tag is found from the struct's id.
    pub pure_struct: bool,
}

/// Operand table of `EnumField`: which struct variant declares the field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumFieldRef {
    /// The struct member that declares the field.
    pub sid: StructId,
    /// Field index within that struct.
    pub field: u16,
    /// Field name, for the failure message.
    pub name: String,
    /// The enum read through, for the failure message (`field 'radius' is
    /// only valid when this Shape value is a Circle`).
    pub enum_id: EnumId,
}

/// A top-level event handler (`on NAME(...) { }`, §11.5): the event's name
/// and the compiled function that handles it. Handler functions take the
/// event's fixed parameters (e.g. `exit`: one `int`) and return nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct EventHandler {
    /// The event name as written (`exit`, `request`, or any unknown name,
    /// which is accepted and never fires).
    pub event: String,
    /// Index into [`Program::functions`] of the handler body.
    pub func: u32,
}

/// A compiled program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// Source file names as given to the compiler (diagnostics, failures).
    pub files: Vec<String>,
    /// The constant pool.
    pub consts: Vec<Const>,
    /// All functions; `Call`'s `func` indexes this.
    pub functions: Vec<Function>,
    /// Index of the generated entry function (§6.3).
    pub entry: u32,
    /// Global slots.
    pub globals: Vec<Global>,
    /// Struct declarations.
    pub structs: Vec<Record>,
    /// Table declarations.
    pub tables: Vec<Record>,
    /// Enum declarations.
    pub enums: Vec<Enum>,
    /// Operand table for `EnumField`.
    pub enum_fields: Vec<EnumFieldRef>,
    /// Names of the native intrinsics this program calls; `CallNative`'s
    /// `id` indexes this list, and the VM binds each name to a function of
    /// the registry it is given when it loads the program.
    pub natives: Vec<String>,
    /// Top-level event handlers, at most one per event name (§11.5); the
    /// event loop and `close()` look them up by name.
    pub handlers: Vec<EventHandler>,
    /// Types that natives need at run time, referenced by index: a native
    /// such as `text.toStruct(T)`/`text.toArr(T)` (§16.4) receives an
    /// `int` argument indexing this table (the JSON parsing target).
    pub types: Vec<Type>,
}

impl Program {
    /// The function handling event `event` at top level, if declared.
    pub fn handler(&self, event: &str) -> Option<u32> {
        self.handlers
            .iter()
            .find(|h| h.event == event)
            .map(|h| h.func)
    }
}

impl TypeNames for Program {
    fn struct_name(&self, id: StructId) -> &str {
        self.structs.get(id as usize).map_or("?", |r| &r.name)
    }
    fn table_name(&self, id: TableId) -> &str {
        self.tables.get(id as usize).map_or("?", |r| &r.name)
    }
    fn enum_name(&self, id: EnumId) -> &str {
        self.enums.get(id as usize).map_or("?", |e| &e.name)
    }
}
