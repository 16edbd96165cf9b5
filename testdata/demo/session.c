/* A small program with a heap-use-after-free, for `make demo`.
 * A session is released by one code path and read by another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
	char user[16];
	int refs;
};

static struct session *session_open(const char *user)
{
	struct session *s = malloc(sizeof *s);
	if (s == NULL)
		return NULL;
	strncpy(s->user, user, sizeof s->user - 1);
	s->user[sizeof s->user - 1] = '\0';
	s->refs = 1;
	return s;
}

static void session_release(struct session *s)
{
	if (--s->refs == 0)
		free(s);
}

static int session_active(const struct session *s)
{
	return s->refs > 0; /* reads freed memory after logout() */
}

static void logout(struct session *s)
{
	session_release(s);
}

int main(void)
{
	struct session *s = session_open("alice");
	if (s == NULL)
		return 2;
	logout(s);
	printf("active: %d\n", session_active(s));
	return 0;
}
