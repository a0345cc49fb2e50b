//! Golden test runner for Festina programs.
//!
//! Registered in `festina-cli/Cargo.toml` as `[[test]] name = "golden"` with
//! `harness = false`, so this file is an ordinary `main` that prints
//! cargo-style output.
//!
//! What it runs
//! ------------
//! * every `tests/programs/**/<name>.f`, except files inside helper
//!   directories (a directory named `lib`, or any directory whose name starts
//!   with `_`): those are imported by other programs and are not tests;
//! * every `examples/<name>.f` (top level of `examples/` only);
//! * in both cases, a file whose first line is `// golden: skip` is reported
//!   as ignored.
//!
//! Each program is a test in three variants (see `FESTINA_GOLDEN_MODE`
//! below): run directly, reported as `<path>`; bundled, reported as
//! `<path> [bundle]`; and run directly with every optimisation switched
//! off (`FESTINA_NO_OPT=1`, see `festina_vm::switches`), reported as
//! `<path> [no-opt]`, which must give the same stdout, stderr and exit
//! status as the optimised run.
//!
//! How it runs a test
//! ------------------
//! `festina <name>.f [args...]` with the current directory set to the file's
//! directory (so diagnostics name just `<name>.f`), stdin connected to
//! `/dev/null`, `FESTINA_AUDIO_SINK=null` (sound goes to the null sink,
//! which keeps real time without a sound card) and a 20 second timeout.
//! Then it compares:
//!
//! * stdout with `<name>.out` (required, byte-exact);
//! * stderr with `<name>.err` (if the file is absent, stderr must be empty);
//! * the exit status with `<name>.exit` (a decimal number; default 0).
//!
//! `<name>.args`, if present, holds extra program arguments, one per line.
//!
//! Bundle mode
//! -----------
//! `festina compile <name>.f -o <tmp>/<n>-<name>`, in the file's directory
//! (so file names in diagnostics and failures are the same), into a
//! temporary directory of this run; bundles are compiled by the same worker
//! threads that run the tests, so on two cores two compile at a time. (The
//! bundle's runtime is the `festina-runtime` that cargo builds beside
//! `festina`, see `festina-cli/src/bundle.rs`.) Then:
//!
//! * if `festina compile` fails, its own stdout, stderr and exit status are
//!   compared with the expectation files: a compile-error program must get
//!   the same diagnostics and status 2 from `festina compile` as from
//!   `festina <name>.f`;
//! * if it succeeds, it must have printed nothing on stdout and one
//!   `wrote <out> (<size>)` line on stderr; the bundle is then run exactly
//!   like `festina <name>.f` above (same directory, arguments, stdin,
//!   timeout) and compared with the same files. Its `argv[0]` is set to
//!   `<name>.f`, what `festina <name>.f` gives the program, so that programs
//!   printing `argv[0]` compare equal (a bundle passes its `argv[0]` through
//!   as invoked; `festina-cli/tests/bundle.rs` checks that separately). The
//!   bundle is deleted after the run.
//!
//! Options
//! -------
//! * Positional arguments are filters: a test runs if its reported name
//!   (its path relative to the repository root, e.g.
//!   `tests/programs/arith/promotion.f`, with ` [bundle]` after it for the
//!   bundle run) contains any of them. `--skip PATTERN` excludes names
//!   containing PATTERN,
//!   `--test-threads N` sets the number of workers, and `--list` lists the
//!   tests without running them. Other libtest options are ignored.
//! * `FESTINA_BLESS=1`: for a test that has no `<name>.out` yet, write
//!   `.out`, and `.err`/`.exit` when they differ from the defaults, from the
//!   actual run. Existing expectation files are never touched.
//! * `FESTINA_BLESS=all`: rewrite the expectation files of every selected
//!   test from the actual run (and delete `.err`/`.exit` files that would
//!   only restate the defaults). Review the diff before committing!
//! * `FESTINA_BIN=/path/to/festina`: run another build of the binary instead
//!   of the one cargo built.
//! * `FESTINA_GOLDEN_THREADS=N`: number of worker threads (default 2).
//! * `FESTINA_GOLDEN_MODE`: `both` (the default) runs every test in all
//!   three variants, `run` only directly, `bundle` only bundled, `no-opt`
//!   only directly with `FESTINA_NO_OPT=1`. Blessing writes expectations
//!   from direct runs only, so it cannot be combined with `bundle` or
//!   `no-opt`; with `both`, a program's bundle and no-opt runs are compared
//!   with the files its direct run just wrote. Filters match the reported
//!   names, so `[bundle]` selects the bundle runs and `[no-opt]` the
//!   unoptimised ones.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long one program may run before it is killed and reported as failed.
const TIMEOUT: Duration = Duration::from_secs(20);
/// Default number of programs run at the same time.
const DEFAULT_THREADS: usize = 2;
/// First line that marks a program as not (yet) a golden test.
const SKIP_MARKER: &str = "// golden: skip";
/// Outputs longer than this many lines get a short report instead of a diff.
const MAX_DIFF_LINES: usize = 2000;

