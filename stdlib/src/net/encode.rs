//! Encoding responses into a connection's output buffer, with no I/O and
//! no allocation beyond the buffer's own growth (§19.2, §19.3).
//!
//! A response is written in three steps, all appending to one `Vec<u8>`
//! so that the status line, the headers and the body leave in one write:
//! [`status`], then any number of [`user_header`]s (the program's own
//! headers, each checked), then [`finish`] with the headers the runtime
//! always computes itself (`Content-Length`, `Connection`, `Date`, and a
//! default `Content-Type`), and the body.
//!
//! The runtime's headers are never taken from the program (§19.2):
//! [`user_header`] skips `Host`, `Content-Length`, `Connection`,
//! `Transfer-Encoding` and `Date` (the server's clock dates every answer,
//! so headers copied from an upstream never send two), and any header whose name is not an HTTP token or
//! whose value holds a control character (CR, LF, NUL: what would let a
//! value inject a header or a second response).

use std::time::{SystemTime, UNIX_EPOCH};

/// The reason phrase of `code` (empty for codes without a standard one,
/// which RFC 9112 allows).
pub fn reason(code: u16) -> &'static str {
    match code {
        100 => "Continue",
        101 => "Switching Protocols",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        417 => "Expectation Failed",
        418 => "I'm a teapot",
        422 => "Unprocessable Content",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// The status a program's `code` is sent as: `null` is 200; a code a
/// final response cannot have (below 200, above 999) is 500.
pub fn final_status(code: Option<i64>) -> u16 {
    match code {
        None => 200,
        Some(c) if (200..=999).contains(&c) => c as u16,
        Some(_) => 500,
    }
}

/// Whether a response with `code` carries no body and no
/// `Content-Length` (RFC 9110 §6.4.1, §15.4.5: 1xx, 204 and 304).
pub fn bodiless(code: u16) -> bool {
    code < 200 || code == 204 || code == 304
}

/// Append the status line of `code` (`HTTP/1.1 200 OK\r\n`).
pub fn status(out: &mut Vec<u8>, code: u16) {
    out.extend_from_slice(b"HTTP/1.1 ");
    let digits = [
        b'0' + (code / 100 % 10) as u8,
        b'0' + (code / 10 % 10) as u8,
        b'0' + (code % 10) as u8,
    ];
    out.extend_from_slice(&digits);
    out.push(b' ');
    out.extend_from_slice(reason(code).as_bytes());
    out.extend_from_slice(b"\r\n");
}

/// Whether `name` is one of the headers the runtime computes itself
/// (§19.2).
pub fn is_computed(name: &str) -> bool {
    // By length first: most names are none of them.
    let c = match name.len() {
        4 => "host",
        10 => "connection",
        14 => "content-length",
        17 => "transfer-encoding",
        _ => return false,
    };
    is_named(name, c)
}

/// Whether the header name `name` is `lower` in any case, for a `lower`
/// of lowercase letters and `-` only: each byte with bit 5 set is
/// compared, which also takes a CR for a `-`. Only for names that are
/// checked to be tokens too (a CR is not), before or after.
pub fn is_named(name: &str, lower: &str) -> bool {
    name.len() == lower.len() && name.bytes().zip(lower.bytes()).all(|(a, b)| a | 0x20 == b)
}

/// The bytes of an HTTP token (RFC 9110 §5.6.2): letters, digits and
/// ``!#$%&'*+-.^_`|~``.
const TOKEN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        b += 1;
    }
    t
};

/// Whether `name` is an HTTP token (RFC 9110 §5.6.2), so a valid header
/// name.
pub fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| TOKEN[usize::from(b)])
}

/// Whether `value` may be sent as a header value: no control character
/// but tab (so no CR, LF or NUL).
pub fn is_value(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b == b'\t' || (b >= 0x20 && b != 0x7f))
}

/// Whether `name` is `Date` (any case).
fn is_date(name: &str) -> bool {
    is_named(name, "date")
}

/// Append one of the program's headers, unless it is computed by the
/// runtime or not sendable (see the module documentation); returns
/// whether it was written.
pub fn user_header(out: &mut Vec<u8>, name: &str, value: &str) -> bool {
    if is_computed(name) || is_date(name) || !is_token(name) || !is_value(value) {
        return false;
    }
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(value.trim_matches([' ', '\t']).as_bytes());
    out.extend_from_slice(b"\r\n");
    true
}

/// How [`finish`] ends a response.
#[derive(Clone, Copy, Debug)]
pub struct Finish<'a> {
    /// The `Content-Type` to send when the program gave none.
    pub content_type: Option<&'a str>,
    /// The body's length, sent as `Content-Length` (`None`: none, for a
    /// bodiless status).
    pub length: Option<usize>,
    /// Whether the connection closes after this response
    /// (`Connection: close`).
    pub close: bool,
    /// The `Date` value ([`DateCache::get`]).
    pub date: &'a [u8],
}

