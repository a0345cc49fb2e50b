//! `blob` natives: loading and every method (§8.6, §12.5, §16.3, §16.6).
//!
//! | native            | Festina form                    | result |
//! |-------------------|---------------------------------|--------|
//! | `blob_load`       | `blob b = path` (text → blob, §8.20 rule 5), `arr[blob]` literal elements | blob (empty, `exists()` false, when unreadable) |
//! | `blob_load_async` | `path.callback(fn)` with `fn: func[blob]:void` (§12.5) | the blob, empty until `fn` runs |
//! | `blob_length`     | `b.length`                      | int (bytes) |
//! | `blob_byte_at`    | `b.byteAt(i)`                   | int 0–255 or null |
//! | `blob_slice`      | `b.slice(start, end)`           | text |
//! | `blob_exists`     | `b.exists()`                    | bool |
//! | `blob_write`      | `b.write(t)`                    | bool |
//! | `blob_append`     | `b.append(t)`                   | bool |
//! | `blob_delete`     | `b.delete()`                    | bool |
//! | `blob_save`       | `b.save()`                      | bool; no path is a runtime failure |
//! | `blob_save_as`    | `b.save(path)`                  | bool |
//! | `blob_save_copy`  | `b.saveCopy(path)`              | bool |
//!
//! `b.toText()` and every other text rendering of a blob (its bytes up to
//! the first NUL, §8.21) go through the VM's `ToText`, which asks the
//! handle ([`BlobObj`]'s `Handle::render_text`), not a native. The value
//! itself and its file I/O are in the module `file`.
//!
//! The receiver is always the first argument. A null receiver (a `blob`
//! binding holding `null`) reads like an empty blob with no path: length
//! 0, `byteAt` null, `slice` the empty text, `exists`/`write`/
//! `append`/`delete` false; `save()` on it is the "no path" runtime
//! failure. A null path argument makes a save `false`; loading a null path
//! gives an empty blob with no path.

pub mod file;

use festina_vm::event_loop::JobResult;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::{HandleObj, Value};
pub use file::BlobObj;
use std::rc::Rc;

/// The natives of this module, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    macro_rules! entries {
        ($($name:literal => $f:ident),* $(,)?) => {
            vec![$(NativeEntry { name: $name, func: $f }),*]
        };
    }
    entries![
        "blob_load" => load,
        "blob_load_async" => load_async,
        "blob_length" => length,
        "blob_byte_at" => byte_at,
        "blob_slice" => slice,
        "blob_exists" => exists,
        "blob_write" => write,
        "blob_append" => append,
        "blob_delete" => delete,
        "blob_save" => save,
        "blob_save_as" => save_as,
        "blob_save_copy" => save_copy,
    ]
}

/// The blob receiver (argument 0), if not null.
fn recv(args: &[Value]) -> Option<&BlobObj> {
    args.first().and_then(Value::as_handle::<BlobObj>)
}

/// The text argument `i`, if not null.
fn text(args: &[Value], i: usize) -> Option<&str> {
    args.get(i).and_then(Value::as_str)
}

fn int(args: &[Value], i: usize) -> i64 {
    args.get(i).map_or(0, Value::as_int)
}

/// `blob b = path`: load synchronously (§8.6).
fn load(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let b = match text(args, 0) {
        Some(p) => BlobObj::load(p),
        None => BlobObj::default(),
    };
    Ok(Value::handle(b))
}

/// `path.callback(fn)` (§12.5): an empty blob now; the file is read on a
/// worker thread, then the same blob is filled on the main thread and
/// `fn(blob)` runs from the event loop. A failed load leaves the blob
/// empty and still calls `fn`.
fn load_async(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let callback = args.get(1).cloned().unwrap_or_default();
    let Some(path) = text(args, 0).map(str::to_string) else {
        // A null path loads nothing but still reports back.
        let value = Value::handle(BlobObj::default());
        let arg = value.clone();
        it.event_loop()?.spawn_job(
            Box::new(|| Box::new(None::<Vec<u8>>) as JobResult),
            Box::new(move |it, _| it.call_function(&callback, &[arg]).map(|_| ())),
        );
        return Ok(value);
    };
    let target = Rc::new(HandleObj::new(BlobObj::pending(&path)));
    let value = Value::Handle(Rc::clone(&target));
    it.event_loop()?.spawn_job(
        Box::new(move || Box::new(file::read_file(&path)) as JobResult),
        Box::new(move |it, result| {
            if let (Ok(bytes), Some(blob)) = (
                result.downcast::<Option<Vec<u8>>>(),
                target.downcast_ref::<BlobObj>(),
            ) {
                if let Some(bytes) = *bytes {
                    blob.fill(bytes);
                }
            }
            it.call_function(&callback, &[Value::Handle(target)])
                .map(|_| ())
        }),
    );
    Ok(value)
}

/// `b.length`.
fn length(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Int(recv(args).map_or(0, |b| b.len() as i64)))
}

/// `b.byteAt(i)`.
fn byte_at(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args)
        .and_then(|b| b.byte_at(int(args, 1)))
        .map_or(Value::Null, |x| Value::Int(x as i64)))
}

/// `b.slice(start, end)`.
fn slice(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let s = recv(args).map_or(String::new(), |b| b.slice(int(args, 1), int(args, 2)));
    Ok(Value::text(s))
}

/// `b.exists()`.
fn exists(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(recv(args).is_some_and(|b| b.exists())))
}

/// `b.write(t)`.
fn write(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let t = text(args, 1).unwrap_or("");
    let Some(b) = recv(args) else {
        return Ok(Value::Bool(false));
    };
    let ok = b
        .write(t)
        .map_err(|_| it.out_of_memory(format_args!("growing a blob to {} bytes", t.len())))?;
    Ok(Value::Bool(ok))
}

/// `b.append(t)`.
fn append(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let t = text(args, 1).unwrap_or("");
    let Some(b) = recv(args) else {
        return Ok(Value::Bool(false));
    };
    let ok = b.append(t).map_err(|_| {
        it.out_of_memory(format_args!(
            "growing a blob to {} bytes",
            b.len() + t.len()
        ))
    })?;
    Ok(Value::Bool(ok))
}

/// `b.delete()`.
fn delete(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(recv(args).is_some_and(|b| b.delete())))
}

/// `b.save()`: a blob with no path is a runtime failure (§14.2, §16.6).
fn save(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    match recv(args).map(|b| b.save()) {
        Some(Ok(ok)) => Ok(Value::Bool(ok)),
        // The reference's wording (after edition 0.44), with our location.
        _ => Err(Trap::Fail(format!(
            "this blob has no path to save() to: it did not come from a file, so pass one: save('path/to/file') at {}",
            it.location()
        ))),
    }
}

/// `b.save(path)`.
fn save_as(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let ok = match (recv(args), text(args, 1)) {
        (Some(b), Some(p)) => b.save_as(p),
        _ => false,
    };
    Ok(Value::Bool(ok))
}

/// `b.saveCopy(path)`.
fn save_copy(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let ok = match (recv(args), text(args, 1)) {
        (Some(b), Some(p)) => b.save_copy(p),
        _ => false,
    };
    Ok(Value::Bool(ok))
}
