//! The serialized form of a [`Program`] (bytecode bundles written by
//! `festina compile`).
//!
//! # Format (version [`FORMAT_VERSION`])
//! All integers are little-endian. A *string* is a `u32` byte length then
//! that many UTF-8 bytes; a *list* is a `u32` count then the items.
//!
//! | part        | content |
//! |-------------|---------|
//! | magic       | the 4 bytes `FSTB` |
//! | version     | `u32` format version |
//! | fingerprint | `u64` FNV-1a hash of the instruction mnemonics in opcode order: a build whose instruction set differs refuses the bundle |
//! | files       | list of strings |
//! | consts      | list of: tag `u8` (0 int: `i64`; 1 float: `u64` bits; 2 text: string; 3 ascii: `u32` length + bytes) |
//! | functions   | list of: name string, file `u32`, nparams `u16`, nregs `u16`, returns_value `u8` (0/1), instruction count `u32`, each instruction as [`Instr::encode`] writes it (opcode byte, operands in declared widths), then one `u32` line per instruction |
//! | entry       | `u32` function index |
//! | globals     | list of: name string, type |
//! | structs     | list of records: name string, may_cycle `u8`, list of fields (name string, type) |
//! | tables      | list of records, as structs |
//! | enums       | list of: name string, pure_struct `u8`, list of members (type, `typeof` name string) |
//! | enum_fields | list of: sid `u32`, field `u16`, name string, enum `u32` (since version 4) |
//! | natives     | list of strings |
//! | handlers    | list of: event name string, function `u32` (top-level `on NAME` handlers, §11.5; since version 2) |
//! | types       | list of types (`Program::types`: run-time type operands of natives such as JSON parsing, §16.4; since version 3) |
//!
//! Nothing may follow the last section. Version history: 1, the core
//! language; 2, the `handlers` section; 3, the `types` section; 4, the
//! type tags 26 (`weak T` field) and 27 (`test`).
//!
//! A *type* is a tag byte: 0 int, 1 float, 2 bool, 3 text, 4 ascii, 5 blob,
//! 6 img, 7 aud, 8 regex, 9 color, 10 font, 11 http, 12 socket, 13 url,
//! 14 thread, 15 `arr[T]` (then T), 16 `amor arr[T]` (then T), 17 `map[T]`
//! (then T), 18 `func` (then a list of parameter types and the result type),
//! 19 struct (`u32` id), 20 table (`u32` id), 21 enum (`u32` id),
//! 22 `T?` (then T), 23 null, 24 void, 25 error, 26 `weak T` (then T, a
//! weak struct field's type), 27 `test`. Nesting is limited to
//! [`MAX_TYPE_DEPTH`].
//!
//! # Trust
//! [`from_bytes`] trusts nothing: every length is checked against the
//! bytes remaining, and the decoded program is verified
//! ([`crate::verify::verify`]: registers, constant/global/function/struct/
//! enum/native indexes, jump targets) before it is returned. Any defect is
//! a [`FormatError`], never a panic.

use crate::opcode::{Instr, MNEMONICS};
use crate::program::{
    Const, Enum, EnumFieldRef, EventHandler, Field, Function, Global, Program, Record,
};
use crate::types::Type;
use std::fmt;

/// The 4 magic bytes opening every bundle.
pub const MAGIC: &[u8; 4] = b"FSTB";

/// Current format version; bumped on any layout change.
pub const FORMAT_VERSION: u32 = 4;

/// Deepest type nesting accepted when decoding.
pub const MAX_TYPE_DEPTH: u32 = 64;

/// A bundle that cannot be loaded, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Human-readable reason.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormatError {}

fn err<T>(m: impl Into<String>) -> Result<T, FormatError> {
    Err(FormatError { message: m.into() })
}

