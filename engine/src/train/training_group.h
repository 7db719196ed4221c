#pragma once
// Several processes training one model, on LibTorch's own c10d: a TCPStore hosted by rank 0 for
// the rendezvous and small messages, and ProcessGroupGloo for the gradients and the start state.
//
// Faults: every rank beats a heartbeat into the store twice a second from a thread of its own,
// with a connection of its own. A collective that fails (a peer's connection closed) or times out
// (a peer stopped), or a wait for rank 0 that sees rank 0 silent for the timeout, ends in one
// message naming the rank whose heartbeat stopped. No wait is without a deadline.
#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attnscope/trainer.h"

namespace attnscope {

class TrainingGroup {
 public:
  /// Joins the group: rank 0 listens at the master address and waits for the others, the others
  /// connect to it. Returns once every rank has joined with the same world size. Throws
  /// std::runtime_error with one line for a port in use, an unreachable master, a rank that did
  /// not join within the timeout, a rank started twice or another world size.
  explicit TrainingGroup(const DistributedOptions& options);
  ~TrainingGroup();
  TrainingGroup(const TrainingGroup&) = delete;
  TrainingGroup& operator=(const TrainingGroup&) = delete;

  int rank() const { return options_.rank; }
  int size() const { return options_.world_size; }
  bool leader() const { return options_.rank == 0; }

  /// What a message about a lost rank adds about resuming ("the last complete epoch is 3, ...").
  void set_resume_hint(std::string hint) { resume_hint_ = std::move(hint); }

  /// Compares every rank's `settings` (a JSON object) with rank 0's. Throws on every rank, with
  /// the same line, naming the first rank that differs and each setting that does. Returns
  /// every rank's `threads`, in rank order (ranks may have different numbers of cores).
  std::vector<int> check_same_settings(const nlohmann::json& settings, int threads);

  /// Returns once every rank has arrived at `name`, waiting as long as every rank's heartbeat
  /// goes on: before the first batch, so that the collectives' timeout never has to cover a
  /// rank's uneven preparation (its corpus split into pieces, say).
  void barrier(const std::string& name);

  /// Sums the parameters' gradients over all ranks (bucketed all-reduce, the buckets in flight
  /// together) and returns the sum of the ranks' `loss`. A parameter without a gradient on every
  /// rank keeps none. `*stop_anywhere`: some rank passed stop_here.
  double sum_gradients(const std::vector<torch::Tensor>& parameters, double loss, bool stop_here,
                       bool* stop_anywhere);

  /// True when every rank's parameters have the same checksum.
  bool same_weights(const std::vector<torch::Tensor>& parameters);
  /// Rank 0's parameters copied into every rank's.
  void copy_leader_weights(const std::vector<torch::Tensor>& parameters);

  /// Rank 0's `value`, posted under `key`, on every rank (the others pass anything). Rank 0 may
  /// take as long as it needs to get there: the others wait as long as its heartbeat goes on.
  /// Where rank 0 posted a failure instead (leader_failed), the others throw its message.
  nlohmann::json leader_value(const std::string& key, const nlohmann::json& value);
  /// Rank 0's `bytes` on every rank, sent by the process group; `key` as for leader_value.
  std::string leader_bytes(const std::string& key, const std::string& bytes);
  /// Rank 0 failed where the others wait for its value under `key`: posts `message` there and
  /// returns once they have read it (or the timeout passed), because the store, which rank 0
  /// hosts, ends with it. The caller then throws.
  void leader_failed(const std::string& key, const std::string& message);

  /// Waits until every rank has arrived here (the end of training), so that rank 0, which
  /// hosts the store, is the last to leave.
  void finish();

 private:
  class Heartbeat;
  struct Connection;

  void join(const std::string& master, std::chrono::milliseconds timeout);
  // Runs a call on the store or the process group; an exception from it ends in lost().
  template <typename Call>
  auto guarded(Call&& call) -> decltype(call());
  // Waits for `key` in the store while the rank `watched` is alive (heartbeat within the
  // timeout); `what` names the wait in the message when the key never comes.
  void wait_for_key(const std::string& key, int watched, const std::string& what);
  // Rank 0 waits until the counter `key` reaches `count` (the others have read something it
  // posted), at most the timeout: it is about to leave, and the store with it.
  void wait_for_readers(const std::string& key, int64_t count);
  // Ends a collective that threw: the message names the lost rank if the heartbeats tell.
  [[noreturn]] void lost(const std::string& detail);

  DistributedOptions options_;
  std::string master_;  // "ADDRESS:PORT", for messages
  std::string resume_hint_;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<Heartbeat> heartbeat_;
};

}  // namespace attnscope
