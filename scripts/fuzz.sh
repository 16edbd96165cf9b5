#!/usr/bin/env bash
# Runs every Fuzz* target in the module for $FUZZTIME each (go test -fuzz
# takes one target per run). Seeds live in each package's testdata/fuzz/.
# $FUZZJOBS targets run at once (default: the number of CPUs), each with
# one fuzzing worker: the time is wall-clock, so on two cores two targets
# side by side get the CPU one target with two workers would, in half the
# wall time. With TESTCOUNTS set (make test), each target's outcome is
# appended to that file as "fuzz pass|fail NAME" for testreport -summary.
# $FUZZMINIMIZE is go test's -fuzzminimizetime (default 10x): go's default
# of 60 s spends a short run minimizing the first new inputs instead of
# fuzzing (FuzzUnits ran 7 inputs in 3 s, 34,000 with 10x). A failing input
# is written either way; FUZZMINIMIZE=60s minimizes it as go would.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
minimize=${FUZZMINIMIZE:-10x}
jobs=${FUZZJOBS:-$(nproc 2>/dev/null || echo 2)}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# one PKG NAME KEY: fuzz one target; its log and outcome go to $logs/KEY.*.
one() {
	local pkg=$1 name=$2 key=$3 log=$logs/$3.log outcome=pass
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" -parallel 1 "$pkg" >"$log" 2>&1; then
		# A worker still busy with one slow input when the time is up makes
		# go test report "context deadline exceeded" without any failing
		# input (a known toolchain behaviour with short -fuzztime); only a
		# written failing input or another error is a finding.
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "fuzz: $name: stopped mid-input at the deadline (no failing input)" >"$log.note"
		else
			outcome=fail
		fi
	fi
	echo "$outcome" >"$logs/$key.outcome"
}

targets=$(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+' . | sed -E 's/:func /:/' | sort -u)
running=0
while IFS=: read -r file name; do
	pkg=$(dirname "$file")
	echo "fuzz: $pkg $name ($fuzztime)"
	one "$pkg" "$name" "$(echo "$pkg" | tr / _).$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done <<<"$targets"
wait || true

status=0
while IFS=: read -r file name; do
	key=$(dirname "$file" | tr / _).$name
	outcome=$(cat "$logs/$key.outcome" 2>/dev/null || echo fail)
	if [ -f "$logs/$key.log.note" ]; then cat "$logs/$key.log.note"; fi
	if [ "$outcome" = fail ]; then
		echo "fuzz: $name FAILED:"
		cat "$logs/$key.log"
		status=1
	fi
	if [ -n "${TESTCOUNTS:-}" ]; then
		echo "fuzz $outcome $name" >>"$TESTCOUNTS"
	fi
done <<<"$targets"
exit $status
