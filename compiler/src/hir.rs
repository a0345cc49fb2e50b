//! The typed intermediate representation between the checker and codegen.
//!
//! The checker (`check`) turns the syntax tree into this tree: every name is
//! resolved to an index (local slot, global slot, function, struct field),
//! every expression carries its static [`Type`], every implicit conversion
//! is explicit (`IntToFloat`, `EnumWrap`, `ToText`), `match` is lowered to an
//! `if` chain on enum tags (§10.9) and arithmetic is chosen per type
//! (`BinOp::AddInt` vs `BinOp::AddFloat`). Codegen never needs to look at a
//! type to pick an instruction except for the handful of places noted
//! below. Nothing here refers back to the syntax tree; lines are carried for
//! the line table.

use festina_vm::program::{Enum, EventHandler, Global, Record};
use festina_vm::types::{EnumId, StructId, Type};

/// Index of a function in [`Module::functions`].
pub type FuncId = u32;
/// Index of a global in [`Module::globals`].
pub type GlobalId = u32;
/// Index of a local slot in [`Function::locals`] (parameters first).
pub type LocalId = u32;
/// Index of a native intrinsic name in [`Module::natives`].
pub type NativeId = u16;

/// A whole checked compilation unit (§6.2: every file, once).
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// File names, indexed by [`Function::file`].
    pub files: Vec<String>,
    /// Struct declarations (same layout as the VM's).
    pub structs: Vec<Record>,
    /// Table declarations.
    pub tables: Vec<Record>,
    /// Enum declarations.
    pub enums: Vec<Enum>,
    /// Global variables and constants of all files, in declaration order.
    pub globals: Vec<Global>,
    /// All functions: declared, arrows, and the entry.
    pub functions: Vec<Function>,
    /// The generated entry function (§6.3): imported files' top-level
    /// statements first, in import order, then the entry file's.
    pub entry: FuncId,
    /// Native intrinsic names used by `ExprKind::CallNative`.
    pub natives: Vec<String>,
    /// Top-level event handlers (§11.5), one per event name; each names a
    /// function of [`Module::functions`] compiled from the handler body.
    pub handlers: Vec<EventHandler>,
    /// Run-time type operands of natives (copied to `Program::types`): a
    /// `CallNative` that needs a type (JSON parsing, §16.4) gets an
    /// `ExprKind::Int` index into this table as an argument.
    pub types: Vec<Type>,
}

/// One function body.
#[derive(Clone, Debug)]
pub struct Function {
    /// Source name, `<main>` for the entry, `<arrow>` for an arrow function.
    pub name: String,
    /// File index.
    pub file: u32,
    /// Line of the declaration.
    pub line: u32,
    /// Number of parameters: locals `0..nparams` are the parameters.
    pub nparams: u32,
    /// Every local slot (parameters first). Slots are unique per
    /// declaration; codegen maps them to registers.
    pub locals: Vec<Local>,
    /// `Type::Void` for a void function.
    pub ret: Type,
    /// The body.
    pub body: Vec<Stmt>,
}

/// A local variable or parameter.
#[derive(Clone, Debug)]
pub struct Local {
    /// Source name (for listings).
    pub name: String,
    /// Declared type.
    pub ty: Type,
}

/// A statement. `line` is the 1-based source line.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Source line.
    pub line: u32,
}

