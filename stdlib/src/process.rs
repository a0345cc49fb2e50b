//! Process, files, time and logging (§16.5).
//!
//! | native         | Festina form                    | result |
//! |----------------|---------------------------------|--------|
//! | `exec`         | `exec(args:arr[text])`          | exit code, or `-1` if the program could not start |
//! | `mkdir`        | `mkdir(path:text)`              | `true` only if it created the directory |
//! | `ls`           | `ls(path:text)`                 | entry names in OS order, or `[]` |
//! | `now`          | `now()`                         | milliseconds since the Unix epoch |
//! | `format_time`  | `formatTime(ms:int, fmt:text)`  | `strftime` in local time, or `null` |
//! | `troubleshoot` | `troubleshoot(event, fields)`   | void: one JSON line on stdout |
//!
//! None of these fails the program: every environmental problem is the
//! documented `-1`, `false`, `[]` or `null` (§2.3).
//!
//! Decisions where the specification is silent:
//! - `exec`: a child killed by a signal yields `128 + signal` (the shell
//!   convention); an empty array, a null array or a null/empty program
//!   name yields `-1`; a null argument after the first is passed as the
//!   empty string. Buffered stdout is flushed before the child starts so
//!   the two outputs stay in order.
//! - `formatTime`: a format the formatter rejects (an unknown `%`
//!   conversion, a lone `%` at the end) yields `null`, as does a null
//!   format or an instant outside the representable range; `%` forms
//!   follow `strftime` as implemented by the `chrono` crate.

use crate::core::log_record;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;
use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

/// The natives of this module, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "exec",
            func: exec,
        },
        NativeEntry {
            name: "mkdir",
            func: mkdir,
        },
        NativeEntry {
            name: "ls",
            func: ls,
        },
        NativeEntry {
            name: "now",
            func: now,
        },
        NativeEntry {
            name: "format_time",
            func: format_time,
        },
        NativeEntry {
            name: "troubleshoot",
            func: troubleshoot,
        },
    ]
}

/// The text of argument `i`, if it is a non-null text.
fn text_arg(args: &[Value], i: usize) -> Option<&str> {
    args.get(i).and_then(Value::as_str)
}

/// `exec(args)`: run `args[0]` (found on `PATH`, never through a shell)
/// with the other elements as arguments, inheriting the standard streams,
/// and wait for it. Result: its exit code, `128 + signal` if a signal
/// ended it, or `-1` if it could not start.
fn exec(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(Value::Arr(a)) = args.first() else {
        return Ok(Value::Int(-1));
    };
    let words: Vec<String> = a
        .to_vec()
        .iter()
        .map(|v| v.as_str().unwrap_or("").to_string())
        .collect();
    let Some((program, rest)) = words.split_first() else {
        return Ok(Value::Int(-1));
    };
    if program.is_empty() {
        return Ok(Value::Int(-1));
    }
    it.flush_output();
    let status = Command::new(program)
        .args(rest)
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status();
    let code = match status {
        Err(_) => -1,
        Ok(s) => match s.code() {
            Some(c) => c as i64,
            None => signal_status(&s),
        },
    };
    Ok(Value::Int(code))
}

/// `128 + signal` for a child a signal ended (POSIX); `-1` elsewhere.
fn signal_status(s: &std::process::ExitStatus) -> i64 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        s.signal().map_or(-1, |sig| 128 + sig as i64)
    }
    #[cfg(not(unix))]
    {
        let _ = s;
        -1
    }
}

/// `mkdir(path)`: create one directory; `true` only if it was created
/// (an existing directory, a missing parent or no permission: `false`).
fn mkdir(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let ok = match text_arg(args, 0) {
        Some(p) if !p.is_empty() => std::fs::create_dir(p).is_ok(),
        _ => false,
    };
    Ok(Value::Bool(ok))
}

/// `ls(path)`: the names of the entries of directory `path` in the order
/// the OS lists them (never `.` or `..`); an empty array if it cannot be
/// read. Names that are not UTF-8 get U+FFFD replacements.
fn ls(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let mut names = Vec::new();
    if let Some(p) = text_arg(args, 0).filter(|p| !p.is_empty()) {
        if let Ok(dir) = std::fs::read_dir(p) {
            for entry in dir.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name != "." && name != ".." {
                    names.push(Value::text(name));
                }
            }
        }
    }
    Ok(it.new_arr(names))
}

/// `now()`: milliseconds since the Unix epoch (negative before it).
fn now(_it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    let ms = match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis() as i64,
        Err(e) => -(e.duration().as_millis() as i64),
    };
    Ok(Value::Int(ms))
}

