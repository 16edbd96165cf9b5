/* A NULL dereference that kills the program: Memcheck's invalid read and
 * the fatal signal. */
#include <stdio.h>

struct config {
	const char *name;
	int level;
};

static int level_of(const struct config *c)
{
	return c->level;
}

static const struct config *lookup(const char *key)
{
	(void)key;
	return NULL;
}

int main(int argc, char **argv)
{
	const struct config *c = lookup(argc > 1 ? argv[1] : "default");
	printf("level %d\n", level_of(c));
	return 0;
}
