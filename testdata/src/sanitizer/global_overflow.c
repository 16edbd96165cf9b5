// A global-buffer-overflow: the runtime describes the global with a DATA
// request to the symbolizer.
int table[10] = {1, 2, 3};

int lookup(int i) { return table[i]; }

int main(int argc, char **argv) {
	(void)argv;
	return lookup(9 + argc); // table[10]
}
