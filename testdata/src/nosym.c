/* A program with no symbols at all once stripped: static, without libc,
   so no dynamic symbol table either. The symbolizers answer ?? for it
   and say nothing on stderr. */
void _start(void)
{
	__asm__ volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
	for (;;)
		;
}
