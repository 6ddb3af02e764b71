# A Python student used to contest judges: each answer is printed as `Case N: moves`.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

n = 0
for line in sys.stdin:
    if not line.strip():
        continue
    n += 1
    print(f"Case {n}: {answer(line)}", flush=True)