/// FNV-1a over the mnemonics in opcode order: identifies the instruction
/// set a bundle was encoded for.
pub fn instruction_set_fingerprint() -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for m in MNEMONICS {
        for b in m.bytes().chain(std::iter::once(0)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

// ---------------------------------------------------------------------------
// Encoding

struct W(Vec<u8>);

impl W {
    fn u8(&mut self, v: u8) {
        self.0.push(v)
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes())
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes())
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes())
    }
    fn len(&mut self, n: usize) {
        self.u32(n as u32)
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b)
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes())
    }
    fn ty(&mut self, t: &Type) {
        match t {
            Type::Int => self.u8(0),
            Type::Float => self.u8(1),
            Type::Bool => self.u8(2),
            Type::Text => self.u8(3),
            Type::Ascii => self.u8(4),
            Type::Blob => self.u8(5),
            Type::Img => self.u8(6),
            Type::Aud => self.u8(7),
            Type::Regex => self.u8(8),
            Type::Color => self.u8(9),
            Type::Font => self.u8(10),
            Type::Http => self.u8(11),
            Type::Socket => self.u8(12),
            Type::Url => self.u8(13),
            Type::Thread => self.u8(14),
            Type::Arr(e) => {
                self.u8(15);
                self.ty(e)
            }
            Type::Amor(e) => {
                self.u8(16);
                self.ty(e)
            }
            Type::Map(e) => {
                self.u8(17);
                self.ty(e)
            }
            Type::Func(ps, r) => {
                self.u8(18);
                self.len(ps.len());
                for p in ps {
                    self.ty(p);
                }
                self.ty(r)
            }
            Type::Struct(id) => {
                self.u8(19);
                self.u32(*id)
            }
            Type::Table(id) => {
                self.u8(20);
                self.u32(*id)
            }
            Type::Enum(id) => {
                self.u8(21);
                self.u32(*id)
            }
            Type::Manual(e) => {
                self.u8(22);
                self.ty(e)
            }
            Type::Null => self.u8(23),
            Type::Void => self.u8(24),
            Type::Error => self.u8(25),
            Type::Weak(e) => {
                self.u8(26);
                self.ty(e)
            }
            Type::Test => self.u8(27),
        }
    }
    fn record(&mut self, r: &Record) {
        self.str(&r.name);
        self.u8(r.may_cycle as u8);
        self.len(r.fields.len());
        for f in &r.fields {
            self.str(&f.name);
            self.ty(&f.ty);
        }
    }
}

/// Serialize `program` (see the module documentation for the layout).
pub fn to_bytes(program: &Program) -> Vec<u8> {
    let mut w = W(Vec::new());
    w.0.extend_from_slice(MAGIC);
    w.u32(FORMAT_VERSION);
    w.u64(instruction_set_fingerprint());
    w.len(program.files.len());
    for f in &program.files {
        w.str(f);
    }
    w.len(program.consts.len());
    for c in &program.consts {
        match c {
            Const::Int(i) => {
                w.u8(0);
                w.u64(*i as u64)
            }
            Const::Float(f) => {
                w.u8(1);
                w.u64(f.to_bits())
            }
            Const::Text(s) => {
                w.u8(2);
                w.str(s)
            }
            Const::Ascii(b) => {
                w.u8(3);
                w.bytes(b)
            }
        }
    }
    w.len(program.functions.len());
    for f in &program.functions {
        w.str(&f.name);
        w.u32(f.file);
        w.u16(f.nparams);
        w.u16(f.nregs);
        w.u8(f.returns_value as u8);
        w.len(f.code.len());
        for ins in &f.code {
            ins.encode(&mut w.0);
        }
        for i in 0..f.code.len() {
            w.u32(f.lines.get(i).copied().unwrap_or(0));
        }
    }
    w.u32(program.entry);
    w.len(program.globals.len());
    for g in &program.globals {
        w.str(&g.name);
        w.ty(&g.ty);
    }
    for recs in [&program.structs, &program.tables] {
        w.len(recs.len());
        for r in recs.iter() {
            w.record(r);
        }
    }
    w.len(program.enums.len());
    for e in &program.enums {
        w.str(&e.name);
        w.u8(e.pure_struct as u8);
        w.len(e.members.len());
        for (i, m) in e.members.iter().enumerate() {
            w.ty(m);
            w.str(e.member_names.get(i).map_or("", |s| s.as_str()));
        }
    }
    w.len(program.enum_fields.len());
    for r in &program.enum_fields {
        w.u32(r.sid);
        w.u16(r.field);
        w.str(&r.name);
        w.u32(r.enum_id);
    }
    w.len(program.natives.len());
    for n in &program.natives {
        w.str(n);
    }
    w.len(program.handlers.len());
    for h in &program.handlers {
        w.str(&h.event);
        w.u32(h.func);
    }
    w.len(program.types.len());
    for t in &program.types {
        w.ty(t);
    }
    w.0
}

// ---------------------------------------------------------------------------
// Decoding

