#!/usr/bin/env bash
# Writes a KASAN report whose frames name functions of the stand-in vmlinux
# ($1) with their real sizes (nm -S), at fixed offsets, and one frame whose
# printed size is wrong (another build); with "addrs" as $2 it prints
# instead the address (symbol + offset) of every resolvable frame, for
# addr2line. Used by testdata/Makefile's kernel target.
set -euo pipefail
vmlinux=$1
mode=${2:-log}
declare -A addr size
while read -r a s t name; do
	case $t in T | t) addr[$name]=$a size[$name]=$s ;; esac
done < <(nm -S "$vmlinux")
# function, offset, size delta
frames=(
	"dump_stack_lvl 0x4 0"
	"print_report 0x5 0"
	"kasan_report 0x16 0"
	"kasan_report 0x25 0"
	"process_one_work 0x10 0"
	"worker_thread 0x14 0"
	"kthread 0x0 0"
	"ret_from_fork 0x0 0"
	"print_report 0x5 0x10"
)
if [ "$mode" = addrs ]; then
	for f in "${frames[@]}"; do
		read -r name off delta <<<"$f"
		[ "$delta" = 0 ] && printf '0x%x\n' $((16#${addr[$name]} + off))
	done
	exit 0
fi
ks=$((16#${size[kasan_report]}))
echo "[   12.100000] =================================================================="
printf '[   12.100001] BUG: KASAN: slab-out-of-bounds in kasan_report+0x16/0x%x\n' "$ks"
echo "[   12.100002] Read of size 8 at addr ffff888100a2c010 by task kworker/0:1/17"
echo "[   12.100003] CPU: 0 PID: 17 Comm: kworker/0:1 Not tainted 6.1.0-standin #1"
echo "[   12.100004] Call Trace:"
echo "[   12.100005]  <TASK>"
i=10
for f in "${frames[@]}"; do
	read -r name off delta <<<"$f"
	printf '[   12.1000%02d]  %s+0x%x/0x%x\n' $i "$name" $((off)) $((16#${size[$name]} + delta))
	i=$((i + 1))
done
echo "[   12.100020]  ring_pop+0x12/0x5f [ringbuf]"
echo "[   12.100021]  </TASK>"
echo "[   12.100022] =================================================================="
