//! Signatures of the builtins the checker resolves: global functions
//! (§16.1), the `Math` namespace (§16.2) and methods and properties by
//! receiver type (§16.3).
//!
//! # The method table
//!
//! [`METHODS`] lists every method as a [`Method`]: the receiver kind
//! ([`Recv`]), the name, the parameter [`Shape`]s, the result shape and how
//! it is implemented ([`Impl`]). Alternative arities or argument types are
//! separate entries with the same receiver and name (`split(text)` and
//! `split(regex)`; `splice(start, count)` and `splice(start, count,
//! insert)`). [`PROPERTIES`] does the same for properties (`.length`).
//!
//! The checker (`compiler/src/check/methods.rs`) resolves `recv.name(args)`
//! against the table: the entries whose [`Recv`] accepts the receiver's
//! static type and whose name matches, then those with the right number of
//! arguments, then (when several remain) the first whose parameter shapes
//! accept the argument types. Receiver-relative shapes are resolved
//! against the receiver's type: [`Shape::Elem`] is the `T` of `arr[T]`,
//! `amor arr[T]` or `map[T]`, [`Shape::Comparator`] is `func[T, T]:int`,
//! and so on.
//!
//! An [`Impl::Native`] method becomes a `CallNative` of that native name
//! whose arguments are **the receiver first, then the arguments** in order,
//! each already converted to its parameter type; a type argument
//! ([`Shape::TypeArg`], [`Shape::StructTypeArg`]) arrives as an `int`
//! index into `Program::types` holding the type to produce (for
//! `toArr(T)` that is `arr[T]`); a function argument arrives as a
//! `Value::Func`, to be called with `Interpreter::call_function`. An
//! [`Impl::Inline`] method is lowered by the checker to a dedicated HIR
//! node and instruction (`push`, `pop`, `toText`, ...) and never reaches a
//! native.
//!
//! To add a method: add a [`Method`] entry here (new receiver kinds go in
//! [`Recv`], new argument kinds in [`Shape`], with their meaning in the
//! checker's `shape_type`), implement the native `fn(&mut Interpreter,
//! &[Value]) -> Result<Value, Trap>` and register it under the same name in
//! the crate's `natives()`. Natives never panic: a null receiver, an
//! argument out of range or a bad value yields the documented `null`,
//! `-1`, `false`, a `Trap::Throw` or a `Trap::Fail` naming
//! `Interpreter::location()`.

/// The shape of a builtin parameter or result, as the checker sees it.
///
/// Plain shapes name one type. Receiver-relative shapes (only meaningful
/// in [`METHODS`]/[`PROPERTIES`]) are resolved against the receiver's
/// static type; type-argument shapes against the type written as the
/// argument (§9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `int`.
    Int,
    /// `float`. An `int` argument is promoted (§8.3).
    Float,
    /// `bool`.
    Bool,
    /// `text`.
    Text,
    /// `ascii` (§8.5).
    Ascii,
    /// `regex` (§8.15).
    Regex,
    /// `blob` (§8.6).
    Blob,
    /// Any value with a text form (§8.21); the checker renders it with
    /// `ToText` before the call, so the native receives `text`.
    Rendered,
    /// `map[text]`.
    MapText,
    /// `arr[text]`.
    ArrText,
    /// No result.
    Void,
    /// `func[]:void`: a timer callback (§11.1.4, §12.4). Only the bare
    /// name of a declared zero-parameter `void` function is accepted; a
    /// variable, an arrow or any other expression is a compile error. The
    /// native receives a `Value::Func`.
    TimerCallback,
    /// The element type `T` of an `arr[T]`, `amor arr[T]` or `map[T]`
    /// receiver.
    Elem,
    /// The receiver's own type.
    Recv,
    /// `arr[T]` for the receiver's element type `T` (e.g. `splice`'s
    /// result and insert argument, `map.values()`).
    ArrOfElem,
    /// `func[T, T]:int` for the receiver's element type `T`: a sort
    /// comparator (negative, zero, positive), given as a declared
    /// function's name, an arrow or any function value.
    Comparator,
    /// `func[T, text]:void` for a `map[T]` receiver: the `forEach`
    /// callback, called with (value, key).
    ForEachFn,
    /// A type argument (§9.4) naming any type that has a JSON form to
    /// parse into (§16.4); the native receives an `int` index into
    /// `Program::types`.
    TypeArg,
    /// A type argument that must name a struct (`toStruct(T)`); passed
    /// like [`Shape::TypeArg`].
    StructTypeArg,
    /// Result: the type given as the type argument.
    OfTypeArg,
    /// Result: `arr[T]` of the type `T` given as the type argument.
    ArrOfTypeArg,
}

