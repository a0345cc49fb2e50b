//! Reference-counted heap objects with synchronous cycle collection
//! (§13.1, §13.3).
//!
//! # Objects
//! Structs (and table rows), arrays and maps live in a [`GcBox`]: a
//! [`Header`] (count, colour/flag bits, kind, owning [`Heap`]) followed by
//! the payload. A [`Ref<T>`] is a strong pointer to one; cloning retains,
//! dropping releases, so a value dies exactly when its last register,
//! field, element or map value lets go of it.
//!
//! Payloads use `UnsafeCell` behind a deliberately tiny API (read = clone
//! out, write = swap in and drop the old value *after* the borrow ends).
//! No reference into a payload ever escapes a method, and no user code
//! runs while one is live: the only code that can run during a borrow is
//! `Vec`/hash-table growth, which drops nothing.
//!
//! # Deterministic, flat release
//! When a count reaches zero the object's payload is taken out and dropped.
//! Dropping it releases children, which could recurse without bound down a
//! long linked list; instead, a release that happens while another is in
//! progress is queued on [`Heap`]'s pending list and the outermost release
//! drains the queue. The Rust stack stays flat however deep the data is.
//!
//! # Recycled struct memory
//! A struct costs two allocations, its box ([`GcBox`] with the header)
//! and its block of field slots, and two frees when it dies; a server
//! that builds ten rows per message and drops the previous ten spends
//! more instructions in `malloc`/`free` than in building them. So the
//! heap keeps the memory of dead structs for the next ones: up to
//! [`RECYCLE_KEEP`] boxes, and as many field blocks per size for structs
//! of 1 to [`RECYCLE_MAX_FIELDS`] slots. A released struct's fields are
//! dropped in place (exactly when they were dropped before) and its two
//! allocations go on the lists, uninitialised; a new struct whose fields
//! come from [`Heap::fields_like`] takes them back. Nothing observable
//! changes: values die at the same moments, and only memory is reused.
//! The lists are freed with the heap. `FESTINA_NO_RECYCLE` turns this off
//! (every struct then allocates and frees its own memory).
//!
//! # Recycled texts
//! A text is two allocations too (its reference-counted [`TextObj`] and
//! the string's buffer), and a query's text columns make one per row: ten
//! rows with a text column allocate twenty blocks and free twenty when
//! they die. When a dead struct's fields are dropped, each text that no
//! one else holds (the only reference) and whose buffer is at most
//! [`TEXT_RECYCLE_MAX`] bytes is kept instead, up to [`RECYCLE_KEEP`] of
//! them; [`Heap::text`] (the database's text columns) refills one in
//! place. A text has no identity a program can observe and nothing runs
//! when it dies, so this changes nothing but the memory traffic.
//! `FESTINA_NO_TEXT_RECYCLE` turns it off.
//!
//! # Cycle collection (Bacon–Rajan synchronous trial deletion)
//! Only *tracked* objects are candidates: structs whose type can reach
//! itself (`Record::may_cycle`, or the VM's own analysis), and arrays or
//! maps into which a struct, array or map has been stored. When a tracked
//! object is released to a non-zero count it is coloured purple and
//! buffered as a possible root. When the buffer passes a threshold (checked
//! by the interpreter at allocation sites, where no payload is borrowed),
//! or at teardown, [`Heap::collect_cycles`] runs:
//! 1. *mark gray*: from each purple root, walk struct fields, array
//!    elements and map values, subtracting one from the count of every
//!    object reached per edge (trial deletion of internal references);
//! 2. *scan*: a gray object whose count is still positive is referenced
//!    from outside the subgraph; it and everything it reaches are
//!    re-blackened with their counts restored; the rest turn white;
//! 3. *collect white*: white objects are referenced only by each other.
//!    Their payloads are taken out; heap edges leaving them were already
//!    subtracted in step 1 and are forgotten, every other value (text,
//!    enum boxes, handles) is dropped normally; the boxes are freed.
//!
//! The threshold adapts after each collection: at least twice the roots
//! that stayed buffered, and at least a quarter of the objects the
//! collection traced without freeing them. A large live structure that a
//! buffered root reaches (a long list whose head moves) is then traced
//! again only after a number of new roots proportional to its size, so a
//! program pays a few visits per buffered root instead of the structure's
//! size every [`DEFAULT_THRESHOLD`] roots (a 2,000,000-node list built by
//! prepending: 8.7 s before, 0.82 s after; `benches/RESULTS.md`, "Cycle
//! collection under a large live structure"). The price: garbage cycles
//! made beside a large live structure wait for more roots, so they hold
//! memory longer (in proportion to that structure). `FESTINA_NO_GC_PACING`
//! turns this growth off.
//!
//! Edges through enum boxes are not walked (§13.3): a reference held by a
//! box counts as an outside reference, which keeps the algorithm sound (a
//! cycle still reachable from outside is never touched) at the price of
//! not collecting a cycle closed only through an enum.
//!
//! # Weak fields
//! A `weak` struct field (`parent:weak Node`, the reference's addition
//! after edition 0.44) refers to a struct without keeping it alive, and
//! reads `null` once the struct is gone, never a freed object. The field
//! slot holds a [`Value::Weak`]: a shared [`WeakCell`] naming the target's
//! header, or nothing. There is one cell per weakly referenced object,
//! created on the first weak store to it ([`Heap::weak_cell`]): the heap
//! keeps it in a table keyed by the object's header and sets the object's
//! `WEAK_TARGET` flag bit. Whenever an object's payload is released (its
//! count reached zero, or a cycle collection found it garbage), the flag
//! is tested; if set, the cell is taken out of the table and emptied. So a
//! cell names an object only while that object is alive (count above
//! zero, payload present), and reading a weak field upgrades it to an
//! ordinary counted reference (a retain) or yields null. Objects nobody
//! refers to weakly pay one flag test at death and nothing else; the
//! header does not grow.
//!
//! A weak edge is not a heap edge: [`Value::heap_header`] is `None` for
//! it, so trial deletion neither walks it nor counts it, and the type
//! analysis that decides which struct types may form cycles
//! (`Record::may_cycle`) ignores weak fields: where the weak edge is the
//! only way back (a tree's parent pointer), releases never buffer
//! possible roots at all.

use crate::oom::OutOfMemory;
use crate::value::{MapData, MapSource, TextObj, Value};
use std::alloc::Layout;
use std::cell::{Cell, RefCell, UnsafeCell};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::rc::Rc;

/// Largest struct, in field slots, whose memory the heap recycles (see
/// "Recycled struct memory").
pub const RECYCLE_MAX_FIELDS: usize = 8;

/// How many struct boxes, and field blocks of each size, the heap keeps.
pub const RECYCLE_KEEP: usize = 64;

/// The largest string buffer (bytes) of a dead struct's text that the
/// heap keeps for [`Heap::text`] (see "Recycled texts").
pub const TEXT_RECYCLE_MAX: usize = 256;

/// Whether the heap recycles texts: not with `FESTINA_NO_TEXT_RECYCLE`
/// or `FESTINA_NO_OPT` (read once per process).
fn text_recycle_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::switches::enabled_once(&ON, crate::switches::NO_TEXT_RECYCLE)
}

/// Whether the heap recycles struct memory: not with
/// `FESTINA_NO_RECYCLE` or `FESTINA_NO_OPT` (read once per process).
fn recycle_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::switches::enabled_once(&ON, crate::switches::NO_RECYCLE)
}

/// Whether the collector's threshold grows with what it traced in vain
/// (module documentation, "Cycle collection"); off with
/// `FESTINA_NO_GC_PACING` or `FESTINA_NO_OPT` (read once per process).
fn gc_pacing_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::switches::enabled_once(&ON, crate::switches::NO_GC_PACING)
}

