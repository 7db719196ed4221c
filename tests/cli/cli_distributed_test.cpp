// attnscope-cli train across processes (c10d, Gloo) on 127.0.0.1: two ranks train what one
// process with two threads trains; a rank killed or stopped mid-run ends the other within the
// timeout, naming it; --resume then finishes with the model of an uninterrupted run; start-up
// faults give one line. The ranks' --timeout and the bounds on how fast a rank notices are
// multiplied by the test time scale (kTimeScale).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <iostream>

#include "cli/cli_process.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"

namespace attnscope {
namespace {

using namespace cli_test;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A port free now on 127.0.0.1; with `keep` the socket stays open and listening (a port in use).
int free_port(int* keep = nullptr) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bind(fd, reinterpret_cast<sockaddr*>(&address), length);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  if (keep) {
    listen(fd, 1);
    *keep = fd;
  } else {
    close(fd);
  }
  return ntohs(address.sin_port);
}

// `seconds` times the test time scale, whole (as --timeout takes it and the ranks print it back).
int scaled_seconds(double seconds) {
  return std::max(1, static_cast<int>(std::ceil(seconds * kTimeScale)));
}

// Rank 0 could not listen at its port: between free_port() closing it and rank 0 binding it,
// another program took it. Such a run proves nothing; it is run again at another port.
bool port_taken(const Outcome& rank0) {
  return rank0.err.find("cannot listen at") != std::string::npos &&
         rank0.err.find("in use") != std::string::npos;
}

// What the ranks of one group started by the test did.
struct GroupRun {
  Outcome rank0, rank1;
  double rank0_ended_at = -1.0;  // seconds after the start
  double event_at = -1.0;        // when rank 1 was killed or stopped; -1 when it was not
};
bool port_taken(const GroupRun& run) { return port_taken(run.rank0); }

// `run()` (which takes a free port itself, or has attnscope-cli take one), and again, up to five
// times in all, while rank 0 finds its port taken.
template <typename Run>
auto retry_if_port_taken(Run run) -> decltype(run()) {
  for (int attempt = 1;; ++attempt) {
    auto result = run();
    if (attempt == 5 || !port_taken(result)) return result;
    std::cerr << "note: another program took the port before rank 0 could listen; again\n";
  }
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The "epoch N: train loss X, valid loss Y" lines: the loss curve a run printed.
std::vector<std::string> loss_curve(const Outcome& r) {
  std::vector<std::string> curve;
  for (const auto& line : r.err_lines())
    if (line.rfind("epoch ", 0) == 0 && line.find(": train loss") != std::string::npos)
      curve.push_back(line.substr(0, line.find(", BLEU")));
  return curve;
}

void expect_same_weights(const std::string& a_path, const std::string& b_path) {
  const Checkpoint a = load_checkpoint(a_path), b = load_checkpoint(b_path);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].first, b.tensors[i].first);
    if (a.tensors[i].first == "optimizer") continue;  // serialised bytes, not comparable
    EXPECT_TRUE(torch::allclose(a.tensors[i].second, b.tensors[i].second, 1e-5, 1e-6))
        << a.tensors[i].first << " differs";
  }
}