/// Which ways of executing the programs a run covers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Only `festina <name>.f [args...]`.
    Run,
    /// Only the bundles: `festina compile <name>.f -o <tmp>`, then the
    /// bundle (the VM with the bytecode embedded) with the same arguments.
    Bundle,
    /// Only `festina <name>.f [args...]` with `FESTINA_NO_OPT=1`.
    NoOpt,
    /// Every variant, each program directly first, then bundled, then
    /// unoptimised (the default).
    Both,
}

/// One way of executing a program; each program is one test per variant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// `festina <name>.f [args...]`.
    Direct,
    /// `festina compile`, then the bundle.
    Bundle,
    /// `festina <name>.f [args...]` with `FESTINA_NO_OPT=1`: every
    /// optimisation off, the same results required.
    NoOpt,
}

impl Mode {
    fn variants(self) -> &'static [Variant] {
        match self {
            Mode::Run => &[Variant::Direct],
            Mode::Bundle => &[Variant::Bundle],
            Mode::NoOpt => &[Variant::NoOpt],
            Mode::Both => &[Variant::Direct, Variant::Bundle, Variant::NoOpt],
        }
    }
}

impl Variant {
    /// The name a test of this variant is reported and filtered by.
    fn name(self, display: &str) -> String {
        match self {
            Variant::Direct => display.to_owned(),
            Variant::Bundle => format!("{display} [bundle]"),
            Variant::NoOpt => format!("{display} [no-opt]"),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bless {
    /// Compare only.
    Off,
    /// Write expectation files for tests that have no `.out` yet.
    Missing,
    /// Rewrite every selected test's expectation files.
    All,
}

struct Config {
    bin: PathBuf,
    bless: Bless,
    mode: Mode,
    threads: usize,
    /// Where bundles are written (bundle mode only): a directory of this
    /// run, removed at the end.
    bundle_dir: PathBuf,
}

/// A selected program and the variants of it to run, in order.
struct Job<'a> {
    index: usize,
    test: &'a Test,
    variants: Vec<Variant>,
}

/// One discovered program.
struct Test {
    /// Path of the `.f` file.
    source: PathBuf,
    /// Path shown in reports, relative to the repository root, `/`-separated.
    display: String,
    /// The first line is the skip marker.
    skipped: bool,
}

/// What one run of a program produced.
struct Actual {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    /// `Some(code)` for a normal exit, `None` for a signal or a timeout.
    code: Option<i32>,
    status_text: String,
    timed_out: bool,
}

enum Outcome {
    Passed,
    Blessed,
    Ignored,
    Failed(String),
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("golden: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, String> {
    let start = Instant::now();
    let root = repo_root();
    let mut config = read_config()?;

    let mut filters = Vec::new();
    let mut skips = Vec::new();
    let mut list_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--list" => list_only = true,
            "--skip" => skips.extend(args.next()),
            "--test-threads" => {
                if let Some(n) = args.next().and_then(|v| v.parse().ok()) {
                    config.threads = n;
                }
            }
            // libtest options that take a value: ignore the value too.
            "--format" | "--color" | "--logfile" | "-Z" => {
                args.next();
            }
            _ => {
                if let Some(n) = arg.strip_prefix("--test-threads=") {
                    config.threads = n.parse().unwrap_or(config.threads);
                } else if let Some(pattern) = arg.strip_prefix("--skip=") {
                    skips.push(pattern.to_owned());
                } else if !arg.starts_with('-') {
                    filters.push(arg);
                }
            }
        }
    }
    config.threads = config.threads.max(1);

    let all = discover(&root)?;
    let wanted = |name: &str| {
        (filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())))
            && !skips.iter().any(|s| name.contains(s.as_str()))
    };
    let total = all.len() * config.mode.variants().len();
    let jobs: Vec<Job> = all
        .iter()
        .enumerate()
        .map(|(index, test)| Job {
            index,
            test,
            variants: (config.mode.variants().iter().copied())
                .filter(|v| wanted(&v.name(&test.display)))
                .collect(),
        })
        .filter(|job| !job.variants.is_empty())
        .collect();
    let selected: usize = jobs.iter().map(|job| job.variants.len()).sum();
    let filtered_out = total - selected;

    if list_only {
        for job in &jobs {
            for variant in &job.variants {
                println!("{}: test", variant.name(&job.test.display));
            }
        }
        println!();
        println!(
            "{} test{}, 0 benchmarks",
            selected,
            if selected == 1 { "" } else { "s" }
        );
        return Ok(true);
    }

    if matches!(config.mode, Mode::Bundle | Mode::NoOpt) && config.bless != Bless::Off {
        return Err(
            "FESTINA_BLESS writes expectations from direct runs; use FESTINA_GOLDEN_MODE=run or both"
                .into(),
        );
    }
    let bundles = jobs
        .iter()
        .any(|job| job.variants.contains(&Variant::Bundle));
    if bundles {
        fs::create_dir_all(&config.bundle_dir)
            .map_err(|e| format!("cannot create {}: {e}", config.bundle_dir.display()))?;
    }

    if !config.bin.is_file() {
        return Err(format!(
            "the festina binary was not found at {} (build it, or set FESTINA_BIN)",
            config.bin.display()
        ));
    }

    println!();
    println!(
        "running {} test{}",
        selected,
        if selected == 1 { "" } else { "s" }
    );
    let _ = io::stdout().flush();

    let outcomes = run_all(&config, &jobs);
    if bundles {
        let _ = fs::remove_dir_all(&config.bundle_dir);
    }

    let mut passed = 0usize;
    let mut ignored = 0usize;
    let mut failures: Vec<(&str, &str)> = Vec::new();
    for (name, outcome) in &outcomes {
        match outcome {
            Outcome::Passed | Outcome::Blessed => passed += 1,
            Outcome::Ignored => ignored += 1,
            Outcome::Failed(report) => failures.push((name, report)),
        }
    }

    if !failures.is_empty() {
        println!();
        println!("failures:");
        for (name, report) in &failures {
            println!();
            println!("---- {name} ----");
            print!("{report}");
        }
        println!();
        println!("failures:");
        for (name, _) in &failures {
            println!("    {name}");
        }
    }

    let ok = failures.is_empty();
    println!();
    println!(
        "test result: {}. {} passed; {} failed; {} ignored; 0 measured; {} filtered out; finished in {:.2}s",
        if ok { "ok" } else { "FAILED" },
        passed,
        failures.len(),
        ignored,
        filtered_out,
        start.elapsed().as_secs_f64()
    );
    println!();
    if !ok && config.bless == Bless::Off {
        println!("hint: FESTINA_BLESS=1 writes expectation files for tests that have none yet");
    }
    Ok(ok)
}

