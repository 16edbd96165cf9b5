// Graphs: Boost.Graph adjacency lists with bundled properties; shortest
// paths, searches, components, spanning trees and a topological order.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/kruskal_min_spanning_tree.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <string>
#include <vector>

#include "parts.h"

namespace {

struct city {
	std::string name;
	int population;
};
struct road {
	double length;
	int lanes;
};
using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, city, road>;
using digraph = boost::adjacency_list<boost::listS, boost::vecS, boost::directedS, boost::no_property,
				      boost::property<boost::edge_weight_t, int>>;

struct counting_visitor : boost::default_bfs_visitor {
	std::uint64_t *seen;
	template <class V, class G> void discover_vertex(V, const G &) { ++*seen; }
};

std::uint64_t roads(int n)
{
	graph g;
	std::vector<graph::vertex_descriptor> vs;
	for (int i = 0; i < n; i++)
		vs.push_back(boost::add_vertex(city{"city" + std::to_string(i), 1000 * (i % 17)}, g));
	for (int i = 0; i < n; i++) {
		boost::add_edge(vs[i], vs[(i + 1) % n], road{1.0 + i % 7, 1 + i % 3}, g);
		boost::add_edge(vs[i], vs[(i * 7 + 3) % n], road{5.0 + i % 11, 2}, g);
	}
	std::vector<double> dist(boost::num_vertices(g));
	std::vector<graph::vertex_descriptor> pred(boost::num_vertices(g));
	boost::dijkstra_shortest_paths(g, vs[0],
				       boost::weight_map(boost::get(&road::length, g))
					       .distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
					       .predecessor_map(boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, g))));
	std::uint64_t seen = 0;
	counting_visitor vis;
	vis.seen = &seen;
	boost::breadth_first_search(g, vs[n / 2], boost::visitor(vis));
	std::vector<int> comp(boost::num_vertices(g));
	int ncomp = boost::connected_components(g, comp.data());
	std::vector<graph::edge_descriptor> tree;
	boost::kruskal_minimum_spanning_tree(g, std::back_inserter(tree), boost::weight_map(boost::get(&road::length, g)));
	double total = 0;
	for (auto d : dist)
		total += d;
	for (auto e : tree)
		total += g[e].length * g[e].lanes;
	return static_cast<std::uint64_t>(total) ^ seen << 16 ^ static_cast<std::uint64_t>(ncomp) << 32;
}

std::uint64_t dag(int n)
{
	digraph g(n);
	for (int i = 0; i + 1 < n; i++) {
		boost::add_edge(i, i + 1, i % 5, g);
		if (i + 7 < n)
			boost::add_edge(i, i + 7, 3, g);
	}
	std::vector<digraph::vertex_descriptor> order;
	boost::topological_sort(g, std::back_inserter(order));
	std::vector<int> comp(boost::num_vertices(g));
	int scc = boost::strong_components(g, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
	std::uint64_t h = static_cast<std::uint64_t>(scc);
	for (auto v : order)
		h = h * 31 + v;
	return h;
}

} // namespace

std::uint64_t run_graph(int n) { return roads(50 + n * 5) ^ dag(100 + n * 5) << 3; }
