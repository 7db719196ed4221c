#include "train/training_group.h"

#include <arpa/inet.h>
#include <glog/logging.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "attnscope/errors.h"

namespace attnscope {
namespace {

using Clock = std::chrono::steady_clock;

// Gradients travel in buckets of this size: large enough that a model's few big matrices go in
// few messages, small enough that the first bucket is on the wire while the last is copied.
constexpr int64_t kBucketBytes = 8 << 20;
// A heartbeat every half second; a rank silent for this long after a collective failed is lost.
constexpr auto kBeatInterval = std::chrono::milliseconds(500);
constexpr double kSilentAfterFailure = 2.5;
constexpr auto kPollInterval = std::chrono::milliseconds(50);

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// One line of an exception's text: c10's errors carry a backtrace after the first.
std::string text_of(const std::exception& e) {
  std::string text = e.what();
  if (const auto* c10_error = dynamic_cast<const c10::Error*>(&e))
    text = c10_error->what_without_backtrace();
  return text.substr(0, text.find('\n'));
}

std::vector<uint8_t> to_bytes(const std::string& text) { return {text.begin(), text.end()}; }
std::string from_bytes(const std::vector<uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }

std::string key(const std::string& name) { return "attnscope/" + name; }
std::string rank_key(const char* name, int rank) { return key(name) + "/" + std::to_string(rank); }

std::chrono::milliseconds milliseconds(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(seconds * 1000.0)));
}

// The address of this machine on the route to the master: the one Gloo should listen on, so
// that a machine whose name resolves to 127.0.1.1 (Debian's default) is still reachable.
// Connecting a UDP socket sends nothing; it only picks the route.
std::string local_address_towards(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found)
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot resolve the master address '", host, "'");
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in local{};
  socklen_t length = sizeof local;
  const bool ok = fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0;
  if (fd >= 0) close(fd);
  freeaddrinfo(found);
  if (!ok) ATTNSCOPE_THROW_RUNTIME_ERROR("no route from this machine to the master '", host, "'");
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &local.sin_addr, text, sizeof text);
  return text;
}

// Where Gloo listens: the address on the route to the master, except where the master's name
// resolves to this machine's loopback (rank 0 given its own host name, which Debian maps to
// 127.0.1.1): then the address of the default route, which the other machines can reach. A
// master given as 127.x or localhost means a group on this machine: loopback it is.
std::string gloo_address(const std::string& master, int port) {
  const std::string address = local_address_towards(master, port);
  const bool loopback = address.rfind("127.", 0) == 0;
  if (!loopback || master == "localhost" || master.rfind("127.", 0) == 0) return address;
  try {
    return local_address_towards("192.0.2.1", port);  // TEST-NET-1: only the route is looked up
  } catch (const std::runtime_error&) {
    return address;  // no default route: this machine is alone
  }
}

}  // namespace

struct TrainingGroup::Connection {
  c10::intrusive_ptr<c10d::TCPStore> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

// Beats this rank's heartbeat and watches the others', on a thread and a store connection of
// its own (a TCPStore client is not to be shared between threads).
class TrainingGroup::Heartbeat {
 public:
  Heartbeat(const DistributedOptions& options) : state_(std::make_shared<State>()) {
    state_->rank = options.rank;
    state_->last_seen.assign(static_cast<size_t>(options.world_size), Clock::now());
    state_->beats.assign(static_cast<size_t>(options.world_size), -1);
    c10d::TCPStoreOptions store_options;
    store_options.port = static_cast<uint16_t>(options.master_port);
    store_options.waitWorkers = false;
    store_options.timeout = milliseconds(options.timeout_seconds);
    thread_ = std::thread([state = state_, host = options.master_address, store_options] {
      run(*state, host, store_options);
    });
  }

  ~Heartbeat() {
    state_->stop = true;
    // A beat blocked on a stopped master returns only at the store's timeout: then the thread
    // is left to finish on its own (it shares the ownership of its state) rather than holding
    // up the exit.
    const auto deadline = Clock::now() + std::chrono::seconds(1);
    while (!state_->done && Clock::now() < deadline) std::this_thread::sleep_for(kPollInterval);
    if (state_->done)
      thread_.join();
    else
      thread_.detach();
  }

