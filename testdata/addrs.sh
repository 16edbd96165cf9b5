#!/usr/bin/env bash
# addrs.sh BINARY: the addresses the reference answers are recorded at:
# every function symbol's first, middle and last byte, and the start of
# every DWARF address range (each inlined call's code), kept when inside an
# executable section (DWARF of code the linker dropped starts at 0, where
# llvm-symbolizer answers from .debug_aranges; see docs/differences.md).
# Tools: nm and readelf 2.40, llvm-dwarfdump 14, perl.
set -euo pipefail
bin=$1
{
	nm --defined-only -S "$bin" | perl -ne '
		if (/^(\S+) (\S+) [tTwW] /) {
			my ($s, $n) = (hex $1, hex $2);
			printf "0x%x\n0x%x\n0x%x\n", $s, $s + int($n / 2), $s + $n - 1 if $n;
		}'
	"${DWDUMP:-llvm-dwarfdump-14}" --debug-info "$bin" | perl -ne '
		printf "0x%x\n", hex $1 if (/DW_AT_low_pc\s+\((0x[0-9a-f]+)\)/ || /^\s+\[(0x[0-9a-f]+), 0x/) && hex $1'
} | sort -u | perl -e '
	open my $r, "-|", "readelf", "-SW", $ARGV[0] or die;
	my @x;
	while (<$r>) {
		# [Nr] Name Type Address Off Size ES Flg...: the executable ones.
		push @x, [hex $1, hex($1) + hex($2)] if /\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+\S*X/;
	}
	while (<STDIN>) {
		my $a = hex $_;
		print if grep { $a >= $_->[0] && $a < $_->[1] } @x;
	}' "$bin"
