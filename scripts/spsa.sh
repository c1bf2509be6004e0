#!/usr/bin/env bash
# SPSA over the search's parameters (OpenBench's method), games played by arena.
#
# Builds cb2026 from the working tree with the `tune` feature (so that its UCI options list the
# parameters, which arena needs) into target/spsa-build, copies it to target/spsa/cb2026-tune,
# builds arena and tune, and runs `tune spsa` with the arguments given.
#
# Usage: scripts/spsa.sh [tune spsa options] [-- more arena arguments]
#   --params A,B,...            parameters to tune (default: chapter 14's six margins)
#   --iterations N              iterations (required)
#   --pairs-per-iteration P     game pairs per iteration (default 8)
#   --tc TC                     time control (default 4+0.04; nodes=N for quick checks)
#   --log FILE                  log, resumed if it is of the same run (default target/spsa/spsa.log)
#   (target/release/tune spsa --help lists the rest)
#
# Example: scripts/spsa.sh --iterations 2000 --pairs-per-iteration 8 --tc 4+0.04
# With techniques that are off by default switched on for both engines (recorded in the log):
#   scripts/spsa.sh --iterations 1000 --pairs-per-iteration 4 -- --each option.tt_eval=true
# An interrupted run continues where it stopped when the same command is run again.
# Then test the result: scripts/spsa-apply.py LOG puts the last iteration's values into
# crates/engine/src/params.rs as the defaults (rounded, clamped to each range); run scripts/sprt.sh.

set -euo pipefail
export LC_ALL=C

root=$(git rev-parse --show-toplevel)
cd "$root"

case ${1:-} in
    -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

echo "== building cb2026 with the tune feature (target/spsa-build)"
CARGO_TARGET_DIR=target/spsa-build cargo build --release -p uci --features tune
mkdir -p target/spsa
# Copy then rename, so that a run still using the old binary is not disturbed.
cp target/spsa-build/release/cb2026 target/spsa/cb2026-tune.new
mv -f target/spsa/cb2026-tune.new target/spsa/cb2026-tune

echo "== building arena and tune"
cargo build --release -p arena -p tune

exec target/release/tune spsa --engine target/spsa/cb2026-tune --arena target/release/arena "$@"
