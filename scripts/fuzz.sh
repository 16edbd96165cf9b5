#!/usr/bin/env bash
# Runs every Fuzz* target in the module for $FUZZTIME each (go test -fuzz
# takes one target per run). Seeds live in each package's testdata/fuzz/.
# With TESTCOUNTS set (make test), each target's outcome is appended to
# that file as "fuzz pass|fail NAME" for testreport -summary.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while IFS=: read -r file name; do
	pkg=$(dirname "$file")
	echo "fuzz: $pkg $name ($fuzztime)"
	outcome=pass
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
		# A worker still busy with one slow input when the time is up makes
		# go test report "context deadline exceeded" without any failing
		# input (a known toolchain behaviour with short -fuzztime); only a
		# written failing input or another error is a finding.
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "fuzz: $name: stopped mid-input at the deadline (no failing input)"
		else
			cat "$log"
			status=1
			outcome=fail
		fi
	fi
	if [ -n "${TESTCOUNTS:-}" ]; then
		echo "fuzz $outcome $name" >>"$TESTCOUNTS"
	fi
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+' . | sed -E 's/:func /:/' | sort -u)
exit $status