/// The workspace root: this file lives in `<root>/tests/` and is compiled as
/// a test of `<root>/festina-cli`.
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().map(Path::to_path_buf).unwrap_or(manifest);
    root.canonicalize().unwrap_or(root)
}

fn read_config() -> Result<Config, String> {
    let bin = match std::env::var_os("FESTINA_BIN") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_festina")),
    };
    let bless = match std::env::var("FESTINA_BLESS").unwrap_or_default().as_str() {
        "" | "0" => Bless::Off,
        "all" => Bless::All,
        _ => Bless::Missing,
    };
    let mode = match std::env::var("FESTINA_GOLDEN_MODE")
        .unwrap_or_default()
        .as_str()
    {
        "" | "both" => Mode::Both,
        "run" => Mode::Run,
        "bundle" => Mode::Bundle,
        "no-opt" => Mode::NoOpt,
        other => {
            return Err(format!(
                "unknown FESTINA_GOLDEN_MODE '{other}' (expected both, run, bundle or no-opt)"
            ))
        }
    };
    let threads = match std::env::var("FESTINA_GOLDEN_THREADS") {
        Ok(value) => match value.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(format!(
                    "FESTINA_GOLDEN_THREADS must be a positive number, not '{value}'"
                ))
            }
        },
        Err(_) => DEFAULT_THREADS,
    };
    let bundle_dir = std::env::temp_dir().join(format!("festina-golden-{}", std::process::id()));
    Ok(Config {
        bin,
        bless,
        mode,
        threads,
        bundle_dir,
    })
}