/// The memory of dead structs kept for new ones (uninitialised blocks;
/// see "Recycled struct memory").
#[derive(Debug)]
struct Recycler {
    on: bool,
    /// Blocks of `Layout::new::<GcBox<StructObj>>()`.
    boxes: Vec<NonNull<GcBox<StructObj>>>,
    /// `fields[n]`: blocks of `Layout::array::<Value>(n)`.
    fields: [Vec<NonNull<Value>>; RECYCLE_MAX_FIELDS + 1],
    /// Whether texts are kept (see "Recycled texts").
    texts_on: bool,
    /// Texts no one else holds, for [`Heap::text`].
    texts: Vec<Rc<TextObj>>,
}

impl Drop for Recycler {
    fn drop(&mut self) {
        // SAFETY: every block on the lists was allocated by the global
        // allocator with exactly these layouts (a struct box, or a field
        // block of `n` values) and holds no live value.
        unsafe {
            for p in self.boxes.drain(..) {
                std::alloc::dealloc(p.as_ptr().cast(), Layout::new::<GcBox<StructObj>>());
            }
            for (n, list) in self.fields.iter_mut().enumerate() {
                for p in list.drain(..) {
                    std::alloc::dealloc(p.as_ptr().cast(), fields_layout(n));
                }
            }
        }
    }
}

/// The layout of a block of `n` field slots (what a `Box<[Value]>` of
/// length `n` allocates).
fn fields_layout(n: usize) -> Layout {
    Layout::array::<Value>(n).expect("a small array layout")
}

/// Default number of buffered possible roots that triggers a collection.
pub const DEFAULT_THRESHOLD: usize = 10_000;

const COLOR_MASK: u8 = 0b11;
const BLACK: u8 = 0;
const GRAY: u8 = 1;
const WHITE: u8 = 2;
const PURPLE: u8 = 3;
const BUFFERED: u8 = 0b100;
const TRACKED: u8 = 0b1000;
/// Payload already released (count reached zero) while still buffered.
const DEAD: u8 = 0b1_0000;
/// Some weak field refers to this object: its [`WeakCell`] is in
/// `Heap::weak_cells` and must be emptied when the payload is released.
const WEAK_TARGET: u8 = 0b10_0000;

/// Which payload a [`GcBox`] carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// A [`StructObj`].
    Struct,
    /// An [`ArrObj`].
    Arr,
    /// A [`MapObj`].
    Map,
}

/// Per-interpreter heap bookkeeping shared by every object it allocated
/// (each object holds an `Rc<Heap>`, so the heap outlives its objects).
#[derive(Debug)]
pub struct Heap {
    live: Cell<usize>,
    roots: RefCell<Vec<NonNull<Header>>>,
    pending: RefCell<Vec<NonNull<Header>>>,
    releasing: Cell<bool>,
    collecting: Cell<bool>,
    threshold: Cell<usize>,
    base_threshold: Cell<usize>,
    collections: Cell<u64>,
    /// Objects visited by trial deletion (mark gray) in all collections.
    traced: Cell<u64>,
    /// The cell of every live object some weak field refers to (see
    /// "Weak fields"), keyed by the object's header.
    weak_cells: RefCell<hashbrown::HashMap<NonNull<Header>, Rc<WeakCell>>>,
    /// Memory of dead structs, for new ones.
    recycler: RefCell<Recycler>,
}

/// The link from weak fields to one struct (see "Weak fields" in the
/// module documentation): names the struct while it is alive, nothing
/// after. Shared by every weak field that refers to the same struct.
#[derive(Debug)]
pub struct WeakCell {
    target: Cell<Option<NonNull<Header>>>,
}

impl WeakCell {
    /// The target as a new counted reference, or `None` once it is gone.
    pub fn upgrade(&self) -> Option<Ref<StructObj>> {
        let h = self.target.get()?;
        // SAFETY: the heap empties the cell when the target's payload is
        // released, so a target still named is a live struct whose count
        // is above zero; retaining it is an ordinary clone.
        unsafe {
            let hd = h.as_ref();
            if hd.kind != Kind::Struct || hd.rc.get() == 0 {
                return None;
            }
            hd.rc.set(hd.rc.get() + 1);
        }
        Some(Ref {
            ptr: h.cast(),
            _own: PhantomData,
        })
    }

    /// True while the target is alive.
    pub fn is_alive(&self) -> bool {
        self.target.get().is_some()
    }
}

impl Default for Heap {
    fn default() -> Self {
        Heap {
            live: Cell::new(0),
            roots: RefCell::new(Vec::new()),
            pending: RefCell::new(Vec::new()),
            releasing: Cell::new(false),
            collecting: Cell::new(false),
            threshold: Cell::new(DEFAULT_THRESHOLD),
            base_threshold: Cell::new(DEFAULT_THRESHOLD),
            collections: Cell::new(0),
            traced: Cell::new(0),
            weak_cells: RefCell::new(hashbrown::HashMap::new()),
            recycler: RefCell::new(Recycler {
                on: recycle_enabled(),
                boxes: Vec::new(),
                fields: Default::default(),
                texts_on: text_recycle_enabled(),
                texts: Vec::new(),
            }),
        }
    }
}

/// Object header, first field of every [`GcBox`] (`repr(C)`), so a
/// `NonNull<GcBox<T>>` can be viewed as a `NonNull<Header>` and back once
/// `kind` says which `T` it is.
#[repr(C)]
#[derive(Debug)]
pub struct Header {
    rc: Cell<u32>,
    flags: Cell<u8>,
    kind: Kind,
    heap: Rc<Heap>,
}

/// A heap allocation: header plus payload.
#[repr(C)]
#[derive(Debug)]
pub struct GcBox<T> {
    hdr: Header,
    data: T,
}

/// Payloads that can live in a [`GcBox`].
pub trait HeapKind: Sized {
    /// The kind tag stored in the header.
    const KIND: Kind;
}

/// A struct instance or table row (§8.9, §8.10): record id plus field
/// slots in declaration order.
#[derive(Debug)]
pub struct StructObj {
    /// Index into `Program::structs`, or into `Program::tables` when
    /// `is_row`.
    pub sid: u32,
    /// True for a table row.
    pub is_row: bool,
    fields: UnsafeCell<Box<[Value]>>,
}

/// An array (`arr[T]` or `amor arr[T]`, §8.7).
#[derive(Debug)]
pub struct ArrObj {
    items: UnsafeCell<Vec<Value>>,
}

/// A map with text keys (§8.8), kept in insertion order (iteration order
/// is unspecified by the language; insertion order is what users expect).
#[derive(Debug)]
pub struct MapObj {
    data: UnsafeCell<MapData>,
}

impl HeapKind for StructObj {
    const KIND: Kind = Kind::Struct;
}
impl HeapKind for ArrObj {
    const KIND: Kind = Kind::Arr;
}
impl HeapKind for MapObj {
    const KIND: Kind = Kind::Map;
}

/// A counted strong reference to a heap object.
pub struct Ref<T: HeapKind> {
    ptr: NonNull<GcBox<T>>,
    _own: PhantomData<GcBox<T>>,
}

impl<T: HeapKind> std::fmt::Debug for Ref<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ref({:?}@{:p})", T::KIND, self.ptr)
    }
}

impl Heap {
    /// A fresh heap in an `Rc`, ready to be handed to allocations.
    pub fn new() -> Rc<Heap> {
        Rc::new(Heap::default())
    }

    /// Number of live heap objects (structs, arrays, maps) allocated from
    /// this heap and not yet released (an emptied box that the roots
    /// buffer still points at, awaiting the next collection, is not live).
    pub fn live(&self) -> usize {
        self.live.get()
    }

