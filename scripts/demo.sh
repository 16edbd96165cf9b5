#!/usr/bin/env bash
# The demo: decode a real, unsymbolized AddressSanitizer report with its
# binary, first as colored text with source context, then as JSON.
# Usage: scripts/demo.sh path/to/sanitrace
#
# testdata/demo/session.log was printed with ASAN_OPTIONS=symbolize=0 by
# testdata/demo/session, built and run as /build/demo/session (see
# testdata/demo/Makefile); --prefix-map points /build/demo at the copy here.
set -euo pipefail
bin=${1:?usage: $0 path/to/sanitrace}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
cd "$(dirname "$0")/.."
demo=$PWD/testdata/demo

# decode exits 1 when it found a report (so CI can gate on it): expected here.
decode() {
	local status=0
	"$bin" decode --prefix-map "/build/demo=$demo" "$@" testdata/demo/session.log || status=$?
	if [ "$status" -ne 1 ]; then
		echo "demo: sanitrace decode exited $status, want 1 (one report found)" >&2
		exit 1
	fi
}

echo "== the report as the runtime printed it (symbolize=0) =="
cat "$demo/session.log"
echo
echo "== sanitrace decode --color=always --source-context 2 =="
decode --color=always --source-context 2
echo
echo "== sanitrace decode --format json =="
decode --format json
