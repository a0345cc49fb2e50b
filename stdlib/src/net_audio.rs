//! The natives that join `http` bodies with `aud` clips (§19.2), in the
//! audio facility (`festina_signatures::tables::http::AUDIO`): a program
//! that uses them needs a runtime with audio; one that does not never
//! links it through them.
//!
//! | native | Festina form | result |
//! |---|---|---|
//! | `http_to_aud` | `req.toAud()` | the body decoded as a clip (WAV or MP3, sniffed), `null` when it does not decode (an empty body included) |
//! | `http_body_aud` | an `aud` `body` in an `http` literal (emitted by the checker) | a blob of the clip's encoded bytes, the bytes it was decoded from; `null` for a null clip |
//!
//! Without the `net` facility compiled in there is no `http` value to
//! call them on, and `http_to_aud` answers `null`.

use crate::blob::BlobObj;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;

/// The natives of this module, for the audio facility's registry.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "http_to_aud",
            func: to_aud,
        },
        NativeEntry {
            name: "http_body_aud",
            func: body_aud,
        },
    ]
}

/// `req.toAud()`.
#[cfg(feature = "net")]
fn to_aud(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(req) = args
        .first()
        .and_then(Value::as_handle::<crate::net::value::HttpObj>)
    else {
        return Ok(Value::Null);
    };
    Ok(req.with_body(crate::audio::value_from_bytes))
}

/// `req.toAud()` in a build without HTTP: no receiver can exist.
#[cfg(not(feature = "net"))]
fn to_aud(_it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Null)
}

/// An `aud` body: its encoded bytes as a blob.
fn body_aud(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(match args.first().and_then(crate::audio::encoded_bytes) {
        Some(bytes) => Value::handle(BlobObj::new(bytes.to_vec(), None)),
        None => Value::Null,
    })
}