    /// Number of buffered possible cycle roots.
    pub fn buffered_roots(&self) -> usize {
        self.roots.borrow().len()
    }

    /// Number of cycle collections run so far.
    pub fn collections(&self) -> u64 {
        self.collections.get()
    }

    /// Number of objects the cycle collections have traced so far (each
    /// visit of trial deletion's first walk): their cost.
    pub fn traced(&self) -> u64 {
        self.traced.get()
    }

    /// True when the possible-roots buffer has passed its threshold; the
    /// interpreter then calls [`Heap::collect_cycles`] at a safe point.
    #[inline]
    pub fn wants_collection(&self) -> bool {
        self.roots.borrow().len() >= self.threshold.get()
    }

    /// Set the number of buffered roots that triggers a collection.
    pub fn set_threshold(&self, n: usize) {
        self.threshold.set(n.max(1));
        self.base_threshold.set(n.max(1));
    }

    fn alloc<T: HeapKind>(self: &Rc<Self>, data: T, tracked: bool) -> Ref<T> {
        self.live.set(self.live.get() + 1);
        let b = GcBox {
            hdr: Header {
                rc: Cell::new(1),
                flags: Cell::new(if tracked { TRACKED } else { 0 }),
                kind: T::KIND,
                heap: Rc::clone(self),
            },
            data,
        };
        if T::KIND == Kind::Struct {
            let recycled = self.recycler.borrow_mut().boxes.pop();
            if let Some(p) = recycled {
                let p = p.cast::<GcBox<T>>();
                // SAFETY: `T` is `StructObj` (the only payload of kind
                // `Struct`), and `p` is an uninitialised block of its
                // box's layout (see `recycle_box`): writing the box makes
                // it exactly what `Box::new` would have made.
                unsafe { p.as_ptr().write(b) };
                return Ref {
                    ptr: p,
                    _own: PhantomData,
                };
            }
        }
        Ref {
            // SAFETY: Box::into_raw never returns null.
            ptr: unsafe { NonNull::new_unchecked(Box::into_raw(Box::new(b))) },
            _own: PhantomData,
        }
    }

    /// A block of field slots holding clones of `template` (a struct
    /// type's zero values, a row's empty slots), in recycled memory when
    /// there is some (see "Recycled struct memory").
    pub fn fields_like(&self, template: &[Value]) -> Box<[Value]> {
        let n = template.len();
        if (1..=RECYCLE_MAX_FIELDS).contains(&n) {
            let recycled = {
                let mut r = self.recycler.borrow_mut();
                r.fields[n].pop()
            };
            if let Some(p) = recycled {
                // SAFETY: `p` is an uninitialised block of
                // `Layout::array::<Value>(n)` (see `recycle_fields`), the
                // layout of a `Box<[Value]>` of length `n`; all `n` slots
                // are written before the box is made.
                unsafe {
                    for (i, v) in template.iter().enumerate() {
                        p.as_ptr().add(i).write(v.clone());
                    }
                    return Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.as_ptr(), n));
                }
            }
        }
        template.into()
    }

    /// Drop the values of a dead struct's `fields` and keep their block
    /// for [`Heap::fields_like`] (or free it: a size not recycled, the
    /// list full, recycling off).
    fn recycle_fields(&self, mut fields: Box<[Value]>) {
        self.keep_texts(&mut fields);
        let n = fields.len();
        if !(1..=RECYCLE_MAX_FIELDS).contains(&n) || !self.recycler.borrow().on {
            drop(fields);
            return;
        }
        let raw = Box::into_raw(fields).cast::<Value>();
        // SAFETY: `raw` owns `n` initialised values (from the box just
        // given up); they are dropped in place, once, and the block is
        // then either kept uninitialised or freed with the layout the box
        // had. No borrow of the recycler is held while the values drop
        // (which may queue further releases).
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(raw, n));
            let mut r = self.recycler.borrow_mut();
            if r.fields[n].len() < RECYCLE_KEEP {
                r.fields[n].push(NonNull::new_unchecked(raw));
            } else {
                drop(r);
                std::alloc::dealloc(raw.cast(), fields_layout(n));
            }
        }
    }

    /// Move the texts of a dead struct's `fields` that no one else holds
    /// and that are small to the recycled texts (see "Recycled texts"),
    /// leaving `null` in their slots.
    fn keep_texts(&self, fields: &mut [Value]) {
        let mut r = self.recycler.borrow_mut();
        if !r.texts_on {
            return;
        }
        for v in fields.iter_mut() {
            if r.texts.len() >= RECYCLE_KEEP {
                return;
            }
            if let Value::Text(t) = v {
                if Rc::strong_count(t) == 1
                    && Rc::weak_count(t) == 0
                    && t.capacity() <= TEXT_RECYCLE_MAX
                {
                    if let Value::Text(t) = std::mem::take(v) {
                        r.texts.push(t);
                    }
                }
            }
        }
    }

    /// The text `s`, in a recycled text's memory when the heap keeps one
    /// (see "Recycled texts"), else newly allocated.
    pub fn text(&self, s: &str) -> Value {
        let kept = self.recycler.borrow_mut().texts.pop();
        if let Some(mut t) = kept {
            if let Some(obj) = Rc::get_mut(&mut t) {
                obj.refill(s);
                return Value::Text(t);
            }
        }
        Value::text(s)
    }

    /// Number of struct boxes and field blocks the heap keeps for reuse
    /// (for tests).
    pub fn recycled(&self) -> (usize, usize) {
        let r = self.recycler.borrow();
        (r.boxes.len(), r.fields.iter().map(Vec::len).sum())
    }

    /// Allocate a struct (or row) with the given field values. `tracked`:
    /// the type may form cycles, so releases buffer it as a possible root.
    pub fn new_struct(
        self: &Rc<Self>,
        sid: u32,
        is_row: bool,
        fields: Box<[Value]>,
        tracked: bool,
    ) -> Ref<StructObj> {
        self.alloc(
            StructObj {
                sid,
                is_row,
                fields: UnsafeCell::new(fields),
            },
            tracked,
        )
    }

    /// Allocate an array holding `items`.
    pub fn new_arr(self: &Rc<Self>, items: Vec<Value>) -> Ref<ArrObj> {
        let tracked = items.iter().any(Value::is_heap);
        self.alloc(
            ArrObj {
                items: UnsafeCell::new(items),
            },
            tracked,
        )
    }

    /// Allocate a map whose entries are made from `source` when it is
    /// first used (see [`MapData`], "Deferred entries").
    pub fn new_map_from(self: &Rc<Self>, source: Rc<dyn MapSource>) -> Ref<MapObj> {
        self.alloc(
            MapObj {
                data: UnsafeCell::new(MapData::deferred(source)),
            },
            false,
        )
    }

    /// Allocate an empty map.
    pub fn new_map(self: &Rc<Self>) -> Ref<MapObj> {
        self.new_map_with_capacity(0)
    }

    /// Allocate an empty map with room for `n` entries (see
    /// [`MapData::with_capacity`]).
    pub fn new_map_with_capacity(self: &Rc<Self>, n: usize) -> Ref<MapObj> {
        self.alloc(
            MapObj {
                data: UnsafeCell::new(MapData::with_capacity(n)),
            },
            false,
        )
    }

    /// The weak cell of struct `r`, created on first use (see "Weak
    /// fields"): what a weak field stores to refer to `r`.
    pub fn weak_cell(&self, r: &Ref<StructObj>) -> Rc<WeakCell> {
        let h = r.header_ptr();
        let hd = r.header();
        let mut cells = self.weak_cells.borrow_mut();
        if hd.flags.get() & WEAK_TARGET != 0 {
            if let Some(c) = cells.get(&h) {
                return Rc::clone(c);
            }
        }
        let cell = Rc::new(WeakCell {
            target: Cell::new(Some(h)),
        });
        cells.insert(h, Rc::clone(&cell));
        hd.flags.set(hd.flags.get() | WEAK_TARGET);
        cell
    }

    /// Number of objects some weak field currently refers to.
    pub fn weak_targets(&self) -> usize {
        self.weak_cells.borrow().len()
    }

    /// Run a synchronous trial-deletion collection over the buffered
    /// possible roots (see the module documentation). Must not be called
    /// while any payload is borrowed; the interpreter calls it only between
    /// instructions. Returns the number of objects freed.
    pub fn collect_cycles(&self) -> usize {
        if self.collecting.get() {
            return 0;
        }
        self.collecting.set(true);
        self.collections.set(self.collections.get() + 1);
        let roots = std::mem::take(&mut *self.roots.borrow_mut());
        let mut live_roots = Vec::with_capacity(roots.len());
        let mut freed = 0;
        let mut traced = 0usize;
        // SAFETY (whole collection): every pointer in the buffer is a live
        // allocation (a buffered object is never deallocated except here),
        // and every pointer reached through payloads is a live object whose
        // count includes that edge. No payload is borrowed elsewhere while
        // the collector runs (it runs only at safe points, never reentrantly).
        unsafe {
            // Mark roots.
            for &h in &roots {
                let hd = h.as_ref();
                let f = hd.flags.get();
                if f & DEAD != 0 {
                    free_box(h);
                } else if f & COLOR_MASK == PURPLE && hd.rc.get() > 0 {
                    traced += mark_gray(h);
                    live_roots.push(h);
                } else {
                    hd.flags.set(f & !BUFFERED);
                }
            }
            // Scan.
            for &h in &live_roots {
                scan(h);
            }
            // Collect white.
            let mut white = Vec::new();
            for &h in &live_roots {
                let hd = h.as_ref();
                hd.flags.set(hd.flags.get() & !BUFFERED);
                collect_white(h, &mut white);
            }
            // Take every white payload out first, then free: edges between
            // white objects were already subtracted, so they are forgotten.
            let mut others: Vec<Value> = Vec::new();
            for &h in &white {
                forget_weak_target(h);
                take_payload(h, &mut |v: Value| {
                    if v.is_heap() {
                        std::mem::forget(v);
                    } else {
                        others.push(v);
                    }
                });
            }
            for &h in &white {
                free_box(h);
                freed += 1;
            }
            // Dropping the rest (texts, enum boxes, handles) may release
            // further objects through the ordinary path.
            drop(others);
        }
        self.collecting.set(false);
        // Adapt: if most buffered roots survived, wait longer next time;
        // and wait for as many new roots as a quarter of the live objects
        // this collection traced in vain, so that tracing a large live
        // structure again and again (a long linked list whose head moves:
        // every release buffers a root that reaches the whole list) costs
        // at most about four visits per buffered root, not the structure's
        // size per threshold (module documentation).
        self.traced.set(self.traced.get() + traced as u64);
        let survivors = self.roots.borrow().len();
        let in_vain = if gc_pacing_enabled() {
            traced.saturating_sub(freed) / 4
        } else {
            0
        };
        self.threshold.set(
            self.base_threshold
                .get()
                .max(survivors.saturating_mul(2))
                .max(in_vain),
        );
        freed
    }
}

