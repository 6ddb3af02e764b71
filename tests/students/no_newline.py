# A Python student who writes each answer without a line end (and does flush it).
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin:
    if not line.strip():
        continue
    sys.stdout.write(answer(line))
    sys.stdout.flush()
