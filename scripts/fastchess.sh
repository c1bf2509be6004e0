#!/usr/bin/env bash
# cb2026 under fastchess, the match runner OpenBench's workers play with: against itself, or
# against Ethereal 12 (Debian's ethereal-chess). fastchess checks more than most GUIs (every
# `info` line, whether `bestmove` begins the last PV, time, disconnects), so this is a second
# judge beside our own `arena`: the script fails on any warning fastchess prints about cb2026.
#
# Usage: scripts/fastchess.sh [options]
#   --opponent NAME   self (default) or ethereal
#   --tc TC           time control (default 4+0.04); `nodes=N` plays N nodes a move (tc=inf)
#   --rounds N        game pairs (default 4)
#   --concurrency N   games at once (default: the number of cores)
#   --engine PATH     a cb2026 binary to play (default: build the working tree's)
#   --openings FILE   EPD book (default data/openings/balanced.epd)
#   --pgn FILE        where the games go (default target/fastchess/games.pgn)
#
# fastchess: $FASTCHESS if set, else target/fastchess/fastchess, built from the pinned source in
# ../shared/tools/fastchess when that folder exists. Elsewhere install fastchess from its releases
# (github.com/Disservin/fastchess) and point FASTCHESS at it.

set -euo pipefail
export LC_ALL=C
cd "$(git rev-parse --show-toplevel)"

opponent=self tc=4+0.04 rounds=4 engine="" pgn=target/fastchess/games.pgn
concurrency=$(nproc 2>/dev/null || echo 1)
openings=data/openings/balanced.epd
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case $1 in
        --opponent) opponent=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --engine) engine=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --pgn) pgn=$2; shift 2 ;;
        -h | --help) usage ;;
        *) echo "fastchess.sh: unknown option $1" >&2; usage ;;
    esac
done

target=${CARGO_TARGET_DIR:-target}
fastchess=${FASTCHESS:-}
if [[ -z $fastchess ]]; then
    fastchess=target/fastchess/fastchess
    if [[ ! -x $fastchess ]]; then
        if [[ -x ../shared/tools/fastchess/build.sh ]]; then
            echo "== building fastchess from ../shared/tools/fastchess"
            ../shared/tools/fastchess/build.sh target/fastchess >/dev/null
        else
            echo "fastchess.sh: no fastchess: set FASTCHESS to a fastchess binary" >&2
            echo "  (releases: https://github.com/Disservin/fastchess)" >&2
            exit 2
        fi
    fi
fi

if [[ -z $engine ]]; then
    echo "== building cb2026"
    cargo build --release -p uci
    engine=$target/release/cb2026
fi
engine=$(realpath "$engine")

case $opponent in
    self) other=(-engine "cmd=$engine" name=cb2026-b) ;;
    ethereal)
        if [[ ! -x /usr/games/ethereal-chess ]]; then
            sudo=""
            [[ $(id -u) -eq 0 ]] || sudo=sudo
            $sudo apt-get install -y -qq ethereal-chess
        fi
        other=(-engine cmd=/usr/games/ethereal-chess name=ethereal)
        ;;
    *) echo "fastchess.sh: unknown opponent '$opponent'" >&2; usage ;;
esac
if [[ $tc == nodes=* ]]; then
    limit=(tc=inf "$tc")
else
    limit=("tc=$tc")
fi

mkdir -p "$(dirname "$pgn")"
rm -f "$pgn"
log=${pgn%.pgn}.log
echo "== $rounds pairs at $tc against $opponent under $fastchess"
"$fastchess" -engine "cmd=$engine" name=cb2026 "${other[@]}" \
    -each proto=uci "${limit[@]}" option.Hash=16 option.Threads=1 \
    -openings "file=$openings" format=epd order=random -srand 2026 \
    -rounds "$rounds" -repeat -concurrency "$concurrency" \
    -pgnout "file=$pgn" nodes=true seldepth=true \
    -config "outname=${pgn%.pgn}.config.json" 2>&1 | tee "$log"

# fastchess's own verdicts on an engine: warnings, illegal moves, time losses, disconnects and
# stalls. Any that names cb2026 fails the run.
complaints=$(grep -E 'Warning|illegal|loses on time|disconnect|stall' "$log" | grep -E 'cb2026' || true)
if [[ -n $complaints ]]; then
    echo "fastchess.sh: fastchess complained about cb2026:" >&2
    echo "$complaints" >&2
    exit 1
fi
echo "== no complaint from fastchess about cb2026 ($pgn)"