class CliDistributed : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = testing::temporary_folder();
    train_ = testing::write_task_corpus(folder_, "train", testing::Task::kReverse, 800, 3);
    valid_ = testing::write_task_corpus(folder_, "valid", testing::Task::kReverse, 40, 4);
  }

  // The training command; a flag of `extra` that the defaults have replaces its value.
  std::vector<std::string> args(const std::string& out, std::vector<std::string> extra) const {
    std::vector<std::pair<std::string, std::string>> flags = {{"--src", train_ + ".src"},
                                                              {"--tgt", train_ + ".tgt"},
                                                              {"--val-src", valid_ + ".src"},
                                                              {"--val-tgt", valid_ + ".tgt"},
                                                              {"--score", "additive"},
                                                              {"--emb", "16"},
                                                              {"--hidden", "16"},
                                                              {"--batch", "16"},
                                                              {"--epochs", "3"},
                                                              {"--min-freq", "1"},
                                                              {"--dropout", "0.1"},
                                                              {"--patience", "10"},
                                                              {"--lr", "3e-3"},
                                                              {"--out", out}};
    std::vector<std::string> a = {"train"};
    for (size_t i = 0; i < extra.size(); ++i) {
      auto flag = std::find_if(flags.begin(), flags.end(),
                               [&](const auto& f) { return f.first == extra[i]; });
      if (flag != flags.end() && i + 1 < extra.size())
        flag->second = extra[++i];
      else
        a.push_back(extra[i]);
    }
    for (const auto& [flag, value] : flags) a.insert(a.end(), {flag, value});
    return a;
  }

  // Rank `rank` of two at `port`, one thread each.
  std::vector<std::string> rank_args(const std::string& out, int rank, int port,
                                     std::vector<std::string> extra = {}) const {
    extra.insert(extra.end(), {"--world-size", "2", "--rank", std::to_string(rank), "--master",
                               "127.0.0.1:" + std::to_string(port), "--threads", "1"});
    return args(out, extra);
  }

  std::string folder_, train_, valid_;
};

// One test, so the uninterrupted two-rank run serves both comparisons.
TEST_F(CliDistributed, TwoRanksTrainAsTwoThreadsDoAndResumeAfterALostRank) {
  const std::string threads = folder_ + "/threads.attnmodel", ranks = folder_ + "/ranks.attnmodel";
  const Outcome one = run_cli(args(threads, {"--threads", "2"}));
  expect_success(one);
  const Outcome two = retry_if_port_taken([&] {
    return run_cli(args(ranks, {"--local-processes", "2", "--threads", "1"}));
  });
  expect_success(two);
  EXPECT_EQ(loss_curve(one).size(), 3u) << one;
  EXPECT_EQ(loss_curve(one), loss_curve(two)) << one << two;
  EXPECT_EQ(two.out_lines().size(), 1u) << "rank 0 alone reports: " << two;
  expect_same_weights(threads + ".state", ranks + ".state");

  // Rank 1 killed once the first epoch's model is saved: rank 0 names it within the timeout.
  const std::string lost = folder_ + "/lost.attnmodel";
  const int timeout = scaled_seconds(10);
  const GroupRun run = retry_if_port_taken([&] {
    const int port = free_port();
    std::atomic<double> killed_at{-1.0};
    const auto start = Clock::now();
    auto rank1 = std::async(std::launch::async, [&] {
      RunOptions crash;
      crash.kill_when = [&] {
        if (!fs::exists(lost)) return false;
        killed_at = seconds_since(start);
        return true;
      };
      return run_cli(rank_args(lost, 1, port, {"--timeout", std::to_string(timeout)}), crash);
    });
    GroupRun group;
    group.rank0 = run_cli(rank_args(lost, 0, port, {"--timeout", std::to_string(timeout)}));
    group.rank0_ended_at = seconds_since(start);
    group.rank1 = rank1.get();
    group.event_at = killed_at;
    return group;
  });
  const Outcome& rank0 = run.rank0;
  ASSERT_EQ(run.rank1.signal, SIGKILL) << "rank 1 ended before it could be killed: " << run.rank1;
  expect_clean_error(rank0, {"rank 0 lost rank 1", "last complete epoch is", "--resume"});
  EXPECT_LT(run.rank0_ended_at - run.event_at, timeout) << rank0;

  // --resume on both ranks: the model of the uninterrupted run.
  const Outcome resumed = retry_if_port_taken([&] {
    return run_cli(args(lost, {"--local-processes", "2", "--threads", "1", "--resume"}));
  });
  expect_success(resumed);
  EXPECT_NE(resumed.err.find("resuming '" + lost + ".state' after epoch"), std::string::npos)
      << resumed;
  expect_same_weights(ranks + ".state", lost + ".state");
  expect_same_weights(ranks, lost);
}

