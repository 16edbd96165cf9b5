/* LeakSanitizer: a table whose rows are never freed (a direct leak of the
 * table and indirect leaks of its rows). */
#include <stdlib.h>

struct table {
	char **rows;
	int n;
};

__attribute__((noinline)) char *make_row(int i)
{
	char *r = malloc(16 + i);
	r[0] = 0;
	return r;
}

__attribute__((noinline)) struct table *make_table(int n)
{
	struct table *t = malloc(sizeof *t);
	t->rows = malloc(n * sizeof *t->rows);
	t->n = n;
	for (int i = 0; i < n; i++)
		t->rows[i] = make_row(i);
	return t;
}

__attribute__((noinline)) void load_tables(void)
{
	make_table(3);
}

/* Clears the stack the calls above left behind, so that no stale copy of
 * the table's address keeps it reachable. */
__attribute__((noinline)) void scrub_stack(void)
{
	volatile char buf[8192];
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = 0;
}

int main(void)
{
	load_tables();
	scrub_stack();
	return 0;
}
