# A Python student's solver that knows parity and little else: it answers `unsolvable` for
# a board of the other parity, and for any other board it builds a table that only grows
# (a megabyte at a time, each page written) until the memory runs out. Under an
# address-space limit the allocation fails: it catches the MemoryError and exits with
# status 3 without a word, as a program that frees nothing and gives up would.
import os
import sys

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def inversions(b):
    tiles = [t for t in b if t != 0]
    return sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])


def answer(line):
    b = tuple(0 if t in "x0" else int(t) for t in line.split())
    if inversions(b) % 2 != inversions(GOAL) % 2:
        return "unsolvable"
    table = []
    try:
        # (A guard for a test run without the limit: it stops at 1 GB, status 4.)
        while len(table) < 1024:
            chunk = bytearray(1 << 20)
            for i in range(0, len(chunk), 4096):
                chunk[i] = 1
            table.append(chunk)
    except MemoryError:
        os._exit(3)
    os._exit(4)


for line in sys.stdin:
    if line.strip():
        print(answer(line), flush=True)
