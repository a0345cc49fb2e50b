//! The `blob` value: the bytes of a file together with the path they came
//! from (§8.6, §16.3, §16.6), and its file I/O.
//!
//! A [`BlobObj`] is a handle (`festina_vm::value::Handle`): a
//! `Value::Handle` shared by reference counting (assignment aliases,
//! §13.2), so its bytes and path live behind `RefCell`s:
//! `write`, `append` and `save(path)` change the one value every alias
//! sees, and a background load (§12.5) fills the very value it handed out
//! earlier. Everything here runs on the thread that owns the value; a
//! background worker only ever reads a file into a plain `Vec<u8>`, which
//! the owning thread then installs with [`BlobObj::fill`].
//!
//! Nothing here fails the program except [`BlobObj::save`] without a path,
//! which §14.2 lists as a runtime failure, and running out of memory
//! while `write` or `append` grows the bytes ([`OutOfMemory`], turned into
//! `fail: out of memory ...` by the natives); every file-system problem is
//! a `false` (§2.3).
//!
//! Decisions where the specification is silent:
//! - `exists()` is a live check: the blob has a path and that path can be
//!   opened for reading as a regular file right now. So a blob declared
//!   from a missing file answers `true` once `write` has created it, and
//!   `false` after `delete`.
//! - `write`/`append` change the bytes only when the file write landed; a
//!   failed write leaves both bytes and file as they were.
//! - `blob b = ''` is a blob with no path (the empty path names no file),
//!   so its `save()` is the "no path" runtime failure.
//! - `text` never holds a NUL (string literals cannot contain one), so
//!   `toText()` (by §16.3) and `slice()` (for the same reason) stop at the
//!   first NUL byte; bytes that are not valid UTF-8 become U+FFFD.

use festina_vm::heap::zero_bytes;
use festina_vm::oom::OutOfMemory;
use festina_vm::value::{Handle, SentHandle, Value};
use std::cell::{Ref, RefCell};
use std::fs;
use std::io::Write;
use std::path::Path;

/// The shared state of one `blob` value.
#[derive(Debug, Default)]
pub struct BlobObj {
    bytes: RefCell<Vec<u8>>,
    path: RefCell<Option<String>>,
}

/// Why [`BlobObj::save`] could not even try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoPath;

impl BlobObj {
    /// A blob holding `bytes` with an optional own path.
    pub fn new(bytes: Vec<u8>, path: Option<String>) -> BlobObj {
        BlobObj {
            bytes: RefCell::new(bytes),
            path: RefCell::new(path),
        }
    }

    /// `blob b = path` (§8.6): the file's bytes, loaded synchronously, with
    /// `path` as the own path. An unreadable path (missing, a directory, no
    /// permission) gives an empty blob that still remembers the path. The
    /// empty path names no file: it gives an empty blob with no path.
    pub fn load(path: &str) -> BlobObj {
        BlobObj::new(read_file(path).unwrap_or_default(), own_path(path))
    }

    /// An empty blob with an own path (none for the empty path), for a
    /// background load (§12.5) whose bytes arrive later through
    /// [`BlobObj::fill`].
    pub fn pending(path: &str) -> BlobObj {
        BlobObj::new(Vec::new(), own_path(path))
    }

    /// Install bytes read elsewhere (a finished background load).
    pub fn fill(&self, bytes: Vec<u8>) {
        *self.bytes.borrow_mut() = bytes;
    }

