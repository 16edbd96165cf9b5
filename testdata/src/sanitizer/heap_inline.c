// A heap-buffer-overflow inside a helper that is always inlined, so the
// runtime's report has an inline chain at frame #0.
#include <stdlib.h>

static inline __attribute__((always_inline)) int read_at(const int *p, int i) {
	return p[i];
}

int sum(const int *p, int n) {
	int s = 0;
	for (int i = 0; i <= n; i++) // one past the end
		s += read_at(p, i);
	return s;
}

int main(int argc, char **argv) {
	(void)argv;
	int n = 8 + argc;
	int *p = malloc(n * sizeof *p);
	for (int i = 0; i < n; i++)
		p[i] = i;
	int s = sum(p, n);
	free(p);
	return s == 0;
}
