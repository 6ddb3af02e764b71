#!/usr/bin/env bash
# A/A check of `compare`'s latency statistics: PAIRS pairs of run sets of one build on
# inputs/ci.csv (astar and idastar, one thread, --repeat 3), R replicate runs a side made
# interleaved in time, compared with --max-latency-increase GATE (default 5). Prints how many
# pairs were called a regression with R runs a side, and with the first run of each side only.
# A correct method calls none (docs/compare.md#latency-paired).
#
# Usage: [R=5] [PAIRS=20] [GATE=5] [B=path/to/tilebench] scripts/aa.sh
set -u
cd "$(dirname "$0")/.."
if [ -z "${B:-}" ]; then cargo build --release -q; B=target/release/tilebench; fi
R=${R:-5}; PAIRS=${PAIRS:-20}; D=$(mktemp -d); trap 'rm -rf "$D"' EXIT; reg=0; regs=""; sreg=0
for i in $(seq 1 $PAIRS); do
  for r in $(seq 1 $R); do
    $B run inputs/ci.csv -s astar,idastar --threads 1 --repeat 3 -q --out $D/$i/a/$r >/dev/null 2>&1
    $B run inputs/ci.csv -s astar,idastar --threads 1 --repeat 3 -q --out $D/$i/b/$r >/dev/null 2>&1
  done
  $B compare $D/$i/a $D/$i/b --max-latency-increase ${GATE:-5} > $D/c$i.txt 2>&1; rc=$?
  [ $rc -ne 0 ] && { reg=$((reg+1)); regs="$regs $i"; }
  # the same pair with one run a side (the first of each set)
  $B compare $D/$i/a/1 $D/$i/b/1 --max-latency-increase ${GATE:-5} > $D/s$i.txt 2>&1 || sreg=$((sreg + 1))
done
echo "A/A with $R runs a side: $reg of $PAIRS pairs called a regression${regs:+ (pairs$regs)}"
echo "A/A with one run a side:  $sreg of $PAIRS pairs called a regression"
echo "# the first pairs' figures, $R runs a side:"
grep -h "latency per case" "$D"/c1.txt "$D"/c2.txt
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