struct R<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> R<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], FormatError> {
        match self.b.get(self.pos..self.pos.saturating_add(n)) {
            Some(s) if self.pos.checked_add(n).is_some() => {
                self.pos += n;
                Ok(s)
            }
            _ => err(format!(
                "truncated bundle (reading {what} at byte {})",
                self.pos
            )),
        }
    }
    fn u8(&mut self, what: &str) -> Result<u8, FormatError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, FormatError> {
        let s = self.take(2, what)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, FormatError> {
        let s = self.take(4, what)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self, what: &str) -> Result<u64, FormatError> {
        let s = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_le_bytes(a))
    }
    fn bool(&mut self, what: &str) -> Result<bool, FormatError> {
        match self.u8(what)? {
            0 => Ok(false),
            1 => Ok(true),
            x => err(format!("bad flag {x} for {what}")),
        }
    }
    /// A count of items that each take at least `min` bytes: refuse counts
    /// the remaining input cannot hold (no huge allocations from bad input).
    fn count(&mut self, what: &str, min: usize) -> Result<usize, FormatError> {
        let n = self.u32(what)? as usize;
        let left = self.b.len() - self.pos;
        if n.saturating_mul(min.max(1)) > left {
            return err(format!(
                "{what}: count {n} exceeds the remaining {left} bytes"
            ));
        }
        Ok(n)
    }
    fn bytes(&mut self, what: &str) -> Result<&'a [u8], FormatError> {
        let n = self.count(what, 1)?;
        self.take(n, what)
    }
    fn str(&mut self, what: &str) -> Result<String, FormatError> {
        let b = self.bytes(what)?;
        match std::str::from_utf8(b) {
            Ok(s) => Ok(s.to_string()),
            Err(_) => err(format!("{what} is not valid UTF-8")),
        }
    }
    fn ty(&mut self, depth: u32) -> Result<Type, FormatError> {
        if depth > MAX_TYPE_DEPTH {
            return err("type nested too deeply");
        }
        let d = depth + 1;
        Ok(match self.u8("type tag")? {
            0 => Type::Int,
            1 => Type::Float,
            2 => Type::Bool,
            3 => Type::Text,
            4 => Type::Ascii,
            5 => Type::Blob,
            6 => Type::Img,
            7 => Type::Aud,
            8 => Type::Regex,
            9 => Type::Color,
            10 => Type::Font,
            11 => Type::Http,
            12 => Type::Socket,
            13 => Type::Url,
            14 => Type::Thread,
            15 => Type::Arr(Box::new(self.ty(d)?)),
            16 => Type::Amor(Box::new(self.ty(d)?)),
            17 => Type::Map(Box::new(self.ty(d)?)),
            18 => {
                let n = self.count("function type parameters", 1)?;
                let mut ps = Vec::with_capacity(n);
                for _ in 0..n {
                    ps.push(self.ty(d)?);
                }
                Type::Func(ps, Box::new(self.ty(d)?))
            }
            19 => Type::Struct(self.u32("struct id")?),
            20 => Type::Table(self.u32("table id")?),
            21 => Type::Enum(self.u32("enum id")?),
            22 => Type::Manual(Box::new(self.ty(d)?)),
            23 => Type::Null,
            24 => Type::Void,
            25 => Type::Error,
            26 => Type::Weak(Box::new(self.ty(d)?)),
            27 => Type::Test,
            t => return err(format!("unknown type tag {t}")),
        })
    }
    fn record(&mut self) -> Result<Record, FormatError> {
        let name = self.str("record name")?;
        let may_cycle = self.bool("may_cycle")?;
        let n = self.count("fields", 5)?;
        let mut fields = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.str("field name")?;
            let ty = self.ty(0)?;
            fields.push(Field { name, ty });
        }
        Ok(Record {
            name,
            fields,
            may_cycle,
        })
    }
}

