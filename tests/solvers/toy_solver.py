#!/usr/bin/env python3
"""toy_solver.py: a small sliding-tile solver for tilebench's tests of `run --solver`.

It speaks both protocols of `tilebench run --solver` (README: "Benchmark your own solver"):

  moves  reads boards, one per line (`2 3 4 1 5 x 7 6 8`; the blank x, 0 or _), and prints the
         blank's moves (u d l r) to the standard goal `1 2 ... n-1 x`, or `unsolvable`
  steps  reads a start line and a goal line, and prints the number of moves, or -1

It solves with A* and the Manhattan distance, so its answers are optimal, unless told to
misbehave:

  --fault suboptimal   two extra moves (`ud`) at the end of every path (steps: the optimum + 2)
  --fault garbage      prints `no idea` instead of an answer
  --fault crash        exits with status 3 (and a message on stderr) when it reads the case
  --fault hang         sleeps for an hour
  --fault lie          `unsolvable` (-1) for solvable pairs; `ud` (2) for unsolvable ones
  --fault illegal      a path that starts by moving the blank off the board
  --fault chatty       a second line, `done`, after every answer (in the same write)

  --delay MS           sleeps MS milliseconds before each answer (a slower build of itself)
  --on BOARD           misbehave only on this start board (repeatable; default: every case)
  --counters           print `expanded=N generated=N stored=N` on stderr before each answer
  --once               answer one case, then exit (for --solver-spawn per-case)
  --require-blank TOK  answer `blank is not TOK` (garbage) to a board whose blank is written
                       otherwise (to test --solver-blank)
"""

import argparse
import heapq
import math
import sys
import time

BLANKS = ("x", "X", "_", "0")


def tokens(line):
    return line.replace(",", " ").split()


def board(toks):
    return tuple(0 if t in BLANKS else int(t) for t in toks)


def side_of(n):
    s = math.isqrt(n)
    if s * s != n:
        raise SystemExit(f"toy_solver: {n} cells is not a square board")
    return s


def solvable(start, goal, w):
    # The permutation taking start's cells to goal's (blank included) must have the parity of
    # the blank's taxicab distance.
    where = {t: p for p, t in enumerate(goal)}
    seen, cycles = set(), 0
    for p in range(len(start)):
        if p in seen:
            continue
        cycles += 1
        while p not in seen:
            seen.add(p)
            p = where[start[p]]
    parity = (len(start) - cycles) % 2
    (r1, c1), (r2, c2) = divmod(start.index(0), w), divmod(goal.index(0), w)
    return parity == (abs(r1 - r2) + abs(c1 - c2)) % 2


def astar(start, goal, w):
    """Returns (moves, expanded, generated, stored), or None when unsolvable."""
    if not solvable(start, goal, w):
        return None
    h_rows = len(start) // w
    home = {t: divmod(p, w) for p, t in enumerate(goal)}

    def h(s):
        d = 0
        for p, t in enumerate(s):
            if t:
                r, c = divmod(p, w)
                gr, gc = home[t]
                d += abs(r - gr) + abs(c - gc)
        return d

    steps = (("u", -w), ("l", -1), ("r", 1), ("d", w))
    best = {start: 0}
    parent = {start: None}
    heap = [(h(start), 0, 0, start)]
    expanded = generated = tie = 0
    while heap:
        _, neg_g, _, s = heapq.heappop(heap)
        g = -neg_g
        if g > best[s]:
            continue
        if s == goal:
            path = []
            while parent[s] is not None:
                s, m = parent[s]
                path.append(m)
            return "".join(reversed(path)), expanded, generated, len(best)
        expanded += 1
        b = s.index(0)
        r, c = divmod(b, w)
        for m, d in steps:
            if (m == "u" and r == 0) or (m == "d" and r == h_rows - 1):
                continue
            if (m == "l" and c == 0) or (m == "r" and c == w - 1):
                continue
            cells = list(s)
            cells[b], cells[b + d] = cells[b + d], 0
            t = tuple(cells)
            generated += 1
            if t not in best or g + 1 < best[t]:
                best[t] = g + 1
                parent[t] = (s, m)
                tie += 1
                heapq.heappush(heap, (g + 1 + h(t), -(g + 1), tie, t))
    return None


def read_case(protocol):
    """The next case's start (and goal) token lists, or None at the end of input."""
    lines = []
    want = 1 if protocol == "moves" else 2
    while len(lines) < want:
        line = sys.stdin.readline()
        if not line:
            return None
        if line.strip():
            lines.append(tokens(line))
    return lines


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--protocol", choices=("moves", "steps"), default="moves")
    faults = ("suboptimal", "garbage", "crash", "hang", "lie", "illegal", "chatty")
    ap.add_argument("--fault", choices=faults)
    ap.add_argument("--on", action="append", default=[])
    ap.add_argument("--counters", action="store_true")
    ap.add_argument("--once", action="store_true")
    ap.add_argument("--require-blank")
    ap.add_argument("--delay", type=float, default=0.0)
    args = ap.parse_args()
    triggers = {board(tokens(b)) for b in args.on}

    while True:
        case = read_case(args.protocol)
        if case is None:
            return
        start_toks = case[0]
        start = board(start_toks)
        w = side_of(len(start))
        if args.protocol == "moves":
            goal = tuple(range(1, len(start))) + (0,)
        else:
            goal = board(case[1])
        fault = args.fault if (not triggers or start in triggers) else None
        answer = None
        if args.require_blank and not all(args.require_blank in toks for toks in case):
            answer = f"blank is not {args.require_blank}"
        elif fault == "garbage":
            answer = "no idea"
        elif fault == "crash":
            sys.stderr.write("toy_solver: crashing on purpose\n")
            sys.stderr.flush()
            sys.exit(3)
        elif fault == "hang":
            time.sleep(3600)
        if answer is None:
            found = astar(start, goal, w)
            if args.counters:
                # Unsolvable pairs are answered by parity, without searching: all zero.
                _, e, g, s = found if found is not None else (None, 0, 0, 0)
                sys.stderr.write(f"expanded={e} generated={g} stored={s}\n")
                sys.stderr.flush()
            moves = found[0] if found else None  # None: unsolvable
            if fault == "suboptimal" and moves is not None:
                moves += "ud"
            if fault == "illegal" and moves is not None:
                moves = "u" * w + moves  # the blank leaves the board by the w-th `u` at the latest
            if fault == "lie":
                moves = None if moves is not None else "ud"
            if args.protocol == "moves":
                answer = moves if moves is not None else "unsolvable"
            else:
                answer = str(len(moves)) if moves is not None else "-1"
        if fault == "chatty":
            answer += "\ndone"
        if args.delay:
            time.sleep(args.delay / 1000)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
        if args.once:
            return


if __name__ == "__main__":
    main()