/// `formatTime(ms, fmt)`: `strftime`-style formatting of the instant `ms`
/// (milliseconds since the epoch) in the local time zone; `null` when the
/// result is empty or the format or instant cannot be formatted.
fn format_time(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let ms = args.first().map_or(0, Value::as_int);
    let Some(fmt) = text_arg(args, 1) else {
        return Ok(Value::Null);
    };
    Ok(match format_local(ms, fmt) {
        Some(s) if !s.is_empty() => Value::text(s),
        _ => Value::Null,
    })
}

/// `fmt` applied to the local time of `ms`; `None` on any error. `%Z` is
/// the time zone's abbreviation as C's `strftime` prints it (`UTC`,
/// `CET`, `EST`; from the C library, so the `TZ` environment variable is
/// honoured the same way); everything else is chrono's `strftime`.
pub fn format_local(ms: i64, fmt: &str) -> Option<String> {
    use chrono::{Local, TimeZone};
    let t = Local.timestamp_millis_opt(ms).earliest()?;
    let fmt = with_zone_abbreviation(fmt, ms.div_euclid(1000))?;
    let mut out = String::new();
    write!(out, "{}", t.format(&fmt)).ok()?;
    Some(out)
}

/// `fmt` with each `%Z` replaced by the zone abbreviation in force at
/// `secs` (seconds since the epoch), escaped for chrono; `%%` is kept.
/// `None` when `fmt` has `%Z` and the C library cannot convert `secs`.
fn with_zone_abbreviation(fmt: &str, secs: i64) -> Option<String> {
    if !fmt.contains("%Z") {
        return Some(fmt.to_string());
    }
    let zone = zone_abbreviation(secs)?.replace('%', "%%");
    let mut out = String::with_capacity(fmt.len() + zone.len());
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('Z') => out.push_str(&zone),
            Some(d) => {
                out.push('%');
                out.push(d);
            }
            None => out.push('%'),
        }
    }
    Some(out)
}

/// The abbreviation of the local time zone at `secs` since the epoch, as
/// `localtime_r` reports it (`tm_zone`), which reads `TZ` like `strftime`.
fn zone_abbreviation(secs: i64) -> Option<String> {
    let t = libc::time_t::try_from(secs).ok()?;
    // SAFETY: an all-zero `tm` is a valid value of this plain C struct;
    // `localtime_r` only writes it.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are valid for the call; `localtime_r` is the
    // thread-safe form and returns null on failure.
    let ok = unsafe { libc::localtime_r(&t, &mut tm) };
    if ok.is_null() || tm.tm_zone.is_null() {
        return None;
    }
    // SAFETY: on success `tm_zone` points at a NUL-terminated string in
    // the C library's time zone data, which stays valid at least until
    // the next `tzset`; it is copied out at once.
    let zone = unsafe { std::ffi::CStr::from_ptr(tm.tm_zone) };
    Some(zone.to_string_lossy().into_owned())
}

/// `troubleshoot(event, fields)`: one JSON line on stdout,
/// `{"timestamp":"<UTC ISO-8601>","level":"info","event":"…","fields":{…}}`
/// (§16.5). The event arrives already rendered as text.
fn troubleshoot(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let line = log_record(it, "info", "event", args);
    it.write_line(&line);
    it.output_status()?;
    Ok(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_time_edges() {
        // 2024-07-15T12:00:00Z: year and month are the same in every zone.
        let ms = 1_721_044_800_000;
        assert_eq!(format_local(ms, "%Y-%m").as_deref(), Some("2024-07"));
        assert_eq!(format_local(ms, "%S").as_deref(), Some("00"));
        assert_eq!(format_local(ms, "%%").as_deref(), Some("%"));
        assert_eq!(format_local(ms, "").as_deref(), Some(""));
        assert_eq!(format_local(ms, "%Q"), None);
        assert_eq!(format_local(ms, "abc%"), None);
        assert_eq!(format_local(i64::MAX, "%Y"), None);
        assert_eq!(format_local(i64::MIN, "%Y"), None);
        // `%Z` is a zone abbreviation (whatever this process's zone is),
        // never an offset; `%%Z` stays a literal `%Z`.
        let zone = format_local(ms, "%Z").unwrap();
        assert!(!zone.is_empty() && !zone.contains(':'), "{zone}");
        assert_eq!(format_local(ms, "%%Z").as_deref(), Some("%Z"));
        assert_eq!(format_local(ms, "[%Z]").unwrap(), format!("[{zone}]"));
    }
}
