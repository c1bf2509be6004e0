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

from spsa_log import PARAMS_RS, read_defaults, read_log


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
    header, start, rows = read_log(path)
    if not rows:
        print(f"spsa-table.py: no iterations in {path}", file=sys.stderr)
        return 1
    names = list(rows[0].theta)
    total = int(header.get("iterations", rows[-1].k))
    every = every or max(total // 10, 1)
    print("| iteration | " + " | ".join(f"`{n}`" for n in names) + " |")
    print("|---:|" + "---:|" * len(names))
    if start is not None:
        print("| 0 (start) | " + " | ".join(f"{start[n]:g}" for n in names) + " |")
    else:
        defaults = parse_defaults(defaults_at)
        if defaults:
            print("| 0 (default) | " + " | ".join(str(defaults.get(n, "?")) for n in names)
                  + " |")
    for row in rows:
        if row.k % every == 0 or row is rows[-1]:
            print(f"| {row.k} | " + " | ".join(f"{row.theta[n]:.1f}" for n in names) + " |")
    w = sum(r.w for r in rows)
    d = sum(r.d for r in rows)
    l = sum(r.l for r in rows)
    print()
    print(f"{rows[-1].k} of {total} iterations, {w + d + l} games: "
          f"+{w} ={d} -{l} from the + engine's side.")
    return 0


def parse_defaults(rev):
    """Each parameter's default, from the params! table in params.rs (at git revision `rev`, or
    in the working tree)."""
    try:
        if rev is None:
            with open(PARAMS_RS) as source:
                text = source.read()
        else:
            text = subprocess.run(["git", "show", f"{rev}:{PARAMS_RS}"], check=True,
                                  capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"spsa-table.py: no defaults ({e})", file=sys.stderr)
        return {}
    return read_defaults(text)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
