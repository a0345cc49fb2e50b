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
use std::time::SystemTime;

/// The natives of this module, for the registry.
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
    it.output_status()?;
    Ok(Value::Null)
}

/// `fail(message, fields)`: one JSON line on stderr
/// (`{"timestamp":"…Z","level":"error","message":"…","fields":{…}}`),
/// then exit status 1 without the `fail: ` line (§14.2).
fn fail_fields(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let mut line = log_record(it, "error", "message", args);
    line.push('\n');
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
pub fn utc_timestamp(t: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(t)
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// One structured log line (§14.2, §16.5):
/// `{"timestamp":"…Z","level":LEVEL,KEY:TEXT,"fields":{…}}` where `TEXT`
/// is `args[0]` (already rendered) and the fields are the map `args[1]`.
pub(crate) fn log_record(it: &mut Interpreter, level: &str, key: &str, args: &[Value]) -> String {
    let text = match args.first() {
        Some(Value::Text(t)) => t.as_str().to_string(),
        Some(Value::Null) | None => String::new(),
        Some(other) => it.render(other),
    };
    let mut line = String::with_capacity(128);
    line.push_str("{\"timestamp\":\"");
    line.push_str(&utc_timestamp(SystemTime::now()));
    line.push_str("\",\"level\":\"");
    line.push_str(level);
    line.push_str("\",\"");
    line.push_str(key);
    line.push_str("\":");
    render::json_string(&text, &mut line);
    line.push_str(",\"fields\":");
    match args.get(1) {
        Some(v @ Value::Map(_)) => render::render_json(it.program(), v, 0, &mut line),
        _ => line.push_str("{}"),
    }
    line.push('}');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

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
