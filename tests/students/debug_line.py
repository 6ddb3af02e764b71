# A Python student who left a debug line in: `print("Solving", board)` before each answer, on
# stdout, no flush. Run by hand, every answer is right.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin:
    if not line.strip():
        continue
    print("Solving", line.strip())
    print(answer(line))
