//! Self-contained executables (`festina compile`): the bundle format, the
//! writer, and the start-up check that finds and loads an embedded program.
//!
//! # What a bundle is
//! A bundle is a byte-for-byte copy of a *runtime* executable, followed by
//! the program's serialized bytecode (the *payload*, exactly what
//! [`festina_vm::serialize::to_bytes`] produces), followed by a fixed-size
//! *trailer*:
//!
//! ```text
//! +---------------------------+---------------------+-------------------+
//! | runtime executable        | payload (bytecode)  | trailer, 40 bytes |
//! +---------------------------+---------------------+-------------------+
//! 0                           R                     R + P              R + P + 40
//! ```
//!
//! The runtime is the smallest of the prebuilt runtimes (the VM and the
//! standard library without the compiler; `src/runtime/`) that has every
//! facility the program's natives need and is installed beside the
//! running `festina`, from the same build; otherwise a copy of the
//! running `festina` itself, which contains every facility plus the
//! compiler. See [Runtimes](#runtimes). "The same build" is checked
//! before the copy by running `<runtime> --festina-runtime-identity` and
//! comparing what it prints with [`runtime_identity`]: the package
//! version, the bundle and bytecode format versions, the instruction-set
//! fingerprint, and a hash of the runtime's sources, cargo features,
//! profile and target (`build.rs`), so a stale runtime left from an older
//! build is never used. Every executable starts with the same check
//! ([`crate::run_if_bundle`]), so a bundle behaves the same whichever
//! runtime it got; a runtime is only smaller, and starts a little faster.
//!
//! Nothing else is needed at run time: no source files, no `festina` on
//! `PATH`, no compiler.
//!
//! # Trailer layout
//! All integers are little-endian. Offsets are from the start of the
//! trailer, which is the last [`TRAILER_LEN`] (40) bytes of the file.
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 8 | `u64` runtime length *R*: where the payload starts |
//! | 8  | 8 | `u64` payload length *P* |
//! | 16 | 4 | `u32` CRC-32 (IEEE 802.3, as `crc32fast` computes it) of the payload |
//! | 20 | 4 | `u32` bytecode format version of the payload ([`festina_vm::serialize::FORMAT_VERSION`]) |
//! | 24 | 4 | `u32` CRC-32 of trailer bytes 0..24 |
//! | 28 | 4 | `u32` bundle format version ([`BUNDLE_VERSION`]) |
//! | 32 | 8 | magic, the 8 bytes [`MAGIC`] (`FSTBUNDL`) |
//!
//! A well-formed bundle satisfies *R* + *P* + 40 = the file's length, and
//! (for an ELF runtime) *R* = the end of the runtime's own ELF image.
//!
//! # Version rules
//! * The last 12 bytes (bundle format version, then magic) keep their
//!   place in every version; everything before them is defined by the
//!   bundle format version. A runtime refuses a bundle format version other
//!   than its own, naming both.
//! * [`BUNDLE_VERSION`] is bumped when the trailer layout or the meaning of
//!   its fields changes. The payload has its own version, the bytecode
//!   [`FORMAT_VERSION`](festina_vm::serialize::FORMAT_VERSION), bumped by
//!   the VM whenever the serialized program changes; it is recorded both in
//!   the trailer (checked before the payload is read) and in the payload's
//!   own header (checked again after the checksum, with the instruction-set
//!   fingerprint). Any difference is refused with a message naming both
//!   versions ("made by an incompatible build of festina").
//! * In practice the runtime of a bundle is always the build that wrote
//!   its payload (a bundle is a copy of the compiler's own executable), so
//!   these checks catch bundles assembled by hand or spliced together.
//!
//! # Start-up
//! Before it looks at its arguments, `festina` ([`embedded_program`])
//! opens its own executable (`/proc/self/exe` on Linux, which is what
//! [`std::env::current_exe`] resolves; elsewhere `current_exe`), and reads
//! only what it needs, never the whole file:
//!
//! 1. the first 4 KiB (ELF header and program headers). For an ELF file
//!    this gives the *runtime extent*: the end of the section header table
//!    or of the last segment, whichever is later. A plain `festina` is
//!    exactly that long, so the common case costs one open, one `statx`
//!    and one 4 KiB `pread`, and goes on as the ordinary command line tool;
//! 2. otherwise the last 40 bytes. With no trailer magic there: if the
//!    bytes after the ELF image start like a payload (`FSTB`), the file is
//!    a bundle whose end was cut off, and it is refused; anything else is
//!    not ours and is ignored. A file shorter than its own ELF headers
//!    describe is refused as truncated too;
//! 3. with a trailer: its version and checksum, the lengths against the
//!    file's length and the runtime extent, the bytecode version; then
//!    one read of exactly *P* bytes at *R*, the payload checksum, and
//!    [`festina_vm::serialize::from_bytes`], which verifies the program.
//!
//! A bundle start thus makes six system calls more than a Rust hello
//! world (open, statx, three preads, close) and reads 4 KiB + 40 bytes +
//! the payload, whatever the size of the runtime.
//!
//! A damaged bundle (truncated, corrupted, inconsistent) is refused with
//! `festina: this bundle is damaged: <what is wrong>`, an incompatible one
//! with a message naming both versions; both exit with status 2 and never
//! run any of the program. Otherwise the program runs with `argv[0]` = the
//! bundle's path as it was invoked and every other argument passed through
//! untouched (a bundle has no options of its own: `--help`, `--` and
//! `-o` are the program's); stdin, stdout, stderr, the environment and the
//! exit status behave exactly as under `festina app.f`.
//!
//! Limitations:
//! * Truncation is caught when the cut falls after the runtime's loaded
//!   segments: in the trailer, the payload, or the runtime's section header
//!   table (the last few KB of the runtime). A cut inside the loaded
//!   segments themselves leaves a file the operating system cannot load:
//!   the kernel maps it, and the dynamic loader dies of SIGSEGV or SIGBUS
//!   reading the missing pages before any festina code runs, as with any
//!   truncated native executable. No layout that starts with the runtime
//!   can avoid that. A cut exactly at *R* leaves a plain `festina`, which
//!   then acts as the command line tool (and exits 2 with its usage).
//! * A bundle must be readable as well as executable (with mode 0711 the
//!   payload cannot be read, and the file acts as plain `festina`).
//! * `strip` and similar tools drop the payload.
//! * On platforms whose executables are not ELF, only the trailer is
//!   checked: a bundle whose trailer was cut off is not told apart from a
//!   plain `festina`.
//!
//! # Runtimes
//! §21.3 asks that a compiled program link only what it uses: a program
//! that does not draw, open a window or play sound must not load cairo,
//! X11 or ALSA, and one that never opens the database need not carry
//! SQLite (about 1.2 MB). The natives a program calls are known
//! statically ([`festina_vm::program::Program::natives`]), and
//! `festina-signatures` places each in a *facility*: core (every runtime
//! has it), database, net, canvas, window, audio.
//! [`festina_stdlib::facilities_of`] turns the program's native list into
//! the set it needs.
//!
//! Each optional facility is a cargo feature of `festina-stdlib` (and of
//! this package, forwarding it), all on by default. A runtime is a binary
//! of this package whose `main` registers a fixed list of facilities
//! (`festina_stdlib::CORE`, `DATABASE`, ...); what its `main` does not
//! name is not linked, libraries included. (Cargo gives every binary of
//! one package the same dependency features, so the features decide what
//! a build can have, and each runtime's `main` decides what it has.)
//!
//! Five optional facilities make 32 combinations; building and testing
//! 32 runtimes is not worth it. There are six, [`RUNTIMES`], each for a
//! kind of program common enough to pay for one more binary in every
//! build (one more link of the runtime, a few seconds in the `fast`
//! profile of the test suite, one more fat-LTO link in a release build):
//!
//! | runtime | facilities | for |
//! |---|---|---|
//! | `festina-runtime-core` | core | scripts, text and data processing, files, timers |
//! | `festina-runtime-db` | core, database | programs with tables or `sqlite()` |
//! | `festina-runtime-http` | core, net | proxies, API clients, servers that keep no table |
//! | `festina-runtime-canvas` | core, net, canvas | programs that draw images and serve or save them, headless |
//! | `festina-runtime-net` | core, database, net | servers with a database |
//! | `festina-runtime` | every facility | programs that open a window or play sound |
//!
//! The cut points are where the libraries change: SQLite is statically
//! linked and self-contained (1.1 MB of the runtimes that have it), TLS
//! and HTTP are pure Rust, and cairo, X11 and ALSA are system libraries
//! that must never reach a program that does not use them. The HTTP
//! runtime and the canvas one came with the flagship programs
//! (`examples/flagship/`, issue 19): a reverse proxy uses the network
//! and no database, and an image endpoint draws and serves PNGs but
//! opens no window, plays no sound and keeps no table; given the
//! database runtime and the full one only, their bundles carried 1.1 MB
//! of SQLite, and the CAPTCHA endpoint's the window and audio too.
//! Drawing with the database (or without the network) is rarer, and
//! takes the full runtime.
//!
//! The bundle writer takes, of the runtimes that have every facility the
//! program needs ([`runtime_candidates`]) and are present, the smallest
//! file: the smallest superset. [`RUNTIMES`] lists them in the order of
//! their sizes in the release build, but the sizes decide, so a profile
//! that orders them otherwise still gets the smallest. If another
//! combination proves common, one more runtime goes into [`RUNTIMES`],
//! with a `[[bin]]` and a three-line `main`.
//!
//! A runtime that is missing beside `festina` (not built, or built from
//! another source) is skipped for the next superset; with none
//! left, `festina` copies itself, which has every facility of its build.
//! Each runtime reports its facilities in its identity probe
//! ([`probe_answer`]) and the writer checks them, so a runtime is never
//! trusted by its name alone. A build without some feature has no
//! runtime with that facility, and a program that needs it is refused
//! (by `festina compile` and by `festina app.f`) naming the facility.
//!
//! `festina` itself must run every program, so it links every facility of
//! its build; when canvas, window and audio arrive it will link their
//! libraries. The graphics and audio batteries may still load their
//! libraries on first use (`dlopen` by soname) so that `festina check`
//! keeps starting on a headless machine; that is their choice, and does
//! not change the runtimes. The `ldd` tests (`tests/bundle.rs`) check
//! every runtime: only those with the canvas link cairo (and the X11
//! libraries Debian's cairo brings), and only `festina-runtime` ALSA.
//!
//! The runtimes are linked as position-dependent executables on Linux
//! (`build.rs`), which spares them the dynamic relocations of a PIE
//! (0.2-0.3 MB each).
//!
//! Nothing of this is in the bundle format: which runtime a bundle got is
//! visible only in its size.

