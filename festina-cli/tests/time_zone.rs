//! `formatTime`'s `%Z` is the zone abbreviation, as C's `strftime` prints
//! it, in the zone the `TZ` environment variable names (issue 10, item 8;
//! §16.2). It used to print an offset such as `+01:00`. Each case runs
//! `festina` with its own `TZ`.

use std::process::Command;

fn in_zone(tz: &str) -> String {
    let dir = std::env::temp_dir().join(format!("festina-tz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("tz.f");
    // 2024-01-15 12:00 UTC (winter) and 2024-07-15 12:00 UTC (summer).
    std::fs::write(
        &prog,
        "log(formatTime(1705320000000, '%Z %H:%M'))\nlog(formatTime(1721044800000, '%Z %H:%M'))\nlog(formatTime(0, '%%Z'))\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_festina"))
        .arg(&prog)
        .env("TZ", tz)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn percent_z_is_the_zone_abbreviation_of_tz() {
    assert_eq!(in_zone("UTC"), "UTC 12:00\nUTC 12:00\n%Z\n");
    assert_eq!(in_zone("Europe/Paris"), "CET 13:00\nCEST 14:00\n%Z\n");
    assert_eq!(in_zone("America/New_York"), "EST 07:00\nEDT 08:00\n%Z\n");
    // A POSIX TZ rule rather than a zone name.
    assert_eq!(in_zone("EST5EDT"), "EST 07:00\nEDT 08:00\n%Z\n");
}
