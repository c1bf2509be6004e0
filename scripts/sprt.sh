#!/usr/bin/env bash
# Test a change by SPRT: cb2026 built from the working tree or a revision ("new") against cb2026
# built at a base revision ("base"), with arena, until the SPRT accepts H0 or H1. Prints the
# verdict and the bench counts of both builds.
#
# Usage: scripts/sprt.sh [options] [-- more arena arguments]
#   --base REV         base revision (default HEAD: test the uncommitted change)
#   --new REV          build "new" at this revision instead of from the working tree (a branch
#                      under test, while the working tree goes on with other work)
#   --tc TC            time control (default 8+0.08; the long test is 40+0.4)
#   --elo0 E --elo1 E  SPRT bounds in normalized Elo (default 0 and 10)
#   --alpha A --beta B error rates (default 0.05 and 0.05)
#   --concurrency N    games at once (default: the number of cores)
#   --openings FILE    EPD book (default: ../shared/data/openings/balanced.epd if present, else
#                      data/openings/balanced.epd)
#   --rounds N         stop after N game pairs even without a decision (the cap: fix it before
#                      the start; the book's testing chapter, "How cb2026 decides")
#   --name NAME        call the files data/games/NAME.{pgn.xz,txt,bench} (default: the time)
#   --seed N           the opening order (default: from the clock, printed in the summary)
#   --resume           continue the test in data/games/NAME.pgn.xz (needs --name and the --seed
#                      it was started with); refused if either build's bench has changed
#   --prior WORDS      counts of an earlier stretch of this test whose PGN is lost, as arena's
#                      --prior takes them: "wdl=W/D/L pentanomial=A,B,C,D,E"
#
# The base is built in a git worktree at target/sprt-base (its own target dir, so later runs
# rebuild only what changed), and --new's revision likewise at target/sprt-new; the two binaries
# are copied to target/sprt/ so that building during the test cannot swap them. arena writes the
# games to target/sprt/games/NAME.pgn; when it stops, they are compressed to
# data/games/NAME.pgn.xz, beside the summary (NAME.txt, with this command on its first line) and
# the two benches (NAME.bench), all committed: a test that outlasts a machine is resumed from
# them by the next one, and the book links the games behind its figures (scripts/games.sh).
# Each engine gets Hash=16 and Threads=1.

set -euo pipefail
export LC_ALL=C

root=$(git rev-parse --show-toplevel)
cd "$root"
source scripts/games.sh

base=HEAD tc=8+0.08 elo0=0 elo1=10 alpha=0.05 beta=0.05
concurrency=$(nproc 2>/dev/null || echo 1)
openings=data/openings/balanced.epd
[[ -f ../shared/data/openings/balanced.epd ]] && openings=../shared/data/openings/balanced.epd
rounds=() seed=() name="" resume=0 new="" prior=()
usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
command_line="scripts/sprt.sh$(quoted "$@")"
while (($#)); do
    case $1 in
        --base) base=$2; shift 2 ;;
        --new) new=$2; shift 2 ;;
        --prior) read -ra words <<<"$2"; prior=(--prior "${words[@]}"); shift 2 ;;
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

revision() {
    git rev-parse --verify --quiet "$1^{commit}" || { echo "sprt.sh: no revision '$1'" >&2; exit 2; }
}
# Builds cb2026 at revision $1 in the worktree target/$2 (target dir target/$2-build).
build_at() {
    local worktree=target/$2
    echo "== building $2 $(git rev-parse --short "$1") ($(git log -1 --format=%s "$1"))"
    if git -C "$worktree" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$worktree" checkout --quiet --force --detach "$1"
    else
        rm -rf "$worktree"
        git worktree prune
        git worktree add --quiet --detach "$worktree" "$1"
    fi
    (cd "$worktree" && CARGO_TARGET_DIR="$root/target/$2-build" cargo build --release -p uci)
}
rev=$(revision "$base")
short=$(git rev-parse --short "$rev")
build_at "$rev" sprt-base
mkdir -p target/sprt
cp target/sprt-base-build/release/cb2026 target/sprt/cb2026-base
if [[ -n $new ]]; then
    new_rev=$(revision "$new")
    build_at "$new_rev" sprt-new
    echo "== building arena"
    cargo build --release -p arena
    cp target/sprt-new-build/release/cb2026 target/sprt/cb2026-new
else
    echo "== building new (working tree) and arena"
    cargo build --release -p uci -p arena
    cp target/release/cb2026 target/sprt/cb2026-new
fi

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
if [[ -n $new ]]; then
    new_label="$new ($(git rev-parse --short "$new_rev"))"
else
    new_label="$(git rev-parse --short HEAD)"
    [[ -n $(git status --porcelain --untracked-files=no) ]] && new_label+=" + uncommitted changes"
fi

stamp=${name:-$(date +%Y%m%d-%H%M%S)}
games_check
games=$games_dir
# The node counts only: the speed differs from run to run.
builds="base ${bench_base%% *} nodes, new ${bench_new%% *} nodes"
resuming=()
if ((resume)); then
    if [[ -f $games/$stamp.bench && $(<"$games/$stamp.bench") != "$builds" ]]; then
        echo "sprt.sh: the builds have changed since the test began ($(<"$games/$stamp.bench");" >&2
        echo "now $builds): resuming would mix two tests" >&2
        exit 2
    fi
    resuming=(--resume)
    games_restore "$stamp"
else
    games_fresh "$stamp"
fi
echo "$builds" >"$games/$stamp.bench"
echo "== SPRT new vs base-$short at $tc (games: $games_work/$stamp.pgn, then $games/$stamp.pgn.xz)"
echo "Command: $command_line" >"$games/$stamp.txt"
# Ctrl-C stops arena, which prints its summary; the script goes on to save the games.
trap 'echo "== interrupted" >&2' INT
set +e
target/release/arena \
    --engine cmd=target/sprt/cb2026-new name=new \
    --engine cmd=target/sprt/cb2026-base name="base-$short" \
    --each option.Hash=16 option.Threads=1 \
    --tc "$tc" --concurrency "$concurrency" "${rounds[@]}" "${seed[@]}" "${resuming[@]}" "${prior[@]}" \
    --openings file="$openings" \
    --sprt elo0="$elo0" elo1="$elo1" alpha="$alpha" beta="$beta" \
    --event "SPRT new vs base-$short" --pgn "$games_work/$stamp.pgn" "$@" |
    tee -i -a "$games/$stamp.txt"
status=${PIPESTATUS[0]}
set -e
games_save "$stamp"

echo
echo "== verdict"
echo "base $short: bench $bench_base"
echo "new  $new_label: bench $bench_new"
grep -E '^(SPRT|Elo|Games|Prior|Faults|Time losses):' "$games/$stamp.txt" || true
exit "$status"
