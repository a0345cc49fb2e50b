#!/usr/bin/env bash
# The database benchmark: 20,000 single-row INSERTs through sqlite() in a
# loop, then one SELECT of every row into an arr[Entry]
# (benches/db/insert.f), against the same work written directly against
# rusqlite in Rust (benches/db/direct.rs, the example `db_direct` of
# festina-stdlib), both measured in one run. Writes the section
# "## Database" of benches/RESULTS.md and leaves the other sections alone.
#
# Usage: bash benches/db/run.sh [ROUNDS [ROWS]]   (defaults: 7, 20000)
#
# Builds festina and db_direct with `cargo build --release` (fat LTO, the
# profile users get). Needs nothing else: SQLite is compiled in.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROUNDS=${1:-7}
ROWS=${2:-20000}
if ! [[ $ROUNDS =~ ^[0-9]+$ && $ROWS =~ ^[0-9]+$ ]] || ((ROUNDS < 1 || ROWS < 1)); then
    echo "usage: run.sh [ROUNDS [ROWS]]" >&2
    exit 2
fi
cargo build --release -p festina-cli
cargo build --release -p festina-stdlib --example db_direct
target/release/examples/db_direct --festina target/release/festina \
    --rounds "$ROUNDS" --rows "$ROWS" --results benches/RESULTS.md