// ---------------------------------------------------------------------------
// Raw operations on headers.

/// Visit the heap children (structs, arrays, maps) of `h`'s payload.
///
/// # Safety
/// `h` must be a live object whose payload is not mutably borrowed.
unsafe fn for_each_child(h: NonNull<Header>, mut f: impl FnMut(NonNull<Header>)) {
    let visit = |v: &Value, f: &mut dyn FnMut(NonNull<Header>)| {
        if let Some(c) = v.heap_header() {
            f(c)
        }
    };
    match h.as_ref().kind {
        Kind::Struct => {
            let b = h.cast::<GcBox<StructObj>>();
            for v in (&*b.as_ref().data.fields.get()).iter() {
                visit(v, &mut f);
            }
        }
        Kind::Arr => {
            let b = h.cast::<GcBox<ArrObj>>();
            for v in (&*b.as_ref().data.items.get()).iter() {
                visit(v, &mut f);
            }
        }
        Kind::Map => {
            let b = h.cast::<GcBox<MapObj>>();
            for (_, v) in (&*b.as_ref().data.data.get()).entries.iter() {
                visit(v, &mut f);
            }
        }
    }
}

/// Move every value out of `h`'s payload into `sink`, leaving it empty.
///
/// # Safety
/// `h` must be a live object whose payload is not borrowed.
unsafe fn take_payload(h: NonNull<Header>, sink: &mut dyn FnMut(Value)) {
    match h.as_ref().kind {
        Kind::Struct => {
            let b = h.cast::<GcBox<StructObj>>();
            let fields = std::mem::take(&mut *b.as_ref().data.fields.get());
            for v in fields.into_vec() {
                sink(v);
            }
        }
        Kind::Arr => {
            let b = h.cast::<GcBox<ArrObj>>();
            let items = std::mem::take(&mut *b.as_ref().data.items.get());
            for v in items {
                sink(v);
            }
        }
        Kind::Map => {
            let b = h.cast::<GcBox<MapObj>>();
            let data = std::mem::take(&mut *b.as_ref().data.data.get());
            for (_, v) in data.entries {
                sink(v);
            }
        }
    }
}

/// Deallocate the box (its payload must already be empty or only hold
/// values that need no release) and decrement the live count.
///
/// # Safety
/// `h` must be a live allocation made by [`Heap::alloc`] that nothing
/// references any more.
unsafe fn free_box(h: NonNull<Header>) {
    let heap = &h.as_ref().heap;
    if h.as_ref().flags.get() & DEAD == 0 {
        heap.live.set(heap.live.get() - 1);
    }
    match h.as_ref().kind {
        Kind::Struct => recycle_box(h.cast::<GcBox<StructObj>>()),
        Kind::Arr => drop(Box::from_raw(h.cast::<GcBox<ArrObj>>().as_ptr())),
        Kind::Map => drop(Box::from_raw(h.cast::<GcBox<MapObj>>().as_ptr())),
    }
}

/// Drop a dead struct's box in place and keep its memory for the next
/// struct (or free it: recycling off, the list full).
///
/// # Safety
/// As for [`free_box`]: `p` is a struct box made by [`Heap::alloc`] that
/// nothing references any more.
unsafe fn recycle_box(p: NonNull<GcBox<StructObj>>) {
    let raw = p.as_ptr();
    // The header's heap reference moves out (keeping the heap alive until
    // the block is on its list); the rest of the box is dropped in place.
    let heap: Rc<Heap> = std::ptr::read(&(*raw).hdr.heap);
    std::ptr::drop_in_place(&mut (*raw).data);
    let kept = {
        let mut r = heap.recycler.borrow_mut();
        if r.on && r.boxes.len() < RECYCLE_KEEP {
            r.boxes.push(p);
            true
        } else {
            false
        }
    };
    if !kept {
        std::alloc::dealloc(raw.cast(), Layout::new::<GcBox<StructObj>>());
    }
    drop(heap);
}

fn set_color(hd: &Header, c: u8) {
    hd.flags.set((hd.flags.get() & !COLOR_MASK) | c);
}

fn color(hd: &Header) -> u8 {
    hd.flags.get() & COLOR_MASK
}

