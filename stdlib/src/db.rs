//! The built-in database (§15): opening it, schema synchronisation,
//! `sqlite()` queries and table-row natives.
//!
//! | native          | Festina form                                  | arguments | result |
//! |-----------------|-----------------------------------------------|-----------|--------|
//! | `db_open`       | program start-up (§6.5 step 2), emitted first in the entry function of a program that uses the database | the `DatabaseURL` text, or null for `festina.sqlite` | void |
//! | `sqlite_exec`   | `sqlite(sql)`, `sqlite(sql, [params])` as a statement | text SQL, `int` mode, then each parameter | void |
//! | `sqlite_query`  | `arr[T] rows = sqlite(sql[, [params]])`        | text SQL, `int` mode, then each parameter | `arr[T]` |
//! | `row_set`       | `row.col = v`                                 | row, `int` table id, `int` column, value | void |
//! | `row_delete`    | `delete row.col`                              | row, `int` table id, `int` column | void |
//! | `row_undefined` | `row.undefined(col)`                          | row, `int` table id, text column name | bool |
//!
//! The *mode* of a query native is `(type << 1) | literal`: bit 0 is set
//! when the SQL was a string literal (the statement is then prepared once
//! and kept, §15.4), and for `sqlite_query` the rest is the index into
//! `Program::types` of the target `arr[Table]` or `arr[Struct]`.
//!
//! # The connection
//! [`Db`] (one SQLite connection, with SQLite compiled into the binary) is
//! kept by the interpreter ([`Interpreter::set_ext`]): one per interpreter,
//! no global state, closed when the run ends. It is opened in WAL mode
//! with `synchronous=NORMAL` and a busy timeout of [`BUSY_TIMEOUT_MS`], so
//! another process (the `sqlite3` shell, a second program) can use the
//! same file at the same time; every statement outside an explicit
//! transaction commits on its own, so a program killed at any point loses
//! no row a finished `sqlite()` call wrote.
//!
//! # Schema synchronisation (§15.2)
//! At start-up, inside one `BEGIN IMMEDIATE` transaction (so a failure
//! changes nothing), every declared table is compared with the database's
//! table of the same name (names compared case-insensitively, as SQLite
//! does): a missing table is created; missing columns are added with
//! `ALTER TABLE … ADD COLUMN`; when a column must be removed or change
//! type the table is rebuilt: a new table with the declared columns, the
//! rows copied over (with their rowids, every surviving column's value as
//! it is, converted only by the new column's type affinity, so no value is
//! lost to a `CAST`), the old table dropped and the new one renamed.
//! Indexes and triggers that the program created on a rebuilt table by
//! hand go with the old table.
//!
//! # Errors
//! A SQL error (a statement SQLite rejects, a constraint violation, a
//! wrong number of parameters, a database locked past the busy timeout)
//! is a runtime failure naming SQLite's message, the SQL and the line:
//! `fail: sqlite: near "SELEC": syntax error in 'SELEC 1' at app.f:3`.
//! SQLite undoes the failed statement, so the database is never left
//! half-changed. A database that cannot be opened or synchronised (a file
//! that is not a database, a directory the process cannot write) fails
//! the program at start-up with the same kind of message.
//!
//! # Result binding (§15.3, §15.5)
//! Result columns match target fields by name, ignoring ASCII case; the
//! first result column of a name wins. For a table target a result column
//! named `rowid` (or `oid`, `_rowid_`) that is not a declared column fills
//! the row's `rowid`. A value is converted to the field's type the way
//! SQLite's own affinity would: to `int` an integer as is, a real
//! truncated toward zero, a text that reads as a number by its value
//! (anything else `null`); to `float` any number, or a numeric text; to
//! `bool` a nonzero number is `true` (a text `true`/`false` too); to
//! `text` an integer in decimal, a real with up to 17 significant digits
//! (`2.0`, `0.1`), a blob's bytes (text stops at a NUL); to `blob` the
//! bytes, with no path; to `img` and `aud` the bytes decoded (§8.13),
//! with no path, or `null` when they do not decode (§2.3). SQL `NULL` is
//! `null` (for a `float`, the NaN null). A `blob`, `img` or `aud`
//! parameter binds its own encoded bytes (`Handle::encoded_bytes`), so a
//! file round-trips byte for byte.
//!
//! The decoders are the canvas and audio facilities': a program with an
//! `img` (`aud`) column or query field calls `img_columns`
//! (`aud_columns`) at start-up, which leaves the decoder in the
//! interpreter (`canvas::ImgColumns`, `audio::AudColumns`), so a runtime
//! without those facilities never links them.

use crate::blob::BlobObj;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::program::{Program, Record};
use festina_vm::row;
use festina_vm::types::Type;
use festina_vm::value::Value;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, Statement, ToSql};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// The database file used when the program sets no `DatabaseURL` (§15.1),
/// relative to the working directory.
pub const DEFAULT_DATABASE: &str = "festina.sqlite";

/// How long a statement waits for a lock another connection holds before
/// failing with `database is locked`, in milliseconds.
pub const BUSY_TIMEOUT_MS: u64 = 5_000;

/// How many prepared statements of literal SQL the connection keeps
/// (least recently used ones are finalized first).
pub const STATEMENT_CACHE: usize = 256;

/// The longest stretch of SQL quoted in a failure message, in characters.
const SQL_IN_MESSAGE: usize = 200;

