/* Two threads increment a counter without a lock (Helgrind's "Possible
 * data race", DRD's "Conflicting load/store"), and take two locks in
 * opposite orders (Helgrind's lock order violation). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int counter;
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	(void)arg;
	counter++;
	usleep(200000); /* alive while the other one runs: DRD shows its stack */
	return NULL;
}

static void ab(void)
{
	pthread_mutex_lock(&a);
	pthread_mutex_lock(&b);
	pthread_mutex_unlock(&b);
	pthread_mutex_unlock(&a);
}

static void ba(void)
{
	pthread_mutex_lock(&b);
	pthread_mutex_lock(&a);
	pthread_mutex_unlock(&a);
	pthread_mutex_unlock(&b);
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	ab();
	ba();
	printf("counter %d\n", counter);
	return 0;
}
