// Geometry: Boost.Geometry polygons (set operations, buffers, distances)
// and an R-tree of boxes queried by intersection and nearest neighbours.
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "parts.h"

namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using point = bg::model::d2::point_xy<double>;
using polygon = bg::model::polygon<point>;
using multi_polygon = bg::model::multi_polygon<polygon>;
using box = bg::model::box<point>;
using linestring = bg::model::linestring<point>;

polygon star(double cx, double cy, double r, int spikes)
{
	polygon p;
	for (int i = 0; i <= 2 * spikes; i++) {
		double a = M_PI * i / spikes, rr = i % 2 ? r / 2 : r;
		bg::append(p.outer(), point(cx + rr * std::cos(a), cy + rr * std::sin(a)));
	}
	bg::correct(p);
	return p;
}

std::uint64_t polygons(int n)
{
	double area = 0, length = 0;
	for (int i = 0; i < n; i++) {
		polygon a = star(i, i * 0.5, 10 + i % 5, 5 + i % 4), b = star(i + 4, i * 0.5 + 3, 8, 6);
		multi_polygon u, x, d;
		bg::union_(a, b, u);
		bg::intersection(a, b, x);
		bg::difference(a, b, d);
		area += bg::area(u) + bg::area(x) - bg::area(d);
		linestring ls{{0, 0}, {double(i), double(i % 7)}, {double(i * 2), 3}};
		length += bg::length(ls) + bg::distance(point(i, -i), a);
		box env;
		bg::envelope(a, env);
		area += bg::within(point(i, i * 0.5), a) ? bg::area(env) : 0;
		polygon hull;
		bg::convex_hull(u, hull);
		length += bg::perimeter(hull);
	}
	return static_cast<std::uint64_t>(area * 100 + length);
}

std::uint64_t rtree(int n)
{
	using value = std::pair<box, unsigned>;
	bgi::rtree<value, bgi::rstar<16>> tree;
	for (unsigned i = 0; i < static_cast<unsigned>(n * 20); i++) {
		double x = (i * 37) % 1000, y = (i * 91) % 1000;
		tree.insert({box(point(x, y), point(x + 5 + i % 9, y + 5 + i % 11)), i});
	}
	std::uint64_t h = 0;
	for (int q = 0; q < n; q++) {
		std::vector<value> hits;
		box area(point(q * 10, q * 10), point(q * 10 + 100, q * 10 + 80));
		tree.query(bgi::intersects(area) && bgi::satisfies([](const value &v) { return v.second % 3 != 0; }), std::back_inserter(hits));
		tree.query(bgi::nearest(point(q * 3.5, 500), 5), std::back_inserter(hits));
		for (const auto &v : hits)
			h += v.second;
	}
	return h;
}

} // namespace

std::uint64_t run_geometry(int n) { return polygons(10 + n) ^ rtree(20 + n) << 12; }
