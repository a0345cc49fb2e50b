//! The signatures of Festina's builtins: global functions (§16.1), the
//! `Math` namespace (§16.2), methods and properties by receiver type
//! (§16.3), the global names a program may not redeclare (Annex B), and
//! the *facility* every native belongs to (§21.3).
//!
//! # Design
//! This crate is data, apart from the code that runs it: it has no
//! dependencies and no cargo features, so that the checker (which links
//! it) never links what programs use at run time: SQLite and ALSA today;
//! cairo and X11 when drawing and windows arrive. Three parties read
//! it, all on whatever thread they run on (everything here is `const`):
//!
//! - the **checker** (`compiler/src/check/`) resolves calls, methods,
//!   properties, global values and `Math.f` against the flat slices
//!   [`BUILTINS`], [`METHODS`], [`PROPERTIES`], [`VALUES`], [`MATH`],
//!   [`MATH_CONSTANTS`] and [`RESERVED_GLOBALS`], and emits a
//!   `CallNative` naming the entry's native; it resolves `color` and
//!   `font` literals with [`style`];
//! - the **standard library** (`festina-stdlib`) implements each native
//!   under the same name and registers it in the facility the table names
//!   (its tests check that both sides list the same natives with the same
//!   facilities);
//! - the **language server** (`festina lsp`) shows the signatures, with
//!   the clause and one line of documentation from [`docs`], on hover
//!   and in completion;
//! - the **bundle writer** (`festina compile`) asks [`facilities_of`]
//!   which facilities a compiled program's natives need, and copies in the
//!   smallest runtime that has them (`festina-cli/src/bundle.rs`).
//!
//! # Tables and facilities
//! The entries live in one [`Table`] per area, one file each under
//! [`tables`]: core/log, text, arrays and maps, math, JSON, regex, blob and
//! files, process and time, timers, database, and the places kept for
//! what comes next (HTTP, WebSocket, threads, canvas, window, audio). A
//! table names the [`Facility`] its natives belong to: everything that
//! needs no library beyond the Rust standard library and small pure-Rust
//! crates is [`Facility::Core`], which every runtime has; the optional
//! facilities ([`Facility::Database`], [`Facility::Net`],
//! [`Facility::Canvas`], [`Facility::Window`], [`Facility::Audio`]) are
//! the ones that link something big or a system library, and each is a
//! cargo feature of `festina-stdlib` of the same name.
//!
//! [`TABLES`] lists the tables in a fixed order. The flat slices the
//! checker reads are the tables' entries concatenated in that order at
//! compile time, so the order of entries inside a table, then of the
//! tables, is the order in which the checker tries alternatives (see
//! [`METHODS`]).
//!
//! # The method table
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
//! # Adding an entry
//! To add a method, property or function to an existing area: add the
//! entry to that area's file in [`tables`] (new receiver kinds go in
//! [`Recv`], new argument kinds in [`Shape`], with their meaning in the
//! checker's `shape_type`), implement the native `fn(&mut Interpreter,
//! &[Value]) -> Result<Value, Trap>` in the matching module of
//! `festina-stdlib` and register it there under the same name, and give
//! it its line of documentation in [`docs::DOCS`]. A native
//! the checker emits by itself rather than through an entry (`db_open`,
//! `blob_load`, ...) is listed in its table's [`Table::natives`]. Natives
//! never panic: a null receiver, an argument out of range or a bad value
//! yields the documented `null`, `-1`, `false`, a `Trap::Throw` or a
//! `Trap::Fail` naming `Interpreter::location()`.
//!
//! # Adding a facility
//! A battery that needs a library of its own (HTTP and TLS, cairo, X11,
//! ALSA) fills the table file kept for it (or adds one, listed in
//! [`TABLES`]) with its entries and its [`Facility`]; its natives go in a
//! `festina-stdlib` module compiled under that facility's cargo feature
//! and registered in that facility's `FacilityNatives`. Nothing else
//! changes: [`facilities_of`] then sends its programs to a runtime with
//! the facility, and every other runtime keeps not linking it.

