// Indexes: Boost.MultiIndex containers with ordered, hashed, sequenced and
// random-access views, composite keys, and Boost.Bimap.
#include <boost/bimap.hpp>
#include <boost/bimap/multiset_of.hpp>
#include <boost/bimap/unordered_set_of.hpp>
#include <boost/multi_index/composite_key.hpp>
#include <boost/multi_index/hashed_index.hpp>
#include <boost/multi_index/mem_fun.hpp>
#include <boost/multi_index/member.hpp>
#include <boost/multi_index/ordered_index.hpp>
#include <boost/multi_index/random_access_index.hpp>
#include <boost/multi_index/sequenced_index.hpp>
#include <boost/multi_index_container.hpp>
#include <string>

#include "parts.h"

namespace {

struct employee {
	int id;
	std::string name;
	std::string team;
	int age;
	double salary;
	std::size_t name_length() const { return name.size(); }
};

namespace bmi = boost::multi_index;
struct by_id {};
struct by_name {};
struct by_team_age {};
struct by_email {};
struct in_order {};
struct by_rank {};

using staff = bmi::multi_index_container<
	employee,
	bmi::indexed_by<
		bmi::ordered_unique<bmi::tag<by_id>, bmi::member<employee, int, &employee::id>>,
		bmi::ordered_non_unique<bmi::tag<by_name>, bmi::member<employee, std::string, &employee::name>>,
		bmi::ordered_non_unique<bmi::tag<by_team_age>,
					bmi::composite_key<employee, bmi::member<employee, std::string, &employee::team>,
							   bmi::member<employee, int, &employee::age>>>,
		bmi::hashed_non_unique<bmi::tag<by_email>, bmi::const_mem_fun<employee, std::size_t, &employee::name_length>>,
		bmi::sequenced<bmi::tag<in_order>>, bmi::random_access<bmi::tag<by_rank>>>>;

std::uint64_t use_staff(int n)
{
	staff s;
	for (int i = 0; i < n; i++)
		s.insert(employee{i, "person" + std::to_string(i % 37), "team" + std::to_string(i % 5), 20 + i % 40, 1000.0 + i * 3.5});
	std::uint64_t h = 0;
	auto &names = s.get<by_name>();
	for (auto [lo, hi] = names.equal_range("person3"); lo != hi; ++lo)
		h += static_cast<std::uint64_t>(lo->id);
	auto &ta = s.get<by_team_age>();
	for (auto it = ta.lower_bound(boost::make_tuple("team2", 30)); it != ta.upper_bound(boost::make_tuple("team2", 45)); ++it)
		h ^= static_cast<std::uint64_t>(it->age) << 4;
	auto &ids = s.get<by_id>();
	for (int i = 0; i < n; i += 3) {
		auto it = ids.find(i);
		if (it != ids.end())
			ids.modify(it, [](employee &e) { e.salary *= 1.05; e.age++; });
	}
	auto &seq = s.get<in_order>();
	seq.sort([](const employee &a, const employee &b) { return a.salary > b.salary; });
	auto &rank = s.get<by_rank>();
	for (std::size_t i = 0; i < rank.size(); i += 7)
		h += static_cast<std::uint64_t>(rank[i].salary);
	h += s.get<by_email>().count(8);
	ids.erase(ids.lower_bound(n / 4), ids.lower_bound(n / 2));
	return h ^ s.size();
}

std::uint64_t use_bimap(int n)
{
	using bm = boost::bimap<boost::bimaps::unordered_set_of<std::string>, boost::bimaps::multiset_of<int>>;
	bm m;
	for (int i = 0; i < n; i++)
		m.insert(bm::value_type("key" + std::to_string(i), i % 50));
	std::uint64_t h = 0;
	for (auto [lo, hi] = m.right.equal_range(7); lo != hi; ++lo)
		h += lo->second.size();
	auto it = m.left.find("key42");
	if (it != m.left.end())
		h += static_cast<std::uint64_t>(it->second);
	return h;
}

} // namespace

std::uint64_t run_indexes(int n) { return use_staff(200 + n * 10) ^ use_bimap(100 + n) << 8; }
