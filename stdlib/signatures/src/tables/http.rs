//! HTTP/1.1 servers, the `http` value, `url` values and TLS (§19):
//! facility `net`, natives in `festina-stdlib`'s `net` module.
//!
//! Outcomes the natives guarantee (each has a test):
//! - `openPort(port)` / `openSecurePort(port, key)`: listen on `port`
//!   (IPv6 and IPv4, all interfaces unless `FESTINA_HTTP_HOST` names
//!   one); a port out of range, in use or already open is a silent no-op
//!   (§19.1, §2.3). `openSecurePort` with a PEM blob that does not hold a
//!   certificate chain and its matching unencrypted private key is a
//!   runtime failure (§19.8, §14.2).
//! - `closePort(port)`: stop accepting on `port`; open connections stay;
//!   an unknown port is a silent no-op.
//! - `req.ok()` (200, empty), `req.redirect(url)` (302, `Location`),
//!   `req.send(res)` (`res.code`, default 200, its headers and body),
//!   `req.upgrade()` (101 and WebSocket, §19.4): the first answer wins,
//!   later ones are silent no-ops (§19.3), as are all four on a value
//!   that is not a live inbound request.
//! - `req.url` is absolute: `http://` (or `https://`) + the `Host`
//!   header (or `127.0.0.1:PORT` without one) + the request target;
//!   `req.method` as sent; `req.code` `null` until a response exists;
//!   `req.headers` with lowercased names, a repeated header's last value
//!   winning; `req.callback` `null` unless the literal gave one.
//! - `req.toText()` is the body as text (invalid UTF-8 becomes U+FFFD),
//!   `req.toBlob()` its bytes; no body reads as empty.
//! - `req.send()` (native `http_send`, §19.5): sends `req` to `req.url`
//!   (`http://`, `https://`); without a callback it waits for the whole
//!   response, overwrites `code`, `headers` and the body, and throws a
//!   text on a network or protocol failure; with one it returns at once
//!   and `callback(req)` runs later on the event loop with the response,
//!   or with a `null` code and the failure's message as the body.
//!   Redirects are not followed. `http_send_value` (emitted by the checker
//!   for `http x = {...}.send()`) does the same and returns `req`.
//! - `parseURL(t)` (native `url_parse`): the fields of §19.6; throws on a
//!   text without `://` or with a port that is not a number in 0..65535.
//!
//! The native the checker emits by itself: `http_new`, the `http`
//! literal (§9.1.4), with its arguments in the order `url, method, code,
//! headers, body, body kind, callback` (absent keys are `null`; the body
//! kind says what the body was before rendering, see
//! `festina-stdlib`'s `net::value::BodyKind`).
//!
//! [`AUDIO`] holds the two natives that join an `http` body with `aud`
//! values: they belong to the audio facility, so that a program using
//! them gets a runtime with audio, and a program that does not never
//! links it. [`CANVAS`] does the same for `img` bodies and the canvas
//! facility (cairo).

use crate::{builtin, method, property, Facility, Impl::Native, Recv, Shape as S, Table};

