//! Tests of `festina compile` and of bundles, over real processes: the
//! bundle's layout, running it from an empty directory with no `festina`
//! and no sources, the choice of runtime (the smallest runtime of the
//! same build with the facilities the program's natives need, else
//! `festina` itself), argument/environment/exit-status/stream
//! passthrough, refusal of truncated, corrupted and incompatible bundles,
//! and `ldd` of every runtime showing no graphics or audio library where
//! its facilities do not call for one. The bundle format is documented in
//! `festina-cli/src/bundle.rs`; these tests read and forge it byte by
//! byte.

use festina_vm::serialize::{instruction_set_fingerprint, FORMAT_VERSION};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

const TRAILER_LEN: usize = 40;
const MAGIC: &[u8; 8] = b"FSTBUNDL";

const HELLO: &str = "log('Hello from a bundle')\n";

/// Prints each argument in brackets, then exits with the number of them.
const ARGS: &str = "\
for int i = 0, i < argv.length, i++ {
    log(`[${argv[i]}]`)
}
close(argv.length)
";

fn festina() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_festina"))
}

/// The runtime with every facility.
fn festina_runtime() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_festina-runtime"))
}

/// The runtimes, in the order of `festina_cli::bundle::RUNTIMES`, with
/// the facilities each must report.
fn runtimes() -> [(&'static str, PathBuf, &'static str); 6] {
    [
        (
            "festina-runtime-core",
            PathBuf::from(env!("CARGO_BIN_EXE_festina-runtime-core")),
            "core",
        ),
        (
            "festina-runtime-db",
            PathBuf::from(env!("CARGO_BIN_EXE_festina-runtime-db")),
            "core,database",
        ),
        (
            "festina-runtime-http",
            PathBuf::from(env!("CARGO_BIN_EXE_festina-runtime-http")),
            "core,net",
        ),
        (
            "festina-runtime-canvas",
            PathBuf::from(env!("CARGO_BIN_EXE_festina-runtime-canvas")),
            "core,net,canvas",
        ),
        (
            "festina-runtime-net",
            PathBuf::from(env!("CARGO_BIN_EXE_festina-runtime-net")),
            "core,database,net",
        ),
        ("festina-runtime", festina_runtime(), ALL_FACILITIES),
    ]
}

/// The facilities of `festina-runtime`.
const ALL_FACILITIES: &str = "core,database,net,canvas,window,audio";

/// A program that plays a sound: a clip from a background load of a
/// missing file, which is silent (§12.5), so that it needs no media.
const SOUND: &str = "\
void func loaded(a:aud) {
    log(`channel ${a.play()}`)
}
aud 'missing.wav'.callback(loaded)
";

/// The runtime named `name`.
fn runtime(name: &str) -> PathBuf {
    runtimes()
        .into_iter()
        .find(|r| r.0 == name)
        .map(|r| r.1)
        .expect("a runtime of the table")
}

/// A program that opens the database (its natives are in the database
/// facility).
const DB: &str = "DatabaseURL = ':memory:'\ntable Note {\n    body:text\n}\nsqlite('INSERT INTO Note (body) VALUES (?)', ['hi'])\narr[Note] notes = sqlite('SELECT * FROM Note')\nlog(notes)\n";

/// A program whose natives are in the network facility (it answers HTTP
/// requests and parses a URL, then ends: it opens no port).
const SERVER: &str =
    "on request(req:http) {\n    req.ok()\n}\nlog(parseURL('http://x:81/').port)\n";

/// A server that also keeps a table: the network and the database.
const DB_SERVER: &str = "DatabaseURL = ':memory:'\ntable Hit {\n    path:text\n}\non request(req:http) {\n    sqlite('INSERT INTO Hit (path) VALUES (?)', [req.url])\n    req.ok()\n}\nlog(parseURL('http://x:82/').port)\n";

