// C++: a vector read past its end through a template, and memory from new[]
// given to free() (Memcheck's "Mismatched free() / delete / delete []").
#include <cstdlib>
#include <cstdio>
#include <vector>

namespace store {
template <typename T>
struct Table {
	std::vector<T> rows;
	T at(std::size_t i) const { return rows.data()[i]; }
};
} // namespace store

int main()
{
	store::Table<long> t;
	t.rows.assign(3, 7);
	long v = t.at(3);
	int *p = new int[4];
	std::free(p);
	std::printf("%ld\n", v > 0 ? 1L : 0L);
	return 0;
}