/// # Safety
/// As for [`Heap::collect_cycles`].
unsafe fn mark_gray(root: NonNull<Header>) -> usize {
    if color(root.as_ref()) == GRAY {
        return 0;
    }
    set_color(root.as_ref(), GRAY);
    let mut stack = vec![root];
    let mut visited = 0;
    while let Some(s) = stack.pop() {
        visited += 1;
        for_each_child(s, |t| {
            let td = t.as_ref();
            td.rc.set(td.rc.get().wrapping_sub(1));
            if color(td) != GRAY {
                set_color(td, GRAY);
                stack.push(t);
            }
        });
    }
    visited
}

/// # Safety
/// As for [`Heap::collect_cycles`].
unsafe fn scan(root: NonNull<Header>) {
    let mut stack = vec![root];
    while let Some(s) = stack.pop() {
        let sd = s.as_ref();
        if color(sd) != GRAY {
            continue;
        }
        if sd.rc.get() > 0 {
            scan_black(s);
        } else {
            set_color(sd, WHITE);
            for_each_child(s, |t| stack.push(t));
        }
    }
}

/// # Safety
/// As for [`Heap::collect_cycles`].
unsafe fn scan_black(root: NonNull<Header>) {
    set_color(root.as_ref(), BLACK);
    let mut stack = vec![root];
    while let Some(s) = stack.pop() {
        for_each_child(s, |t| {
            let td = t.as_ref();
            td.rc.set(td.rc.get().wrapping_add(1));
            if color(td) != BLACK {
                set_color(td, BLACK);
                stack.push(t);
            }
        });
    }
}

/// # Safety
/// As for [`Heap::collect_cycles`].
unsafe fn collect_white(root: NonNull<Header>, out: &mut Vec<NonNull<Header>>) {
    let mut stack = vec![root];
    while let Some(s) = stack.pop() {
        let sd = s.as_ref();
        if color(sd) == WHITE && sd.flags.get() & BUFFERED == 0 {
            set_color(sd, BLACK);
            out.push(s);
            for_each_child(s, |t| stack.push(t));
        }
    }
}

/// Release one reference to `h`.
///
/// # Safety
/// `h` must be a live object and the caller must own one of its counts.
#[inline]
unsafe fn dec(h: NonNull<Header>) {
    let hd = h.as_ref();
    let n = hd.rc.get() - 1;
    hd.rc.set(n);
    if n == 0 {
        release(h);
    } else if hd.flags.get() & TRACKED != 0 {
        possible_root(h);
    }
}

#[cold]
#[inline(never)]
unsafe fn possible_root(h: NonNull<Header>) {
    let hd = h.as_ref();
    let f = hd.flags.get();
    if f & COLOR_MASK != PURPLE {
        let mut nf = (f & !COLOR_MASK) | PURPLE;
        if f & BUFFERED == 0 {
            nf |= BUFFERED;
            hd.heap.roots.borrow_mut().push(h);
        }
        hd.flags.set(nf);
    }
}

/// `h`'s payload is being released: empty its weak cell, if it has one,
/// so weak fields read null from now on (see "Weak fields").
///
/// # Safety
/// `h` must be a live allocation.
#[inline]
unsafe fn forget_weak_target(h: NonNull<Header>) {
    let hd = h.as_ref();
    if hd.flags.get() & WEAK_TARGET == 0 {
        return;
    }
    hd.flags.set(hd.flags.get() & !WEAK_TARGET);
    let cell = hd.heap.weak_cells.borrow_mut().remove(&h);
    if let Some(cell) = cell {
        cell.target.set(None);
    }
}

/// The count of `h` reached zero: release its payload (flatly, see the
/// module docs) and free it unless the roots buffer still points at it.
#[inline(never)]
unsafe fn release(h: NonNull<Header>) {
    // Keep the heap alive while the object (which owns an Rc to it) is
    // being freed.
    let heap = Rc::clone(&h.as_ref().heap);
    if heap.releasing.get() {
        heap.pending.borrow_mut().push(h);
        return;
    }
    heap.releasing.set(true);
    release_one(h);
    loop {
        let next = heap.pending.borrow_mut().pop();
        match next {
            Some(p) => release_one(p),
            None => break,
        }
    }
    heap.releasing.set(false);
}

unsafe fn release_one(h: NonNull<Header>) {
    let hd = h.as_ref();
    set_color(hd, BLACK);
    forget_weak_target(h);
    // Move the payload out and drop it whole (no copy into a fresh vector:
    // freeing a small array or struct is on the hot path of code that
    // builds many). Dropping the children may queue further releases
    // (never recursing, since `releasing` is set).
    match hd.kind {
        Kind::Struct => {
            let b = h.cast::<GcBox<StructObj>>();
            let fields = std::mem::take(&mut *b.as_ref().data.fields.get());
            hd.heap.recycle_fields(fields);
        }
        Kind::Arr => {
            let b = h.cast::<GcBox<ArrObj>>();
            drop(std::mem::take(&mut *b.as_ref().data.items.get()));
        }
        Kind::Map => {
            // Dropped whole too: collecting the values into a vector first
            // would allocate as much as the map holds, which fails when a
            // program that ran out of memory ends.
            let b = h.cast::<GcBox<MapObj>>();
            drop(std::mem::take(&mut *b.as_ref().data.data.get()));
        }
    }
    if hd.flags.get() & BUFFERED != 0 {
        // The roots buffer still points here: keep the (empty) box until
        // the next collection, but it is no longer a live object.
        hd.flags.set(hd.flags.get() | DEAD);
        hd.heap.live.set(hd.heap.live.get() - 1);
    } else {
        free_box(h);
    }
}

// ---------------------------------------------------------------------------
// Ref<T>

impl<T: HeapKind> Clone for Ref<T> {
    #[inline]
    fn clone(&self) -> Self {
        let hd = self.header();
        let n = hd.rc.get();
        if n == u32::MAX {
            // 4 billion references to one object cannot fit in memory as
            // 16-byte values; treat it as the impossible state it is.
            std::process::abort();
        }
        hd.rc.set(n + 1);
        Ref {
            ptr: self.ptr,
            _own: PhantomData,
        }
    }
}

impl<T: HeapKind> Drop for Ref<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: this Ref owns one count of a live object.
        unsafe { dec(self.ptr.cast()) }
    }
}

impl<T: HeapKind> Ref<T> {
    #[inline]
    fn header(&self) -> &Header {
        // SAFETY: a Ref keeps its object alive.
        unsafe { &self.ptr.as_ref().hdr }
    }

    #[inline]
    fn data(&self) -> &T {
        // SAFETY: a Ref keeps its object alive.
        unsafe { &self.ptr.as_ref().data }
    }

    /// The object's header as a raw pointer (identity, cycle walks).
    pub fn header_ptr(&self) -> NonNull<Header> {
        self.ptr.cast()
    }

    /// Current reference count.
    pub fn strong_count(&self) -> u32 {
        self.header().rc.get()
    }

    /// True if both refer to the same object (identity, §8.9.1).
    pub fn ptr_eq(&self, other: &Ref<T>) -> bool {
        self.ptr == other.ptr
    }

    /// Mark as a cycle candidate (a heap value was stored inside).
    #[inline]
    fn track_if(&self, v: &Value) {
        if v.is_heap() {
            let hd = self.header();
            hd.flags.set(hd.flags.get() | TRACKED);
        }
    }
}

impl Ref<StructObj> {
    /// Record id (struct or table index).
    #[inline]
    pub fn sid(&self) -> u32 {
        self.data().sid
    }

    /// True for a table row.
    pub fn is_row(&self) -> bool {
        self.data().is_row
    }

    /// Number of field slots.
    pub fn len(&self) -> usize {
        // SAFETY: shared read; no mutable borrow is live (module docs).
        unsafe { (&*self.data().fields.get()).len() }
    }

