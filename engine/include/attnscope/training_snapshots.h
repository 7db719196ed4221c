#pragma once
// Snapshots of a model in training: every few batches the trainer decodes one probe sentence
// greedily and records its output and attention, so the forming alignment can be watched live
// (TrainObserver::snapshot) or later (`train --snapshots FILE`, one JSON object per line).
#include <cstdint>
#include <string>
#include <vector>

namespace attnscope {

struct TrainingSnapshot {
  int64_t batch = 0;                // batches trained so far in the whole run (1-based)
  int epoch = 0;                    // the epoch this batch belongs to (1-based)
  double loss = 0.0;                // running mean training loss per token of this epoch so far
  std::vector<std::string> source;  // the probe's tokens as the model reads them, "</s>" last
  std::vector<std::string> output;  // the greedy output's tokens, "</s>" last when it ended
  // One row per output token, one column per source token; rows sum to 1. Empty for a model
  // without attention (the `none` baseline).
  std::vector<std::vector<float>> attention;
  std::string subword_marker;  // "▁" when tokens are pieces or characters; "" for words
};

/// The snapshot as one line of JSON (no newline):
/// {"batch":120,"epoch":2,"loss":1.234,"source":[...],"output":[...],
///  "attention":[[...],...],"subword_marker":"▁"}
std::string snapshot_json_line(const TrainingSnapshot& snapshot);

/// Every snapshot of a JSON-lines file (blank lines skipped). Throws std::runtime_error naming
/// the file, the line and the problem: unreadable, not JSON, a field missing or of another
/// type, an attention matrix whose shape is not output × source, or a value that is not finite
/// or outside [0, 1]; and for a file holding no snapshot.
std::vector<TrainingSnapshot> read_snapshots(const std::string& path);

/// `count` snapshots spread evenly over `snapshots`, first and last included (all of them when
/// there are no more than `count`).
std::vector<TrainingSnapshot> pick_frames(const std::vector<TrainingSnapshot>& snapshots,
                                          size_t count);

}  // namespace attnscope