  // How long rank `rank` has not beaten (for rank 0: or its store not answered).
  double silence(int rank) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (rank == 0 && state_->in_call) return seconds(Clock::now() - state_->call_started);
    return seconds(Clock::now() - state_->last_seen[static_cast<size_t>(rank)]);
  }

  // The rank silent for at least `min_seconds` (the longest silent one), or -1.
  int silent_rank(double min_seconds) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    const auto now = Clock::now();
    const bool on_master = state_->rank == 0;
    // The store does not answer: its host, rank 0, stopped.
    if (!on_master && state_->in_call && seconds(now - state_->call_started) >= min_seconds)
      return 0;
    // The store is gone, and with it every heartbeat since: rank 0 ended, unless another rank
    // had fallen silent before (rank 0 ends when it finds a rank lost, too).
    const auto until = state_->store_lost ? state_->lost_at : now;
    const double threshold =
        state_->store_lost ? 2.0 * seconds(kBeatInterval) + seconds(kPollInterval) : min_seconds;
    int found = -1;
    double longest = threshold;
    for (size_t r = 1; r < state_->last_seen.size(); ++r) {
      const double silent = seconds(until - state_->last_seen[r]);
      if (static_cast<int>(r) != state_->rank && silent >= longest) {
        found = static_cast<int>(r);
        longest = silent;
      }
    }
    if (found >= 0 || on_master) return found;
    if (state_->store_lost) return 0;
    return seconds(now - state_->last_seen[0]) >= min_seconds ? 0 : -1;
  }

 private:
  struct State {
    std::mutex mutex;
    int rank = 0;
    std::vector<Clock::time_point> last_seen;
    std::vector<int64_t> beats;
    bool store_lost = false;
    Clock::time_point lost_at;
    bool in_call = false;
    Clock::time_point call_started;
    std::atomic<bool> stop{false}, done{false};
  };

  static void run(State& state, const std::string& host, const c10d::TCPStoreOptions& options) {
    try {
      c10d::TCPStore store(host, options);
      // A TCPStore client arms its socket's receive timeout in its first wait (LibTorch 1.13):
      // before that, a request to a stopped master would block for good.
      store.wait({key("master")});
      while (!state.stop) {
        {
          std::lock_guard<std::mutex> lock(state.mutex);
          state.in_call = true;
          state.call_started = Clock::now();
        }
        store.add(rank_key("alive", state.rank), 1);
        std::vector<int64_t> beats(state.beats.size());
        for (size_t r = 0; r < beats.size(); ++r)
          beats[r] = store.add(rank_key("alive", static_cast<int>(r)), 0);
        {
          std::lock_guard<std::mutex> lock(state.mutex);
          state.in_call = false;
          for (size_t r = 0; r < beats.size(); ++r)
            if (beats[r] != state.beats[r]) {
              state.beats[r] = beats[r];
              state.last_seen[r] = Clock::now();
            }
        }
        for (auto slept = Clock::duration::zero(); slept < kBeatInterval && !state.stop;
             slept += kPollInterval)
          std::this_thread::sleep_for(kPollInterval);
      }
    } catch (const std::exception&) {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.store_lost = true;
      state.in_call = false;
      state.lost_at = Clock::now();
    }
    state.done = true;
  }

  std::shared_ptr<State> state_;
  std::thread thread_;
};

