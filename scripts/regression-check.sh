#!/usr/bin/env bash
# The project's own regression check (run by .ci/run):
#   1. run every strategy on inputs/ci.csv, checking answers against expected_steps;
#   2. verify the results (path replay, agreement, sane counters);
#   3. compare with the committed baseline on correctness and work (latency printed, not gated).
# Exit non-zero on any failure. To accept an intended change of work: scripts/refresh-baseline.sh
#
# REGRESSION_PROFILE=dev (what .ci/run sets) runs the binary `cargo test` has just built
# (target/debug/tilebench) instead of building a release one: the gated figures (answers,
# counters) are the same in every build; the latency lines are then those of a build with
# debug assertions, not comparable with the baseline's, and say so. (`cargo run --profile
# dev` would build everything again: the tests' dev-dependencies change the features of
# shared dependencies, so a plain build cannot reuse their artifacts. That was 70-80 s of
# CI's 10 minutes.) TILEBENCH_BIN=PATH runs that binary instead.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${REGRESSION_PROFILE:-release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=${TILEBENCH_BIN:-}
if [ -z "$bin" ] && [ "$profile" = dev ] && [ -x target/debug/tilebench ]; then
  bin=target/debug/tilebench
fi
if [ -n "$bin" ]; then
  tb() { "$bin" "$@"; }
else
  tb() { cargo run --profile "$profile" -q -- "$@"; }
fi
tb run inputs/ci.csv --paths --check -q --out "$out/run"
tb verify "$out/run"
if [ "$profile" != release ]; then
  echo "regression-check: a $profile build${bin:+ ($bin)}; its latency lines below are not comparable with the baseline's (release) and are not gated"
fi
tb compare results/baselines/ci "$out/run" --show 10
