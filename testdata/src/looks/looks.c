/* A crash in an inlined call, for decode's gdb look: gdb's bt of the
   stripped copy names no function (?? ()), and decode --obj with the
   unstripped copy fills the frames in, the inline chain included. */
#include <stddef.h>

static int bias;

static inline __attribute__((always_inline)) int peek(const int *p)
{
	return *p + bias;
}

__attribute__((noinline)) int read_slot(const int *p)
{
	return peek(p) * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	return read_slot(argc > 5 ? &bias : NULL);
}
