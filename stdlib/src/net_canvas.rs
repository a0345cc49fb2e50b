//! The natives that join `http` bodies with `img` images (§19.2), in the
//! canvas facility (`festina_signatures::tables::http::CANVAS`): a program
//! that uses them needs a runtime with cairo; one that does not never
//! links it through them.
//!
//! | native | Festina form | result |
//! |---|---|---|
//! | `http_to_img` | `req.toImg()` | the body decoded as an image (PNG or JPEG, sniffed from the bytes), `null` when it does not decode (an empty body included) |
//! | `http_body_img` | an `img` `body` in an `http` literal (emitted by the checker) | a blob of the image's encoded bytes (§19.2): the file it was decoded from (PNG or JPEG) while its pixels still match it, otherwise a PNG of its pixels (a drawn, built or changed image); `null` for a null image |
//!
//! A response with such a body gets `content-type: image/png` (or
//! `image/jpeg` for an unchanged JPEG) unless its headers name one: the
//! type is sniffed from the bytes (`net::value::content_type`).
//! Without the `net` facility compiled in there is no `http` value to call
//! `toImg` on, and `http_to_img` answers `null`.

use crate::blob::BlobObj;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;

/// The natives of this module, for the canvas facility's registry.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "http_to_img",
            func: to_img,
        },
        NativeEntry {
            name: "http_body_img",
            func: body_img,
        },
    ]
}

/// `req.toImg()`.
#[cfg(feature = "net")]
fn to_img(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(req) = args
        .first()
        .and_then(Value::as_handle::<crate::net::value::HttpObj>)
    else {
        return Ok(Value::Null);
    };
    Ok(req.with_body(crate::canvas::img_from_bytes))
}

/// `req.toImg()` in a build without HTTP: no receiver can exist.
#[cfg(not(feature = "net"))]
fn to_img(_it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Null)
}

/// An `img` body: its encoded bytes as a blob.
fn body_img(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(match args.first().and_then(crate::canvas::img_bytes) {
        Some(bytes) => Value::handle(BlobObj::new(bytes, None)),
        None => Value::Null,
    })
}
