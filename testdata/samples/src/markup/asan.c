/* AddressSanitizer reports chosen by argv[1]: "uaf" a heap-use-after-free,
 * "overflow" a stack overflow by unbounded recursion, "segv" a read
 * through a null pointer. The use-after-free read is in an inlined function. */
#include <stdlib.h>
#include <string.h>

struct item {
	int id;
	char name[12];
};

__attribute__((noinline)) struct item *make_item(int id)
{
	struct item *it = malloc(sizeof *it);
	it->id = id;
	strcpy(it->name, "item");
	return it;
}

__attribute__((noinline)) void drop_item(struct item *it)
{
	free(it);
}

/* Always inlined: the bad read's frame is an inline chain. */
static inline __attribute__((always_inline)) int read_id(const struct item *it)
{
	return it->id;
}

__attribute__((noinline)) int item_id(const struct item *it)
{
	return read_id(it) + 1;
}

__attribute__((noinline)) int descend(volatile char *prev, int depth)
{
	volatile char frame[256];
	frame[0] = prev ? prev[0] + 1 : 0;
	return descend(frame, depth + 1) + frame[depth & 255];
}

__attribute__((noinline)) int first_id(struct item **items)
{
	return items[0]->id;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "uaf";
	if (strcmp(mode, "overflow") == 0)
		return descend(0, 0);
	if (strcmp(mode, "segv") == 0)
		return first_id((struct item **)calloc(1, sizeof(struct item *)));
	struct item *it = make_item(7);
	drop_item(it);
	return item_id(it);
}