    /// True if the record has no fields.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Field `i` (a clone, i.e. a retained reference), or `None` if out of
    /// range.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Value> {
        // SAFETY: shared read; the clone only bumps a count.
        unsafe { (&*self.data().fields.get()).get(i).cloned() }
    }

    /// `f` applied to field `i` in place (no retain), or `None` if out of
    /// range. `f` gets a plain reference and cannot reach the record, so
    /// nothing mutates it meanwhile.
    #[inline]
    pub fn with<R>(&self, i: usize, f: impl FnOnce(&Value) -> R) -> Option<R> {
        // SAFETY: shared read; `f` cannot mutate the payload.
        unsafe { (&*self.data().fields.get()).get(i).map(f) }
    }

    /// `f` applied to all the fields in place (no retain). Like
    /// [`Ref::with`]: `f` gets plain references and cannot reach the
    /// record mutably, so nothing mutates it meanwhile.
    #[inline]
    pub fn with_fields<R>(&self, f: impl FnOnce(&[Value]) -> R) -> R {
        // SAFETY: shared read; `f` cannot mutate the payload.
        unsafe { f(&*self.data().fields.get()) }
    }

    /// Store `v` in field `i`, releasing the old value after the store
    /// (§9.11). Returns false if `i` is out of range.
    #[inline]
    pub fn set(&self, i: usize, v: Value) -> bool {
        // SAFETY: the mutable borrow ends before `old` is dropped, and
        // nothing else borrows the payload meanwhile.
        let old = unsafe {
            match (&mut *self.data().fields.get()).get_mut(i) {
                Some(slot) => std::mem::replace(slot, v),
                None => return false,
            }
        };
        drop(old);
        true
    }

    /// Clones of all field values.
    pub fn fields(&self) -> Vec<Value> {
        // SAFETY: shared read.
        unsafe { (&*self.data().fields.get()).to_vec() }
    }
}

impl Ref<ArrObj> {
    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        // SAFETY: shared read.
        unsafe { (&*self.data().items.get()).len() }
    }

    /// True if there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` (retained), or `None` out of range.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Value> {
        // SAFETY: shared read.
        unsafe { (&*self.data().items.get()).get(i).cloned() }
    }

    /// `f` applied to element `i` in place (no retain), or `None` out of
    /// range. `f` gets a plain reference and cannot reach the array, so
    /// nothing mutates it meanwhile.
    #[inline]
    pub fn with<R>(&self, i: usize, f: impl FnOnce(&Value) -> R) -> Option<R> {
        // SAFETY: shared read; `f` cannot mutate the payload.
        unsafe { (&*self.data().items.get()).get(i).map(f) }
    }

    /// Store `v` at `i`, releasing the old element; false if out of range.
    #[inline]
    pub fn set(&self, i: usize, v: Value) -> bool {
        self.track_if(&v);
        // SAFETY: the borrow ends before `old` is dropped.
        let old = unsafe {
            match (&mut *self.data().items.get()).get_mut(i) {
                Some(slot) => std::mem::replace(slot, v),
                None => return false,
            }
        };
        drop(old);
        true
    }

    /// Append `v`; returns the new length. Running out of memory ends
    /// the process ([`crate::oom`]); the interpreter uses
    /// [`Ref::try_push`].
    #[inline]
    pub fn push(&self, v: Value) -> usize {
        self.try_push(v)
            .unwrap_or_else(|_| crate::oom::exhausted(std::mem::size_of::<Value>()))
    }

    /// Append `v`; returns the new length. Errors: the allocator refused
    /// to grow the array (it is unchanged).
    #[inline]
    pub fn try_push(&self, v: Value) -> Result<usize, OutOfMemory> {
        // SAFETY: growth drops nothing; the borrow ends in this block.
        unsafe {
            let items = &mut *self.data().items.get();
            crate::oom::grow(items, 1)?;
            self.track_if(&v);
            items.push(v);
            Ok(items.len())
        }
    }

    /// Remove and return the last element.
    pub fn pop(&self) -> Option<Value> {
        // SAFETY: the value is moved out, dropped by the caller later.
        unsafe { (&mut *self.data().items.get()).pop() }
    }

    /// Insert at `i` (clamped to the length). Errors: the allocator
    /// refused to grow the array (it is unchanged).
    pub fn insert(&self, i: usize, v: Value) -> Result<(), OutOfMemory> {
        // SAFETY: growth drops nothing.
        unsafe {
            let items = &mut *self.data().items.get();
            crate::oom::grow(items, 1)?;
            self.track_if(&v);
            let i = i.min(items.len());
            items.insert(i, v);
        }
        Ok(())
    }

    /// Remove and return element `i`, if in range.
    pub fn remove(&self, i: usize) -> Option<Value> {
        // SAFETY: the value is moved out before anyone drops it.
        unsafe {
            let items = &mut *self.data().items.get();
            if i < items.len() {
                Some(items.remove(i))
            } else {
                None
            }
        }
    }

    /// Replace all elements, returning the old ones (dropped by the caller
    /// after the borrow ended).
    pub fn replace_all(&self, new: Vec<Value>) -> Vec<Value> {
        if new.iter().any(Value::is_heap) {
            let hd = self.header();
            hd.flags.set(hd.flags.get() | TRACKED);
        }
        // SAFETY: swap only; drops happen in the caller.
        unsafe { std::mem::replace(&mut *self.data().items.get(), new) }
    }

    /// Clones of all elements.
    pub fn to_vec(&self) -> Vec<Value> {
        // SAFETY: shared read.
        unsafe { (&*self.data().items.get()).to_vec() }
    }
}

impl Ref<MapObj> {
    /// The map's storage with its entries made (see [`MapData`],
    /// "Deferred entries"); the caller's borrow must end before any other
    /// use of the map.
    #[inline]
    fn map_data(&self) -> *mut MapData {
        let d = self.data().data.get();
        // SAFETY: no borrow of the storage is live between the methods of
        // this impl (each one's ends before it returns), and making the
        // entries touches only this map's storage.
        unsafe { (*d).materialize() };
        d
    }

    /// The source the map was made from ([`Heap::new_map_from`]), while
    /// its entries are still the source's: what the map holds, in the
    /// source's compact form, whether its entries were made or not.
    pub fn source(&self) -> Option<Rc<dyn MapSource>> {
        // SAFETY: shared read.
        unsafe { (&*self.data().data.get()).source().cloned() }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        // SAFETY: shared read.
        unsafe { (&*self.map_data()).entries.len() }
    }

    /// True if there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value under `key` (retained), or `None`.
    pub fn get(&self, key: &str) -> Option<Value> {
        // SAFETY: shared read.
        unsafe { (&*self.map_data()).get(key).cloned() }
    }

    /// Add or replace `key`; the old value is released after the store.
    /// Running out of memory ends the process ([`crate::oom`]); the
    /// interpreter uses [`Ref::try_set`].
    pub fn set(&self, key: &str, v: Value) {
        if self.try_set(key, v).is_err() {
            crate::oom::exhausted(key.len() + std::mem::size_of::<Value>());
        }
    }

    /// Add or replace `key`; the old value is released after the store.
    /// Errors: the allocator refused to grow the map for a new key (it is
    /// unchanged).
    pub fn try_set(&self, key: &str, v: Value) -> Result<(), OutOfMemory> {
        self.track_if(&v);
        // SAFETY: the borrow ends before `old` is dropped.
        let old = unsafe { (&mut *self.data().data.get()).insert(key, v)? };
        drop(old);
        Ok(())
    }

    /// Remove `key` (missing: no-op).
    pub fn delete(&self, key: &str) {
        // SAFETY: the borrow ends before the removed value is dropped.
        let old = unsafe { (&mut *self.data().data.get()).remove(key) };
        drop(old);
    }

