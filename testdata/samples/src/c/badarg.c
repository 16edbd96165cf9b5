/* A crash in a function whose pointer argument gdb cannot read: gdb's
 * frame line shows <error: Cannot access memory at address ...> among
 * the arguments. */
#include <stddef.h>

struct request {
	const char *name;
	int values[4];
};

__attribute__((noinline)) int sum_values(const struct request *req, const char *label, size_t count)
{
	int s = 0;
	for (size_t i = 0; i < count; i++)
		s += req->values[i] + label[0];
	return s;
}

__attribute__((noinline)) int dispatch(const struct request *req, const char *label)
{
	return sum_values(req, label, 4);
}

int main(void)
{
	return dispatch((const struct request *)0x10, (const char *)0x8);
}
