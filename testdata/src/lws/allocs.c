/*
 * allocs: the end-to-end fixture of sanitrace's lws commands. It plays the
 * part of an lws-instrumented allocator: at several allocation sites (some
 * reached through inlined helpers) it captures the call stack with
 * backtrace(), drops its own frame as lws drops its capture frames, and
 * prints one line per allocation:
 *
 *   ALLOC <size> <function> <line> <return address>...
 *
 * where <function> and <line> (__func__, __LINE__) name the innermost
 * source frame of the first return address. The test encodes these as ~m#
 * records and checks that `sanitrace lws decode|heapmap --obj` names them.
 * A PIE build also prints "BASE <load address>".
 */
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define INLINE static inline __attribute__((always_inline))

extern char __executable_start[];

static void *live[64];
static int nlive;

/* record stands for lws_alloc_metadata_gen plus the allocator. */
static NOINLINE void *record(size_t size, const char *func, int line)
{
	void *pcs[32];
	int n = backtrace(pcs, 32);

	printf("ALLOC %zu %s %d", size, func, line);
	for (int i = 1; i < n; i++) /* pcs[0] is inside record: snipped */
		printf(" %p", pcs[i]);
	printf("\n");
	return malloc(size);
}

/* Results go to live[] so that no call to record is a tail call. */
NOINLINE void alloc_direct(size_t n)
{
	live[nlive++] = record(n, __func__, __LINE__);
}

INLINE void *make_buf(size_t n)
{
	void *p = record(n, __func__, __LINE__);
	return p;
}

INLINE void *make_str(size_t n)
{
	void *p = make_buf(n + 1);
	return p;
}

NOINLINE void alloc_via_inline(void)
{
	live[nlive++] = make_buf(64);
}

NOINLINE void alloc_nested(int i)
{
	live[nlive++] = make_str(100 + i);
}

NOINLINE void session_open(void)
{
	alloc_direct(4096);
	alloc_via_inline();
	__asm__ volatile(""); /* keeps the call above from being a tail call */
}

/* One call site reached several times: one heap-map row with a count. */
NOINLINE void many_small(void)
{
	static volatile int rounds = 3; /* volatile: no unrolling into 3 sites */

	for (int i = 0; i < rounds; i++)
		alloc_direct(16 + i);
	__asm__ volatile("");
}

int main(void)
{
	printf("BASE %p\n", (void *)__executable_start);
	for (int i = 0; i < 3; i++)
		alloc_nested(i);
	session_open();
	session_open();
	alloc_direct(24);
	many_small();
	for (int i = 0; i < nlive; i++)
		free(live[i]);
	return 0;
}
