// Asynchronous work: Boost.Asio's io_context run by a thread pool,
// strands, timers, posted handlers and a local stream socket pair talking
// to itself with composed reads and writes.
#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "parts.h"

namespace {

namespace asio = boost::asio;

// echo: one side writes framed messages, the other reads and answers.
class echo : public std::enable_shared_from_this<echo> {
public:
	echo(asio::io_context &io, int rounds) : a_(io), b_(io), rounds_(rounds) { asio::local::connect_pair(a_, b_); }
	void start()
	{
		serve();
		send();
	}
	std::uint64_t total() const { return total_; }

private:
	void send()
	{
		if (sent_ == rounds_) {
			a_.shutdown(asio::socket_base::shutdown_send);
			return;
		}
		out_ = "message " + std::to_string(sent_++) + " of the benchmark\n";
		auto self = shared_from_this();
		asio::async_write(a_, asio::buffer(out_), [self](boost::system::error_code ec, std::size_t n) {
			if (!ec) {
				self->total_ += n;
				self->send();
			}
		});
	}
	void serve()
	{
		auto self = shared_from_this();
		asio::async_read_until(b_, in_, '\n', [self](boost::system::error_code ec, std::size_t n) {
			if (ec)
				return;
			std::istream is(&self->in_);
			std::string line;
			std::getline(is, line);
			self->total_ += n * 3 + line.size();
			self->serve();
		});
	}

	asio::local::stream_protocol::socket a_, b_;
	asio::streambuf in_;
	std::string out_;
	int rounds_, sent_ = 0;
	std::uint64_t total_ = 0;
};

std::uint64_t pool_work(int n)
{
	asio::thread_pool pool(2);
	auto strand = asio::make_strand(pool);
	std::atomic<std::uint64_t> sum{0};
	std::uint64_t serial = 0; // touched only on the strand
	for (int i = 0; i < n * 50; i++) {
		asio::post(pool, [&sum, i] { sum += static_cast<std::uint64_t>(i) * i; });
		asio::post(strand, [&serial, i] { serial = serial * 31 + static_cast<std::uint64_t>(i); });
	}
	std::promise<std::uint64_t> done;
	auto result = done.get_future();
	asio::post(strand, [&] { done.set_value(serial); });
	pool.join();
	return sum.load() ^ result.get();
}

std::uint64_t timers_and_sockets(int n)
{
	asio::io_context io;
	auto e = std::make_shared<echo>(io, n * 20);
	e->start();
	std::uint64_t fired = 0;
	std::vector<std::unique_ptr<asio::steady_timer>> timers;
	for (int i = 0; i < 16; i++) {
		timers.push_back(std::make_unique<asio::steady_timer>(io, std::chrono::microseconds(50 * i)));
		timers.back()->async_wait([&fired, i](boost::system::error_code ec) {
			if (!ec)
				fired += static_cast<std::uint64_t>(i);
		});
	}
	std::function<void(int)> chain = [&](int k) {
		if (k > 0)
			asio::post(io, [&chain, k] { chain(k - 1); });
	};
	chain(n * 10);
	io.run();
	return e->total() ^ fired << 20;
}

} // namespace

std::uint64_t run_async(int n) { return pool_work(n) ^ timers_and_sockets(n); }
