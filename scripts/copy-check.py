#!/usr/bin/env python3
"""Fails if the book or the sources repeat a specifying chapter word for word.

Usage: scripts/copy-check.py [SEEDS] [--min N]
       scripts/copy-check.py --self-test

SEEDS is the folder of the chapters cb2026 was specified from (default ../shared/seeds; a
relative path is taken from the repository root); every *.txt in it is read. The files checked
are the book's chapters (book/src/**/*.md) and every file git knows of, tracked or not yet added
(ignored ones aside), that is Markdown, Rust, Python, shell or TOML, or lives in scripts/ or .ci/.

Text is cut into words: lower case, runs of letters, digits, underscores and apostrophes (a
curly apostrophe counts as a straight one, and quotes around a word are dropped); everything else,
punctuation, Markdown and code symbols, only separates words. Each stretch of N (default 12) or
more consecutive words that also stands in a seed is printed as FILE:LINE, its length and its
words, and the exit status is 1. Without the seeds folder (a user's machine) it says so and exits
0. --self-test checks the check itself on planted text and needs no seeds.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

WORD = re.compile(r"[\w']+")
SOURCE_SUFFIXES = (".md", ".rs", ".py", ".sh", ".toml")
SOURCE_FOLDERS = ("scripts/", ".ci/")


def words(text):
    """The words of `text` with the line (from 1) each starts on."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    line, last = 1, 0
    out = []
    for match in WORD.finditer(text):
        word = match.group().strip("'")
        if not word:
            continue
        line += text.count("\n", last, match.start())
        last = match.start()
        out.append((word, line))
    return out


def shingles(seed_words, n):
    """Every run of n consecutive words of a seed, as a set of tuples."""
    return {tuple(seed_words[k : k + n]) for k in range(len(seed_words) - n + 1)}


def shared_runs(found, seen, n):
    """The maximal runs of `found` (words with lines) that are made of seed shingles of length
    n: a list of (line, words)."""
    tokens = [w for w, _ in found]
    covered = [False] * len(tokens)
    for k in range(len(tokens) - n + 1):
        if tuple(tokens[k : k + n]) in seen:
            covered[k : k + n] = [True] * n
    runs, k = [], 0
    while k < len(tokens):
        if not covered[k]:
            k += 1
            continue
        end = k
        while end < len(tokens) and covered[end]:
            end += 1
        runs.append((found[k][1], tokens[k:end]))
        k = end
    return runs


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def checked_files(root):
    """The repository's files this check covers, sorted."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=root, check=True, capture_output=True, text=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        sys.exit("copy-check: not a git checkout, or git is missing: cannot list the sources")
    files = {
        path for path in listed
        if path.endswith(SOURCE_SUFFIXES) or path.startswith(SOURCE_FOLDERS)
    }
    files.update(
        os.path.relpath(path, root)
        for path in glob.glob(os.path.join(root, "book/src/**/*.md"), recursive=True)
    )
    # A file deleted in the working tree but not yet in the index is no longer there to copy.
    return sorted(path for path in files if os.path.isfile(os.path.join(root, path)))


def check(seed_paths, paths, n, root=".", show=True):
    """Prints every shared run in `paths` (unless `show` is false); returns the number of words
    they cover."""
    seen = set()
    for path in seed_paths:
        seen |= shingles([w for w, _ in words(read(path))], n)
    total = 0
    for path in paths:
        for line, run in shared_runs(words(read(os.path.join(root, path))), seen, n):
            total += len(run)
            if show:
                print(f"{path}:{line}: {len(run)} words: {' '.join(run)}")
    return total


def self_test():
    seed = (
        "Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
        "november oscar papa quebec romeo."
    )
    twelve = "**Alpha** bravo, `charlie` delta (echo) foxtrot; golf-hotel india juliet kilo LIMA."
    eleven = "// bravo charlie delta echo foxtrot golf hotel india juliet kilo lima\n// xray"
    split = "alpha bravo charlie delta echo foxtrot\n\n zulu \n golf hotel india juliet kilo lima"
    apostrophe = "it doesn\u2019t one two three four five six seven eight nine ten"
    with tempfile.TemporaryDirectory() as folder:
        def plant(name, text):
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
            return name

        plant("seed.txt", seed + "\n" + apostrophe)
        seeds = [os.path.join(folder, "seed.txt")]
        cases = [
            ("a planted run of 12 words, through markup", "x\ny " + twelve, 12),
            ("11 words", eleven, 0),
            ("12 words broken by one that differs", split, 0),
            ("a curly apostrophe matching a straight one", "It doesn't one two three four "
             "five six seven eight nine ten.", 12),
            ("the whole seed", seed, 18),
        ]
        failures = 0
        for i, (what, text, expected) in enumerate(cases):
            name = plant(f"case{i}.md", text)
            got = check(seeds, [name], 12, root=folder, show=False)
            status = "ok" if got == expected else "FAILED"
            failures += got != expected
            print(f"self-test: {what}: {got} words flagged, expected {expected}: {status}")
        # The 11 words are there to be found: with runs of 11 counted, they are.
        eleven_found = check(seeds, ["case1.md"], 11, root=folder, show=False) == 11
        failures += not eleven_found
        print(f"self-test: the same 11 words with --min 11: {'ok' if eleven_found else 'FAILED'}")
        # No seeds (a user's machine): said, and not a failure.
        no_seeds = main([os.path.join(folder, "no-such-folder")]) == 0
        failures += not no_seeds
        print(f"self-test: no seeds folder: {'ok' if no_seeds else 'FAILED'}")
        # The line reported is the line the run starts on.
        found = words("one\ntwo three\n\nfour")
        lines_ok = [line for _, line in found] == [1, 2, 2, 4]
        failures += not lines_ok
        print(f"self-test: line numbers: {'ok' if lines_ok else 'FAILED'}")
    return 1 if failures else 0


def main(argv):
    n, seeds_arg = 12, None
    args = iter(argv)
    for arg in args:
        if arg == "--self-test":
            return self_test()
        if arg == "--min":
            n = int(next(args))
        elif arg in ("-h", "--help"):
            print(__doc__)
            return 0
        elif seeds_arg is None and not arg.startswith("-"):
            seeds_arg = arg
        else:
            sys.exit(f"copy-check: unexpected argument {arg!r} (see --help)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seeds_dir = os.path.join(root, seeds_arg or "../shared/seeds")
    seed_paths = sorted(glob.glob(os.path.join(seeds_dir, "*.txt")))
    if not seed_paths:
        print(f"copy-check: no seeds at {os.path.normpath(seeds_dir)} (*.txt): nothing to compare, "
              "check skipped")
        return 0
    paths = checked_files(root)
    total = check(seed_paths, paths, n, root)
    summary = (f"copy-check: {len(paths)} files against {len(seed_paths)} seeds: "
               f"{total} words in runs of {n} or more shared with a seed")
    print(summary)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
