//! Decoders of the media types for the database (§15.3): how an `img`
//! (and, with audio, an `aud`) column's bytes become a value.
//!
//! The database natives (`db`, facility `database`) must not link the
//! image code (facility `canvas`): a runtime with the database and no
//! canvas stays without cairo. So the decoder is a function pointer the
//! canvas facility installs in the interpreter ([`Interpreter::set_ext`])
//! when the program starts: the checker makes the entry function of a
//! program with `img` columns call the canvas native `img_columns` first,
//! and the query native reads the pointer from here. Encoding needs no
//! such hook: a value's bytes come from its handle
//! (`festina_vm::value::Handle::encoded_bytes`).
//!
//! [`Interpreter::set_ext`]: festina_vm::interp::Interpreter::set_ext

use festina_vm::value::Value;

/// The decoders installed in one interpreter; `None` for a type whose
/// facility has not installed one (the column then reads `null`).
#[derive(Clone, Copy, Debug, Default)]
pub struct MediaDecoders {
    /// An `img` column's bytes (PNG or JPEG) to an `img`, or `null` when
    /// they do not decode.
    pub img: Option<fn(&[u8]) -> Value>,
}
