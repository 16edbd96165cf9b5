// A data race on a global between two threads. main writes after a pause,
// so the report always reads "main thread" then "previous write by T1"
// (the sleep is not synchronisation: TSan still sees the race).
#include <pthread.h>
#include <unistd.h>

int counter;

static void *bump(void *arg) {
	(void)arg;
	counter++;
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, bump, 0);
	usleep(200 * 1000);
	counter++;
	pthread_join(t, 0);
	return counter == 0;
}