// ---------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------

fn discover(root: &Path) -> Result<Vec<Test>, String> {
    let mut sources = Vec::new();
    let programs = root.join("tests").join("programs");
    if programs.is_dir() {
        walk(&programs, &mut sources)?;
    }
    let examples = root.join("examples");
    if examples.is_dir() {
        for path in read_dir_sorted(&examples)? {
            if path.is_file() && is_festina_source(&path) {
                sources.push(path);
            }
        }
    }
    sources.sort();

    let mut tests = Vec::with_capacity(sources.len());
    for source in sources {
        let display = source
            .strip_prefix(root)
            .unwrap_or(&source)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let skipped = first_line(&source)
            .map(|line| line.trim() == SKIP_MARKER)
            .unwrap_or(false);
        tests.push(Test {
            source,
            display,
            skipped,
        });
    }
    Ok(tests)
}

/// Collects `.f` files below `dir`, skipping helper directories.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    for path in read_dir_sorted(dir)? {
        if path.is_dir() {
            if !is_helper_dir(&path) {
                walk(&path, out)?;
            }
        } else if is_festina_source(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn is_helper_dir(path: &Path) -> bool {
    match path.file_name().and_then(|n| n.to_str()) {
        Some(name) => name == "lib" || name.starts_with('_'),
        None => false,
    }
}

fn is_festina_source(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "f")
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        paths.push(entry.path());
    }
    paths.sort();
    Ok(paths)
}

fn first_line(path: &Path) -> Option<String> {
    let text = fs::read(path).ok()?;
    let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
    Some(String::from_utf8_lossy(&text[..end]).into_owned())
}

// ---------------------------------------------------------------------------
// Scheduling
// ---------------------------------------------------------------------------

/// Runs the jobs on `config.threads` workers; each job's variants run in
/// order on one worker. Returns (reported name, outcome) in job order.
fn run_all(config: &Config, jobs: &[Job]) -> Vec<(String, Outcome)> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Vec<(String, Outcome)>>> =
        Mutex::new((0..jobs.len()).map(|_| Vec::new()).collect());
    let stdout_lock = Mutex::new(());
    let workers = config.threads.min(jobs.len()).max(1);

    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let slot = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(slot) else { break };
                let mut done = Vec::with_capacity(job.variants.len());
                for &variant in &job.variants {
                    let outcome = run_one(config, job, variant);
                    let name = variant.name(&job.test.display);
                    {
                        let _guard = stdout_lock.lock().unwrap_or_else(|e| e.into_inner());
                        let status = match &outcome {
                            Outcome::Passed => "ok",
                            Outcome::Blessed => "ok (blessed)",
                            Outcome::Ignored => "ignored",
                            Outcome::Failed(_) => "FAILED",
                        };
                        println!("test {name} ... {status}");
                        let _ = io::stdout().flush();
                    }
                    done.push((name, outcome));
                }
                let mut slots = results.lock().unwrap_or_else(|e| e.into_inner());
                slots[slot] = done;
            });
        }
    });

    let mut slots = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut all = Vec::new();
    for (job, done) in jobs.iter().zip(slots.iter_mut()) {
        if done.is_empty() {
            for variant in &job.variants {
                all.push((
                    variant.name(&job.test.display),
                    Outcome::Failed("the test was never run\n".into()),
                ));
            }
        }
        all.append(done);
    }
    all
}

