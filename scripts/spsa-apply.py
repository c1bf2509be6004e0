#!/usr/bin/env python3
"""Writes an SPSA run's values into the params! table, as the new defaults.

Usage: scripts/spsa-apply.py LOG [--iteration K] [--dry-run] [--partial]
       scripts/spsa-apply.py --self-test

Reads the log that `tune spsa` writes (one line per iteration, theta=name:value,...) and takes
the values of iteration K (default: the last logged one). Each value is rounded to the nearest
integer (halves away from zero, the same way whatever Python's rounding), clamped to the row's
range, and written as the row's default in crates/engine/src/params.rs; the range, the step and
the description stay. It prints one line per parameter: old default, the run's value, new default.

A run that has not reached its last iteration is refused unless --partial is given: adopting
the middle of a run is a decision to state, not a slip. --dry-run prints and writes nothing.
The result is a candidate, not a verdict: run `cargo run --release -- bench` for the new bench
and an SPRT against main before the commit that keeps it.
"""

import math
import os
import sys
import tempfile

from spsa_log import PARAMS_RS, ROW, read_defaults, read_log


def round_half_away(x):
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def apply(source, values):
    """`source` with each row named in `values` given that value (rounded, clamped) as its
    default. Returns (new source, [(name, old, value, new)]); a name with no row is an error."""
    lines = source.splitlines(keepends=True)
    changes = []
    seen = set()
    for i, line in enumerate(lines):
        m = ROW.match(line.rstrip("\n"))
        if not m or m["name"] not in values:
            continue
        name = m["name"]
        lo, hi = int(m["min"]), int(m["max"])
        new = min(max(round_half_away(values[name]), lo), hi)
        old = int(m["default"])
        lines[i] = (f"{m['indent']}{name}: {new}, {m['min']}, {m['max']}, {m['step']},"
                    f"{m['rest']}") + ("\n" if line.endswith("\n") else "")
        changes.append((name, old, values[name], new))
        seen.add(name)
    missing = sorted(set(values) - seen)
    if missing:
        raise ValueError(f"no row in {PARAMS_RS} for: {', '.join(missing)}")
    return "".join(lines), changes


def self_test():
    source = (
        "params! {\n"
        "    // a comment: not a row\n"
        "    alpha_margin: 25, 5, 100, 5, \"half-width, in centipawns\";\n"
        "    beta_base: -80, -400, 400, 20, \"a negative default\";\n"
        "    gamma_cap: 3, 0, 6, 1, \"clamped from above\";\n"
        "    untouched: 7, 1, 9, 1, \"not in the run\";\n"
        "}\n"
    )
    out, changes = apply(source, {"alpha_margin": 23.5, "beta_base": -81.5, "gamma_cap": 6.7})
    expected = source.replace("alpha_margin: 25,", "alpha_margin: 24,")
    expected = expected.replace("beta_base: -80,", "beta_base: -82,")
    expected = expected.replace("gamma_cap: 3,", "gamma_cap: 6,")
    assert out == expected, out
    assert [c[3] for c in changes] == [24, -82, 6], changes
    try:
        apply(source, {"no_such_row": 1.0})
    except ValueError:
        pass
    else:
        raise AssertionError("a name without a row must be refused")
    assert read_defaults(source) == {"alpha_margin": 25, "beta_base": -80, "gamma_cap": 3,
                                     "untouched": 7}
    log = ("# spsa params=alpha_margin,beta_base iterations=2\n"
           "# start alpha_margin:25,beta_base:-80\n"
           "k=1 w=3 d=4 l=1 theta=alpha_margin:25.4,beta_base:-80.5\n"
           "k=2 w=2 d=5 l=1 theta=alpha_margin:26.1,beta_base:-79.25\n")
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(log)
    try:
        header, start, rows = read_log(f.name)
    finally:
        os.unlink(f.name)
    assert header["iterations"] == "2" and start == {"alpha_margin": 25.0, "beta_base": -80.0}
    assert [(r.k, r.w, r.d, r.l) for r in rows] == [(1, 3, 4, 1), (2, 2, 5, 1)]
    assert rows[-1].theta == {"alpha_margin": 26.1, "beta_base": -79.25}
    assert round_half_away(-0.5) == -1 and round_half_away(0.5) == 1 and round_half_away(2.49) == 2
    print("spsa-apply.py: self-test passed")
    return 0


def main(argv):
    if argv[:1] == ["--self-test"]:
        return self_test()
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    path = argv[0]
    iteration = None
    dry_run = partial = False
    args = iter(argv[1:])
    for arg in args:
        if arg == "--iteration":
            iteration = int(next(args))
        elif arg == "--dry-run":
            dry_run = True
        elif arg == "--partial":
            partial = True
        else:
            print(f"spsa-apply.py: unknown argument {arg}", file=sys.stderr)
            return 2
    header, _, rows = read_log(path)
    if not rows:
        print(f"spsa-apply.py: no iterations in {path}", file=sys.stderr)
        return 1
    total = int(header.get("iterations", rows[-1].k))
    found = rows if iteration is None else [r for r in rows if r.k == iteration]
    if not found:
        print(f"spsa-apply.py: no iteration {iteration} in {path}", file=sys.stderr)
        return 1
    k, values = found[-1].k, found[-1].theta
    if k < total and not partial:
        print(f"spsa-apply.py: {path} stops at iteration {k} of {total}; "
              "give --partial to adopt it anyway", file=sys.stderr)
        return 1
    with open(PARAMS_RS) as f:
        source = f.read()
    new_source, changes = apply(source, values)
    print(f"iteration {k} of {total} from {path}")
    print(f"{'parameter':32} {'old':>7} {'run':>10} {'new':>7}")
    for name, old, value, new in changes:
        mark = "" if new == old else "  *"
        print(f"{name:32} {old:7} {value:10.2f} {new:7}{mark}")
    moved = sum(1 for c in changes if c[1] != c[3])
    print(f"{moved} of {len(changes)} defaults change")
    if not dry_run:
        with open(PARAMS_RS, "w") as f:
            f.write(new_source)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