/// Statement forms (§10).
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// Declare local `local`, initialised with `init` or, when `None`,
    /// with the zero value of its type (§8.2): a fresh empty struct,
    /// array or map for those types, `0`/`0.0`/`false` for scalars, null
    /// otherwise.
    Let {
        /// The slot.
        local: LocalId,
        /// Initializer.
        init: Option<Expr>,
    },
    /// Global declaration statement at its position in the entry function:
    /// set global `global` to `init` or its zero value.
    InitGlobal {
        /// The slot.
        global: GlobalId,
        /// Initializer.
        init: Option<Expr>,
    },
    /// Evaluate for effect, discarding (and releasing) the result.
    Expr(Expr),
    /// `place = value` (§9.11). Stores the new value, then releases the old.
    Assign {
        /// Target.
        place: Place,
        /// New value (already converted to the place's type).
        value: Expr,
    },
    /// `s = s + a + b` / `` s = `${s}...` `` on a plain text variable:
    /// in-place amortized append of each part (already `text`), §9.11 note.
    Append {
        /// The text variable (local or global).
        place: Place,
        /// Pieces to append, in order, each of type `text`.
        parts: Vec<Expr>,
    },
    /// `x++` / `x--` on an int place.
    Increment {
        /// The int variable.
        place: Place,
        /// +1 or -1.
        delta: i16,
    },
    /// `if cond { then } else { else_ }`.
    If {
        /// bool condition.
        cond: Expr,
        /// Then block.
        then_body: Vec<Stmt>,
        /// Else block (empty if absent; an `else if` is a nested `If`).
        else_body: Vec<Stmt>,
    },
    /// `while cond { body }`; also `for` loops: `update` runs after the
    /// body and on `continue` (empty for `while`).
    Loop {
        /// bool condition, tested before each iteration.
        cond: Expr,
        /// Loop body.
        body: Vec<Stmt>,
        /// The `for` update statement(s).
        update: Vec<Stmt>,
    },
    /// Leave the innermost loop.
    Break,
    /// Next iteration of the innermost loop (running `update` first).
    Continue,
    /// `return` with an optional value (converted to the return type).
    Return(Option<Expr>),
    /// A nested block scope; its locals are released at its end.
    Block(Vec<Stmt>),
    /// `try { body } catch (e:text) { handler }`; the thrown text is stored
    /// in local `catch_local`.
    Try {
        /// Protected body.
        body: Vec<Stmt>,
        /// The catch variable's slot.
        catch_local: LocalId,
        /// Handler.
        handler: Vec<Stmt>,
    },
    /// `throw value`; `value` is already `text` (rendered per §8.21).
    Throw(Expr),
    /// `fail(value)`; `value` is already `text`.
    Fail(Expr),
    /// `free x`: release and set to null (§10.11).
    Free(Place),
    /// `clear x`: zero the storage if last reference, release, null.
    Clear(Place),
    /// `delete m[key]`, `delete m.key` (maps), or `delete s.field`
    /// (struct field set to null).
    Delete(Place),
}

/// An assignable location (§9.11).
#[derive(Clone, Debug)]
pub enum Place {
    /// A local slot.
    Local(LocalId),
    /// A global slot.
    Global(GlobalId),
    /// Field `field` of a struct value.
    Field {
        /// The struct value (type `Struct`).
        obj: Box<Expr>,
        /// Field index.
        field: u16,
    },
    /// A `weak` struct field: storing keeps no count on the target
    /// (see `festina_vm::heap`, "Weak fields").
    WeakField {
        /// The struct value (type `Struct`).
        obj: Box<Expr>,
        /// Field index.
        field: u16,
    },
    /// An array element (checked index).
    Index {
        /// The array.
        arr: Box<Expr>,
        /// int index.
        index: Box<Expr>,
    },
    /// A map entry.
    MapEntry {
        /// The map.
        map: Box<Expr>,
        /// text key.
        key: Box<Expr>,
    },
}

/// An expression with its static type and line.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Static type (never `Null` after checking except for a bare `null`
    /// whose context had no type; codegen treats it as a null value).
    pub ty: Type,
    /// Source line.
    pub line: u32,
}

