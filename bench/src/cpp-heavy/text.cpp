// Text: std::regex and Boost.Xpressive (static and dynamic), string
// algorithms, tokenizers, formatting and conversions.
#include <boost/algorithm/string.hpp>
#include <boost/format.hpp>
#include <boost/lexical_cast.hpp>
#include <boost/tokenizer.hpp>
#include <boost/xpressive/xpressive.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "parts.h"

namespace {

std::string make_line(int i)
{
	return (boost::format("%05d | user%-3d | %s@example.org | GET /api/v%d/items/%d?q=%x | %.3f ms")
		% i % (i % 97) % ("name" + std::to_string(i % 13)) % (i % 3 + 1) % (i * 7) % (i * 2654435761u) % (i / 3.0))
		.str();
}

std::uint64_t with_std_regex(const std::vector<std::string> &lines)
{
	static const std::regex email(R"(([a-z0-9]+)@([a-z]+)\.(org|com))");
	static const std::regex path(R"(/api/v(\d)/items/(\d+)\?q=([0-9a-f]+))", std::regex::ECMAScript | std::regex::icase);
	std::uint64_t h = 0;
	for (const auto &l : lines) {
		std::smatch m;
		if (std::regex_search(l, m, email))
			h += m[1].length() * 3 + m[2].length();
		if (std::regex_search(l, m, path))
			h += std::stoul(m[2]) ^ std::stoul(m[3], nullptr, 16);
		h += std::regex_replace(l, std::regex("[0-9]"), "#").size();
	}
	return h;
}

std::uint64_t with_xpressive(const std::vector<std::string> &lines)
{
	using namespace boost::xpressive;
	sregex number = +_d;
	sregex user = as_xpr("user") >> (s1 = number);
	sregex timing = (s1 = +_d >> '.' >> repeat<3>(_d)) >> " ms";
	sregex dyn = sregex::compile("v(\\d)/items/(\\d+)");
	std::uint64_t h = 0;
	for (const auto &l : lines) {
		smatch what;
		if (regex_search(l, what, user))
			h += boost::lexical_cast<unsigned>(what[1]);
		if (regex_search(l, what, timing))
			h += static_cast<std::uint64_t>(boost::lexical_cast<double>(what[1]) * 10);
		if (regex_search(l, what, dyn))
			h ^= boost::lexical_cast<std::uint64_t>(what[2]) << 3;
		sregex_token_iterator cur(l.begin(), l.end(), number), end;
		for (; cur != end; ++cur)
			h += cur->length();
	}
	return h;
}

std::uint64_t with_algorithms(const std::vector<std::string> &lines)
{
	std::uint64_t h = 0;
	for (auto l : lines) {
		std::vector<std::string> fields;
		boost::split(fields, l, boost::is_any_of("|"), boost::token_compress_on);
		for (auto &f : fields) {
			boost::trim(f);
			boost::to_upper(f);
			if (boost::starts_with(f, "GET"))
				boost::replace_all(f, "/", "::");
			h += f.size();
		}
		boost::tokenizer<boost::char_separator<char>> tok(l, boost::char_separator<char>(" /?=|"));
		for (const auto &t : tok)
			h = h * 131 + t.size();
		h += boost::join(fields, ",").size();
		std::ostringstream os;
		os << boost::format("%1%-%2%") % fields.size() % boost::algorithm::to_lower_copy(fields.front());
		h ^= os.str().size();
	}
	return h;
}

} // namespace

std::uint64_t run_text(int n)
{
	std::vector<std::string> lines;
	for (int i = 0; i < n * 20; i++)
		lines.push_back(make_line(i));
	return with_std_regex(lines) ^ with_xpressive(lines) << 1 ^ with_algorithms(lines) << 2;
}