/// The kind of receiver a [`Method`] or [`Property`] applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recv {
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `bool`.
    Bool,
    /// `text`.
    Text,
    /// `ascii`.
    Ascii,
    /// `arr[T]` and `amor arr[T]`, any `T`.
    Arr,
    /// `arr[T]` and `amor arr[T]` whose `T` is `int`, `float`, `bool`,
    /// `text` or `ascii` (`join`).
    ArrOfScalar,
    /// `map[T]`.
    Map,
    /// Any struct.
    Struct,
    /// `regex`.
    Regex,
    /// `blob`.
    Blob,
    /// `img`.
    Img,
    /// `aud`.
    Aud,
}

/// How a method or property is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    /// A native of this name: receiver first, then the arguments.
    Native(&'static str),
    /// Lowered by the checker to its own HIR node and instruction.
    Inline,
}

/// One method of a receiver kind (§16.3); one arity and argument kind per
/// entry.
#[derive(Clone, Copy, Debug)]
pub struct Method {
    /// The receivers it applies to.
    pub recv: Recv,
    /// Name as written after the `.`.
    pub name: &'static str,
    /// Parameter shapes (the receiver not included).
    pub params: &'static [Shape],
    /// Result shape ([`Shape::Void`] for none).
    pub ret: Shape,
    /// Implementation.
    pub imp: Impl,
}

/// A read-only property of a receiver kind (§9.2), e.g. `.length`.
#[derive(Clone, Copy, Debug)]
pub struct Property {
    /// The receivers it applies to.
    pub recv: Recv,
    /// Name as written after the `.`.
    pub name: &'static str,
    /// Its type.
    pub ret: Shape,
    /// Implementation: a native receives the receiver as its only argument.
    pub imp: Impl,
}

const fn m(
    recv: Recv,
    name: &'static str,
    params: &'static [Shape],
    ret: Shape,
    imp: Impl,
) -> Method {
    Method {
        recv,
        name,
        params,
        ret,
        imp,
    }
}

use Impl::{Inline, Native};
use Shape as S;

