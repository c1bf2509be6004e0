#!/usr/bin/env python3
"""Endgame starting positions for matches: from self-play games, the first position of each game
that has five or six pieces (kings included), no castling right and a search score within
±200 cp, shuffled with a fixed seed.

    target/release/tune games GAMES.games --limit 100000000 | scripts/endgame-openings.py --count 400 > OUT.epd

`tune games` prints the kept positions of each game in order, one per line:
`FEN | best move | result | score`; a game ends where the piece count goes up again.
"""

import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--pieces", default="5,6", help="piece counts to take, kings included")
    ap.add_argument("--max-score", type=int, default=200)
    a = ap.parse_args()
    counts = {int(n) for n in a.pieces.split(",")}
    found, previous, taken = [], 99, False
    for line in sys.stdin:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) < 4:
            continue
        fen, score = parts[0], int(parts[3])
        pieces = sum(c.isalpha() for c in fen.split()[0])
        if pieces > previous:
            taken = False
        previous = pieces
        if not taken and pieces in counts and abs(score) <= a.max_score and fen.split()[2] == "-":
            taken = True
            found.append(" ".join(fen.split()[:4]))
    random.seed(a.seed)
    random.shuffle(found)
    print(f"{len(found)} positions found, {min(a.count, len(found))} written", file=sys.stderr)
    sys.stdout.write("".join(f + "\n" for f in found[: a.count]))


if __name__ == "__main__":
    main()