/// The table.
pub const TABLE: Table = Table {
    builtins: &[
        builtin("openPort", &[S::Int], S::Void, "http_open_port"),
        builtin("closePort", &[S::Int], S::Void, "http_close_port"),
        builtin(
            "openSecurePort",
            &[S::Int, S::Blob],
            S::Void,
            "http_open_secure_port",
        ),
        builtin("parseURL", &[S::Text], S::Url, "url_parse"),
    ],
    methods: &[
        method(Recv::Http, "ok", &[], S::Void, Native("http_ok")),
        method(
            Recv::Http,
            "redirect",
            &[S::Text],
            S::Void,
            Native("http_redirect"),
        ),
        method(
            Recv::Http,
            "send",
            &[S::Http],
            S::Void,
            Native("http_respond"),
        ),
        method(Recv::Http, "send", &[], S::Void, Native("http_send")),
        method(Recv::Http, "upgrade", &[], S::Void, Native("http_upgrade")),
        method(Recv::Http, "toText", &[], S::Text, Native("http_to_text")),
        method(Recv::Http, "toBlob", &[], S::Blob, Native("http_to_blob")),
    ],
    properties: &[
        property(Recv::Http, "url", S::Text, Native("http_url")),
        property(Recv::Http, "method", S::Text, Native("http_method")),
        property(Recv::Http, "code", S::Int, Native("http_code")),
        property(Recv::Http, "headers", S::MapText, Native("http_headers")),
        property(
            Recv::Http,
            "callback",
            S::HttpCallback,
            Native("http_callback"),
        ),
        property(Recv::Url, "protocol", S::Text, Native("url_protocol")),
        property(Recv::Url, "username", S::Text, Native("url_username")),
        property(Recv::Url, "password", S::Text, Native("url_password")),
        property(Recv::Url, "hostname", S::Text, Native("url_hostname")),
        property(Recv::Url, "port", S::Int, Native("url_port")),
        property(Recv::Url, "pathname", S::Text, Native("url_pathname")),
        property(
            Recv::Url,
            "searchParams",
            S::MapText,
            Native("url_search_params"),
        ),
        property(Recv::Url, "hash", S::Text, Native("url_hash")),
    ],
    // `http_send_value`: the send shorthands; `http_give_request`:
    // `NAME.giveRequest(req)` and `on request use NAME` (§20.9), emitted
    // by the checker's threads part.
    natives: &["http_new", "http_send_value", "http_give_request"],
    reserved: &["parseURL", "openPort", "closePort", "openSecurePort"],
    ..Table::empty("http", Facility::Net)
};

/// `http` bodies as `aud` clips (§19.2): `req.toAud()` (the body decoded,
/// `null` when it does not decode) and `http_body_aud`, which the checker
/// emits for an `aud` `body` in an `http` literal (the clip's encoded
/// bytes as a `blob`). Facility audio.
pub const AUDIO: Table = Table {
    methods: &[method(
        Recv::Http,
        "toAud",
        &[],
        S::Aud,
        Native("http_to_aud"),
    )],
    natives: &["http_body_aud"],
    ..Table::empty("http-audio", Facility::Audio)
};

/// `http` bodies as `img` values (§19.2): `req.toImg()` (the body
/// decoded as a PNG or JPEG, `null` when it does not decode) and
/// `http_body_img`, which the checker emits for an `img` `body` in an
/// `http` literal (the image's encoded bytes as a `blob`: its own file,
/// or a PNG of its pixels). Facility canvas.
pub const CANVAS: Table = Table {
    methods: &[method(
        Recv::Http,
        "toImg",
        &[],
        S::Img,
        Native("http_to_img"),
    )],
    natives: &["http_body_img"],
    ..Table::empty("http-canvas", Facility::Canvas)
};

/// What the `body` of an `http` literal was before the checker turned it
/// into the `text` or `blob` that `http_new` receives (§19.2): it decides
/// the `content-type` a response gets when its headers name none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// No body (the key absent, or `null`).
    None = 0,
    /// A `text`, `ascii`, number or `bool`, rendered as text.
    Text = 1,
    /// A struct, row, array, map or enum, rendered as JSON (§8.21).
    Json = 2,
    /// A `blob`: raw bytes.
    Blob = 3,
    /// An `img`, as its encoded bytes.
    Img = 4,
    /// An `aud`, as its encoded bytes.
    Aud = 5,
}

impl BodyKind {
    /// The kind passed as the integer `k` (unknown values: [`BodyKind::Blob`]).
    pub fn from_int(k: i64) -> BodyKind {
        match k {
            0 => BodyKind::None,
            1 => BodyKind::Text,
            2 => BodyKind::Json,
            4 => BodyKind::Img,
            5 => BodyKind::Aud,
            _ => BodyKind::Blob,
        }
    }
}
