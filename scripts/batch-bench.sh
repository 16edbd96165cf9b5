#!/usr/bin/env bash
# Measures `sanitrace batch` on 10,000+ logs generated from the shared
# corpus (docs/performance.md, "Batch"): every corpus log copied into
# runs/NNN/cases/<case>/ as many times as it takes, each case's binaries
# once under cases/<case>/ (where the logs' /build/ci/cases/<case>/... paths
# find them), as a directory and as a .tar.gz; then wall time, throughput
# and peak RSS with -j 1 and -j 2.
#   scripts/batch-bench.sh [bin/sanitrace] [corpus/cases dir] [logs]
set -euo pipefail
bin=$(realpath "${1:-bin/sanitrace}")
cases=$(realpath "${2:-../shared/corpus/cases}")
want=${3:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/artifacts
mkdir -p "$tree/cases"
for c in "$cases"/*/; do
	id=$(basename "$c")
	mkdir -p "$tree/cases/$id"
	for f in "$c"*; do
		case $f in *.log|*.json) ;; *) cp "$f" "$tree/cases/$id/" ;; esac
	done
done
per=$(ls "$cases"/*/*.log | wc -l)
runs=$(( (want + per - 1) / per ))
for r in $(seq -w 1 "$runs"); do
	for c in "$cases"/*/; do
		id=$(basename "$c")
		mkdir -p "$tree/runs/$r/cases/$id"
		cp "$c"*.log "$tree/runs/$r/cases/$id/"
	done
done
logs=$(find "$tree" -name '*.log' | wc -l)
size=$(du -sb "$tree" | cut -f1)
tar -C "$work" -czf "$work/artifacts.tar.gz" artifacts
echo "$logs logs, $(( size >> 20 )) MiB as a directory, $(( $(stat -c %s "$work/artifacts.tar.gz") >> 20 )) MiB as .tar.gz; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for input in "$tree" "$work/artifacts.tar.gz"; do
	for j in 1 2; do
		/usr/bin/time -f "%e %M %U %S" -o "$work/time" "$bin" batch -j "$j" --fail-on none --progress=never -o "$work/out.json" "$input" 2>/dev/null
		read -r wall rss user sys < "$work/time"
		n=$(grep -c '"bucket": "' "$work/out.json" || true)
		printf '%-8s -j %d: %6.2f s wall, %6.2f s CPU, %7.0f logs/s, peak RSS %4d MiB, %d reports\n' \
			"$( [ -d "$input" ] && echo dir || echo tar.gz)" "$j" "$wall" "$(echo "$user + $sys" | bc -l)" "$(echo "$logs / $wall" | bc -l)" $(( rss >> 10 )) "$n"
	done
done