use festina_stdlib::{Facility, FacilitySet};
use festina_vm::program::Program;
use festina_vm::serialize;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The 8 bytes that end every bundle.
pub const MAGIC: [u8; 8] = *b"FSTBUNDL";

/// The bundle format version this build writes and reads.
pub const BUNDLE_VERSION: u32 = 1;

/// Length in bytes of the trailer at the end of a bundle.
pub const TRAILER_LEN: usize = 40;

/// A prebuilt runtime that `festina compile` looks for beside `festina`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runtime {
    /// Its file name (without the platform's executable suffix).
    pub name: &'static str,
    /// The facilities it registers (its `main` in `src/runtime/`).
    pub facilities: FacilitySet,
}

/// The runtimes, in the order of their sizes in the release build
/// (smallest first), the last with every facility (see
/// [Runtimes](#runtimes)).
pub const RUNTIMES: &[Runtime] = &[
    Runtime {
        name: "festina-runtime-core",
        facilities: FacilitySet::CORE,
    },
    Runtime {
        name: "festina-runtime-db",
        facilities: FacilitySet::of(&[Facility::Core, Facility::Database]),
    },
    Runtime {
        name: "festina-runtime-http",
        facilities: FacilitySet::of(&[Facility::Core, Facility::Net]),
    },
    Runtime {
        name: "festina-runtime-canvas",
        facilities: FacilitySet::of(&[Facility::Core, Facility::Net, Facility::Canvas]),
    },
    Runtime {
        name: "festina-runtime-net",
        facilities: FacilitySet::of(&[Facility::Core, Facility::Database, Facility::Net]),
    },
    Runtime {
        name: "festina-runtime",
        facilities: FacilitySet::ALL,
    },
];

