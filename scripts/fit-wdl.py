#!/usr/bin/env python3
"""Fits cb2026's win/draw/loss model to its own self-play games and draws the fit.

The model says how likely the side to move is to win, draw or lose, given the search's score
`v` (centipawns, side to move's view) and the move number `m`:

    win  = 1 / (1 + exp((a(m) - v) / b(m)))
    loss = 1 / (1 + exp((a(m) + v) / b(m)))
    draw = 1 - win - loss

`a(m)` is the score at which a win is as likely as not; `b(m)` how quickly the chance rises
around it. Both are cubic polynomials in x = m / 32 (m clamped to MOVE_RANGE). The fit is done
in two steps: a maximum-likelihood (a, b) for each move number, from the games' positions binned
by score, then a least-squares cubic through those, weighted by how many positions each move
number had.

Input: `tune datagen --format games` files (`.games`, or `.games.zst`, unpacked with the zstd
command), whose every move carries the search's score, and whose start record carries the
result. Only the start record's side to move and move number are decoded, so no chess code is
needed here.

Usage:
    scripts/fit-wdl.py data/nnue/*.games.zst --svg book/src/figures/wdl-model.svg \
        --rust crates/engine/src/wdl_params.rs
"""

import argparse
import math
import os
import struct
import subprocess
import sys

RECORD = 32
MATE_BOUND = 32000 - 128
SCORE_LIMIT = 1200  # positions beyond this are decided; the model is fitted where it matters
BIN = 10            # centipawns per score bin
MOVE_RANGE = (8, 100)


def read_bytes(path):
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    with open(path, "rb") as f:
        return f.read()


def samples(data):
    """Yields (move number, score for the side to move, result for the side to move)."""
    at = 0
    n = len(data)
    while at + RECORD <= n:
        start = data[at:at + RECORD]
        stm = start[24]
        fullmove = struct.unpack_from("<H", start, 26)[0]
        result = start[30]
        if result > 2:
            raise ValueError(f"bad result byte at offset {at}")
        white_points = result / 2.0
        ply = 2 * (fullmove - 1) + stm
        at += RECORD
        while True:
            if at + 4 > n:
                return  # a torn last game
            bits, score = struct.unpack_from("<Hh", data, at)
            at += 4
            if bits == 0 and score == 0:
                break
            side = ply & 1  # 0 White to move
            if abs(score) < MATE_BOUND:
                v = score if side == 0 else -score
                r = white_points if side == 0 else 1.0 - white_points
                yield ply // 2 + 1, v, r
            ply += 1


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def probabilities(v, a, b):
    win = sigmoid((v - a) / b)
    loss = sigmoid((-v - a) / b)
    return win, max(1e-9, 1.0 - win - loss), loss


def log_likelihood(bins, a, b):
    total = 0.0
    for v, (w, d, l) in bins.items():
        pw, pd, pl = probabilities(v, a, b)
        total += w * math.log(max(pw, 1e-12)) + d * math.log(pd) + l * math.log(max(pl, 1e-12))
    return total


def fit_one(bins, a=150.0, b=80.0):
    """Maximum likelihood (a, b) for one move number: gradient ascent with a shrinking step,
    on the binned counts (a few hundred bins, so this is quick in plain Python)."""
    step_a, step_b = 20.0, 10.0
    best = log_likelihood(bins, a, b)
    for _ in range(300):
        improved = False
        for da, db in ((step_a, 0), (-step_a, 0), (0, step_b), (0, -step_b)):
            na, nb = a + da, max(5.0, b + db)
            ll = log_likelihood(bins, na, nb)
            if ll > best:
                a, b, best, improved = na, nb, ll, True
        if not improved:
            step_a /= 2
            step_b /= 2
            if step_a < 0.01:
                break
    return a, b