// ---------------------------------------------------------------------------
// Running and comparing one test
// ---------------------------------------------------------------------------

fn run_one(config: &Config, job: &Job, variant: Variant) -> Outcome {
    let test = job.test;
    if test.skipped {
        return Outcome::Ignored;
    }
    let out_path = test.source.with_extension("out");
    let err_path = test.source.with_extension("err");
    let exit_path = test.source.with_extension("exit");
    let args_path = test.source.with_extension("args");

    let args = match read_optional(&args_path) {
        Ok(Some(bytes)) => String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_owned)
            .collect::<Vec<_>>(),
        Ok(None) => Vec::new(),
        Err(e) => return Outcome::Failed(format!("cannot read {}: {e}\n", args_path.display())),
    };

    let actual = match variant {
        Variant::Direct | Variant::NoOpt => {
            match execute(&config.bin, &test.source, &args, variant == Variant::NoOpt) {
                Ok(actual) => actual,
                Err(e) => {
                    return Outcome::Failed(format!("cannot run {}: {e}\n", config.bin.display()))
                }
            }
        }
        Variant::Bundle => match bundle_and_execute(config, job.index, &test.source, &args) {
            Ok(actual) => actual,
            Err(report) => return Outcome::Failed(report),
        },
    };

    let expected_out = match read_optional(&out_path) {
        Ok(v) => v,
        Err(e) => return Outcome::Failed(format!("cannot read {}: {e}\n", out_path.display())),
    };

    match config.bless {
        _ if variant != Variant::Direct => {}
        Bless::All => return bless(test, &actual, true),
        Bless::Missing if expected_out.is_none() => return bless(test, &actual, false),
        _ => {}
    }

    let Some(expected_out) = expected_out else {
        let mut report = format!(
            "missing {} (write it, or run with FESTINA_BLESS=1 and review the result)\n",
            file_name(&out_path)
        );
        describe_actual(&mut report, &actual);
        return Outcome::Failed(report);
    };
    let expected_err = match read_optional(&err_path) {
        Ok(v) => v.unwrap_or_default(),
        Err(e) => return Outcome::Failed(format!("cannot read {}: {e}\n", err_path.display())),
    };
    let expected_code = match read_optional(&exit_path) {
        Ok(None) => 0,
        Ok(Some(bytes)) => match String::from_utf8_lossy(&bytes).trim().parse::<i32>() {
            Ok(code) => code,
            Err(_) => {
                return Outcome::Failed(format!(
                    "{} must hold one decimal number\n",
                    file_name(&exit_path)
                ))
            }
        },
        Err(e) => return Outcome::Failed(format!("cannot read {}: {e}\n", exit_path.display())),
    };

    let mut report = String::new();
    if actual.timed_out {
        let _ = writeln!(
            report,
            "timed out after {}s and was killed",
            TIMEOUT.as_secs()
        );
    }
    if actual.code != Some(expected_code) {
        let _ = writeln!(
            report,
            "exit status: expected {expected_code}, got {}",
            actual.status_text
        );
    }
    if actual.stdout != expected_out {
        let _ = writeln!(report, "stdout differs from {}:", file_name(&out_path));
        report.push_str(&diff(&expected_out, &actual.stdout));
    }
    if actual.stderr != expected_err {
        if err_path.exists() {
            let _ = writeln!(report, "stderr differs from {}:", file_name(&err_path));
        } else {
            let _ = writeln!(
                report,
                "stderr should be empty (there is no {}):",
                file_name(&err_path)
            );
        }
        report.push_str(&diff(&expected_err, &actual.stderr));
    }
    if report.is_empty() {
        Outcome::Passed
    } else {
        Outcome::Failed(report)
    }
}

