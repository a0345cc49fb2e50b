//! `parseURL(t)` and the `url` value (§19.6).
//!
//! `scheme://[username[:password]@]host[:port][/path][?query][#fragment]`
//! is split into read-only fields:
//!
//! | field | what | absent |
//! |---|---|---|
//! | `protocol` | the scheme, lowercased, with its colon: `https:` | -- |
//! | `username`, `password` | the user information, as written (not decoded) | `''` |
//! | `hostname` | the host, ASCII letters lowercased; an IPv6 address keeps its brackets (`[::1]`) | `''` |
//! | `port` | the port as an `int` | `null` |
//! | `pathname` | the path, as written | `/` |
//! | `searchParams` | the query's `name=value` pairs, percent-decoded (`+` is a space), a name without `=` mapping to `''`, the last of a repeated name winning | an empty map |
//! | `hash` | the fragment with its `#` | `''` |
//!
//! It throws (§14.3) when `t` has no `://`, when the scheme is empty, or
//! when the port is not a number from 0 to 65535. A `%` not followed by
//! two hex digits is kept as it is; decoded bytes that are not UTF-8 read
//! as U+FFFD.
//!
//! The value keeps the text and the spans of its parts; each field is
//! made when read (a server that reads `parseURL(req.url).pathname` makes
//! one text).

use festina_vm::interp::Interpreter;
use festina_vm::native::Trap;
use festina_vm::value::{Handle, Value};
use std::cell::RefCell;
use std::ops::Range;

/// A parsed URL; see the module documentation. It keeps the text it was
/// parsed from (the program's own text value, shared, not copied) and the
/// spans of the parts.
#[derive(Debug)]
pub struct UrlObj {
    src: Value,
    scheme: Range<usize>,
    username: Range<usize>,
    password: Range<usize>,
    host: Range<usize>,
    port: Option<i64>,
    pathname: Range<usize>,
    query: Range<usize>,
    hash: Range<usize>,
    params: RefCell<Option<Value>>,
}

impl Handle for UrlObj {
    fn type_name(&self) -> &'static str {
        "url"
    }
}

