/* Fixture program for the symbolizer tests: inlined helpers (from a header
   in a subdirectory), a static function, a global array and scalar for DATA
   queries, a call into a shared library, and a cold path. */
#include <stdio.h>
#include <stdlib.h>
#include "sub/helper.h"

int g_table[64];
long g_counter = 7;
static const char g_banner[] = "fixture";

extern int lib_mix(int a, int b);

static int __attribute__((noinline)) accumulate(const int *v, int n)
{
	int acc = 0;
	for (int i = 0; i < n; i++)
		acc = clamp_add(acc, v[i]);
	return acc;
}

int __attribute__((noinline)) fill(int seed)
{
	for (int i = 0; i < 64; i++)
		g_table[i] = scale(seed + i, 2);
	if (__builtin_expect(seed < 0, 0)) {
		fprintf(stderr, "negative seed %d\n", seed);
		abort();
	}
	return accumulate(g_table, 64);
}

int main(int argc, char **argv)
{
	int seed = argc > 1 ? atoi(argv[1]) : 3;
	int r = fill(seed);
	g_counter += r;
	printf("%s %d %ld %d\n", g_banner, r, g_counter, lib_mix(r, seed));
	return 0;
}