/// The runtimes that have every facility of `needs`, in [`RUNTIMES`]
/// order (the bundle writer tries those it finds smallest file first).
pub fn runtime_candidates(needs: FacilitySet) -> impl Iterator<Item = &'static Runtime> {
    RUNTIMES
        .iter()
        .filter(move |r| r.facilities.includes(needs))
}

/// The argument that makes a runtime with no embedded program print its
/// [`probe_answer`].
pub const IDENTITY_FLAG: &str = "--festina-runtime-identity";

/// How long `festina compile` waits for a runtime to answer the identity
/// probe before trying the next one.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// How much of the start of the executable is read to find the ELF
/// headers.
const HEAD_LEN: usize = 4096;

/// The fixed-size record at the end of a bundle (see the module doc for
/// its layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trailer {
    /// Length of the runtime, i.e. offset of the payload in the file.
    pub runtime_len: u64,
    /// Length of the payload in bytes.
    pub payload_len: u64,
    /// CRC-32 of the payload.
    pub payload_crc: u32,
    /// Bytecode format version of the payload.
    pub bytecode_version: u32,
}

impl Trailer {
    /// The trailer for `payload` placed after a runtime of `runtime_len`
    /// bytes, with this build's bytecode format version.
    pub fn for_payload(runtime_len: u64, payload: &[u8]) -> Trailer {
        Trailer {
            runtime_len,
            payload_len: payload.len() as u64,
            payload_crc: crc32fast::hash(payload),
            bytecode_version: serialize::FORMAT_VERSION,
        }
    }

    /// The trailer's bytes, with this build's [`BUNDLE_VERSION`].
    pub fn encode(&self) -> [u8; TRAILER_LEN] {
        let mut b = [0u8; TRAILER_LEN];
        b[0..8].copy_from_slice(&self.runtime_len.to_le_bytes());
        b[8..16].copy_from_slice(&self.payload_len.to_le_bytes());
        b[16..20].copy_from_slice(&self.payload_crc.to_le_bytes());
        b[20..24].copy_from_slice(&self.bytecode_version.to_le_bytes());
        let crc = crc32fast::hash(&b[0..24]);
        b[24..28].copy_from_slice(&crc.to_le_bytes());
        b[28..32].copy_from_slice(&BUNDLE_VERSION.to_le_bytes());
        b[32..40].copy_from_slice(&MAGIC);
        b
    }