TrainingGroup::TrainingGroup(const DistributedOptions& options)
    : options_(options),
      master_(error_message(options.master_address, ":", options.master_port)),
      connection_(std::make_unique<Connection>()) {
  // c10d logs each failed bind and connect attempt through glog to stderr; every failure that
  // matters reaches the user as this class's one-line message instead.
  FLAGS_minloglevel = google::GLOG_FATAL;
  const std::string& master = master_;
  const auto timeout = milliseconds(options.timeout_seconds);
  c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<uint16_t>(options.master_port);
  store_options.isServer = leader();
  store_options.waitWorkers = false;
  store_options.timeout = timeout;
  try {
    connection_->store = c10::make_intrusive<c10d::TCPStore>(options.master_address, store_options);
  } catch (const std::exception& e) {
    const std::string text = text_of(e);
    if (leader()) {
      if (text.find("in use") != std::string::npos)
        ATTNSCOPE_THROW_RUNTIME_ERROR("rank 0 cannot listen at ", master,
                                      ": the port is in use (another run or program); choose "
                                      "another port");
      ATTNSCOPE_THROW_RUNTIME_ERROR("rank 0 cannot listen at ", master, ": ", text);
    }
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), " cannot reach the master at ", master,
                                  " within ", options.timeout_seconds,
                                  " s (is rank 0 running there, and the address right?): ", text);
  }
  // Rank 0 marks its store as attnscope's; a client's first request is a wait for that mark,
  // which also arms its socket's timeout (LibTorch 1.13 sets it only in waits), so that nothing
  // blocks for good on a master that accepts connections but does not answer.
  try {
    if (leader())
      connection_->store->set(key("master"), to_bytes("1"));
    else
      connection_->store->wait({key("master")}, timeout);
  } catch (const std::exception& e) {
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), " reached ", master,
                                  ", but no attnscope rank 0 answered there within ",
                                  options.timeout_seconds, " s: ", text_of(e));
  }
  join(master, timeout);
  heartbeat_ = std::make_unique<Heartbeat>(options);
  const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
  const std::string address =
      interface && *interface ? "" : gloo_address(options.master_address, options.master_port);
  guarded([&] {
    // A collective gives up a little before the timeout, so that naming the rank that went
    // silent (at once by then: its heartbeat stopped as long ago) still ends within it.
    auto gloo =
        c10d::ProcessGroupGloo::Options::create(milliseconds(0.7 * options.timeout_seconds));
    // GLOO_SOCKET_IFNAME picks the network interface, as it does for torch.distributed.
    gloo->devices.push_back(address.empty()
                                ? c10d::ProcessGroupGloo::createDeviceForInterface(interface)
                                : c10d::ProcessGroupGloo::createDeviceForHostname(address));
    gloo->threads = 2;
    connection_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        c10::make_intrusive<c10d::PrefixStore>(key("gloo"), connection_->store), rank(), size(),
        gloo);
  });
}

// Each rank says its world size once; a second process with the same rank, another world size,
// or a rank that never comes are named instead of waited for.
void TrainingGroup::join(const std::string& master, std::chrono::milliseconds timeout) {
  c10d::Store& store = *connection_->store;
  if (guarded([&] { return store.add(rank_key("joined", rank()), 1); }) > 1)
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), ": another process already joined ", master,
                                  " as rank ", rank());
  guarded([&] { store.set(rank_key("world", rank()), to_bytes(std::to_string(size()))); });
  const auto deadline = Clock::now() + timeout;
  std::vector<int> missing;
  for (int r = 0; r < size(); ++r) {
    const std::string world_key = rank_key("world", r);
    while (!guarded([&] { return store.check({world_key}); }) && Clock::now() < deadline)
      std::this_thread::sleep_for(kPollInterval);
    if (!guarded([&] { return store.check({world_key}); })) {
      missing.push_back(r);
      continue;
    }
    const std::string world = guarded([&] { return from_bytes(store.get(world_key)); });
    if (world != std::to_string(size()))
      ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", r, " was started with world size ", world, ", rank ",
                                    rank(), " with ", size(),
                                    ": give every rank the same --world-size");
  }
  if (!missing.empty()) {
    std::string list;
    for (int r : missing) list += (list.empty() ? "" : ", ") + std::to_string(r);
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), ": rank", missing.size() > 1 ? "s " : " ", list,
                                  " did not join at ", master, " within ", options_.timeout_seconds,
                                  " s");
  }
}