/// The open database of one interpreter (§15.1), kept with
/// [`Interpreter::set_ext`] and closed when the interpreter's run ends.
///
/// # Prepared statements of literal SQL
/// A `sqlite()` whose SQL is a string literal prepares it once (§15.4)
/// and keeps the statement in `stmts`, keyed by the SQL text, up to
/// [`STATEMENT_CACHE`] of them (a new one past that finalizes them all).
/// rusqlite's own cache (`prepare_cached`) does the same but, per use,
/// takes the statement out of its LRU map, copies the SQL into a new key
/// and hashes it twice: about 1,800 instructions per statement, a tenth
/// of the flagship WebSocket server's own work per message
/// (benches/RESULTS.md). Here a use is one hash lookup and the statement
/// stays in the map. `FESTINA_NO_STMT_CACHE` goes back to rusqlite's
/// cache. The statements borrow the connection, which is boxed (its
/// address never changes) and declared after them (dropped after them).
pub struct Db {
    /// Declared first: dropped (finalized) before the connection.
    stmts: RefCell<hashbrown::HashMap<Box<str>, Kept>>,
    /// Whether `stmts` is used (the switch).
    own_cache: bool,
    /// Whether result columns are read through `sqlite3_column_value`
    /// (see [`RawStmt`]; `FESTINA_NO_COLUMN_VALUE` off).
    column_value: bool,
    /// Whether a kept statement keeps its column matching between
    /// queries ([`Memo`]; `FESTINA_NO_MATCH_MEMO` off).
    match_memo: bool,
    /// Whether text columns are made by [`convert_on`] (recycled texts,
    /// the ASCII pass; `FESTINA_NO_TEXT_RECYCLE` off).
    text_recycle: bool,
    /// The rows of a query as they are read (kept for the next query).
    rows: RefCell<Vec<Value>>,
    /// Whether `rows` is used (`FESTINA_NO_RECYCLE` off).
    reuse_rows: bool,
    conn: Box<Connection>,
}

impl Db {
    /// The database of an open connection.
    pub fn new(conn: Connection) -> Db {
        Db {
            stmts: RefCell::new(hashbrown::HashMap::new()),
            own_cache: !festina_vm::switches::disabled(festina_vm::switches::NO_STMT_CACHE),
            column_value: !festina_vm::switches::disabled(festina_vm::switches::NO_COLUMN_VALUE),
            match_memo: !festina_vm::switches::disabled(festina_vm::switches::NO_MATCH_MEMO),
            text_recycle: !festina_vm::switches::disabled(festina_vm::switches::NO_TEXT_RECYCLE),
            rows: RefCell::new(Vec::new()),
            reuse_rows: !festina_vm::switches::disabled(festina_vm::switches::NO_RECYCLE),
            conn: Box::new(conn),
        }
    }

    /// The SQLite connection (for tests and embedders).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

/// The natives of this module, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "db_open",
            func: db_open,
        },
        NativeEntry {
            name: "sqlite_exec",
            func: sqlite_exec,
        },
        NativeEntry {
            name: "sqlite_query",
            func: sqlite_query,
        },
        NativeEntry {
            name: "row_set",
            func: row_set,
        },
        NativeEntry {
            name: "row_delete",
            func: row_delete,
        },
        NativeEntry {
            name: "row_undefined",
            func: row_undefined,
        },
    ]
}

// ---------------------------------------------------------------------------
// Opening and schema synchronisation

/// Open `path` (a file name, `:memory:` or a `file:` URI) in WAL mode with
/// `synchronous=NORMAL` and the busy timeout, and synchronise the schema
/// of `tables` (§15.1, §15.2). Errors: SQLite's message, prefixed with
/// what was being done.
pub fn open_database(path: &str, tables: &[Record]) -> Result<Connection, String> {
    let conn = Connection::open_with_flags(path, OpenFlags::default())
        .map_err(|e| format!("cannot open the database '{path}': {}", message(&e)))?;
    let setup = || -> rusqlite::Result<()> {
        conn.busy_timeout(Duration::from_millis(BUSY_TIMEOUT_MS))?;
        // The first statement that reads the file: a file that is not a
        // database fails here.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    };
    setup().map_err(|e| format!("cannot open the database '{path}': {}", message(&e)))?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    sync_schema(&conn, tables)
        .map_err(|e| format!("cannot synchronise the database '{path}': {e}"))?;
    Ok(conn)
}

/// The SQLite column type of a Festina column type (§15.3).
pub fn sql_type(ty: &Type) -> &'static str {
    match ty.strip_manual() {
        Type::Int | Type::Bool => "INTEGER",
        Type::Float => "REAL",
        Type::Text => "TEXT",
        _ => "BLOB",
    }
}

/// `name` as a quoted SQL identifier.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Bring every table of `tables` in line with its declaration, in one
/// transaction (§15.2; see the module documentation). Foreign-key
/// enforcement is off while tables are rebuilt and restored after.
fn sync_schema(conn: &Connection, tables: &[Record]) -> Result<(), String> {
    if tables.is_empty() {
        return Ok(());
    }
    let fk: i64 = conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .map_err(|e| message(&e))?;
    if fk != 0 {
        conn.execute_batch("PRAGMA foreign_keys=OFF")
            .map_err(|e| message(&e))?;
    }
    let result = (|| -> Result<(), String> {
        conn.execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| message(&e))?;
        for t in tables {
            sync_table(conn, t).map_err(|e| format!("table {}: {}", t.name, message(&e)))?;
        }
        conn.execute_batch("COMMIT").map_err(|e| message(&e))
    })();
    if result.is_err() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    if fk != 0 {
        let _ = conn.execute_batch("PRAGMA foreign_keys=ON");
    }
    result
}

