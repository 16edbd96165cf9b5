/* A heap-use-after-free whose allocation and free stacks the sanitizers'
 * fast (frame-pointer) unwinder cuts short when built with
 * -fomit-frame-pointer: for decode's possibly_truncated mark. */
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) static char *make(int n)
{
	return malloc(n);
}

__attribute__((noinline)) static char *prepare(int n)
{
	char *p = make(n + 1);
	sink = (long)p;
	return p;
}

__attribute__((noinline)) static int run(int n)
{
	char *p = prepare(n);
	free(p);
	return p[n];
}

int main(int argc, char **argv)
{
	(void)argv;
	return run(argc + 3);
}