/// Every method (§16.3). Entries with [`Impl::Inline`] are lowered by the
/// checker itself and are listed for completeness (diagnostics such as
/// "method 'push' must be called" use the table).
///
/// Outcomes the natives guarantee (each has a golden test):
/// - `int.toChar()`: UTF-8 of the code point; `null` if negative, above
///   `0x10FFFF` or a surrogate.
/// - `text.toInt()`: leading ASCII whitespace, an optional sign, decimal
///   digits; anything after them ignored; `null` with no digits or when
///   the value does not fit in 64 bits.
/// - `text.toAscii()`: `null` unless every character is ASCII.
/// - `text.trim()`: ASCII whitespace (space, `\t`, `\n`, `\v`, `\f`,
///   `\r`) removed at both ends.
/// - `text.charCodeAt(i)`: code point `i` (§8.4), `null` out of range.
/// - `text.split(sep)`: empty pieces kept; an empty text separator splits
///   per code point; a regex separator splits at every match.
/// - `text.match(re)`: the first match or `null` (`g` ignored).
/// - `text.replace(t, r)`: the first occurrence of `t`; with a regex, the
///   first match, or every match with `g`; `r` is literal.
/// - `text.toStruct(T)`, `text.toArr(T)`: JSON parsing (§16.4), throwing
///   a descriptive text on malformed input, a wrong shape or trailing
///   data.
/// - `ascii.slice(start, end)`: bytes `[start, end)` clamped to the
///   length; negative positions count from the end.
/// - `text.slice(start, end)`, `text.indexOf(t[, start])`,
///   `startsWith`, `endsWith`, `toUpperCase`, `toLowerCase`, `repeat`,
///   `toFloat` and `ascii.toInt()` (the reference's additions after
///   edition 0.44): see `crate::text_methods` (code-point indexes, both
///   slice ends clamped to `[0, length]`, ASCII-only case conversion, an
///   empty `repeat` for a count of 0 or less, `toFloat` of no number is
///   `null`).
/// - `arr.shift()`, `arr.pop()`: `null` when empty. `arr.unshift(v)`: the
///   new length. `arr.splice(start, count[, insert])`: start clamped to
///   `[0, length]` after adding the length to a negative start; count
///   clamped to `[0, length - start]`; the removed elements as a new array.
/// - `arr.indexOf(v)`: first index or `-1`; by value for scalars (a null
///   float is never found), content for `text`/`ascii`, identity for
///   everything else.
/// - `arr.sort(cmp)`: stable merge sort; a null comparator result counts as
///   `0`; a throw out of the comparator leaves the array unchanged (a
///   permutation of itself, §13.7) and propagates.
/// - `arr.join(sep)`: each element's text form, a null element as empty.
/// - `map.forEach(fn)`: `fn(value, key)` over a snapshot of the entries in
///   iteration order. `map.keys()`, `map.values()`: fresh arrays.
/// - `regex.test(t)`: whether `re` matches anywhere in `t`.
/// - `blob` methods: see `crate::blob` (null receivers read as an empty
///   pathless blob; `save()` without a path is a runtime failure).
pub const METHODS: &[Method] = &[
    // int, float, bool (§8.3, §16.3)
    m(Recv::Int, "toFloat", &[], S::Float, Inline),
    m(Recv::Int, "toText", &[], S::Text, Inline),
    m(Recv::Int, "toChar", &[], S::Text, Native("int_to_char")),
    m(Recv::Float, "toText", &[], S::Text, Inline),
    m(Recv::Bool, "toText", &[], S::Text, Inline),
    // text (§8.4, §16.3)
    m(Recv::Text, "toText", &[], S::Text, Inline),
    m(Recv::Text, "toInt", &[], S::Int, Native("text_to_int")),
    m(
        Recv::Text,
        "toAscii",
        &[],
        S::Ascii,
        Native("text_to_ascii"),
    ),
    m(Recv::Text, "trim", &[], S::Text, Native("text_trim")),
    m(
        Recv::Text,
        "charCodeAt",
        &[S::Int],
        S::Int,
        Native("text_char_code_at"),
    ),
    m(
        Recv::Text,
        "split",
        &[S::Text],
        S::ArrText,
        Native("text_split"),
    ),
    m(
        Recv::Text,
        "split",
        &[S::Regex],
        S::ArrText,
        Native("regex_split"),
    ),
    m(
        Recv::Text,
        "match",
        &[S::Regex],
        S::Text,
        Native("regex_match"),
    ),
    m(
        Recv::Text,
        "replace",
        &[S::Text, S::Text],
        S::Text,
        Native("text_replace"),
    ),
    m(
        Recv::Text,
        "replace",
        &[S::Regex, S::Text],
        S::Text,
        Native("regex_replace"),
    ),
    m(
        Recv::Text,
        "toStruct",
        &[S::StructTypeArg],
        S::OfTypeArg,
        Native("json_parse"),
    ),
    m(
        Recv::Text,
        "toArr",
        &[S::TypeArg],
        S::ArrOfTypeArg,
        Native("json_parse"),
    ),
    // text and ascii methods the reference added after edition 0.44
    // (§16.3 as it stands today); natives in `crate::text_methods`.
    m(
        Recv::Text,
        "slice",
        &[S::Int, S::Int],
        S::Text,
        Native("text_slice"),
    ),
    m(
        Recv::Text,
        "indexOf",
        &[S::Text],
        S::Int,
        Native("text_index_of"),
    ),
    m(
        Recv::Text,
        "indexOf",
        &[S::Text, S::Int],
        S::Int,
        Native("text_index_of_from"),
    ),
    m(
        Recv::Text,
        "startsWith",
        &[S::Text],
        S::Bool,
        Native("text_starts_with"),
    ),
    m(
        Recv::Text,
        "endsWith",
        &[S::Text],
        S::Bool,
        Native("text_ends_with"),
    ),
    m(
        Recv::Text,
        "toUpperCase",
        &[],
        S::Text,
        Native("text_to_upper"),
    ),
    m(
        Recv::Text,
        "toLowerCase",
        &[],
        S::Text,
        Native("text_to_lower"),
    ),
    m(
        Recv::Text,
        "repeat",
        &[S::Int],
        S::Text,
        Native("text_repeat"),
    ),
    m(
        Recv::Text,
        "toFloat",
        &[],
        S::Float,
        Native("text_to_float"),
    ),
    m(Recv::Ascii, "toInt", &[], S::Int, Native("ascii_to_int")),
    // ascii (§8.5)
    m(Recv::Ascii, "toText", &[], S::Text, Inline),
    m(Recv::Ascii, "charCodeAt", &[S::Int], S::Int, Inline),
    m(
        Recv::Ascii,
        "slice",
        &[S::Int, S::Int],
        S::Ascii,
        Native("ascii_slice"),
    ),
    // arr[T], amor arr[T] (§8.7)
    m(Recv::Arr, "push", &[S::Elem], S::Int, Inline),
    m(Recv::Arr, "pop", &[], S::Elem, Inline),
    m(
        Recv::Arr,
        "unshift",
        &[S::Elem],
        S::Int,
        Native("arr_unshift"),
    ),
    m(Recv::Arr, "shift", &[], S::Elem, Native("arr_shift")),
    m(
        Recv::Arr,
        "splice",
        &[S::Int, S::Int],
        S::ArrOfElem,
        Native("arr_splice"),
    ),
    m(
        Recv::Arr,
        "splice",
        &[S::Int, S::Int, S::ArrOfElem],
        S::ArrOfElem,
        Native("arr_splice"),
    ),
    m(
        Recv::Arr,
        "indexOf",
        &[S::Elem],
        S::Int,
        Native("arr_index_of"),
    ),
    m(
        Recv::Arr,
        "sort",
        &[S::Comparator],
        S::Void,
        Native("arr_sort"),
    ),
    m(
        Recv::ArrOfScalar,
        "join",
        &[S::Text],
        S::Text,
        Native("arr_join"),
    ),
    m(Recv::Arr, "toText", &[], S::Text, Inline),
    // map[T] (§8.8)
    m(
        Recv::Map,
        "forEach",
        &[S::ForEachFn],
        S::Void,
        Native("map_for_each"),
    ),
    m(Recv::Map, "keys", &[], S::ArrText, Native("map_keys")),
    m(Recv::Map, "values", &[], S::ArrOfElem, Native("map_values")),
    m(Recv::Map, "toText", &[], S::Text, Inline),
    // structs
    m(Recv::Struct, "toText", &[], S::Text, Inline),
    // regex (§8.15)
    m(
        Recv::Regex,
        "test",
        &[S::Text],
        S::Bool,
        Native("regex_test"),
    ),
    // blob (§8.6, §16.3, §16.6); natives in `crate::blob`
    m(
        Recv::Blob,
        "byteAt",
        &[S::Int],
        S::Int,
        Native("blob_byte_at"),
    ),
    m(
        Recv::Blob,
        "slice",
        &[S::Int, S::Int],
        S::Text,
        Native("blob_slice"),
    ),
    m(Recv::Blob, "toText", &[], S::Text, Inline),
    m(Recv::Blob, "exists", &[], S::Bool, Native("blob_exists")),
    m(
        Recv::Blob,
        "write",
        &[S::Text],
        S::Bool,
        Native("blob_write"),
    ),
    m(
        Recv::Blob,
        "append",
        &[S::Text],
        S::Bool,
        Native("blob_append"),
    ),
    m(Recv::Blob, "delete", &[], S::Bool, Native("blob_delete")),
    m(Recv::Blob, "save", &[], S::Bool, Native("blob_save")),
    m(
        Recv::Blob,
        "save",
        &[S::Text],
        S::Bool,
        Native("blob_save_as"),
    ),
    m(
        Recv::Blob,
        "saveCopy",
        &[S::Text],
        S::Bool,
        Native("blob_save_copy"),
    ),
];