/// The columns (name, declared type) of the database's table `name`, in
/// order; empty when there is no such table.
fn existing_columns(conn: &Connection, name: &str) -> rusqlite::Result<Vec<(String, String)>> {
    let mut st = conn.prepare("SELECT name, type FROM pragma_table_info(?1)")?;
    let rows = st.query_map([name], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    rows.collect()
}

/// Synchronise one table (inside the transaction of [`sync_schema`]).
fn sync_table(conn: &Connection, rec: &Record) -> rusqlite::Result<()> {
    let table = quote(&rec.name);
    let declared: Vec<(&str, &str)> = rec
        .fields
        .iter()
        .map(|f| (f.name.as_str(), sql_type(&f.ty)))
        .collect();
    let column_list = |decl: &[(&str, &str)]| {
        decl.iter()
            .map(|(n, t)| format!("{} {t}", quote(n)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let existing = existing_columns(conn, &rec.name)?;
    if existing.is_empty() {
        return conn.execute_batch(&format!(
            "CREATE TABLE {table} ({})",
            column_list(&declared)
        ));
    }
    let find = |name: &str| existing.iter().find(|(n, _)| n.eq_ignore_ascii_case(name));
    let dropped = existing
        .iter()
        .any(|(n, _)| !declared.iter().any(|(d, _)| d.eq_ignore_ascii_case(n)));
    let retyped = declared
        .iter()
        .any(|(n, t)| find(n).is_some_and(|(_, et)| !et.eq_ignore_ascii_case(t)));
    if !dropped && !retyped {
        for (n, t) in &declared {
            if find(n).is_none() {
                conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {} {t}", quote(n)))?;
            }
        }
        return Ok(());
    }
    // Rebuild through a new table, keeping every row (and its rowid) and
    // every column that survives.
    let tmp = quote(&format!("_festina_migrate_{}", rec.name));
    conn.execute_batch(&format!("DROP TABLE IF EXISTS {tmp}"))?;
    conn.execute_batch(&format!("CREATE TABLE {tmp} ({})", column_list(&declared)))?;
    let kept: Vec<String> = declared
        .iter()
        .filter(|(n, _)| find(n).is_some())
        .map(|(n, _)| quote(n))
        .collect();
    let mut cols = kept.join(", ");
    if !cols.is_empty() {
        cols.insert_str(0, ", ");
    }
    let with_rowid = format!("INSERT INTO {tmp} (rowid{cols}) SELECT rowid{cols} FROM {table}");
    if conn.execute_batch(&with_rowid).is_err() {
        // A table created WITHOUT ROWID by hand: copy the columns alone.
        if !kept.is_empty() {
            let k = kept.join(", ");
            conn.execute_batch(&format!("INSERT INTO {tmp} ({k}) SELECT {k} FROM {table}"))?;
        }
    }
    conn.execute_batch(&format!("DROP TABLE {table}"))?;
    conn.execute_batch(&format!("ALTER TABLE {tmp} RENAME TO {table}"))
}

/// `db_open(path)`: open the program's database and synchronise its
/// tables (§6.5 step 2). A null or empty path means [`DEFAULT_DATABASE`].
/// Errors: a runtime failure when the database cannot be opened or
/// synchronised.
fn db_open(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let path = match args.first() {
        Some(Value::Text(t)) if !t.as_str().is_empty() => t.as_str().to_string(),
        _ => DEFAULT_DATABASE.to_string(),
    };
    let program = std::sync::Arc::clone(it.program());
    let conn = open_database(&path, &program.tables).map_err(Trap::Fail)?;
    it.set_ext(Db::new(conn));
    Ok(Value::Null)
}

// ---------------------------------------------------------------------------
// Queries

/// A Festina value bound to a `?` parameter (§15.3): `null` (and the NaN
/// float null) binds SQL NULL, a `bool` 0 or 1, a `blob` its bytes, an
/// `img` its encoded bytes.
struct Param<'a>(&'a Value);

impl ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self.0 {
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Value::Float(f) if f.is_nan() => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Float(f) => ToSqlOutput::Borrowed(ValueRef::Real(*f)),
            Value::Bool(b) => ToSqlOutput::Borrowed(ValueRef::Integer(*b as i64)),
            Value::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_str().as_bytes())),
            Value::Ascii(a) => ToSqlOutput::Borrowed(ValueRef::Text(a)),
            // A blob's bytes, an image's or a clip's encoded file
            // (§15.3), through the handle, so that this module links no
            // image or audio code.
            Value::Handle(h) => match h.as_dyn().encoded_bytes() {
                Some(bytes) => ToSqlOutput::Owned(rusqlite::types::Value::Blob(bytes)),
                None => ToSqlOutput::Borrowed(ValueRef::Null),
            },
            _ => ToSqlOutput::Borrowed(ValueRef::Null),
        })
    }
}

/// A decoder of a media column's bytes.
type Decode = fn(&[u8]) -> Value;

/// How this interpreter decodes `img` and `aud` columns: set by
/// `img_columns` / `aud_columns` at start-up in a program that has them
/// (the canvas and audio facilities' decoders); `None` otherwise, or in a
/// build without the facility.
fn media_decoders(it: &mut Interpreter) -> (Option<Decode>, Option<Decode>) {
    #[cfg(feature = "canvas")]
    let img = it.ext_mut::<crate::canvas::ImgColumns>().map(|c| c.0);
    #[cfg(not(feature = "canvas"))]
    let img = None;
    #[cfg(feature = "audio")]
    let aud = it.ext_mut::<crate::audio::AudColumns>().map(|c| c.0);
    #[cfg(not(feature = "audio"))]
    let aud = None;
    let _ = it;
    (img, aud)
}

/// The value of an `img` or `aud` column (§15.3): its bytes (a BLOB, or a
/// TEXT) decoded, or `null` for SQL NULL, a number, bytes that do not
/// decode (§2.3), or no decoder.
fn media_column(v: ValueRef<'_>, decode: Option<Decode>) -> Value {
    match (v, decode) {
        (ValueRef::Blob(b) | ValueRef::Text(b), Some(decode)) => decode(b),
        _ => Value::Null,
    }
}

/// The arguments of a query native: SQL, whether it was a literal, the
/// type index (query form) and the parameters.
fn query_args(args: &[Value]) -> (&str, bool, i64, &[Value]) {
    let sql = args.first().and_then(Value::as_str).unwrap_or("");
    let mode = args.get(1).map_or(0, Value::as_int);
    let params = args.get(2..).unwrap_or(&[]);
    (sql, mode & 1 == 1, mode >> 1, params)
}

/// SQLite's own message for `e`, without the SQL rusqlite may append.
fn message(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        rusqlite::Error::SqliteFailure(_, Some(m)) => m.clone(),
        rusqlite::Error::MultipleStatement => {
            "one call runs one statement, and this SQL holds several".to_string()
        }
        rusqlite::Error::Empty => "the SQL holds no statement".to_string(),
        other => other.to_string(),
    }
}

/// `sqlite: <message> in '<sql>'`, the SQL shortened if long.
fn sql_error(e: impl std::fmt::Display, sql: &str) -> String {
    let flat: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let shown: String = if flat.chars().count() > SQL_IN_MESSAGE {
        let mut s: String = flat.chars().take(SQL_IN_MESSAGE).collect();
        s.push('…');
        s
    } else {
        flat
    };
    format!("sqlite: {e} in '{shown}'")
}

/// A kept statement of literal SQL and what is known about it.
struct Kept {
    st: Statement<'static>,
    memo: Memo,
}

