// Sum types: std::variant with overloaded visitors over many alternatives,
// a boost::variant expression tree with recursive wrappers, std::any and
// std::function tables.
#include <any>
#include <boost/variant.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parts.h"

namespace {

template <class... Fs> struct overloaded : Fs... {
	using Fs::operator()...;
};
template <class... Fs> overloaded(Fs...) -> overloaded<Fs...>;

struct Circle {
	double r;
};
struct Rect {
	double w, h;
};
struct Label {
	std::string text;
};
using shape = std::variant<int, double, std::string, Circle, Rect, Label, std::vector<int>, std::optional<long>, std::pair<int, int>>;

std::uint64_t visit_shapes(int n)
{
	std::vector<shape> shapes;
	for (int i = 0; i < n * 20; i++) {
		switch (i % 9) {
		case 0: shapes.emplace_back(i); break;
		case 1: shapes.emplace_back(i * 0.5); break;
		case 2: shapes.emplace_back(std::string(i % 13, 'x')); break;
		case 3: shapes.emplace_back(Circle{i * 1.0}); break;
		case 4: shapes.emplace_back(Rect{i * 1.0, 2.0}); break;
		case 5: shapes.emplace_back(Label{"label" + std::to_string(i)}); break;
		case 6: shapes.emplace_back(std::vector<int>(i % 5, i)); break;
		case 7: shapes.emplace_back(i % 2 ? std::optional<long>(i) : std::nullopt); break;
		default: shapes.emplace_back(std::make_pair(i, -i));
		}
	}
	auto measure = overloaded{
		[](int v) -> double { return v; },
		[](double v) { return v * 2; },
		[](const std::string &s) -> double { return s.size(); },
		[](const Circle &c) { return 3.14159 * c.r * c.r; },
		[](const Rect &r) { return r.w * r.h; },
		[](const Label &l) -> double { return l.text.size() * 10; },
		[](const std::vector<int> &v) -> double { return v.size(); },
		[](const std::optional<long> &o) -> double { return o.value_or(-1); },
		[](const std::pair<int, int> &p) -> double { return p.first - p.second; },
	};
	double total = 0;
	for (const auto &s : shapes)
		total += std::visit(measure, s);
	// two variants at once: every pair of alternatives is a case
	for (std::size_t i = 0; i + 1 < shapes.size(); i += 5)
		total += std::visit([&](const auto &a, const auto &b) { return measure(a) - measure(b); }, shapes[i], shapes[i + 1]);
	return static_cast<std::uint64_t>(total);
}

struct add;
struct mul;
struct neg;
using expr = boost::variant<double, boost::recursive_wrapper<add>, boost::recursive_wrapper<mul>, boost::recursive_wrapper<neg>>;
struct add {
	expr l, r;
};
struct mul {
	expr l, r;
};
struct neg {
	expr e;
};

struct eval : boost::static_visitor<double> {
	double operator()(double d) const { return d; }
	double operator()(const add &a) const { return boost::apply_visitor(*this, a.l) + boost::apply_visitor(*this, a.r); }
	double operator()(const mul &m) const { return boost::apply_visitor(*this, m.l) * boost::apply_visitor(*this, m.r); }
	double operator()(const neg &n) const { return -boost::apply_visitor(*this, n.e); }
};

expr build(int depth, int seed)
{
	if (depth == 0)
		return double(seed % 10);
	switch (seed % 3) {
	case 0: return add{build(depth - 1, seed * 7 + 1), build(depth - 1, seed * 3 + 2)};
	case 1: return mul{build(depth - 1, seed + 5), double(seed % 4)};
	}
	return neg{build(depth - 1, seed + 11)};
}

std::uint64_t dynamic(int n)
{
	std::map<std::string, std::function<std::any(const std::any &)>> table{
		{"twice", [](const std::any &a) { return std::any(std::any_cast<int>(a) * 2); }},
		{"name", [](const std::any &a) { return std::any("n" + std::to_string(std::any_cast<int>(a))); }},
		{"half", [](const std::any &a) { return std::any(std::any_cast<int>(a) / 2.0); }},
	};
	std::uint64_t h = 0;
	for (int i = 0; i < n * 20; i++) {
		for (auto &[name, f] : table) {
			std::any r = f(i);
			if (auto p = std::any_cast<int>(&r))
				h += *p;
			else if (auto s = std::any_cast<std::string>(&r))
				h += s->size();
			else
				h += static_cast<std::uint64_t>(std::any_cast<double>(r));
		}
	}
	return h;
}

} // namespace

std::uint64_t run_variants(int n)
{
	double trees = 0;
	for (int i = 0; i < n; i++)
		trees += boost::apply_visitor(eval(), build(8, i));
	return visit_shapes(n) ^ dynamic(n) ^ static_cast<std::uint64_t>(trees);
}
