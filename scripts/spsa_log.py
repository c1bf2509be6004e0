"""What `tune spsa` writes, read back: the log's header, start and iterations, and the params!
table's rows. Shared by spsa-apply.py (which writes a run's values as the defaults) and
spsa-table.py (which prints a run's path for the book), so that the two read a log the same way.
"""

import re

PARAMS_RS = "crates/engine/src/params.rs"

# One row of the params! macro: `name: default, min, max, step, "doc";` (the doc may hold commas).
ROW = re.compile(
    r"^(?P<indent>\s*)(?P<name>[a-z_][a-z_0-9]*):\s*(?P<default>-?\d+),\s*(?P<min>-?\d+),"
    r"\s*(?P<max>-?\d+),\s*(?P<step>-?\d+),(?P<rest>\s*\".*\";\s*)$"
)


def parse_values(text):
    """`name:value,name:value,...` as {name: float}."""
    values = {}
    for pair in text.split(","):
        name, colon, value = pair.partition(":")
        if not colon:
            raise ValueError(f"not name:value: {pair!r}")
        values[name] = float(value)
    return values


class Iteration:
    """One logged iteration: its number, the games it played (from the + engine's side) and the
    values after it."""

    def __init__(self, k, w, d, l, theta):
        self.k, self.w, self.d, self.l, self.theta = k, w, d, l, theta


def read_log(path):
    """(header, start, iterations): the key=value words of the `# spsa` line, the values of the
    `# start` line (None in logs written before tune spsa wrote one) and the iterations in order."""
    header = {}
    start = None
    rows = []
    with open(path) as log:
        for number, line in enumerate(log, 1):
            words = line.split()
            if not words:
                continue
            if words[0] == "#":
                if words[1:2] == ["start"] and len(words) == 3:
                    start = parse_values(words[2])
                elif words[1:2] == ["spsa"]:
                    header = dict(w.split("=", 1) for w in words[2:] if "=" in w)
                continue
            fields = dict(w.split("=", 1) for w in words if "=" in w)
            if "k" not in fields or "theta" not in fields:
                raise ValueError(f"{path}:{number}: not an iteration line")
            rows.append(Iteration(int(fields["k"]), int(fields.get("w", 0)),
                                  int(fields.get("d", 0)), int(fields.get("l", 0)),
                                  parse_values(fields["theta"])))
    return header, start, rows


def read_defaults(source):
    """Each params! row's default in `source` (the text of params.rs), as {name: int}."""
    defaults = {}
    for line in source.splitlines():
        m = ROW.match(line)
        if m:
            defaults[m["name"]] = int(m["default"])
    return defaults
