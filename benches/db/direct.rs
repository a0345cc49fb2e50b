//! The database benchmark (issue "The built-in database"): 20,000
//! single-row `INSERT`s through `sqlite()` in a loop, then one `SELECT` of
//! every row into an `arr[Entry]` — the Festina program
//! `benches/db/insert.f` — against the same work written directly
//! against rusqlite in Rust, measured in one run.
//!
//! Built as the example `db_direct` of `festina-stdlib` (so it links the
//! very SQLite build `festina` uses) and run by `benches/db/run.sh`:
//!
//! ```text
//! db_direct --festina PATH [--rows N] [--rounds R] [--results FILE]
//! ```
//!
//! Each round runs both sides in a fresh empty directory (alternating
//! which goes first, since the machine is shared and its load drifts):
//! - **Festina**: `festina insert.f N` with that directory as the working
//!   directory; the program times its own loop and query with `now()`
//!   (milliseconds) and prints them, so compile and start-up time are not
//!   counted;
//! - **Rust**: a connection opened the way `festina` opens one (WAL,
//!   `synchronous=NORMAL`, busy timeout), the table created, the `INSERT`
//!   prepared once and executed N times with the same three values
//!   (`i`, `"name {i}"`, `i * 0.5`), then the `SELECT` read into a
//!   `Vec` of structs.
//!
//! The medians over the rounds, the ratio Festina / Rust, and the machine
//! are written as the section `## Database` of the results file (default
//! `benches/RESULTS.md`; other sections are left alone), and printed.

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// One row of the benchmark table, as the Rust side reads it.
#[allow(dead_code)]
struct Entry {
    id: Option<i64>,
    name: Option<String>,
    score: Option<f64>,
}

/// Times of one side in one round, in milliseconds.
#[derive(Clone, Copy)]
struct Times {
    insert: f64,
    select: f64,
    /// CPU time (user + system) of the whole side: for Festina the whole
    /// process (compiling the program, opening the database, the loop, the
    /// query), for Rust opening the database, the loop and the query.
    cpu: f64,
}

/// CPU time (user + system, in milliseconds) this process has used
/// (`children`: false) or its waited-for children have (`true`), from
/// `/proc/self/stat` (clock ticks of 10 ms).
fn cpu_ms(children: bool) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest: Vec<&str> = stat
        .rsplit_once(") ")
        .map_or(Vec::new(), |(_, r)| r.split_whitespace().collect());
    // Fields 14-17 of proc(5) are utime, stime, cutime, cstime; `rest`
    // starts at field 3.
    let field = |n: usize| {
        rest.get(n - 3)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let ticks = if children {
        field(16) + field(17)
    } else {
        field(14) + field(15)
    };
    ticks * 10.0
}

