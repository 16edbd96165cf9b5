/* A data race whose earlier access lies far back in the writer's history:
 * the writer stores to `shared`, then makes many calls before the main
 * thread reads it without synchronisation. A ThreadSanitizer runtime with
 * a bounded trace (history_size) can no longer restore the writer's
 * stack and prints "[failed to restore the stack]". */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int shared;
static volatile int sink[64];

__attribute__((noinline)) static void churn(int i)
{
	sink[i % 64] += i;
}

static void *writer(void *arg)
{
	(void)arg;
	shared = 42;
	for (int i = 0; i < 2000000; i++)
		churn(i);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	sleep(2);
	printf("%d\n", shared);
	pthread_join(t, NULL);
	return 0;
}
