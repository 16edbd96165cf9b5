// other.c, compiled without -g. step has a namesake in helper.c.
static int __attribute__((noinline)) step(int x) { return x ^ 5; }
int __attribute__((noinline)) other_mix(int x) { return step(x) + step(x + 1); }
