#!/usr/bin/env python3
"""Uniformly random solvable 15-puzzles for Korf's goal (blank top left), as a tilebench CSV.

    python3 scripts/random15.py COUNT SEED > random.csv

`tilebench gen` cannot make these: it writes exact `expected_steps`, which on 4x4 it can
compute only for shallow pairs. These have no `expected_steps`; check answers by agreement
between strategies (for instance `-s idastar,idastar-tt --heuristic pdb`, whose steps must
be equal). Used to measure node counts on more instances than Korf's 100 (docs/performance-history.md).
"""
import random
import sys


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    goal = " ".join(map(str, range(16)))
    print("id,start,goal")
    made = 0
    while made < count:
        p = list(range(16))
        rng.shuffle(p)
        inversions = sum(1 for a in range(16) for b in range(a + 1, 16) if p[a] > p[b])
        blank = p.index(0)
        # Solvable for this goal: every move swaps the blank with a tile (one transposition)
        # and moves the blank one cell, so the permutation's parity equals the parity of the
        # blank's distance from its goal cell.
        if inversions % 2 != (blank // 4 + blank % 4) % 2:
            continue
        made += 1
        print(f"{made},{' '.join(map(str, p))},{goal}")


if __name__ == "__main__":
    main()
