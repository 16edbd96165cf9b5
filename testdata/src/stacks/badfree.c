/* badfree: frees a pointer into the middle of a block; glibc aborts with
 * "free(): invalid pointer". */
#include <stdlib.h>
#include <string.h>

static void release(char *p) { free(p); }

int main(void)
{
	char *buf = malloc(64);
	strcpy(buf, "header:payload");
	release(buf + 7);
	return 0;
}
