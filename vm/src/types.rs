//! Static types of Festina values (§8).
//!
//! The type checker resolves every expression to a [`Type`] (§8.19); the
//! same description travels inside a [`crate::program::Program`] so the VM
//! can render values (§8.21), create zero values (§8.2), and name types for
//! `typeof` (§9.6) without any name lookup at run time.

use std::fmt;

/// Index of a `struct` declaration in `Program::structs` (§8.9).
pub type StructId = u32;
/// Index of a `table` declaration in `Program::tables` (§8.10).
pub type TableId = u32;
/// Index of an `enum` declaration in `Program::enums` (§8.11).
pub type EnumId = u32;

/// A resolved Festina type (§8.1).
///
/// `Null` is the type of the bare `null` literal before context gives it a
/// type; `Void` is the result type of a call to a `void` function; `Error`
/// marks an expression whose type could not be determined because of an
/// earlier diagnostic (it is assignable to and from everything, so one
/// mistake reports one error).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// 64-bit signed integer (§8.3).
    Int,
    /// IEEE 754 binary64 (§8.3).
    Float,
    /// `true` / `false` (§8.2).
    Bool,
    /// Immutable UTF-8 string with copy semantics (§8.4).
    Text,
    /// One-byte-per-character string, reference counted (§8.5).
    Ascii,
    /// File bytes plus path (§8.6).
    Blob,
    /// Decoded image (§8.13).
    Img,
    /// Decoded audio clip (§8.13).
    Aud,
    /// Compiled regular expression (§8.15).
    Regex,
    /// Packed 0xRRGGBB color (§8.14).
    Color,
    /// Resolved font (§8.14).
    Font,
    /// HTTP request/response (§8.16).
    Http,
    /// Live WebSocket (§8.16).
    Socket,
    /// Parsed URL (§8.16).
    Url,
    /// Message sender identity (§8.17).
    Thread,
    /// `arr[T]` (§8.7).
    Arr(Box<Type>),
    /// `amor arr[T]`, geometric growth, distinct from `arr[T]` (§8.7).
    Amor(Box<Type>),
    /// `map[T]` with `text` keys (§8.8).
    Map(Box<Type>),
    /// `func[P...]:R`; `ret` is `Void` for `void` (§8.12).
    Func(Vec<Type>, Box<Type>),
    /// A declared struct (§8.9).
    Struct(StructId),
    /// A declared table's row type (§8.10).
    Table(TableId),
    /// A declared enum (§8.11).
    Enum(EnumId),
    /// A manually managed binding `T?` (§8.18); never wraps a scalar,
    /// `text`, `func` or table row (those normalise to the plain type).
    Manual(Box<Type>),
    /// The type of a `weak` struct field (`parent:weak Node`, the
    /// reference's addition after edition 0.44); only ever a field's
    /// declared type, wrapping a struct type. The field does not keep its
    /// target alive and reads `null` once the target is gone (see
    /// [`crate::heap`], "Weak fields"); an expression reading it has the
    /// wrapped type.
    Weak(Box<Type>),
    /// A group of assertions, `test name = 'description'` (the
    /// reference's §11.7, after edition 0.44). Its value is the group's
    /// index in the run's test registry (an `int`); it is only ever
    /// called.
    Test,
    /// The type of a bare `null` before context (§7.5.4).
    Null,
    /// The "type" of a void call; not assignable anywhere (§9.4).
    Void,
    /// Poisoned by an earlier diagnostic.
    Error,
}

impl Type {
    /// The type with any `?` modifier removed (§8.18).
    pub fn strip_manual(&self) -> &Type {
        match self {
            Type::Manual(inner) => inner,
            other => other,
        }
    }

    /// True for `int` and `float` (§8.3).
    pub fn is_numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Float)
    }

    /// True for values that are reference counted or owned on the heap
    /// (§5.3 "managed value"): everything but scalars, `color`, `font`,
    /// `func` and `thread`.
    pub fn is_managed(&self) -> bool {
        !matches!(
            self.strip_manual(),
            Type::Int
                | Type::Float
                | Type::Bool
                | Type::Color
                | Type::Font
                | Type::Func(..)
                | Type::Thread
                | Type::Test
                | Type::Null
                | Type::Void
                | Type::Error
        )
    }

    /// True for struct, array (either kind) and map types, the ones that
    /// auto-vivify on first reach (§8.9.2).
    pub fn vivifies(&self) -> bool {
        matches!(
            self.strip_manual(),
            Type::Struct(_) | Type::Arr(_) | Type::Amor(_) | Type::Map(_)
        )
    }

    /// The element type of `arr[T]`/`amor arr[T]`/`map[T]`, if any.
    pub fn elem(&self) -> Option<&Type> {
        match self.strip_manual() {
            Type::Arr(t) | Type::Amor(t) | Type::Map(t) => Some(t),
            _ => None,
        }
    }
}

/// Names needed to print a [`Type`]: struct, table and enum names by id.
pub trait TypeNames {
    /// Name of struct `id`.
    fn struct_name(&self, id: StructId) -> &str;
    /// Name of table `id`.
    fn table_name(&self, id: TableId) -> &str;
    /// Name of enum `id`.
    fn enum_name(&self, id: EnumId) -> &str;
}

/// Display adapter: `Type` plus the names it refers to, printed in
/// source syntax (`arr[int]`, `map[User]`, `func[int, text]:void`), the
/// form `typeof` yields (§9.6) and diagnostics use.
pub struct TypeDisplay<'a, N: TypeNames + ?Sized> {
    /// The type to print.
    pub ty: &'a Type,
    /// Where declared names come from.
    pub names: &'a N,
}

impl<N: TypeNames + ?Sized> fmt::Display for TypeDisplay<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sub = |t: &'_ Type| {
            TypeDisplay {
                ty: t,
                names: self.names,
            }
            .to_string()
        };
        match self.ty {
            Type::Int => f.write_str("int"),
            Type::Float => f.write_str("float"),
            Type::Bool => f.write_str("bool"),
            Type::Text => f.write_str("text"),
            Type::Ascii => f.write_str("ascii"),
            Type::Blob => f.write_str("blob"),
            Type::Img => f.write_str("img"),
            Type::Aud => f.write_str("aud"),
            Type::Regex => f.write_str("regex"),
            Type::Color => f.write_str("color"),
            Type::Font => f.write_str("font"),
            Type::Http => f.write_str("http"),
            Type::Socket => f.write_str("socket"),
            Type::Url => f.write_str("url"),
            Type::Thread => f.write_str("thread"),
            Type::Arr(t) => write!(f, "arr[{}]", sub(t)),
            Type::Amor(t) => write!(f, "amor arr[{}]", sub(t)),
            Type::Map(t) => write!(f, "map[{}]", sub(t)),
            Type::Func(ps, r) => {
                f.write_str("func[")?;
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&sub(p))?;
                }
                write!(f, "]:{}", sub(r))
            }
            Type::Struct(id) => f.write_str(self.names.struct_name(*id)),
            Type::Table(id) => f.write_str(self.names.table_name(*id)),
            Type::Enum(id) => f.write_str(self.names.enum_name(*id)),
            Type::Manual(t) => write!(f, "{}?", sub(t)),
            Type::Weak(t) => write!(f, "weak {}", sub(t)),
            Type::Test => f.write_str("test"),
            Type::Null => f.write_str("null"),
            Type::Void => f.write_str("void"),
            Type::Error => f.write_str("<error>"),
        }
    }
}
