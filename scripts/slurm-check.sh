#!/usr/bin/env bash
# Checks docs/cluster.md's Slurm recipe on a real Slurm: starts a one-node cluster on this
# machine (munged, slurmctld and slurmd, with their configuration, state, logs and sockets in
# a temporary directory), submits the recipe's array job (one task per shard, `--resume`,
# each task its own results directory) on a small bundled dataset, requeues one task after
# killing its run part-way (as a preemption would), waits, merges the shards, and compares
# the merged cases.csv with an unsharded run of the same dataset: the same rows, answers and
# counters (`tilebench compare`, and every column but the timings compared cell by cell).
# Then it stops the cluster and removes the directory.
#
#   bash scripts/slurm-check.sh [--install] [--keep] [--shards N] [--data FILE]
#
# --install   apt-get install slurm-wlm munge first (nothing is installed otherwise)
# --keep      keep the temporary directory (logs, the runs) and print where it is
# --shards N  the array's size (default 4); --data FILE the dataset (default
#             inputs/per-depth.csv, 96 3x3 rows)
# TILEBENCH=path/to/tilebench picks the binary (default: target/debug/tilebench, built with
# `cargo build` when missing).
#
# Needs root (slurmd starts the tasks as the submitting user), munge and Slurm (Debian 12:
# slurm-wlm 22.05), python3, and the ports it picks free on 127.0.0.1. It is not part of
# `.ci/run` or `cargo test`: see docs/cluster.md#checking-the-recipe-scriptsslurm-checksh.
# Exit 0: the merged run equals the unsharded one; 1: it does not, or a task failed;
# 2: it could not run (Slurm absent, not root, a daemon did not start).
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$PWD
SHARDS=4
DATA=inputs/per-depth.csv
KEEP=0
INSTALL=0
while [ $# -gt 0 ]; do
    case "$1" in
        --install) INSTALL=1 ;;
        --keep) KEEP=1 ;;
        --shards) SHARDS=$2; shift ;;
        --data) DATA=$2; shift ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "slurm-check: unknown argument \`$1\` (see --help)" >&2; exit 2 ;;
    esac
    shift
done
APT="apt-get install -y slurm-wlm munge"
say() { echo "slurm-check: $*" >&2; }
skip() { say "$*"; exit 2; }

if [ "$INSTALL" = 1 ]; then
    say "installing: $APT"
    DEBIAN_FRONTEND=noninteractive $APT >&2
fi
missing=()
for c in munged mungekey slurmctld slurmd sbatch squeue scontrol python3; do
    command -v "$c" >/dev/null || missing+=("$c")
