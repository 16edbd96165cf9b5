/* MemorySanitizer: a branch on a field never written, through two calls,
 * with the origin (the heap allocation) tracked. */
#include <stdio.h>
#include <stdlib.h>

struct conf {
	int verbose;
	int level;
};

__attribute__((noinline)) struct conf *new_conf(void)
{
	struct conf *c = malloc(sizeof *c);
	c->verbose = 1;
	return c;
}

__attribute__((noinline)) int pick(const struct conf *c)
{
	if (c->level > 2)
		return 1;
	return 0;
}

int main(void)
{
	struct conf *c = new_conf();
	int r = pick(c);
	printf("%d\n", r);
	free(c);
	return 0;
}
