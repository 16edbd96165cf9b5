// C++ fixture: templates, lambdas, namespaces, an anonymous namespace,
// std::vector, virtual calls and an exception path the compiler moves to a
// .cold section at -O2.
#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace geo {

template <typename T, int N>
struct Vec {
	T v[N];
	T dot(const Vec &o) const
	{
		T s = T();
		for (int i = 0; i < N; i++)
			s += v[i] * o.v[i];
		return s;
	}
};

struct Shape {
	virtual ~Shape() = default;
	virtual double area() const = 0;
};

struct Rect : Shape {
	double w, h;
	Rect(double w, double h) : w(w), h(h) {}
	double area() const override { return w * h; }
};

} // namespace geo

namespace {

struct Widget {
	int id;
	int twice(int k) const { return id * 2 + k; }
};

__attribute__((noinline)) int checked(int x)
{
	if (x < 0)
		throw std::invalid_argument("negative: " + std::to_string(x));
	return x + 1;
}

} // namespace

template <typename C, typename F>
__attribute__((noinline)) long sum_by(const C &c, F f)
{
	long s = 0;
	for (const auto &e : c)
		s += f(e);
	return s;
}

int main(int argc, char **)
{
	std::vector<int> xs;
	for (int i = 0; i < 10 + argc; i++)
		xs.push_back(i * 3);
	std::sort(xs.begin(), xs.end(), [](int a, int b) { return a > b; });
	Widget w{argc};
	long s = sum_by(xs, [&w](int e) { return w.twice(e); });
	geo::Vec<double, 3> a{{1, 2, 3}}, b{{4, 5, 6}};
	geo::Rect r(2, 3);
	const geo::Shape &sh = r;
	std::map<std::string, int> m{{"a", 1}, {"b", 2}};
	try {
		s += checked(argc - 2);
	} catch (const std::exception &e) {
		std::printf("%s\n", e.what());
	}
	std::printf("%ld %f %f %zu\n", s, a.dot(b), sh.area(), m.size());
	return 0;
}
