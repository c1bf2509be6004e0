#!/usr/bin/env python3
"""Time to depth: the bench positions searched to a fixed depth, each from a cleared hash table
(`ucinewgame`), on 1 thread and on N threads; prints a Markdown table of the
times and speed-ups.

    scripts/time-to-depth.py [--engine target/release/cb2026] [--depth 13] [--threads 1,2]
        [--positions 50] [--repeat 1]

The positions come from the engine itself (`bench`'s list, read from its output). Wall-clock time
from `go` to `bestmove`, so run it on an otherwise idle machine."""

import argparse
import math
import subprocess
import time


def positions(engine, count):
    out = subprocess.run([engine, "bench", "1"], capture_output=True, text=True).stdout
    fens = [l.split("ms  ", 1)[1] for l in out.splitlines() if l.startswith("position")]
    return fens[:count]


def run(engine, fens, depth, threads):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("engine ended")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 64")
    times = []
    for fen in fens:
        chess960 = "true" if any(c in fen.split()[2] for c in "ABCDEFGHabcdefgh") else "false"
        send(f"setoption name UCI_Chess960 value {chess960}")
        send("ucinewgame")
        send(f"position fen {fen}")
        send("isready")
        until("readyok")
        start = time.perf_counter()
        send(f"go depth {depth}")
        until("bestmove")
        times.append(time.perf_counter() - start)
    send("quit")
    p.wait()
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/cb2026")
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    fens = positions(a.engine, a.positions)
    counts = [int(t) for t in a.threads.split(",")]
    times = {t: [] for t in counts}
    for _ in range(a.repeat):
        for t in counts:
            times[t].append(run(a.engine, fens, a.depth, t))
    # Each position's fastest run; the speed-up of the totals, and the geometric mean of the
    # positions' own speed-ups (which a few long searches can't dominate).
    best = {t: [min(run[i] for run in times[t]) for i in range(len(fens))] for t in counts}
    base = best[counts[0]]
    print(f"{len(fens)} positions, depth {a.depth}, fastest of {a.repeat} per position")
    print("| threads | total time (s) | speed-up of the totals | geometric mean of the speed-ups |")
    print("|---:|---:|---:|---:|")
    for t in counts:
        ratios = [b / x for b, x in zip(base, best[t])]
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"| {t} | {sum(best[t]):.2f} | {sum(base) / sum(best[t]):.2f}x | {geo:.2f}x |")


if __name__ == "__main__":
    main()
