#!/usr/bin/env python3
"""The path of an SPSA run, as a Markdown table for the book.

Usage: scripts/spsa-table.py [LOG] [--every K] [--defaults-at REV]

Reads the log that `tune spsa` writes (default target/spsa/spsa.log) and prints each parameter's
value at the start and every K iterations (default: a tenth of the run), the last logged
iteration, the games and their results from the + engine's side.

The start is the log's `# start` line. Logs written before tune spsa wrote one have none: then
the defaults are read from crates/engine/src/params.rs as it is at git revision REV (the
revision the run was built from), or in the working tree without --defaults-at. Once the run's
result is adopted the working tree holds the new values, not the start.
"""

import subprocess
import sys


def parse_values(text):
    return {name: float(value) for name, value in (w.split(":") for w in text.split(","))}


def main(argv):
    path = "target/spsa/spsa.log"
    every = None
    defaults_at = None
    args = iter(argv)
    for arg in args:
        if arg == "--every":
            every = int(next(args))
        elif arg == "--defaults-at":
            defaults_at = next(args)
        elif arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            path = arg
    header = {}
    start = None
    rows = []
    with open(path) as log:
        for line in log:
            words = line.split()
            if not words:
                continue
            if words[:2] == ["#", "start"] and len(words) == 3:
                start = parse_values(words[2])
                continue
            if words[0] == "#":
                header = dict(w.split("=", 1) for w in words[2:] if "=" in w)
                continue
            fields = dict(w.split("=", 1) for w in words)
            rows.append(
                (int(fields["k"]), int(fields["w"]), int(fields["d"]), int(fields["l"]),
                 parse_values(fields["theta"]))
            )
    if not rows:
        print(f"spsa-table.py: no iterations in {path}", file=sys.stderr)
        return 1
    names = list(rows[0][4])
    total = int(header.get("iterations", rows[-1][0]))
    every = every or max(total // 10, 1)
    print("| iteration | " + " | ".join(f"`{n}`" for n in names) + " |")
    print("|---:|" + "---:|" * len(names))
    if start is not None:
        print("| 0 (start) | " + " | ".join(f"{start[n]:g}" for n in names) + " |")
    else:
        defaults = parse_defaults(defaults_at)
        if defaults:
            print("| 0 (default) | " + " | ".join(defaults.get(n, "?") for n in names) + " |")
    for k, _, _, _, theta in rows:
        if k % every == 0 or k == rows[-1][0]:
            print(f"| {k} | " + " | ".join(f"{theta[n]:.1f}" for n in names) + " |")
    w = sum(r[1] for r in rows)
    d = sum(r[2] for r in rows)
    l = sum(r[3] for r in rows)
    print()
    print(f"{rows[-1][0]} of {total} iterations, {w + d + l} games: "
          f"+{w} ={d} -{l} from the + engine's side.")
    return 0


def parse_defaults(rev):
    """Each parameter's default, from the params! table in crates/engine/src/params.rs (at git
    revision `rev`, or in the working tree)."""
    path = "crates/engine/src/params.rs"
    try:
        if rev is None:
            with open(path) as source:
                text = source.read()
        else:
            text = subprocess.run(["git", "show", f"{rev}:{path}"], check=True,
                                  capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"spsa-table.py: no defaults ({e})", file=sys.stderr)
        return {}
    defaults = {}
    for line in text.splitlines():
        line = line.strip()
        name, colon, rest = line.partition(":")
        if colon and name.isidentifier() and rest.strip()[:1].isdigit():
            defaults[name] = rest.split(",")[0].strip()
    return defaults


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
