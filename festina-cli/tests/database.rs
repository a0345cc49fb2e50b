//! The built-in database (§15) over real files and real processes: schema
//! migrations that keep data (and a failed one that changes nothing),
//! parameters of every type read back by a second connection, injection
//! attempts that stay data, a second connection that sees committed rows
//! while the program runs, a program killed with SIGKILL that loses no
//! committed row, files that cannot be used, `DatabaseURL` from the
//! environment, and the `examples/todo.f` list persisting between runs.
//!
//! Each test works in its own temporary directory; the second connection
//! is rusqlite (the same SQLite build `festina` uses), and the `sqlite3`
//! shell too where the machine has one.
#![cfg(unix)]

use rusqlite::Connection;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A fresh empty directory for one test, removed when dropped.
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(label: &str) -> TempDir {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!(
        "festina-database-{}-{n}-{label}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    TempDir(dir)
}

/// Write `source` as `dir/name` and run it there (`festina name args`).
fn run_in(dir: &Path, name: &str, source: &str, args: &[&str]) -> Output {
    fs::write(dir.join(name), source).expect("write program");
    Command::new(env!("CARGO_BIN_EXE_festina"))
        .arg(name)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run festina")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Run and require success; the program's stdout.
fn run_ok(dir: &Path, name: &str, source: &str) -> String {
    let o = run_in(dir, name, source, &[]);
    assert!(
        o.status.success(),
        "{name} failed: {}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// A second connection to `path`, waiting for locks like festina does.
fn connect(path: &Path) -> Connection {
    let c = Connection::open(path).expect("second connection");
    c.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    c
}

/// The columns of `table` as (name, declared type).
fn columns(c: &Connection, table: &str) -> Vec<(String, String)> {
    let mut st = c
        .prepare("SELECT name, type FROM pragma_table_info(?1)")
        .unwrap();
    st.query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn count(c: &Connection, table: &str) -> i64 {
    c.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap_or(-1)
}

#[test]
fn schema_migrations_keep_data() {
    let dir = temp_dir("migrate");
    let v1 = "\
DatabaseURL = 'shop.sqlite'
table Item {
    name:text
    qty:int
    note:text
}
sqlite('INSERT INTO Item (name, qty, note) VALUES (?, ?, ?)', ['apple', 3, 'red'])
sqlite('INSERT INTO Item (name, qty, note) VALUES (?, ?, ?)', ['pear', 5, null])
sqlite('DELETE FROM Item WHERE name = ?', ['nothing'])
";
    run_ok(&dir, "v1.f", v1);
    let db = dir.join("shop.sqlite");
    {
        let c = connect(&db);
        assert_eq!(
            columns(&c, "Item"),
            vec![
                ("name".into(), "TEXT".into()),
                ("qty".into(), "INTEGER".into()),
                ("note".into(), "TEXT".into())
            ]
        );
    }
    // Closed cleanly: the WAL was checkpointed and removed.
    assert!(!dir.join("shop.sqlite-wal").exists());
    assert!(!dir.join("shop.sqlite-shm").exists());

    // Adding a column only: ALTER TABLE, rows untouched.
    let v2 = "\
DatabaseURL = 'shop.sqlite'
table Item {
    name:text
    qty:int
    note:text
    price:float
}
arr[Item] xs = sqlite('SELECT rowid, * FROM Item ORDER BY rowid')
for int i = 0, i < xs.length, i++ {
    log(`${xs[i].rowid} ${xs[i]}`)
}
";
    assert_eq!(
        run_ok(&dir, "v2.f", v2),
        "1 {\"name\":\"apple\",\"qty\":3,\"note\":\"red\",\"price\":null}\n\
         2 {\"name\":\"pear\",\"qty\":5,\"note\":null,\"price\":null}\n"
    );

    // Dropping a column and changing a type: a rebuild that keeps every
    // row, its rowid and every surviving value.
    let v3 = "\
DatabaseURL = 'shop.sqlite'
table Item {
    name:text
    qty:float
    price:float
}
arr[Item] xs = sqlite('SELECT rowid, * FROM Item ORDER BY rowid')
for int i = 0, i < xs.length, i++ {
    log(`${xs[i].rowid} ${xs[i]}`)
}
";
    assert_eq!(
        run_ok(&dir, "v3.f", v3),
        "1 {\"name\":\"apple\",\"qty\":3,\"price\":null}\n\
         2 {\"name\":\"pear\",\"qty\":5,\"price\":null}\n"
    );
    {
        let c = connect(&db);
        assert_eq!(
            columns(&c, "Item"),
            vec![
                ("name".into(), "TEXT".into()),
                ("qty".into(), "REAL".into()),
                ("price".into(), "REAL".into())
            ]
        );
        let leftovers: i64 = c
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name LIKE '%festina%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(leftovers, 0, "the migration left a temporary table");
    }

    // Text to int keeps text that reads as a number as that number, and
    // every other value as it was (read back as null, not lost).
    let c = connect(&db);
    c.execute("UPDATE Item SET name = '42' WHERE rowid = 1", [])
        .unwrap();
    drop(c);
    let v4 = "\
DatabaseURL = 'shop.sqlite'
table Item {
    name:int
    qty:float
    price:float
}
arr[Item] xs = sqlite('SELECT * FROM Item ORDER BY rowid')
log(xs)
";
    assert_eq!(
        run_ok(&dir, "v4.f", v4),
        "[{\"name\":42,\"qty\":3,\"price\":null},{\"name\":null,\"qty\":5,\"price\":null}]\n"
    );
    let c = connect(&db);
    let kept: String = c
        .query_row("SELECT name FROM Item WHERE rowid = 2", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, "pear");
    // Running the same declaration again changes nothing.
    let before = columns(&c, "Item");
    drop(c);
    run_ok(&dir, "v4.f", v4);
    assert_eq!(columns(&connect(&db), "Item"), before);
}

#[test]
fn a_failed_migration_changes_nothing() {
    let dir = temp_dir("failed-migration");
    let db = dir.join("app.sqlite");
    {
        let c = connect(&db);
        c.execute_batch(
            "CREATE TABLE A (x INTEGER, old TEXT);
             INSERT INTO A VALUES (1, 'one'), (2, 'two');
             CREATE VIEW B AS SELECT 1 AS y;",
        )
        .unwrap();
    }
    // A needs a rebuild (drop `old`), which succeeds; B names a view,
    // which cannot be made a table: the whole synchronisation rolls back.
    let o = run_in(
        &dir,
        "app.f",
        "\
DatabaseURL = 'app.sqlite'
table A {
    x:int
}
table B {
    z:int
}
log('not reached')
",
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.starts_with("fail: cannot synchronise the database 'app.sqlite': table B: "),
        "{err}"
    );
    let c = connect(&db);
    assert_eq!(
        columns(&c, "A"),
        vec![
            ("x".into(), "INTEGER".into()),
            ("old".into(), "TEXT".into())
        ]
    );
    assert_eq!(count(&c, "A"), 2);
}

#[test]
fn parameters_of_every_type_reach_the_database() {
    let dir = temp_dir("params");
    fs::write(dir.join("data.bin"), [0u8, 1, 2, 255]).unwrap();
    let src = "\
DatabaseURL = 'p.sqlite'
table P {
    i:int
    f:float
    b:bool
    t:text
    raw:blob
}
blob data = 'data.bin'
int noInt = null
float noFloat = null
ascii code = 'XYZ'
sqlite('INSERT INTO P (i, f, b, t, raw) VALUES (?, ?, ?, ?, ?)', [-5, 2.5, true, 'é ünïcode', data])
sqlite('INSERT INTO P (i, f, b, t, raw) VALUES (?, ?, ?, ?, ?)', [noInt, noFloat, false, code, null])
sqlite('INSERT INTO P (t) VALUES (?)', [\"Robert'); DROP TABLE P;--\"])
sqlite('INSERT INTO P (t) VALUES (?)', ['\" OR \"1\"=\"1'])
arr[P] back = sqlite('SELECT * FROM P WHERE t = ?', [\"Robert'); DROP TABLE P;--\"])
log(back.length)
";
    assert_eq!(run_ok(&dir, "p.f", src), "1\n");
    let c = connect(&dir.join("p.sqlite"));
    type Row = (
        rusqlite::types::Value,
        rusqlite::types::Value,
        rusqlite::types::Value,
        rusqlite::types::Value,
        rusqlite::types::Value,
    );
    let rows: Vec<Row> = c
        .prepare("SELECT i, f, b, t, raw FROM P ORDER BY rowid")
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    use rusqlite::types::Value as V;
    assert_eq!(
        rows[0],
        (
            V::Integer(-5),
            V::Real(2.5),
            V::Integer(1),
            V::Text("é ünïcode".into()),
            V::Blob(vec![0, 1, 2, 255])
        )
    );
    assert_eq!(
        rows[1],
        (
            V::Null,
            V::Null,
            V::Integer(0),
            V::Text("XYZ".into()),
            V::Null
        )
    );
    assert_eq!(rows[2].3, V::Text("Robert'); DROP TABLE P;--".into()));
    assert_eq!(rows[3].3, V::Text("\" OR \"1\"=\"1".into()));
    assert_eq!(rows.len(), 4, "the table is intact");
}

/// A program that inserts rows 0, 1, 2, ... one statement (one commit)
/// at a time until `limit`, the rows numbered by `n`.
fn inserter(limit: u32) -> String {
    format!(
        "\
DatabaseURL = 'live.sqlite'
table Tick {{
    n:int
    label:text
}}
for int i = 0, i < {limit}, i++ {{
    sqlite('INSERT INTO Tick (n, label) VALUES (?, ?)', [i, `tick ${{i}}`])
}}
log('finished')
"
    )
}

fn spawn(dir: &Path, name: &str, source: &str) -> Child {
    fs::write(dir.join(name), source).expect("write program");
    Command::new(env!("CARGO_BIN_EXE_festina"))
        .arg(name)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start festina")
}

/// Poll `SELECT count(*)` until it reaches `at_least` (or time runs out).
fn wait_for_rows(c: &Connection, at_least: i64, child: &mut Child) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let n = c
            .query_row("SELECT count(*) FROM Tick", [], |r| r.get::<_, i64>(0))
            .unwrap_or(0);
        if n >= at_least {
            return n;
        }
        if let Ok(Some(st)) = child.try_wait() {
            panic!("the program ended ({st}) before writing {at_least} rows");
        }
        assert!(Instant::now() < deadline, "only {n} rows after 60 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_second_connection_sees_committed_rows_while_the_program_runs() {
    let dir = temp_dir("live");
    let mut child = spawn(&dir, "live.f", &inserter(2_000_000));
    let db = dir.join("live.sqlite");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !db.exists() {
        assert!(Instant::now() < deadline, "the database never appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
    let c = connect(&db);
    let seen = wait_for_rows(&c, 50, &mut child);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the program must still be running"
    );
    // Later reads see more, while the program still runs.
    let later = wait_for_rows(&c, seen + 50, &mut child);
    assert!(later > seen);
    // The sqlite3 shell, where installed, shares the file too.
    if let Ok(o) = Command::new("sqlite3")
        .arg("-cmd")
        .arg(".timeout 5000")
        .arg(&db)
        .arg("SELECT count(*) > 0 FROM Tick")
        .output()
    {
        if o.status.success() {
            assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1");
        }
    }
    child.kill().expect("kill");
    let _ = child.wait();
}

#[test]
fn sigkill_loses_no_committed_row() {
    let dir = temp_dir("sigkill");
    let mut child = spawn(&dir, "live.f", &inserter(2_000_000));
    let db = dir.join("live.sqlite");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !db.exists() {
        assert!(Instant::now() < deadline, "the database never appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
    let committed = {
        let c = connect(&db);
        wait_for_rows(&c, 300, &mut child)
    };
    child.kill().expect("SIGKILL"); // Child::kill sends SIGKILL on Unix
    let status = child.wait().unwrap();
    assert!(!status.success());
    let c = connect(&db);
    let ok: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let (n, lo, hi): (i64, i64, i64) = c
        .query_row("SELECT count(*), min(n), max(n) FROM Tick", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert!(
        n >= committed,
        "{committed} rows were committed before the kill, {n} survived"
    );
    // Every committed row is there, none torn: 0..n without gaps.
    assert_eq!((lo, hi), (0, n - 1));
    let label: String = c
        .query_row("SELECT label FROM Tick WHERE n = ?1", [n - 1], |r| r.get(0))
        .unwrap();
    assert_eq!(label, format!("tick {}", n - 1));
    // And festina itself opens the recovered file and carries on.
    let o = run_in(
        &dir,
        "count.f",
        "\
DatabaseURL = 'live.sqlite'
table Tick {
    n:int
    label:text
}
struct C {
    k:int
}
arr[C] c = sqlite('SELECT count(*) AS k FROM Tick')
log(c[0].k)
",
        &[],
    );
    assert_eq!(stdout(&o), format!("{n}\n"), "{}", stderr(&o));
}

#[test]
fn unusable_database_files_fail_cleanly() {
    let dir = temp_dir("unusable");
    let garbage = vec![b'x'; 4096];
    fs::write(dir.join("festina.sqlite"), &garbage).unwrap();
    let src = "\
table T {
    id:int
}
log('not reached')
";
    let o = run_in(&dir, "a.f", src, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "fail: cannot open the database 'festina.sqlite': file is not a database\n"
    );
    assert_eq!(fs::read(dir.join("festina.sqlite")).unwrap(), garbage);

    // A directory that does not exist (or cannot be written).
    let o = run_in(
        &dir,
        "b.f",
        "DatabaseURL = 'missing/dir/x.sqlite'\nlog('not reached')\n",
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("fail: cannot open the database 'missing/dir/x.sqlite': "),
        "{}",
        stderr(&o)
    );

    // A directory where the file should be.
    fs::create_dir_all(dir.join("adir")).unwrap();
    let o = run_in(
        &dir,
        "c.f",
        "DatabaseURL = 'adir'\nsqlite('SELECT 1')\n",
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("fail: cannot open the database 'adir': "));
}

#[test]
fn database_url_from_the_environment_and_the_default_file() {
    let dir = temp_dir("env");
    let src = "\
DatabaseURL = environment.FESTINA_TEST_DB
table T {
    id:int
}
sqlite('INSERT INTO T (id) VALUES (?)', [7])
log('ok')
";
    fs::write(dir.join("e.f"), src).unwrap();
    let target = dir.join("from_env.sqlite");
    let o = Command::new(env!("CARGO_BIN_EXE_festina"))
        .arg("e.f")
        .current_dir(&dir)
        .env("FESTINA_TEST_DB", &target)
        .output()
        .unwrap();
    assert_eq!(stdout(&o), "ok\n", "{}", stderr(&o));
    assert_eq!(count(&connect(&target), "T"), 1);
    assert!(!dir.join("festina.sqlite").exists());
    // Unset: the default file in the working directory.
    let o = Command::new(env!("CARGO_BIN_EXE_festina"))
        .arg("e.f")
        .current_dir(&dir)
        .env_remove("FESTINA_TEST_DB")
        .output()
        .unwrap();
    assert_eq!(stdout(&o), "ok\n", "{}", stderr(&o));
    assert_eq!(count(&connect(&dir.join("festina.sqlite")), "T"), 1);
}

#[test]
fn a_program_without_the_database_leaves_no_file() {
    let dir = temp_dir("none");
    assert_eq!(run_ok(&dir, "hello.f", "log('hello')\n"), "hello\n");
    assert!(fs::read_dir(&dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains("sqlite")));
}

#[test]
fn a_bundle_uses_the_database_too() {
    let dir = temp_dir("bundle");
    let src = "\
DatabaseURL = 'b.sqlite'
table Note {
    body:text
}
sqlite('INSERT INTO Note (body) VALUES (?)', [argv[1]])
arr[Note] all = sqlite('SELECT body FROM Note ORDER BY rowid')
log(all)
";
    fs::write(dir.join("notes.f"), src).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_festina"))
        .args(["compile", "notes.f", "-o", "notes"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    for (arg, want) in [
        ("one", "[{\"body\":\"one\"}]\n"),
        ("two", "[{\"body\":\"one\"},{\"body\":\"two\"}]\n"),
    ] {
        let o = Command::new(dir.join("notes"))
            .arg(arg)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(stdout(&o), want, "{}", stderr(&o));
    }
}

#[test]
fn the_todo_example_persists_between_runs() {
    let dir = temp_dir("todo");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/todo.f");
    let todo = |args: &[&str]| -> (String, Option<i32>) {
        let o = Command::new(env!("CARGO_BIN_EXE_festina"))
            .arg(&example)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(stderr(&o), "");
        (stdout(&o), o.status.code())
    };
    assert_eq!(todo(&[]), ("nothing to do\n".into(), Some(0)));
    assert_eq!(
        todo(&["add", "buy milk"]),
        ("added: buy milk\n".into(), Some(0))
    );
    assert_eq!(
        todo(&["add", "write tests"]),
        ("added: write tests\n".into(), Some(0))
    );
    assert_eq!(
        todo(&["done", "1"]).0,
        "1. [x] buy milk\n2. [ ] write tests\n1 open, 1 done\n"
    );
    assert_eq!(todo(&["remove", "9"]), ("no task 9\n".into(), Some(1)));
    assert_eq!(
        todo(&["clear"]),
        ("removed 1 finished tasks\n".into(), Some(0))
    );
    assert_eq!(todo(&["list"]).0, "2. [ ] write tests\n1 open, 0 done\n");
    assert!(dir.join("todo.sqlite").exists());
}