template <typename Call>
auto TrainingGroup::guarded(Call&& call) -> decltype(call()) {
  if (!connection_) ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), ": the group was already lost");
  std::string failure;
  try {
    return call();
  } catch (const std::exception& e) {
    failure = text_of(e);
  }
  lost(failure);
}

TrainingGroup::~TrainingGroup() = default;

void TrainingGroup::lost(const std::string& detail) {
  int silent = -1;
  const auto deadline = Clock::now() + std::chrono::milliseconds(
                                           static_cast<int64_t>(1000 * kSilentAfterFailure) + 1500);
  while (heartbeat_ && (silent = heartbeat_->silent_rank(kSilentAfterFailure)) < 0 &&
         Clock::now() < deadline)
    std::this_thread::sleep_for(kPollInterval);
  // A failed collective may leave others queued behind it, each waiting out its own timeout in
  // the group's destructor: the connection is left behind, reachable, for the process's exit.
  static auto* abandoned = new std::vector<std::unique_ptr<Connection>>;
  abandoned->push_back(std::move(connection_));
  const std::string hint = resume_hint_.empty() ? "" : "; " + resume_hint_;
  if (silent < 0)
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), " lost contact with the group (", detail, ")",
                                  hint);
  const std::string who = silent == 0
                              ? error_message("rank 0 (the master at ", options_.master_address,
                                              ":", options_.master_port, ")")
                              : error_message("rank ", silent);
  ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), " lost ", who,
                                ": its process ended or stopped answering", hint);
}

void TrainingGroup::wait_for_key(const std::string& name, int watched, const std::string& what) {
  while (!guarded([&] { return connection_->store->check({name}); })) {
    if (heartbeat_->silence(watched) >= options_.timeout_seconds)
      lost(error_message("no sign of rank ", watched, " for ", options_.timeout_seconds,
                         " s while waiting for ", what));
    std::this_thread::sleep_for(kPollInterval);
  }
}

std::vector<int> TrainingGroup::check_same_settings(const nlohmann::json& settings, int threads) {
  const nlohmann::json mine = {{"settings", settings}, {"threads", threads}};
  guarded([&] { connection_->store->set(rank_key("settings", rank()), to_bytes(mine.dump())); });
  std::vector<nlohmann::json> all(static_cast<size_t>(size()));
  std::vector<int> all_threads;
  for (int r = 0; r < size(); ++r) {
    wait_for_key(rank_key("settings", r), r, error_message("rank ", r, "'s settings"));
    const std::string text =
        guarded([&] { return from_bytes(connection_->store->get(rank_key("settings", r))); });
    const nlohmann::json sent = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!sent.is_object() || !sent.contains("settings") || !sent["settings"].is_object() ||
        !sent.contains("threads") || !sent["threads"].is_number_integer() ||
        sent["threads"].get<int64_t>() < 1 || sent["threads"].get<int64_t>() > 1024)
      ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), ": rank ", r,
                                    " sent unreadable settings: is it another attnscope version?");
    all[static_cast<size_t>(r)] = sent["settings"];
    all_threads.push_back(sent["threads"].get<int>());
  }
  // Rank 0 hosts the store: it stays until every rank has read every rank's settings, so that
  // a mismatch ends each rank with the message below rather than with a lost master.
  guarded([&] { connection_->store->add(key("settings/read"), 1); });
  if (leader()) wait_for_readers(key("settings/read"), size());
  for (int r = 1; r < size(); ++r) {
    std::string differences;
    const auto& other = all[static_cast<size_t>(r)];
    for (const auto& [name, value] : all[0].items())
      if (!other.contains(name) || other.at(name) != value)
        differences +=
            error_message(differences.empty() ? "" : "; ", name, ": ", value.dump(), " at rank 0, ",
                          other.contains(name) ? other.at(name).dump() : "none", " at rank ", r);
    if (!differences.empty())
      ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", r, " was started with other settings than rank 0 (",
                                    differences, "): every rank needs the same corpus and options");
  }
  return all_threads;
}

