/* A freestanding 32-bit program for the cfi fixtures (no 32-bit libc is
   needed): i386 register numbering and 4-byte addresses in .eh_frame and
   .debug_frame. Never run. */
static int __attribute__((noinline)) g(int x) { return x * 3; }

int __attribute__((noinline)) f(int x)
{
	int a[8];
	for (int i = 0; i < 8; i++)
		a[i] = g(x + i);
	return a[x & 7];
}

void entry(void)
{
	f(1);
	for (;;)
		;
}
