//! Run-time values (§8): a 16-byte tagged enum.
//!
//! Scalars (`int`, `float`, `bool`, `color` as a packed int, `func` as a
//! function index) are stored inline. Everything managed is one pointer:
//! `text` and `ascii` are `Rc`s to immutable buffers (text has copy
//! semantics in the language, but since it is never mutated while shared,
//! sharing the buffer is unobservable; [`Value::append_text`] mutates in
//! place only when it holds the sole reference), structs/arrays/maps are
//! [`Ref`]s into the cycle-collected heap (see [`crate::heap`]), mixed-enum
//! boxes and handles are plain `Rc`s (not walked by the cycle collector,
//! §13.3).
//!
//! Cloning a `Value` retains, dropping releases (§13.1): a register, field
//! or element that is overwritten releases its old value at once.
//!
//! `null` is [`Value::Null`] for every type except `float`, whose null is
//! a NaN (§8.2). Typed instructions expect the variant the checker
//! promised and fall back to a neutral reading otherwise (e.g. a null int
//! in arithmetic reads 0), never panicking.
//!
//! # Handles
//! The values whose representation belongs to the standard library
//! (`blob`, `regex`, and those the batteries bring: `img`, `aud`, `font`,
//! `url`, `http`, `socket`, `thread`, ...) are all one variant,
//! [`Value::Handle`]: an `Rc<`[`HandleObj`]`>` owning a `Box<dyn`
//! [`Handle`]`>`. The VM knows nothing of any handle type; everything it
//! needs goes through the [`Handle`] trait, which a type implements once:
//!
//! - [`Handle::type_name`]: the name for rendering (a handle renders as
//!   `"<blob>"` inside JSON, §8.21);
//! - [`Handle::render_text`]: its top-level text form (`log`, templates,
//!   `toText`); by default the type name, a blob's is its bytes up to the
//!   first NUL;
//! - [`Handle::wipe`]: what `clear` of the last reference does (§10.11);
//!   by default nothing, a blob zeroes its bytes;
//! - [`Handle::send_copy`]: a deep copy that can cross to another
//!   thread in a message (§20.4), `None` (the default) for the types that
//!   are not sendable (`regex`, `http`, `socket`, `thread`). The copy is a
//!   [`SentHandle`] (`Send`), turned back into a value on the receiving
//!   thread by [`SentHandle::into_value`].
//! - [`Handle::encoded_bytes`]: the bytes the value stands for in a
//!   database column or an HTTP body (a blob's bytes, an image's encoded
//!   file), `None` (the default) for the types without one.
//!
//! Natives create one with [`Value::handle`] and reach their own type
//! with [`Value::as_handle`] (a downcast that is `None` for a null or for
//! another handle type). Handles are shared, not copied, by assignment
//! (§13.2): a type with state that changes (a blob's bytes, a window's
//! surface) keeps it behind a `Cell`/`RefCell`, and everything of a handle
//! stays on the thread of the interpreter that owns the value. Identity
//! is the `Rc`'s (`==` of two handles compares pointers). The double
//! indirection (`Rc` to a box) keeps [`Value`] at 16 bytes; a handle is
//! only ever reached through a native, never on the interpreter's hot
//! path.

use crate::heap::{ArrObj, Header, MapObj, Ref, StructObj, WeakCell};
use crate::oom::OutOfMemory;
use std::any::Any;
use std::cell::Cell;
use std::fmt;
use std::ptr::NonNull;
use std::rc::Rc;

/// One Festina value. Exactly 16 bytes (checked by a test).
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// `null` of any type but `float`.
    #[default]
    Null,
    /// `int` (also `color`, packed `0xRRGGBB`).
    Int(i64),
    /// `float` (NaN is the float `null`).
    Float(f64),
    /// `bool`.
    Bool(bool),
    /// A function value: index into `Program::functions` (§8.12).
    Func(u32),
    /// `text` (§8.4).
    Text(Rc<TextObj>),
    /// `ascii` (§8.5).
    Ascii(Rc<Vec<u8>>),
    /// A struct instance or table row.
    Struct(Ref<StructObj>),
    /// An array.
    Arr(Ref<ArrObj>),
    /// A map.
    Map(Ref<MapObj>),
    /// A boxed member of a mixed enum (§8.11).
    Enum(Rc<EnumBox>),
    /// A handle: a value whose type belongs to the standard library
    /// (`blob`, `regex`, ...); see [Handles](self#handles).
    Handle(Rc<HandleObj>),
    /// What a `weak` struct field holds (never a register): the link to
    /// its target, see [`crate::heap`] ("Weak fields"). Not a heap edge.
    Weak(Rc<WeakCell>),
}

