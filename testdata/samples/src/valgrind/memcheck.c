/* Memcheck's error kinds in one run: an invalid read just past a heap
 * block, a read inside a freed block, a jump on an uninitialised value,
 * an invalid free, and leaks (definitely and indirectly lost). */
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	int value;
};

__attribute__((noinline)) static int read_at(const int *p, int i)
{
	return p[i];
}

__attribute__((noinline)) int *make_pair(void)
{
	int *p = malloc(2 * sizeof *p);
	p[0] = 1;
	p[1] = 2;
	return p;
}

__attribute__((noinline)) void leak_list(void)
{
	struct node *n = malloc(sizeof *n);
	n->next = malloc(sizeof *n);
	n->next->next = NULL;
	n = NULL;
}

__attribute__((noinline)) char *leak_buffer(size_t n)
{
	return malloc(n);
}

__attribute__((noinline)) static int check(int v)
{
	if (v > 0)
		return 1;
	return 0;
}

int main(void)
{
	int *pair = make_pair();
	int past = read_at(pair, 2);
	free(pair);
	int freed = read_at(pair, 0);
	int unset;
	int positive = check(unset);
	free(pair);
	leak_list();
	leak_buffer(32);
	printf("%d %d %d\n", past, freed, positive);
	return 0;
}
