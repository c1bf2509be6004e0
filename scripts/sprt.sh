#!/usr/bin/env bash
# Test a change by SPRT: cb2026 built from the working tree ("new") against cb2026 built at a base
# revision ("base"), with arena, until the SPRT accepts H0 or H1. Prints the verdict and the
# bench counts of both builds.
#
# Usage: scripts/sprt.sh [options] [-- more arena arguments]
#   --base REV         base revision (default HEAD: test the uncommitted change)
#   --tc TC            time control (default 8+0.08; the long test is 40+0.4)
#   --elo0 E --elo1 E  SPRT bounds in normalized Elo (default 0 and 5)
#   --alpha A --beta B error rates (default 0.05 and 0.05)
#   --concurrency N    games at once (default: the number of cores)
#   --openings FILE    EPD book (default: ../shared/data/openings/balanced.epd if present, else
#                      data/openings/balanced.epd)
#   --rounds N         stop after N game pairs even without a decision
#   --name NAME        call the files target/sprt/NAME.{pgn,txt,bench} (default: the time)
#   --seed N           the opening order (default: from the clock, printed in the summary)
#   --resume           continue the test in target/sprt/NAME.pgn (needs --name and the --seed
#                      it was started with); refused if either build's bench has changed
#
# The base is built in a git worktree at target/sprt-base (its own target dir, so later runs
# rebuild only what changed); the two binaries are copied to target/sprt/ so that building
# during the test cannot swap them. Games go to target/sprt/<time>.pgn, the summary to
# target/sprt/<time>.txt. Each engine gets Hash=16 and Threads=1.

set -euo pipefail
export LC_ALL=C

root=$(git rev-parse --show-toplevel)
cd "$root"

base=HEAD tc=8+0.08 elo0=0 elo1=5 alpha=0.05 beta=0.05
concurrency=$(nproc 2>/dev/null || echo 1)
openings=data/openings/balanced.epd
[[ -f ../shared/data/openings/balanced.epd ]] && openings=../shared/data/openings/balanced.epd
rounds=() seed=() name="" resume=0
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case $1 in
        --base) base=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --elo0) elo0=$2; shift 2 ;;
        --elo1) elo1=$2; shift 2 ;;
        --alpha) alpha=$2; shift 2 ;;
        --beta) beta=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --rounds) rounds=(--rounds "$2"); shift 2 ;;
        --name) name=$2; shift 2 ;;
        --seed) seed=(--seed "$2"); shift 2 ;;
        --resume) resume=1; shift ;;
        --) shift; break ;;
        -h | --help) usage ;;
        *) echo "sprt.sh: unknown option $1" >&2; usage ;;
    esac
done

if ((resume)) && [[ -z $name || ${#seed[@]} -eq 0 ]]; then
    echo "sprt.sh: --resume needs the --name and --seed of the test to continue" >&2
    exit 2
fi

rev=$(git rev-parse --verify --quiet "$base^{commit}") || { echo "sprt.sh: no revision '$base'" >&2; exit 2; }
short=$(git rev-parse --short "$rev")

echo "== building base $short ($(git log -1 --format=%s "$rev"))"
worktree=target/sprt-base
if git -C "$worktree" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$worktree" checkout --quiet --force --detach "$rev"
else
    rm -rf "$worktree"
    git worktree prune
    git worktree add --quiet --detach "$worktree" "$rev"
fi
(cd "$worktree" && CARGO_TARGET_DIR="$root/target/sprt-base-build" cargo build --release -p uci)

echo "== building new (working tree) and arena"
cargo build --release -p uci -p arena

mkdir -p target/sprt
cp target/sprt-base-build/release/cb2026 target/sprt/cb2026-base
cp target/release/cb2026 target/sprt/cb2026-new

# `cb2026 bench` ends with `N nodes M nps`; a build without bench says so instead.
bench() {
    local last
    last=$(timeout 300 "$1" bench 2>/dev/null | tail -n 1) || true
    if [[ $last =~ ^([0-9]+)\ nodes\ ([0-9]+)\ nps ]]; then
        echo "${BASH_REMATCH[1]} nodes ${BASH_REMATCH[2]} nps"
    else
        echo "not available (no 'N nodes M nps' line from '$1 bench')"
    fi
}
# Both at once (bench is single-threaded): the node counts do not depend on the load.
echo "== bench of both builds"
bench target/sprt/cb2026-base >target/sprt/bench-base.txt &
bench target/sprt/cb2026-new >target/sprt/bench-new.txt &
wait
bench_base=$(<target/sprt/bench-base.txt)
bench_new=$(<target/sprt/bench-new.txt)
dirty=""
[[ -n $(git status --porcelain --untracked-files=no) ]] && dirty=" + uncommitted changes"

stamp=${name:-$(date +%Y%m%d-%H%M%S)}
# The node counts only: the speed differs from run to run.
builds="base ${bench_base%% *} nodes, new ${bench_new%% *} nodes"
resuming=()
if ((resume)); then
    if [[ -f target/sprt/$stamp.bench && $(<"target/sprt/$stamp.bench") != "$builds" ]]; then
        echo "sprt.sh: the builds have changed since the test began ($(<"target/sprt/$stamp.bench");" >&2
        echo "now $builds): resuming would mix two tests" >&2
        exit 2
    fi
    resuming=(--resume)
elif [[ -e target/sprt/$stamp.pgn ]]; then
    echo "sprt.sh: target/sprt/$stamp.pgn exists: --resume to continue that test, or remove it" >&2
    exit 2
fi
echo "$builds" >"target/sprt/$stamp.bench"
echo "== SPRT new vs base-$short at $tc (games: target/sprt/$stamp.pgn)"
set +e
target/release/arena \
    --engine cmd=target/sprt/cb2026-new name=new \
    --engine cmd=target/sprt/cb2026-base name="base-$short" \
    --each option.Hash=16 option.Threads=1 \
    --tc "$tc" --concurrency "$concurrency" "${rounds[@]}" "${seed[@]}" "${resuming[@]}" \
    --openings file="$openings" \
    --sprt elo0="$elo0" elo1="$elo1" alpha="$alpha" beta="$beta" \
    --event "SPRT new vs base-$short" --pgn "target/sprt/$stamp.pgn" "$@" |
    tee "target/sprt/$stamp.txt"
status=${PIPESTATUS[0]}
set -e

echo
echo "== verdict"
echo "base $short: bench $bench_base"
echo "new  $(git rev-parse --short HEAD)$dirty: bench $bench_new"
grep -E '^(SPRT|Elo|Games|Faults|Time losses):' "target/sprt/$stamp.txt" || true
exit "$status"
