#!/usr/bin/env bash
# The book's Elo ladder: the engine of each stage against the engine of the stage before it, one
# binary, the stages chosen by the `Stage` option, a fixed number of game pairs a step.
#
# Usage: scripts/stage-ladder.sh [STEP...]
#   STEP              A-B, e.g. 13-14 (stage B against stage A); default: every step below
# Environment: TC (default 1+0.01), ROUNDS (game pairs a step, 125), CONCURRENCY (the number of
#   cores), OPENINGS (data/openings/balanced.epd), ENGINE and ARENA (binaries to use instead of
#   building the working tree's), SEED (the opening order of every step; 20261205), SYZYGY (the
#   tables every engine is given, data/syzygy: stage 19's technique needs them, earlier stages
#   switch it off), RESUME=1 (play on the steps named, whose games are committed, up to ROUNDS
#   pairs: arena checks the earlier games against the schedule, the same SEED and TC).
# Each step's games go to data/games/ladder-A-B.pgn.xz and its summary (this command on its first
# line) to data/games/ladder-A-B.txt; a step whose files exist is skipped, so a stopped ladder is
# continued by running the script again (a step that was stopped keeps its games: RESUME=1 plays
# on from them). `scripts/book-charts` draws the introduction's chart from the
# summaries.
#
# Stages 11 and 18 add no technique (time management; training the network): they are the engines
# of stages 10 and 17, so the ladder steps over them. Every step is a match, not an SPRT: the
# ladder states sizes, and a fixed length keeps the estimate unbiased.

set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/games.sh
steps=("$@")
((${#steps[@]})) || steps=(6-7 7-8 8-9 9-10 10-12 12-13 13-14 14-15 15-16 16-17 17-19 19-20)
for step in "${steps[@]}"; do
    [[ $step =~ ^[0-9]+-[0-9]+$ ]] || { echo "stage-ladder.sh: a step is A-B, got '$step'" >&2; exit 2; }
done

if [[ -z ${ARENA:-} || -z ${ENGINE:-} ]]; then
    cargo build --release -p uci -p arena --quiet
fi
arena=${ARENA:-target/release/arena}
games_check
source_binary=${ENGINE:-target/release/cb2026}
bench=$("$source_binary" bench | tail -n 1 | cut -d' ' -f1)
mkdir -p target/ladder
engine=target/ladder/cb2026-$bench
[[ "$source_binary" -ef "$engine" ]] || cp "$source_binary" "$engine"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

for step in "${steps[@]}"; do
    old=${step%-*} new=${step#*-}
    name=ladder-$step
    more=()
    if [[ ${RESUME:-0} == 1 ]]; then
        games_restore "$name"
        more+=(--resume)
    elif [[ -e $games_dir/$name.txt ]]; then
        echo "== $name: done already ($games_dir/$name.txt)" >&2
        continue
    else
        games_fresh "$name"
    fi
    settings=()
    for var in TC ROUNDS CONCURRENCY OPENINGS ENGINE ARENA SEED SYZYGY RESUME; do
        [[ -n ${!var+set} ]] && settings+=("$var=${!var}")
    done
    command_line="$(quoted "${settings[@]}") scripts/stage-ladder.sh $step"
    echo "== $name: stage $new against stage $old, cb2026 bench $bench, commit $commit" >&2
    {
        echo "Command: ${command_line# }"
        echo "Engine: cb2026 bench $bench, commit $commit; stage $new (first engine) against stage $old"
    } >"$games_dir/$name.txt"
    set +e
    "$arena" \
        --engine cmd="$engine" name="stage$new" option.Stage="$new" \
        --engine cmd="$engine" name="stage$old" option.Stage="$old" \
        --each option.Hash=16 option.Threads=1 option.SyzygyPath="${SYZYGY:-data/syzygy}" \
        --tc "${TC:-1+0.01}" \
        --rounds "${ROUNDS:-125}" \
        --concurrency "${CONCURRENCY:-$(nproc)}" \
        --openings file="${OPENINGS:-data/openings/balanced.epd}" \
        --seed "${SEED:-20261205}" \
        --pgn "$games_work/$name.pgn" "${more[@]}" | tee -a "$games_dir/$name.txt"
    status=${PIPESTATUS[0]}
    set -e
    games_save "$name"
    if ((status != 0)); then
        # A stopped step's summary would look like a finished one: keep only its games.
        rm -f "$games_dir/$name.txt"
        echo "stage-ladder.sh: $name stopped (arena's status $status); its games are in $games_dir/$name.pgn.xz" >&2
        exit "$status"
    fi
done