    /// The bytes (borrowed; do not hold across a call that may write).
    pub fn bytes(&self) -> Ref<'_, Vec<u8>> {
        self.bytes.borrow()
    }

    /// Overwrite the bytes with zeros (`clear` of the last reference,
    /// §10.11); the file is not touched.
    pub fn wipe(&self) {
        zero_bytes(&mut self.bytes.borrow_mut());
    }

    /// The own path, if any.
    pub fn path(&self) -> Option<String> {
        self.path.borrow().clone()
    }

    /// `.length`: the exact byte count, O(1) (§16.3).
    pub fn len(&self) -> usize {
        self.bytes.borrow().len()
    }

    /// True when the blob holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.borrow().is_empty()
    }

    /// `.byteAt(i)`: the byte at `i` as 0–255, or `None` out of range.
    pub fn byte_at(&self, i: i64) -> Option<u8> {
        let i = usize::try_from(i).ok()?;
        self.bytes.borrow().get(i).copied()
    }

    /// `.slice(start, end)`: the bytes in `[start, end)`, both clamped to
    /// `[0, length]`, as text (up to the first NUL; invalid UTF-8 becomes
    /// U+FFFD). An empty or inverted range gives the empty text.
    pub fn slice(&self, start: i64, end: i64) -> String {
        let b = self.bytes.borrow();
        let clamp = |x: i64| x.clamp(0, b.len() as i64) as usize;
        let (s, e) = (clamp(start), clamp(end));
        if s >= e {
            return String::new();
        }
        bytes_to_text(&b[s..e])
    }

    /// `.toText()` and the top-level text form (§8.21): the bytes up to
    /// the first NUL, as text.
    pub fn to_text(&self) -> String {
        bytes_to_text(&self.bytes.borrow())
    }

    /// `.exists()`: the blob has a path naming a regular file that can be
    /// opened for reading now (`false` for a pathless blob).
    pub fn exists(&self) -> bool {
        match &*self.path.borrow() {
            Some(p) => fs::File::open(p)
                .and_then(|f| f.metadata())
                .is_ok_and(|m| m.is_file()),
            None => false,
        }
    }

    /// `.write(t)`: replace the file's content and the bytes with `t`.
    /// `false` without a path or when the write fails (nothing changes).
    /// Errors: no memory for the new bytes (nothing changes).
    pub fn write(&self, t: &str) -> Result<bool, OutOfMemory> {
        let Some(p) = self.path() else {
            return Ok(false);
        };
        let bytes = festina_vm::oom::concat_bytes(t.as_bytes(), &[])?;
        if fs::write(&p, t.as_bytes()).is_err() {
            return Ok(false);
        }
        *self.bytes.borrow_mut() = bytes;
        Ok(true)
    }

    /// `.append(t)`: append `t` to the file (creating it) and to the bytes.
    /// `false` without a path or when the write fails (nothing changes).
    /// Errors: no memory to grow the bytes (nothing changes).
    pub fn append(&self, t: &str) -> Result<bool, OutOfMemory> {
        let Some(p) = self.path() else {
            return Ok(false);
        };
        festina_vm::oom::grow(&mut self.bytes.borrow_mut(), t.len())?;
        let ok = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&p)
            .and_then(|mut f| f.write_all(t.as_bytes()))
            .is_ok();
        if ok {
            self.bytes.borrow_mut().extend_from_slice(t.as_bytes());
        }
        Ok(ok)
    }

    /// `.delete()`: remove the file; the bytes and the path stay. `false`
    /// without a path or when nothing was removed.
    pub fn delete(&self) -> bool {
        match self.path() {
            Some(p) => fs::remove_file(p).is_ok(),
            None => false,
        }
    }

    /// `.save()` (§16.6): write the bytes to the own path. Without a path
    /// this is the caller's runtime failure ([`NoPath`]).
    pub fn save(&self) -> Result<bool, NoPath> {
        let p = self.path().ok_or(NoPath)?;
        Ok(self.write_to(&p))
    }

    /// `.save(path)` (§16.6): write the bytes to `path` and, only if that
    /// landed, adopt `path` as the own path.
    pub fn save_as(&self, path: &str) -> bool {
        let ok = self.write_to(path);
        if ok {
            *self.path.borrow_mut() = Some(path.to_string());
        }
        ok
    }

    /// `.saveCopy(path)` (§16.6): write the bytes to `path`, keeping the
    /// own path.
    pub fn save_copy(&self, path: &str) -> bool {
        self.write_to(path)
    }

    /// Write the bytes to `path` ([`save_bytes`]).
    fn write_to(&self, path: &str) -> bool {
        save_bytes(path, &self.bytes.borrow())
    }
}

impl Handle for BlobObj {
    /// `blob`: a blob renders as `"<blob>"` inside JSON (§8.21).
    fn type_name(&self) -> &'static str {
        "blob"
    }

    /// The top-level text form (§8.21): the bytes up to the first NUL.
    fn render_text(&self, out: &mut String) {
        out.push_str(&self.to_text());
    }

    /// `clear` of the last reference (§10.11): zero the bytes; the file is
    /// not touched.
    fn wipe(&self) {
        BlobObj::wipe(self);
    }

    /// Its bytes, for a `BLOB` column or an HTTP body (§15.3, §19.2).
    fn encoded_bytes(&self) -> Option<Vec<u8>> {
        Some(self.bytes.borrow().clone())
    }

    /// A blob is sendable (§20.4): its bytes and path, copied.
    fn send_copy(&self) -> Option<Box<dyn SentHandle>> {
        Some(Box::new(SentBlob {
            bytes: self.bytes.borrow().clone(),
            path: self.path(),
        }))
    }
}

/// A blob's deep copy on its way to another thread (§20.4).
struct SentBlob {
    bytes: Vec<u8>,
    path: Option<String>,
}

