#!/usr/bin/env python3
"""A 3x3 dataset whose rows are spread over many distinct goals, as a tilebench CSV.

    python3 scripts/many_goals.py [--grouped] TILEBENCH ROWS GOALS SEED OUT

`tilebench gen` makes one goal for all rows (`--goal standard` or a board) or a new one
per row (`--goal random`), not a given number of goals. This script draws GOALS distinct
random goals (every arrangement of 3x3 is a goal), asks `TILEBENCH gen` for ROWS / GOALS
rows of each (`--goal BOARD --unsolvable 0.1`, a seed per goal, so `expected_steps` is
gen's exact distance), shuffles all rows together (so consecutive rows seldom share a
goal; with `--grouped`, each goal's rows stay together, the goals in random order) and
numbers them 1..ROWS. The same arguments give the same file. Used for the
harness's many-goal run (docs/performance.md): `many_goals.py BIN 1000000 2000 11 OUT`.
"""
import os
import random
import subprocess
import sys


def main():
    args = sys.argv[1:]
    grouped = args[:1] == ["--grouped"]
    if grouped:
        args = args[1:]
    if len(args) != 5:
        sys.exit(__doc__)
    tb, rows, goals, seed, out = args[0], int(args[1]), int(args[2]), int(args[3]), args[4]
    if goals < 1 or rows < goals:
        sys.exit("many_goals.py: ROWS must be at least GOALS, and GOALS at least 1")
    rng = random.Random(seed)
    chosen = set()
    while len(chosen) < goals:
        cells = list(range(9))
        rng.shuffle(cells)
        chosen.add(" ".join("x" if c == 0 else str(c) for c in cells))
    lines = []
    order = sorted(chosen)
    rng.shuffle(order)
    for i, goal in enumerate(order):
        n = rows // goals + (1 if i < rows % goals else 0)
        made = subprocess.run([tb, "gen", "-n", str(n), "--goal", goal, "--unsolvable", "0.1",
                               "--seed", str(seed * 1_000_003 + i)],
                              check=True, capture_output=True, text=True).stdout.splitlines()
        # Keep start, goal and expected_steps; the id is given after the shuffle.
        lines.extend(line.split(",", 1)[1] for line in made[1:])
    if not grouped:
        rng.shuffle(lines)
    tmp = out + ".part"
    with open(tmp, "w") as f:
        f.write("id,start,goal,expected_steps\n")
        for k, line in enumerate(lines, 1):
            f.write(f"{k},{line}\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