/// Typed binary operators; each maps to one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// int +
    AddInt,
    /// int -
    SubInt,
    /// int *
    MulInt,
    /// int % (null on zero)
    ModInt,
    /// float +
    AddFloat,
    /// float -
    SubFloat,
    /// float *
    MulFloat,
    /// float / (both operands already float; null on zero)
    DivFloat,
    /// float %
    ModFloat,
    /// int ==
    EqInt,
    /// int !=
    NeInt,
    /// int <
    LtInt,
    /// int <=
    LeInt,
    /// int >
    GtInt,
    /// int >=
    GeInt,
    /// float ==
    EqFloat,
    /// float !=
    NeFloat,
    /// float <
    LtFloat,
    /// float <=
    LeFloat,
    /// float >
    GtFloat,
    /// float >=
    GeFloat,
    /// bool (or color) ==
    EqBool,
    /// bool (or color) !=
    NeBool,
    /// text/ascii content ==
    EqText,
    /// text/ascii content !=
    NeText,
    /// text + text (fresh)
    Concat,
    /// ascii + ascii (fresh)
    ConcatAscii,
    /// int & (bitwise, the reference's addition after edition 0.44)
    AndInt,
    /// int |
    OrInt,
    /// int ^
    XorInt,
    /// int << (null for a count outside 0..64)
    ShlInt,
    /// int >> (arithmetic; null for a count outside 0..64)
    ShrInt,
    /// struct/array/map identity ==
    EqRef,
    /// struct/array/map identity !=
    NeRef,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// int negation
    NegInt,
    /// float negation
    NegFloat,
    /// bool not
    Not,
    /// int bitwise not `~`
    NotInt,
}

