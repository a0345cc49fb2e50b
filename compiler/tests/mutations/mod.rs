//! The seeded program mutator shared by the fuzz smoke tests: the
//! repository's `.f` files, mutated with byte flips, truncations, splices,
//! deletions and inserted tokens (so failures reproduce from the seed).
//! Included by `compiler/tests/check_fuzz_smoke.rs` and by
//! `festina-cli/tests/fusion_both_ways.rs`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// xorshift64*: small, seeded, good enough to pick mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

pub fn corpus() -> Vec<(PathBuf, String)> {
    // Both including crates live one level below the repository root.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for dir in ["examples", "tests/programs", "compiler/tests/parser_data"] {
        collect(&root.join(dir), &mut out);
    }
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "f") {
            if let Ok(text) = std::fs::read_to_string(&p) {
                out.push((p, text));
            }
        }
    }
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "${",
    "`",
    "'",
    "\"",
    "/",
    "\n",
    ";",
    ",",
    ":",
    "?",
    "=",
    "=>",
    "int",
    "text",
    "func",
    "struct",
    "enum",
    "match",
    "try",
    "catch",
    "throw",
    "null",
    "arr[",
    "map[",
    "amor",
    "return",
    "break",
    "free",
    "clear",
    "delete",
    "typeof",
    "++",
    "===",
    "\\0",
    "9999999999999999999999",
    ".",
    "x",
    "User",
    "on",
    "thread",
    "import",
];

pub fn mutate(rng: &mut Rng, a: &str, b: &str) -> String {
    let mut bytes = a.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => {
                let n = rng.below(bytes.len() + 1);
                bytes.truncate(n);
            }
            2 => {
                let i = rng.below(bytes.len() + 1);
                let bb = b.as_bytes();
                let j = rng.below(bb.len() + 1);
                let mut v = bytes[..i].to_vec();
                v.extend_from_slice(&bb[j..]);
                bytes = v;
            }
            3 => {
                let i = rng.below(bytes.len() + 1);
                let t = TOKENS[rng.below(TOKENS.len())];
                bytes.splice(i..i, t.bytes());
            }
            _ if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                let n = rng.below(16).min(bytes.len() - i);
                bytes.drain(i..i + n);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
