/* A libFuzzer target that aborts once the fuzzer finds an input starting
 * with "Z!": the deadly-signal report, followed by the MS:/base unit
 * lines of the mutation that found it. */
#include <stdint.h>
#include <stdlib.h>

__attribute__((noinline)) static void check_record(const uint8_t *d, size_t n)
{
	if (n >= 2 && d[0] == 'Z' && d[1] == '!')
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	check_record(d, n);
	return 0;
}
