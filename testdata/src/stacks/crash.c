/* crash: a worker thread dereferences a null pointer while the main thread
 * waits in pthread_join; the gdb sessions of the parser's corpus run it. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct job { const char *name; char *out; };

static size_t measure(const char *s) { return strlen(s); }

static void *run_job(void *arg)
{
	struct job *j = arg;
	size_t n = measure(j->name);
	j->out[n] = 0; /* out is NULL */
	return NULL;
}

int main(void)
{
	struct job j = { "index", NULL };
	pthread_t t;
	printf("starting job %s\n", j.name);
	fflush(stdout);
	pthread_create(&t, NULL, run_job, &j);
	pthread_join(t, NULL);
	return 0;
}
