#!/usr/bin/env python3
"""Where a runtime's bytes go: text (code) and data by crate.

Usage: python3 benches/size_by_crate.py BINARY [BINARY...] [--top N]

BINARY must keep its symbols: build it with the `profiling` profile
(`cargo build --profile profiling -p festina-cli --bins`), which is the
release build (fat LTO, one codegen unit) without `strip`. Each symbol of
`nm --print-size --size-sort -C` is charged to a crate: the first path
segment of its demangled name (for `<T as Trait>::f`, the crate of `T`;
a generic function counts where it is defined, whichever crate
instantiated it); C symbols by prefix (SQLite, ring's assembly, cairo's
binding). What nm cannot see (string literals merged into `.rodata`,
relocations, the ELF headers, unwind tables `.eh_frame`) is the
difference between the file's size and the symbols' sum, shown per
section with `size -A`.
"""
import collections
import re
import subprocess
import sys

C_PREFIXES = [
    ("sqlite3", "libsqlite3-sys (SQLite, C)"),
    ("ring_", "ring (C/asm)"),
    ("GFp", "ring (C/asm)"),
    ("ecp_nistz256", "ring (C/asm)"),
    ("x25519", "ring (C/asm)"),
    ("aes_", "ring (C/asm)"),
    ("ChaCha20", "ring (C/asm)"),
    ("chacha20", "ring (C/asm)"),
    ("sha256_block", "ring (C/asm)"),
    ("sha512_block", "ring (C/asm)"),
    ("bn_", "ring (C/asm)"),
    ("gcm_", "ring (C/asm)"),
    ("poly1305", "ring (C/asm)"),
    ("LIMBS", "ring (C/asm)"),
    ("LIMB", "ring (C/asm)"),
    ("p256", "ring (C/asm)"),
    ("p384", "ring (C/asm)"),
    ("fiat", "ring (C/asm)"),
    ("CRYPTO", "ring (C/asm)"),
    ("OPENSSL", "ring (C/asm)"),
    ("k25519", "ring (C/asm)"),
]


def crate_of(name):
    name = name.strip()
    # <T as Trait>::f and <T>::f: the crate of T.
    while name.startswith("<"):
        name = name[1:]
    name = name.lstrip("&*").replace("mut ", "").replace("dyn ", "")
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)::", name)
    if m:
        return m.group(1)
    for prefix, crate in C_PREFIXES:
        if name.startswith(prefix):
            return crate
    return "(other: C, libc, linker)"


def attribute(path):
    out = subprocess.run(
        ["nm", "--print-size", "--size-sort", "-C", path],
        capture_output=True, text=True, check=True,
    ).stdout
    text = collections.Counter()
    data = collections.Counter()
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) < 4:
            continue
        size = int(parts[1], 16)
        kind = parts[2]
        crate = crate_of(parts[3])
        if kind in "tTwW":
            text[crate] += size
        else:
            data[crate] += size
    return text, data


def sections(path):
    out = subprocess.run(["size", "-A", path], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            rows[parts[0]] = int(parts[1])
    return rows


def main():
    args = sys.argv[1:]
    top = 25
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i : i + 2]
    for path in args:
        text, data = attribute(path)
        sec = sections(path)
        total_text = sum(text.values())
        print(f"## {path}")
        keep = [".text", ".rodata", ".data.rel.ro", ".eh_frame", ".eh_frame_hdr", ".gcc_except_table", ".data", ".rela.dyn"]
        print("sections (kB): " + ", ".join(f"{k} {sec[k] / 1e3:.0f}" for k in keep if k in sec))
        print(f"text symbols: {total_text / 1e3:.0f} kB of .text {sec.get('.text', 0) / 1e3:.0f} kB")
        print("| crate | text kB | data kB |")
        print("|---|---:|---:|")
        crates = sorted(set(text) | set(data), key=lambda c: -(text[c] + data[c]))
        rest_t = rest_d = 0
        for i, c in enumerate(crates):
            if i < top:
                print(f"| {c} | {text[c] / 1e3:.0f} | {data[c] / 1e3:.0f} |")
            else:
                rest_t += text[c]
                rest_d += data[c]
        if rest_t or rest_d:
            print(f"| ({len(crates) - top} more) | {rest_t / 1e3:.0f} | {rest_d / 1e3:.0f} |")
        print()


if __name__ == "__main__":
    main()
