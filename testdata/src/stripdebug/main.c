// main.c, compiled with -g: the only unit with DWARF. helper.c and other.c
// are compiled without it, so their functions are known from the symbol
// table alone, their static ones under their file's STT_FILE symbol.
#include <stdio.h>

int helper_add(int, int);
int other_mix(int);

static int __attribute__((noinline)) local_square(int x) { return x * x; }

int main(int argc, char **argv) {
	(void)argv;
	printf("%d\n", helper_add(local_square(argc), other_mix(argc)));
	return 0;
}