pub mod docs;
pub mod style;
pub mod tables;

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
    /// `aud` (§8.13).
    Aud,
    /// `http` (§8.16, §19.2). As a parameter, a `{...}` argument is an
    /// `http` literal (§9.1.4).
    Http,
    /// `socket` (§8.16, §19.4).
    Socket,
    /// `url` (§8.16, §19.6).
    Url,
    /// `func[http]:void`: an `http` value's `callback` (§19.2, §19.5).
    HttpCallback,
    /// `color` (§8.14): the native receives a packed `0xRRGGBB` `int`, or
    /// `null` for "no color". A text argument is a compile error (a color
    /// comes from a `color` declaration, never from a text at a call).
    Color,
    /// `font` (§8.14): the native receives the font handle or `null`. A
    /// text argument is a compile error, as for [`Shape::Color`].
    Font,
    /// `img` (§8.13).
    Img,
    /// An image to draw from: an `img` or an `img?` (§8.18: `drawImage`
    /// accepts a manually managed source); the native receives the image
    /// handle or `null`.
    ImgSource,
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
    /// `http` (§19.2).
    Http,
    /// `socket` (§19.4).
    Socket,
    /// `url` (§19.6).
    Url,
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

/// A global builtin function, or a function of the `Math` namespace (one
/// arity; alternative arities are separate entries with the same `name`).
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

/// A [`Method`] entry (for the table files).
pub const fn method(
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

/// A [`Property`] entry (for the table files).
pub const fn property(recv: Recv, name: &'static str, ret: Shape, imp: Impl) -> Property {
    Property {
        recv,
        name,
        ret,
        imp,
    }
}

/// A [`Builtin`] entry (for the table files).
pub const fn builtin(
    name: &'static str,
    params: &'static [Shape],
    ret: Shape,
    native: &'static str,
) -> Builtin {
    Builtin {
        name,
        params,
        ret,
        native,
    }
}

// ---------------------------------------------------------------------------
// Facilities

/// A group of natives that a runtime either has or lacks as a whole
/// (§21.3: a program links only what it uses). Every optional facility is
/// a cargo feature of `festina-stdlib` with the name [`Facility::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facility {
    /// The language's own library: output, text, collections, `Math`,
    /// JSON, regex, blobs and files, processes and time, timers (and
    /// threads when they arrive). Every runtime has it.
    Core,
    /// The built-in SQLite database (§15): links SQLite (about 1.2 MB).
    Database,
    /// HTTP/1.1 and WebSocket servers and clients, and TLS (§19).
    Net,
    /// The 2D canvas, images and fonts (§17): will link cairo.
    Canvas,
    /// The window and its input events (§17): will link X11.
    Window,
    /// Audio playback (§18): links ALSA (through rodio and cpal).
    Audio,
}

impl Facility {
    /// Every facility, in [`FacilitySet`] bit order.
    pub const ALL: [Facility; 6] = [
        Facility::Core,
        Facility::Database,
        Facility::Net,
        Facility::Canvas,
        Facility::Window,
        Facility::Audio,
    ];

