//! Core native intrinsics: output, failure, exit and `argv` (§14.2, §12.3,
//! §16.1, §16.2).
//!
//! | native        | Festina form            | arguments                    | result |
//! |---------------|-------------------------|------------------------------|--------|
//! | `log`         | `log(v)`                | text (rendered by the caller) | void   |
//! | `fail_fields` | `fail(msg, fields)`     | text, `map[text]`            | never returns |
//! | `close`       | `close(code)`           | int                          | never returns |
//! | `argv`        | the `argv` global       | none                         | `arr[text]` |

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::render;
use festina_vm::value::Value;
use std::time::{SystemTime, UNIX_EPOCH};

/// The registry of every native this crate implements, for
/// `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "log",
            func: log,
        },
        NativeEntry {
            name: "fail_fields",
            func: fail_fields,
        },
        NativeEntry {
            name: "close",
            func: close,
        },
        NativeEntry {
            name: "argv",
            func: argv,
        },
    ]
    .into_iter()
    .chain(crate::text::natives())
    .chain(crate::collections::natives())
    .chain(crate::json::natives())
    .chain(crate::regexp::natives())
    .chain(crate::math::natives())
    .chain(crate::process::natives())
    .chain(crate::blob::natives())
    .chain(crate::timers::natives())
    .collect()
}

/// `log(v)`: print the rendered text and a newline to stdout; a null
/// prints an empty line (the reference's behaviour). A non-text argument
/// (the checker renders first, so only by mistake) is rendered here.
fn log(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    match args.first() {
        Some(Value::Text(t)) => it.write_line(t.as_str()),
        None | Some(Value::Null) => it.write_line(""),
        Some(other) => {
            let s = it.render(other);
            it.write_line(&s);
        }
    }
    Ok(Value::Null)
}

/// `fail(message, fields)`: one JSON line on stderr
/// (`{"timestamp":"…Z","level":"error","message":"…","fields":{…}}`),
/// then exit status 1 without the `fail: ` line (§14.2).
fn fail_fields(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let msg = match args.first() {
        Some(Value::Text(t)) => t.as_str().to_string(),
        Some(Value::Null) | None => String::new(),
        Some(other) => it.render(other),
    };
    let mut line = String::with_capacity(128);
    line.push_str("{\"timestamp\":\"");
    line.push_str(&utc_timestamp(SystemTime::now()));
    line.push_str("\",\"level\":\"error\",\"message\":");
    render::json_string(&msg, &mut line);
    line.push_str(",\"fields\":");
    match args.get(1) {
        Some(v @ Value::Map(_)) => render::render_json(it.program(), v, 0, &mut line),
        _ => line.push_str("{}"),
    }
    line.push_str("}\n");
    it.write_stderr(&line);
    Err(Trap::FailReported)
}

/// `close(code)`: exit with `code` (§12.3).
fn close(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let code = args.first().map_or(0, Value::as_int);
    Err(Trap::Exit(code as i32))
}

/// `argv`: the process arguments as one shared `arr[text]` (§16.2).
fn argv(it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    Ok(it.argv_value())
}

/// `t` as UTC ISO-8601 with milliseconds, e.g. `2026-11-30T12:00:00.000Z`.
/// Times before 1970 clamp to the epoch.
pub fn utc_timestamp(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let ms = d.subsec_millis();
    let (y, m, day) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        sod / 3600,
        (sod / 60) % 60,
        sod % 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps() {
        let at = |s: u64, ms: u64| {
            utc_timestamp(UNIX_EPOCH + Duration::from_secs(s) + Duration::from_millis(ms))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_796_040_000, 0), "2026-11-30T12:00:00.000Z");
        assert_eq!(at(4_107_542_399, 999), "2100-02-28T23:59:59.999Z");
    }
}