void TrainingGroup::barrier(const std::string& name) {
  const std::string counter = key("barrier/" + name);
  guarded([&] { connection_->store->add(counter, 1); });
  while (guarded([&] { return connection_->store->add(counter, 0); }) < size()) {
    const int silent = heartbeat_->silent_rank(options_.timeout_seconds);
    if (silent >= 0)
      lost(error_message("no sign of rank ", silent, " for ", options_.timeout_seconds, " s"));
    std::this_thread::sleep_for(kPollInterval);
  }
}

void TrainingGroup::wait_for_readers(const std::string& counter, int64_t count) {
  const auto deadline = Clock::now() + milliseconds(options_.timeout_seconds);
  while (Clock::now() < deadline && heartbeat_->silent_rank(options_.timeout_seconds) < 0 &&
         guarded([&] { return connection_->store->add(counter, 0); }) < count)
    std::this_thread::sleep_for(kPollInterval);
}

double TrainingGroup::sum_gradients(const std::vector<torch::Tensor>& parameters, double loss,
                                    bool stop_here, bool* stop_anywhere) {
  torch::NoGradGuard no_grad;
  const auto count = static_cast<int64_t>(parameters.size());
  // The loss, the stop flag and which parameters have a gradient, summed exactly in doubles.
  torch::Tensor scalars = torch::zeros({count + 2}, torch::kDouble);
  double* scalar = scalars.data_ptr<double>();
  scalar[0] = loss;
  scalar[1] = stop_here ? 1.0 : 0.0;
  struct Bucket {
    int64_t begin, end;
    torch::Tensor flat;
  };
  std::vector<Bucket> buckets;
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  guarded([&] {
    for (int64_t begin = 0; begin < count;) {
      int64_t end = begin, elements = 0;
      do {
        elements += parameters[static_cast<size_t>(end++)].numel();
      } while (end < count &&
               (elements + parameters[static_cast<size_t>(end)].numel()) * 4 <= kBucketBytes);
      Bucket bucket{begin, end, torch::empty({elements}, torch::kFloat)};
      for (int64_t p = begin, offset = 0; p < end; ++p) {
        const torch::Tensor& parameter = parameters[static_cast<size_t>(p)];
        torch::Tensor slice = bucket.flat.narrow(0, offset, parameter.numel());
        if (const torch::Tensor& gradient = parameter.grad(); gradient.defined()) {
          slice.copy_(gradient.reshape(-1));
          scalar[2 + p] = 1.0;
        } else {
          slice.zero_();
        }
        offset += parameter.numel();
      }
      // Sent at once: this bucket is summed on the group's threads while the next is copied.
      std::vector<torch::Tensor> tensors{bucket.flat};
      works.push_back(connection_->group->allreduce(tensors));
      buckets.push_back(std::move(bucket));
      begin = end;
    }
    std::vector<torch::Tensor> tensors{scalars};
    works.push_back(connection_->group->allreduce(tensors));
    for (auto& work : works) work->wait();
  });
  for (const Bucket& bucket : buckets)
    for (int64_t p = bucket.begin, offset = 0; p < bucket.end; ++p) {
      torch::Tensor parameter = parameters[static_cast<size_t>(p)];
      parameter.mutable_grad() =
          scalar[2 + p] > 0 ? bucket.flat.narrow(0, offset, parameter.numel()).view_as(parameter)
                            : torch::Tensor();
      offset += parameter.numel();
    }
  *stop_anywhere = scalar[1] > 0;
  return scalar[0];
}

