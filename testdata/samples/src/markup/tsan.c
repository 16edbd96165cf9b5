/* ThreadSanitizer: two threads update a counter without a lock. */
#include <pthread.h>
#include <stdio.h>

static int counter;

__attribute__((noinline)) static void bump(void)
{
	counter++;
}

static void *worker(void *arg)
{
	(void)arg;
	bump();
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	bump();
	pthread_join(t, NULL);
	printf("%d\n", counter);
	return 0;
}
