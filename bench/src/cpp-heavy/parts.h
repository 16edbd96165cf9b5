// cpp-heavy: a C++17 program written for sanitrace's benchmark. Each part
// drives a template-heavy corner of the standard library and Boost (the
// headers Debian ships as libboost-dev), so the binary carries what real
// C++ code carries: deep inline chains, large types, long demangled names.
// Every part returns a checksum, which main prints, so nothing is optimised
// away.
#pragma once
#include <cstdint>

std::uint64_t run_containers(int n);
std::uint64_t run_parsers(int n);
std::uint64_t run_text(int n);
std::uint64_t run_indexes(int n);
std::uint64_t run_geometry(int n);
std::uint64_t run_graph(int n);
std::uint64_t run_async(int n);
std::uint64_t run_trees(int n);
std::uint64_t run_variants(int n);
