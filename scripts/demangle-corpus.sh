#!/usr/bin/env bash
# Compare the demangler with llvm-cxxfilt-14, llvm-cxxfilt-19 and c++filt -i on every mangled
# name of the cpp-heavy bench binary and the system's C++ libraries (191,329
# names with the Debian 12 packages of binutils 2.40, LLVM 14, Boost 1.74
# and ICU 72): go test ./symbolize -run TestDemangleLargeCorpus.
# Build the bench binary first: bash ../shared/bench/build-corpus.sh
# (TARGETS=cpp-heavy); files that are missing are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${SANITRACE_BENCH_DIR:-$HOME/.cache/sanitrace-bench}/corpus/cpp-heavy/cpp-heavy
lib=/usr/lib/x86_64-linux-gnu
files=()
for f in "$bench" "$lib"/libstdc++.so.6.0.30 "$lib"/libLLVM-14.so.1 "$lib"/libclang-14.so.14.0.6 \
	"$lib"/libboost_*.so.1.74.0 "$lib"/libicu*.so.72.1; do
	[ -f "$f" ] && files+=("$f")
done
SANITRACE_DEMANGLE_FILES=$(IFS=:; echo "${files[*]}") \
	go test ./symbolize/ -run TestDemangleLargeCorpus -count=1 -v "$@"
