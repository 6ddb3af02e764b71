#!/usr/bin/env bash
# Refreshes the committed regression baseline (results/baselines/ci) from inputs/ci.csv.
#
# Run it when a change is *meant* to alter the work strategies do (expanded, generated…),
# then commit results/baselines/ci with a message that explains every changed counter.
# `git diff --stat results/baselines/ci` and `tilebench compare` against the old baseline
# show what moved.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(mktemp -d)
[ -d results/baselines/ci ] && cp -r results/baselines/ci "$old/ci"
cargo run --release -q -- run inputs/ci.csv --paths --check -q --out results/baselines/ci --force
cargo run --release -q -- verify results/baselines/ci
if [ -d "$old/ci" ]; then
  echo "--- what changed against the previous baseline:"
  cargo run --release -q -- compare "$old/ci" results/baselines/ci || true
fi
rm -rf "$old"
