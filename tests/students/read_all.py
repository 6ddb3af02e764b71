# A Python solver that reads all of its input first, then prints every answer.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv.append("--read-all")
from print_loop import answer

lines = [l for l in sys.stdin.read().split("\n") if l.strip()]
print("\n".join(answer(l) for l in lines))