/// Bytes that every build of SQLite carries (the header of its database
/// files): present in a runtime exactly when SQLite is linked into it.
const SQLITE_MARK: &[u8] = b"SQLite format 3";

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A fresh directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "festina-bundle-test-{}-{n}-{label}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.join(name);
        fs::write(&path, text).expect("write file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// What a process did.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// Spawn with stdin from /dev/null unless set, retrying "text file busy"
/// (a bundle this test process just wrote, whose descriptor a process
/// spawned by another test thread briefly inherited).
fn output(command: &mut Command) -> Run {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let out = spawn_retrying(|| command.output());
    to_run(out)
}

fn to_run(out: Output) -> Run {
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

fn spawn_retrying<T>(mut f: impl FnMut() -> io::Result<T>) -> T {
    let mut attempt = 0;
    loop {
        match f() {
            Err(e) if e.kind() == io::ErrorKind::ExecutableFileBusy && attempt < 50 => {
                attempt += 1;
                thread::sleep(Duration::from_millis(10));
            }
            result => return result.expect("spawn"),
        }
    }
}

/// `festina compile <source> -o <out>` in `dir`, which must succeed.
fn compile(dir: &Path, source: &str, out: &str) -> PathBuf {
    let run = output(
        Command::new(festina())
            .args(["compile", source, "-o", out])
            .current_dir(dir)
            .stdin(Stdio::null()),
    );
    assert_eq!(run.code, Some(0), "festina compile failed: {run:?}");
    assert_eq!(run.stdout, "", "festina compile must keep stdout clean");
    dir.join(out)
}

/// Write `text` to `dir/name.f` and compile it to `dir/name`.
fn bundle_of(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    dir.write(&format!("{name}.f"), text);
    compile(dir.path(), &format!("{name}.f"), name)
}

fn run_in(dir: &Path, program: &Path, args: &[&str]) -> Run {
    output(
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null()),
    )
}

/// Write `bytes` as an executable file.
fn write_executable(path: &Path, bytes: &[u8]) {
    let mut file = fs::File::create(path).expect("create");
    file.write_all(bytes).expect("write");
    drop(file);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// The parts of a bundle file, read by the documented layout.
struct Parts {
    runtime: Vec<u8>,
    payload: Vec<u8>,
}

fn split(bytes: &[u8]) -> Parts {
    assert!(bytes.len() > TRAILER_LEN);
    let t = &bytes[bytes.len() - TRAILER_LEN..];
    assert_eq!(&t[32..40], MAGIC, "a bundle ends with the magic");
    let runtime_len = u64::from_le_bytes(t[0..8].try_into().unwrap()) as usize;
    let payload_len = u64::from_le_bytes(t[8..16].try_into().unwrap()) as usize;
    assert_eq!(runtime_len + payload_len + TRAILER_LEN, bytes.len());
    Parts {
        runtime: bytes[..runtime_len].to_vec(),
        payload: bytes[runtime_len..runtime_len + payload_len].to_vec(),
    }
}

/// Assemble a bundle by the documented layout, with the given versions.
fn assemble(parts: &Parts, bytecode_version: u32, bundle_version: u32) -> Vec<u8> {
    let mut t = [0u8; TRAILER_LEN];
    t[0..8].copy_from_slice(&(parts.runtime.len() as u64).to_le_bytes());
    t[8..16].copy_from_slice(&(parts.payload.len() as u64).to_le_bytes());
    t[16..20].copy_from_slice(&crc32fast::hash(&parts.payload).to_le_bytes());
    t[20..24].copy_from_slice(&bytecode_version.to_le_bytes());
    let crc = crc32fast::hash(&t[0..24]);
    t[24..28].copy_from_slice(&crc.to_le_bytes());
    t[28..32].copy_from_slice(&bundle_version.to_le_bytes());
    t[32..40].copy_from_slice(MAGIC);
    let mut out = parts.runtime.clone();
    out.extend_from_slice(&parts.payload);
    out.extend_from_slice(&t);
    out
}

/// A refused bundle: status 2, nothing on stdout, one `festina: ...` line
/// on stderr starting with `prefix`, no panic.
fn assert_refused(run: &Run, prefix: &str) {
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "", "a refused bundle must not run: {run:?}");
    assert!(run.stderr.starts_with(prefix), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert!(!run.stderr.contains("panicked"), "{run:?}");
}

#[test]
fn compile_writes_the_size_to_stderr_and_keeps_stdout_clean() {
    let dir = TempDir::new("size");
    dir.write("hello.f", HELLO);
    let run = output(
        Command::new(festina())
            .args(["compile", "hello.f"])
            .current_dir(dir.path()),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stdout, "");
    let size = fs::metadata(dir.join("hello"))
        .expect("default output")
        .len();
    let expected = format!("wrote hello ({:.1} MB)\n", size as f64 / 1e6);
    assert_eq!(run.stderr, expected);
}

#[test]
fn default_output_is_the_file_name_in_the_current_directory() {
    let dir = TempDir::new("default");
    fs::create_dir(dir.join("src")).unwrap();
    dir.write("src/app.f", HELLO);
    let run = output(
        Command::new(festina())
            .args(["compile", "src/app.f"])
            .current_dir(dir.path()),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(dir.join("app").is_file());
    assert!(!dir.join("src/app").exists());
}

#[test]
fn output_option_before_or_after_the_file() {
    let dir = TempDir::new("order");
    dir.write("app.f", HELLO);
    for args in [
        ["compile", "-o", "first", "app.f"],
        ["compile", "app.f", "-o", "second"],
    ] {
        let run = output(Command::new(festina()).args(args).current_dir(dir.path()));
        assert_eq!(run.code, Some(0), "{run:?}");
    }
    for name in ["first", "second"] {
        let run = run_in(dir.path(), &dir.join(name), &[]);
        assert_eq!(run.stdout, "Hello from a bundle\n");
    }
}

#[test]
fn bundle_is_the_runtime_then_payload_then_trailer() {
    let dir = TempDir::new("layout");
    let bundle = bundle_of(&dir, "hello", HELLO);
    let bytes = fs::read(&bundle).unwrap();
    let parts = split(&bytes);
    let runtime_bytes = fs::read(runtime("festina-runtime-core")).unwrap();
    assert!(
        parts.runtime == runtime_bytes,
        "a program using only the core facility gets the festina-runtime-core beside festina"
    );
    assert!(
        fs::metadata(festina_runtime()).unwrap().len() < fs::metadata(festina()).unwrap().len(),
        "festina-runtime, without the compiler, is smaller than festina"
    );
    assert_eq!(&parts.payload[0..4], b"FSTB");
    let t = &bytes[bytes.len() - TRAILER_LEN..];
    assert_eq!(t[16..20], crc32fast::hash(&parts.payload).to_le_bytes());
    assert_eq!(t[20..24], FORMAT_VERSION.to_le_bytes());
    assert_eq!(t[28..32], 1u32.to_le_bytes());
    // Reassembling by the documented layout gives the same bytes.
    assert!(assemble(&parts, FORMAT_VERSION, 1) == bytes);
}

#[test]
fn the_runtime_is_the_smallest_with_the_facilities_the_program_uses() {
    let dir = TempDir::new("runtimes");
    let db = bundle_of(&dir, "db", DB);
    let db_runtime = fs::read(runtime("festina-runtime-db")).unwrap();
    assert!(
        split(&fs::read(&db).unwrap()).runtime == db_runtime,
        "the database needs festina-runtime-db"
    );
    let run = run_in(dir.path(), &db, &[]);
    assert_eq!(run.stdout, "[{\"body\":\"hi\"}]\n", "{run:?}");
    let core = fs::read(runtime("festina-runtime-core")).unwrap();
    assert!(
        core.len() < db_runtime.len(),
        "festina-runtime-core leaves SQLite out, so it is smaller"
    );
    let hello = bundle_of(&dir, "hello", HELLO);
    assert!(split(&fs::read(&hello).unwrap()).runtime == core);
    let server = bundle_of(&dir, "server", SERVER);
    let http = fs::read(runtime("festina-runtime-http")).unwrap();
    assert!(
        split(&fs::read(&server).unwrap()).runtime == http,
        "HTTP without the database needs festina-runtime-http"
    );
    let run = run_in(dir.path(), &server, &[]);
    assert_eq!(run.stdout, "81\n", "{run:?}");
    let net = fs::read(runtime("festina-runtime-net")).unwrap();
    assert!(
        http.len() < net.len(),
        "festina-runtime-http leaves SQLite out, so it is smaller"
    );
    let db_server = bundle_of(&dir, "db_server", DB_SERVER);
    assert!(
        split(&fs::read(&db_server).unwrap()).runtime == net,
        "HTTP with the database needs festina-runtime-net"
    );
    let run = run_in(dir.path(), &db_server, &[]);
    assert_eq!(run.stdout, "82\n", "{run:?}");
    // Text, arrays, maps, JSON, regex, blobs, files, time and timers are
    // all core.
    let busy = bundle_of(
        &dir,
        "busy",
        "struct P {\n    n:int\n}\nP p = '{\"n\": 4}'.toStruct(P)\nblob b = 'busy.f'\nvoid func tick() {\n    log(`${p.n} ${'a,b'.split(/,/).length} ${b.length > 0} ${now() > 0} ${Math.floor(2.5)}`)\n}\nsetTimeout(tick, 1)\n",
    );
    assert!(split(&fs::read(&busy).unwrap()).runtime == core);
    let run = run_in(dir.path(), &busy, &[]);
    assert_eq!(run.stdout, "4 2 true true 2\n", "{run:?}");
}

#[test]
fn each_runtime_reports_its_facilities_and_links_sqlite_and_tls_only_with_theirs() {
    let dir = TempDir::new("probe");
    for (name, path, facilities) in runtimes() {
        let run = run_in(dir.path(), &path, &["--festina-runtime-identity"]);
        assert_eq!(run.code, Some(0), "{name}: {run:?}");
        assert!(
            run.stdout.starts_with("festina-runtime ")
                && run.stdout.ends_with(&format!(" facilities {facilities}\n")),
            "{name}: {run:?}"
        );
        let bytes = fs::read(&path).unwrap();
        assert_eq!(
            contains(&bytes, SQLITE_MARK),
            facilities.contains("database"),
            "{name} must link SQLite exactly when it has the database facility"
        );
        // The TLS library's source paths (in its panic locations) are in
        // a runtime exactly when its code is: never in one without the
        // network (the core thread code once reached the HTTP server's).
        assert_eq!(
            contains(&bytes, b"rustls"),
            facilities.contains("net"),
            "{name} must link rustls exactly when it has the network facility"
        );
    }
    assert!(
        contains(&fs::read(festina()).unwrap(), SQLITE_MARK),
        "festina has every facility"
    );
}

#[test]
fn a_missing_runtime_is_replaced_by_the_next_superset() {
    // Only festina-runtime-db beside festina: a core program gets it too.
    let dir = TempDir::new("superset");
    let db_runtime = fs::read(runtime("festina-runtime-db")).unwrap();
    let copy = festina_alone(&dir, &[("festina-runtime-db", &db_runtime)]);
    dir.write("hello.f", HELLO);
    dir.write("db.f", DB);
    for name in ["hello", "db"] {
        assert!(
            runtime_chosen_by(&copy, &dir, name) == db_runtime,
            "{name} gets festina-runtime-db"
        );
    }
    assert_eq!(
        run_in(dir.path(), &dir.join("hello"), &[]).stdout,
        "Hello from a bundle\n"
    );
    // Only festina-runtime-core: the database program gets festina itself.
    let dir = TempDir::new("subset");
    let core = fs::read(runtime("festina-runtime-core")).unwrap();
    let copy = festina_alone(&dir, &[("festina-runtime-core", &core)]);
    dir.write("db.f", DB);
    let runtime = runtime_chosen_by(&copy, &dir, "db");
    assert!(runtime == fs::read(festina()).unwrap());
    let run = run_in(dir.path(), &dir.join("db"), &[]);
    assert_eq!(run.stdout, "[{\"body\":\"hi\"}]\n", "{run:?}");
}

#[test]
fn the_smallest_superset_present_is_chosen_by_its_size() {
    // Without festina-runtime-http, a server (core and net) may get
    // festina-runtime-net or festina-runtime-canvas: whichever file is
    // smaller, whatever their order in the table.
    let dir = TempDir::new("by-size");
    let net = fs::read(runtime("festina-runtime-net")).unwrap();
    let canvas = fs::read(runtime("festina-runtime-canvas")).unwrap();
    let copy = festina_alone(
        &dir,
        &[
            ("festina-runtime-net", &net),
            ("festina-runtime-canvas", &canvas),
        ],
    );
    dir.write("server.f", SERVER);
    let chosen = runtime_chosen_by(&copy, &dir, "server");
    let smaller = if canvas.len() < net.len() {
        &canvas
    } else {
        &net
    };
    assert!(chosen == *smaller, "the smaller superset is copied");
    let run = run_in(dir.path(), &dir.join("server"), &[]);
    assert_eq!(run.stdout, "81\n", "{run:?}");
}

/// The flagship programs (examples/flagship/).
fn flagship(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/flagship")
        .join(format!("{name}.f"));
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_flagship_servers_get_the_runtimes_of_what_they_use() {
    // The proxy uses HTTP alone, the WebSocket server HTTP and the
    // database, the CAPTCHA endpoint HTTP and the canvas (no window, no
    // sound): each gets the smallest runtime that has those.
    let dir = TempDir::new("flagship");
    for (program, runtime_name) in [
        ("proxy", "festina-runtime-http"),
        ("wsdb", "festina-runtime-net"),
        ("captcha", "festina-runtime-canvas"),
        ("weather", "festina-runtime"),
    ] {
        let bundle = bundle_of(&dir, program, &flagship(program));
        assert!(
            split(&fs::read(&bundle).unwrap()).runtime == fs::read(runtime(runtime_name)).unwrap(),
            "{program} gets {runtime_name}"
        );
    }
}

#[test]
fn a_runtime_whose_probe_lacks_a_facility_is_not_used() {
    // A festina-runtime-db of this build that claims only the core
    // facility (as a wrongly built one would) is not trusted with a
    // database program.
    let identity =
        output(Command::new(runtime("festina-runtime-core")).arg("--festina-runtime-identity"));
    let dir = TempDir::new("liar");
    let liar = format!("#!/bin/sh\necho '{}'\n", identity.stdout.trim_end());
    let copy = festina_alone(&dir, &[("festina-runtime-db", liar.as_bytes())]);
    dir.write("db.f", DB);
    let runtime = runtime_chosen_by(&copy, &dir, "db");
    assert!(runtime == fs::read(festina()).unwrap());
}

#[test]
fn a_runtime_refuses_a_program_that_needs_a_facility_it_lacks() {
    // A bundle assembled by hand from festina-runtime-core and a database
    // program: refused before it runs, naming the facility.
    let dir = TempDir::new("lacking");
    let db = bundle_of(&dir, "db", DB);
    let mut parts = split(&fs::read(&db).unwrap());
    parts.runtime = fs::read(runtime("festina-runtime-core")).unwrap();
    let forged = dir.join("forged");
    write_executable(&forged, &assemble(&parts, FORMAT_VERSION, 1));
    let run = run_in(dir.path(), &forged, &[]);
    assert_refused(
        &run,
        "festina: this program needs the database facility, which this executable does not have (it has core)",
    );
}

#[test]
fn bundle_runs_alone_in_an_empty_directory() {
    let build = TempDir::new("build");
    let bundle = bundle_of(&build, "hello", HELLO);
    let empty = TempDir::new("empty");
    let copy = empty.join("hello");
    write_executable(&copy, &fs::read(&bundle).unwrap());
    drop(build); // no source, no build directory left
    let run = output(
        Command::new(&copy)
            .current_dir(empty.path())
            .env_clear() // no PATH: no festina to find
            .stdin(Stdio::null()),
    );
    assert_eq!(
        run,
        Run {
            stdout: "Hello from a bundle\n".into(),
            stderr: String::new(),
            code: Some(0),
        }
    );
    let left: Vec<_> = fs::read_dir(empty.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "the bundle wrote nothing beside itself");
}

/// Draws text and shapes, saves the canvas and reads the file back.
const DRAW: &str = "font f = 'bold 20px sans-serif'\nchangeFont(f)\nfillStyle(10, 20, 30)\ndrawText('Bundle', 10, 40)\ndrawCircle(100, 100, 20)\nlog(saveCanvas('drawn.png'))\nimg back = 'drawn.png'\nlog(`${back.width}x${back.height} ${back.getPixelColor(100, 100) == back.getPixelColor(95, 95)}`)\nlog(measureTextWidth('Bundle') > 40)\n";

#[test]
fn a_drawing_bundle_has_the_canvas_and_runs_alone_in_an_empty_directory() {
    let build = TempDir::new("build-draw");
    let bundle = bundle_of(&build, "draw", DRAW);
    assert!(
        split(&fs::read(&bundle).unwrap()).runtime
            == fs::read(runtime("festina-runtime-canvas")).unwrap(),
        "drawing without a window or sound needs festina-runtime-canvas"
    );
    let empty = TempDir::new("empty-draw");
    let copy = empty.join("draw");
    write_executable(&copy, &fs::read(&bundle).unwrap());
    drop(build);
    let run = output(
        Command::new(&copy)
            .current_dir(empty.path())
            .env_clear() // no PATH, no HOME: fonts come from the system's fontconfig
            .stdin(Stdio::null()),
    );
    assert_eq!(
        run,
        Run {
            stdout: "true\n800x600 true\ntrue\n".into(),
            stderr: String::new(),
            code: Some(0),
        }
    );
    let png = fs::read(empty.join("drawn.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
}

#[test]
fn arguments_pass_through_untouched() {
    let dir = TempDir::new("argv");
    let bundle = bundle_of(&dir, "args", ARGS);
    let args = [
        "--help",
        "--",
        "-o",
        "out",
        "--emit-bytecode",
        "compile",
        "",
        "two words",
        "ünïcödé",
        "--version",
    ];
    // argv[0] is the bundle's path as invoked.
    let run = run_in(dir.path(), Path::new("./args"), &args);
    let mut expected = String::from("[./args]\n");
    for a in args {
        expected.push_str(&format!("[{a}]\n"));
    }
    assert_eq!(run.stdout, expected);
    assert_eq!(run.stderr, "");
    assert_eq!(run.code, Some(args.len() as i32 + 1));

    let run = run_in(dir.path(), &bundle, &["x"]);
    assert_eq!(run.stdout, format!("[{}]\n[x]\n", bundle.display()));
    assert_eq!(run.code, Some(2));

    // The same as `festina args.f ...` apart from argv[0].
    let mut direct_args = vec!["args.f", "--"];
    direct_args.extend(args);
    let direct = run_in(dir.path(), &festina(), &direct_args);
    assert_eq!(
        direct.stdout.replacen("[args.f]", "[./args]", 1),
        expected,
        "{direct:?}"
    );
    assert_eq!(direct.code, Some(args.len() as i32 + 1));
}

#[test]
fn exit_status_and_streams_match_direct_runs() {
    let dir = TempDir::new("status");
    let programs = [
        ("closes", "log('before')\nclose(7)\nlog('never')\n"),
        ("wraps", "close(300)\n"),
        ("fails", "log('working')\nfail('something broke')\n"),
        ("throws", "log('a')\nthrow 'uncaught'\n"),
        (
            "indexes",
            "arr[int] xs = [1, 2, 3]\nlog(xs[1])\nlog(xs[5])\n",
        ),
        ("succeeds", "log(`${1 + 2}`)\n"),
    ];
    for (name, text) in programs {
        let bundle = bundle_of(&dir, name, text);
        let file = format!("{name}.f");
        let direct = run_in(dir.path(), &festina(), &[&file]);
        // Invoked with argv[0] = the file name, as `festina <file>` gives it.
        let mut command = Command::new(&bundle);
        command.current_dir(dir.path()).stdin(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.arg0(&file);
        }
        let bundled = output(&mut command);
        assert_eq!(bundled, direct, "{name}");
    }
    // The cases above really exercise different statuses and streams.
    let run = run_in(dir.path(), &dir.join("closes"), &[]);
    assert_eq!((run.stdout.as_str(), run.code), ("before\n", Some(7)));
    let run = run_in(dir.path(), &dir.join("wraps"), &[]);
    assert_eq!(run.code, Some(300 % 256));
    let run = run_in(dir.path(), &dir.join("fails"), &[]);
    assert_eq!(
        run.stderr,
        "fail: something broke\n    at <top level> (fails.f:2)\n"
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn environment_passes_through() {
    let dir = TempDir::new("env");
    let text =
        "log(environment.FESTINA_BUNDLE_TEST)\nlog(environment.FESTINA_BUNDLE_UNSET == null)\n";
    let bundle = bundle_of(&dir, "env", text);
    let value = "a value with spaces = and ünïcödé";
    let bundled = output(
        Command::new(&bundle)
            .current_dir(dir.path())
            .env("FESTINA_BUNDLE_TEST", value)
            .env_remove("FESTINA_BUNDLE_UNSET"),
    );
    assert_eq!(bundled.stdout, format!("{value}\ntrue\n"), "{bundled:?}");
    let direct = output(
        Command::new(festina())
            .arg("env.f")
            .current_dir(dir.path())
            .env("FESTINA_BUNDLE_TEST", value)
            .env_remove("FESTINA_BUNDLE_UNSET"),
    );
    assert_eq!(bundled, direct);
}

#[test]
fn standard_streams_are_the_programs() {
    let dir = TempDir::new("streams");
    let bundle = bundle_of(&dir, "hello", HELLO);
    // The bundle leaves stdin alone: what it does not read, the next
    // command in the shell still gets.
    let mut child = spawn_retrying(|| {
        Command::new("sh")
            .arg("-c")
            .arg("\"$1\"; cat")
            .arg("sh")
            .arg(&bundle)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"left for cat\n")
        .unwrap();
    let run = to_run(child.wait_with_output().unwrap());
    assert_eq!(run.stdout, "Hello from a bundle\nleft for cat\n");
    assert_eq!(run.code, Some(0));

    // Stdout redirected to a file.
    let out = dir.join("out.txt");
    let file = fs::File::create(&out).unwrap();
    let status = spawn_retrying(|| {
        Command::new(&bundle)
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .status()
    });
    assert!(status.success());
    assert_eq!(fs::read_to_string(&out).unwrap(), "Hello from a bundle\n");
}

#[test]
fn truncated_bundles_are_refused() {
    let dir = TempDir::new("truncated");
    let bundle = bundle_of(&dir, "hello", HELLO);
    let bytes = fs::read(&bundle).unwrap();
    let parts = split(&bytes);
    let r = parts.runtime.len();
    let len = bytes.len();
    // Cuts in the trailer, in the payload, and in the runtime's section
    // header table (after its loaded segments: a cut inside those leaves a
    // file the OS itself cannot load, see the bundle module doc).
    let cuts = [
        len - 1,
        len - 20,
        len - TRAILER_LEN,
        r + parts.payload.len() / 2,
        r + 2,
        r - 16,
    ];
    for (i, cut) in cuts.into_iter().enumerate() {
        let path = dir.join(&format!("cut{i}"));
        write_executable(&path, &bytes[..cut]);
        let run = run_in(dir.path(), &path, &[]);
        assert_refused(&run, "festina: this bundle is damaged: ");
    }
}

#[test]
fn corrupted_bundles_are_refused() {
    let dir = TempDir::new("corrupt");
    let bundle = bundle_of(&dir, "hello", HELLO);
    let bytes = fs::read(&bundle).unwrap();
    let parts = split(&bytes);
    let r = parts.runtime.len();

    // A byte of the program flipped: the payload checksum fails.
    let mut payload_hit = bytes.clone();
    payload_hit[r + parts.payload.len() / 2] ^= 0x5a;
    let path = dir.join("payload_hit");
    write_executable(&path, &payload_hit);
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(
        &run,
        "festina: this bundle is damaged: the program fails its checksum",
    );

    // A byte of the trailer flipped: the trailer checksum fails.
    let mut trailer_hit = bytes.clone();
    let at = bytes.len() - TRAILER_LEN + 9;
    trailer_hit[at] ^= 0x01;
    let path = dir.join("trailer_hit");
    write_executable(&path, &trailer_hit);
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(
        &run,
        "festina: this bundle is damaged: the bundle trailer fails its checksum",
    );

    // A consistent trailer and payload header, then bytes that do not
    // decode as a program.
    let mut payload = b"FSTB".to_vec();
    payload.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    payload.extend_from_slice(&instruction_set_fingerprint().to_le_bytes());
    payload.extend_from_slice(&[0xff; 64]);
    let junk = Parts {
        runtime: parts.runtime.clone(),
        payload,
    };
    let path = dir.join("junk");
    write_executable(&path, &assemble(&junk, FORMAT_VERSION, 1));
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(&run, "festina: this bundle is damaged: ");
}

#[test]
fn incompatible_versions_are_refused_naming_both() {
    let dir = TempDir::new("versions");
    let bundle = bundle_of(&dir, "hello", HELLO);
    let bytes = fs::read(&bundle).unwrap();
    let parts = split(&bytes);
    let other = FORMAT_VERSION + 1;

    // As a build with the next bytecode format would write it: both the
    // payload header and the trailer say so, checksums intact.
    let mut payload = parts.payload.clone();
    payload[4..8].copy_from_slice(&other.to_le_bytes());
    let newer = Parts {
        runtime: parts.runtime.clone(),
        payload,
    };
    let path = dir.join("newer");
    write_executable(&path, &assemble(&newer, other, 1));
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(
        &run,
        "festina: this bundle was made by an incompatible build of festina",
    );
    assert!(
        run.stderr
            .contains(&format!("bytecode format version {other}"))
            && run
                .stderr
                .contains(&format!("this runtime reads version {FORMAT_VERSION}")),
        "{run:?}"
    );

    // A payload header that disagrees even though the trailer agrees.
    let path = dir.join("header_only");
    write_executable(&path, &assemble(&newer, FORMAT_VERSION, 1));
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(
        &run,
        "festina: this bundle was made by an incompatible build of festina",
    );
    assert!(run.stderr.contains(&format!("version {other}")), "{run:?}");

    // Another bundle (trailer) format.
    let path = dir.join("bundle_v9");
    write_executable(&path, &assemble(&parts, FORMAT_VERSION, 9));
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(
        &run,
        "festina: this bundle was made by an incompatible build of festina",
    );
    assert!(
        run.stderr.contains("bundle format is version 9")
            && run.stderr.contains("this runtime reads version 1"),
        "{run:?}"
    );
    // A version no build ever wrote (one damaged byte of the field, as a
    // break run made): damage, not another build.
    let path = dir.join("bundle_vdamaged");
    write_executable(&path, &assemble(&parts, FORMAT_VERSION, 5_767_169));
    let run = run_in(dir.path(), &path, &[]);
    assert_refused(
        &run,
        "festina: this bundle is damaged: the bundle trailer is damaged (its format version reads 5767169)",
    );
}

/// Copy the festina executable alone into `dir/bin`, with `runtimes`
/// (file name and bytes) beside it; returns the copy's path.
fn festina_alone(dir: &TempDir, runtimes: &[(&str, &[u8])]) -> PathBuf {
    fs::create_dir(dir.join("bin")).unwrap();
    let copy = dir.join("bin/festina");
    write_executable(&copy, &fs::read(festina()).unwrap());
    for (name, bytes) in runtimes {
        write_executable(&dir.join("bin").join(name), bytes);
    }
    copy
}

/// `<copy> compile <name>.f` in `dir`, which must succeed; the runtime
/// part of the bundle it wrote.
fn runtime_chosen_by(copy: &Path, dir: &TempDir, name: &str) -> Vec<u8> {
    let run = output(
        Command::new(copy)
            .args(["compile", &format!("{name}.f")])
            .current_dir(dir.path()),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    split(&fs::read(dir.join(name)).unwrap()).runtime
}

#[test]
fn without_a_runtime_beside_it_festina_copies_itself() {
    let dir = TempDir::new("alone");
    let copy = festina_alone(&dir, &[]);
    dir.write("hello.f", HELLO);
    let runtime = runtime_chosen_by(&copy, &dir, "hello");
    assert!(runtime == fs::read(festina()).unwrap());
    let run = run_in(dir.path(), &dir.join("hello"), &[]);
    assert_eq!(run.stdout, "Hello from a bundle\n");
    assert_eq!(run.code, Some(0));
}

#[test]
fn a_runtime_of_another_build_is_not_used() {
    // Runtimes that do not answer the identity probe with this build's
    // identity, as stale ones would not.
    let stale: &[u8] =
        b"#!/bin/sh\necho 'festina-runtime 0.0.1 build 0 bundle 1 facilities core'\n";
    let dir = TempDir::new("stale");
    let copy = festina_alone(
        &dir,
        &[("festina-runtime-core", stale), ("festina-runtime", stale)],
    );
    dir.write("hello.f", HELLO);
    let runtime = runtime_chosen_by(&copy, &dir, "hello");
    assert!(
        runtime == fs::read(festina()).unwrap(),
        "festina copied itself rather than the stale runtime"
    );
    let run = run_in(dir.path(), &dir.join("hello"), &[]);
    assert_eq!(run.stdout, "Hello from a bundle\n");
}

#[test]
fn festina_runtime_alone_runs_nothing() {
    let dir = TempDir::new("runtime");
    let run = run_in(dir.path(), &festina_runtime(), &["app.f"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("festina-runtime: no program is embedded"),
        "{run:?}"
    );
    let run = run_in(
        dir.path(),
        &festina_runtime(),
        &["--festina-runtime-identity"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.starts_with("festina-runtime "), "{run:?}");
    assert!(
        run.stdout.contains(&format!(" bytecode {FORMAT_VERSION} ")),
        "{run:?}"
    );
}

/// `ldd` of `path`, which must succeed.
fn ldd(path: &Path) -> Option<String> {
    let out = match Command::new("ldd").arg(path).output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipping the ldd check: cannot run ldd: {e}");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "ldd {} failed: {out:?}",
        path.display()
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The system libraries each optional facility may bring in, by the
/// start of their file names.
const FACILITY_LIBRARIES: &[(&str, &[&str])] = &[
    ("canvas", &["libcairo"]),
    ("window", &["libX11", "libxcb", "libxkbcommon"]),
    ("audio", &["libasound"]),
];

#[test]
#[cfg(target_os = "linux")]
fn each_runtime_links_only_the_libraries_of_its_facilities() {
    let dir = TempDir::new("ldd");
    let hello = bundle_of(&dir, "hello", HELLO);
    let db = bundle_of(&dir, "db", DB);
    let mut checked: Vec<(String, PathBuf, &str)> = runtimes()
        .into_iter()
        .map(|(name, path, facilities)| (name.to_string(), path, facilities))
        .collect();
    checked.push(("the hello bundle".into(), hello, "core"));
    checked.push(("the database bundle".into(), db, "core,database"));
    let server = bundle_of(&dir, "server", SERVER);
    checked.push(("the server bundle".into(), server, "core,net"));
    let db_server = bundle_of(&dir, "db_server", DB_SERVER);
    checked.push((
        "the database server bundle".into(),
        db_server,
        "core,database,net",
    ));
    // Drawing (and serving) images links cairo, never ALSA.
    let draw = bundle_of(&dir, "draw", DRAW);
    checked.push(("the drawing bundle".into(), draw, "core,net,canvas"));
    let sound = bundle_of(&dir, "sound", SOUND);
    assert!(
        split(&fs::read(&sound).unwrap()).runtime == fs::read(festina_runtime()).unwrap(),
        "a program that plays sound gets festina-runtime"
    );
    let run = output(
        Command::new(&sound)
            .current_dir(dir.path())
            .env("FESTINA_AUDIO_SINK", "null"),
    );
    assert_eq!(run.stdout, "channel 0\n", "{run:?}");
    checked.push(("the sound bundle".into(), sound, ALL_FACILITIES));
    // A program that opens a window gets the full runtime, which reaches
    // X11 only when the window opens (minifb loads libX11 at run time):
    // with no display it fails with a clear message, never a crash.
    let window = bundle_of(&dir, "window", "render()\nlog('shown')\n");
    assert!(
        split(&fs::read(&window).unwrap()).runtime == fs::read(festina_runtime()).unwrap(),
        "a program that opens a window gets festina-runtime"
    );
    let run = output(
        Command::new(&window)
            .current_dir(dir.path())
            .env_remove("DISPLAY"),
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.starts_with("fail: no display: set DISPLAY"),
        "{run:?}"
    );
    checked.push(("the window bundle".into(), window, ALL_FACILITIES));
    checked.push(("festina".into(), festina(), ALL_FACILITIES));
    for (name, path, facilities) in checked {
        let Some(libs) = ldd(&path) else { return };
        assert!(
            libs.contains("libc.so"),
            "ldd output not understood: {libs}"
        );
        // The canvas facility links cairo wherever it is present.
        assert_eq!(
            libs.contains("libcairo"),
            facilities.split(',').any(|f| f == "canvas"),
            "{name} (facilities {facilities}) and libcairo:\n{libs}"
        );
        let has = |f: &str| facilities.split(',').any(|x| x == f);
        for (facility, prefixes) in FACILITY_LIBRARIES {
            if has(facility) {
                // The libraries of the batteries that exist are linked
                // where their facility is.
                if *facility == "audio" {
                    assert!(
                        prefixes.iter().all(|lib| libs.contains(lib)),
                        "{name} (facilities {facilities}) does not link {prefixes:?}:\n{libs}"
                    );
                }
                continue;
            }
            // Debian's libcairo is built with its X11 backends, so it
            // brings libX11 and libxcb along: expected with the canvas.
            if *facility == "window" && has("canvas") {
                continue;
            }
            for lib in *prefixes {
                assert!(
                    !libs.contains(lib),
                    "{name} (facilities {facilities}) links {lib}:\n{libs}"
                );
            }
        }
    }
}

#[test]
fn compile_errors_are_reported_as_festina_run_does() {
    let dir = TempDir::new("errors");
    dir.write("bad.f", "int x = 'text'\nlog(y)\n");
    let direct = run_in(dir.path(), &festina(), &["bad.f"]);
    let compiled = run_in(dir.path(), &festina(), &["compile", "bad.f", "-o", "bad"]);
    assert_eq!(compiled, direct);
    assert_eq!(compiled.code, Some(2));
    assert_eq!(compiled.stdout, "");
    assert!(compiled.stderr.contains("bad.f:1:"), "{compiled:?}");
    assert!(
        !dir.join("bad").exists(),
        "no bundle for a program with errors"
    );

    let direct = run_in(dir.path(), &festina(), &["missing.f"]);
    let compiled = run_in(dir.path(), &festina(), &["compile", "missing.f"]);
    assert_eq!(compiled, direct);
    assert_eq!(compiled.code, Some(2));
}

#[test]
fn compile_refuses_bad_output_names() {
    let dir = TempDir::new("names");
    dir.write("prog", HELLO);
    // No `.f` to strip: the output would be the source itself.
    let run = run_in(dir.path(), &festina(), &["compile", "prog"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("give one with -o"), "{run:?}");
    assert_eq!(fs::read_to_string(dir.join("prog")).unwrap(), HELLO);
    let run = run_in(dir.path(), &festina(), &["compile", "prog", "-o", "prog"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(fs::read_to_string(dir.join("prog")).unwrap(), HELLO);
    // A directory that does not exist.
    let run = run_in(
        dir.path(),
        &festina(),
        &["compile", "prog", "-o", "no/such/dir/x"],
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr
            .starts_with("festina: cannot write 'no/such/dir/x'"),
        "{run:?}"
    );
    // Usage errors.
    let run = run_in(dir.path(), &festina(), &["compile"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr
            .starts_with("festina: no program given to compile"),
        "{run:?}"
    );
}

#[test]
fn compile_replaces_an_existing_bundle() {
    let dir = TempDir::new("replace");
    bundle_of(&dir, "app", "log('one')\n");
    let bundle = bundle_of(&dir, "app", "log('two')\n");
    let run = run_in(dir.path(), &bundle, &[]);
    assert_eq!(run.stdout, "two\n");
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.contains("festina-tmp")),
        "no temporary file left: {names:?}"
    );
}

/// The layout `cargo install --path festina-cli` makes: `festina` and the
/// four runtimes side by side in one directory on the PATH (README,
/// "Quick start"). `festina`, found through the PATH, gives each program
/// the smallest runtime with its facilities.
#[test]
fn an_installed_festina_finds_its_runtimes_beside_it() {
    let dir = TempDir::new("installed");
    let all: Vec<(&str, Vec<u8>)> = runtimes()
        .iter()
        .map(|(name, path, _)| (*name, fs::read(path).unwrap()))
        .collect();
    let borrowed: Vec<(&str, &[u8])> = all.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    festina_alone(&dir, &borrowed);
    dir.write("hello.f", HELLO);
    dir.write("db.f", DB);
    dir.write("sound.f", SOUND);
    let path = std::env::join_paths(
        std::iter::once(dir.join("bin")).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    for (program, runtime_name) in [
        ("hello", "festina-runtime-core"),
        ("db", "festina-runtime-db"),
        ("sound", "festina-runtime"),
    ] {
        let run = output(
            Command::new("festina")
                .args(["compile", &format!("{program}.f")])
                .env("PATH", &path)
                .current_dir(dir.path()),
        );
        assert_eq!(run.code, Some(0), "{run:?}");
        let chosen = split(&fs::read(dir.join(program)).unwrap()).runtime;
        assert!(
            chosen == fs::read(runtime(runtime_name)).unwrap(),
            "{program} gets {runtime_name}"
        );
    }
    assert_eq!(
        run_in(dir.path(), &dir.join("hello"), &[]).stdout,
        "Hello from a bundle\n"
    );
}