done
if [ ${#missing[@]} -gt 0 ]; then
    skip "not run: ${missing[*]} not found. On Debian/Ubuntu: sudo $APT (or rerun with --install)"
fi
[ "$(id -u)" = 0 ] || skip "not run: slurmd must run as root to start the tasks; run it as root (sudo bash $0)"
[ -f "$DATA" ] || skip "not run: no dataset $DATA"

BIN=${TILEBENCH:-$REPO/target/debug/tilebench}
if [ ! -x "$BIN" ]; then
    say "building tilebench (cargo build)"
    cargo build -q
fi
BIN=$(realpath "$BIN")
DATA=$(realpath "$DATA")

T=$(mktemp -d /tmp/tilebench-slurm.XXXXXX)
chmod 700 "$T"
cleanup() {
    local rc=$?
    set +e
    if [ -f "$T/slurm.conf" ] && [ -f "$T/slurmctld.pid" ]; then
        SLURM_CONF=$T/slurm.conf scontrol shutdown >/dev/null 2>&1
        for _ in $(seq 1 20); do
            pids=$(cat "$T/slurmctld.pid" "$T/slurmd.pid" 2>/dev/null)
            alive=0
            for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
            [ $alive = 0 ] && break
            sleep 0.5
        done
        for p in $(cat "$T/slurmctld.pid" "$T/slurmd.pid" 2>/dev/null); do
            kill -0 "$p" 2>/dev/null && { say "daemon $p did not stop: killing it"; kill "$p"; }
        done
    fi
    if [ -f "$T/munged.pid" ]; then
        kill "$(cat "$T/munged.pid")" 2>/dev/null
    fi
    if [ "$KEEP" = 1 ] || [ $rc != 0 ]; then
        say "kept $T (logs: $T/*.log, task output: $T/logs, runs: $T/results)"
    else
        rm -rf "$T"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two free ports on 127.0.0.1 for slurmctld and slurmd.
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# munge: a key of our own and a daemon on our own socket (the system's is left alone).
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/logs" "$T/results"
mungekey --create --keyfile="$T/munge/munge.key" 2>/dev/null \
    || dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --force --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
    --pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge/seed" \
    || skip "munged did not start: see $T/munged.log"

HOST=$(hostname -s)
# The node as slurmd sees this machine: its CPUs, sockets, cores, threads and memory.
NODE=$(slurmd -C | head -1 | sed "s/^NodeName=[^ ]*/NodeName=$HOST NodeAddr=127.0.0.1/")
cat >"$T/slurm.conf" <<EOF
ClusterName=tilebench-check
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
# cred_expire is also how long a requeued job waits before it may start again (default 120 s).
AuthInfo=socket=$T/munge/munge.socket,cred_expire=10
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=600
$NODE State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf

say "starting slurmctld and slurmd (node: $NODE)"
slurmctld -i || skip "slurmctld did not start: see $T/slurmctld.log"
slurmd || skip "slurmd did not start: see $T/slurmd.log"
for i in $(seq 1 60); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    [ "$i" = 60 ] && skip "the node is not idle after 30 s (state: ${state:-none}): see $T/slurmctld.log, $T/slurmd.log"
    sleep 0.5
done
sinfo >&2

# The recipe's job script (docs/cluster.md), on the small dataset. Task 2's first attempt
# is killed part-way (TILEBENCH_CRASH_AT: a kill -9 after its first stored record) and
# requeued, as a preempted task would be; its second attempt resumes from the journal.
OUT=$T/results
cat >"$T/array.sh" <<EOF
#!/bin/bash
#SBATCH --job-name=tilebench-check --array=1-$SHARDS --cpus-per-task=1 --requeue
#SBATCH --output=$T/logs/task-%a.out --open-mode=append
set -euo pipefail
i=\$SLURM_ARRAY_TASK_ID
echo "task \$i of $SHARDS, attempt \$((\${SLURM_RESTART_COUNT:-0} + 1)) on \$(hostname -s)"
run() {
    "$BIN" run "$DATA" -s astar,idastar,bfs-hash --threads "\$SLURM_CPUS_PER_TASK" \\
        --shard "\$i/$SHARDS" --out "$OUT/shard-\$i" --resume --paths -q "\$@"
}
if [ "\$i" = 2 ] && [ "\${SLURM_RESTART_COUNT:-0}" = 0 ]; then
    TILEBENCH_CRASH_AT=stored:1 run || echo "task \$i: the run was killed (exit \$?): requeueing"
    scontrol requeue "\${SLURM_ARRAY_JOB_ID}_\$i"
    sleep 600
fi
run
echo "task \$i: done"
EOF
JOB=$(sbatch --parsable "$T/array.sh")
say "submitted array job $JOB ($SHARDS tasks)"

# Wait for every task to leave the queue (10 minutes at most).
for i in $(seq 1 600); do
    left=$(squeue -h -j "$JOB" -o %i 2>/dev/null | wc -l)
    [ "$left" = 0 ] && break
    [ "$i" = 600 ] && { say "tasks still queued after 10 minutes:"; squeue -j "$JOB" >&2; exit 1; }
    sleep 1
done
status=0
say "tasks:"
scontrol -o show job "$JOB" | tr ' ' '\n' \
    | grep -E '^(ArrayTaskId|JobState|ExitCode|Restarts)=' | paste - - - - >&2
if scontrol -o show job "$JOB" | grep -v 'JobState=COMPLETED' | grep -q .; then
    say "a task did not complete; its output is in $T/logs"
    status=1
fi
for f in "$T"/logs/task-*.out; do
    sed "s|^|  $(basename "$f" .out): |" "$f" >&2
done
sessions=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("sessions", 1))' \
    "$OUT/shard-2/run.json" 2>/dev/null || echo "none")
say "shard 2's run.json: sessions = $sessions (2: killed, requeued and resumed)"
[ "$sessions" = 2 ] || status=1
[ $status = 0 ] || exit 1

shard_dirs=()
for i in $(seq 1 "$SHARDS"); do shard_dirs+=("$OUT/shard-$i"); done
"$BIN" merge "${shard_dirs[@]}" --out "$OUT/merged"
say "the unsharded run of the same dataset"
"$BIN" run "$DATA" -s astar,idastar,bfs-hash --paths -q --out "$OUT/whole"
"$BIN" verify "$OUT/merged"

# Every column but the timings, cell by cell; then compare's own judgement.
python3 - "$OUT/whole/cases.csv" "$OUT/merged/cases.csv" <<'EOF'
import csv, sys
TIMING = {"latency_ns", "latency_min_ns", "peak_heap_bytes", "cpu_us", "max_rss_kb"}
def load(p):
    with open(p, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, c in enumerate(rows[0]) if c not in TIMING]
    return rows[0], [[r[i] for i in keep] for r in rows[1:]]
(h1, a), (h2, b) = load(sys.argv[1]), load(sys.argv[2])
if h1 != h2:
    sys.exit(f"slurm-check: the columns differ:\n  {h1}\n  {h2}")
bad = [(k, x, y) for k, (x, y) in enumerate(zip(a, b)) if x != y]
for k, x, y in bad[:5]:
    print(f"slurm-check: row {k + 1} differs:\n  unsharded {x}\n  merged    {y}", file=sys.stderr)
if bad or len(a) != len(b):
    sys.exit(f"slurm-check: {len(bad)} rows differ; {len(a)} rows unsharded, {len(b)} merged")
print(f"slurm-check: merged cases.csv = unsharded cases.csv: {len(a)} rows, "
      f"{len(h1) - len(TIMING & set(h1))} columns compared (all but the timings)", file=sys.stderr)
EOF
# compare exits 1 on a changed answer or a work counter that grew (--max-work-increase 0).
if ! "$BIN" compare "$OUT/whole" "$OUT/merged" >"$T/compare.txt" 2>&1; then
    cat "$T/compare.txt" >&2
    say "tilebench compare found the merged run differs from the unsharded one"
    exit 1
fi
sed -n '1,20p' "$T/compare.txt" >&2
say "ok: $SHARDS Slurm tasks (one killed, requeued and resumed), merged, equal the unsharded run"
