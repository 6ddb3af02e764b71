#!/usr/bin/env bash
# The project's own regression check (run by .ci/run):
#   1. run every strategy on inputs/ci.csv, checking answers against expected_steps;
#   2. verify the results (path replay, agreement, sane counters);
#   3. compare with the committed baseline on correctness and work (latency printed, not gated).
# Exit non-zero on any failure. To accept an intended change of work: scripts/refresh-baseline.sh
#
# REGRESSION_PROFILE=dev (what .ci/run sets) runs the binary `cargo test` has just built
# instead of building a release one: the gated figures (answers, counters) are the same in
# every build; the latency lines are then those of a build with debug assertions, not
# comparable with the baseline's, and say so.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${REGRESSION_PROFILE:-release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tb() { cargo run --profile "$profile" -q -- "$@"; }
tb run inputs/ci.csv --paths --check -q --out "$out/run"
tb verify "$out/run"
if [ "$profile" != release ]; then
  echo "regression-check: a $profile build; its latency lines below are not comparable with the baseline's (release) and are not gated"
fi
tb compare results/baselines/ci "$out/run" --show 10
