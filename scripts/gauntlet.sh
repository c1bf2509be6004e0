#!/usr/bin/env bash
# Gauntlet: cb2026 (built from the working tree) against the engines Debian packages: Stockfish
# 15.1 limited with UCI_LimitStrength/UCI_Elo, Ethereal 12, Toga II 3.0 and Glaurung 2.2.
# Reports cb2026's score and Elo against each. Missing engines are installed with apt-get.
#
# Usage: scripts/gauntlet.sh [options] [-- more arena arguments]
#   --tc TC            time control (default 10+0.1; Ethereal and Toga II need a clock: they
#                      ignore `go nodes`)
#   --rounds N         game pairs per opponent (default 10)
#   --stockfish-elo E  Stockfish's UCI_Elo (default 1500; Stockfish 15.1 allows 1350 to 2850)
#   --concurrency N    games at once (default: the number of cores)
#   --openings FILE    EPD book (default data/openings/balanced.epd)
#
# Games go to target/gauntlet/<time>.pgn, the summary to target/gauntlet/<time>.txt. Every
# engine gets Hash=16 and Threads=1 where it has those options; Toga II's and Glaurung's own
# opening books are switched off, so that all engines play the same openings.

set -euo pipefail
export LC_ALL=C

cd "$(git rev-parse --show-toplevel)"

tc=10+0.1 rounds=10 stockfish_elo=1500
concurrency=$(nproc 2>/dev/null || echo 1)
openings=data/openings/balanced.epd
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case $1 in
        --tc) tc=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --stockfish-elo) stockfish_elo=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --) shift; break ;;
        -h | --help) usage ;;
        *) echo "gauntlet.sh: unknown option $1" >&2; usage ;;
    esac
done

missing=()
for pkg in stockfish ethereal-chess toga2 glaurung; do
    [[ -x /usr/games/$pkg ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
    echo "== installing ${missing[*]}"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi

echo "== building cb2026 and arena"
cargo build --release -p uci -p arena

mkdir -p target/gauntlet
stamp=$(date +%Y%m%d-%H%M%S)
echo "== gauntlet at $tc, $rounds game pairs per opponent (games: target/gauntlet/$stamp.pgn)"
set +e
target/release/arena \
    --engine cmd=target/release/cb2026 name=cb2026 \
    --engine cmd=/usr/games/stockfish name="stockfish-$stockfish_elo" \
        option.UCI_LimitStrength=true option.UCI_Elo="$stockfish_elo" \
    --engine cmd=/usr/games/ethereal-chess name=ethereal \
    --engine cmd=/usr/games/toga2 name=toga2 option.OwnBook=false \
    --engine cmd=/usr/games/glaurung name=glaurung option.OwnBook=false \
    --each option.Hash=16 option.Threads=1 \
    --tc "$tc" --rounds "$rounds" --concurrency "$concurrency" \
    --openings file="$openings" \
    --event "cb2026 gauntlet" --pgn "target/gauntlet/$stamp.pgn" "$@" |
    tee "target/gauntlet/$stamp.txt"
exit "${PIPESTATUS[0]}"