/// What a statement's uses can share: its SQLite handle (see
/// [`RawStmt`]) and the matching of its result columns to the fields of
/// the last query's target ([`column_dests`]), with what it was made for.
/// A kept statement keeps it between uses; one prepared for one use has
/// a fresh one.
#[derive(Default)]
struct Memo {
    raw: Option<RawStmt>,
    dests: Option<(DestsFor, Vec<Dest>)>,
}

/// What a column matching was made for: the target (row or struct, and
/// its type id) and how many times SQLite had recompiled the statement
/// (`SQLITE_STMTSTATUS_REPREPARE`; a recompiled `SELECT *` may have other
/// columns, after the table changed).
#[derive(Clone, Copy, PartialEq, Eq)]
struct DestsFor {
    is_row: bool,
    id: u32,
    reprepares: i32,
}

/// The SQLite handle of a statement, for reading its result columns
/// with `sqlite3_column_value` (one C API call per column) instead of
/// rusqlite's `get_ref` (two or three: `sqlite3_column_type`, then
/// `sqlite3_column_int64`/`_double`/`_text` and `_bytes`, each of which
/// locates the column and checks for an allocation failure again). On the
/// flagship WebSocket server's ten rows of three columns that is 30 calls
/// instead of 70 per message (benches/RESULTS.md).
///
/// rusqlite does not give the handle of a `Statement`, so it is found
/// right after preparing: SQLite links a new statement at the head of its
/// connection's list, which `sqlite3_next_stmt(db, NULL)` returns. The
/// handle is taken only when that statement's SQL is the text just
/// prepared and its column count the `Statement`'s; otherwise (and with
/// `FESTINA_NO_COLUMN_VALUE`) columns are read through rusqlite.
#[derive(Clone, Copy)]
struct RawStmt(std::ptr::NonNull<rusqlite::ffi::sqlite3_stmt>);

impl RawStmt {
    /// The handle of `st`, just prepared from `sql` on `conn` (see the
    /// type's documentation), or `None` when it cannot be confirmed.
    fn of(conn: &Connection, st: &Statement<'_>, sql: &str) -> Option<RawStmt> {
        use rusqlite::ffi;
        // SAFETY: `conn.handle()` is the open connection's handle, used
        // only for these read-only calls while `conn` is borrowed; the
        // statement returned is live (it is on the connection's list) and
        // `sqlite3_sql` gives its NUL-terminated text (or NULL).
        unsafe {
            let p = std::ptr::NonNull::new(ffi::sqlite3_next_stmt(
                conn.handle(),
                std::ptr::null_mut(),
            ))?;
            let text = ffi::sqlite3_sql(p.as_ptr());
            if text.is_null() || std::ffi::CStr::from_ptr(text).to_bytes() != sql.as_bytes() {
                return None;
            }
            let cols = ffi::sqlite3_column_count(p.as_ptr());
            (usize::try_from(cols).ok() == Some(st.column_count())).then_some(RawStmt(p))
        }
    }

    /// Result column `col` of the current row, as rusqlite's
    /// `Row::get_ref` gives it.
    ///
    /// # Safety
    /// `self` is the handle of the statement whose row `_row` is (the
    /// row being the current one, so the value stays valid while `_row`
    /// is borrowed), and `col` is below its column count.
    unsafe fn column<'r>(self, _row: &'r rusqlite::Row<'_>, col: usize) -> ValueRef<'r> {
        use rusqlite::ffi;
        let Ok(col) = std::ffi::c_int::try_from(col) else {
            return ValueRef::Null;
        };
        let v = ffi::sqlite3_column_value(self.0.as_ptr(), col);
        if v.is_null() {
            return ValueRef::Null;
        }
        match ffi::sqlite3_value_type(v) {
            ffi::SQLITE_INTEGER => ValueRef::Integer(ffi::sqlite3_value_int64(v)),
            ffi::SQLITE_FLOAT => ValueRef::Real(ffi::sqlite3_value_double(v)),
            ffi::SQLITE_TEXT => {
                // The text first, then its length (SQLite's advice: the
                // text call may convert the value).
                let t = ffi::sqlite3_value_text(v);
                let n = usize::try_from(ffi::sqlite3_value_bytes(v)).unwrap_or(0);
                if t.is_null() {
                    // Out of memory converting it: nothing to read.
                    ValueRef::Null
                } else {
                    ValueRef::Text(std::slice::from_raw_parts(t, n))
                }
            }
            ffi::SQLITE_BLOB => {
                let b = ffi::sqlite3_value_blob(v);
                let n = usize::try_from(ffi::sqlite3_value_bytes(v)).unwrap_or(0);
                if b.is_null() || n == 0 {
                    ValueRef::Blob(&[])
                } else {
                    ValueRef::Blob(std::slice::from_raw_parts(b.cast::<u8>(), n))
                }
            }
            _ => ValueRef::Null,
        }
    }
}

/// Result column `col` of `row`: through the statement's handle when
/// there is one ([`RawStmt`]), else through rusqlite.
fn column<'r>(
    raw: Option<RawStmt>,
    row: &'r rusqlite::Row<'_>,
    col: usize,
    ncols: usize,
) -> rusqlite::Result<ValueRef<'r>> {
    match raw {
        // SAFETY: `raw` is the handle of the statement `row` belongs to
        // (given by `with_statement` with that statement), `row` is its
        // current row, and `col < ncols`, its column count.
        Some(raw) if col < ncols => Ok(unsafe { raw.column(row, col) }),
        _ => row.get_ref(col),
    }
}

