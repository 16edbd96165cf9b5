/* A stand-in for a kernel module (ringbuf.ko), compiled to a relocatable
 * object as modules are (testdata/Makefile kernel). */
#define noinline __attribute__((noinline))

struct ring { unsigned long *slots; unsigned int head, tail, mask; };
struct work { void (*fn)(struct work *); unsigned long data; };

extern int kasan_report(unsigned long addr, unsigned long size, int write);
extern void kfree(void *p);

static inline unsigned long ring_slot(struct ring *r, unsigned int i)
{
	kasan_report((unsigned long)&r->slots[i & r->mask], 8, 0);
	return r->slots[i & r->mask];
}

noinline unsigned long ring_pop(struct ring *r)
{
	unsigned long v = ring_slot(r, r->tail);
	r->tail++;
	if (r->tail == r->head)
		kfree(r->slots);
	return v;
}

noinline void ring_drain_work(struct work *w)
{
	struct ring *r = (struct ring *)w->data;
	while (r->tail != r->head)
		w->data += ring_pop(r);
}