/// An immutable UTF-8 string with a cached code-point length and a
/// code-point cursor.
///
/// Festina indexes text by code point (§8.4: `s[i]`, `s.charCodeAt(i)`),
/// the string is UTF-8. For an ASCII-only text (known from the cached
/// length) code point `i` is byte `i`. For other text the object remembers
/// the last position it converted, a (code point, byte offset) pair, and
/// walks from there (forwards or backwards) or from the start, whichever is
/// nearer; a loop over `i` is therefore amortized O(1) per step instead of
/// O(i). The cursor is a cache only: any position is a valid start, so it
/// needs no invalidation when the text grows by an in-place append.
#[derive(Debug)]
pub struct TextObj {
    s: String,
    /// Code-point count, or `usize::MAX` when not computed yet.
    cp: Cell<usize>,
    /// The last converted position: code point index in the high 32 bits,
    /// its byte offset in the low 32 (texts beyond 4 GiB are walked from
    /// the start).
    cursor: Cell<u64>,
}

/// The box of a mixed-enum value: which member, and the member's value.
#[derive(Debug)]
pub struct EnumBox {
    /// Member index in `Enum::members`.
    pub member: u16,
    /// The member value.
    pub value: Value,
}

/// What a handle type provides to the VM (see [Handles](self#handles)).
/// Implemented by the standard library's value types (`blob`, `regex`,
/// ...), each once.
pub trait Handle: Any {
    /// The type's name as Festina writes it (`blob`, `regex`). Inside JSON
    /// a handle renders as `"<name>"` (§8.21).
    fn type_name(&self) -> &'static str;

    /// Append the top-level text form (§8.21: `log`, templates,
    /// `toText`) to `out`. By default the type name.
    fn render_text(&self, out: &mut String) {
        out.push_str(self.type_name());
    }

    /// Overwrite what the value holds, for `clear` of its last reference
    /// (§10.11; [`crate::heap::zero_bytes`] zeroes bytes so that the
    /// compiler keeps the writes). By default nothing.
    fn wipe(&self) {}

    /// A deep copy for a thread message (§20.4), which the receiving
    /// thread turns into a value of its own; `None` when values of the
    /// type cannot be sent (the default).
    fn send_copy(&self) -> Option<Box<dyn SentHandle>> {
        None
    }

    /// The value's own encoded bytes, for a `BLOB` column or parameter
    /// (§15.3) and an HTTP body (§19.2): a blob's bytes, an image's file
    /// bytes (or a PNG of it). `None` (the default) for the types that
    /// have no byte form. Reached through this trait, so that the code
    /// storing or sending the bytes never links the type's own library.
    fn encoded_bytes(&self) -> Option<Vec<u8>> {
        None
    }
}

/// A handle's deep copy on its way to another thread (§20.4): made on the
/// sending thread by [`Handle::send_copy`], holding only `Send` data.
pub trait SentHandle: Send {
    /// The value on the receiving thread: a new handle, sharing nothing
    /// with the original.
    fn into_value(self: Box<Self>) -> Value;
}

/// The shared box of a [`Value::Handle`]: the handle type's value behind
/// its [`Handle`] implementation.
pub struct HandleObj(Box<dyn Handle>);

impl HandleObj {
    /// The box of a new handle holding `h`, for a native that keeps an
    /// `Rc` of its own beside the value (a background load filling the
    /// blob it handed out); otherwise [`Value::handle`].
    pub fn new(h: impl Handle) -> HandleObj {
        HandleObj(Box::new(h))
    }

    /// The type's name (`blob`, `regex`).
    pub fn type_name(&self) -> &'static str {
        self.0.type_name()
    }

    /// The value as a `T`, if it is one.
    pub fn downcast_ref<T: Handle>(&self) -> Option<&T> {
        let any: &dyn Any = &*self.0;
        any.downcast_ref()
    }

    /// The handle's [`Handle`] implementation.
    pub fn as_dyn(&self) -> &dyn Handle {
        &*self.0
    }
}

