/* A heap-use-after-free whose report shares its stream with another
 * writer's progress text, printed without newlines (Makefile: the text
 * lands in front of report lines, frame lines among them). */
#include <stdlib.h>

__attribute__((noinline)) static int use(int *p)
{
	return p[3];
}

int main(void)
{
	int *p = malloc(16 * sizeof *p);
	free(p);
	return use(p);
}
