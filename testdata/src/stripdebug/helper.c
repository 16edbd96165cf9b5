// helper.c, compiled without -g. step has a namesake in other.c.
static int __attribute__((noinline)) step(int x) { return x + 7; }
static int __attribute__((noinline)) helper_local(int x) { return step(x) * 3; }
int __attribute__((noinline)) helper_add(int a, int b) { return helper_local(a) + b; }
