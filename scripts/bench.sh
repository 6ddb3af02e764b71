#!/usr/bin/env bash
# End-to-end speed of tilebench, measured side by side in one run.
#
#   1. `tilebench run` on a 10,000-pair 3x3 dataset for each strategy at 1 and 2 threads:
#      cases/s and the 2-thread speed-up (the BFS variants, which take milliseconds a case,
#      on the first BFS_PAIRS pairs; default 1,000);
#   2. per-case latency beside the pathfinding crate and the first seed article's three BFS
#      programs (std::set, hash buckets, Cantor rank: scripts/c/article_bfs.cpp, built here
#      with g++ -O2) (examples/peers.rs): median, p99, ratios;
#   3. harness overhead: `tilebench run -s table` on 1,000,000 pairs, case-rows per second;
#   4. 15-puzzle: IDA* with Manhattan beside a plain C IDA* (scripts/c/ida_manhattan.c, built
#      here with gcc -O3 -march=native), same instances, same node counts, alternating runs;
#   5. Korf's 100 with idastar, one row per heuristic and pattern-database lookup mode: nodes
#      per instance, wall time for all 100 from process start to exit, build and load time of
#      the tables (5-5-5 and 6-6-3 built into a fresh directory; 7-8 when its tables are cached:
#      `tilebench pdb build --size 4x4 --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"` builds
#      them, about a minute); with BASELINE=path/to/an/older/tilebench, that binary's default
#      7-8 run beside them. `manhattan` (2.5 minutes) only with --full;
#   6. weighted A* and greedy on Korf's 100: quality (steps ÷ optimum) against time, by weight.
#   7. the 3x4 census (`space --size 3x4`) against OEIS A090166: its time, and exit 1 if it differs.
#   Not by default: --korf24, the 24-puzzle's easy tier (inputs/korf50-24-easy.csv) with
#   Korf and Felner's 6-6-6-6 tables (built first if not cached, about 1.5 minutes and 2.1 GB):
#   one instance a run on one thread under --check, with lookup=reflected and max, its length,
#   generated nodes and time beside Korf and Felner's nodes and a public single-thread C run's
#   time; exit 1 if a run fails --check or lookup=reflected generates more nodes than Korf
#   and Felner's.
#
# The peers are oracles too: the script exits 1 (after running every part) when the
# pathfinding crate's or the seed article's programs' lengths differ from tilebench's (examples/peers.rs), when the C IDA*'s
# length or node count differs from tilebench's on any instance, when a pattern-database
# run fails --check, or when the 3x4 census differs from OEIS A090166.
#
# Usage: scripts/bench.sh [--quick]   (--quick: 2,000 pairs, 200 BFS pairs, 200,000 rows)
# Only the 15-puzzle parts: scripts/bench.sh --korf [--full | --pdb (only the tables' rows)];
# only part 6: scripts/bench.sh --weights; the 24-puzzle's easy tier: scripts/bench.sh --korf24. Pattern-database rows: the fastest of 3 runs.
# The scale benchmark (10,000,000 rows; SCALE_ROWS=N for another size), not run by default:
# scripts/bench.sh --scale. Against an older binary, end to end in alternating rounds (Korf's
# 100 with the 7-8 tables, 1M rows of -s table with one goal and over 2,000 goals made by
# scripts/many_goals.py): scripts/bench.sh --against OLD [ROUNDS=N].
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=10000 BFS_PAIRS=${BFS_PAIRS:-1000} ROWS=1000000 PEER_CASES=2000 PEER_BFS=300
if [ "${1:-}" = "--quick" ]; then PAIRS=2000 BFS_PAIRS=200 ROWS=200000 PEER_CASES=500 PEER_BFS=50; fi
cargo build --release -q --example peers
T=target/release/tilebench
# Where tilebench caches pattern databases (its own default, or TILEBENCH_PDB_DIR).
PDB_CACHE=${TILEBENCH_PDB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tilebench/pdb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=()
fail() { echo "DISAGREEMENT: $*"; failures+=("$*"); }
# Exits 1 listing the disagreements, if any.
verdict() {
  if [ ${#failures[@]} -gt 0 ]; then
    echo
    echo "# ${#failures[@]} disagreement(s) with the oracles:"
    printf '#   %s\n' "${failures[@]}"
    exit 1
  fi
  echo "# oracles agree: pathfinding lengths, C IDA* lengths and node counts, pdb --check"
}
echo "# tilebench scripts/bench.sh — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# The instances on which the C IDA*'s output (id,steps,generated,seconds) and tilebench's
# cases.csv differ in length or generated nodes, one line each (also an instance missing
# from either side).
c_disagreements() {
  awk -F, 'FNR == NR {c[$1] = $2 " " $3; next}
           FNR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
           {t = $col["steps"] " " $col["generated"]; id = $col["id"]; seen[id] = 1
            if (!(id in c)) print "instance " id ": no C answer"
            else if (c[id] != t) print "instance " id ": C steps, generated " c[id] "; tilebench " t}
           END {for (id in c) if (!(id in seen)) print "instance " id ": no tilebench row"}' "$1" "$2"
}

korf() {
  echo
  echo "## 15-puzzle: IDA* + Manhattan beside a plain C IDA*, one thread, Korf instances ${KORF_IDS:=2 5 13 16 20 23}"
  gcc -O3 -march=native -o "$tmp/ida" scripts/c/ida_manhattan.c
  { grep '^id,' inputs/korf100.csv
    for i in $KORF_IDS; do grep "^$i," inputs/korf100.csv; done; } > "$tmp/korf.csv"
  printf '%-6s %14s %14s %14s %8s\n' round nodes "C M nodes/s" "tilebench" ratio
  for round in 1 2 3; do
    "$tmp/ida" < "$tmp/korf.csv" 2>/dev/null > "$tmp/c-$round.csv"
    c=$(awk -F, '{n += $3; s += $4} END {printf "%d %.1f", n, n / s / 1e6}' "$tmp/c-$round.csv")
    # prune=parent: the C program, as Korf's, leaves out only the move straight back.
    $T run "$tmp/korf.csv" -s idastar:prune=parent --threads 1 -q --out "$tmp/korf-$round" >/dev/null 2>&1 ||
      fail "round $round: tilebench run on the Korf instances failed"
    t=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
                 {n += $col["generated"]; s += $col["latency_ns"]} END {printf "%d %.1f", n, n / s * 1e3}' \
        "$tmp/korf-$round/cases.csv")
    echo "$round $c $t" | awk '{ printf "%-6s %14d %14.1f %14.1f %7.2fx\n", $1, $2, $3, $5, $5 / $3 }'
    # Instance by instance: the same length and the same number of generated nodes.
    while IFS= read -r d; do fail "round $round: $d"; done < <(c_disagreements "$tmp/c-$round.csv" "$tmp/korf-$round/cases.csv")
  done

  echo
  echo "## Korf's 100 with idastar, 2 threads, --check: by heuristic and lookup mode"
  echo "# nodes = generated per instance (Korf's count less the root); all 100 = wall time of the"
  echo "# whole run, process start to exit, tables loaded included; build and load: the tables'"
  printf '%-20s %-10s %14s %12s %10s %9s\n' heuristic lookup "nodes/inst" "all 100 (s)" "build (s)" "load (s)"
  # row REPS LABEL LOOKUP BUILD LOAD BINARY ARGS...: all 100, checked, REPS times; the
  # fastest wall time is shown (the counts are the same every time). S=STRATEGY (default
  # idastar) runs another strategy.
  row() {
    local reps=$1 label=$2 lookup=$3 build=$4 load=$5 bin=$6; shift 6
    local start end best=
    for _ in $(seq "$reps"); do
      start=$(date +%s.%N)
      "$bin" run inputs/korf100.csv -s "${S:-idastar}" --check -q --out "$tmp/k" --force "$@" >/dev/null 2>&1 \
        || fail "Korf's 100, $label $lookup: --check failed"
      end=$(date +%s.%N)
      best=$(awk -v a="$start" -v b="$end" -v m="$best" 'BEGIN { t = b - a; if (m != "" && m < t) t = m; print t }')
    done
    awk -F, -v l="$label" -v m="$lookup" -v t="$best" -v bu="$build" -v lo="$load" \
      'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
       {n += $col["generated"]; ok += ($col["matches_expected"] == "true")}
       END { if (ok != 100) m = m " (" ok "/100 optimal)"
             printf "%-20s %-10s %14.0f %12.2f %10s %9s\n", l, m, n / 100, t, bu, lo }' "$tmp/k/cases.csv"
  }
  elapsed() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
              awk -v a="$s" -v b="$e" 'BEGIN { printf "%.2f", b - a }'; }
  heuristics="linear-conflict walking-distance walking-distance-lc"
  if [ "${FULL:-}" = 1 ]; then heuristics="manhattan $heuristics"; fi
  [ "${PDB_ONLY:-}" = 1 ] && heuristics=
  for h in $heuristics; do row 1 "$h" - - - "$T" --heuristic $h; done
  goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
  for p in 5-5-5 6-6-3 7-8; do
    if [ $p = 7-8 ]; then
      dir=$PDB_CACHE
      if ! ls "$dir"/4x4-blank0-tiles15_14_13_12_11_10_9_8.pdb >/dev/null 2>&1; then
        echo "pdb 7-8: tables not cached, skipped (tilebench pdb build --size 4x4 --goal \"$goal\" builds them)"
        continue
      fi
      build=cached
    else
      dir="$tmp/pdb-$p"
      build=$(elapsed $T pdb build --size 4x4 --goal "$goal" --pdb-partition $p --pdb-dir "$dir")
    fi
    load=$(elapsed $T pdb build --size 4x4 --goal "$goal" --pdb-partition $p --pdb-dir "$dir")
    for m in regular reflected dual max walked; do
      row 3 "pdb $p" $m "$build" "$load" "$T" --heuristic pdb --pdb-partition $p --pdb-dir "$dir" --pdb-lookup $m
    done
    if [ $p = 7-8 ]; then
      # The papers' counting (Felner et al.): only the moves straight back left out.
      for m in regular reflected max; do
        S=idastar:prune=parent row 3 "pdb 7-8, parent" $m "$build" "$load" "$T" --heuristic pdb --pdb-dir "$dir" --pdb-lookup $m
      done
      S=dida row 3 "pdb 7-8, dida" max "$build" "$load" "$T" --heuristic pdb --pdb-dir "$dir" --pdb-lookup max
      # The fewest nodes (issue 16's target: at most 15,000 an instance).
      for m in max walked; do
        S=idastar-tt row 3 "pdb 7-8, idastar-tt" $m "$build" "$load" "$T" --heuristic pdb --pdb-dir "$dir" --pdb-lookup $m
      done
    fi
    if [ $p = 7-8 ] && [ -n "${BASELINE:-}" ]; then
      row 3 "pdb 7-8, baseline" default "$build" - "$BASELINE" --heuristic pdb --pdb-dir "$dir"
    fi
  done
}

# Weighted A* (by weight) and greedy on Korf's 100 with the 7-8 tables if cached, else 6-6-3:
# mean steps ÷ optimum, nodes and time per instance (2 threads).
weights() {
  echo
  local p=6-6-3 dir="$tmp/pdb-w"
  if ls "$PDB_CACHE"/4x4-blank0-tiles15_14_13_12_11_10_9_8.pdb >/dev/null 2>&1; then
    p=7-8 dir=$PDB_CACHE
  fi
  echo "## Korf's 100: quality against time, --heuristic pdb ($p), 2 threads"
  printf '%-10s %7s %12s %13s %12s %12s\n' strategy weight "steps÷opt" "non-optimal" "nodes/inst" "ms/inst"
  for s in "astar 1" "wastar 1.25" "wastar 1.5" "wastar 2" "wastar 3" "wastar 5" "greedy -"; do
    set -- $s
    $T run inputs/korf100.csv -s "$1" --weight "${2/-/1}" --heuristic pdb --pdb-partition $p \
       --pdb-dir "$dir" -q --out "$tmp/w" --force >/dev/null 2>&1 || fail "Korf's 100, $1 $2: the run failed"
    awk -F, -v s="$1" -v w="$2" 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
      { q = $col["suboptimality_mean"]; if (q == "") q = "1 (optimal)"
        printf "%-10s %7s %12s %13s %12.0f %12.2f\n", s, w, q, $col["non_optimal"], $col["generated_mean"], $col["latency_mean_us"] / 1000 }' \
      "$tmp/w/summary.csv"
  done
}
# Runs of any size in bounded memory (issue 19): SCALE_ROWS generated pairs (default
# 10,000,000) through `run -s table,astar` (twice), `run --shard I/4` and `merge` of the four
# shards, `compare` of the two runs and `verify`: peak RSS (GNU time's %M) and wall time of
# each, and exit 1 if the merged cases.csv differs from the single run's (timing aside). Only
# with --scale: at 10M rows it takes tens of minutes and about 15 GB of disk under $TMPDIR.
scale() {
  local n=${SCALE_ROWS:-10000000} s="$tmp/scale"
  mkdir -p "$s"
  $T gen --count "$n" --seed 19 -o "$s/rows.csv" 2>/dev/null
  echo
  echo "## Scale: $n pairs, -s table,astar, 2 threads: peak RSS and wall time of each command"
  printf "%-26s %12s %10s\n" command "peak RSS MB" "wall s"
  # measure LABEL OK_CODES CMD…: OK_CODES are the exit codes that are not failures.
  measure() {
    local label=$1 ok=$2 rc=0; shift 2
    /usr/bin/time -f "%M %e" -o "$s/time" "$@" >/dev/null 2>"$s/err" || rc=$?
    case " $ok " in *" $rc "*) ;; *) fail "scale: $label exited $rc: $(tail -n 1 "$s/err")"; return ;; esac
    read -r kb secs < "$s/time"
    printf "%-26s %12d %10.1f\n" "$label" $((kb / 1024)) "$secs"
  }
  local run=($T run "$s/rows.csv" -s table,astar --threads 2 -q)
  measure "run" 0 "${run[@]}" --out "$s/a"
  measure "run (again)" 0 "${run[@]}" --out "$s/b"
  for i in 1 2 3 4; do measure "run --shard $i/4" 0 "${run[@]}" --shard $i/4 --out "$s/s$i"; done
  measure "merge of 4 shards" 0 $T merge -q --out "$s/m" "$s/s1" "$s/s2" "$s/s3" "$s/s4"
  rm -rf "$s/s1" "$s/s2" "$s/s3" "$s/s4"
  # Everything but the latency columns (16, 17) is equal to the single run's.
  cmp -s <(cut -d, -f1-15,18- "$s/a/cases.csv") <(cut -d, -f1-15,18- "$s/m/cases.csv") \
    || fail "scale: the merged cases.csv differs from the single run's beyond the latencies"
  rm -rf "$s/m"
  measure "compare of two runs" "0 1" $T compare "$s/a" "$s/b"
  measure "verify" 0 $T verify --no-paths "$s/a"
}
# Side by side with an older binary, end to end (process start to exit), ROUNDS rounds (default
# 10), each round running the older binary and then this one: Korf's 100 with the default
# pattern-database run (when the 7-8 tables are cached) and 1,000,000 rows of `-s table`, with
# one goal and over 2,000 goals (scripts/many_goals.py).
# Prints each binary's median and range and the ratio of the medians (this ÷ older).
against() {
  local old=$1 rounds=${ROUNDS:-10}
  [ -x "$old" ] || { echo "--against: $old is not an executable tilebench"; exit 2; }
  $T gen --count 1000000 --seed 11 --unsolvable 0.1 -o "$tmp/m1.csv"
  side_by_side() { # label, then the run's arguments (the output directory is added)
    local label=$1; shift
    local a="" b="" s e
    for _ in $(seq "$rounds"); do
      for bin in "$old" "$T"; do
        rm -rf "$tmp/ab"
        s=$(date +%s.%N); "$bin" run "$@" -q --out "$tmp/ab" >/dev/null 2>&1 \
          || fail "$label: $bin failed"; e=$(date +%s.%N)
        t=$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }')
        if [ "$bin" = "$old" ]; then a="$a $t"; else b="$b $t"; fi
      done
    done
    med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END {
      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%.3f s (%.3f-%.3f)", m, v[1], v[NR] }'; }
    ma=$(echo $a | med); mb=$(echo $b | med)
    echo "$label: older $ma, this $mb; ratio of medians $(awk -v x="${mb%% *}" -v y="${ma%% *}" 'BEGIN { printf "%.2f", x / y }')"
  }
  local dir=$PDB_CACHE
  if ls "$dir"/4x4-blank0-tiles15_14_13_12_11_10_9_8.pdb >/dev/null 2>&1; then
    side_by_side "Korf's 100, idastar --heuristic pdb --check" inputs/korf100.csv -s idastar --heuristic pdb --check
  else
    echo "Korf's 100: the 7-8 tables are not cached, skipped"
  fi
  side_by_side "1,000,000 rows, -s table" "$tmp/m1.csv" -s table
  # The same over 2,000 distinct goals, rows shuffled (issue 43: per-goal work).
  python3 scripts/many_goals.py "$T" 1000000 2000 11 "$tmp/g2000.csv"
  side_by_side "1,000,000 rows over 2,000 goals, -s table" "$tmp/g2000.csv" -s table
}
if [ "${1:-}" = "--against" ]; then
  cargo build --release -q --bin tilebench
  echo "## side by side with ${2:?--against needs the older binary}, $(cut -d' ' -f1-3 /proc/loadavg) load"
  against "$2"
  if [ ${#failures[@]} -gt 0 ]; then printf '# failed: %s\n' "${failures[@]}"; exit 1; fi
  echo "# every run succeeded (Korf's with --check: all 100 verified)"; exit 0
fi
# The 24-puzzle's easy tier: Korf's instances of inputs/korf50-24-easy.csv, one a run, one
# thread, idastar with the 6-6-6-6 tables (max of the regular and reflected sums), --check.
# Time: the case's latency (cases.csv latency_ns) and the process's user CPU time; published:
# korf_felner_nodes (Korf and Felner 2002, table 3) and a public single-thread C run with
# Korf's tables (issue 42's figures).
korf24() {
  local goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"
  local dir=${KORF24_PDB_DIR:-$PDB_CACHE}
  echo
  echo "## 24-puzzle, easy tier: idastar + 6-6-6-6 pattern databases, one thread;"
  echo "## lookup=reflected (Korf and Felner's heuristic) and max (the default: with the corner duals and BPMX); both leave out duplicate move sequences (search/fsm.rs)"
  /usr/bin/time -f "%e %M" -o "$tmp/build-time" \
    $T pdb build --goal "$goal" --pdb-dir "$dir" 2> "$tmp/build-log" ||
    { fail "24-puzzle: pdb build failed: $(tail -n 1 "$tmp/build-log")"; return; }
  awk '{ printf "tables: %.1f s, peak RSS %.2f GB (built, or loaded when cached)\n", $1, $2 / 1048576 }' "$tmp/build-time"
  grep -E '^pdb: (built|5x5)' "$tmp/build-log" || true
  declare -A published=([38]=14.2 [40]=5.3 [25]=23.6 [44]=19.3 [1]=65)
  printf '%-8s %-9s %7s %15s %10s %9s %15s %10s\n' instance lookup length nodes "time s" "cpu s" "K&F nodes" "pub. s"
  local ids id row lookup
  ids=$(awk -F, 'NR > 1 { print $1 }' inputs/korf50-24-easy.csv)
  for id in $ids; do
    { head -n 1 inputs/korf50-24-easy.csv; grep "^$id," inputs/korf50-24-easy.csv; } > "$tmp/k24.csv"
    for lookup in reflected max; do
      if ! /usr/bin/time -f "%U" -o "$tmp/k24-cpu" $T run "$tmp/k24.csv" -s "idastar:heuristic=pdb:lookup=$lookup" \
          --threads 1 --pdb-dir "$dir" --check -q --out "$tmp/k24-$id-$lookup" >/dev/null 2>"$tmp/k24-err"; then
        fail "24-puzzle #$id ($lookup): the run failed --check: $(tail -n 1 "$tmp/k24-err")"; continue
      fi
      row=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
                     {print $col["steps"], $col["generated"], $col["latency_ns"] / 1e9}' "$tmp/k24-$id-$lookup/cases.csv")
      set -- $row
      local kf
      kf=$(awk -F, -v id="$id" '$1 == id { print $5 }' inputs/korf50-24-easy.csv)
      printf '%-8s %-9s %7s %15s %10.1f %9.1f %15s %10s\n' "#$id" "$lookup" "$1" "$2" "$3" "$(cat "$tmp/k24-cpu")" "$kf" "${published[$id]:-—}"
      # Korf and Felner's heuristic in their move order, leaving out only the moves straight
      # back, generates their counts exactly (tilebench::search::wide_pdb::ida with
      # Prune::Parent); the duplicate sequences the machine leaves out make fewer. The duals
      # change the search (BPMX, children by estimate), so theirs are only reported.
      [ "$lookup" != reflected ] || [ "$2" -le "$kf" ] ||
        fail "24-puzzle #$id: $2 nodes generated with lookup=$lookup, more than Korf and Felner's $kf"
    done
  done
}

if [ "${1:-}" = "--scale" ]; then scale; verdict; exit 0; fi
if [ "${1:-}" = "--korf24" ]; then korf24; verdict; exit 0; fi
if [ "${1:-}" = "--korf" ]; then
  [ "${2:-}" = "--full" ] && FULL=1
  [ "${2:-}" = "--pdb" ] && PDB_ONLY=1
  korf; weights; verdict; exit 0
fi
if [ "${1:-}" = "--weights" ]; then weights; verdict; exit 0; fi
$T gen --count "$PAIRS" --seed 5 -o "$tmp/pairs.csv"
awk -v n="$BFS_PAIRS" 'NR <= 3 + n' "$tmp/pairs.csv" > "$tmp/bfs-pairs.csv"

echo
echo "## tilebench run, cases/s (solve phase of each strategy, from summary.csv)"
printf '%-12s %8s %14s %14s %9s\n' strategy pairs "1 thread" "2 threads" speed-up
for s in table idastar astar bibfs bfs-rank bfs-hash bfs-hashset bfs-set; do
  data="$tmp/pairs.csv"; n=$PAIRS
  case $s in bfs-*) data="$tmp/bfs-pairs.csv"; n=$BFS_PAIRS ;; esac
  rate() { $T run "$data" -s "$s" --threads "$1" -q --out "$tmp/r-$s-$1" >/dev/null 2>&1
           awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next} NR == 2 {print $col["cases_per_s"]}' "$tmp/r-$s-$1/summary.csv"; }
  r1=$(rate 1); r2=$(rate 2)
  awk -v s="$s" -v n="$n" -v a="$r1" -v b="$r2" 'BEGIN { printf "%-12s %8d %14.0f %14.0f %8.2fx\n", s, n, a, b, b / a }'
done

echo
echo "## per-case latency beside the pathfinding crate and the first seed article's BFS programs (one thread, side by side)"
g++ -O2 -o "$tmp/article_bfs" scripts/c/article_bfs.cpp
TILEBENCH_ARTICLE_PEER="$tmp/article_bfs" target/release/examples/peers "$PEER_CASES" "$PEER_BFS" 7 ||
  fail "examples/peers: a peer (the pathfinding crate or an article program) and tilebench disagree, or a peer failed (its message above names the case)"

echo
echo "## harness overhead: $ROWS pairs with -s table, end to end (read, solve, write)"
$T gen --count "$ROWS" --seed 11 --unsolvable 0.1 -o "$tmp/rows.csv"
for t in 1 2; do
  start=$(date +%s.%N)
  $T run "$tmp/rows.csv" -s table --threads $t -q --out "$tmp/rows-$t" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v t=$t -v a="$start" -v b="$end" -v n="$ROWS" 'BEGIN { printf "threads %d: %.2f s, %.0f case-rows/s\n", t, b - a, n / (b - a) }'
done
korf
weights

echo
echo "## census of the 3x4 board (239,500,800 states) against OEIS A090166"
# A090166: the 4 X 3 puzzle, blank in a corner (Karlemo and Östergård); 3x4 is its transpose.
a090166="1 2 4 9 20 37 63 122 232 431 781 1392 2494 4442 7854 13899 24215 41802 71167 119888
198363 323206 515778 811000 1248011 1885279 2782396 4009722 5621354 7647872 10065800 12760413
15570786 18171606 20299876 21587248 21841159 20906905 18899357 16058335 12772603 9515217 6583181
4242753 2503873 1350268 643245 270303 92311 27116 5390 1115 86 18"
start=$(date +%s.%N)
got=$($T space --size 3x4 --farthest 0 2>/dev/null | awk -F, 'NR > 1 { printf "%s ", $2 }')
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "space --size 3x4: %.1f s\n", b - a }'
[ "$(echo $got)" = "$(echo $a090166)" ] && echo "census equals A090166" ||
  fail "space --size 3x4: the census differs from OEIS A090166: $got"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
verdict