TEST_F(CliDistributed, AStoppedRankEndsTheOtherWithinTheTimeout) {
  const std::string out = folder_ + "/hang.attnmodel";
  const int timeout = scaled_seconds(5);
  const std::vector<std::string> extra = {"--timeout", std::to_string(timeout), "--epochs", "20"};
  const GroupRun run = retry_if_port_taken([&] {
    const int port = free_port();
    std::atomic<double> stopped_at{-1.0};
    std::atomic<bool> rank0_done{false};
    const auto start = Clock::now();
    auto rank1 = std::async(std::launch::async, [&] {
      RunOptions hang;
      hang.stop_when = [&] {
        if (!fs::exists(out)) return false;
        stopped_at = seconds_since(start);
        return true;
      };
      hang.kill_when = [&] { return rank0_done.load(); };
      return run_cli(rank_args(out, 1, port, extra), hang);
    });
    GroupRun group;
    group.rank0 = run_cli(rank_args(out, 0, port, extra));
    group.rank0_ended_at = seconds_since(start);
    rank0_done = true;
    group.rank1 = rank1.get();
    group.event_at = stopped_at;
    return group;
  });
  const Outcome& rank0 = run.rank0;
  ASSERT_GE(run.event_at, 0.0) << rank0;
  expect_clean_error(rank0, {"rank 0 lost rank 1", "stopped answering"});
  EXPECT_LT(run.rank0_ended_at - run.event_at, timeout) << rank0;
}

TEST_F(CliDistributed, StartUpFaultsGiveOneLine) {
  const std::string out = folder_ + "/m.attnmodel";
  const std::string brief = std::to_string(scaled_seconds(2));
  int listening = -1;
  const int busy = free_port(&listening);
  expect_clean_error(run_cli(rank_args(out, 0, busy, {"--timeout", brief})),
                     {"rank 0 cannot listen at 127.0.0.1:" + std::to_string(busy), "in use"});
  close(listening);

  // Nobody at the master: rank 1 gives up after the timeout; rank 0 alone waits for rank 1.
  const int port = free_port();
  expect_clean_error(run_cli(rank_args(out, 1, port, {"--timeout", brief})),
                     {"rank 1 cannot reach the master at 127.0.0.1:" + std::to_string(port)});
  expect_clean_error(retry_if_port_taken([&] {
                       return run_cli(rank_args(out, 0, free_port(), {"--timeout", brief}));
                     }),
                     {"rank 1 did not join", "within " + brief + " s"});

  // Other settings on rank 1: both ranks stop, naming the setting.
  const std::string patient = std::to_string(scaled_seconds(20));
  const GroupRun other = retry_if_port_taken([&] {
    const int port = free_port();
    auto rank1 = std::async(std::launch::async, [&] {
      return run_cli(rank_args(out, 1, port, {"--timeout", patient, "--emb", "8"}));
    });
    GroupRun group;
    group.rank0 = run_cli(rank_args(out, 0, port, {"--timeout", patient}));
    group.rank1 = rank1.get();
    return group;
  });
  for (const Outcome& r : {other.rank0, other.rank1})
    expect_clean_error(r, {"rank 1 was started with other settings than rank 0", "embedding"});

  expect_clean_error(run_cli(rank_args(out, 2, port)), {"--rank", "between 0 and 1"});
  expect_clean_error(run_cli(args(out, {"--master", "nowhere"})), {"--master", "ADDRESS:PORT"});
  expect_clean_error(run_cli(args(out, {"--local-processes", "2", "--rank", "1"})),
                     {"--local-processes", "--rank"});
  // A bad setting is refused once, before any rank starts.
  const Outcome bad = run_cli(args(out, {"--local-processes", "2", "--epochs", "0"}));
  expect_clean_error(bad, {"--epochs", "at least 1"});
  EXPECT_EQ(bad.err_lines().size(), 1u) << bad;
}

}  // namespace
}  // namespace attnscope
