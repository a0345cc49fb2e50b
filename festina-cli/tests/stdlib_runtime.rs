//! Builtins whose output depends on the clock or the environment, so they
//! cannot be golden tests: `troubleshoot` (a UTC timestamp, §16.5) and
//! `formatTime` in a chosen local time zone (`TZ`).

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Run `source` with `festina`, with extra environment variables.
fn run(label: &str, source: &str, env: &[(&str, &str)]) -> Output {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("festina-stdlib-{}-{n}-{label}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("main.f");
    fs::write(&path, source).expect("write program");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_festina"));
    cmd.arg(&path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run festina");
    let _ = fs::remove_dir_all(&dir);
    out
}

/// True if `s` is `YYYY-MM-DDTHH:MM:SS.mmmZ`.
fn is_utc_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    b.len() == 24
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
        && b[19] == b'.'
        && digits(20..23)
        && b[23] == b'Z'
}

/// Split a troubleshoot line into its timestamp and the rest after it.
fn split_line(line: &str) -> (&str, &str) {
    let rest = line
        .strip_prefix("{\"timestamp\":\"")
        .unwrap_or_else(|| panic!("no timestamp first: {line}"));
    let (ts, after) = rest.split_at(24.min(rest.len()));
    (ts, after)
}

#[test]
fn troubleshoot_prints_one_json_line() {
    let src = "\
map[text] tags = {'user_id': '7', 'reason': 'bad \"password\"'}
troubleshoot('user_login_failed', tags)
troubleshoot(42, {})
log(tags['user_id'])
";
    let out = run("troubleshoot", src, &[]);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let (ts, rest) = split_line(lines[0]);
    assert!(is_utc_timestamp(ts), "{ts}");
    assert_eq!(
        rest,
        "\",\"level\":\"info\",\"event\":\"user_login_failed\",\"fields\":{\"user_id\":\"7\",\"reason\":\"bad \\\"password\\\"\"}}"
    );
    let (ts, rest) = split_line(lines[1]);
    assert!(is_utc_timestamp(ts), "{ts}");
    assert_eq!(
        rest,
        "\",\"level\":\"info\",\"event\":\"42\",\"fields\":{}}"
    );
    assert_eq!(lines[2], "7");
}

#[test]
fn troubleshoot_needs_both_arguments() {
    let out = run("troubleshoot_arity", "troubleshoot('x')\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("wrong number of arguments to 'troubleshoot'"),
        "{err}"
    );
}

#[test]
fn format_time_uses_local_time() {
    let src = "log(formatTime(0, '%Y-%m-%d %H:%M:%S'))\n";
    let utc = run("tz_utc", src, &[("TZ", "UTC")]);
    assert_eq!(
        String::from_utf8_lossy(&utc.stdout),
        "1970-01-01 00:00:00\n"
    );
    let east = run("tz_east", src, &[("TZ", "XST-9")]);
    assert_eq!(
        String::from_utf8_lossy(&east.stdout),
        "1970-01-01 09:00:00\n"
    );
    let west = run("tz_west", src, &[("TZ", "XST+5")]);
    assert_eq!(
        String::from_utf8_lossy(&west.stdout),
        "1969-12-31 19:00:00\n"
    );
}
