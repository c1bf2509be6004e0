#!/usr/bin/env python3
"""Unpacks the training data in data/nnue/ into one file per run, checked against MANIFEST.md.

Usage: scripts/nnue-data.py OUT_DIR [--through RUN:PART ...] [--only RUN ...]

For each run (the name before `-partNNN.games.zst`: `nnue-325f957-s20261222`, ...) it writes
OUT_DIR/RUN.games, its parts in order, and for the head start OUT_DIR/selfplay-hce-92bde88.bin.
Each file's sha256 must be one that MANIFEST.md states (the MANIFEST gives the sha256 of every
run's parts 000-NNN in order, part by part), so a missing or damaged part stops it with an error
instead of training quietly on other data. `--through RUN:PART` stops that run after part PART
(to rebuild the data an earlier network was trained on); `--only RUN` unpacks only the runs named.
It prints the trainer's `--data` list at the end. A file already in OUT_DIR with a sha256 that
the MANIFEST states, and the right one for the parts asked for, is kept as it is.
"""

import glob
import hashlib
import os
import re
import subprocess
import sys

DATA = "data/nnue"
HEAD_START = "selfplay-hce-92bde88.bin.xz"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def runs():
    """{run: [part paths in order]} for the games files in data/nnue."""
    found = {}
    for path in sorted(glob.glob(os.path.join(DATA, "*-part[0-9][0-9][0-9].games.zst"))):
        m = re.fullmatch(r"(.+)-part(\d{3})\.games\.zst", os.path.basename(path))
        found.setdefault(m[1], []).append((int(m[2]), path))
    for run, parts in found.items():
        numbers = [n for n, _ in parts]
        if numbers != list(range(len(numbers))):
            raise SystemExit(f"nnue-data.py: {run}: parts {numbers} are not 000 to "
                             f"{len(numbers) - 1:03}")
    return {run: [p for _, p in parts] for run, parts in found.items()}


def unpack(command, inputs, out):
    with open(out + ".tmp", "wb") as f:
        for path in inputs:
            subprocess.run(command + [path], stdout=f, check=True)
    os.replace(out + ".tmp", out)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    out_dir = argv[0]
    through = {}
    only = set()
    args = iter(argv[1:])
    for arg in args:
        if arg == "--through":
            run, _, part = next(args).partition(":")
            through[run] = int(part)
        elif arg == "--only":
            only.add(next(args))
        else:
            print(f"nnue-data.py: unknown argument {arg}", file=sys.stderr)
            return 2
    with open(os.path.join(DATA, "MANIFEST.md")) as f:
        manifest = f.read()
    stated = set(re.findall(r"[0-9a-f]{64}", manifest))
    all_runs = runs()
    order = sorted(all_runs, key=lambda run: manifest.find(f"`{run}-part000.games.zst`"))
    unknown = (set(through) | only) - set(all_runs) - {HEAD_START.removesuffix(".bin.xz")}
    if unknown:
        print(f"nnue-data.py: no such run: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    jobs = []
    for run in order:
        parts = all_runs[run]
        if only and run not in only:
            continue
        if run in through:
            if through[run] >= len(parts):
                print(f"nnue-data.py: {run} has no part {through[run]:03}", file=sys.stderr)
                return 2
            parts = parts[: through[run] + 1]
        jobs.append((["zstd", "-dcq"], parts, os.path.join(out_dir, run + ".games")))
    head = HEAD_START.removesuffix(".xz")
    if not only or head.removesuffix(".bin") in only:
        jobs.append((["xz", "-dc"], [os.path.join(DATA, HEAD_START)], os.path.join(out_dir, head)))
    files = []
    for command, inputs, out in jobs:
        unpack(command, inputs, out)
        digest = sha256(out)
        if digest not in stated:
            print(f"nnue-data.py: {out} (sha256 {digest}) is not a file MANIFEST.md states",
                  file=sys.stderr)
            return 1
        print(f"{out}: {os.path.getsize(out):,} bytes from {len(inputs)} part(s), "
              f"sha256 {digest[:16]}... as MANIFEST.md states")
        files.append(out)
    print("--data " + " ".join(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
