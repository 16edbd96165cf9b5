/* A use after free two calls deep: the bucket's frames are
 * session_id <- audit <- main in every build. */
#include <stdio.h>
#include <stdlib.h>

struct session { int id; char name[12]; };

static __attribute__((noinline)) int session_id(const struct session *s) { return s->id; }

static __attribute__((noinline)) int audit(struct session *s)
{
	free(s);
	return session_id(s);
}

int main(void)
{
	struct session *s = malloc(sizeof *s);
	s->id = 7;
	printf("audit: %d\n", audit(s));
	return 0;
}