    /// Read the last [`TRAILER_LEN`] bytes of a file. `None` when they do
    /// not end with [`MAGIC`] (not a bundle, or one whose end is missing);
    /// a refusal for another bundle format version or a trailer that fails
    /// its checksum.
    pub fn decode(b: &[u8; TRAILER_LEN]) -> Option<Result<Trailer, Refusal>> {
        if b[32..40] != MAGIC {
            return None;
        }
        let version = le_u32(&b[28..32]);
        // The version field sits outside the checksum (so that any future
        // layout can be told apart); one no build of festina ever wrote
        // (0, or far beyond this one) is damage, not another build.
        if version == 0 || version > BUNDLE_VERSION.saturating_add(1000) {
            return Some(Err(Refusal::Damaged(format!(
                "the bundle trailer is damaged (its format version reads {version})"
            ))));
        }
        if version != BUNDLE_VERSION {
            return Some(Err(Refusal::Incompatible(format!(
                "this bundle was made by an incompatible build of festina: its bundle format \
                 is version {version}, and this runtime reads version {BUNDLE_VERSION}; \
                 compile the program again"
            ))));
        }
        let stored = le_u32(&b[24..28]);
        let computed = crc32fast::hash(&b[0..24]);
        if stored != computed {
            return Some(Err(Refusal::Damaged(format!(
                "the bundle trailer fails its checksum (stored {stored:08x}, computed {computed:08x})"
            ))));
        }
        Some(Ok(Trailer {
            runtime_len: le_u64(&b[0..8]),
            payload_len: le_u64(&b[8..16]),
            payload_crc: le_u32(&b[16..20]),
            bytecode_version: le_u32(&b[20..24]),
        }))
    }
}

/// Why a bundle is refused. Its `Display` is the message after
/// `festina: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Truncated, corrupted or inconsistent: shown as `this bundle is
    /// damaged: <reason>`.
    Damaged(String),
    /// Made by a build with another bundle or bytecode format: the full
    /// message, naming both versions.
    Incompatible(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Damaged(reason) => write!(f, "this bundle is damaged: {reason}"),
            Refusal::Incompatible(message) => f.write_str(message),
        }
    }
}

/// What the start-up check found in the running executable.
#[derive(Debug)]
pub enum Embedded {
    /// A plain `festina` or runtime (or an executable that
    /// cannot be read): go on as usual.
    None,
    /// A bundle whose program is intact and verified: run it.
    Program(Box<Program>),
    /// A bundle that must not run.
    Refused(Refusal),
}

/// The start-up check: is the running executable a bundle, and if so, its
/// verified program. Reads only the headers, the trailer and the payload.
pub fn embedded_program() -> Embedded {
    let Some(mut file) = open_own_executable() else {
        return Embedded::None;
    };
    match locate(&mut file) {
        Ok(None) => Embedded::None,
        Ok(Some(trailer)) => match load_payload(&mut file, &trailer) {
            Ok(program) => Embedded::Program(Box::new(program)),
            Err(refusal) => Embedded::Refused(refusal),
        },
        Err(refusal) => Embedded::Refused(refusal),
    }
}

/// Open the running executable for reading. `None` if it cannot be found
/// or read (then it cannot carry a payload we could use).
pub fn open_own_executable() -> Option<File> {
    #[cfg(target_os = "linux")]
    if let Ok(file) = File::open("/proc/self/exe") {
        return Some(file);
    }
    let path = std::env::current_exe().ok()?;
    File::open(path).ok()
}