impl fmt::Debug for HandleObj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}>", self.type_name())
    }
}

impl TextObj {
    /// A text from a string.
    pub fn new(s: String) -> TextObj {
        let cp = if s.is_ascii() { s.len() } else { usize::MAX };
        TextObj {
            s,
            cp: Cell::new(cp),
            cursor: Cell::new(0),
        }
    }

    /// The string.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.s
    }

    /// The string's capacity in bytes (what the text's buffer holds).
    pub fn capacity(&self) -> usize {
        self.s.capacity()
    }

    /// Make this text `s`, in the same buffer (grown if `s` is longer),
    /// with the cached length and cursor of a new text: for a text whose
    /// box the heap recycles ([`crate::heap::Heap::text`]).
    pub fn refill(&mut self, s: &str) {
        self.s.clear();
        self.s.push_str(s);
        self.cp.set(if s.is_ascii() { s.len() } else { usize::MAX });
        self.cursor.set(0);
    }

    /// Length in code points (§8.4), computed once.
    pub fn char_len(&self) -> usize {
        let c = self.cp.get();
        if c != usize::MAX {
            return c;
        }
        let n = self.s.chars().count();
        self.cp.set(n);
        n
    }

    /// True if every character is ASCII (known cheaply once the length is
    /// cached).
    pub fn is_ascii(&self) -> bool {
        self.char_len() == self.s.len()
    }

    /// The byte offset of code point `i` (`i == char_len()` gives the
    /// length), or `None` beyond the end. O(1) for ASCII-only text,
    /// amortized O(1) for sequential positions otherwise (see the type's
    /// documentation).
    pub fn byte_offset(&self, i: usize) -> Option<usize> {
        if self.is_ascii() {
            return (i <= self.s.len()).then_some(i);
        }
        if i > self.char_len() {
            return None;
        }
        let c = self.cursor.get();
        let (ci, bi) = ((c >> 32) as usize, (c & 0xFFFF_FFFF) as usize);
        let b = self.s.as_bytes();
        let at = if i >= ci {
            // Forwards from the cursor.
            walk_forward(b, bi, i - ci)
        } else if ci - i < i {
            // Backwards from the cursor: step over continuation bytes.
            let mut pos = bi;
            for _ in 0..ci - i {
                pos -= 1;
                while b[pos] & 0xC0 == 0x80 {
                    pos -= 1;
                }
            }
            pos
        } else {
            walk_forward(b, 0, i)
        };
        if let (Ok(ci), Ok(bi)) = (u32::try_from(i), u32::try_from(at)) {
            self.cursor.set((ci as u64) << 32 | bi as u64);
        }
        Some(at)
    }

    /// Code point `i`, or `None` beyond the end (costs as
    /// [`TextObj::byte_offset`]).
    pub fn char_at(&self, i: usize) -> Option<char> {
        let at = self.byte_offset(i)?;
        self.s[at..].chars().next()
    }

    /// Append in place (only through a unique `Rc`). Errors: the
    /// allocator refused the growth (the text is unchanged).
    #[inline]
    pub fn push_str(&mut self, more: &str, more_cp: Option<usize>) -> Result<(), OutOfMemory> {
        crate::oom::grow_str(&mut self.s, more.len())?;
        let c = self.cp.get();
        self.cp.set(match more_cp {
            Some(m) if c != usize::MAX => c + m,
            _ => usize::MAX,
        });
        self.s.push_str(more);
        Ok(())
    }

    /// Overwrite the bytes with zeros (for `clear`, §10.11).
    pub fn wipe(&mut self) {
        // SAFETY: all-zero bytes are valid UTF-8.
        unsafe { crate::heap::zero_bytes(self.s.as_bytes_mut()) };
    }
}

/// The byte offset `n` code points after byte offset `from` (a character
/// boundary) of the UTF-8 bytes `b`; the caller keeps it within the text.
fn walk_forward(b: &[u8], from: usize, n: usize) -> usize {
    let mut pos = from;
    let mut left = n;
    while left > 0 {
        // Skip the lead byte, then its continuation bytes.
        pos += 1;
        while pos < b.len() && b[pos] & 0xC0 == 0x80 {
            pos += 1;
        }
        left -= 1;
    }
    pos
}

