#!/usr/bin/env bash
# aliases.sh BINARY: the table of a sanitizer runtime's interceptor
# addresses and what the reference tools name there, one line each:
#   address <TAB> every symbol at it <TAB> llvm-symbolizer 14 <TAB> addr2line -f -i -C
# An address is every defined function symbol named __interceptor_* (of
# the symbol table, else of the dynamic one), which
# the runtime also defines under the intercepted name (a weak alias at the
# same address: pthread_create and __interceptor_pthread_create). A
# tool's answer is its function and location lines, frames joined by " | ".
# Tools: nm 2.40, llvm-symbolizer 14 ($SYMB), addr2line 2.40, perl.
set -euo pipefail
bin=$1
symb=${SYMB:-llvm-symbolizer-14}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The symbol table, or the dynamic one of a stripped library.
syms() { nm --defined-only "$bin" 2>/dev/null | grep . || nm -D --defined-only "$bin"; }
syms | perl -ne '
	next unless /^([0-9a-f]+) ([A-Za-z]) (\S+)$/;
	my ($a, $t, $n) = (lc $1, $2, $3);
	push @{$at{$a}}, $n;
	$want{$a} = 1 if $n =~ /^__interceptor_/ && $t =~ /[TtWw]/;
	END {
		open my $s, ">", "'"$tmp"'/syms" or die;
		for my $a (sort keys %want) {
			printf "0x%x\n", hex $a;
			printf $s "0x%x\t%s\n", hex $a, join(",", sort @{$at{$a}});
		}
	}' > "$tmp/addrs"
"$symb" --obj="$bin" --inlines --demangle < "$tmp/addrs" > "$tmp/llvm"
addr2line -e "$bin" -a -f -i -C < "$tmp/addrs" > "$tmp/gnu"
perl -e '
	my ($syms, $llvm, $gnu) = @ARGV;
	open S, $syms or die; my @rows = map { chomp; [split /\t/] } <S>;
	local $/ = "\n\n"; open L, $llvm or die; my @l = map { chomp; chomp; join " | ", split /\n/ } <L>;
	local $/ = "\n"; open G, $gnu or die; my @g; my $cur;
	while (<G>) { chomp; if (/^0x/) { push @g, []; next } push @{$g[-1]}, $_ }
	die "counts differ" unless @rows == @l && @rows == @g;
	for my $i (0 .. $#rows) { print join("\t", @{$rows[$i]}, $l[$i], join(" | ", @{$g[$i]})), "\n" }
' "$tmp/syms" "$tmp/llvm" "$tmp/gnu"
