# A Python solver with a bug in its first answer after each start: the path printed for the
# first board it reads lacks its last move (a loop that stops one step early until its table
# is warm, say); every later answer is right. Run by hand over 200 boards, 199 are right.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

first = True
for line in sys.stdin:
    if not line.strip():
        continue
    path = answer(line)
    if first and path != "unsolvable":
        path = path[:-1]
    first = False
    print(path, flush=True)
