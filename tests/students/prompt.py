# A Python student who prompts for each board with input(), as the course's first exercise did:
# `Enter board: ` (no line end) before each read, then the answer.
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

while True:
    try:
        line = input("Enter board: ")
    except EOFError:
        break
    if line.strip():
        print(answer(line), flush=True)