/// Expression forms (§9).
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// int literal.
    Int(i64),
    /// float literal.
    Float(f64),
    /// bool literal.
    Bool(bool),
    /// `null` of the expression's type.
    Null,
    /// text literal.
    Text(String),
    /// ascii literal (converted at compile time).
    Ascii(Vec<u8>),
    /// Read a local.
    Local(LocalId),
    /// Read a global. `vivify`: the global is a struct/array/map and must be
    /// created empty if still null (§8.9.2).
    Global {
        /// Slot.
        global: GlobalId,
        /// Create on first reach.
        vivify: bool,
    },
    /// A declared function as a value (§8.12).
    FuncRef(FuncId),
    /// Typed binary operation on `[left, right]` (one allocation for
    /// both operands).
    Binary(BinOp, Box<[Expr; 2]>),
    /// Typed unary operation.
    Unary(UnOp, Box<Expr>),
    /// int → float promotion (§8.3).
    IntToFloat(Box<Expr>),
    /// Short-circuit `&&`.
    And(Box<Expr>, Box<Expr>),
    /// Short-circuit `||`.
    Or(Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e == null` (`negate`: `e != null`); never for float operands (the
    /// checker folds those to `false`, §8.2). Does not vivify.
    IsNull {
        /// Operand.
        expr: Box<Expr>,
        /// True for `!= null`.
        negate: bool,
    },
    /// Direct call of a declared function.
    Call {
        /// Callee.
        func: FuncId,
        /// Arguments, converted to the parameter types.
        args: Vec<Expr>,
    },
    /// Call through a function value.
    CallValue {
        /// The `func[...]` value.
        callee: Box<Expr>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// Call of a native intrinsic.
    CallNative {
        /// Index into `Module::natives`.
        id: NativeId,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// Struct field read. `vivify`: the field is created empty when null
    /// (§8.9.2): always for an array or map field, for a struct field only
    /// where it is reached as a receiver (`o.inner.n`, `o.inner[i]`, a
    /// method call); a terminal read of a struct field answers what it
    /// holds (the reference's rule after edition 0.44).
    Field {
        /// Struct value.
        obj: Box<Expr>,
        /// Field index.
        field: u16,
        /// Create on first reach.
        vivify: bool,
    },
    /// Read of a `weak` struct field: its target, or null once the target
    /// is gone; never vivifies.
    WeakField {
        /// Struct value.
        obj: Box<Expr>,
        /// Field index.
        field: u16,
    },
    /// `x++` / `x--` used as a value: the int variable's value before the
    /// step (the reference's addition after edition 0.44).
    PostIncrement {
        /// The int variable (a local or global).
        place: Box<Place>,
        /// +1 or -1.
        delta: i16,
    },
    /// Field read through a pure-struct enum; index into `enum_fields`
    /// of the program (codegen collects them in order of `EnumFieldRef`s
    /// it is handed here).
    EnumField {
        /// Enum value.
        obj: Box<Expr>,
        /// The struct member declaring the field.
        sid: StructId,
        /// Field index in that struct.
        field: u16,
        /// Field name.
        name: String,
    },
    /// Checked array element read.
    Index {
        /// Array.
        arr: Box<Expr>,
        /// int index.
        index: Box<Expr>,
    },
    /// Map read (null when missing).
    MapGet {
        /// Map.
        map: Box<Expr>,
        /// text key.
        key: Box<Expr>,
    },
    /// `text[i]`: one code point or null.
    TextIndex(Box<Expr>, Box<Expr>),
    /// `ascii[i]`.
    AsciiIndex(Box<Expr>, Box<Expr>),
    /// `ascii.charCodeAt(i)`: the byte at `i` as an int, or null (§16.3).
    AsciiCodeAt(Box<Expr>, Box<Expr>),
    /// `.length` of text (code points).
    TextLen(Box<Expr>),
    /// `.length` of ascii.
    AsciiLen(Box<Expr>),
    /// `.length` of an array.
    ArrLen(Box<Expr>),
    /// `arr.push(v)`: yields the new length (int).
    ArrPush(Box<Expr>, Box<Expr>),
    /// `arr.pop()`: the removed element or null.
    ArrPop(Box<Expr>),
    /// Array literal (elements converted to the element type).
    NewArr(Vec<Expr>),
    /// Map literal (keys text, values converted).
    NewMap(Vec<(Expr, Expr)>),
    /// Struct literal or zero struct: fields not listed keep zero values.
    NewStruct {
        /// Struct id.
        sid: StructId,
        /// (field index, value) pairs.
        fields: Vec<(u16, Expr)>,
    },
    /// Render as text (§8.21). `null_empty`: a null renders as the empty
    /// text (for `text`/`ascii` operands) instead of `null`.
    ToText {
        /// Operand.
        expr: Box<Expr>,
        /// Null renders empty.
        null_empty: bool,
    },
    /// Template literal: concatenation of parts, each already `text`.
    Template(Vec<Expr>),
    /// Box/convert a member value into enum `enum_id` as member `member`.
    /// For a pure-struct enum this is the identity and codegen emits
    /// nothing.
    EnumWrap {
        /// Member value.
        expr: Box<Expr>,
        /// The enum.
        enum_id: EnumId,
        /// Member index.
        member: u16,
    },
    /// Extract the member value from an enum value (after a tag test).
    EnumUnwrap(Box<Expr>),
    /// Member index (int) of the value an enum holds (failure on null).
    EnumTag {
        /// Enum value.
        expr: Box<Expr>,
        /// The enum.
        enum_id: EnumId,
    },
    /// `typeof e` for an enum: the member's name as text (failure on null).
    TypeofEnum {
        /// Enum value.
        expr: Box<Expr>,
        /// The enum.
        enum_id: EnumId,
    },
}

impl Expr {
    /// Call `f` on each direct subexpression of `self`, in evaluation
    /// order: the one walker over the expression tree (codegen's
    /// analyses and the checker's both use it). Exhaustive: a new
    /// expression form must say what its children are.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        use ExprKind as K;
        match &self.kind {
            K::Int(_)
            | K::Float(_)
            | K::Bool(_)
            | K::Null
            | K::Text(_)
            | K::Ascii(_)
            | K::Local(_)
            | K::Global { .. }
            | K::FuncRef(_) => {}
            // The stepped variable is a place, not a child expression
            // (callers that care look at the place); a field, element or
            // entry place contributes the expressions it evaluates.
            K::PostIncrement { place, .. } => place.for_each_expr(f),
            K::Binary(_, ab) => {
                f(&ab[0]);
                f(&ab[1]);
            }
            K::And(a, b)
            | K::Or(a, b)
            | K::Index { arr: a, index: b }
            | K::MapGet { map: a, key: b }
            | K::TextIndex(a, b)
            | K::AsciiIndex(a, b)
            | K::AsciiCodeAt(a, b)
            | K::ArrPush(a, b) => {
                f(a);
                f(b);
            }
            K::Unary(_, a)
            | K::IntToFloat(a)
            | K::IsNull { expr: a, .. }
            | K::Field { obj: a, .. }
            | K::WeakField { obj: a, .. }
            | K::EnumField { obj: a, .. }
            | K::TextLen(a)
            | K::AsciiLen(a)
            | K::ArrLen(a)
            | K::ArrPop(a)
            | K::ToText { expr: a, .. }
            | K::EnumWrap { expr: a, .. }
            | K::EnumUnwrap(a)
            | K::EnumTag { expr: a, .. }
            | K::TypeofEnum { expr: a, .. } => f(a),
            K::Cond(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            K::Call { args, .. }
            | K::CallNative { args, .. }
            | K::NewArr(args)
            | K::Template(args) => args.iter().for_each(f),
            K::CallValue { callee, args } => {
                f(callee);
                args.iter().for_each(f);
            }
            K::NewMap(pairs) => pairs.iter().for_each(|(k, v)| {
                f(k);
                f(v);
            }),
            K::NewStruct { fields, .. } => fields.iter().for_each(|(_, v)| f(v)),
        }
    }

    /// Whether `pred` holds for `self` or any expression inside it
    /// (preorder; stops at the first hit).
    pub fn contains(&self, pred: &mut dyn FnMut(&Expr) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        let mut found = false;
        self.for_each_child(&mut |c| found = found || c.contains(pred));
        found
    }
}

impl Place {
    /// Call `f` on each expression the place evaluates (the object, array,
    /// index, map or key), in evaluation order; variables have none.
    pub fn for_each_expr<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        match self {
            Place::Local(_) | Place::Global(_) => {}
            Place::Field { obj, .. } | Place::WeakField { obj, .. } => f(obj),
            Place::Index { arr, index } => {
                f(arr);
                f(index);
            }
            Place::MapEntry { map, key } => {
                f(map);
                f(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            ty: Type::Int,
            line: 1,
        }
    }

    #[test]
    fn the_walker_visits_children_in_evaluation_order() {
        let local = |l| e(ExprKind::Local(l));
        // f(1, 2)(m[{3: 4}], 5) with locals standing for the leaves.
        let map = e(ExprKind::NewMap(vec![(local(3), local(4))]));
        let call = e(ExprKind::CallValue {
            callee: Box::new(e(ExprKind::Call {
                func: 0,
                args: vec![local(1), local(2)],
            })),
            args: vec![map, local(5)],
        });
        let mut seen = Vec::new();
        call.for_each_child(&mut |c| seen.push(c.kind.clone()));
        assert!(matches!(seen[0], ExprKind::Call { .. }));
        assert!(matches!(seen[1], ExprKind::NewMap(_)));
        assert!(matches!(seen[2], ExprKind::Local(5)));
        assert_eq!(seen.len(), 3);
        for l in 1..=5 {
            assert!(call.contains(&mut |x| matches!(x.kind, ExprKind::Local(y) if y == l)));
        }
        assert!(!call.contains(&mut |x| matches!(x.kind, ExprKind::Local(6))));
        let place = Place::MapEntry {
            map: Box::new(local(7)),
            key: Box::new(local(8)),
        };
        let mut keys = Vec::new();
        place.for_each_expr(&mut |x| keys.push(x.kind.clone()));
        assert!(matches!(keys[..], [ExprKind::Local(7), ExprKind::Local(8)]));
    }
}