impl SentHandle for SentBlob {
    fn into_value(self: Box<Self>) -> Value {
        Value::handle(BlobObj::new(self.bytes, self.path))
    }
}

/// The own path a load records: none for the empty path.
fn own_path(path: &str) -> Option<String> {
    (!path.is_empty()).then(|| path.to_string())
}

/// Write `bytes` to the file `path` for a `save()` or `saveCopy()` of a
/// `blob`, an `img` or an `aud` (§16.6): `false` for the empty path, a directory or
/// any I/O error.
pub fn save_bytes(path: &str, bytes: &[u8]) -> bool {
    if path.is_empty() || Path::new(path).is_dir() {
        return false;
    }
    fs::write(path, bytes).is_ok()
}

/// Read a whole regular file; `None` for anything unreadable (including a
/// directory). Used by synchronous loads and by background workers.
pub fn read_file(path: &str) -> Option<Vec<u8>> {
    if path.is_empty() {
        return None;
    }
    fs::read(path).ok()
}

/// Bytes up to the first NUL as text; invalid UTF-8 becomes U+FFFD.
pub fn bytes_to_text(b: &[u8]) -> String {
    let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
    // Valid UTF-8 (the usual case) is copied as it is; the lossy
    // conversion's chunked walk is only for the rest.
    match std::str::from_utf8(&b[..end]) {
        Ok(t) => t.to_owned(),
        Err(_) => String::from_utf8_lossy(&b[..end]).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("festina-blob-{}", std::process::id()));
        let _ = fs::create_dir_all(&dir);
        dir.join(name).to_string_lossy().into_owned()
    }

    #[test]
    fn missing_file_is_empty_and_absent() {
        let b = BlobObj::load(&tmp("missing.bin"));
        assert_eq!(b.len(), 0);
        assert!(!b.exists());
        assert!(b.path().is_some());
    }

    #[test]
    fn write_append_delete_round_trip() {
        let p = tmp("rw.txt");
        let b = BlobObj::load(&p);
        assert!(b.write("hello").unwrap());
        assert!(b.exists());
        assert!(b.append(" world").unwrap());
        assert_eq!(b.to_text(), "hello world");
        assert_eq!(fs::read(&p).unwrap(), b"hello world");
        assert!(b.delete());
        assert!(!b.exists());
        assert_eq!(b.len(), 11);
        assert!(!b.delete());
    }

    #[test]
    fn slices_clamp_and_stop_at_nul() {
        let b = BlobObj::new(b"ab\0cd".to_vec(), None);
        assert_eq!(b.slice(-5, 2), "ab");
        assert_eq!(b.slice(3, 99), "cd");
        assert_eq!(b.slice(1, 4), "b");
        assert_eq!(b.slice(4, 1), "");
        assert_eq!(b.to_text(), "ab");
        assert_eq!(b.byte_at(2), Some(0));
        assert_eq!(b.byte_at(5), None);
        assert_eq!(b.byte_at(-1), None);
    }

    #[test]
    fn a_blob_is_a_handle() {
        let v = Value::handle(BlobObj::new(b"hi\0there".to_vec(), Some("p".into())));
        let Value::Handle(h) = &v else { panic!() };
        assert_eq!(h.type_name(), "blob");
        let mut text = String::new();
        h.as_dyn().render_text(&mut text);
        assert_eq!(text, "hi");
        let copy = h
            .as_dyn()
            .send_copy()
            .expect("a blob is sendable")
            .into_value();
        assert_ne!(copy, v, "the copy is a new value");
        let c = copy.as_handle::<BlobObj>().unwrap();
        assert_eq!((c.len(), c.path()), (8, Some("p".to_string())));
        h.as_dyn().wipe();
        assert_eq!(*v.as_handle::<BlobObj>().unwrap().bytes(), vec![0u8; 8]);
        assert_eq!(
            c.byte_at(0),
            Some(b'h'),
            "wiping the original leaves the copy"
        );
    }

    #[test]
    fn save_rules() {
        let b = BlobObj::new(b"xyz".to_vec(), None);
        assert_eq!(b.save(), Err(NoPath));
        assert!(!b.write("q").unwrap());
        let dir = std::env::temp_dir();
        assert!(!b.save_as(&dir.to_string_lossy()));
        assert_eq!(b.path(), None);
        let p = tmp("saved.bin");
        assert!(b.save_copy(&p));
        assert_eq!(b.path(), None);
        assert!(b.save_as(&p));
        assert_eq!(b.path(), Some(p.clone()));
        assert_eq!(b.save(), Ok(true));
        let _ = fs::remove_file(p);
    }
}
