#!/usr/bin/env python3
"""Runs tilebench binaries in turn on one dataset and prints each one's medians.

    python3 scripts/alternate.py [--latency] ROUNDS BINARY... [DATASET]

Each round runs every binary once (`run DATASET -s table -q`, 2 threads, a fresh output
directory), so a change in the host's speed falls on all of them alike. Printed per binary:
the median and fastest wall time of the process and its CPU time (user + system). With
`--latency` before ROUNDS, each run is on one thread (`-j 1`) and what is printed is the sum
of `latency_ns` over the rows of its cases.csv: the strategy's own time, without the
harness's. ARGS (environment) replaces `-s table -q` by other run options. DATASET defaults
to a million rows made by `tilebench gen` (as scripts/bench.sh makes them), written once
into a temporary directory.
"""
import csv
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    args = sys.argv[1:]
    latency = args[:1] == ["--latency"]
    if latency:
        args = args[1:]
    if len(args) < 2 or not args[0].isdigit():
        sys.exit(__doc__)
    rounds, bins = int(args[0]), args[1:]
    tmp = tempfile.mkdtemp(prefix="tilebench-alternate-")
    data = bins.pop() if not os.access(bins[-1], os.X_OK) else None
    if data is None:
        data = os.path.join(tmp, "m1.csv")
        subprocess.run([bins[0], "gen", "--count", "1000000", "--seed", "11",
                        "--unsolvable", "0.1", "-o", data], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    options = os.environ.get("ARGS", "-s table -q").split()
    out = os.path.join(tmp, "out")
    results = {b: [] for b in bins}
    for _ in range(rounds):
        for b in bins:
            shutil.rmtree(out, ignore_errors=True)
            cmd = [b, "run", data, *options, "-o", out] + (["-j", "1"] if latency else [])
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if latency:
                with open(os.path.join(out, "cases.csv"), newline="") as f:
                    summed = sum(int(r["latency_ns"]) for r in csv.DictReader(f) if r["latency_ns"])
                results[b].append(summed / 1e6)
            else:
                results[b].append((wall, cpu))
    for b in bins:
        name = os.path.basename(b)
        if latency:
            ms = results[b]
            print(f"{name}: summed latency_ns {statistics.median(ms):.1f} ms median "
                  f"(min {min(ms):.1f}) over {rounds} runs")
        else:
            walls = [r[0] for r in results[b]]
            cpus = [r[1] for r in results[b]]
            print(f"{name}: wall {statistics.median(walls):.3f} s median (min {min(walls):.3f}), "
                  f"CPU {statistics.median(cpus):.3f} s median (min {min(cpus):.3f})")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
