// Trees and identifiers: Boost.PropertyTree written and read back as JSON,
// XML and INFO; UUIDs; CRCs; hex encoding.
#include <boost/algorithm/hex.hpp>
#include <boost/crc.hpp>
#include <boost/property_tree/info_parser.hpp>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <boost/uuid/name_generator.hpp>
#include <boost/uuid/uuid.hpp>
#include <boost/uuid/uuid_io.hpp>
#include <sstream>
#include <string>

#include "parts.h"

namespace {

namespace pt = boost::property_tree;

pt::ptree make_tree(int n)
{
	pt::ptree root;
	root.put("service.name", "bench");
	root.put("service.version", 3);
	for (int i = 0; i < n; i++) {
		pt::ptree item;
		item.put("id", i);
		item.put("weight", i * 0.25);
		item.put("label", "item-" + std::to_string(i));
		item.put("<xmlattr>.kind", i % 2 ? "odd" : "even");
		root.add_child("service.items.item", item);
	}
	return root;
}

std::uint64_t round_trips(int n)
{
	pt::ptree tree = make_tree(n);
	std::uint64_t h = 0;
	std::stringstream json, xml, info;
	pt::write_json(json, tree);
	pt::write_xml(xml, tree);
	pt::write_info(info, tree);
	pt::ptree a, b, c;
	pt::read_json(json, a);
	pt::read_xml(xml, b);
	pt::read_info(info, c);
	for (const auto &[key, child] : b.get_child("service.items"))
		h += child.get<int>("id", 0) + key.size();
	h += a.get<int>("service.version") + c.get_child("service.items").size();
	h ^= json.str().size() << 1 ^ xml.str().size() << 2 ^ info.str().size() << 3;
	return h;
}

std::uint64_t identifiers(int n)
{
	boost::uuids::name_generator_sha1 gen(boost::uuids::ns::url());
	boost::crc_32_type crc;
	std::uint64_t h = 0;
	for (int i = 0; i < n * 20; i++) {
		auto id = gen("https://example.org/items/" + std::to_string(i));
		std::string s = boost::uuids::to_string(id);
		crc.process_bytes(s.data(), s.size());
		std::string hex;
		boost::algorithm::hex(s.begin(), s.begin() + 8, std::back_inserter(hex));
		h += hex.size() + id.data[i % 16];
	}
	boost::crc_optimal<16, 0x1021, 0xFFFF, 0, false, false> ccitt;
	ccitt.process_bytes("benchmark", 9);
	return h ^ crc.checksum() ^ static_cast<std::uint64_t>(ccitt.checksum()) << 32;
}

} // namespace

std::uint64_t run_trees(int n) { return round_trips(20 + n) ^ identifiers(n); }