impl Value {
    /// A text value.
    pub fn text(s: impl Into<String>) -> Value {
        Value::Text(Rc::new(TextObj::new(s.into())))
    }

    /// An ascii value.
    pub fn ascii(b: impl Into<Vec<u8>>) -> Value {
        Value::Ascii(Rc::new(b.into()))
    }

    /// A new handle value holding `h` (see [Handles](self#handles)).
    pub fn handle(h: impl Handle) -> Value {
        Value::Handle(Rc::new(HandleObj::new(h)))
    }

    /// The `T` inside a handle value; `None` for a null, another handle
    /// type or any other value.
    pub fn as_handle<T: Handle>(&self) -> Option<&T> {
        match self {
            Value::Handle(h) => h.downcast_ref(),
            _ => None,
        }
    }

    /// True for values that own nothing (null, int, float, bool, func):
    /// overwriting them needs no release.
    #[inline(always)]
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Value::Null | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Func(_)
        )
    }

    /// True for `Null` (a NaN float is *not* `Null`; see §8.2).
    #[inline]
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// True for struct, array and map values: the edges the cycle
    /// collector walks.
    #[inline]
    pub fn is_heap(&self) -> bool {
        matches!(self, Value::Struct(_) | Value::Arr(_) | Value::Map(_))
    }

    /// The heap header of a struct/array/map value.
    pub(crate) fn heap_header(&self) -> Option<NonNull<Header>> {
        match self {
            Value::Struct(r) => Some(r.header_ptr()),
            Value::Arr(r) => Some(r.header_ptr()),
            Value::Map(r) => Some(r.header_ptr()),
            _ => None,
        }
    }

    /// The int, with the fallbacks typed instructions use: a null (or any
    /// non-int) reads 0, a float truncates.
    #[inline]
    pub fn as_int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            other => int_fallback(other),
        }
    }

    /// The float: null reads NaN (the float null), an int widens.
    #[inline]
    pub fn as_float(&self) -> f64 {
        match self {
            Value::Float(f) => *f,
            other => float_fallback(other),
        }
    }

    /// The bool: anything but `true` reads false.
    #[inline]
    pub fn as_bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// The text content, if a text (or ascii) value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(t) => Some(t.as_str()),
            // Ascii is a subset of UTF-8 by construction (§8.5); fall back
            // to None on anything else.
            Value::Ascii(a) => std::str::from_utf8(a).ok(),
            _ => None,
        }
    }

    /// Append `more` to this text value in place when the buffer is not
    /// shared; otherwise copy first (§9.11 note: amortized O(1)). A null
    /// (or non-text) receiver counts as empty. Errors: the allocator
    /// refused the growth ([`crate::oom`]); the value is unchanged.
    pub fn append_text(&mut self, more: &Value) -> Result<(), OutOfMemory> {
        let (s, cp) = match more {
            Value::Text(t) => {
                let c = t.cp.get();
                (t.as_str(), (c != usize::MAX).then_some(c))
            }
            Value::Ascii(a) => match std::str::from_utf8(a) {
                Ok(s) => (s, Some(s.len())),
                Err(_) => return Ok(()),
            },
            _ => return Ok(()),
        };
        if let Value::Text(t) = self {
            if let Some(m) = Rc::get_mut(t) {
                return m.push_str(s, cp);
            }
        }
        append_slow(self, s)
    }
}

#[cold]
#[inline(never)]
fn append_slow(v: &mut Value, s: &str) -> Result<(), OutOfMemory> {
    let old = match v {
        Value::Text(t) => t.as_str(),
        _ => "",
    };
    // Room to append as much again in place; exactly the result when the
    // allocator cannot give that.
    let want = old.len() + s.len();
    let mut base = String::new();
    crate::oom::fallible(|| {
        base.try_reserve_exact(want.saturating_mul(2))
            .or_else(|_| base.try_reserve_exact(want))
    })
    .map_err(|_| OutOfMemory)?;
    base.push_str(old);
    base.push_str(s);
    *v = Value::Text(Rc::new(TextObj::new(base)));
    Ok(())
}

#[cold]
#[inline(never)]
fn int_fallback(v: &Value) -> i64 {
    match v {
        Value::Float(f) if f.is_finite() => *f as i64,
        Value::Bool(b) => *b as i64,
        _ => 0,
    }
}

#[cold]
#[inline(never)]
fn float_fallback(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        _ => f64::NAN,
    }
}