impl UrlObj {
    /// Parse the text value `src` (see the module documentation); the
    /// error is the thrown text.
    pub fn parse(src: Value) -> Result<UrlObj, String> {
        let t = src.as_str().unwrap_or("");
        let b = t.as_bytes();
        // One pass of byte scans (the separators are ASCII, so every
        // index found is a character boundary).
        let Some(sep) = (0..b.len().saturating_sub(2)).find(|&i| &b[i..i + 3] == b"://") else {
            return Err(format!("parseURL: '{t}' is not an absolute URL (no '://')"));
        };
        if sep == 0 {
            return Err(format!("parseURL: '{t}' has no scheme"));
        }
        let start = sep + 3;
        let auth_end = find(b, start, |c| matches!(c, b'/' | b'?' | b'#')).unwrap_or(b.len());
        let at = rfind(b, start, auth_end, |c| c == b'@');
        let (username, password, host_start) = match at {
            Some(at) => match find(&b[..at], start, |c| c == b':') {
                Some(c) => (start..c, c + 1..at, at + 1),
                None => (start..at, at..at, at + 1),
            },
            None => (start..start, start..start, start),
        };
        let (host, port_text) = if b.get(host_start) == Some(&b'[') {
            let Some(close) = find(&b[..auth_end], host_start, |c| c == b']') else {
                return Err(format!("parseURL: bad host in '{t}'"));
            };
            match b.get(close + 1) {
                _ if close + 1 == auth_end => (host_start..close + 1, None),
                Some(b':') => (host_start..close + 1, Some(&t[close + 2..auth_end])),
                _ => return Err(format!("parseURL: bad host in '{t}'")),
            }
        } else {
            match rfind(b, host_start, auth_end, |c| c == b':') {
                Some(c) => (host_start..c, Some(&t[c + 1..auth_end])),
                None => (host_start..auth_end, None),
            }
        };
        let port = match port_text {
            None | Some("") => None,
            Some(p) => {
                if p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("parseURL: the port of '{t}' is not a number"));
                }
                match p.parse::<i64>() {
                    Ok(n) if n <= 65535 => Some(n),
                    _ => return Err(format!("parseURL: the port of '{t}' is out of range")),
                }
            }
        };
        let path_end = find(b, auth_end, |c| matches!(c, b'?' | b'#')).unwrap_or(b.len());
        let hash_at = find(b, path_end, |c| c == b'#');
        let query = match b.get(path_end) {
            Some(b'?') => path_end + 1..hash_at.unwrap_or(t.len()),
            _ => path_end..path_end,
        };
        let hash = match hash_at {
            Some(h) if h + 1 < t.len() => h..t.len(),
            _ => t.len()..t.len(),
        };
        Ok(UrlObj {
            scheme: 0..sep,
            username,
            password,
            host,
            port,
            pathname: auth_end..path_end,
            query,
            hash,
            params: RefCell::new(None),
            src,
        })
    }

    fn src(&self) -> &str {
        self.src.as_str().unwrap_or("")
    }

    /// The scheme as written, without the colon (`HTTP` for
    /// `HTTP://x`); [`UrlObj::protocol`] is its lowercased form.
    pub fn scheme(&self) -> &str {
        &self.src()[self.scheme.clone()]
    }

    /// `protocol`: the scheme, lowercased, and a colon.
    pub fn protocol(&self) -> String {
        let mut p = self.scheme().to_ascii_lowercase();
        p.push(':');
        p
    }

    /// `username`.
    pub fn username(&self) -> &str {
        &self.src()[self.username.clone()]
    }

    /// `password`.
    pub fn password(&self) -> &str {
        &self.src()[self.password.clone()]
    }

    /// `hostname`, ASCII letters lowercased.
    pub fn hostname(&self) -> String {
        self.src()[self.host.clone()].to_ascii_lowercase()
    }

    /// `port` (`None`: absent, `null`).
    pub fn port(&self) -> Option<i64> {
        self.port
    }

    /// `pathname` (`/` when the URL has no path).
    pub fn pathname(&self) -> &str {
        match &self.src()[self.pathname.clone()] {
            "" => "/",
            p => p,
        }
    }

    /// The query without its `?`.
    pub fn query(&self) -> &str {
        &self.src()[self.query.clone()]
    }

    /// `hash`.
    pub fn hash(&self) -> &str {
        &self.src()[self.hash.clone()]
    }

    /// The decoded `searchParams` pairs, in order.
    pub fn params(&self) -> Vec<(String, String)> {
        self.query()
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (decode(k), decode(v)),
                None => (decode(p), String::new()),
            })
            .collect()
    }
}

/// The first index from `from` whose byte satisfies `p`.
fn find(b: &[u8], from: usize, p: impl Fn(u8) -> bool) -> Option<usize> {
    b.get(from..)?.iter().position(|&c| p(c)).map(|i| from + i)
}

/// The last index in `from..to` whose byte satisfies `p`.
fn rfind(b: &[u8], from: usize, to: usize, p: impl Fn(u8) -> bool) -> Option<usize> {
    b.get(from..to)?
        .iter()
        .rposition(|&c| p(c))
        .map(|i| from + i)
}

/// Percent-decoding with `+` as a space (the query's form encoding).
pub fn decode(s: &str) -> String {
    decode_with(s, true)
}

/// Percent-decoding alone (`+` stays): a URL's user information.
pub fn decode_percent(s: &str) -> String {
    decode_with(s, false)
}

fn decode_with(s: &str, plus_is_space: bool) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' if plus_is_space => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

fn recv(args: &[Value]) -> Option<&UrlObj> {
    args.first().and_then(Value::as_handle::<UrlObj>)
}