/// Writes expectation files from `actual`. With `overwrite` false, files that
/// already exist are left alone.
fn bless(test: &Test, actual: &Actual, overwrite: bool) -> Outcome {
    if actual.timed_out || actual.code.is_none() {
        let mut report = String::from("not blessed: the program did not exit normally\n");
        describe_actual(&mut report, actual);
        return Outcome::Failed(report);
    }
    let code = actual.code.unwrap_or_default();
    let files: [(PathBuf, Option<Vec<u8>>); 3] = [
        (
            test.source.with_extension("out"),
            Some(actual.stdout.clone()),
        ),
        (
            test.source.with_extension("err"),
            (!actual.stderr.is_empty()).then(|| actual.stderr.clone()),
        ),
        (
            test.source.with_extension("exit"),
            (code != 0).then(|| format!("{code}\n").into_bytes()),
        ),
    ];
    for (path, content) in files {
        let exists = path.exists();
        let result = match content {
            Some(bytes) if overwrite || !exists => fs::write(&path, bytes),
            None if overwrite && exists => fs::remove_file(&path),
            _ => Ok(()),
        };
        if let Err(e) = result {
            return Outcome::Failed(format!("cannot write {}: {e}\n", path.display()));
        }
    }
    Outcome::Blessed
}

fn describe_actual(report: &mut String, actual: &Actual) {
    let _ = writeln!(report, "actual exit status: {}", actual.status_text);
    for (name, bytes) in [("stdout", &actual.stdout), ("stderr", &actual.stderr)] {
        if bytes.is_empty() {
            let _ = writeln!(report, "actual {name}: (empty)");
        } else {
            let _ = writeln!(report, "actual {name}:");
            for line in String::from_utf8_lossy(bytes).lines().take(40) {
                let _ = writeln!(report, "    {line}");
            }
        }
    }
}

fn read_optional(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Runs `bin <file name> args...` in the source's directory with a timeout;
/// with `no_opt`, with `FESTINA_NO_OPT=1` in its environment.
fn execute(bin: &Path, source: &Path, args: &[String], no_opt: bool) -> io::Result<Actual> {
    let dir = source.parent().unwrap_or_else(|| Path::new("."));
    let name = source.file_name().unwrap_or(source.as_os_str());
    let mut command = Command::new(bin);
    command.arg(name).args(args).current_dir(dir);
    if no_opt {
        command.env("FESTINA_NO_OPT", "1");
    }
    execute_command(command)
}

/// Bundle mode: `festina compile <file name> -o <bundle>` in the source's
/// directory; a failed compile is the result, otherwise the bundle's run
/// with `argv[0]` = the file name, as `festina <file name>` would give.
/// Errors: a report for a compile that succeeded but printed something
/// else than `wrote <out> (<size>)`, or a process that cannot start.
fn bundle_and_execute(
    config: &Config,
    index: usize,
    source: &Path,
    args: &[String],
) -> Result<Actual, String> {
    let dir = source.parent().unwrap_or_else(|| Path::new("."));
    let name = source.file_name().unwrap_or(source.as_os_str());
    let stem = source.file_stem().unwrap_or(name).to_string_lossy();
    let bundle = config.bundle_dir.join(format!("{index}-{stem}"));
    let mut compile = Command::new(&config.bin);
    compile
        .arg("compile")
        .arg(name)
        .arg("-o")
        .arg(&bundle)
        .current_dir(dir);
    let compiled = execute_command(compile)
        .map_err(|e| format!("cannot run {}: {e}\n", config.bin.display()))?;
    if compiled.code != Some(0) {
        // A compile error: `festina compile` must report it exactly as
        // `festina <name>.f` does, which the caller checks.
        let _ = fs::remove_file(&bundle);
        return Ok(compiled);
    }
    let stderr = String::from_utf8_lossy(&compiled.stderr);
    let expected_line = format!("wrote {} (", bundle.display());
    if !compiled.stdout.is_empty()
        || !stderr.starts_with(&expected_line)
        || !stderr.ends_with(")\n")
        || stderr.lines().count() != 1
    {
        let _ = fs::remove_file(&bundle);
        let mut report = format!(
            "`festina compile {} -o {}` succeeded but should print nothing on stdout and \
             one line `{expected_line}<size>)` on stderr\n",
            name.to_string_lossy(),
            bundle.display()
        );
        describe_actual(&mut report, &compiled);
        return Err(report);
    }
    let mut command = Command::new(&bundle);
    command.args(args).current_dir(dir);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.arg0(name);
    }
    let result = execute_command(command)
        .map_err(|e| format!("cannot run the bundle {}: {e}\n", bundle.display()));
    let _ = fs::remove_file(&bundle);
    result
}

