//! Sets `FESTINA_RUNTIME_BUILD` for the package's code: a hash of
//! everything that makes up the runtime of a bundle (the VM's, the
//! standard library's and the signature tables' sources and manifests,
//! this package's sources, the workspace manifest and lock file) plus the
//! cargo features, profile and target. Two executables built from the
//! same inputs share it, which is how `festina compile` knows that a
//! runtime beside it runs programs exactly as `festina` does (see
//! `src/bundle.rs`).

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| manifest.clone());
    let inputs = [
        root.join("vm/src"),
        root.join("vm/Cargo.toml"),
        root.join("stdlib/src"),
        root.join("stdlib/Cargo.toml"),
        root.join("stdlib/signatures"),
        manifest.join("src"),
        manifest.join("Cargo.toml"),
        manifest.join("build.rs"),
        root.join("Cargo.toml"),
        root.join("Cargo.lock"),
    ];
    let mut hash = Fnv::new();
    for input in &inputs {
        println!("cargo:rerun-if-changed={}", input.display());
        let mut files = Vec::new();
        collect(input, &mut files);
        files.sort();
        for file in files {
            let relative = file.strip_prefix(&root).unwrap_or(&file);
            hash.write(relative.to_string_lossy().as_bytes());
            hash.write(&[0]);
            hash.write(&fs::read(&file).unwrap_or_default());
            hash.write(&[0]);
        }
    }
    for var in ["PROFILE", "OPT_LEVEL", "DEBUG", "TARGET", "RUSTC"] {
        println!("cargo:rerun-if-env-changed={var}");
        hash.write(std::env::var(var).unwrap_or_default().as_bytes());
        hash.write(&[0]);
    }
    // The facilities compiled in (`CARGO_FEATURE_DATABASE`, ...): cargo
    // reruns build scripts when the features change.
    let mut features: Vec<String> = std::env::vars()
        .map(|(k, _)| k)
        .filter(|k| k.starts_with("CARGO_FEATURE_"))
        .collect();
    features.sort();
    for feature in features {
        hash.write(feature.as_bytes());
        hash.write(&[0]);
    }
    println!("cargo:rustc-env=FESTINA_RUNTIME_BUILD={:016x}", hash.0);
    // The runtimes stay position-independent executables: linking them
    // `-no-pie` would drop 0.2-0.3 MB of `.rela.dyn` each, but also the
    // address randomisation of a server's own image (benches/RESULTS.md,
    // "Binary size"); not worth it for a size target it cannot reach.
}

/// Every file under `path` (or `path` itself).
fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
    } else if let Ok(entries) = fs::read_dir(path) {
        for entry in entries.flatten() {
            collect(&entry.path(), out);
        }
    }
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
