// prog.c: an executable of global and static functions calling into
// libmini.so, for MiniDebugInfo (testdata/minidebuginfo): after stripping,
// its static functions and the globals not exported are named only by the
// .gnu_debugdata section's symbol table.
#include <stdio.h>
#include <stdlib.h>

int lib_sum(const int *v, int n);
int lib_scale(int x);

static int __attribute__((noinline)) parse_arg(const char *s) { return s ? atoi(s) : 3; }

static void __attribute__((noinline)) fill(int *v, int n, int seed) {
	for (int i = 0; i < n; i++)
		v[i] = seed * i + 1;
}

int __attribute__((noinline)) prog_total(int n) {
	int v[16];
	if (n > 16)
		n = 16;
	fill(v, n, lib_scale(n));
	return lib_sum(v, n);
}

static int __attribute__((noinline, cold)) report(int total) {
	return printf("total %d\n", total) < 0;
}

int main(int argc, char **argv) {
	return report(prog_total(parse_arg(argc > 1 ? argv[1] : NULL)));
}
