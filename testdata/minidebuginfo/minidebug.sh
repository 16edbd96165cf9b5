#!/usr/bin/env bash
# minidebug.sh BINARY OUT: OUT is BINARY stripped, with MiniDebugInfo, by
# the recipe of gdb's manual ("MiniDebugInfo"), which Fedora's
# find-debuginfo follows: the function symbols that are not dynamic
# symbols, kept in a copy of the debug file without its DWARF, compressed
# with xz into a .gnu_debugdata section. PAD_MIB=N first adds a section of
# N MiB of zeros to that copy (the oversized fixture: a valid ELF file that
# inflates to N MiB from a few KiB). Tools: binutils 2.40 (nm, objcopy,
# strip), xz, coreutils.
set -euo pipefail
bin=$1
out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# Extract the dynamic symbols from the main binary, there is no need to
# also have these in the normal symbol table.
nm -D "$OLDPWD/$bin" --format=posix --defined-only | awk '{ print $1 }' | sort > dynsyms
# Extract all the text (i.e. function) symbols from the debuginfo.
nm "$OLDPWD/$bin" --format=posix --defined-only | awk '{ if ($2 == "T" || $2 == "t" || $2 == "D") print $1 }' | sort > funcsyms
# Keep all the function symbols not already in the dynamic symbol table.
comm -13 dynsyms funcsyms > keep_symbols
# Separate full debug info into debug binary.
objcopy --only-keep-debug "$OLDPWD/$bin" debug
# Copy the full debuginfo, keeping only a minimal set of symbols and
# removing some unnecessary sections.
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=keep_symbols debug mini_debuginfo
if [ -n "${PAD_MIB:-}" ]; then
	head -c "$((PAD_MIB << 20))" /dev/zero > pad
	objcopy --add-section .sanitrace_pad=pad mini_debuginfo
fi
# Drop the full debug info from the original binary.
cp "$OLDPWD/$bin" binary
strip --strip-all -R .comment binary
# Inject the compressed data into the .gnu_debugdata section of the
# original binary.
xz mini_debuginfo
objcopy --add-section .gnu_debugdata=mini_debuginfo.xz binary
cp binary "$OLDPWD/$out"
