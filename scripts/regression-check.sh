#!/usr/bin/env bash
# The project's own regression check (run by .ci/run):
#   1. run every strategy on inputs/ci.csv, checking answers against expected_steps;
#   2. verify the results (path replay, agreement, sane counters);
#   3. compare with the committed baseline on correctness and work (latency printed, not gated).
# Exit non-zero on any failure. To accept an intended change of work: scripts/refresh-baseline.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --release -q -- run inputs/ci.csv --paths --check -q --out "$out/run"
cargo run --release -q -- verify "$out/run"
cargo run --release -q -- compare results/baselines/ci "$out/run" --show 10
