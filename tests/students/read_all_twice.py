# A Python student who reads all of stdin first and prints each answer twice (run in batch
# mode: the repeats must not shift the answers onto other boards).
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin.read().splitlines():
    if line.strip():
        a = answer(line)
        print(a)
        print(a)
