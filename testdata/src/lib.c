/* Shared-library fixture: an exported function with an inlined helper and
   a hidden one. */
static inline int rotate(int x, int n)
{
	return (int)(((unsigned)x << n) | ((unsigned)x >> (32 - n)));
}

__attribute__((visibility("hidden"))) int lib_hidden(int a)
{
	return rotate(a, 5) ^ 0x5a5a;
}

int lib_mix(int a, int b)
{
	return lib_hidden(a) + rotate(b, 3);
}
