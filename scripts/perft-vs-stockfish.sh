#!/usr/bin/env bash
# perft speed of cb2026 against Stockfish 15.1's `go perft`, in nodes per second:
# perft 6 from the start position and perft 5 from Kiwipete, the two engines alternating.
#
# Usage: scripts/perft-vs-stockfish.sh [ROUNDS]       (default 15; each round runs each engine
#                                                      once on each position, about 2.5 s in all)
#   CB2026=path     time this cb2026 binary instead of building target/release/cb2026
#   STOCKFISH=path  time this Stockfish (default /usr/games/stockfish; installed with
#                   `apt-get install -y stockfish` when it's missing)
#
# How the time is taken. Both engines are timed the same way, from outside, by this script: each
# run starts a fresh engine process, sends the position and `isready`, and waits for `readyok`, so
# that start-up (Stockfish loads its network) is over. The clock then runs from sending
# `go perft N` to reading the `Nodes searched:` line, which both engines print when the count is
# done. Start-up and exit are not timed, and no start-up cost has to be estimated and
# subtracted. cb2026's own `NPS:` line (its timer covers the same work) is shown as a cross-check.
#
# Runs alternate between the engines, and the order swaps every round, so that a slow change in
# the machine's load falls on both alike. The summary gives each engine's median and best rate;
# if the median is far below the best, the machine was busy: run it again later.

set -euo pipefail
export LC_ALL=C

rounds=${1:-15}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [ROUNDS]" >&2; exit 2; }
cd "$(dirname "$0")/.."

STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
if [[ ! -x $STOCKFISH ]]; then
    echo "Stockfish not found at $STOCKFISH: installing the Debian package 'stockfish'" >&2
    sudo=()
    if (( EUID != 0 )); then sudo=(sudo); fi
    "${sudo[@]}" apt-get install -y stockfish ||
        { "${sudo[@]}" apt-get update && "${sudo[@]}" apt-get install -y stockfish; }
    STOCKFISH=/usr/games/stockfish
fi

if [[ -z ${CB2026:-} ]]; then
    cargo build --release -p uci >&2
    CB2026=target/release/cb2026
    built="built from $(git describe --always --dirty 2>/dev/null || echo '?') with $(rustc --version)"
else
    built="given as CB2026"
fi

# name | UCI position command | depth | the known count (data/perft/standard.epd, lines 1 and 2)
cases=(
    "startpos|position startpos|6|119060324"
    "Kiwipete|position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|193690690"
)
engines=(cb2026 Stockfish)

# Runs one perft in a fresh process of $1 (path) with position command $2 and depth $3.
# Sets: nodes, micros (the timed span in microseconds), self_nps (the engine's own NPS line, if any).
run_perft() {
    local path=$1 position=$2 depth=$3 line t0 t1
    nodes="" self_nps=""
    coproc ENGINE { exec "$path" 2>/dev/null; }
    local to=${ENGINE[1]} from=${ENGINE[0]} pid=$ENGINE_PID
    printf '%s\nisready\n' "$position" >&"$to"
    while IFS= read -r -t 60 line <&"$from"; do
        [[ $line == readyok ]] && break
    done
    t0=${EPOCHREALTIME/./}
    printf 'go perft %s\n' "$depth" >&"$to"
    while IFS= read -r -t 3600 line <&"$from"; do
        if [[ $line == "Nodes searched: "* ]]; then
            nodes=${line#Nodes searched: }
            break
        fi
    done
    t1=${EPOCHREALTIME/./}
    micros=$((t1 - t0))
    printf 'isready\n' >&"$to"
    while IFS= read -r -t 60 line <&"$from"; do
        [[ $line == "NPS: "* ]] && self_nps=${line#NPS: }
        [[ $line == readyok ]] && break
    done
    printf 'quit\n' >&"$to"
    exec {to}>&-
    wait "$pid" 2>/dev/null || true
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
best() { sort -g | tail -n 1; }

echo "# perft speed: cb2026 against Stockfish, $rounds rounds, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine:   $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cb2026:    $CB2026 ($built)"
echo "Stockfish: $STOCKFISH ($(printf 'uci\nquit\n' | "$STOCKFISH" 2>/dev/null | sed -n 's/^id name //p'); $(printf 'compiler\nquit\n' | "$STOCKFISH" 2>/dev/null | sed -n 's/^Compilation settings include: *//p'))"
echo

declare -A rates self_rates
printf '%-5s %-9s %-9s %13s %10s %15s\n' round position engine nodes ms nps
for ((round = 1; round <= rounds; round++)); do
    order=("${engines[@]}")
    if ((round % 2 == 0)); then order=("${engines[1]}" "${engines[0]}"); fi
    for case in "${cases[@]}"; do
        IFS='|' read -r name position depth expected <<<"$case"
        for engine in "${order[@]}"; do
            if [[ $engine == cb2026 ]]; then path=$CB2026; else path=$STOCKFISH; fi
            run_perft "$path" "$position" "$depth"
            if [[ $nodes != "$expected" ]]; then
                echo "$engine counted '${nodes}' nodes for $name perft $depth, not $expected" >&2
                exit 1
            fi
            nps=$(awk -v n="$nodes" -v us="$micros" 'BEGIN { printf "%.0f", n / (us / 1e6) }')
            rates[$name,$engine]+="$nps "
            [[ -n $self_nps ]] && self_rates[$name,$engine]+="$self_nps "
            printf '%-5s %-9s %-9s %13s %10.1f %15s\n' "$round" "$name" "$engine" "$nodes" \
                "$(awk -v us="$micros" 'BEGIN { print us / 1000 }')" "$nps"
        done
    done
done

echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| position | perft | cb2026 median nps | cb2026 best | Stockfish median nps | Stockfish best | ratio of medians |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for case in "${cases[@]}"; do
    IFS='|' read -r name position depth expected <<<"$case"
    ours=$(tr ' ' '\n' <<<"${rates[$name,cb2026]}" | grep . | median)
    ours_best=$(tr ' ' '\n' <<<"${rates[$name,cb2026]}" | grep . | best)
    theirs=$(tr ' ' '\n' <<<"${rates[$name,Stockfish]}" | grep . | median)
    theirs_best=$(tr ' ' '\n' <<<"${rates[$name,Stockfish]}" | grep . | best)
    awk -v n="$name" -v d="$depth" -v a="$ours" -v ab="$ours_best" -v b="$theirs" -v bb="$theirs_best" \
        'function m(x) { return sprintf("%.1f M", x / 1e6) }
         BEGIN { printf "| %s | %s | %s | %s | %s | %s | %.2f |\n", n, d, m(a), m(ab), m(b), m(bb), a / b }'
done
echo
for case in "${cases[@]}"; do
    IFS='|' read -r name _ _ _ <<<"$case"
    if [[ -n ${self_rates[$name,cb2026]:-} ]]; then
        own=$(tr ' ' '\n' <<<"${self_rates[$name,cb2026]}" | grep . | median)
        awk -v n="$name" -v x="$own" 'BEGIN { printf "cross-check, %s: cb2026'"'"'s own NPS line, median %.1f M\n", n, x / 1e6 }'
    fi
done
