/* glibc's backtrace() and backtrace_symbols_fd() from a -rdynamic
 * executable: exported functions print as prog(func+0x..)[addr], the
 * static one in the middle as prog[addr] (no symbol). */
#include <execinfo.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void report(void)
{
	void *pcs[32];
	int n = backtrace(pcs, 32);
	backtrace_symbols_fd(pcs, n, STDERR_FILENO);
}

__attribute__((noinline)) static void hidden_step(int depth)
{
	if (depth > 0)
		hidden_step(depth - 1);
	else
		report();
}

__attribute__((noinline)) void handle_request(void)
{
	hidden_step(1);
}

int main(void)
{
	handle_request();
	return 0;
}
