#!/usr/bin/env bash
# Runs every Fuzz* target in the module for $FUZZTIME each (go test -fuzz
# takes one target per run). Seeds live in each package's testdata/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
status=0
while IFS=: read -r file name; do
	pkg=./$(dirname "$file")
	echo "fuzz: $pkg $name ($fuzztime)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/sanitrace-fuzz.$$ 2>&1; then
		cat /tmp/sanitrace-fuzz.$$
		status=1
	fi
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+' . | sed -E 's/:func /:/' | sort -u)
rm -f /tmp/sanitrace-fuzz.$$
exit $status