impl PartialEq for Value {
    /// Scalars by value (NaN never equal), text/ascii by content, managed
    /// objects by identity. For tests and natives; the VM's `==` uses the
    /// typed instructions.
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Func(a), Value::Func(b)) => a == b,
            (Value::Text(a), Value::Text(b)) => a.as_str() == b.as_str(),
            (Value::Ascii(a), Value::Ascii(b)) => a == b,
            (Value::Struct(a), Value::Struct(b)) => a.ptr_eq(b),
            (Value::Arr(a), Value::Arr(b)) => a.ptr_eq(b),
            (Value::Map(a), Value::Map(b)) => a.ptr_eq(b),
            (Value::Enum(a), Value::Enum(b)) => Rc::ptr_eq(a, b),
            (Value::Handle(a), Value::Handle(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

// ---------------------------------------------------------------------------
// Map storage: insertion-ordered entries plus a hash index.

/// Storage of a map: entries in insertion order (a removal moves the last
/// entry into the hole) and a hash table of entry indexes keyed by the
/// entry's key. Hashing uses a fixed-seed function so runs are
/// reproducible.
///
/// # Deferred entries
///
/// A map made by a native from data it already holds in a compact form
/// (an HTTP message's headers) may start with a [`MapSource`] instead of
/// its entries ([`crate::heap::Heap::new_map_from`]): the entries are made
/// from it on the first use of the map by anything (a read, a write, its
/// length, an iteration, a copy). Until the map is first changed, the
/// source stays attached and says what the map holds, so a native that
/// only passes the map on (an HTTP header map copied into a response)
/// can read the source's compact form instead, and need not make the
/// entries at all ([`crate::heap::Ref::source`]). Any insertion or
/// removal detaches it.
#[derive(Default)]
pub struct MapData {
    pub(crate) entries: Vec<(Rc<str>, Value)>,
    index: hashbrown::HashTable<u32>,
    /// What the map was made from, while its entries are still what the
    /// source says (see "Deferred entries").
    source: Option<Rc<dyn MapSource>>,
    /// The entries are not made yet: `source` holds them.
    pending: bool,
}

/// The compact form a map with deferred entries is made from (see
/// [`MapData`], "Deferred entries"). Implemented by the standard
/// library (an HTTP message's headers).
pub trait MapSource: Any {
    /// Insert the map's entries into `map` (empty, with the source already
    /// detached). The values must be texts or scalars (no heap objects:
    /// a map whose entries are not made yet is not traced by the cycle
    /// collector).
    fn fill(&self, map: &mut MapData);

    /// The number of entries, for the room reserved before
    /// [`MapSource::fill`].
    fn len_hint(&self) -> usize;

    /// `self`, to downcast to the implementing type.
    fn as_any(&self) -> &dyn Any;
}

impl fmt::Debug for MapData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pending {
            return f.write_str("{<deferred>}");
        }
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// FxHash-style byte hash (fixed seed, fast for short keys).
pub fn hash_str(s: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = s.len() as u64;
    let mut b = s.as_bytes();
    while b.len() >= 8 {
        let w = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        b = &b[8..];
    }
    if !b.is_empty() {
        let mut w = [0u8; 8];
        w[..b.len()].copy_from_slice(b);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    // Final avalanche so the table's top bits are well mixed.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

impl MapData {
    /// An empty map with room for `n` entries (entries and index), so
    /// that filling it with `n` keys allocates once each; a refused
    /// reservation leaves it empty (it then grows as usual).
    pub fn with_capacity(n: usize) -> MapData {
        let mut m = MapData::default();
        if n > 0 {
            let _ = crate::oom::fallible(|| m.entries.try_reserve_exact(n));
            let _ = crate::oom::fallible(|| m.index.try_reserve(n, |_| 0));
        }
        m
    }

    /// A map whose entries are made from `source` on first use (see
    /// "Deferred entries").
    pub fn deferred(source: Rc<dyn MapSource>) -> MapData {
        MapData {
            source: Some(source),
            pending: true,
            ..MapData::default()
        }
    }

    /// Make the entries from the source if they are not made yet (every
    /// use of the map but the source's own read does this first).
    #[inline]
    pub(crate) fn materialize(&mut self) {
        if self.pending {
            self.materialize_slow();
        }
    }

    #[cold]
    fn materialize_slow(&mut self) {
        self.pending = false;
        if let Some(src) = self.source.take() {
            let n = src.len_hint();
            let _ = crate::oom::fallible(|| self.entries.try_reserve_exact(n));
            let _ = crate::oom::fallible(|| self.index.try_reserve(n, |_| 0));
            src.fill(self);
            // The entries are the source's: it stays attached until the
            // first change.
            self.source = Some(src);
        }
    }

    /// The source the map was made from, while its entries are still
    /// the source's (made or not).
    pub fn source(&self) -> Option<&Rc<dyn MapSource>> {
        self.source.as_ref()
    }

    fn find(&self, key: &str) -> Option<usize> {
        let h = hash_str(key);
        self.index
            .find(h, |&i| &*self.entries[i as usize].0 == key)
            .map(|&i| i as usize)
    }

    /// Value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).map(|i| &self.entries[i].1)
    }

    /// Add or replace; returns the replaced value (to drop after the
    /// borrow ends). Errors: the allocator refused to grow the map for a
    /// new key ([`crate::oom`]); the map is unchanged.
    pub fn insert(&mut self, key: &str, v: Value) -> Result<Option<Value>, OutOfMemory> {
        self.materialize();
        self.source = None;
        if let Some(i) = self.find(key) {
            return Ok(Some(std::mem::replace(&mut self.entries[i].1, v)));
        }
        crate::oom::grow(&mut self.entries, 1)?;
        if self.index.capacity() == self.index.len() {
            let entries = &self.entries;
            crate::oom::fallible(|| {
                self.index
                    .try_reserve(1, |&j| hash_str(&entries[j as usize].0))
            })
            .map_err(|_| OutOfMemory)?;
        }
        let i = self.entries.len() as u32;
        self.entries.push((Rc::from(key), v));
        let entries = &self.entries;
        self.index
            .insert_unique(hash_str(key), i, |&j| hash_str(&entries[j as usize].0));
        Ok(None)
    }

    /// Remove `key`; returns the removed value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.materialize();
        self.source = None;
        let h = hash_str(key);
        let entries = &self.entries;
        let slot = self
            .index
            .find_entry(h, |&i| &*entries[i as usize].0 == key)
            .ok()?;
        let (i, _) = slot.remove();
        let i = i as usize;
        let last = self.entries.len() - 1;
        if i != last {
            // Re-point the index of the entry that moves into the hole.
            let hl = hash_str(&self.entries[last].0);
            if let Some(p) = self.index.find_mut(hl, |&j| j as usize == last) {
                *p = i as u32;
            }
        }
        let (_, v) = self.entries.swap_remove(i);
        Some(v)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_is_16_bytes() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }

    #[test]
    fn append_in_place_is_linear() {
        let mut v = Value::Null;
        let piece = Value::text("ab");
        for _ in 0..1_000_000 {
            v.append_text(&piece).unwrap();
        }
        let Value::Text(t) = &v else { panic!() };
        assert_eq!(t.char_len(), 2_000_000);
    }

    #[test]
    fn append_copies_when_shared() {
        let mut a = Value::text("x");
        let b = a.clone();
        a.append_text(&Value::text("é")).unwrap();
        assert_eq!(a.as_str(), Some("xé"));
        assert_eq!(b.as_str(), Some("x"));
        let Value::Text(t) = &a else { panic!() };
        assert_eq!(t.char_len(), 2);
    }

    #[test]
    fn code_point_positions_match_a_scan_in_any_order() {
        let s = "aé😀b€\u{10FFFF}xyé".repeat(7);
        let t = TextObj::new(s.clone());
        let chars: Vec<char> = s.chars().collect();
        let offsets: Vec<usize> = s.char_indices().map(|(b, _)| b).chain([s.len()]).collect();
        // Forwards, backwards, strided and scattered, each against a scan.
        let n = chars.len();
        let order: Vec<usize> = (0..=n)
            .chain((0..=n).rev())
            .chain((0..=n).step_by(5))
            .chain((0..200).map(|k| (k * 37 + 11) % (n + 1)))
            .collect();
        for i in order {
            assert_eq!(t.byte_offset(i), Some(offsets[i]), "position {i}");
            assert_eq!(t.char_at(i), chars.get(i).copied(), "position {i}");
        }
        assert_eq!(t.byte_offset(n + 1), None);
        assert_eq!(t.char_at(n), None);
        // The cursor stays valid when the text grows in place.
        let mut v = Value::Text(Rc::new(TextObj::new("é".into())));
        let Value::Text(t) = &v else { panic!() };
        assert_eq!(t.char_at(0), Some('é'));
        v.append_text(&Value::text("😀z")).unwrap();
        let Value::Text(t) = &v else { panic!() };
        assert_eq!(t.char_at(2), Some('z'));
        assert_eq!(t.char_at(1), Some('😀'));
        let ascii = TextObj::new("hello".into());
        assert_eq!(ascii.char_at(4), Some('o'));
        assert_eq!(ascii.byte_offset(5), Some(5));
        assert_eq!(ascii.char_at(5), None);
    }

    #[test]
    fn map_insert_get_remove() {
        let mut m = MapData::default();
        for i in 0..100 {
            m.insert(&format!("k{i}"), Value::Int(i)).unwrap();
        }
        assert_eq!(m.get("k42"), Some(&Value::Int(42)));
        assert_eq!(m.remove("k0"), Some(Value::Int(0)));
        assert_eq!(m.remove("k0"), None);
        assert_eq!(m.len(), 99);
        for i in 1..100 {
            assert_eq!(m.get(&format!("k{i}")), Some(&Value::Int(i)));
        }
        assert_eq!(m.insert("k5", Value::Int(-5)), Ok(Some(Value::Int(5))));
        assert_eq!(m.get("k5"), Some(&Value::Int(-5)));
    }

    /// A handle type of the test's own, with a text form, a wipe hook that
    /// counts and a copy hook.
    struct Counter {
        n: Cell<i64>,
    }

    struct SentCounter(i64);

    impl Handle for Counter {
        fn type_name(&self) -> &'static str {
            "counter"
        }
        fn render_text(&self, out: &mut String) {
            out.push_str(&self.n.get().to_string());
        }
        fn wipe(&self) {
            self.n.set(0);
        }
        fn send_copy(&self) -> Option<Box<dyn SentHandle>> {
            Some(Box::new(SentCounter(self.n.get())))
        }
    }

    impl SentHandle for SentCounter {
        fn into_value(self: Box<Self>) -> Value {
            Value::handle(Counter {
                n: Cell::new(self.0),
            })
        }
    }

    struct Opaque;

    impl Handle for Opaque {
        fn type_name(&self) -> &'static str {
            "opaque"
        }
    }

    #[test]
    fn handles_downcast_compare_and_copy() {
        let v = Value::handle(Counter { n: Cell::new(7) });
        let alias = v.clone();
        assert_eq!(v, alias, "handles compare by identity");
        assert_eq!(v.as_handle::<Counter>().map(|c| c.n.get()), Some(7));
        assert!(v.as_handle::<Opaque>().is_none());
        assert!(Value::Null.as_handle::<Counter>().is_none());
        let Value::Handle(h) = &v else { panic!() };
        assert_eq!(h.type_name(), "counter");
        assert_eq!(format!("{h:?}"), "<counter>");
        let mut text = String::new();
        h.as_dyn().render_text(&mut text);
        assert_eq!(text, "7");
        // A copy sent to another thread and back is a new, equal value.
        let sent = h.as_dyn().send_copy().expect("sendable");
        let copy = std::thread::spawn(move || sent)
            .join()
            .unwrap()
            .into_value();
        assert_ne!(copy, v);
        assert_eq!(copy.as_handle::<Counter>().map(|c| c.n.get()), Some(7));
        h.as_dyn().wipe();
        assert_eq!(alias.as_handle::<Counter>().map(|c| c.n.get()), Some(0));
        // The defaults: the type name as text, not sendable.
        let o = Value::handle(Opaque);
        let Value::Handle(o) = &o else { panic!() };
        let mut text = String::new();
        o.as_dyn().render_text(&mut text);
        assert_eq!(text, "opaque");
        assert!(o.as_dyn().send_copy().is_none());
    }

    #[test]
    fn fallbacks_never_panic() {
        assert_eq!(Value::Null.as_int(), 0);
        assert!(Value::Null.as_float().is_nan());
        assert!(!Value::Null.as_bool());
        assert_eq!(Value::Int(3).as_float(), 3.0);
    }
}