/// `parseURL(t)`.
pub fn parse(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let t = match args.first() {
        Some(v @ (Value::Text(_) | Value::Ascii(_))) => v.clone(),
        _ => Value::text(""),
    };
    UrlObj::parse(t).map(Value::handle).map_err(Trap::Throw)
}

/// A text field of a `url` receiver (`''` for a null receiver).
fn text_field(args: &[Value], f: fn(&UrlObj) -> &str) -> Result<Value, Trap> {
    Ok(Value::text(recv(args).map_or("", f)))
}

/// `u.protocol`.
pub fn protocol(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::text(
        recv(args).map_or_else(String::new, UrlObj::protocol),
    ))
}

/// `u.username`.
pub fn username(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    text_field(args, UrlObj::username)
}

/// `u.password`.
pub fn password(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    text_field(args, UrlObj::password)
}

/// `u.hostname`.
pub fn hostname(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::text(
        recv(args).map_or_else(String::new, UrlObj::hostname),
    ))
}

/// `u.pathname`.
pub fn pathname(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    text_field(args, UrlObj::pathname)
}

/// `u.hash`.
pub fn hash(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    text_field(args, UrlObj::hash)
}

/// `u.port`.
pub fn port(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(recv(args)
        .and_then(UrlObj::port)
        .map_or(Value::Null, Value::Int))
}

/// `u.searchParams`: one map per value, made on first read.
pub fn search_params(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(u) = recv(args) else {
        return Ok(it.new_map());
    };
    if let Some(m) = &*u.params.borrow() {
        return Ok(m.clone());
    }
    let map = it.new_map();
    if let Value::Map(m) = &map {
        for (k, v) in u.params() {
            m.set(&k, Value::text(v));
        }
    }
    *u.params.borrow_mut() = Some(map.clone());
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(t: &str) -> String {
        let u = UrlObj::parse(Value::text(t)).unwrap();
        format!(
            "{}|{}|{}|{}|{:?}|{}|{:?}|{}",
            u.protocol(),
            u.username(),
            u.password(),
            u.hostname(),
            u.port(),
            u.pathname(),
            u.params(),
            u.hash()
        )
    }

    #[test]
    fn tricky_urls() {
        let cases = [
            ("http://example.com", "http:|||example.com|None|/|[]|"),
            (
                "HTTPS://User:P%40ss@Example.COM:8443/a/b?x=1&y=&z#frag",
                "https:|User|P%40ss|example.com|Some(8443)|/a/b|[(\"x\", \"1\"), (\"y\", \"\"), (\"z\", \"\")]|#frag",
            ),
            ("http://[::1]:9000/p", "http:|||[::1]|Some(9000)|/p|[]|"),
            ("http://[fe80::1]/", "http:|||[fe80::1]|None|/|[]|"),
            ("http://h:/x", "http:|||h|None|/x|[]|"),
            (
                "http://h/s?q=a%20b+c&q=%E2%82%AC&bad=%zz%4",
                "http:|||h|None|/s|[(\"q\", \"a b c\"), (\"q\", \"€\"), (\"bad\", \"%zz%4\")]|",
            ),
            ("http://h?only#", "http:|||h|None|/|[(\"only\", \"\")]|"),
            ("http://h#f?notquery", "http:|||h|None|/|[]|#f?notquery"),
            ("http://ünï.example/päth", "http:|||ünï.example|None|/päth|[]|"),
            ("ws://a@b@c/", "ws:|a@b||c|None|/|[]|"),
        ];
        for (t, want) in cases {
            assert_eq!(fields(t), want, "{t}");
        }
    }

    #[test]
    fn bad_urls_throw() {
        for t in [
            "example.com/x",
            "://x",
            "http://h:port/",
            "http://h:99999/",
            "http://[::1/",
            "http://h:-1/",
        ] {
            assert!(UrlObj::parse(Value::text(t)).is_err(), "{t}");
        }
    }
}