/// Every read-only property (§9.2).
pub const PROPERTIES: &[Property] = &[
    Property {
        recv: Recv::Text,
        name: "length",
        ret: S::Int,
        imp: Inline,
    },
    Property {
        recv: Recv::Ascii,
        name: "length",
        ret: S::Int,
        imp: Inline,
    },
    Property {
        recv: Recv::Arr,
        name: "length",
        ret: S::Int,
        imp: Inline,
    },
    Property {
        recv: Recv::Blob,
        name: "length",
        ret: S::Int,
        imp: Native("blob_length"),
    },
];

/// The functions of the `Math` namespace (§16.2), called as
/// `Math.name(args)`; `float` parameters accept `int` arguments (§8.3).
/// The rounding four yield `null` for a null, infinite or out-of-range
/// argument; `floorDiv` yields `null` for a zero divisor.
pub const MATH: &[Builtin] = &[
    math("floor", "math_floor", &[S::Float], S::Int),
    math("ceil", "math_ceil", &[S::Float], S::Int),
    math("round", "math_round", &[S::Float], S::Int),
    math("trunc", "math_trunc", &[S::Float], S::Int),
    math("floorDiv", "math_floorDiv", &[S::Int, S::Int], S::Int),
    math("sqrt", "math_sqrt", &[S::Float], S::Float),
    math("abs", "math_abs", &[S::Float], S::Float),
    math("exp", "math_exp", &[S::Float], S::Float),
    math("sin", "math_sin", &[S::Float], S::Float),
    math("cos", "math_cos", &[S::Float], S::Float),
    math("tan", "math_tan", &[S::Float], S::Float),
    math("asin", "math_asin", &[S::Float], S::Float),
    math("acos", "math_acos", &[S::Float], S::Float),
    math("atan", "math_atan", &[S::Float], S::Float),
    math("log", "math_log", &[S::Float], S::Float),
    math("log2", "math_log2", &[S::Float], S::Float),
    math("log10", "math_log10", &[S::Float], S::Float),
    math("pow", "math_pow", &[S::Float, S::Float], S::Float),
    math("min", "math_min", &[S::Float, S::Float], S::Float),
    math("max", "math_max", &[S::Float, S::Float], S::Float),
    math("atan2", "math_atan2", &[S::Float, S::Float], S::Float),
    math("random", "math_random", &[], S::Float),
];