/// Append the runtime's headers and the blank line ending the head.
pub fn finish(out: &mut Vec<u8>, f: Finish) {
    if let Some(ct) = f.content_type {
        out.extend_from_slice(b"Content-Type: ");
        out.extend_from_slice(ct.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if let Some(len) = f.length {
        out.extend_from_slice(b"Content-Length: ");
        push_decimal(out, len);
        out.extend_from_slice(b"\r\n");
    }
    if f.close {
        out.extend_from_slice(b"Connection: close\r\n");
    }
    out.extend_from_slice(b"Date: ");
    out.extend_from_slice(f.date);
    out.extend_from_slice(b"\r\n\r\n");
}

/// A whole response with an empty body: `code`, a `Location` when
/// `location` names one (a redirect), the runtime's headers
/// (`Content-Length: 0`, `Connection: close` when `close`, `Date`).
pub fn empty(out: &mut Vec<u8>, code: u16, location: Option<&str>, close: bool, date: &[u8]) {
    status(out, code);
    if let Some(l) = location {
        out.extend_from_slice(b"Location: ");
        out.extend_from_slice(l.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    finish(
        out,
        Finish {
            content_type: None,
            length: Some(0),
            close,
            date,
        },
    );
}

/// A whole response the server sends by itself: `code` with its reason
/// phrase as a plain-text body (a refusal, a timeout, a failed handler),
/// closing the connection when `close`.
pub fn plain(out: &mut Vec<u8>, code: u16, close: bool, date: &[u8]) {
    status(out, code);
    let body = reason(code).as_bytes();
    finish(
        out,
        Finish {
            content_type: Some("text/plain; charset=utf-8"),
            length: Some(body.len()),
            close,
            date,
        },
    );
    out.extend_from_slice(body);
}

fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// The `Date` header's value (RFC 9110 §5.6.7, `Sun, 06 Nov 1994
/// 08:49:37 GMT`), formatted once per second.
#[derive(Debug, Default)]
pub struct DateCache {
    second: u64,
    text: [u8; 29],
}

impl DateCache {
    /// The value last made by [`DateCache::get`].
    pub fn current(&self) -> &[u8] {
        &self.text
    }

    /// The value for now.
    pub fn get(&mut self) -> &[u8] {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        if now != self.second || self.text[0] == 0 {
            self.second = now;
            self.text = http_date(now);
        }
        &self.text
    }
}

/// `secs` since the Unix epoch as an HTTP date.
pub fn http_date(secs: u64) -> [u8; 29] {
    const DAYS: [&[u8; 3]; 7] = [b"Thu", b"Fri", b"Sat", b"Sun", b"Mon", b"Tue", b"Wed"];
    const MONTHS: [&[u8; 3]; 12] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
        b"Dec",
    ];
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (h, m, s) = (rem / 3600, rem / 60 % 60, rem % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let mut t = [0u8; 29];
    t[..3].copy_from_slice(DAYS[(days % 7) as usize]);
    t[3] = b',';
    t[4] = b' ';
    let two = |v: u64| [b'0' + (v / 10 % 10) as u8, b'0' + (v % 10) as u8];
    t[5..7].copy_from_slice(&two(day as u64));
    t[7] = b' ';
    t[8..11].copy_from_slice(MONTHS[(month - 1) as usize]);
    t[11] = b' ';
    let y = year.clamp(0, 9999) as u64;
    t[12..14].copy_from_slice(&two(y / 100));
    t[14..16].copy_from_slice(&two(y % 100));
    t[16] = b' ';
    t[17..19].copy_from_slice(&two(h));
    t[19] = b':';
    t[20..22].copy_from_slice(&two(m));
    t[22] = b':';
    t[23..25].copy_from_slice(&two(s));
    t[25..].copy_from_slice(b" GMT");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_computed_names() {
        let specials = "!#$%&'*+-.^_`|~";
        for b in 0..=255u8 {
            let s = [b];
            let Ok(one) = std::str::from_utf8(&s) else {
                continue;
            };
            let want = b.is_ascii_alphanumeric() || specials.contains(one);
            assert_eq!(is_token(one), want, "{b:#x}");
        }
        assert!(!is_token(""));
        assert!(is_token("X-Custom_1"));
        assert!(!is_token("x é"));
        for c in ["Host", "CONTENT-length", "connection", "Transfer-Encoding"] {
            assert!(is_computed(c), "{c}");
        }
        for c in [
            "hosts",
            "date",
            "content-type",
            "x-connection",
            "",
            "hosT2",
            "h0st",
        ] {
            assert!(!is_computed(c), "{c}");
        }
        assert!(is_named("Content-Type", "content-type"));
        assert!(is_named("USER-AGENT", "user-agent"));
        assert!(!is_named("content_type", "content-type"));
        assert!(!is_named("content-typ", "content-type"));
        assert!(!is_named("user-agent", "authorization"));
    }

    #[test]
    fn dates() {
        assert_eq!(&http_date(784_111_777), b"Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(&http_date(0), b"Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(&http_date(951_782_400), b"Tue, 29 Feb 2000 00:00:00 GMT");
    }

    #[test]
    fn a_response_in_one_buffer() {
        let mut out = Vec::new();
        status(&mut out, 201);
        assert!(user_header(&mut out, "X-Id", " 7 "));
        assert!(!user_header(&mut out, "Content-Length", "99"));
        assert!(!user_header(&mut out, "connection", "keep-alive"));
        assert!(!user_header(
            &mut out,
            "date",
            "Sun, 06 Nov 1994 08:49:37 GMT"
        ));
        assert!(!user_header(&mut out, "X-Evil", "a\r\nSet-Cookie: b"));
        assert!(!user_header(&mut out, "Bad Name", "v"));
        finish(
            &mut out,
            Finish {
                content_type: Some("application/json"),
                length: Some(2),
                close: true,
                date: b"D",
            },
        );
        out.extend_from_slice(b"{}");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "HTTP/1.1 201 Created\r\nX-Id: 7\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\nDate: D\r\n\r\n{}"
        );
        let mut out = Vec::new();
        status(&mut out, 799);
        assert_eq!(out, b"HTTP/1.1 799 \r\n");
        assert_eq!(final_status(None), 200);
        assert_eq!(final_status(Some(101)), 500);
        assert_eq!(final_status(Some(1000)), 500);
        assert_eq!(final_status(Some(404)), 404);
    }
}
