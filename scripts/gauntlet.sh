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
#   --opponents LIST   comma-separated, from stockfish,ethereal,toga2,glaurung (default: all four)
#   --engine PATH      a cb2026 binary to play instead of building the working tree's
#   --seed N           the seed of the opening order (default: from the clock)
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
opponents=stockfish,ethereal,toga2,glaurung
engine="" seed=()
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case $1 in
        --tc) tc=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --stockfish-elo) stockfish_elo=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --opponents) opponents=$2; shift 2 ;;
        --engine) engine=$2; shift 2 ;;
        --seed) seed=(--seed "$2"); shift 2 ;;
        --) shift; break ;;
        -h | --help) usage ;;
        *) echo "gauntlet.sh: unknown option $1" >&2; usage ;;
    esac
done

declare -A package=([stockfish]=stockfish [ethereal]=ethereal-chess [toga2]=toga2 [glaurung]=glaurung)
declare -A settings=(
    [stockfish]="cmd=/usr/games/stockfish name=stockfish-$stockfish_elo option.UCI_LimitStrength=true option.UCI_Elo=$stockfish_elo"
    [ethereal]="cmd=/usr/games/ethereal-chess name=ethereal"
    [toga2]="cmd=/usr/games/toga2 name=toga2 option.OwnBook=false"
    [glaurung]="cmd=/usr/games/glaurung name=glaurung option.OwnBook=false"
)
missing=() engines=()
IFS=, read -r -a chosen <<<"$opponents"
for opponent in "${chosen[@]}"; do
    [[ -n ${package[$opponent]:-} ]] || { echo "gauntlet.sh: unknown opponent '$opponent'" >&2; usage; }
    [[ -x /usr/games/${package[$opponent]} ]] || missing+=("${package[$opponent]}")
    read -r -a words <<<"${settings[$opponent]}"
    engines+=(--engine "${words[@]}")
done
if ((${#missing[@]})); then
    echo "== installing ${missing[*]}"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi

if [[ -z $engine ]]; then
    echo "== building cb2026 and arena"
    cargo build --release -p uci -p arena
    engine=target/release/cb2026
else
    echo "== building arena"
    cargo build --release -p arena
fi

mkdir -p target/gauntlet
stamp=$(date +%Y%m%d-%H%M%S)
echo "== gauntlet of $engine at $tc, $rounds game pairs against each of $opponents (games: target/gauntlet/$stamp.pgn)"
set +e
target/release/arena \
    --engine cmd="$engine" name=cb2026 \
    "${engines[@]}" \
    --each option.Hash=16 option.Threads=1 \
    --tc "$tc" --rounds "$rounds" --concurrency "$concurrency" \
    --openings file="$openings" "${seed[@]}" \
    --event "cb2026 gauntlet" --pgn "target/gauntlet/$stamp.pgn" "$@" |
    tee "target/gauntlet/$stamp.txt"
exit "${PIPESTATUS[0]}"