/// Find the bundle trailer of an executable. `Ok(None)`: a plain
/// executable, nothing appended (or something appended that is not ours).
/// `Ok(Some)`: a trailer consistent with the file's length and runtime
/// extent. A refusal for a truncated file, a trailer that fails its
/// checksum or disagrees with the file, or another bundle format version.
pub fn locate(file: &mut File) -> Result<Option<Trailer>, Refusal> {
    let len = file.metadata().map_err(read_error)?.len();
    let mut head = vec![0u8; HEAD_LEN.min(len as usize)];
    read_at(file, 0, &mut head)?;
    let extent = elf_extent(&head, file, len);
    match extent {
        Some(e) if e == len => return Ok(None),
        Some(e) if e > len => {
            return Err(Refusal::Damaged(format!(
                "it is cut short: {len} bytes, but its executable headers alone describe {e}"
            )))
        }
        _ => {}
    }
    let decoded = if len >= TRAILER_LEN as u64 {
        let mut b = [0u8; TRAILER_LEN];
        read_at(file, len - TRAILER_LEN as u64, &mut b)?;
        Trailer::decode(&b)
    } else {
        None
    };
    let trailer = match decoded {
        Some(result) => result?,
        None => {
            let Some(e) = extent else { return Ok(None) };
            // Bytes follow the ELF image but no trailer ends the file: a
            // bundle cut short, if they start like a payload.
            let mut start = vec![0u8; (len - e).min(serialize::MAGIC.len() as u64) as usize];
            read_at(file, e, &mut start)?;
            if serialize::MAGIC.starts_with(&start) {
                return Err(Refusal::Damaged(format!(
                    "its end is missing ({} bytes follow the runtime, but no bundle trailer \
                     ends the file); it was probably truncated",
                    len - e
                )));
            }
            return Ok(None);
        }
    };
    let described = trailer
        .runtime_len
        .checked_add(trailer.payload_len)
        .and_then(|n| n.checked_add(TRAILER_LEN as u64));
    if described != Some(len) {
        return Err(Refusal::Damaged(format!(
            "the file is {len} bytes, but its trailer describes a runtime of {} bytes and a \
             program of {} bytes",
            trailer.runtime_len, trailer.payload_len
        )));
    }
    if let Some(e) = extent {
        if trailer.runtime_len != e {
            return Err(Refusal::Damaged(format!(
                "the program should start where the runtime ends (byte {e}), but the trailer \
                 puts it at byte {}",
                trailer.runtime_len
            )));
        }
    }
    Ok(Some(trailer))
}

/// Read, check and decode the payload that `trailer` describes: the
/// bytecode version, the checksum, the payload's own header, then
/// [`serialize::from_bytes`] (which verifies the program).
pub fn load_payload(file: &mut File, trailer: &Trailer) -> Result<Program, Refusal> {
    if trailer.bytecode_version != serialize::FORMAT_VERSION {
        return Err(incompatible_bytecode(trailer.bytecode_version));
    }
    let len = usize::try_from(trailer.payload_len)
        .map_err(|_| Refusal::Damaged("the program is too large for this machine".into()))?;
    let mut payload = vec![0u8; len];
    read_at(file, trailer.runtime_len, &mut payload)?;
    let computed = crc32fast::hash(&payload);
    if computed != trailer.payload_crc {
        return Err(Refusal::Damaged(format!(
            "the program fails its checksum (stored {:08x}, computed {computed:08x})",
            trailer.payload_crc
        )));
    }
    decode_payload(&payload)
}

/// Decode a payload whose checksum has passed: the header's magic, version
/// and instruction-set fingerprint give clear messages before
/// [`serialize::from_bytes`] decodes and verifies the rest.
pub fn decode_payload(payload: &[u8]) -> Result<Program, Refusal> {
    if payload.len() < 16 || payload[0..4] != serialize::MAGIC[..] {
        return Err(Refusal::Damaged(
            "the embedded data is not a festina program".into(),
        ));
    }
    let version = le_u32(&payload[4..8]);
    if version != serialize::FORMAT_VERSION {
        return Err(incompatible_bytecode(version));
    }
    if le_u64(&payload[8..16]) != serialize::instruction_set_fingerprint() {
        return Err(Refusal::Incompatible(format!(
            "this bundle was made by an incompatible build of festina: its program uses \
             another instruction set (same bytecode format version {version}); compile it \
             again with this festina"
        )));
    }
    serialize::from_bytes(payload)
        .map_err(|e| Refusal::Damaged(format!("the program cannot be loaded: {e}")))
}

fn incompatible_bytecode(version: u32) -> Refusal {
    Refusal::Incompatible(format!(
        "this bundle was made by an incompatible build of festina: its program is in \
         bytecode format version {version}, and this runtime reads version {}; compile it \
         again with this festina",
        serialize::FORMAT_VERSION
    ))
}

/// What identifies a runtime build: two executables with the same
/// identity run a bundle's program identically. One line: package
/// version, `build` (a hash of the runtime's sources, the `Cargo.lock`,
/// profile and target, from `build.rs`), bundle format version, bytecode
/// format version, instruction-set fingerprint.
pub fn runtime_identity() -> String {
    format!(
        "festina-runtime {} build {} bundle {BUNDLE_VERSION} bytecode {} isa {:016x}",
        env!("CARGO_PKG_VERSION"),
        env!("FESTINA_RUNTIME_BUILD"),
        serialize::FORMAT_VERSION,
        serialize::instruction_set_fingerprint()
    )
}

/// What a runtime prints for the identity probe: [`runtime_identity`],
/// then ` facilities ` and the set it registers (`core,database`).
pub fn probe_answer(facilities: FacilitySet) -> String {
    format!("{} facilities {facilities}", runtime_identity())
}