/// Prepare `sql` (kept when `literal`, see [`Db`]), bind `params` and
/// hand the statement to `f`, with its handle when it is known
/// ([`RawStmt`]). Errors: SQLite's message (see [`sql_error`]).
fn with_statement<R>(
    db: &Db,
    sql: &str,
    literal: bool,
    params: &[Value],
    f: impl FnOnce(&mut Statement<'_>, &mut Memo) -> rusqlite::Result<R>,
) -> Result<R, String> {
    let run = |st: &mut Statement<'_>, memo: &mut Memo| -> Result<R, String> {
        let want = st.parameter_count();
        if want != params.len() {
            return Err(sql_error(
                format!(
                    "the statement has {want} parameter{} but {} value{} given",
                    if want == 1 { "" } else { "s" },
                    params.len(),
                    if params.len() == 1 { " was" } else { "s were" }
                ),
                sql,
            ));
        }
        for (i, p) in params.iter().enumerate() {
            st.raw_bind_parameter(i + 1, Param(p))
                .map_err(|e| sql_error(message(&e), sql))?;
        }
        f(st, memo).map_err(|e| sql_error(message(&e), sql))
    };
    let conn = &db.conn;
    if !literal {
        let mut st = conn.prepare(sql).map_err(|e| sql_error(message(&e), sql))?;
        return run(&mut st, &mut Memo::default());
    }
    // `f` runs no Festina code, so the map is never borrowed twice; if
    // it were, the statement is prepared afresh.
    let cache = if db.own_cache {
        db.stmts.try_borrow_mut().ok()
    } else {
        None
    };
    let Some(mut stmts) = cache else {
        let mut st = conn
            .prepare_cached(sql)
            .map_err(|e| sql_error(message(&e), sql))?;
        return run(&mut st, &mut Memo::default());
    };
    // The key and the prepared text are trimmed, as rusqlite's
    // `prepare_cached` does.
    let key = sql.trim();
    if let Some(k) = stmts.get_mut(key) {
        let result = run(&mut k.st, &mut k.memo);
        // As rusqlite's cache does when a statement comes back: no value
        // stays bound between uses.
        k.st.clear_bindings();
        return result;
    }
    {
        let st = conn
            .prepare_with_flags(key, rusqlite::PrepFlags::SQLITE_PREPARE_PERSISTENT)
            .map_err(|e| sql_error(message(&e), sql))?;
        let raw = if db.column_value {
            RawStmt::of(conn, &st, key)
        } else {
            None
        };
        // SAFETY: the statement borrows `*db.conn`, a boxed connection
        // whose address never changes; it is kept in `db.stmts`, which
        // is declared before `conn` in `Db` and so dropped (finalized)
        // before the connection closes, and is only used through `db`.
        // Tested by `tests::kept_statements_run_again_and_close`.
        let st: Statement<'static> = unsafe { std::mem::transmute(st) };
        if stmts.len() >= STATEMENT_CACHE {
            stmts.clear();
        }
        stmts.insert(
            key.into(),
            Kept {
                st,
                memo: Memo { raw, dests: None },
            },
        );
    }
    let k = stmts
        .get_mut(key)
        .ok_or_else(|| sql_error("the prepared statement was lost", sql))?;
    let result = run(&mut k.st, &mut k.memo);
    // As rusqlite's cache does when a statement comes back: no value
    // stays bound between uses.
    k.st.clear_bindings();
    result
}

/// The open database, or the failure for a program run without one.
fn db_of(it: &mut Interpreter) -> Result<&mut Db, String> {
    it.ext_mut::<Db>()
        .ok_or_else(|| "sqlite: the database is not open".to_string())
}

/// `sqlite(sql[, params])` as a statement: run it, stepping through (and
/// discarding) any rows (§15.4). Errors: a runtime failure (module docs).
fn sqlite_exec(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let (sql, literal, _, params) = query_args(args);
    let result = db_of(it).and_then(|db| {
        with_statement(db, sql, literal, params, |st, _| {
            let mut rows = st.raw_query();
            while rows.next()?.is_some() {}
            Ok(())
        })
    });
    match result {
        Ok(()) => Ok(Value::Null),
        Err(m) => Err(Trap::Fail(format!("{m} at {}", it.location()))),
    }
}

/// Where a result column goes.
#[derive(Clone, Copy)]
enum Dest {
    /// Field (column) index of the target.
    Field(usize),
    /// The row's `rowid`.
    Rowid,
    /// Nowhere: the target has no field of that name.
    Skip,
}

/// Match result columns to the fields of `rec` by name, ignoring ASCII
/// case (§15.5); `rowid_ok` also routes a `rowid` column.
fn column_dests(st: &Statement<'_>, rec: &Record, rowid_ok: bool) -> Vec<Dest> {
    let mut taken = vec![false; rec.fields.len()];
    let mut rowid_taken = false;
    (0..st.column_count())
        .map(|c| {
            // A name that is not UTF-8 matches no field.
            let name = st.column_name(c).unwrap_or("");
            match rec
                .fields
                .iter()
                .position(|f| f.name.eq_ignore_ascii_case(name))
            {
                Some(i) if !taken[i] => {
                    taken[i] = true;
                    Dest::Field(i)
                }
                Some(_) => Dest::Skip,
                None if rowid_ok
                    && !rowid_taken
                    && ["rowid", "oid", "_rowid_"]
                        .iter()
                        .any(|r| r.eq_ignore_ascii_case(name)) =>
                {
                    rowid_taken = true;
                    Dest::Rowid
                }
                None => Dest::Skip,
            }
        })
        .collect()
}

