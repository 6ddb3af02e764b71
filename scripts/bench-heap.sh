#!/usr/bin/env bash
# What the heap accounting costs (cases.csv's peak_heap_bytes, --max-memory): the same
# runs with the default binary, which counts every allocation per thread
# (tilebench::memory::CountingAlloc), and with one built without it
# (`--no-default-features`), in turns (scripts/alternate.py: each round runs both, so a
# change in the machine's speed falls on both alike), medians over ROUNDS rounds.
#
#   1. per strategy, the summed latency_ns of one thread (`-j 1`) over DATA: the cost inside
#      the clock (each allocation and free counts its bytes);
#   2. `-s table` on 100,000 rows, the whole process's wall and CPU time: the cost per case
#      around the clock (the peak's mark and read, and the harness's own allocations).
#
# Usage: scripts/bench-heap.sh [ROUNDS] [DATA]   (defaults: 7, inputs/random-1k.csv)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
data=${2:-inputs/random-1k.csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One target directory: the two builds differ only in tilebench itself.
cargo build --release --bin tilebench -q --no-default-features
cp target/release/tilebench "$tmp/plain"
cargo build --release --bin tilebench -q
cp target/release/tilebench "$tmp/counting"
for s in bfs-hashset bibfs astar idastar; do
    echo "== $s, summed latency of $data on one thread"
    ARGS="-s $s -q" python3 scripts/alternate.py --latency "$rounds" \
        "$tmp/counting" "$tmp/plain" "$data"
done
"$tmp/plain" gen --count 100000 --seed 11 --unsolvable 0.1 -o "$tmp/rows.csv" 2>/dev/null
echo "== -s table on 100,000 rows, 2 threads, the process's wall and CPU time"
ARGS="-s table -q" python3 scripts/alternate.py "$rounds" "$tmp/counting" "$tmp/plain" \
    "$tmp/rows.csv"
