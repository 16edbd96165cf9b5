/* UndefinedBehaviorSanitizer with stacks (print_stacktrace=1): a signed
 * overflow, an out-of-range shift and a misaligned load, each two calls
 * deep. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int scale(int v, int by)
{
	return v * by;
}

__attribute__((noinline)) unsigned shift(unsigned v, int by)
{
	return v << by;
}

__attribute__((noinline)) int load(const char *buf)
{
	return *(const int *)(buf + 1);
}

int main(int argc, char **argv)
{
	char buf[16];
	memset(buf, argc, sizeof buf);
	int a = scale(0x40000000, argc + 1);
	unsigned b = shift(1, 30 + argc * 3);
	int c = load(buf);
	printf("%d %u %d\n", a, b, c);
	(void)argv;
	return 0;
}
