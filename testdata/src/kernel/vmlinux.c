/* A stand-in for vmlinux: kernel-named functions, built freestanding and
 * linked at the x86_64 kernel's text address, so that the kernel frames
 * of the parser's corpus ("func+0x1c/0x60") resolve against real DWARF
 * (testdata/Makefile kernel). The bodies only give the compiler something
 * to inline and call. */
#define noinline __attribute__((noinline))

volatile unsigned long sink;

struct work { void (*fn)(struct work *); unsigned long data; };

static inline unsigned long shadow_of(unsigned long addr) { return (addr >> 3) + 0xdffffc0000000000UL; }

static inline int addr_poisoned(unsigned long addr)
{
	return *(volatile signed char *)shadow_of(addr) != 0;
}

noinline void dump_stack_lvl(int level) { sink += level; }

noinline void print_report(unsigned long addr, unsigned long size)
{
	dump_stack_lvl(7);
	sink += addr + size;
}

noinline int kasan_report(unsigned long addr, unsigned long size, int write)
{
	if (addr_poisoned(addr)) {
		print_report(addr, size);
		return 1;
	}
	return write;
}

noinline void process_one_work(struct work *w)
{
	sink++;
	w->fn(w);
	sink--;
}

noinline int worker_thread(void *arg)
{
	struct work *w = arg;
	for (int i = 0; i < 4; i++)
		process_one_work(w + i);
	return 0;
}

noinline int kthread(void *arg) { return worker_thread(arg); }

noinline void ret_from_fork(void *arg) { kthread(arg); }

void start_kernel(void) { ret_from_fork((void *)sink); }
