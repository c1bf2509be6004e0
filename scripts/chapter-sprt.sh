#!/usr/bin/env bash
# What a chapter's techniques are worth: cb2026 as built now ("on") against the same binary with
# the techniques switched off by UCI options ("off"), by SPRT with arena.
#
# Usage: scripts/chapter-sprt.sh NAME OPTION=VALUE... [--new OPTION=VALUE]...
#   NAME              a label for the files (e.g. chapter-12)
#   OPTION=VALUE      set on the "off" engine, e.g. null_move=false
#   --new OPTION=VALUE  set on the "on" engine instead (e.g. --new probcut=true, for a technique
#                     that is off by default)
# Environment: TC (default 8+0.08), ELO0 (0), ELO1 (10), ROUNDS (most game pairs, 300),
#   CONCURRENCY (the number of cores), OPENINGS (data/openings/balanced.epd), ENGINE (a cb2026
#   binary to test instead of building the working tree's), ARENA (an arena binary: with ENGINE
#   too, nothing is built, for a machine without Rust that was sent the binaries), SEED (the
#   opening order; default from the clock, printed in the summary), RESUME=1 (continue the match
#   in data/games/NAME.pgn.xz: give the SEED and ENGINE of the run that wrote it; arena checks
#   every game against the schedule), PRIOR (counts of an earlier stretch of the test whose PGN
#   is lost, as arena's --prior takes them: "wdl=W/D/L pentanomial=A,B,C,D,E").
# arena writes the games to target/sprt/games/NAME.pgn; when it stops they are compressed to
# data/games/NAME.pgn.xz, beside data/games/NAME.txt (the summary, this command on its first
# line), and the summary is printed. Both are committed: a test that outlasts a machine is
# resumed from them by the next one, and the chapter shows the summary and links the games
# (scripts/games.sh).
# While it plays, arena's progress (games, score, LLR) goes to stderr: a bar on a terminal, a line
# every 10 seconds in a log, so a test run under nohup can be followed with tail.

set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
source scripts/games.sh
# The command as typed, with the settings it read from the environment, for the summary.
settings=()
for var in TC ELO0 ELO1 ROUNDS CONCURRENCY OPENINGS ENGINE ARENA ENGINE_ARGS SEED RESUME PRIOR; do
    [[ -n ${!var+set} ]] && settings+=("$var=${!var}")
done
command_line="$(quoted "${settings[@]}") scripts/chapter-sprt.sh$(quoted "$@")"
command_line=${command_line# }
name=$1; shift
off=() new=()
while (($#)); do
    case $1 in
        --new) new+=("option.$2"); shift 2 ;;
        *=*) off+=("option.$1"); shift ;;
        *) echo "chapter-sprt.sh: expected OPTION=VALUE, got '$1'" >&2; exit 2 ;;
    esac
done

if [[ -z ${ARENA:-} || -z ${ENGINE:-} ]]; then
    cargo build --release -p uci -p arena --quiet
fi
arena=${ARENA:-target/release/arena}
mkdir -p target/sprt
games_check
games=$games_dir
source_binary=${ENGINE:-target/release/cb2026}
bench=$("$source_binary" bench | tail -n 1 | cut -d' ' -f1)
engine=target/sprt/cb2026-$bench
[[ "$source_binary" -ef "$engine" ]] || cp "$source_binary" "$engine"
echo "== $name: cb2026 (bench $bench) against itself with ${off[*]:-defaults} ${new[*]:+(on: ${new[*]})}"
more=()
[[ -n ${SEED:-} ]] && more+=(--seed "$SEED")
# Word splitting is meant: PRIOR is two KEY=VALUE words.
# shellcheck disable=SC2206
[[ -n ${PRIOR:-} ]] && more+=(--prior $PRIOR)
if [[ ${RESUME:-0} == 1 ]]; then
    [[ -n ${SEED:-} ]] || { echo "chapter-sprt.sh: RESUME=1 needs the SEED of the run to resume" >&2; exit 2; }
    more+=(--resume)
    games_restore "$name"
else
    games_fresh "$name"
fi

# cb2026 lists its techniques as UCI options (which arena sets only if listed) when started with
# --technique-options; ENGINE_ARGS= (empty) for a build from before that flag.
engine_args=${ENGINE_ARGS---technique-options}
echo "Command: $command_line" >"$games/$name.txt"
# Ctrl-C stops arena, which prints its summary; the script goes on to save the games.
trap 'echo "== interrupted" >&2' INT
set +e
"$arena" \
    --engine cmd="$engine" args="$engine_args" name=on "${new[@]}" \
    --engine cmd="$engine" args="$engine_args" name=off "${off[@]}" \
    --each option.Hash=16 option.Threads=1 \
    --tc "${TC:-8+0.08}" \
    --sprt elo0="${ELO0:-0}" elo1="${ELO1:-10}" alpha=0.05 beta=0.05 \
    --rounds "${ROUNDS:-300}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --openings file="${OPENINGS:-data/openings/balanced.epd}" \
    --pgn "$games_work/$name.pgn" "${more[@]}" | tee -i -a "$games/$name.txt"
status=${PIPESTATUS[0]}
set -e
games_save "$name"
exit "$status"
