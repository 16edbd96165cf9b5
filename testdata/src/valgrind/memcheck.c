/* Memcheck's error kinds, one after another: each function is one bug. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Called through a pointer so that the compiler does not expand it inline:
 * Memcheck checks the library's strncpy. (Its memcpy is glibc's memmove,
 * which Memcheck does not check for overlaps.) */
static char *(*volatile copy)(char *, const char *, size_t) = strncpy;
static void *volatile lost;

struct node {
	struct node *next;
	int value;
};

static int overflow_read(void)
{
	int *a = malloc(2 * sizeof *a);
	a[0] = a[1] = 1;
	int v = a[2]; /* 0 bytes after a block of size 8 */
	free(a);
	return v;
}

static void use_after_free(void)
{
	char *p = malloc(16);
	free(p);
	p[3] = 'x';
}

static int uninitialised(void)
{
	int *a = malloc(4 * sizeof *a);
	int r = 0;
	if (a[1] > 2) /* never written */
		r = 1;
	free(a);
	return r;
}

static void double_free(void)
{
	char *p = malloc(8);
	free(p);
	free(p);
}

static void overlap(void)
{
	char buf[32] = "abcdefghijklmnop";
	copy(buf + 1, buf, 5);
}

static void fishy(void)
{
	volatile long n = -1;
	void *p = malloc((size_t)n);
	free(p);
}

static void syscall_param(void)
{
	char *buf = malloc(8);
	int fd = open("/dev/null", O_WRONLY);
	write(fd, buf, 8);
	close(fd);
	free(buf);
}

static struct node *leak_list(void)
{
	struct node *head = malloc(sizeof *head);
	head->next = malloc(sizeof *head->next);
	head->next->next = NULL;
	return head;
}

int main(void)
{
	int r = overflow_read();
	use_after_free();
	r += uninitialised();
	double_free();
	overlap();
	fishy();
	syscall_param();
	leak_list();
	lost = malloc(100);
	lost = NULL; /* definitely lost */
	printf("done %d\n", r > 100);
	return 0;
}
