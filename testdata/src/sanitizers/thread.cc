// thread.cc: a std::thread started with a lambda (clang names its type
// main::$_0; std::thread's constructor template then has an empty
// parameter pack, "JE"), racing on a counter with main. Built with each
// clang 14 sanitizer runtime (testdata/sanitizers/Makefile): the
// interceptors' aliases (pthread_create and __interceptor_pthread_create
// at one address) and the inlined std::thread frames are what its
// fixtures are for. Under ThreadSanitizer it reports the race.
#include <cstdio>
#include <thread>

static int counter;

int main(int argc, char **argv) {
	std::thread t([&] { counter += argc; });
	counter++;
	t.join();
	std::printf("%d %s\n", counter, argv[0] ? "ok" : "");
	return 0;
}
