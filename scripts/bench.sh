#!/usr/bin/env bash
# End-to-end speed of tilebench, measured side by side in one run.
#
#   1. `tilebench run` on a 10,000-pair 3x3 dataset for each strategy at 1 and 2 threads:
#      cases/s and the 2-thread speed-up (the BFS variants, which take milliseconds a case,
#      on the first BFS_PAIRS pairs; default 1,000);
#   2. per-case latency beside the pathfinding crate (examples/peers.rs): median, p99, ratios;
#   3. harness overhead: `tilebench run -s table` on 1,000,000 pairs, case-rows per second.
#
# Usage: scripts/bench.sh [--quick]   (--quick: 2,000 pairs, 200 BFS pairs, 200,000 rows)
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=10000 BFS_PAIRS=${BFS_PAIRS:-1000} ROWS=1000000 PEER_CASES=2000 PEER_BFS=300
if [ "${1:-}" = "--quick" ]; then PAIRS=2000 BFS_PAIRS=200 ROWS=200000 PEER_CASES=500 PEER_BFS=50; fi
cargo build --release -q --example peers
T=target/release/tilebench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# tilebench scripts/bench.sh — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
$T gen --count "$PAIRS" --seed 5 -o "$tmp/pairs.csv"
awk -v n="$BFS_PAIRS" 'NR <= 3 + n' "$tmp/pairs.csv" > "$tmp/bfs-pairs.csv"

echo
echo "## tilebench run, cases/s (solve phase of each strategy, from summary.csv)"
printf '%-12s %8s %14s %14s %9s\n' strategy pairs "1 thread" "2 threads" speed-up
for s in table idastar astar bibfs bfs-rank bfs-hash bfs-hashset bfs-set; do
  data="$tmp/pairs.csv"; n=$PAIRS
  case $s in bfs-*) data="$tmp/bfs-pairs.csv"; n=$BFS_PAIRS ;; esac
  rate() { $T run "$data" -s "$s" --threads "$1" -q --out "$tmp/r-$s-$1" >/dev/null 2>&1
           awk -F, 'NR==2 {print $NF}' "$tmp/r-$s-$1/summary.csv"; }
  r1=$(rate 1); r2=$(rate 2)
  awk -v s="$s" -v n="$n" -v a="$r1" -v b="$r2" 'BEGIN { printf "%-12s %8d %14.0f %14.0f %8.2fx\n", s, n, a, b, b / a }'
done

echo
echo "## per-case latency beside the pathfinding crate (one thread, side by side)"
target/release/examples/peers "$PEER_CASES" "$PEER_BFS" 7

echo
echo "## harness overhead: $ROWS pairs with -s table, end to end (read, solve, write)"
$T gen --count "$ROWS" --seed 11 --unsolvable 0.1 -o "$tmp/rows.csv"
for t in 1 2; do
  start=$(date +%s.%N)
  $T run "$tmp/rows.csv" -s table --threads $t -q --out "$tmp/rows-$t" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v t=$t -v a="$start" -v b="$end" -v n="$ROWS" 'BEGIN { printf "threads %d: %.2f s, %.0f case-rows/s\n", t, b - a, n / (b - a) }'
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