    /// Entry `i` in iteration order (key, value), retained.
    pub fn entry(&self, i: usize) -> Option<(Rc<str>, Value)> {
        // SAFETY: shared read.
        unsafe {
            (&*self.map_data())
                .entries
                .get(i)
                .map(|(k, v)| (Rc::clone(k), v.clone()))
        }
    }

    /// All keys in iteration order.
    pub fn keys(&self) -> Vec<Rc<str>> {
        // SAFETY: shared read.
        unsafe {
            (&*self.map_data())
                .entries
                .iter()
                .map(|(k, _)| Rc::clone(k))
                .collect()
        }
    }
}

/// Overwrite a value's storage with zeros if this is the last reference,
/// following the release cascade (§10.11 `clear`), then drop it. Values
/// still referenced elsewhere are only released.
pub fn wipe(v: Value) {
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        match v {
            Value::Text(mut t) => {
                if let Some(t) = Rc::get_mut(&mut t) {
                    t.wipe();
                }
            }
            Value::Ascii(mut a) => {
                if let Some(a) = Rc::get_mut(&mut a) {
                    zero_bytes(a.as_mut_slice());
                }
            }
            Value::Handle(h) if Rc::strong_count(&h) == 1 => h.as_dyn().wipe(),
            Value::Enum(b) => {
                if let Ok(b) = Rc::try_unwrap(b) {
                    work.push(b.value);
                }
            }
            Value::Struct(s) if s.strong_count() == 1 => {
                // SAFETY: we hold the only reference; nothing else can
                // borrow the payload. Fields are moved out, then each slot
                // is overwritten with a volatile zero.
                unsafe {
                    let fields = &mut *s.data().fields.get();
                    for slot in fields.iter_mut() {
                        let old = std::mem::replace(slot, Value::Null);
                        work.push(old);
                        std::ptr::write_volatile(slot as *mut Value, Value::Int(0));
                    }
                }
            }
            Value::Arr(a) if a.strong_count() == 1 => {
                let old = a.replace_all(Vec::new());
                work.extend(old);
            }
            Value::Map(m) if m.strong_count() == 1 => {
                // SAFETY: only reference; keys are zeroed where unique.
                let data = unsafe { std::mem::take(&mut *m.data().data.get()) };
                for (mut k, v) in data.entries {
                    if let Some(k) = Rc::get_mut(&mut k) {
                        // SAFETY: zero bytes keep the str valid UTF-8.
                        unsafe { zero_bytes(k.as_bytes_mut()) };
                    }
                    work.push(v);
                }
            }
            other => drop(other),
        }
    }
}