/// `arr[T] rows = sqlite(sql[, params])`: the rows, as table rows or
/// structs of the target type (§15.5). Errors: a runtime failure (module
/// docs).
fn sqlite_query(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let (sql, literal, tidx, params) = query_args(args);
    let program = std::sync::Arc::clone(it.program());
    let heap = Rc::clone(it.heap());
    let target = usize::try_from(tidx)
        .ok()
        .and_then(|i| program.types.get(i))
        .and_then(|t| t.elem())
        .cloned();
    let (is_row, id, rec) = match &target {
        Some(Type::Table(t)) => (true, *t, program.tables.get(*t as usize)),
        Some(Type::Struct(s)) => (false, *s, program.structs.get(*s as usize)),
        _ => (false, 0, None),
    };
    let Some(rec) = rec else {
        return Err(Trap::Fail(format!(
            "sqlite: no result type for this query at {}",
            it.location()
        )));
    };
    let ncols = rec.fields.len();
    let (img, aud) = media_decoders(it);
    let result = db_of(it).and_then(|db| {
        with_statement(db, sql, literal, params, |st, memo| {
            let raw = memo.raw;
            // Matched at the first row, not before: a kept statement whose
            // table changed since it was compiled (a column added, say) is
            // compiled again by that first step, and only then do its
            // columns name the table as it is now. A kept statement keeps
            // its matching for the next query of the same target while
            // SQLite has not recompiled it (`FESTINA_NO_MATCH_MEMO`: each
            // query matches afresh).
            let mut matched = false;
            // Every row starts from these slots (in recycled memory when
            // the heap has some: `Heap::fields_like`).
            let template = if is_row {
                row::empty_slots(ncols)
            } else {
                rec.fields
                    .iter()
                    .map(|f| null_of(&f.ty))
                    .collect::<Vec<_>>()
            };
            // The rows collect in the database's reused buffer and move
            // into an array of exactly their number (one allocation,
            // instead of a vector grown by doubling); a fresh vector when
            // the buffer is in use or with `FESTINA_NO_RECYCLE`.
            let mut scratch = if db.reuse_rows {
                db.rows.try_borrow_mut().ok()
            } else {
                None
            };
            let reused = scratch.is_some();
            let mut fresh = Vec::new();
            let out = scratch.as_deref_mut().unwrap_or(&mut fresh);
            out.clear();
            // A failed step or column leaves nothing in the buffer.
            let mut fill = |out: &mut Vec<Value>| -> rusqlite::Result<()> {
                let mut rows = st.raw_query();
                while let Some(r) = rows.next()? {
                    if !matched {
                        let made_for = DestsFor {
                            is_row,
                            id,
                            reprepares: r.as_ref().get_status(rusqlite::StatementStatus::RePrepare),
                        };
                        if !db.match_memo || memo.dests.as_ref().map(|d| d.0) != Some(made_for) {
                            memo.dests = Some((made_for, column_dests(r.as_ref(), rec, is_row)));
                        }
                        matched = true;
                    }
                    let dests: &[Dest] = memo.dests.as_ref().map_or(&[], |d| &d.1);
                    let width = dests.len();
                    let mut slots = heap.fields_like(&template);
                    for (j, d) in dests.iter().enumerate() {
                        match *d {
                            Dest::Field(i) => {
                                let v = column(raw, r, j, width)?;
                                slots[i] = match rec.fields[i].ty {
                                    Type::Img => media_column(v, img),
                                    Type::Aud => media_column(v, aud),
                                    ref ty if db.text_recycle => convert_on(&heap, v, ty),
                                    ref ty => convert(v, ty),
                                };
                                if is_row {
                                    row::mark_in_slots(&mut slots, ncols, i, true);
                                }
                            }
                            Dest::Rowid => {
                                slots[row::rowid_slot(ncols)] = match column(raw, r, j, width)? {
                                    ValueRef::Integer(i) => Value::Int(i),
                                    _ => Value::Null,
                                }
                            }
                            Dest::Skip => {}
                        }
                    }
                    out.push(if is_row {
                        row::new_row(&heap, id, slots)
                    } else {
                        Value::Struct(heap.new_struct(id, false, slots, false))
                    });
                }
                Ok(())
            };
            if let Err(e) = fill(&mut *out) {
                out.clear();
                return Err(e);
            }
            Ok(if reused {
                // Moved out, the buffer keeping its capacity.
                let mut items = Vec::with_capacity(out.len());
                items.append(out);
                items
            } else {
                fresh
            })
        })
    });
    match result {
        Ok(items) => Ok(it.new_arr(items)),
        Err(m) => Err(Trap::Fail(format!("{m} at {}", it.location()))),
    }
}

/// The `null` of a field of type `ty` (the NaN for `float`, §8.2).
fn null_of(ty: &Type) -> Value {
    match ty {
        Type::Float => Value::Float(f64::NAN),
        _ => Value::Null,
    }
}

/// A database value as a Festina value of type `ty` (§15.3; the
/// conversions are listed in the module documentation).
pub fn convert(v: ValueRef<'_>, ty: &Type) -> Value {
    match (ty.strip_manual(), v) {
        (t, ValueRef::Null) => null_of(t),
        (Type::Int, ValueRef::Integer(i)) => Value::Int(i),
        (Type::Int, ValueRef::Real(f)) => real_to_int(f),
        (Type::Int, ValueRef::Text(b) | ValueRef::Blob(b)) => match parse_number(b) {
            Some(Num::Int(i)) => Value::Int(i),
            Some(Num::Real(f)) => real_to_int(f),
            None => Value::Null,
        },
        (Type::Float, ValueRef::Integer(i)) => Value::Float(i as f64),
        (Type::Float, ValueRef::Real(f)) => Value::Float(f),
        (Type::Float, ValueRef::Text(b) | ValueRef::Blob(b)) => match parse_number(b) {
            Some(Num::Int(i)) => Value::Float(i as f64),
            Some(Num::Real(f)) => Value::Float(f),
            None => Value::Float(f64::NAN),
        },
        (Type::Bool, ValueRef::Integer(i)) => Value::Bool(i != 0),
        (Type::Bool, ValueRef::Real(f)) => Value::Bool(f != 0.0),
        (Type::Bool, ValueRef::Text(b) | ValueRef::Blob(b)) => {
            let s = String::from_utf8_lossy(b);
            let s = s.trim();
            if s.eq_ignore_ascii_case("true") {
                Value::Bool(true)
            } else if s.eq_ignore_ascii_case("false") {
                Value::Bool(false)
            } else {
                match parse_number(s.as_bytes()) {
                    Some(Num::Int(i)) => Value::Bool(i != 0),
                    Some(Num::Real(f)) => Value::Bool(f != 0.0),
                    None => Value::Null,
                }
            }
        }
        (Type::Text, ValueRef::Integer(i)) => Value::text(i.to_string()),
        (Type::Text, ValueRef::Real(f)) => Value::text(real_text(f)),
        (Type::Text, ValueRef::Text(b) | ValueRef::Blob(b)) => {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            // Valid UTF-8 (the usual case) is copied as it is; the lossy
            // conversion's chunked walk is only for the rest.
            let b = &b[..end];
            Value::text(match std::str::from_utf8(b) {
                Ok(t) => t.to_owned(),
                Err(_) => String::from_utf8_lossy(b).into_owned(),
            })
        }
        (Type::Blob, ValueRef::Blob(b) | ValueRef::Text(b)) => {
            Value::handle(BlobObj::new(b.to_vec(), None))
        }
        (Type::Blob, ValueRef::Integer(i)) => {
            Value::handle(BlobObj::new(i.to_string().into_bytes(), None))
        }
        (Type::Blob, ValueRef::Real(f)) => {
            Value::handle(BlobObj::new(real_text(f).into_bytes(), None))
        }
        // `img` and `aud` columns are decoded by `media_column`.
        _ => Value::Null,
    }
}