/// Runs a prepared command with stdin from `/dev/null` and
/// `FESTINA_AUDIO_SINK=null` (audio on the null sink), collecting stdout
/// and stderr, with a timeout. A spawn that fails with "text file busy"
/// (an executable just written, whose descriptor another process briefly
/// inherited) is retried a few times.
fn execute_command(mut command: Command) -> io::Result<Actual> {
    command
        // Sound goes to the null sink, which keeps real time like a
        // device: silent, and timed the same on every machine.
        .env("FESTINA_AUDIO_SINK", "null")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        // Own process group, so a timeout can kill anything the program
        // started as well.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut attempt = 0;
    let mut child = loop {
        match command.spawn() {
            Err(e) if e.kind() == io::ErrorKind::ExecutableFileBusy && attempt < 20 => {
                attempt += 1;
                thread::sleep(Duration::from_millis(5 * attempt));
            }
            result => break result?,
        }
    };

    let stdout_reader = spawn_reader(child.stdout.take());
    let stderr_reader = spawn_reader(child.stderr.take());
    let (status, timed_out) = wait_with_timeout(&mut child)?;
    // After a timeout, something the program started may still hold the
    // pipes open; do not wait for it forever.
    let grace = if timed_out {
        Duration::from_secs(2)
    } else {
        TIMEOUT
    };
    let stdout = stdout_reader.recv_timeout(grace).unwrap_or_default();
    let stderr = stderr_reader.recv_timeout(grace).unwrap_or_default();

    let (code, status_text) = match status {
        Some(status) => describe_status(status),
        None => (None, "killed after timeout".to_owned()),
    };
    Ok(Actual {
        stdout,
        stderr,
        code: if timed_out { None } else { code },
        status_text,
        timed_out,
    })
}

/// Reads a pipe to its end on a helper thread; the bytes arrive on the
/// returned channel.
fn spawn_reader<R: Read + Send + 'static>(pipe: Option<R>) -> mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut buf);
        }
        let _ = sender.send(buf);
    });
    receiver
}