/// The constants of the `Math` namespace (§16.2), folded at compile time.
pub const MATH_CONSTANTS: &[(&str, f64)] =
    &[("PI", std::f64::consts::PI), ("E", std::f64::consts::E)];

/// A `Math` entry.
const fn math(
    name: &'static str,
    native: &'static str,
    params: &'static [Shape],
    ret: Shape,
) -> Builtin {
    Builtin {
        name,
        params,
        ret,
        native,
    }
}

/// A global builtin function (one arity; alternative arities are separate
/// entries with the same `name`).
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// Name as written in Festina.
    pub name: &'static str,
    /// Parameter shapes.
    pub params: &'static [Shape],
    /// Result shape.
    pub ret: Shape,
    /// Name of the native function implementing it.
    pub native: &'static str,
}

/// Every global builtin implemented so far. Names listed in
/// [`RESERVED_GLOBALS`] but absent here are reserved (cannot be
/// redeclared) yet not callable in this build, except `sqlite` (§15.4):
/// its result depends on where the call stands (a statement, or the
/// initializer of an `arr[Table]`/`arr[Struct]` declaration) and its
/// parameter list is the one array literal that mixes types, so the
/// checker handles it itself (`compiler/src/check/db.rs`; natives in
/// `crate::db`).
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "log",
        params: &[Shape::Rendered],
        ret: Shape::Void,
        native: "log",
    },
    Builtin {
        name: "fail",
        params: &[Shape::Rendered, Shape::MapText],
        ret: Shape::Void,
        native: "fail_fields",
    },
    Builtin {
        name: "close",
        params: &[Shape::Int],
        ret: Shape::Void,
        native: "close",
    },
    Builtin {
        name: "regex",
        params: &[Shape::Text],
        ret: Shape::Regex,
        native: "regex_new",
    },
    Builtin {
        name: "regex",
        params: &[Shape::Text, Shape::Text],
        ret: Shape::Regex,
        native: "regex_new",
    },
    // ---- process, files, time, logging (§16.5) ----
    Builtin {
        name: "exec",
        params: &[Shape::ArrText],
        ret: Shape::Int,
        native: "exec",
    },
    Builtin {
        name: "mkdir",
        params: &[Shape::Text],
        ret: Shape::Bool,
        native: "mkdir",
    },
    Builtin {
        name: "ls",
        params: &[Shape::Text],
        ret: Shape::ArrText,
        native: "ls",
    },
    Builtin {
        name: "now",
        params: &[],
        ret: Shape::Int,
        native: "now",
    },
    Builtin {
        name: "formatTime",
        params: &[Shape::Int, Shape::Text],
        ret: Shape::Text,
        native: "format_time",
    },
    Builtin {
        name: "troubleshoot",
        params: &[Shape::Rendered, Shape::MapText],
        ret: Shape::Void,
        native: "troubleshoot",
    },
    // ---- timers (§12.4) ----
    Builtin {
        name: "setTimeout",
        params: &[Shape::TimerCallback, Shape::Int],
        ret: Shape::Int,
        native: "set_timeout",
    },
    Builtin {
        name: "setInterval",
        params: &[Shape::TimerCallback, Shape::Int],
        ret: Shape::Int,
        native: "set_interval",
    },
    Builtin {
        name: "clearTimeout",
        params: &[Shape::Int],
        ret: Shape::Void,
        native: "clear_timer",
    },
    Builtin {
        name: "clearInterval",
        params: &[Shape::Int],
        ret: Shape::Void,
        native: "clear_timer",
    },
];

