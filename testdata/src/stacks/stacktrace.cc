// stacktrace: boost::stacktrace printed from a failing check, the
// " 0# func at file:line" form (addr2line backend).
#include <boost/stacktrace.hpp>
#include <iostream>

namespace store {
struct Index {
	int lookup(int key) {
		if (key < 0) {
			std::cerr << "lookup: negative key " << key << "\n"
			          << boost::stacktrace::stacktrace();
			return -1;
		}
		return key;
	}
};
} // namespace store

static int query(store::Index &ix, int k) { return ix.lookup(k); }

int main()
{
	store::Index ix;
	return query(ix, -1) < 0 ? 1 : 0;
}
