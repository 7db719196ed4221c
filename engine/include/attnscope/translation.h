#pragma once
// Plain C++ results of the engine, safe to use from files that include Qt.
#include <string>
#include <vector>

namespace attnscope {

struct TranslationOptions {
  int beam_size = 1;              // 1 = greedy search
  float length_penalty = 1.0f;    // beam score = log P / length^length_penalty
  float max_length_ratio = 2.0f;  // at most ratio * source tokens + max_length_extra outputs
  int max_length_extra = 10;
};

/// The source sentence as the model sees it.
struct SourceText {
  std::vector<std::string> tokens;  // lowercased tokens, "</s>" last
  std::vector<bool> unknown;        // per token: not in the source vocabulary
  std::vector<std::string> unknown_words;
  bool truncated = false;   // the sentence was longer than the model's max_source_length
  int original_length = 0;  // tokens before truncation, without "</s>"
};

struct Translation {
  SourceText source;
  std::vector<std::string> tokens;   // output tokens; "</s>" last when decoding finished
  std::vector<float> probabilities;  // per output token
  // One row per output token, each row as long as source.tokens; every row sums to 1.
  std::vector<std::vector<float>> attention;
  float score = 0.0f;  // sum of log-probabilities (beam: divided by length^length_penalty)

  /// The output tokens without "</s>".
  std::vector<std::string> words() const;
  /// words() joined by spaces.
  std::string text() const;
};

struct Candidate {
  std::string token;
  int id = 0;
  float probability = 0.0f;
};

/// One decoding step of a DecodingSession.
struct Step {
  std::string token;  // the token emitted at this step
  int id = 0;
  float probability = 0.0f;           // of the emitted token
  std::vector<Candidate> candidates;  // the top-k tokens at this step, most probable first
  std::vector<float> attention;       // over source tokens, sums to 1
  float entropy = 0.0f;               // of the attention row, in nats
  bool forced = false;                // the token was chosen by the caller, not the argmax
};

/// Attention entropy −Σ a log a in nats (0 for a one-hot row, log n for a uniform one).
float attention_entropy(const std::vector<float>& row);

}  // namespace attnscope
