# A Python student's solver: a breadth-first search from the goal, then `print` for each
# line of stdin (no -u, no flush).
import sys
from collections import deque

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
MOVES = {"u": -3, "d": 3, "l": -1, "r": 1}
BACK = {"u": "d", "d": "u", "l": "r", "r": "l"}


def neighbours(b):
    z = b.index(0)
    for m, step in MOVES.items():
        if (m == "l" and z % 3 == 0) or (m == "r" and z % 3 == 2):
            continue
        t = z + step
        if 0 <= t < 9:
            n = list(b)
            n[z], n[t] = n[t], 0
            yield m, tuple(n)


toward = {GOAL: None}
queue = deque([GOAL])
while queue:
    b = queue.popleft()
    for m, n in neighbours(b):
        if n not in toward:
            toward[n] = BACK[m]
            queue.append(n)


def answer(line):
    b = tuple(0 if t in "x0" else int(t) for t in line.split())
    if b not in toward:
        return "unsolvable"
    path = []
    while toward[b] is not None:
        m = toward[b]
        path.append(m)
        b = dict(neighbours(b))[m]
    return "".join(path)


if __name__ == "__main__" and "--read-all" not in sys.argv:
    for line in sys.stdin:
        if line.strip():
            print(answer(line))
