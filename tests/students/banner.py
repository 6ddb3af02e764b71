# A Python student whose program greets before reading anything.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

print("8-puzzle solver ready", flush=True)
for line in sys.stdin:
    if line.strip():
        print(answer(line), flush=True)