/// Decode and verify a bundle produced by [`to_bytes`]. Errors: wrong
/// magic, another format version or instruction set, truncation, trailing
/// bytes, malformed data, or a program that fails verification.
pub fn from_bytes(bytes: &[u8]) -> Result<Program, FormatError> {
    let mut r = R { b: bytes, pos: 0 };
    if r.take(4, "magic").ok() != Some(MAGIC.as_slice()) {
        return err("not a festina bytecode bundle (bad magic)");
    }
    let v = r.u32("format version")?;
    if v != FORMAT_VERSION {
        return err(format!(
            "bundle format version {v} is not supported by this festina (expects {FORMAT_VERSION}); rebuild it with this version"
        ));
    }
    if r.u64("instruction set fingerprint")? != instruction_set_fingerprint() {
        return err(
            "bundle was built by an incompatible festina (different instruction set); rebuild it with this version",
        );
    }
    let mut p = Program::default();
    let n = r.count("files", 4)?;
    for _ in 0..n {
        p.files.push(r.str("file name")?);
    }
    let n = r.count("constants", 5)?;
    for _ in 0..n {
        let c = match r.u8("constant tag")? {
            0 => Const::Int(r.u64("int constant")? as i64),
            1 => Const::Float(f64::from_bits(r.u64("float constant")?)),
            2 => Const::Text(r.str("text constant")?),
            3 => Const::Ascii(r.bytes("ascii constant")?.to_vec()),
            t => return err(format!("unknown constant tag {t}")),
        };
        p.consts.push(c);
    }
    let n = r.count("functions", 17)?;
    for _ in 0..n {
        let name = r.str("function name")?;
        let file = r.u32("function file")?;
        let nparams = r.u16("nparams")?;
        let nregs = r.u16("nregs")?;
        let returns_value = r.bool("returns_value")?;
        let ncode = r.count("instructions", 5)?;
        let mut code = Vec::with_capacity(ncode);
        for i in 0..ncode {
            let rest = &r.b[r.pos..];
            match Instr::decode(rest) {
                Some((ins, used)) => {
                    code.push(ins);
                    r.pos += used;
                }
                None => {
                    return err(format!(
                        "function '{name}': instruction {i} is malformed or truncated (byte {})",
                        r.pos
                    ))
                }
            }
        }
        let mut lines = Vec::with_capacity(ncode);
        for _ in 0..ncode {
            lines.push(r.u32("line table")?);
        }
        p.functions.push(Function {
            name,
            file,
            nparams,
            nregs,
            returns_value,
            code,
            lines,
        });
    }
    p.entry = r.u32("entry")?;
    let n = r.count("globals", 5)?;
    for _ in 0..n {
        let name = r.str("global name")?;
        let ty = r.ty(0)?;
        p.globals.push(Global { name, ty });
    }
    let n = r.count("structs", 9)?;
    for _ in 0..n {
        p.structs.push(r.record()?);
    }
    let n = r.count("tables", 9)?;
    for _ in 0..n {
        p.tables.push(r.record()?);
    }
    let n = r.count("enums", 9)?;
    for _ in 0..n {
        let name = r.str("enum name")?;
        let pure_struct = r.bool("pure_struct")?;
        let m = r.count("enum members", 5)?;
        let mut members = Vec::with_capacity(m);
        let mut member_names = Vec::with_capacity(m);
        for _ in 0..m {
            members.push(r.ty(0)?);
            member_names.push(r.str("member name")?);
        }
        p.enums.push(Enum {
            name,
            members,
            member_names,
            pure_struct,
        });
    }
    let n = r.count("enum fields", 10)?;
    for _ in 0..n {
        let sid = r.u32("enum field struct")?;
        let field = r.u16("enum field index")?;
        let name = r.str("enum field name")?;
        let enum_id = r.u32("enum field enum")?;
        p.enum_fields.push(EnumFieldRef {
            sid,
            field,
            name,
            enum_id,
        });
    }
    let n = r.count("natives", 4)?;
    for _ in 0..n {
        p.natives.push(r.str("native name")?);
    }
    let n = r.count("handlers", 8)?;
    for _ in 0..n {
        let event = r.str("handler event name")?;
        let func = r.u32("handler function")?;
        p.handlers.push(EventHandler { event, func });
    }
    let n = r.count("types", 1)?;
    for _ in 0..n {
        p.types.push(r.ty(0)?);
    }
    if r.pos != bytes.len() {
        return err(format!(
            "{} unexpected bytes after the last section",
            bytes.len() - r.pos
        ));
    }
    crate::verify::verify(&p).map_err(|m| FormatError {
        message: format!("invalid bytecode: {m}"),
    })?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Program {
        Program {
            files: vec!["main.f".into(), "lib/util.f".into()],
            consts: vec![
                Const::Int(1 << 40),
                Const::Float(-2.5),
                Const::Text("héllo".into()),
                Const::Ascii(b"abc".to_vec()),
            ],
            functions: vec![
                Function {
                    name: "<main>".into(),
                    file: 0,
                    nparams: 0,
                    nregs: 4,
                    returns_value: false,
                    code: vec![
                        Instr::LoadConst { dst: 0, k: 2 },
                        Instr::LoadInt { dst: 1, imm: -7 },
                        Instr::Call {
                            dst: 2,
                            base: 1,
                            func: 1,
                        },
                        Instr::JumpIfFalse { cond: 2, off: 1 },
                        Instr::CallNative {
                            dst: 3,
                            base: 0,
                            id: 0,
                            argc: 1,
                        },
                        Instr::NewStruct { dst: 3, sid: 0 },
                        Instr::GetGlobalViv { dst: 3, g: 0 },
                        Instr::EnumTag {
                            dst: 3,
                            src: 3,
                            enum_id: 0,
                        },
                        Instr::ReturnVoid {},
                    ],
                    lines: vec![1, 1, 2, 3, 4, 5, 6, 7, 8],
                },
                Function {
                    name: "f".into(),
                    file: 1,
                    nparams: 1,
                    nregs: 2,
                    returns_value: true,
                    code: vec![
                        Instr::EnumField {
                            dst: 1,
                            obj: 0,
                            idx: 0,
                        },
                        Instr::Return { src: 0 },
                    ],
                    lines: vec![10, 11],
                },
            ],
            entry: 0,
            globals: vec![Global {
                name: "g".into(),
                ty: Type::Map(Box::new(Type::Func(
                    vec![Type::Int, Type::Manual(Box::new(Type::Struct(0)))],
                    Box::new(Type::Void),
                ))),
            }],
            structs: vec![Record {
                name: "S".into(),
                fields: vec![
                    Field {
                        name: "a".into(),
                        ty: Type::Amor(Box::new(Type::Struct(0))),
                    },
                    Field {
                        name: "e".into(),
                        ty: Type::Enum(0),
                    },
                ],
                may_cycle: true,
            }],
            tables: vec![Record {
                name: "T".into(),
                fields: vec![Field {
                    name: "c".into(),
                    ty: Type::Blob,
                }],
                may_cycle: false,
            }],
            enums: vec![Enum {
                name: "E".into(),
                members: vec![Type::Struct(0)],
                member_names: vec!["S".into()],
                pure_struct: true,
            }],
            enum_fields: vec![EnumFieldRef {
                sid: 0,
                field: 1,
                name: "e".into(),
                enum_id: 0,
            }],
            natives: vec!["log".into()],
            handlers: vec![EventHandler {
                event: "mystery".into(),
                func: 0,
            }],
            types: vec![Type::Arr(Box::new(Type::Struct(0)))],
        }
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let b = to_bytes(&p);
        assert_eq!(&b[..4], MAGIC);
        assert_eq!(from_bytes(&b).unwrap(), p);
    }

    #[test]
    fn refuses_bad_headers() {
        let b = to_bytes(&sample());
        let mut x = b.clone();
        x[0] = b'X';
        assert!(from_bytes(&x).unwrap_err().message.contains("magic"));
        let mut x = b.clone();
        x[4] = 9;
        assert!(from_bytes(&x).unwrap_err().message.contains("version 9"));
        let mut x = b.clone();
        x[8] ^= 1;
        assert!(from_bytes(&x)
            .unwrap_err()
            .message
            .contains("instruction set"));
        let mut x = b.clone();
        x.push(0);
        assert!(from_bytes(&x)
            .unwrap_err()
            .message
            .contains("unexpected bytes"));
    }

    #[test]
    fn refuses_out_of_range_operands() {
        let mut p = sample();
        p.functions[0].code[0] = Instr::LoadConst { dst: 0, k: 99 };
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("constant 99"));
        let mut p = sample();
        p.functions[0].code[0] = Instr::Move { dst: 4, src: 0 };
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("register r4"));
        let mut p = sample();
        p.functions[0].code[3] = Instr::Jump { off: 100 };
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("jump target"));
        let mut p = sample();
        p.functions[0].code[4] = Instr::CallNative {
            dst: 0,
            base: 0,
            id: 5,
            argc: 0,
        };
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("native 5"));
        let mut p = sample();
        p.functions[0].code[2] = Instr::Call {
            dst: 0,
            base: 3,
            func: 7,
        };
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("function 7"));
        let mut p = sample();
        p.functions[0].code[4] = Instr::JumpLtInt {
            a: 0,
            b: 1,
            off: 1000,
        };
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("jump target"));
        let mut p = sample();
        p.globals[0].ty = Type::Struct(3);
        assert!(from_bytes(&to_bytes(&p))
            .unwrap_err()
            .message
            .contains("struct id 3"));
    }

    #[test]
    fn every_truncation_is_an_error() {
        let b = to_bytes(&sample());
        for n in 0..b.len() {
            assert!(from_bytes(&b[..n]).is_err(), "truncated at {n}");
        }
    }

    #[test]
    fn byte_flips_never_panic() {
        let b = to_bytes(&sample());
        // Deterministic pseudo-random flips (xorshift).
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for i in 0..b.len() {
            for bit in 0..8 {
                let mut x = b.clone();
                x[i] ^= 1 << bit;
                let _ = from_bytes(&x);
            }
        }
        for _ in 0..20_000 {
            let mut x = b.clone();
            for _ in 0..(next() % 4 + 1) {
                let i = (next() as usize) % x.len();
                x[i] = next() as u8;
            }
            if let Ok(p) = from_bytes(&x) {
                crate::verify::verify(&p).unwrap();
            }
        }
    }
}