/// [`convert`], with a text column's valid UTF-8 (the usual case) made
/// in the heap's recycled text memory ([`festina_vm::heap::Heap::text`]).
///
/// Plain ASCII without a NUL (what column texts mostly are) is found by
/// one pass over the bytes; the UTF-8 check that a general text needs
/// costs several times that on a short one.
fn convert_on(heap: &festina_vm::heap::Heap, v: ValueRef<'_>, ty: &Type) -> Value {
    let ty_ = ty.strip_manual();
    // A number into a field of its own type (the usual case), at once.
    match (ty_, v) {
        (Type::Int, ValueRef::Integer(i)) => return Value::Int(i),
        (Type::Float, ValueRef::Real(f)) => return Value::Float(f),
        _ => {}
    }
    if let (Type::Text, ValueRef::Text(b)) = (ty_, v) {
        // Bytes 1 to 0x7f: ASCII, and no NUL (where `convert` stops).
        if b.iter().all(|&c| c.wrapping_sub(1) < 0x7f) {
            // SAFETY: every byte is ASCII, and ASCII is UTF-8 (tested by
            // `tests::text_columns_in_recycled_texts`).
            return heap.text(unsafe { std::str::from_utf8_unchecked(b) });
        }
        if !b.contains(&0) {
            if let Ok(t) = std::str::from_utf8(b) {
                return heap.text(t);
            }
        }
    }
    convert(v, ty)
}

/// A real truncated toward zero, or `null` when not finite.
fn real_to_int(f: f64) -> Value {
    if f.is_finite() {
        Value::Int(f as i64)
    } else {
        Value::Null
    }
}

