#!/usr/bin/env python3
"""Drives cb2026 with OpenBench's own client code, as an OpenBench worker does.

    scripts/openbench-client.py [--engine CB2026] [--tune TUNE] [--client DIR_OR_TAR]

The client is the pinned copy in ../shared/tools/openbench/openbench-client.tar.xz (or a folder
holding OpenBench's `Client/`). Checked, with the client's own functions:

- `Client/bench.py`'s `run_benchmark`: the engine's `bench` parses, is the same on two processes
  at once, and is the node count of `cb2026 bench`'s last line;
- `Client/genfens.py`'s `create_genfens_opening_book`: two engine processes (two "threads" of a
  worker, seeds 11 and 12) each asked for N openings as `./ENGINE "genfens N seed S book None "
  quit`, within the client's 15-second silence limit; the book written holds 2N distinct EPD
  lines, every one a legal position, and a second run writes the same book (the lines arrive in
  any order across the two processes, so the books are compared as sets);
- the same with an EPD book and the extra words `plies 4`;
- with `--tune`: `Client/pgn_util.py`'s `process_pgn_file`, which rewrites a worker's PGN before
  it goes to the server (compact or verbose comments, fewer tags), applied to the fastchess
  fixture of `crates/tune/tests/fixtures/`; `tune pgn` reads both forms into the same training
  data as the fixture itself (526 positions, 374 kept).

Exits 0 when every check holds, 1 otherwise, and 2 (with SKIPPED on standard error) when the
client code is not on this machine.
"""

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import types

N = 40


def client_dir(spec, work):
    if os.path.isdir(os.path.join(spec, "Client")):
        return os.path.join(spec, "Client")
    with tarfile.open(spec) as tar:
        tar.extractall(work, filter="data")
    for root, dirs, _ in os.walk(work):
        if "Client" in dirs:
            return os.path.join(root, "Client")
    raise SystemExit(f"no Client/ in {spec}")


def legal(engine, epd):
    """The position of an OpenBench EPD line, set up by the engine: `d` prints its FEN back."""
    fields = epd.split()
    fen = " ".join(fields[:4]) + f" {fields[5].rstrip(';')} {fields[7].rstrip(';')}"
    out = subprocess.run(
        [engine, f"position fen {fen}", "d"], capture_output=True, text=True, timeout=20
    ).stdout
    return "error" not in out and f"Fen: {fen}" in out


def make_book(genfens, workdir, name, book, extra):
    out = io.StringIO()
    args = {
        "N": N,
        "threads": 2,
        "engine": name,
        "book": book,
        "seeds": [11, 12],
        "extra": extra,
        "output": out,
    }
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        genfens.create_genfens_opening_book(args)
    finally:
        os.chdir(cwd)
    return [line for line in out.getvalue().splitlines() if line]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine")
    parser.add_argument("--tune")
    parser.add_argument(
        "--client",
        default=os.path.join(here, "../../shared/tools/openbench/openbench-client.tar.xz"),
    )
    a = parser.parse_args()
    if not os.path.exists(a.client):
        print(f"SKIPPED: no OpenBench client at {a.client}", file=sys.stderr)
        return 2
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as work:
        client = client_dir(os.path.abspath(a.client), work)
        # The client imports `requests` for talking to its server; nothing here talks to one.
        sys.modules.setdefault("requests", types.ModuleType("requests"))
        sys.path.insert(0, client)
        import bench
        import genfens
        import pgn_util

        if a.tune:
            fixture = os.path.join(here, "../crates/tune/tests/fixtures/fastchess-openbench.pgn")
            for compact in (False, True):
                rewritten = os.path.join(work, f"uploaded-{compact}.pgn")
                with open(rewritten, "w") as f:
                    f.write(pgn_util.process_pgn_file(fixture, 1.0, compact))
                out = subprocess.run(
                    [a.tune, "pgn", rewritten, "--out", os.path.join(work, f"{compact}.games")],
                    capture_output=True,
                    text=True,
                ).stdout
                form = "compact" if compact else "verbose"
                check(
                    "4 games read, 4 written (526 positions, 374 kept" in out,
                    f"tune pgn reads the {form} upload as the fixture: {out.splitlines()[:1]}",
                )
        if not a.engine:
            return 1 if failures else 0

        # The worker runs the engine from its own folder, by a relative name.
        workdir = os.path.join(work, "Engines")
        os.makedirs(workdir)
        name = "cb2026-under-test"
        engine = os.path.join(workdir, name)
        shutil.copy(a.engine, engine)
        shutil.copy(
            os.path.join(here, "../data/openings/balanced.epd"), os.path.join(workdir, "book.epd")
        )

        cwd = os.getcwd()
        os.chdir(workdir)
        try:
            speed, nodes = bench.run_benchmark(name, 2, 1)
        finally:
            os.chdir(cwd)
        last = subprocess.run([engine, "bench"], capture_output=True, text=True).stdout
        ours = int(last.strip().splitlines()[-1].split()[0])
        check(nodes == ours and speed > 0, f"bench.py reads bench {nodes} ({ours} ours), {speed} nps")

        for book, extra in (("None", ""), ("book.epd", "plies 4")):
            first = make_book(genfens, workdir, name, book, extra)
            again = make_book(genfens, workdir, name, book, extra)
            label = f"genfens.py, book {book}, extra '{extra}'"
            check(len(first) == 2 * N, f"{label}: {len(first)} openings for 2 x {N}")
            check(len(set(first)) == len(first), f"{label}: all distinct")
            check(set(first) == set(again), f"{label}: the same openings again")
            check(all(legal(engine, line) for line in first), f"{label}: every one legal")
    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