/// Waits for the child, killing it once `TIMEOUT` has passed. Returns the
/// status (if it could be collected) and whether the timeout fired.
fn wait_with_timeout(child: &mut Child) -> io::Result<(Option<ExitStatus>, bool)> {
    let deadline = Instant::now() + TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((Some(status), false));
        }
        if Instant::now() >= deadline {
            kill_group(child);
            let _ = child.kill();
            let status = child.wait().ok();
            return Ok((status, true));
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Best effort: kill the child's whole process group (std has no API for
/// it, so this uses the `kill` utility).
fn kill_group(child: &Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .arg("-KILL")
            .arg("--")
            .arg(format!("-{}", child.id()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = child;
}

fn describe_status(status: ExitStatus) -> (Option<i32>, String) {
    if let Some(code) = status.code() {
        return (Some(code), code.to_string());
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return (None, format!("killed by signal {signal}"));
        }
    }
    (None, status.to_string())
}

// ---------------------------------------------------------------------------
// Reporting differences
// ---------------------------------------------------------------------------

/// A line diff of `expected` against `actual`: `-` lines are expected but
/// missing, `+` lines are produced but not expected, and up to two lines of
/// context surround each change. Lines are shown with visible escapes for
/// tabs, carriage returns and other control characters; a missing final
/// newline is pointed out.
fn diff(expected: &[u8], actual: &[u8]) -> String {
    let expected_text = String::from_utf8_lossy(expected);
    let actual_text = String::from_utf8_lossy(actual);
    let old: Vec<&str> = split_lines(&expected_text);
    let new: Vec<&str> = split_lines(&actual_text);
    let mut out = String::new();

    if old.len() > MAX_DIFF_LINES || new.len() > MAX_DIFF_LINES {
        let first = old
            .iter()
            .zip(&new)
            .position(|(a, b)| a != b)
            .unwrap_or(old.len().min(new.len()));
        let _ = writeln!(
            out,
            "    (expected {} lines, got {}; first difference at line {})",
            old.len(),
            new.len(),
            first + 1
        );
        if let Some(line) = old.get(first) {
            let _ = writeln!(out, "    -{}", visible(line));
        }
        if let Some(line) = new.get(first) {
            let _ = writeln!(out, "    +{}", visible(line));
        }
        return out;
    }

    let ops = line_ops(&old, &new);
    // Mark which ops to print: changes plus two lines of context.
    let mut show = vec![false; ops.len()];
    for (i, op) in ops.iter().enumerate() {
        if !matches!(op, Op::Same(_)) {
            let lo = i.saturating_sub(2);
            let hi = (i + 3).min(ops.len());
            for flag in &mut show[lo..hi] {
                *flag = true;
            }
        }
    }
    let mut skipped = false;
    for (op, shown) in ops.iter().zip(&show) {
        if !shown {
            skipped = true;
            continue;
        }
        if skipped {
            out.push_str("    ...\n");
            skipped = false;
        }
        let (sign, line) = match op {
            Op::Same(l) => (' ', *l),
            Op::Removed(l) => ('-', *l),
            Op::Added(l) => ('+', *l),
        };
        let _ = writeln!(out, "    {sign}{}", visible(line));
    }
    if skipped {
        out.push_str("    ...\n");
    }
    if ops.iter().all(|op| matches!(op, Op::Same(_))) {
        // Same lines: the difference is in the final newline or in bytes
        // that do not survive lossy decoding.
        out.push_str(
            "    (the lines are equal; the difference is in line endings or invalid UTF-8)\n",
        );
    }
    let old_nl = expected.last().is_none_or(|&b| b == b'\n');
    let new_nl = actual.last().is_none_or(|&b| b == b'\n');
    if old_nl != new_nl {
        let _ = writeln!(
            out,
            "    (the {} output has no newline at the end)",
            if old_nl { "actual" } else { "expected" }
        );
    }
    out
}

enum Op<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// Splits into lines without the terminators; a trailing newline does not
/// make an extra empty line.
fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').collect()
}

/// Longest-common-subsequence line diff (fine for the small outputs of
/// golden programs; callers cap the size).
fn line_ops<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op<'a>> {
    let (n, m) = (old.len(), new.len());
    // lcs[i][j] = LCS length of old[i..] and new[j..], stored row-major.
    let width = m + 1;
    let mut lcs = vec![0u32; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * width + j] = if old[i] == new[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let mut ops = Vec::with_capacity(n + m);
    let (mut i, mut j) = (0, 0);
    let mut pending_added: VecDeque<&str> = VecDeque::new();
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            ops.extend(pending_added.drain(..).map(Op::Added));
            ops.push(Op::Same(old[i]));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j]) {
            // Group additions after the removals of the same hunk.
            pending_added.push_back(new[j]);
            j += 1;
        } else {
            ops.push(Op::Removed(old[i]));
            i += 1;
        }
    }
    ops.extend(pending_added.drain(..).map(Op::Added));
    ops
}

/// Makes tabs, carriage returns and other control characters visible.
fn visible(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