def polyfit3(xs, ys, ws):
    """Weighted least squares cubic: coefficients c0..c3 of c0 + c1 x + c2 x^2 + c3 x^3."""
    m = [[0.0] * 5 for _ in range(4)]
    for x, y, w in zip(xs, ys, ws):
        p = [1.0, x, x * x, x * x * x]
        for i in range(4):
            for j in range(4):
                m[i][j] += w * p[i] * p[j]
            m[i][4] += w * p[i] * y
    for col in range(4):  # Gaussian elimination with partial pivoting
        piv = max(range(col, 4), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(4):
            if r != col:
                f = m[r][col] / m[col][col]
                for k in range(col, 5):
                    m[r][k] -= f * m[col][k]
    return [m[i][4] / m[i][i] for i in range(4)]


def poly(c, x):
    return c[0] + c[1] * x + c[2] * x * x + c[3] * x * x * x


def clamp_move(m):
    return min(max(m, MOVE_RANGE[0]), MOVE_RANGE[1])


def svg(per_move, ca, cb, path, shown=(12, 24, 40, 64)):
    width, height, left, top, plot_w, plot_h = 760, 440, 70, 40, 640, 330
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]

    def px(v):
        return left + (v + 800) / 1600 * plot_w

    def py(p):
        return top + (1 - p) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">'
           'Win rate of the side to move against the search\'s score: observed (dots) and model (lines)</text>',
           f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>']
    for v in range(-800, 801, 200):
        out.append(f'<line x1="{px(v)}" y1="{top}" x2="{px(v)}" y2="{top + plot_h}" stroke="#eee"/>')
        out.append(f'<text x="{px(v)}" y="{top + plot_h + 18}" text-anchor="middle">{v}</text>')
    for i in range(0, 11, 2):
        p = i / 10
        out.append(f'<line x1="{left}" y1="{py(p)}" x2="{left + plot_w}" y2="{py(p)}" stroke="#eee"/>')
        out.append(f'<text x="{left - 8}" y="{py(p) + 4}" text-anchor="end">{p:.1f}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 12}" text-anchor="middle">'
               'score (centipawns, side to move)</text>')
    out.append(f'<text x="18" y="{top + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {top + plot_h / 2})">win rate</text>')
    for k, m in enumerate(shown):
        colour = colours[k % len(colours)]
        bins = per_move.get(m, {})
        for v, (w, d, l) in sorted(bins.items()):
            n = w + d + l
            if n >= 30 and -800 <= v <= 800:
                out.append(f'<circle cx="{px(v):.1f}" cy="{py(w / n):.1f}" r="2" fill="{colour}" '
                           'fill-opacity="0.5"/>')
        x = clamp_move(m) / 32
        a, b = poly(ca, x), poly(cb, x)
        points = " ".join(f"{px(v):.1f},{py(sigmoid((v - a) / b)):.1f}" for v in range(-800, 801, 10))
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<rect x="{left + 16}" y="{top + 14 + 18 * k}" width="12" height="3" fill="{colour}"/>')
        out.append(f'<text x="{left + 34}" y="{top + 19 + 18 * k}">move {m}: a = {a:.0f}, b = {b:.0f}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--svg", help="write the picture of the fit here")
    ap.add_argument("--rust", help="write the coefficients as Rust constants here")
    args = ap.parse_args()

    per_move = {}
    count = 0
    for path in args.files:
        for m, v, r in samples(read_bytes(path)):
            if abs(v) > SCORE_LIMIT:
                continue
            m = clamp_move(m)
            key = int(round(v / BIN)) * BIN
            slot = per_move.setdefault(m, {}).setdefault(key, [0, 0, 0])
            slot[0 if r == 1.0 else 1 if r == 0.5 else 2] += 1
            count += 1
    print(f"fit-wdl: {count} positions from {len(args.files)} file(s)", file=sys.stderr)

    xs, as_, bs, ws, ns = [], [], [], [], []
    a, b = 150.0, 80.0
    for m in sorted(per_move):
        bins = per_move[m]
        n = sum(sum(c) for c in bins.values())
        if n < 2000:
            continue
        a, b = fit_one(bins, a, b)
        xs.append(m / 32)
        as_.append(a)
        bs.append(b)
        ws.append(math.sqrt(n))  # so that the many early moves do not drown the late ones
        ns.append(n)
    ca = polyfit3(xs, as_, ws)
    cb = polyfit3(xs, bs, ws)
    print("move      n      a      b   fit a  fit b")
    for x, a, b, w in zip(xs, as_, bs, ns):
        if round(x * 32) % 8 == 0:
            print(f"{round(x * 32):4} {w:7} {a:6.1f} {b:6.1f} {poly(ca, x):7.1f} {poly(cb, x):6.1f}")
    print("a:", ", ".join(f"{c:.4f}" for c in ca))
    print("b:", ", ".join(f"{c:.4f}" for c in cb))
    if args.svg:
        svg(per_move, ca, cb, args.svg)
    if args.rust:
        with open(args.rust, "w") as f:
            f.write("// Generated by scripts/fit-wdl.py from " + ", ".join(os.path.basename(p) for p in args.files)
                    + f" ({count} positions): do not edit.\n")
            f.write("/// a(x) = A[0] + A[1] x + A[2] x^2 + A[3] x^3, x = move number / 32.\n")
            f.write("pub const A: [f64; 4] = [" + ", ".join(f"{c:.4f}" for c in ca) + "];\n")
            f.write("/// b(x), likewise.\n")
            f.write("pub const B: [f64; 4] = [" + ", ".join(f"{c:.4f}" for c in cb) + "];\n")
            f.write(f"/// The move numbers the fit covers; others are clamped into it.\n")
            f.write(f"pub const MOVES: (u32, u32) = ({MOVE_RANGE[0]}, {MOVE_RANGE[1]});\n")


if __name__ == "__main__":
    main()
