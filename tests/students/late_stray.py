# A Python student who prints a stray `dull` a moment after each answer (a leftover debug
# print after some slow bookkeeping), each line flushed on its own: the stray line reaches
# tilebench after the answer, often after the next case could have been sent.
import sys, os, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer

for line in sys.stdin:
    if line.strip():
        print(answer(line), flush=True)
        time.sleep(0.03)
        print("dull", flush=True)
