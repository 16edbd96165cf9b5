// The standard and Boost.Container containers over many element types:
// each (container, element) pair is its own set of instantiations.
#include <array>
#include <boost/container/flat_map.hpp>
#include <boost/container/flat_set.hpp>
#include <boost/container/small_vector.hpp>
#include <boost/container/stable_vector.hpp>
#include <boost/container/static_vector.hpp>
#include <chrono>
#include <complex>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "parts.h"

namespace {

struct Point {
	double x, y, z;
	bool operator<(const Point &o) const { return std::tie(x, y, z) < std::tie(o.x, o.y, o.z); }
	bool operator==(const Point &o) const { return x == o.x && y == o.y && z == o.z; }
};

struct Account {
	std::string owner;
	std::vector<long> history;
	std::optional<std::string> note;
	bool operator<(const Account &o) const { return owner < o.owner; }
	bool operator==(const Account &o) const { return owner == o.owner; }
};

// make<T>(i): a value of T that depends on i
template <class T> struct maker;
template <> struct maker<int> { static int make(int i) { return i * 31 % 1009; } };
template <> struct maker<long long> { static long long make(int i) { return 1LL * i * i * 7919; } };
template <> struct maker<unsigned char> { static unsigned char make(int i) { return static_cast<unsigned char>(i * 13); } };
template <> struct maker<double> { static double make(int i) { return i / 7.0; } };
template <> struct maker<std::string> { static std::string make(int i) { return "value-" + std::to_string(i * 17 % 97); } };
template <> struct maker<Point> { static Point make(int i) { return {i * 0.5, i * 1.5, -i * 0.25}; } };
template <> struct maker<Account> {
	static Account make(int i) { return {"owner" + std::to_string(i % 23), std::vector<long>(i % 5, i), i % 3 ? std::optional<std::string>("vip") : std::nullopt}; }
};
template <> struct maker<std::chrono::nanoseconds> { static std::chrono::nanoseconds make(int i) { return std::chrono::nanoseconds(i * 1000); } };
template <> struct maker<std::complex<double>> { static std::complex<double> make(int i) { return {i * 1.0, -i * 2.0}; } };
template <class A, class B> struct maker<std::pair<A, B>> { static std::pair<A, B> make(int i) { return {maker<A>::make(i), maker<B>::make(i + 1)}; } };
template <class... Ts> struct maker<std::tuple<Ts...>> { static std::tuple<Ts...> make(int i) { return {maker<Ts>::make(i)...}; } };
template <class T> struct maker<std::vector<T>> {
	static std::vector<T> make(int i)
	{
		std::vector<T> v;
		for (int k = 0; k < i % 4; k++)
			v.push_back(maker<T>::make(i + k));
		return v;
	}
};
template <class T> struct maker<std::optional<T>> { static std::optional<T> make(int i) { return i % 2 ? std::optional<T>(maker<T>::make(i)) : std::nullopt; } };

// digest(v): a number from any of those values
std::uint64_t digest(int v) { return static_cast<std::uint64_t>(v); }
std::uint64_t digest(long long v) { return static_cast<std::uint64_t>(v); }
std::uint64_t digest(long v) { return static_cast<std::uint64_t>(v); }
std::uint64_t digest(unsigned char v) { return v; }
std::uint64_t digest(double v) { return static_cast<std::uint64_t>(v * 1000); }
std::uint64_t digest(const std::string &s) { return std::hash<std::string>{}(s); }
std::uint64_t digest(const Point &p) { return digest(p.x) ^ digest(p.y) << 1 ^ digest(p.z) << 2; }
std::uint64_t digest(std::chrono::nanoseconds d) { return static_cast<std::uint64_t>(d.count()); }
std::uint64_t digest(const std::complex<double> &c) { return digest(c.real()) ^ digest(c.imag()); }
template <class T> std::uint64_t digest(const std::vector<T> &v);
template <class T> std::uint64_t digest(const std::optional<T> &o) { return o ? digest(*o) + 1 : 0; }
std::uint64_t digest(const Account &a) { return digest(a.owner) ^ digest(a.history) ^ digest(a.note); }
template <class A, class B> std::uint64_t digest(const std::pair<A, B> &p) { return digest(p.first) * 31 + digest(p.second); }
template <class... Ts> std::uint64_t digest(const std::tuple<Ts...> &t)
{
	return std::apply([](const auto &...x) { std::uint64_t h = 0; ((h = h * 131 + digest(x)), ...); return h; }, t);
}
template <class T> std::uint64_t digest(const std::vector<T> &v)
{
	std::uint64_t h = v.size();
	for (const auto &x : v)
		h = h * 31 + digest(x);
	return h;
}

template <class C> std::uint64_t sum_all(const C &c)
{
	std::uint64_t h = 0;
	for (const auto &x : c)
		h = h * 1315423911u + digest(x);
	return h;
}

template <class T> struct less_by_digest {
	bool operator()(const T &a, const T &b) const { return digest(a) < digest(b); }
};

template <class T> std::uint64_t exercise(int n)
{
	std::vector<T> vec;
	std::deque<T> dq;
	std::list<T> lst;
	boost::container::small_vector<T, 8> small;
	boost::container::stable_vector<T> stable;
	boost::container::static_vector<T, 64> fixed;
	std::map<std::string, T> by_name;
	std::unordered_map<int, T> by_id;
	std::multimap<int, T> multi;
	boost::container::flat_map<int, T> flat;
	std::set<T, less_by_digest<T>> ordered;
	boost::container::flat_set<T, less_by_digest<T>> flat_ordered;
	for (int i = 0; i < n; i++) {
		T v = maker<T>::make(i);
		vec.push_back(v);
		dq.push_front(v);
		lst.push_back(v);
		small.push_back(v);
		stable.push_back(v);
		if (fixed.size() < fixed.capacity())
			fixed.push_back(v);
		by_name.emplace("k" + std::to_string(i % 50), v);
		by_id[i % 64] = v;
		multi.emplace(i % 7, v);
		flat.emplace(i % 40, v);
		ordered.insert(v);
		flat_ordered.insert(v);
	}
	std::stable_sort(vec.begin(), vec.end(), less_by_digest<T>());
	lst.sort(less_by_digest<T>());
	dq.erase(dq.begin(), dq.begin() + static_cast<long>(dq.size() / 3));
	std::uint64_t h = sum_all(vec) ^ sum_all(dq) ^ sum_all(lst) ^ sum_all(small) ^ sum_all(stable) ^ sum_all(fixed);
	for (const auto &[k, v] : by_name)
		h += digest(k) ^ digest(v);
	for (const auto &[k, v] : by_id)
		h += static_cast<std::uint64_t>(k) * digest(v);
	for (const auto &[k, v] : multi)
		h ^= digest(v) + static_cast<std::uint64_t>(k);
	for (const auto &[k, v] : flat)
		h += digest(v) >> (k % 7);
	return h ^ sum_all(ordered) ^ sum_all(flat_ordered);
}

template <class... Ts> std::uint64_t exercise_all(int n) { return (exercise<Ts>(n) ^ ...); }

} // namespace

std::uint64_t run_containers(int n)
{
	int m = 50 + n;
	return exercise_all<int, long long, unsigned char, double, std::string, Point, Account, std::chrono::nanoseconds,
			    std::complex<double>, std::pair<int, std::string>, std::pair<std::string, Point>,
			    std::tuple<int, double, std::string>, std::tuple<Point, Account>, std::vector<int>,
			    std::vector<std::string>, std::optional<double>, std::optional<Account>>(m);
}
