#!/usr/bin/env bash
# Runs the whole test suite: the set-up check, then every crate's tests and
# the golden programs (tests/golden.rs), in the optimised `fast` profile
# (release without LTO, see Cargo.toml) so that the golden
# programs run fast. Extra arguments go to cargo test, e.g.
#     bash scripts/test.sh --test golden -- arith/
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# setup.sh installed Xvfb and xdotool: the window tests must run, not skip.
export FESTINA_REQUIRE_XVFB=1
cargo test --workspace --profile fast "$@"
