/* fuzz: a libFuzzer target whose failure depends on the input's first
 * byte: 'H' a heap overflow (found by fuzzing from an empty corpus, so the
 * report carries MS:/base unit lines), 'T' a hang (timeout), 'M' a huge
 * allocation (out-of-memory / malloc limit), 'X' exit(3) (fuzz target
 * exited). Built with -DHEAP_ONLY only the first is armed, so that fuzzing
 * finds it and not one of the others. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

static void parse_header(const uint8_t *d, size_t n)
{
	char *h = malloc(4);
	memcpy(h, d, n < 8 ? n : 8);
	sink = h[0];
	free(h);
}

static void spin(void)
{
	for (;;)
		sink++;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n < 2 || d[1] != '!')
		return 0;
#ifdef HEAP_ONLY
	if (d[0] == 'H')
		parse_header(d, n);
	return 0;
#endif
	switch (d[0]) {
	case 'H': parse_header(d, n); break;
	case 'T': spin(); break;
	case 'M': { char *p = malloc((size_t)3 << 30); memset(p, 1, (size_t)3 << 30); sink = p[7]; free(p); break; }
	case 'X': exit(3);
	}
	return 0;
}
