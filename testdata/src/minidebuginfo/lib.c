// lib.c: libmini.so for testdata/minidebuginfo. lib_sum and lib_scale are
// exported (dynamic symbols, left out of the MiniDebugInfo symbol table by
// the recipe); the static helpers and the hidden one are not.
static int __attribute__((noinline)) add_clamped(int a, int b) {
	long s = (long)a + b;
	return s > 1000000 ? 1000000 : (int)s;
}

__attribute__((visibility("hidden"), noinline)) int lib_hidden_twice(int x) { return 2 * x; }

int lib_sum(const int *v, int n) {
	int s = 0;
	for (int i = 0; i < n; i++)
		s = add_clamped(s, v[i]);
	return s;
}

int lib_scale(int x) { return lib_hidden_twice(x) + 1; }
