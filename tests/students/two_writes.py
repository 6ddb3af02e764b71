# A Python student whose answer is written by a worker thread in two parts (the first moves,
# a pause, the rest with its line end) while the main thread already waits for the next
# board: the answer is the whole line, not its first part.
import sys, os, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from print_loop import answer


def write(a):
    sys.stdout.write(a[:5])
    sys.stdout.flush()
    time.sleep(0.05)
    sys.stdout.write(a[5:] + "\n")
    sys.stdout.flush()


worker = None
for line in sys.stdin:
    if not line.strip():
        continue
    if worker:
        worker.join()
    worker = threading.Thread(target=write, args=(answer(line),))
    worker.start()
