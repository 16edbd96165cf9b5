#!/usr/bin/env bash
# Runs sanitrace's benchmark (bench/README.md) and prints one Markdown
# report, also saved as $OUT/report.md:
#
#   bench/run.sh [PART...]      PARTS: symbolize decode batch modules (default: all)
#
#   SANITRACE            the sanitrace binary (default bin/sanitrace: `make build`)
#   SANITRACE_BENCH_DIR  cache dir (default ~/.cache/sanitrace-bench-own)
#   OUT                  results dir (default $SANITRACE_BENCH_DIR/results/<UTC time>)
#   SKIP_BUILD=1         do not run bench/build.sh first
#   SYMBOLIZE_FLAGS, DECODE_FLAGS, BATCH_FLAGS, MODULES_FLAGS
#                        extra flags for that part (benchrun PART -h lists them)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/.."
CACHE=${SANITRACE_BENCH_DIR:-$HOME/.cache/sanitrace-bench-own}
SANITRACE=$(realpath "${SANITRACE:-bin/sanitrace}")
OUT=${OUT:-$CACHE/results/$(date -u +%Y%m%d-%H%M%S)}
PARTS=${*:-symbolize decode batch modules}
export SANITRACE_BENCH_DIR=$CACHE
[[ -x $SANITRACE ]] || { echo "bench/run.sh: no sanitrace at $SANITRACE (make build)" >&2; exit 1; }
[[ ${SKIP_BUILD:-0} == 1 ]] || bash "$HERE/build.sh" >&2
# The harness is built for this run only: two checkouts benchmarking at
# once must not run each other's harness from the shared cache.
TOOLS=$(mktemp -d)
trap 'rm -rf "$TOOLS"' EXIT
go build -o "$TOOLS/benchrun" ./internal/cmd/benchrun
mkdir -p "$OUT"
for part in $PARTS; do
	flags=()
	case $part in
	symbolize) read -r -a flags <<<"${SYMBOLIZE_FLAGS:-}"; flags+=(-out "$OUT/symbolize") ;;
	decode) read -r -a flags <<<"${DECODE_FLAGS:-}" ;;
	batch) read -r -a flags <<<"${BATCH_FLAGS:-}" ;;
	modules) read -r -a flags <<<"${MODULES_FLAGS:-}" ;;
	*) echo "bench/run.sh: unknown part $part" >&2; exit 2 ;;
	esac
	"$TOOLS/benchrun" "$part" -dir "$CACHE" -sanitrace "$SANITRACE" "${flags[@]}" | tee -a "$OUT/report.md"
	echo | tee -a "$OUT/report.md"
done
echo "bench/run.sh: report in $OUT/report.md" >&2