/// The runtime to copy into a bundle of a program that needs `needs`: the
/// first of [`runtime_candidates`] that is beside the running executable
/// and answers the identity probe for this build with every facility of
/// `needs`; else the running executable itself (which must be a plain
/// executable, not a bundle, and have `needs`).
pub fn open_runtime(needs: FacilitySet) -> io::Result<File> {
    // The candidates present, smallest file first (a stable sort: equal
    // sizes keep the table's order), so that the smallest superset wins
    // whatever the profile of the build did to their sizes.
    let mut present: Vec<(u64, PathBuf)> = runtime_candidates(needs)
        .filter_map(|runtime| {
            let path = runtime_path(runtime.name)?;
            Some((fs::metadata(&path).ok()?.len(), path))
        })
        .collect();
    present.sort_by_key(|(len, _)| *len);
    for (_, path) in present {
        if same_build_runtime(&path, needs) {
            if let Ok(mut file) = File::open(&path) {
                if let Ok(None) = locate(&mut file) {
                    return Ok(file);
                }
            }
        }
    }
    let own = festina_stdlib::facility_set(&festina_stdlib::compiled());
    if !own.includes(needs) {
        let missing: Vec<&str> = needs
            .iter()
            .filter(|f| !own.contains(*f))
            .map(|f| f.name())
            .collect();
        let plural = if missing.len() == 1 { "" } else { "s" };
        return Err(io::Error::other(format!(
            "the program needs the {} facilit{}, which this build of festina does not have \
             (it was built without the cargo feature{plural} `{}`)",
            missing.join(" and "),
            if missing.len() == 1 { "y" } else { "ies" },
            missing.join("`, `")
        )));
    }
    let mut file = open_own_executable().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "cannot open the running festina executable to copy its runtime",
        )
    })?;
    match locate(&mut file) {
        Ok(None) => Ok(file),
        Ok(Some(_)) => Err(io::Error::other(
            "the running festina executable is itself a bundle",
        )),
        Err(refusal) => Err(io::Error::other(format!(
            "the running festina executable cannot be copied: {refusal}"
        ))),
    }
}

/// The runtime named `runtime` beside the running executable, if there
/// is a file of that name (and it is not the running executable).
fn runtime_path(runtime: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let name = format!("{runtime}{}", std::env::consts::EXE_SUFFIX);
    let path = exe.parent()?.join(name);
    (path.is_file() && path != exe).then_some(path)
}

/// Whether the runtime at `path` answers the identity probe with this
/// build's [`runtime_identity`] and facilities that include `needs`.
fn same_build_runtime(path: &Path, needs: FacilitySet) -> bool {
    probe(path).is_some_and(|has| has.includes(needs))
}

/// The facilities the runtime at `path` reports for this build, if it
/// answers the identity probe in time.
fn probe(path: &Path) -> Option<FacilitySet> {
    let mut child = Command::new(path)
        .arg(IDENTITY_FLAG)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + PROBE_TIMEOUT;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(1)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut answer = String::new();
    child.stdout.take()?.read_to_string(&mut answer).ok()?;
    parse_probe_answer(answer.trim_end())
}

/// The facilities in a runtime's [`probe_answer`], if it is this build's.
pub fn parse_probe_answer(answer: &str) -> Option<FacilitySet> {
    let rest = answer.strip_prefix(&runtime_identity())?;
    FacilitySet::parse(rest.strip_prefix(" facilities ")?)
}

/// Write a bundle to `out` for a program that needs the facilities
/// `needs`: the runtime ([`open_runtime`]), then `payload`, then the
/// trailer. The file is written under a temporary name in the same
/// directory and renamed into place, so an existing `out` (even a running
/// bundle) is replaced whole. Returns the bundle's size.
pub fn write_bundle(out: &Path, payload: &[u8], needs: FacilitySet) -> io::Result<u64> {
    let mut runtime = open_runtime(needs)?;
    let runtime_len = runtime.metadata()?.len();
    let tmp = temporary_path(out);
    let result = write_parts(&tmp, &mut runtime, runtime_len, payload)
        .and_then(|size| fs::rename(&tmp, out).map(|()| size));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Write runtime, payload and trailer to a new file at `path`.
fn write_parts(
    path: &Path,
    runtime: &mut File,
    runtime_len: u64,
    payload: &[u8],
) -> io::Result<u64> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o755);
    }
    let mut file = options.open(path)?;
    runtime.seek(SeekFrom::Start(0))?;
    let copied = io::copy(&mut runtime.take(runtime_len), &mut file)?;
    if copied != runtime_len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the festina executable changed while it was being copied",
        ));
    }
    file.write_all(payload)?;
    file.write_all(&Trailer::for_payload(runtime_len, payload).encode())?;
    file.flush()?;
    Ok(runtime_len + payload.len() as u64 + TRAILER_LEN as u64)
}

