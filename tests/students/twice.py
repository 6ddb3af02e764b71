# A Python student who prints each answer twice (a print left in a helper and another in the
# loop), flushing both.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin:
    if not line.strip():
        continue
    a = answer(line)
    print(a, flush=True)
    print(a, flush=True)
