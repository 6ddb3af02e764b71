# A Python student who prints a stray `dull` after each answer (a leftover debug print that
# happens to read as moves).
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin:
    if line.strip():
        print(answer(line))
        print("dull", flush=True)
