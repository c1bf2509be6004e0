#!/usr/bin/env python3
"""Our own `tune datagen` against OpenBench's route (genfens openings, then fastchess games at a
node limit, then `tune pgn`): the same number of games from the same opening book at the same
nodes a move, both turned into the game format `train` reads, and compared by what matters to
training: game length, results, the share of positions kept, and the kept positions' scores.

    scripts/datagen-routes.py --games 2000 [--nodes 5000] [--seed 777] [--out target/routes]

The table it prints is data/games/datagen-routes.txt (the testing chapter includes it), and the
fastchess games of its second route are data/games/datagen-routes.pgn.xz.

Needs release builds of cb2026 and tune (`cargo build --release -p uci -p tune`) and fastchess
(scripts/fastchess.sh builds it into target/fastchess). Prints a Markdown table.
"""

import argparse
import os
import statistics
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, check=True, **kw)


def profile(tune, games_file):
    """Per game: its number of positions and result; per kept position: its score (White's view)."""
    out = subprocess.run(
        [tune, "games", games_file, "--limit", "100000000"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    scores = [int(line.rsplit("|", 1)[1]) for line in out if line.count("|") == 3]
    summary = out[-1]
    return scores, summary


def game_lengths(path):
    """Moves per game of a .games file: a 32-byte start record, 4 bytes a move, 4 zero bytes."""
    data = open(path, "rb").read()
    lengths, results, at = [], [0, 0, 0], 0
    while at + 32 <= len(data):
        results[data[at + 30]] += 1
        at += 32
        n = 0
        while at + 4 <= len(data):
            word = data[at : at + 4]
            at += 4
            if word == b"\0\0\0\0":
                break
            n += 1
        lengths.append(n)
    return lengths, results


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--seed", type=int, default=777)
    p.add_argument("--book", default=os.path.join(ROOT, "data/openings/balanced.epd"))
    p.add_argument("--out", default=os.path.join(ROOT, "target/routes"))
    p.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    cb2026 = os.path.join(target, "release/cb2026")
    tune = os.path.join(target, "release/tune")
    fastchess = os.environ.get("FASTCHESS", os.path.join(ROOT, "target/fastchess/fastchess"))
    os.makedirs(a.out, exist_ok=True)
    ours = os.path.join(a.out, "ours.games")
    theirs_pgn = os.path.join(a.out, "openbench.pgn")
    theirs = os.path.join(a.out, "openbench.games")
    epd = os.path.join(a.out, "openbench.genfens.epd")
    for f in (ours, theirs_pgn, theirs, epd):
        if os.path.exists(f):
            os.remove(f)

    # Ours: the network plays itself, our adjudication (a win at 1000 cp for 4 plies).
    run([tune, "datagen", "--format", "games", "--eval-file", "embedded", "--out", ours,
         "--threads", str(a.concurrency), "--nodes", str(a.nodes), "--games", str(a.games),
         "--seed", str(a.seed), "--book", a.book, "--quiet"])

    # OpenBench's: genfens on two processes as a worker runs it, then fastchess with no
    # adjudication (OpenBench's DATAGEN default) and each opening played once.
    per = (a.games + 1) // 2
    lines = []
    for s in (a.seed, a.seed + 1):
        out = run([cb2026, f"genfens {per} seed {s} book {a.book}", "quit"],
                  capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("info string genfens "):
                f = line.split()[3:]
                lines.append(" ".join(f[:4]) + f" hmvc {int(f[4])}; fmvn {int(f[5])};")
    open(epd, "w").write("\n".join(lines[: a.games]) + "\n")
    run([fastchess, "-engine", f"cmd={cb2026}", "name=dev", "-engine", f"cmd={cb2026}", "name=base",
         "-each", "proto=uci", "tc=inf", f"nodes={a.nodes}", "option.Threads=1", "option.Hash=16",
         "-openings", f"file={epd}", "format=epd", "order=sequential", "start=1",
         "-rounds", str(a.games), "-games", "1", "-concurrency", str(a.concurrency),
         "-pgnout", f"file={theirs_pgn}", "seldepth=true", "nodes=true",
         "-config", f"outname={os.path.join(a.out, 'config.json')}"],
        stdout=subprocess.DEVNULL)
    imported = run([tune, "pgn", theirs_pgn, "--out", theirs], capture_output=True, text=True).stdout

    rows = []
    for name, path in (("tune datagen", ours), ("genfens + fastchess + tune pgn", theirs)):
        lengths, results = game_lengths(path)
        scores, _ = profile(tune, path)
        positions = sum(lengths)
        absolute = sorted(abs(s) for s in scores)
        rows.append((
            name, len(lengths), statistics.mean(lengths), statistics.median(lengths),
            f"{results[2]} / {results[1]} / {results[0]}",
            f"{100 * len(scores) / positions:.1f}%",
            statistics.median(absolute), absolute[int(0.9 * len(absolute))],
            f"{100 * sum(s < 100 for s in absolute) / len(absolute):.1f}%",
        ))
    print(f"\n{a.games} games each, {a.nodes} nodes a move, book {os.path.basename(a.book)}, seed {a.seed}\n")
    print("tune pgn: " + imported.splitlines()[0] + "\n")
    print("| route | games | moves a game (mean) | (median) | 1-0 / draw / 0-1 | kept | median abs score | 90th pct | abs score < 100 |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | {r[7]} | {r[8]} |")


if __name__ == "__main__":
    main()