/// Volatile zeroing that the optimizer may not remove (also for the
/// `Handle::wipe` hooks of the standard library's handle types).
pub fn zero_bytes(b: &mut [u8]) {
    for x in b.iter_mut() {
        // SAFETY: `x` is a valid, exclusive byte reference.
        unsafe { std::ptr::write_volatile(x, 0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map source of `(key, value)` pairs, counting its fills.
    struct Pairs {
        pairs: Vec<(&'static str, &'static str)>,
        fills: Cell<usize>,
    }

    impl MapSource for Pairs {
        fn fill(&self, map: &mut MapData) {
            self.fills.set(self.fills.get() + 1);
            for (k, v) in &self.pairs {
                map.insert(k, Value::text(*v)).unwrap();
            }
        }
        fn len_hint(&self) -> usize {
            self.pairs.len()
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    fn pairs() -> Rc<Pairs> {
        Rc::new(Pairs {
            pairs: vec![("a", "1"), ("b", "2"), ("a", "3")],
            fills: Cell::new(0),
        })
    }

    /// The entries of `m` (made if deferred).
    fn contents(m: &Ref<MapObj>) -> Vec<(String, String)> {
        (0..m.len())
            .filter_map(|i| m.entry(i))
            .map(|(k, v)| (k.to_string(), v.as_str().unwrap_or("").to_string()))
            .collect()
    }

    #[test]
    fn a_deferred_map_reads_like_one_filled_at_once() {
        let heap = Heap::new();
        let eager = heap.new_map();
        for (k, v) in &pairs().pairs {
            eager.set(k, Value::text(*v));
        }
        // Every kind of first use makes the same entries, once.
        type Use = fn(&Ref<MapObj>);
        let uses: [Use; 6] = [
            |m| assert_eq!(m.len(), 2),
            |m| {
                assert_eq!(
                    m.get("a")
                        .and_then(|v| v.as_str().map(String::from))
                        .as_deref(),
                    Some("3")
                )
            },
            |m| assert_eq!(m.entry(1).map(|(k, _)| k.to_string()).as_deref(), Some("b")),
            |m| assert_eq!(m.keys().len(), 2),
            |m| m.set("c", Value::Int(1)),
            |m| m.delete("zz"),
        ];
        for (n, first_use) in uses.iter().enumerate() {
            let src = pairs();
            let m = heap.new_map_from(Rc::clone(&src) as Rc<dyn MapSource>);
            assert_eq!(src.fills.get(), 0, "use {n}: nothing made before the use");
            assert!(m.source().is_some());
            first_use(&m);
            assert_eq!(src.fills.get(), 1, "use {n}");
            let mut want = contents(&eager);
            if n == 4 {
                want.push(("c".into(), String::new()));
            }
            assert_eq!(contents(&m), want, "use {n}");
            assert_eq!(src.fills.get(), 1, "use {n}: made once");
            // Reads keep the source attached; any change detaches it.
            assert_eq!(m.source().is_some(), n < 4, "use {n}");
        }
        // Dropped unused: never made; the collector sees no edges.
        let src = pairs();
        let m = heap.new_map_from(Rc::clone(&src) as Rc<dyn MapSource>);
        let v = Value::Map(m);
        heap.collect_cycles();
        drop(v);
        assert_eq!(src.fills.get(), 0);
        assert_eq!(Rc::strong_count(&src), 1, "the map released its source");
    }

    fn node(heap: &Rc<Heap>) -> Ref<StructObj> {
        heap.new_struct(0, false, vec![Value::Int(0), Value::Null].into(), true)
    }

    #[test]
    fn dead_structs_memory_is_reused_and_values_die_on_time() {
        let heap = Heap::new();
        let on = heap.recycler.borrow().on;
        let text = Value::text("kept");
        let template = [Value::Int(7), Value::Null, Value::Float(1.5)];
        let mut live = Vec::new();
        for _ in 0..RECYCLE_KEEP + 10 {
            let mut f = heap.fields_like(&template);
            f[1] = text.clone();
            live.push(heap.new_struct(3, false, f, false));
        }
        let Value::Text(t) = &text else { panic!() };
        assert_eq!(Rc::strong_count(t), RECYCLE_KEEP + 11);
        drop(live);
        // Every field was dropped at the release, as without recycling.
        assert_eq!(Rc::strong_count(t), 1);
        assert_eq!(heap.live(), 0);
        let expect = if on {
            (RECYCLE_KEEP, RECYCLE_KEEP)
        } else {
            (0, 0)
        };
        assert_eq!(heap.recycled(), expect);
        // New structs from recycled memory hold exactly the template.
        let a = heap.new_struct(3, false, heap.fields_like(&template), false);
        assert_eq!(a.get(0), Some(Value::Int(7)));
        assert_eq!(a.get(1), Some(Value::Null));
        assert_eq!(a.get(2), Some(Value::Float(1.5)));
        assert_eq!(a.len(), 3);
        if on {
            assert_eq!(heap.recycled(), (RECYCLE_KEEP - 1, RECYCLE_KEEP - 1));
        }
        // Sizes not recycled (empty, too many slots) still work.
        let big = vec![Value::Int(1); RECYCLE_MAX_FIELDS + 1];
        let b = heap.new_struct(4, false, heap.fields_like(&big), false);
        let e = heap.new_struct(5, false, heap.fields_like(&[]), false);
        assert_eq!(b.len(), RECYCLE_MAX_FIELDS + 1);
        assert_eq!(e.len(), 0);
        drop((a, b, e));
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn a_weak_cell_names_its_target_until_the_count_reaches_zero() {
        let heap = Heap::new();
        let target = node(&heap);
        let cell = heap.weak_cell(&target);
        // One cell per target, shared by every weak field naming it.
        assert!(Rc::ptr_eq(&cell, &heap.weak_cell(&target)));
        assert_eq!(heap.weak_targets(), 1);
        // Upgrading is an ordinary retain, and keeps the target alive.
        let up = cell.upgrade().expect("alive");
        assert_eq!(target.strong_count(), 2);
        drop(target);
        assert!(cell.is_alive());
        assert_eq!(heap.live(), 1);
        drop(up);
        assert_eq!(heap.live(), 0);
        assert!(!cell.is_alive());
        assert!(cell.upgrade().is_none());
        assert_eq!(heap.weak_targets(), 0);
        // Free the boxes the roots buffer still holds (each holds the
        // heap), as `Interpreter`'s teardown does; without it the heap
        // leaks (Miri's leak check, scripts/miri.sh).
        assert_eq!(heap.collect_cycles(), 0);
    }

    #[test]
    fn a_weak_field_does_not_keep_its_target_alive_nor_count_as_an_edge() {
        let heap = Heap::new();
        let holder = node(&heap);
        let child = node(&heap);
        // child.next = weak holder; holder.next = child: the only way back
        // is weak, so dropping the holder frees both without a collection.
        child.set(1, Value::Weak(heap.weak_cell(&holder)));
        holder.set(1, Value::Struct(child.clone()));
        let cell = heap.weak_cell(&holder);
        drop(child);
        drop(holder);
        assert_eq!(heap.live(), 0);
        assert!(!cell.is_alive());
        // Free the boxes the roots buffer still holds (each holds the
        // heap), as `Interpreter`'s teardown does; without it the heap
        // leaks (Miri's leak check, scripts/miri.sh).
        assert_eq!(heap.collect_cycles(), 0);
    }

    #[test]
    fn a_weak_target_freed_by_cycle_collection_reads_gone() {
        let heap = Heap::new();
        heap.set_threshold(1_000_000);
        let a = node(&heap);
        let b = node(&heap);
        a.set(1, Value::Struct(b.clone()));
        b.set(1, Value::Struct(a.clone()));
        let cell = heap.weak_cell(&a);
        drop(a);
        drop(b);
        // Garbage, but only a collection finds it.
        assert!(cell.is_alive());
        assert_eq!(heap.collect_cycles(), 2);
        assert!(!cell.is_alive());
        assert!(cell.upgrade().is_none());
        assert_eq!(heap.weak_targets(), 0);
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn simple_release_frees() {
        let heap = Heap::new();
        {
            let a = node(&heap);
            let b = node(&heap);
            a.set(1, Value::Struct(b.clone()));
            assert_eq!(heap.live(), 2);
        }
        assert_eq!(heap.live(), 0);
        // Free the boxes the roots buffer still holds (each holds the
        // heap), as `Interpreter`'s teardown does; without it the heap
        // leaks (Miri's leak check, scripts/miri.sh).
        assert_eq!(heap.collect_cycles(), 0);
    }

    #[test]
    fn a_long_live_list_is_not_traced_again_at_every_threshold() {
        // A list built by prepending, as `head = {'next': head}` does: each
        // move of the head releases the old one to a count of one and
        // buffers it as a possible root, from which trial deletion walks
        // the whole live list. With a fixed threshold that is the list's
        // length every DEFAULT_THRESHOLD nodes (n^2 / 20000 visits: 8.2
        // million for 400,000 nodes); the threshold grows with what a
        // collection traced in vain, so the visits stay a few per node.
        let heap = Heap::new();
        let n = 400_000;
        let mut head = node(&heap);
        for _ in 1..n {
            let next = node(&heap);
            next.set(1, Value::Struct(head.clone()));
            head = next;
            if heap.wants_collection() {
                assert_eq!(heap.collect_cycles(), 0, "nothing is garbage");
            }
        }
        assert_eq!(heap.live(), n);
        assert!(
            !gc_pacing_enabled() || heap.traced() < 8 * n as u64,
            "{} visits in {} collections for {n} nodes",
            heap.traced(),
            heap.collections()
        );
        // A cycle is still found: close the list into a ring and drop it.
        let mut last = head.clone();
        while let Some(Value::Struct(next)) = last.get(1) {
            last = next;
        }
        last.set(1, Value::Struct(head.clone()));
        drop(last);
        drop(head);
        heap.collect_cycles();
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn two_node_cycles_are_collected_and_memory_stays_flat() {
        let heap = Heap::new();
        heap.set_threshold(1000);
        let mut peak = 0;
        for _ in 0..1_000_000 {
            let a = node(&heap);
            let b = node(&heap);
            a.set(1, Value::Struct(b.clone()));
            b.set(1, Value::Struct(a.clone()));
            drop(a);
            drop(b);
            if heap.wants_collection() {
                heap.collect_cycles();
            }
            peak = peak.max(heap.live());
        }
        heap.collect_cycles();
        assert_eq!(heap.live(), 0);
        assert!(peak <= 2 * 2_000 + 4, "peak {peak}");
    }

    #[test]
    fn reachable_cycle_is_not_freed() {
        let heap = Heap::new();
        let a = node(&heap);
        {
            let b = node(&heap);
            a.set(1, Value::Struct(b.clone()));
            b.set(1, Value::Struct(a.clone()));
            b.set(0, Value::Int(42));
        }
        heap.collect_cycles();
        assert_eq!(heap.live(), 2);
        let b = a.get(1).unwrap();
        let Value::Struct(b) = b else { panic!() };
        assert_eq!(b.get(0), Some(Value::Int(42)));
        drop(b);
        drop(a);
        heap.collect_cycles();
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn cycle_through_array_is_collected() {
        let heap = Heap::new();
        {
            let a = node(&heap);
            let xs = heap.new_arr(Vec::new());
            xs.push(Value::Struct(a.clone()));
            a.set(1, Value::Arr(xs.clone()));
            // Drop the struct first, then the array last: the array must be
            // a candidate too.
            drop(a);
            heap.collect_cycles();
            assert_eq!(heap.live(), 2);
            drop(xs);
        }
        heap.collect_cycles();
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn long_list_drops_without_recursion() {
        let heap = Heap::new();
        let mut head = Value::Null;
        for _ in 0..1_000_000 {
            let n = heap.new_struct(0, false, vec![head].into(), false);
            head = Value::Struct(n);
        }
        assert_eq!(heap.live(), 1_000_000);
        drop(head);
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn long_cyclic_list_collects_without_recursion() {
        let heap = Heap::new();
        let first = node(&heap);
        let mut prev = first.clone();
        for _ in 0..200_000 {
            let n = node(&heap);
            prev.set(1, Value::Struct(n.clone()));
            prev = n;
        }
        prev.set(1, Value::Struct(first.clone()));
        drop(prev);
        drop(first);
        heap.collect_cycles();
        assert_eq!(heap.live(), 0);
    }

    #[test]
    fn wipe_zeroes_unique_text() {
        let heap = Heap::new();
        let s = node(&heap);
        s.set(1, Value::text("secret"));
        wipe(Value::Struct(s));
        assert_eq!(heap.live(), 0);
    }
}
