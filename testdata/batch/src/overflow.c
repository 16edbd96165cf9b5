/* A heap buffer overflow by one element: frames sum_window <- main. */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) int sum_window(const int *v, int n)
{
	int t = 0;
	for (int i = 0; i <= n; i++)
		t += v[i];
	return t;
}

int main(int argc, char **argv)
{
	(void)argv;
	int n = 4 + argc;
	int *v = calloc(n, sizeof *v);
	printf("sum: %d\n", sum_window(v, n));
	free(v);
	return 0;
}