/// `dir/.name.festina-tmp-<pid>` beside `out`.
fn temporary_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bundle".into());
    let tmp = format!(".{name}.festina-tmp-{}", std::process::id());
    match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp),
        _ => PathBuf::from(tmp),
    }
}

/// A size for people: `840 bytes`, `12.3 kB`, `1.1 MB` (decimal units).
pub fn human_size(bytes: u64) -> String {
    if bytes < 1000 {
        format!("{bytes} bytes")
    } else if bytes < 1_000_000 {
        format!("{:.1} kB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

// ---------------------------------------------------------------------------
// Reading

fn read_error(e: io::Error) -> Refusal {
    Refusal::Damaged(format!("cannot read the executable: {e}"))
}

/// Fill `buf` from `offset` (one `pread` on Unix); a short file is a
/// refusal, not a panic.
fn read_at(file: &mut File, offset: u64, buf: &mut [u8]) -> Result<(), Refusal> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, offset).map_err(read_error)
    }
    #[cfg(not(unix))]
    {
        file.seek(SeekFrom::Start(offset)).map_err(read_error)?;
        file.read_exact(buf).map_err(read_error)
    }
}

fn le_u32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[..4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// Where an ELF image ends: the later of the end of the section header
/// table and the end of the last segment's file contents. `None` for a
/// file that is not ELF, or headers this reader does not understand
/// (extended section numbering, offsets past the file), in which case the
/// extent is unknown and only the trailer is trusted.
fn elf_extent(head: &[u8], file: &mut File, len: u64) -> Option<u64> {
    if head.len() < 52 || head[0..4] != *b"\x7fELF" {
        return None;
    }
    let wide = match head[4] {
        1 => false,
        2 => true,
        _ => return None,
    };
    let big = match head[5] {
        1 => false,
        2 => true,
        _ => return None,
    };
    let int = |b: &[u8], at: usize, size: usize| -> Option<u64> {
        let bytes = b.get(at..at + size)?;
        let mut v = 0u64;
        for i in 0..size {
            let byte = if big { bytes[i] } else { bytes[size - 1 - i] };
            v = (v << 8) | u64::from(byte);
        }
        Some(v)
    };
    let word = if wide { 8 } else { 4 };
    let (phoff, shoff) = if wide {
        (int(head, 0x20, 8)?, int(head, 0x28, 8)?)
    } else {
        (int(head, 0x1c, 4)?, int(head, 0x20, 4)?)
    };
    let at = if wide { 0x34 } else { 0x28 };
    let ehsize = int(head, at, 2)?;
    let phentsize = int(head, at + 2, 2)?;
    let phnum = int(head, at + 4, 2)?;
    let shentsize = int(head, at + 6, 2)?;
    let shnum = int(head, at + 8, 2)?;
    let min_phentsize = if wide { 56 } else { 32 };
    if (phnum > 0 && phentsize < min_phentsize) || phnum == 0xffff || (shnum == 0 && shoff != 0) {
        return None; // extended numbering: count stored elsewhere
    }
    let ph_table = phentsize.checked_mul(phnum)?;
    let mut extent = ehsize.max(phoff.checked_add(ph_table)?);
    extent = extent.max(shoff.checked_add(shentsize.checked_mul(shnum)?)?);
    if phnum > 0 {
        if phoff.checked_add(ph_table)? > len {
            return Some(extent); // program headers cut off: report truncation
        }
        let table: std::borrow::Cow<[u8]> =
            match head.get(phoff as usize..(phoff + ph_table) as usize) {
                Some(t) => t.into(),
                None => {
                    let mut t = vec![0u8; ph_table as usize];
                    read_at(file, phoff, &mut t).ok()?;
                    t.into()
                }
            };
        let (off_at, filesz_at) = if wide { (8, 32) } else { (4, 16) };
        for entry in table.chunks_exact(phentsize as usize) {
            let offset = int(entry, off_at, word)?;
            let filesz = int(entry, filesz_at, word)?;
            extent = extent.max(offset.checked_add(filesz)?);
        }
    }
    Some(extent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Trailer {
        Trailer {
            runtime_len: 1_234_567,
            payload_len: 890,
            payload_crc: 0xdead_beef,
            bytecode_version: serialize::FORMAT_VERSION,
        }
    }

    #[test]
    fn trailer_round_trips() {
        let t = sample();
        let b = t.encode();
        assert_eq!(&b[32..], b"FSTBUNDL");
        assert_eq!(Trailer::decode(&b), Some(Ok(t)));
    }

    #[test]
    fn trailer_layout_is_little_endian() {
        let b = sample().encode();
        assert_eq!(b[0..8], 1_234_567u64.to_le_bytes());
        assert_eq!(b[8..16], 890u64.to_le_bytes());
        assert_eq!(b[16..20], 0xdead_beefu32.to_le_bytes());
        assert_eq!(b[28..32], BUNDLE_VERSION.to_le_bytes());
    }

    #[test]
    fn no_magic_is_not_a_bundle() {
        let mut b = sample().encode();
        b[39] ^= 1;
        assert_eq!(Trailer::decode(&b), None);
    }

    #[test]
    fn corrupted_trailer_is_damaged() {
        let mut b = sample().encode();
        b[3] ^= 0x10;
        match Trailer::decode(&b) {
            Some(Err(Refusal::Damaged(m))) => assert!(m.contains("checksum"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn other_bundle_version_names_both() {
        let mut b = sample().encode();
        b[28..32].copy_from_slice(&7u32.to_le_bytes());
        match Trailer::decode(&b) {
            Some(Err(r @ Refusal::Incompatible(_))) => {
                let m = r.to_string();
                assert!(
                    m.contains("version 7") && m.contains(&format!("version {BUNDLE_VERSION}")),
                    "{m}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn payload_header_checks() {
        assert!(matches!(decode_payload(b"nope"), Err(Refusal::Damaged(_))));
        let mut p = serialize::to_bytes(&Program::default());
        p[4..8].copy_from_slice(&(serialize::FORMAT_VERSION + 1).to_le_bytes());
        match decode_payload(&p) {
            Err(r @ Refusal::Incompatible(_)) => {
                let m = r.to_string();
                let other = format!("version {}", serialize::FORMAT_VERSION + 1);
                let ours = format!("version {}", serialize::FORMAT_VERSION);
                assert!(m.contains(&other) && m.contains(&ours), "{m}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_running_test_binary_is_a_plain_elf() {
        // The test executable is an ELF file with nothing appended: its
        // extent is its length, so it is not a bundle.
        let mut file = open_own_executable().expect("own executable");
        let len = file.metadata().unwrap().len();
        let mut head = vec![0u8; HEAD_LEN];
        read_at(&mut file, 0, &mut head).unwrap();
        if head.starts_with(b"\x7fELF") {
            assert_eq!(elf_extent(&head, &mut file, len), Some(len));
        }
        assert_eq!(locate(&mut file), Ok(None));
    }

    #[test]
    fn every_set_of_facilities_has_a_runtime_and_the_last_has_all() {
        assert_eq!(RUNTIMES[0].facilities, FacilitySet::CORE);
        assert_eq!(RUNTIMES.last().unwrap().facilities, FacilitySet::ALL);
        for runtime in RUNTIMES {
            assert!(
                runtime.facilities.includes(FacilitySet::CORE),
                "{}",
                runtime.name
            );
        }
    }

    /// The names of the runtimes a program needing `needs` may get, in
    /// the order of [`RUNTIMES`].
    fn names(needs: &[Facility]) -> Vec<&'static str> {
        runtime_candidates(FacilitySet::of(needs))
            .map(|r| r.name)
            .collect()
    }

    #[test]
    fn the_smallest_superset_comes_first() {
        let all = [
            "festina-runtime-core",
            "festina-runtime-db",
            "festina-runtime-http",
            "festina-runtime-canvas",
            "festina-runtime-net",
            "festina-runtime",
        ];
        assert_eq!(names(&[Facility::Core]), all);
        assert_eq!(
            names(&[Facility::Core, Facility::Database]),
            [
                "festina-runtime-db",
                "festina-runtime-net",
                "festina-runtime"
            ]
        );
        assert_eq!(
            names(&[Facility::Core, Facility::Net]),
            [
                "festina-runtime-http",
                "festina-runtime-canvas",
                "festina-runtime-net",
                "festina-runtime"
            ]
        );
        assert_eq!(
            names(&[Facility::Core, Facility::Database, Facility::Net]),
            ["festina-runtime-net", "festina-runtime"]
        );
        for canvas in [
            &[Facility::Core, Facility::Canvas][..],
            &[Facility::Core, Facility::Net, Facility::Canvas],
        ] {
            assert_eq!(names(canvas), ["festina-runtime-canvas", "festina-runtime"]);
        }
        for whole in [
            &[Facility::Core, Facility::Window][..],
            &[Facility::Core, Facility::Audio],
            &[Facility::Core, Facility::Database, Facility::Canvas],
        ] {
            assert_eq!(names(whole), ["festina-runtime"]);
        }
    }

    #[test]
    fn probe_answers() {
        let db = FacilitySet::CORE.with(Facility::Database);
        assert_eq!(parse_probe_answer(&probe_answer(db)), Some(db));
        assert_eq!(parse_probe_answer(&runtime_identity()), None);
        assert_eq!(
            parse_probe_answer("festina-runtime 0.0.1 build 0 facilities core"),
            None
        );
    }

    #[test]
    fn sizes_for_people() {
        assert_eq!(human_size(840), "840 bytes");
        assert_eq!(human_size(12_345), "12.3 kB");
        assert_eq!(human_size(1_100_000), "1.1 MB");
    }
}
