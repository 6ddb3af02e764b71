# A Python solver that prints an empty line after each answer (a `print()` too many).
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin:
    print(answer(line))
    print(flush=True)
