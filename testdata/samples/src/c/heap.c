/* A heap-use-after-free and a heap overflow for AddressSanitizer, with
 * the frames split across two functions and a loop (discriminators). */
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int sum(const int *p, int n)
{
	int s = 0;
	for (int i = 0; i <= n; i++)
		s += p[i];
	return s;
}

__attribute__((noinline)) int *fill(int n)
{
	int *p = malloc(n * sizeof *p);
	for (int i = 0; i < n; i++)
		p[i] = i;
	return p;
}

int main(int argc, char **argv)
{
	int *p = fill(8);
	if (argc > 1 && strcmp(argv[1], "uaf") == 0) {
		free(p);
		return p[3];
	}
	return sum(p, 8);
}
