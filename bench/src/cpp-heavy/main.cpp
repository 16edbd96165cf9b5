#include <cstdio>
#include <cstdlib>

#include "parts.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 10;
	std::uint64_t sums[] = {run_containers(n), run_parsers(n), run_text(n), run_indexes(n), run_geometry(n),
				run_graph(n), run_async(n), run_trees(n), run_variants(n)};
	std::uint64_t all = 0;
	for (auto s : sums) {
		all = all * 1099511628211ULL ^ s;
		std::printf("%016llx\n", static_cast<unsigned long long>(s));
	}
	std::printf("all %016llx\n", static_cast<unsigned long long>(all));
	return 0;
}