/// The text of a real read into a `text` field: whole numbers below 1e15
/// keep one decimal (`2.0`, as SQLite prints them), others the shortest
/// text that reads back as the same number.
fn real_text(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

/// A number parsed from text.
enum Num {
    Int(i64),
    Real(f64),
}

/// The number a whole text spells (surrounding ASCII whitespace allowed),
/// if any.
fn parse_number(b: &[u8]) -> Option<Num> {
    let s = std::str::from_utf8(b).ok()?.trim();
    if let Ok(i) = s.parse::<i64>() {
        return Some(Num::Int(i));
    }
    let looks_numeric = !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if looks_numeric {
        s.parse::<f64>().ok().map(Num::Real)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------
// Rows

/// Table id and column index arguments of a row native, with the
/// table's declaration.
fn row_target<'p>(program: &'p Program, args: &[Value]) -> Option<(&'p Record, usize)> {
    let tid = usize::try_from(args.get(1)?.as_int()).ok()?;
    let rec = program.tables.get(tid)?;
    let col = usize::try_from(args.get(2)?.as_int()).ok()?;
    (col < rec.fields.len()).then_some((rec, col))
}

/// `row.col = v` (§9.11 on a row): set the column and mark it defined.
/// Errors: a runtime failure for a null row.
fn row_set(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let program = std::sync::Arc::clone(it.program());
    let Some((rec, col)) = row_target(&program, args) else {
        return Ok(Value::Null);
    };
    match args.first() {
        Some(Value::Struct(r)) if r.is_row() => {
            let v = args.get(3).cloned().unwrap_or(Value::Null);
            r.set(col, v);
            row::set_defined(r, rec.fields.len(), col, true);
            Ok(Value::Null)
        }
        _ => Err(Trap::Fail(format!(
            "field '{}' written through null at {}",
            rec.fields[col].name,
            it.location()
        ))),
    }
}

/// `delete row.col` (§10.11): the column becomes `null` and undefined.
/// Errors: a runtime failure for a null row.
fn row_delete(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let program = std::sync::Arc::clone(it.program());
    let Some((rec, col)) = row_target(&program, args) else {
        return Ok(Value::Null);
    };
    match args.first() {
        Some(Value::Struct(r)) if r.is_row() => {
            r.set(col, null_of(&rec.fields[col].ty));
            row::set_defined(r, rec.fields.len(), col, false);
            Ok(Value::Null)
        }
        _ => Err(Trap::Fail(format!(
            "field '{}' deleted through null at {}",
            rec.fields[col].name,
            it.location()
        ))),
    }
}

/// `row.undefined(col)` (§15.5): whether column `col` (matched exactly,
/// else ignoring ASCII case) was left out of the query or deleted.
/// Errors: a runtime failure for a column the table does not declare or a
/// null row.
fn row_undefined(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let program = std::sync::Arc::clone(it.program());
    let tid = args.get(1).map_or(-1, Value::as_int);
    let Some(rec) = usize::try_from(tid)
        .ok()
        .and_then(|t| program.tables.get(t))
    else {
        return Ok(Value::Bool(true));
    };
    let name = args.get(2).and_then(Value::as_str).unwrap_or("");
    let col = rec.fields.iter().position(|f| f.name == name).or_else(|| {
        rec.fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
    });
    let Some(col) = col else {
        return Err(Trap::Fail(format!(
            "undefined('{name}'): table {} has no column '{name}' at {}",
            rec.name,
            it.location()
        )));
    };
    match args.first() {
        Some(Value::Struct(r)) if r.is_row() => {
            Ok(Value::Bool(!row::is_defined(r, rec.fields.len(), col)))
        }
        _ => Err(Trap::Fail(format!(
            "undefined('{name}') called on a null {} row at {}",
            rec.name,
            it.location()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_statements_run_again_and_close() {
        let db = Db::new(open_database(":memory:", &[]).unwrap());
        let exec = |sql: &str, params: &[Value]| {
            with_statement(&db, sql, true, params, |st, _| {
                let mut rows = st.raw_query();
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    out.push(r.get::<_, i64>(0)?);
                }
                Ok(out)
            })
        };
        exec("CREATE TABLE t (a INTEGER)", &[]).unwrap();
        for i in 0..5 {
            exec(" INSERT INTO t (a) VALUES (?) ", &[Value::Int(i)]).unwrap();
        }
        assert_eq!(
            exec("SELECT a FROM t ORDER BY a", &[]).unwrap(),
            vec![0, 1, 2, 3, 4]
        );
        // A wrong parameter count and bad SQL fail with SQLite's message;
        // the kept statement still works after a failure.
        let e = exec(" INSERT INTO t (a) VALUES (?) ", &[]).unwrap_err();
        assert!(e.contains("has 1 parameter but 0 values were given"), "{e}");
        assert!(exec("SELEC 1", &[]).unwrap_err().contains("syntax error"));
        exec("INSERT INTO t (a) VALUES (?)", &[Value::Int(9)]).unwrap();
        assert_eq!(exec("SELECT count(*) FROM t", &[]).unwrap(), vec![6]);
        if db.own_cache {
            assert_eq!(db.stmts.borrow().len(), 4);
        }
        // Past the limit the kept statements are finalized and made again.
        for i in 0..STATEMENT_CACHE + 3 {
            assert_eq!(exec(&format!("SELECT {i}"), &[]).unwrap(), vec![i as i64]);
        }
        assert!(db.stmts.borrow().len() <= STATEMENT_CACHE);
        assert_eq!(exec("SELECT count(*) FROM t", &[]).unwrap(), vec![6]);
        // Dropping the database finalizes the statements, then closes.
        drop(db);
    }

    /// Columns read through the statement's handle ([`RawStmt`]) are
    /// what rusqlite's `get_ref` reads, for every storage class; the
    /// handle is found for a kept statement, and re-found after the cap
    /// finalized the kept ones.
    #[test]
    fn columns_through_the_handle_match_rusqlite() {
        let db = Db::new(open_database(":memory:", &[]).unwrap());
        let sql = "SELECT 7, -2.5, 'caf\u{e9}', x'00ff10', NULL, '', x''";
        let check = || {
            with_statement(&db, sql, true, &[], |st, memo| {
                assert_eq!(memo.raw.is_some(), db.column_value);
                let n = st.column_count();
                let mut rows = st.raw_query();
                let mut seen = 0;
                while let Some(r) = rows.next()? {
                    for j in 0..n {
                        assert_eq!(column(memo.raw, r, j, n)?, r.get_ref(j)?, "column {j}");
                    }
                    // Past the last column: rusqlite's error, not a read.
                    assert!(column(memo.raw, r, n, n).is_err());
                    seen += 1;
                }
                Ok(seen)
            })
            .unwrap()
        };
        assert_eq!(check(), 1);
        assert_eq!(check(), 1);
        for i in 0..STATEMENT_CACHE + 1 {
            with_statement(&db, &format!("SELECT {i}"), true, &[], |_, _| Ok(())).unwrap();
        }
        assert_eq!(check(), 1);
    }

    /// A text column becomes the same text through the heap's recycled
    /// texts as through `convert`: ASCII, other UTF-8, a NUL, invalid
    /// UTF-8, and not a text.
    #[test]
    fn text_columns_in_recycled_texts() {
        let heap = festina_vm::heap::Heap::new();
        let cases: [&[u8]; 6] = [
            b"load-7",
            b"",
            "caf\u{e9} \u{1f600}".as_bytes(),
            b"a\0b",
            b"\xff\xfeok",
            b"\x7f~ ",
        ];
        for b in cases {
            for _ in 0..2 {
                // A dead struct's texts (one long, one non-ASCII) go to
                // the heap's recycled texts, and the column reuses one.
                let old = [
                    Value::text("an older and longer text"),
                    Value::text("\u{e9}t\u{e9}"),
                ];
                drop(heap.new_struct(0, false, old.into(), false));
                let got = convert_on(&heap, ValueRef::Text(b), &Type::Text);
                let want = convert(ValueRef::Text(b), &Type::Text);
                assert_eq!(got, want, "{b:?}");
                if let (Value::Text(g), Value::Text(w)) = (&got, &want) {
                    assert_eq!(g.char_len(), w.char_len(), "{b:?}");
                }
            }
        }
        assert_eq!(
            convert_on(&heap, ValueRef::Integer(5), &Type::Text).as_str(),
            Some("5")
        );
    }

    #[test]
    fn conversions_follow_affinity() {
        assert_eq!(convert(ValueRef::Real(2.9), &Type::Int), Value::Int(2));
        assert_eq!(convert(ValueRef::Text(b" 42 "), &Type::Int), Value::Int(42));
        assert_eq!(convert(ValueRef::Text(b"abc"), &Type::Int), Value::Null);
        assert_eq!(
            convert(ValueRef::Integer(0), &Type::Bool),
            Value::Bool(false)
        );
        assert_eq!(
            convert(ValueRef::Real(2.0), &Type::Text).as_str(),
            Some("2.0")
        );
        assert_eq!(
            convert(ValueRef::Real(0.1), &Type::Text).as_str(),
            Some("0.1")
        );
        assert_eq!(
            convert(ValueRef::Text(b"a\0b"), &Type::Text).as_str(),
            Some("a")
        );
        assert!(convert(ValueRef::Null, &Type::Float).as_float().is_nan());
        assert_eq!(convert(ValueRef::Null, &Type::Int), Value::Null);
    }

    #[test]
    fn migration_keeps_rows_and_rowids() {
        use festina_vm::program::Field;
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (a INTEGER, gone TEXT, b TEXT);
             INSERT INTO t (rowid, a, gone, b) VALUES (7, 1, 'x', '12'), (9, 2, 'y', 'abc');",
        )
        .unwrap();
        let rec = Record {
            name: "t".into(),
            fields: vec![
                Field {
                    name: "A".into(),
                    ty: Type::Int,
                },
                Field {
                    name: "b".into(),
                    ty: Type::Int,
                },
                Field {
                    name: "c".into(),
                    ty: Type::Float,
                },
            ],
            may_cycle: false,
        };
        sync_schema(&conn, std::slice::from_ref(&rec)).unwrap();
        let cols = existing_columns(&conn, "t").unwrap();
        assert_eq!(cols.len(), 3);
        let rows: Vec<(i64, i64, String)> = conn
            .prepare("SELECT rowid, a, CAST(b AS TEXT) FROM t ORDER BY rowid")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(rows, vec![(7, 1, "12".into()), (9, 2, "abc".into())]);
        // Unchanged declaration: nothing to do, and it stays so.
        sync_schema(&conn, std::slice::from_ref(&rec)).unwrap();
        assert_eq!(existing_columns(&conn, "t").unwrap(), cols);
    }
}