/// The Rust side: same connection settings, same statements, same values.
fn direct(dir: &Path, n: i64) -> rusqlite::Result<Times> {
    let cpu0 = cpu_ms(false);
    let conn = Connection::open(dir.join("direct.sqlite"))?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch("CREATE TABLE Entry (id INTEGER, name TEXT, score REAL)")?;
    let t0 = Instant::now();
    {
        let mut st = conn.prepare("INSERT INTO Entry (id, name, score) VALUES (?, ?, ?)")?;
        for i in 0..n {
            st.execute((i, format!("name {i}"), i as f64 * 0.5))?;
        }
    }
    let insert = t0.elapsed();
    let t1 = Instant::now();
    let rows: Vec<Entry> = conn
        .prepare("SELECT * FROM Entry")?
        .query_map([], |r| {
            Ok(Entry {
                id: r.get(0)?,
                name: r.get(1)?,
                score: r.get(2)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let select = t1.elapsed();
    assert_eq!(rows.len() as i64, n, "the Rust side lost rows");
    drop(conn);
    Ok(Times {
        insert: insert.as_secs_f64() * 1000.0,
        select: select.as_secs_f64() * 1000.0,
        cpu: cpu_ms(false) - cpu0,
    })
}

/// The Festina side: run the program and read the times it prints.
fn festina(bin: &Path, program: &Path, dir: &Path, n: i64) -> Result<Times, String> {
    let cpu0 = cpu_ms(true);
    let out = Command::new(bin)
        .arg(program)
        .arg(n.to_string())
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let nums: Vec<f64> = text
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    if !out.status.success() || nums.len() != 3 || nums[2] as i64 != n {
        return Err(format!(
            "festina failed or printed something unexpected: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(Times {
        insert: nums[0],
        select: nums[1],
        cpu: cpu_ms(true) - cpu0,
    })
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[m]
    } else {
        (xs[m - 1] + xs[m]) / 2.0
    }
}

fn first_line(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(str::to_string)
        })
        .unwrap_or_else(|| "?".to_string())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string())
}

/// Replace (or append) the `## Database` section of `path`, leaving the
/// other sections as they are.
fn write_section(path: &Path, section: &str) -> std::io::Result<()> {
    let old = std::fs::read_to_string(path)
        .unwrap_or_else(|_| "# Festina benchmark results\n".to_string());
    let new = match old.find("\n## Database\n") {
        Some(i) => {
            let start = i + 1;
            // The next section starts after the next "\n## ", if any.
            match old[start + 1..].find("\n## ") {
                Some(e) => {
                    let next = start + 1 + e + 1;
                    format!("{}{section}\n{}", &old[..start], &old[next..])
                }
                None => format!("{}{section}", &old[..start]),
            }
        }
        None => format!("{}\n\n{section}", old.trim_end_matches('\n')),
    };
    std::fs::write(path, new)
}

fn main() {
    let mut festina_bin: Option<PathBuf> = None;
    let mut rows: i64 = 20_000;
    let mut rounds: usize = 7;
    let mut results = PathBuf::from("benches/RESULTS.md");
    let mut write = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--festina" => festina_bin = args.next().map(PathBuf::from),
            "--rows" => rows = args.next().and_then(|v| v.parse().ok()).unwrap_or(rows),
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).unwrap_or(rounds),
            "--results" => results = args.next().map(PathBuf::from).unwrap_or(results),
            "--no-write" => write = false,
            other => {
                eprintln!("db_direct: unknown argument '{other}'");
                std::process::exit(2);
            }
        }
    }
    let Some(bin) = festina_bin.and_then(|b| std::fs::canonicalize(b).ok()) else {
        eprintln!(
            "usage: db_direct --festina PATH [--rows N] [--rounds R] [--results FILE] [--no-write]"
        );
        std::process::exit(2);
    };
    let program = std::fs::canonicalize("benches/db/insert.f").unwrap_or_else(|e| {
        eprintln!("db_direct: run me from the repository root ({e})");
        std::process::exit(2);
    });
    let rounds = rounds.max(1);
    let (mut fi, mut fs, mut ri, mut rs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut fc, mut rc) = (Vec::new(), Vec::new());
    let base = std::env::temp_dir().join(format!("festina-db-bench-{}", std::process::id()));
    for round in 0..rounds {
        let dir = base.join(round.to_string());
        let (fdir, rdir) = (dir.join("festina"), dir.join("rust"));
        for d in [&fdir, &rdir] {
            std::fs::create_dir_all(d).expect("cannot create a temporary directory");
        }
        let run_festina = |fi: &mut Vec<f64>, fs: &mut Vec<f64>, fc: &mut Vec<f64>| {
            let t = festina(&bin, &program, &fdir, rows).unwrap_or_else(|e| {
                eprintln!("db_direct: {e}");
                std::process::exit(1);
            });
            fi.push(t.insert);
            fs.push(t.select);
            fc.push(t.cpu);
        };
        let run_rust = |ri: &mut Vec<f64>, rs: &mut Vec<f64>, rc: &mut Vec<f64>| {
            let t = direct(&rdir, rows).unwrap_or_else(|e| {
                eprintln!("db_direct: rusqlite: {e}");
                std::process::exit(1);
            });
            ri.push(t.insert);
            rs.push(t.select);
            rc.push(t.cpu);
        };
        if round % 2 == 0 {
            run_festina(&mut fi, &mut fs, &mut fc);
            run_rust(&mut ri, &mut rs, &mut rc);
        } else {
            run_rust(&mut ri, &mut rs, &mut rc);
            run_festina(&mut fi, &mut fs, &mut fc);
        }
        eprintln!(
            "round {}: festina {:.0} + {:.0} ms (CPU {:.0} ms), rust {:.0} + {:.0} ms (CPU {:.0} ms)",
            round + 1,
            fi[round],
            fs[round],
            fc[round],
            ri[round],
            rs[round],
            rc[round]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&base);
    let (fi, fs, ri, rs) = (
        median(&mut fi),
        median(&mut fs),
        median(&mut ri),
        median(&mut rs),
    );
    let (fc, rc) = (median(&mut fc), median(&mut rc));
    let ratio = fi / ri;
    let section = format!(
        "## Database\n\n\
Measured by `bash benches/db/run.sh` on {date}: {cpus} cores, {cpu}; {rustc}; SQLite {sqlite} (compiled in by rusqlite's `bundled` feature, the same build for both sides).\n\
Machine load when measured (1-minute average): {load}. Each of {rounds} rounds ran both sides in a fresh empty directory, alternating which went first; the table shows the medians. **Festina** is `benches/db/insert.f` run by `festina` from `cargo build --release`: a loop of {rows} `sqlite('INSERT INTO Entry (id, name, score) VALUES (?, ?, ?)', [i, `name ${{i}}`, i * 0.5])` calls, then `arr[Entry] rows = sqlite('SELECT * FROM Entry')`, timed by the program itself with `now()` (so compiling and start-up are not counted). **Rust** is `benches/db/direct.rs`: the same connection settings (WAL, `synchronous=NORMAL`, busy timeout), the `INSERT` prepared once and executed with the same values, and the `SELECT` read into a `Vec` of structs. Every insert is its own transaction on both sides (nothing is batched), so each one reaches the WAL file before the next starts.\n\n\
| work | Festina | Rust + rusqlite | ratio |\n\
|---|---:|---:|---:|\n\
| {rows} single-row inserts | {fi:.0} ms | {ri:.0} ms | {ratio:.2}x |\n\
| select {rows} rows into `arr[Entry]` / `Vec<Entry>` | {fs:.0} ms | {rs:.0} ms | {sratio:.2}x |\n\
| CPU time, user + system (whole side, see below) | {fc:.0} ms | {rc:.0} ms | {cratio:.2}x |\n\n\
Times are wall-clock medians. The CPU row is less disturbed by the other users of this shared machine: for Festina it is the whole `festina` process (compiling the program, opening and synchronising the database, the loop, the query, exit), for Rust opening the database, the loop and the query (from `/proc`, in 10 ms ticks). Most of an insert's cost is SQLite's commit itself (six lock calls and two writes to the WAL per transaction), the same on both sides.\n\n\
Targets: inserts under 0.3 s: **{t1}** ({fi:.0} ms); within 1.5x of the same loop on rusqlite: **{t2}** ({ratio:.2}x).\n",
        date = first_line("date", &["+%Y-%m-%d"]),
        cpus = std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu = cpu_model(),
        rustc = first_line("rustc", &["--version"]),
        sqlite = rusqlite::version(),
        load = load_average(),
        sratio = fs / rs,
        cratio = fc / rc,
        t1 = if fi < 300.0 { "met" } else { "not met" },
        t2 = if ratio <= 1.5 { "met" } else { "not met" },
    );
    println!("{section}");
    if write {
        if let Err(e) = write_section(&results, &section) {
            eprintln!("db_direct: cannot write {}: {e}", results.display());
            std::process::exit(1);
        }
    }
}