/// Every global name of §16.1/§16.2 (Annex B) that a user declaration may
/// not reuse (§6.7).
pub const RESERVED_GLOBALS: &[&str] = &[
    "log",
    "fail",
    "troubleshoot",
    "close",
    "exec",
    "sqlite",
    "mkdir",
    "ls",
    "now",
    "formatTime",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
    "regex",
    "parseURL",
    "drawRect",
    "drawCircle",
    "drawPixel",
    "drawText",
    "drawImage",
    "clearCanvas",
    "clearRect",
    "clearCircle",
    "clearPixel",
    "render",
    "saveCanvas",
    "blankImage",
    "getPixelColor",
    "fillStyle",
    "borderColor",
    "lineWidth",
    "changeFont",
    "fillAlpha",
    "fillLinearGradient",
    "fillRadialGradient",
    "measureTextWidth",
    "measureTextHeight",
    "beginPath",
    "moveTo",
    "lineTo",
    "curveTo",
    "closePath",
    "fillPath",
    "strokePath",
    "translate",
    "rotate",
    "scale",
    "resetTransform",
    "saveState",
    "restoreState",
    "setClientWidth",
    "setClientHeight",
    "enterFullscreen",
    "exitFullscreen",
    "showCursor",
    "hideCursor",
    "setMaxAudioPlayers",
    "maxAudioPlayers",
    "stopAudioPlayer",
    "isAudioPlayerPlaying",
    "openPort",
    "closePort",
    "openSecurePort",
    "postMessage",
    "Math",
    "environment",
    "argv",
    "clientWidth",
    "clientHeight",
    "screenWidth",
    "screenHeight",
    "devicePixelRatio",
];
