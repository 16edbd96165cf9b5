/* A multi-threaded program that crashes inside a signal handler, for
 * sanitrace core's fixtures and live tests. Two workers block in read() on
 * a pipe; one of them first sends SIGUSR1 to the main thread, which spins
 * in spin_wait(). The handler's call chain dereferences NULL, so the
 * crashing thread's stack runs handler frames, the signal trampoline
 * (__restore_rt) and the interrupted frame. The signaller waits until the
 * waiter sleeps in read() (its state in /proc), so that a loaded machine
 * cannot catch the waiter still starting up at clone3 when the core is
 * written. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fds[2];
static pthread_t main_thread;
static volatile int ready;
static volatile pid_t waiter_tid;
struct record { int kind; int value; };
static struct record *volatile current;
volatile int sink; /* keeps the handler's calls from being optimized away */

__attribute__((noinline)) static int inspect(struct record *r, int depth)
{
	return r->kind + depth; /* r is NULL: SIGSEGV */
}

__attribute__((noinline)) static int dispatch(int signo)
{
	return inspect(current, signo) + 1;
}

static void on_usr1(int signo, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	sink = dispatch(signo);
}

__attribute__((noinline)) static unsigned long spin_wait(unsigned long seed)
{
	while (1) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		if (seed == 0)
			break;
	}
	return seed;
}

__attribute__((noinline)) static void block_on_pipe(void)
{
	char c;
	while (read(fds[0], &c, 1) < 0)
		;
}

static void *waiter(void *arg)
{
	(void)arg;
	waiter_tid = (pid_t)syscall(SYS_gettid);
	block_on_pipe();
	return NULL;
}

/* sleeping reports whether thread tid is in an interruptible sleep (the
 * state letter after the command name in /proc/self/task/TID/stat). */
static int sleeping(pid_t tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' && p[2] == 'S';
}

static void *signaller(void *arg)
{
	(void)arg;
	while (!ready || waiter_tid == 0 || !sleeping(waiter_tid))
		usleep(1000);
	usleep(20000);
	pthread_kill(main_thread, SIGUSR1);
	block_on_pipe();
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	pthread_attr_t attr;
	pthread_t t1, t2;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	if (pipe(fds) != 0)
		return 1;
	main_thread = pthread_self();
	/* Small stacks keep the core small: gcore writes them whole. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_create(&t1, &attr, waiter, NULL);
	pthread_create(&t2, &attr, signaller, NULL);
	ready = 1;
	printf("%lu\n", spin_wait(1));
	return 0;
}