bool TrainingGroup::same_weights(const std::vector<torch::Tensor>& parameters) {
  torch::NoGradGuard no_grad;
  // Sums of the weights' bits as integers: exact and independent of the order of addition (so
  // of the CPU's vector width), unlike a floating-point sum. A second sum, weighted by the
  // parameter's place, catches most swaps. Unsigned, so that overflow wraps as defined.
  uint64_t plain = 0, weighted = 0;
  for (size_t p = 0; p < parameters.size(); ++p) {
    const torch::Tensor bits = parameters[p].detach().contiguous().view(torch::kInt);
    const auto sum = static_cast<uint64_t>(bits.sum(torch::kLong).item<int64_t>());
    plain += sum;
    weighted += (p + 1) * sum;
  }
  const auto as_signed = [](uint64_t value) {
    int64_t result;
    std::memcpy(&result, &value, sizeof result);
    return result;
  };
  torch::Tensor largest = torch::tensor({as_signed(plain), as_signed(weighted)}, torch::kLong);
  torch::Tensor smallest = largest.clone();
  guarded([&] {
    c10d::AllreduceOptions maximum, minimum;
    maximum.reduceOp = c10d::ReduceOp::MAX;
    minimum.reduceOp = c10d::ReduceOp::MIN;
    std::vector<torch::Tensor> high{largest}, low{smallest};
    connection_->group->allreduce(high, maximum)->wait();
    connection_->group->allreduce(low, minimum)->wait();
  });
  return torch::equal(largest, smallest);
}

void TrainingGroup::copy_leader_weights(const std::vector<torch::Tensor>& parameters) {
  torch::NoGradGuard no_grad;
  // One message for all of them.
  std::vector<torch::Tensor> views;
  for (const torch::Tensor& parameter : parameters) views.push_back(parameter.detach().reshape(-1));
  std::vector<torch::Tensor> flat{torch::cat(views)};
  guarded([&] { connection_->group->broadcast(flat)->wait(); });
  int64_t offset = 0;
  for (const torch::Tensor& parameter : parameters) {
    parameter.detach().copy_(flat[0].narrow(0, offset, parameter.numel()).view_as(parameter));
    offset += parameter.numel();
  }
}

std::string TrainingGroup::leader_bytes(const std::string& name, const std::string& bytes) {
  const nlohmann::json size_json = leader_value(name, static_cast<uint64_t>(bytes.size()));
  if (!size_json.is_number_unsigned())
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), ": rank 0 sent ", size_json.dump(),
                                  " as the size of '", name, "'");
  const auto length = size_json.get<int64_t>();
  torch::Tensor data = torch::empty({length}, torch::kByte);
  if (leader()) std::copy(bytes.begin(), bytes.end(), data.data_ptr<uint8_t>());
  guarded([&] {
    std::vector<torch::Tensor> tensors{data};
    connection_->group->broadcast(tensors)->wait();
  });
  const auto* begin = reinterpret_cast<const char*>(data.data_ptr<uint8_t>());
  return std::string(begin, begin + length);
}

nlohmann::json TrainingGroup::leader_value(const std::string& name, const nlohmann::json& value) {
  const std::string stored = key("leader/" + name);
  if (leader()) {
    guarded([&] { connection_->store->set(stored, to_bytes(value.dump())); });
    return value;
  }
  wait_for_key(stored, 0, "rank 0 (" + name + ")");
  const std::string text = guarded([&] { return from_bytes(connection_->store->get(stored)); });
  guarded([&] { connection_->store->add(stored + "/read", 1); });
  const nlohmann::json sent = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (sent.is_discarded())
    ATTNSCOPE_THROW_RUNTIME_ERROR("rank ", rank(), ": rank 0 sent an unreadable '", name, "'");
  if (sent.is_object() && sent.contains("failed") && sent["failed"].is_string())
    throw std::runtime_error(sent["failed"].get<std::string>());
  return sent;
}

void TrainingGroup::leader_failed(const std::string& name, const std::string& message) {
  const std::string stored = key("leader/" + name);
  guarded([&] {
    connection_->store->set(stored, to_bytes(nlohmann::json{{"failed", message}}.dump()));
  });
  wait_for_readers(stored + "/read", size() - 1);
}

void TrainingGroup::finish() {
  guarded([&] { connection_->store->add(key("finished"), 1); });
  if (!leader()) return;
  while (guarded([&] { return connection_->store->add(key("finished"), 0); }) < size()) {
    const int silent = heartbeat_->silent_rank(options_.timeout_seconds);
    if (silent >= 0) lost(error_message("rank ", silent, " did not finish"));
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace attnscope
