// Parsers and generators: Boost.Spirit X3 (an expression grammar into an
// AST, a key=value list into a map), Spirit Qi with semantic actions and
// Karma output.
#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/fusion/include/std_pair.hpp>
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <boost/spirit/include/karma.hpp>
#include <boost/spirit/include/qi.hpp>
#include <boost/phoenix.hpp>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "parts.h"

namespace ast {
namespace x3 = boost::spirit::x3;
struct signed_;
struct expression;
struct operand : x3::variant<double, x3::forward_ast<signed_>, x3::forward_ast<expression>> {
	using base_type::base_type;
	using base_type::operator=;
};
struct signed_ {
	char sign;
	operand operand_;
};
struct operation {
	char operator_;
	operand operand_;
};
struct expression {
	operand first;
	std::list<operation> rest;
};
} // namespace ast

BOOST_FUSION_ADAPT_STRUCT(ast::signed_, sign, operand_)
BOOST_FUSION_ADAPT_STRUCT(ast::operation, operator_, operand_)
BOOST_FUSION_ADAPT_STRUCT(ast::expression, first, rest)

namespace grammar {
namespace x3 = boost::spirit::x3;
x3::rule<class expression, ast::expression> const expression("expression");
x3::rule<class term, ast::expression> const term("term");
x3::rule<class factor, ast::operand> const factor("factor");
auto const expression_def = term >> *((x3::char_('+') >> term) | (x3::char_('-') >> term));
auto const term_def = factor >> *((x3::char_('*') >> factor) | (x3::char_('/') >> factor));
auto const factor_def = x3::double_ | '(' >> expression >> ')' | (x3::char_('-') >> factor) | (x3::char_('+') >> factor);
BOOST_SPIRIT_DEFINE(expression, term, factor)

auto const key = x3::rule<class key, std::string>{"key"} = x3::lexeme[x3::alpha >> *(x3::alnum | x3::char_('_'))];
auto const pair = key >> '=' >> x3::int_;
auto const pairs = pair % ',';
} // namespace grammar

namespace {

struct evaluator {
	double operator()(double d) const { return d; }
	double operator()(const ast::signed_ &s) const
	{
		double v = boost::apply_visitor(*this, s.operand_);
		return s.sign == '-' ? -v : v;
	}
	double operator()(const ast::operation &op, double lhs) const
	{
		double rhs = boost::apply_visitor(*this, op.operand_);
		switch (op.operator_) {
		case '+': return lhs + rhs;
		case '-': return lhs - rhs;
		case '*': return lhs * rhs;
		case '/': return rhs != 0 ? lhs / rhs : 0;
		}
		return 0;
	}
	double operator()(const ast::expression &e) const
	{
		double v = boost::apply_visitor(*this, e.first);
		for (const auto &op : e.rest)
			v = (*this)(op, v);
		return v;
	}
};

double eval_x3(const std::string &text)
{
	ast::expression e;
	auto first = text.begin();
	bool ok = boost::spirit::x3::phrase_parse(first, text.end(), grammar::expression, boost::spirit::x3::space, e);
	return ok && first == text.end() ? evaluator()(e) : -1;
}

std::map<std::string, int> parse_pairs(const std::string &text)
{
	std::vector<std::pair<std::string, int>> v;
	auto first = text.begin();
	boost::spirit::x3::phrase_parse(first, text.end(), grammar::pairs, boost::spirit::x3::space, v);
	return {v.begin(), v.end()};
}

namespace qi = boost::spirit::qi;
namespace phx = boost::phoenix;

void divide_unless_zero(int &v, int d)
{
	if (d != 0)
		v /= d;
}

template <class It> struct calculator : qi::grammar<It, int(), qi::space_type> {
	calculator() : calculator::base_type(expr)
	{
		using qi::_1;
		using qi::_val;
		expr = term[_val = _1] >> *(('+' >> term[_val += _1]) | ('-' >> term[_val -= _1]));
		term = factor[_val = _1] >> *(('*' >> factor[_val *= _1]) | ('/' >> factor[phx::bind(divide_unless_zero, _val, _1)]));
		factor = qi::int_[_val = _1] | '(' >> expr[_val = _1] >> ')' | ('-' >> factor[_val = -_1]);
	}
	qi::rule<It, int(), qi::space_type> expr, term, factor;
};

int eval_qi(const std::string &text)
{
	calculator<std::string::const_iterator> calc;
	int result = 0;
	auto first = text.cbegin();
	qi::phrase_parse(first, text.cend(), calc, qi::space, result);
	return result;
}

std::string generate(const std::vector<double> &v, const std::map<std::string, int> &m)
{
	namespace karma = boost::spirit::karma;
	std::string out;
	std::back_insert_iterator<std::string> sink(out);
	karma::generate(sink, '[' << (karma::double_ % ", ") << ']', v);
	karma::generate(sink, *('{' << karma::string << ':' << karma::int_ << '}'), m);
	return out;
}

} // namespace

std::uint64_t run_parsers(int n)
{
	std::uint64_t h = 0;
	std::vector<double> values;
	std::string pairs;
	for (int i = 1; i <= n * 10; i++) {
		std::string e = "(" + std::to_string(i) + " + 3.5) * -" + std::to_string(i % 7 + 1) + " / (2 - " + std::to_string(i % 3) + ")";
		values.push_back(eval_x3(e));
		h = h * 31 + static_cast<std::uint64_t>(eval_qi(std::to_string(i) + " * (7 - " + std::to_string(i % 5) + ") + 11"));
		pairs += (i > 1 ? "," : "") + std::string("key_") + std::to_string(i % 17) + "=" + std::to_string(i);
	}
	auto m = parse_pairs(pairs);
	std::string out = generate(values, m);
	return h ^ out.size() ^ m.size() << 20;
}
