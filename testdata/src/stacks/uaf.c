/* A heap use-after-free for ASan run with print_stats=1: the allocator's
   Stats lines come between the report's SUMMARY and ==PID==ABORTING. */
#include <stdlib.h>

int main(void) {
	int *p = malloc(16);
	free(p);
	return p[1];
}
