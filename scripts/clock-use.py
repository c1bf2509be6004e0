#!/usr/bin/env python3
"""How much of its clock each engine used, from arena's PGN (plain, .xz or .zst).

arena writes each move's comment as `{+0.31/12 0.153s, 7.851s left}`. For one engine in one game
the clock it had is the starting time plus one increment per move it made, and the share it used
is the sum of its move times over that. Printed per engine: games, moves, the mean time a move,
the share of the clock used (mean and median over games, and over the games that lasted at least
`--long` moves, where the share is what the time management aims at), the least time ever left,
and the games lost on time.

Usage: scripts/clock-use.py GAMES.pgn[.xz|.zst]... [--long 60]
"""

import argparse
import lzma
import re
import statistics
import subprocess
import sys
from collections import defaultdict

MOVE_COMMENT = re.compile(r"\{[^}]*?([0-9.]+)s, ([0-9.]+)s left\}")
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def read(path):
    if path.endswith(".xz"):
        with lzma.open(path, "rt", encoding="utf-8", errors="replace") as f:
            return f.read()
    if path.endswith(".zst"):
        return subprocess.run(
            ["zstd", "-dc", path], check=True, capture_output=True, text=True
        ).stdout
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def games(text):
    """(tags, movetext) for each game."""
    tags, body = {}, []
    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            if body:
                yield tags, " ".join(body)
                tags, body = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            body.append(line.strip())
    if tags:
        yield tags, " ".join(body)


def time_control(tag):
    """Seconds and increment of one side's `TimeControl` (`8+0.08`)."""
    base, _, inc = tag.partition("+")
    return float(base), float(inc or 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--long", type=int, default=60, help="a long game: this many moves a side")
    args = ap.parse_args()

    per = defaultdict(lambda: {"shares": [], "long": [], "times": [], "least": 1e9, "flags": 0})
    for path in args.pgn:
        for tags, movetext in games(read(path)):
            tcs = tags.get("TimeControl", "").split(":")
            if not tcs[0] or "/" in tcs[0]:
                continue  # no clock, or moves/time: not what this measures
            white_tc = time_control(tcs[0])
            black_tc = time_control(tcs[-1])
            black_first = tags.get("FEN", " w ").split()[1:2] == ["b"]
            comments = MOVE_COMMENT.findall(movetext)
            sides = {"White": [], "Black": []}
            for i, (used, left) in enumerate(comments):
                mover = ("Black", "White")[i % 2] if black_first else ("White", "Black")[i % 2]
                sides[mover].append((float(used), float(left)))
            for colour, tc in (("White", white_tc), ("Black", black_tc)):
                moves = sides[colour]
                if not moves:
                    continue
                name = tags.get(colour, colour)
                rec = per[name]
                base, inc = tc
                share = sum(t for t, _ in moves) / (base + inc * len(moves))
                rec["shares"].append(share)
                if len(moves) >= args.long:
                    rec["long"].append(share)
                rec["times"].extend(t for t, _ in moves)
                rec["least"] = min(rec["least"], min(left for _, left in moves))
            if "time forfeit" in tags.get("Termination", "") or "time" in tags.get(
                "TerminationDetails", ""
            ):
                loser = {"1-0": "Black", "0-1": "White"}.get(tags.get("Result"))
                if loser:
                    per[tags.get(loser, loser)]["flags"] += 1

    print(
        f"| engine | games | moves | mean time a move | clock used (mean · median) "
        f"| in games of {args.long}+ moves (count, mean) | least left | lost on time |"
    )
    print("|---|---:|---:|---:|---|---|---:|---:|")
    for name, rec in sorted(per.items()):
        shares, long_ = rec["shares"], rec["long"]
        long_text = f"{len(long_)}, {statistics.mean(long_):.1%}" if long_ else "0"
        print(
            f"| {name} | {len(shares)} | {len(rec['times'])} | "
            f"{statistics.mean(rec['times']):.3f} s | "
            f"{statistics.mean(shares):.1%} · {statistics.median(shares):.1%} | {long_text} | "
            f"{rec['least']:.3f} s | {rec['flags']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