    /// Its name: `core`, `database`, `net`, `canvas`, `window`, `audio`.
    /// For an optional facility, also the name of its cargo feature.
    pub const fn name(self) -> &'static str {
        match self {
            Facility::Core => "core",
            Facility::Database => "database",
            Facility::Net => "net",
            Facility::Canvas => "canvas",
            Facility::Window => "window",
            Facility::Audio => "audio",
        }
    }

    /// The facility named `name` (see [`Facility::name`]).
    pub fn from_name(name: &str) -> Option<Facility> {
        Facility::ALL.into_iter().find(|f| f.name() == name)
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of [`Facility`]s, as a bit set. [`FacilitySet::CORE`] holds
/// [`Facility::Core`] alone; every set a runtime declares contains it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FacilitySet(u8);

impl FacilitySet {
    /// No facility.
    pub const EMPTY: FacilitySet = FacilitySet(0);
    /// [`Facility::Core`] alone: what a program that uses no optional
    /// facility needs.
    pub const CORE: FacilitySet = FacilitySet(Facility::Core.bit());
    /// Every facility.
    pub const ALL: FacilitySet = FacilitySet((1 << Facility::ALL.len()) - 1);

    /// The set of `facilities`.
    pub const fn of(facilities: &[Facility]) -> FacilitySet {
        let mut bits = 0;
        let mut i = 0;
        while i < facilities.len() {
            bits |= facilities[i].bit();
            i += 1;
        }
        FacilitySet(bits)
    }

    /// This set with `f` added.
    #[must_use]
    pub const fn with(self, f: Facility) -> FacilitySet {
        FacilitySet(self.0 | f.bit())
    }

    /// True if `f` is in the set.
    pub const fn contains(self, f: Facility) -> bool {
        self.0 & f.bit() != 0
    }

    /// True if every facility of `other` is in this set.
    pub const fn includes(self, other: FacilitySet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The facilities in the set, in [`Facility::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Facility> {
        Facility::ALL.into_iter().filter(move |&f| self.contains(f))
    }

    /// The set written as [`std::fmt::Display`] writes it (`core,database`),
    /// read back; `None` for an unknown name.
    pub fn parse(s: &str) -> Option<FacilitySet> {
        s.split(',')
            .filter(|n| !n.is_empty())
            .try_fold(FacilitySet::EMPTY, |set, n| {
                Facility::from_name(n).map(|f| set.with(f))
            })
    }
}

impl std::fmt::Display for FacilitySet {
    /// The names, comma-separated, in [`Facility::ALL`] order
    /// (`core,database`); empty for [`FacilitySet::EMPTY`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, facility) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(facility.name())?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Tables

/// The entries of one area (one file of [`tables`]), all belonging to
/// one facility.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// The area, for messages and tests (`text`, `database`, ...).
    pub area: &'static str,
    /// The facility every native of the table belongs to.
    pub facility: Facility,
    /// Global functions (§16.1).
    pub builtins: &'static [Builtin],
    /// Read-only global values (§16.2: `clientWidth`, ...): a [`Builtin`]
    /// with no parameters, whose native is called each time the name is
    /// read.
    pub values: &'static [Builtin],
    /// Functions of the `Math` namespace (§16.2).
    pub math: &'static [Builtin],
    /// Methods (§16.3).
    pub methods: &'static [Method],
    /// Read-only properties (§9.2).
    pub properties: &'static [Property],
    /// Natives the checker emits by itself, not through an entry above
    /// (`argv`, `blob_load`, `db_open`, ...), with where they come from
    /// in each table's file.
    pub natives: &'static [&'static str],
    /// Global names of the area that a user declaration may not reuse
    /// (§6.7, Annex B), whether or not they are callable yet.
    pub reserved: &'static [&'static str],
}

impl Table {
    /// A table of `area` in `facility` with no entries, to fill in with
    /// struct update syntax.
    pub const fn empty(area: &'static str, facility: Facility) -> Table {
        Table {
            area,
            facility,
            builtins: &[],
            values: &[],
            math: &[],
            methods: &[],
            properties: &[],
            natives: &[],
            reserved: &[],
        }
    }

    /// Every native the table names: those of its builtins, `Math`
    /// functions, native methods and properties, and [`Table::natives`]
    /// (with repeats where several entries share one native).
    pub fn all_natives(&self) -> impl Iterator<Item = &'static str> + '_ {
        let of = |imp: Impl| match imp {
            Impl::Native(n) => Some(n),
            Impl::Inline => None,
        };
        self.builtins
            .iter()
            .chain(self.values)
            .chain(self.math)
            .map(|b| b.native)
            .chain(self.methods.iter().filter_map(move |m| of(m.imp)))
            .chain(self.properties.iter().filter_map(move |p| of(p.imp)))
            .chain(self.natives.iter().copied())
    }
}

/// Every table, in the order the checker tries alternatives (see the
/// module doc). A new area's table is added here.
pub const TABLES: &[&Table] = &[
    &tables::core::TABLE,
    &tables::text::TABLE,
    &tables::collections::TABLE,
    &tables::math::TABLE,
    &tables::json::TABLE,
    &tables::regex::TABLE,
    &tables::blob::TABLE,
    &tables::process::TABLE,
    &tables::timers::TABLE,
    &tables::testing::TABLE,
    &tables::database::TABLE,
    &tables::http::TABLE,
    &tables::websocket::TABLE,
    &tables::threads::TABLE,
    &tables::canvas::TABLE,
    &tables::window::TABLE,
    &tables::audio::TABLE,
    &tables::http::CANVAS,
    &tables::http::AUDIO,
];

/// The entries of field `$field` (of type `$ty`) of every table in
/// [`TABLES`], concatenated in order at compile time into one `'static`
/// slice; `$filler` is any value of `$ty` (overwritten).
macro_rules! flatten {
    ($field:ident, $ty:ty, $filler:expr) => {{
        const LEN: usize = {
            let mut n = 0;
            let mut i = 0;
            while i < TABLES.len() {
                n += TABLES[i].$field.len();
                i += 1;
            }
            n
        };
        const ALL: [$ty; LEN] = {
            let mut out = [$filler; LEN];
            let mut k = 0;
            let mut i = 0;
            while i < TABLES.len() {
                let entries = TABLES[i].$field;
                let mut j = 0;
                while j < entries.len() {
                    out[k] = entries[j];
                    k += 1;
                    j += 1;
                }
                i += 1;
            }
            out
        };
        &ALL
    }};
}

/// Every global builtin function (§16.1), from every table. Names listed
/// in [`RESERVED_GLOBALS`] but absent here are reserved (cannot be
/// redeclared) yet not callable in this build, except `sqlite` (§15.4):
/// its result depends on where the call stands (a statement, or the
/// initializer of an `arr[Table]`/`arr[Struct]` declaration) and its
/// parameter list is the one array literal that mixes types, so the
/// checker handles it itself (`compiler/src/check/db.rs`).
pub const BUILTINS: &[Builtin] = flatten!(builtins, Builtin, builtin("", &[], Shape::Void, ""));

/// Every read-only global value (§16.2), from every table: reading the
/// name calls the native. These names are also in [`RESERVED_GLOBALS`].
pub const VALUES: &[Builtin] = flatten!(values, Builtin, builtin("", &[], Shape::Void, ""));

/// Every method (§16.3), from every table. Entries with [`Impl::Inline`]
/// are lowered by the checker itself and are listed for completeness
/// (diagnostics such as "method 'push' must be called" use the table).
/// What each native guarantees is written beside its entries, in its
/// table's file.
pub const METHODS: &[Method] = flatten!(
    methods,
    Method,
    method(Recv::Int, "", &[], Shape::Void, Impl::Inline)
);

/// Every read-only property (§9.2), from every table.
pub const PROPERTIES: &[Property] = flatten!(
    properties,
    Property,
    property(Recv::Int, "", Shape::Void, Impl::Inline)
);

/// The functions of the `Math` namespace (§16.2), called as
/// `Math.name(args)`; see [`tables::math`].
pub const MATH: &[Builtin] = flatten!(math, Builtin, builtin("", &[], Shape::Void, ""));

/// The constants of the `Math` namespace (§16.2), folded at compile time.
pub const MATH_CONSTANTS: &[(&str, f64)] = tables::math::CONSTANTS;

/// Every global name of §16.1/§16.2 (Annex B) that a user declaration may
/// not reuse (§6.7), from every table.
pub const RESERVED_GLOBALS: &[&str] = flatten!(reserved, &'static str, "");

/// The facility of the native named `native`, or `None` if no table
/// names it.
pub fn facility_of(native: &str) -> Option<Facility> {
    TABLES
        .iter()
        .find(|t| t.all_natives().any(|n| n == native))
        .map(|t| t.facility)
}

/// The facilities a program needs, from the names of the natives it calls
/// (`Program::natives`): [`Facility::Core`] plus the facility of each. A
/// name no table knows (a program made by another build) makes the
/// answer [`FacilitySet::ALL`], so such a program is never given a
/// runtime that lacks what it calls.
pub fn facilities_of<S: AsRef<str>>(natives: &[S]) -> FacilitySet {
    natives
        .iter()
        .fold(FacilitySet::CORE, |set, n| match facility_of(n.as_ref()) {
            Some(f) => set.with(f),
            None => FacilitySet::ALL,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn flat_slices_are_the_tables_in_order() {
        let methods: Vec<_> = TABLES.iter().flat_map(|t| t.methods).collect();
        assert_eq!(methods.len(), METHODS.len());
        for (a, b) in methods.iter().zip(METHODS) {
            assert_eq!(
                (a.recv, a.name, a.params, a.imp),
                (b.recv, b.name, b.params, b.imp)
            );
        }
        let count = |f: fn(&Table) -> usize| TABLES.iter().map(|t| f(t)).sum::<usize>();
        assert_eq!(BUILTINS.len(), count(|t| t.builtins.len()));
        assert_eq!(PROPERTIES.len(), count(|t| t.properties.len()));
        assert_eq!(MATH.len(), count(|t| t.math.len()));
        assert_eq!(RESERVED_GLOBALS.len(), count(|t| t.reserved.len()));
        assert_eq!(BUILTINS[0].name, "log");
        assert!(METHODS.iter().any(|m| m.name == "saveCopy"));
        assert!(RESERVED_GLOBALS.contains(&"devicePixelRatio"));
    }

    #[test]
    fn every_native_belongs_to_one_facility() {
        let mut seen: HashMap<&str, Facility> = HashMap::new();
        for t in TABLES {
            for n in t.all_natives() {
                assert!(!n.is_empty(), "an empty native name in {}", t.area);
                if let Some(other) = seen.insert(n, t.facility) {
                    assert_eq!(other, t.facility, "native {n} is in two facilities");
                }
            }
        }
        assert_eq!(facility_of("log"), Some(Facility::Core));
        assert_eq!(facility_of("db_open"), Some(Facility::Database));
        assert_eq!(facility_of("math_floorDiv"), Some(Facility::Core));
        assert_eq!(facility_of("blob_load"), Some(Facility::Core));
        assert_eq!(facility_of("no_such_native"), None);
    }

    #[test]
    fn reserved_names_are_unique_and_cover_the_builtins() {
        let mut names: Vec<_> = RESERVED_GLOBALS.to_vec();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a reserved name is listed twice");
        for b in BUILTINS.iter().chain(VALUES) {
            assert!(
                RESERVED_GLOBALS.contains(&b.name),
                "{} is not reserved",
                b.name
            );
        }
        assert!(RESERVED_GLOBALS.contains(&"sqlite"));
        assert!(RESERVED_GLOBALS.contains(&"Math"));
    }

    #[test]
    fn facilities_of_programs() {
        let none: [&str; 0] = [];
        assert_eq!(facilities_of(&none), FacilitySet::CORE);
        assert_eq!(
            facilities_of(&["log", "text_trim", "blob_load"]),
            FacilitySet::CORE
        );
        assert_eq!(
            facilities_of(&["log".to_string(), "sqlite_query".to_string()]),
            FacilitySet::of(&[Facility::Core, Facility::Database])
        );
        assert_eq!(facilities_of(&["log", "from_the_future"]), FacilitySet::ALL);
    }

    #[test]
    fn facility_sets() {
        let db = FacilitySet::CORE.with(Facility::Database);
        assert!(db.includes(FacilitySet::CORE));
        assert!(!FacilitySet::CORE.includes(db));
        assert!(FacilitySet::ALL.includes(db));
        assert_eq!(db.to_string(), "core,database");
        assert_eq!(FacilitySet::parse("core,database"), Some(db));
        assert_eq!(FacilitySet::parse(""), Some(FacilitySet::EMPTY));
        assert_eq!(FacilitySet::parse("core,sound"), None);
        assert_eq!(
            FacilitySet::ALL.to_string(),
            "core,database,net,canvas,window,audio"
        );
        for f in Facility::ALL {
            assert_eq!(Facility::from_name(f.name()), Some(f));
        }
    }
}
