// C++ fixture with heavy standard-library inlining (vectors, maps, strings,
// lambdas, algorithms) for the GNU face: at -O1..-O3 clang inlines
// push_back, _M_realloc_insert, map lookups and string building into the
// user functions, so addr2line -i prints long chains. A thread_local
// counter gives the symbol table an STT_TLS symbol.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

thread_local int tls_calls;
thread_local long tls_total = 7;

namespace inv {

struct Item {
	std::string name;
	int qty;
	double price;
};

class Store {
public:
	void add(const std::string &name, int qty, double price)
	{
		tls_calls++;
		items_.push_back({name, qty, price});
		index_[name] = items_.size() - 1;
	}

	double value() const
	{
		return std::accumulate(items_.begin(), items_.end(), 0.0,
				       [](double acc, const Item &it) { return acc + it.qty * it.price; });
	}

	std::vector<std::string> names_sorted() const
	{
		std::vector<std::string> out;
		for (const auto &kv : index_)
			out.push_back(kv.first);
		std::sort(out.begin(), out.end(), [](const std::string &a, const std::string &b) {
			return a.size() != b.size() ? a.size() < b.size() : a < b;
		});
		return out;
	}

	int qty_of(const std::string &name) const
	{
		auto it = index_.find(name);
		return it == index_.end() ? -1 : items_[it->second].qty;
	}

private:
	std::vector<Item> items_;
	std::map<std::string, size_t> index_;
};

} // namespace inv

template <typename F>
static std::vector<int> collect(int n, F f)
{
	std::vector<int> v;
	for (int i = 0; i < n; i++)
		v.push_back(f(i));
	return v;
}

static std::unordered_map<std::string, int> word_counts(const std::string &text)
{
	std::unordered_map<std::string, int> counts;
	std::string word;
	for (char c : text) {
		if (c == ' ') {
			if (!word.empty())
				counts[word]++;
			word.clear();
		} else {
			word += c;
		}
	}
	if (!word.empty())
		counts[word]++;
	return counts;
}

static std::string join(const std::vector<std::string> &parts, const std::string &sep)
{
	std::string out;
	for (size_t i = 0; i < parts.size(); i++) {
		if (i)
			out += sep;
		out += parts[i];
	}
	return out;
}

int main(int argc, char **argv)
{
	inv::Store store;
	store.add("apple", 3, 0.5);
	store.add("pear", argc, 0.75);
	store.add("banana-long-name", 12, 0.25);
	auto sq = collect(argc + 8, [argc](int i) { return i * i + argc; });
	std::function<int(int)> twice = [&sq](int i) { return 2 * sq[i % sq.size()]; };
	auto counts = word_counts(argc > 1 ? argv[1] : "a b a c b a");
	std::vector<std::unique_ptr<std::string>> owned;
	for (const auto &kv : counts)
		owned.push_back(std::make_unique<std::string>(kv.first + "=" + std::to_string(kv.second)));
	std::vector<std::string> words;
	for (const auto &p : owned)
		words.push_back(*p);
	std::sort(words.begin(), words.end());
	tls_total += twice(3);
	std::printf("%.2f %s %d %d %s %ld %d\n", store.value(), join(store.names_sorted(), ",").c_str(),
		    store.qty_of("pear"), twice(argc), join(words, " ").c_str(), tls_total, tls_calls);
	return 0;
}
