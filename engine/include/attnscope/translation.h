#pragma once
// Plain C++ results of the engine, safe to use from files that include Qt.
#include <string>
#include <vector>

namespace attnscope {

/// What becomes of the unknown-word token ("<unk>") in a translation.
enum class UnknownWords {
  // Replaced by the unknown source word (one the source vocabulary lacks) that its attention
  // row weighs most, as typed (Luong et al. 2015), when it is a name or number (not written in
  // lowercase). Kept when there is none, when it is a lowercase word, or when it has less than
  // CopyRule::min_attention: copying an English word, known or rare, put English
  // into the translation (see copy_unknown_words).
  kCopy,
  kKeep,  // left as the model emitted it
};

/// The default of CopyRule::min_attention, chosen on the validation set.
inline constexpr float kMinCopyAttention = 0.05f;

/// Which source word replaces an output "<unk>" (UnknownWords::kCopy).
struct CopyRule {
  // The least weight the word needs in the step's attention row (docs/unknown-words.md says how
  // kMinCopyAttention was measured).
  float min_attention = kMinCopyAttention;
  // The rule of attnscope 0.9.0, for comparing (eval --copy-any): the source word the row weighs
  // most, known or not, in any case; the runner-up when the end token weighs most; no threshold.
  // It put English into the German wherever the model could not translate a word it knows.
  bool any_word = false;
};

struct TranslationOptions {
  int beam_size = 1;            // 1 = greedy search
  float length_penalty = 1.0f;  // beam score = log P / length^length_penalty (gnmt_alpha < 0)
  // GNMT's length penalty alpha >= 0: beam score = log P / ((5 + length) / 6)^alpha instead of
  // the line above (alpha 0: log P itself). Negative: not used, today's normalisation.
  float gnmt_alpha = -1.0f;
  // GNMT's coverage penalty beta: beam score + beta * sum_i log min(1, sum_t a_ti) (0: none).
  float coverage_penalty = 0.0f;
  // The beam rule of attnscope 0.9.0, for comparing (--any-ending): a hypothesis ends on any
  // "</s>" the step passes, not only on one among the step's K best candidates, and counts towards
  // the K endings that stop the search (which could then stop before its best hypotheses ended).
  bool any_ending = false;
  // Target token ids decoding resumes from (a BeamNode's path without the root, as in
  // BeamTree::path): forced first, then searched greedily or by beam. Empty: from the start.
  std::vector<int> prefix;
  float max_length_ratio = 2.0f;  // at most ratio * source tokens + max_length_extra outputs
  int max_length_extra = 10;
  UnknownWords unknown_words = UnknownWords::kCopy;
  CopyRule copy_rule;  // kCopy: which source word replaces "<unk>"
};

/// The attention of every layer and head at one output step, for models that have several
/// (TorchScript models; attnscope's own models have one and leave this empty).
struct HeadAttention {
  int layers = 0;
  int heads = 0;               // per layer
  int source_length = 0;       // values per row
  std::vector<float> weights;  // [layer][head][source], flattened

  bool empty() const { return weights.empty(); }
  /// One head's row; head < 0: the mean of the layer's heads.
  std::vector<float> row(int layer, int head) const;
};

/// Every layer's and head's self-attention of a translated or forced sentence, for models that
/// have it (Transformers: Translator::self_attention). Large (layers · heads · (S² + T²)
/// values), so it is made only when asked for.
struct SelfAttention {
  int layers = 0;
  int heads = 0;  // per layer
  // The encoder's: each source token (query, row) over the source tokens (key, column).
  int source_length = 0;
  std::vector<float> encoder;  // [layer][head][query][key], flattened
  // The decoder's, over its inputs: the start token, then each output token but the last. Row t
  // is the step that emitted output token t; it is zero right of column t (no step reads a
  // later position).
  int target_length = 0;
  std::vector<float> decoder;               // [layer][head][query][key], flattened
  std::vector<std::string> decoder_inputs;  // the start token, tokens[0] … tokens[T − 2]

  bool empty() const { return encoder.empty(); }
  /// One head's matrix, a row per query; head < 0: the mean of the layer's heads.
  std::vector<std::vector<float>> encoder_matrix(int layer, int head) const;
  std::vector<std::vector<float>> decoder_matrix(int layer, int head) const;
};

/// Which attention a view shows: the model's own (layer < 0), or one layer's head or the mean of
/// its heads (head < 0).
struct AttentionChoice {
  int layer = -1;
  int head = -1;
};

/// The source sentence as the model sees it.
struct SourceText {
  std::vector<std::string> tokens;  // the model's tokens; "</s>" last when the model appends it
  // Per token, as typed (case kept) for attnscope's tokenizer; a subword model's pieces as read.
  std::vector<std::string> typed;
  std::vector<bool> unknown;  // per token: not in the source vocabulary
  std::vector<std::string> unknown_words;
  bool truncated = false;   // the sentence was longer than the model's max_source_length
  int original_length = 0;  // tokens before truncation, without "</s>"
  int kept_length = 0;      // tokens after truncation, without "</s>"
};

/// An output "<unk>" replaced by an unknown source word (UnknownWords::kCopy).
struct CopiedWord {
  int target = 0;          // index into Translation::tokens
  int source = 0;          // index into SourceText::tokens
  float attention = 0.0f;  // the weight of that source word in the step's attention row
  // The source token the row weighs most, and its weight: a known word (or the end token) when
  // the copied word is not the row's peak.
  int peak = 0;
  float peak_attention = 0.0f;
};

/// An output "<unk>" that copying left as it is (UnknownWords::kCopy), and why.
struct KeptUnknown {
  enum class Reason {
    kNoUnknownWord,      // every source word is in the vocabulary: the model could not
                         // translate a word it knows
    kOnlyCommonWords,    // the unknown word the row weighs most is lowercase (English), no name
    kTooLittleAttention  // the unknown name the row weighs most has less than the threshold
  };
  int target = 0;  // index into Translation::tokens
  Reason reason = Reason::kNoUnknownWord;
  // The unknown source word the row weighs most among those the reason is about; -1 for
  // kNoUnknownWord.
  int source = -1;
  float attention = 0.0f;  // its weight (0 when source is -1)
  float threshold = 0.0f;  // the least weight copying needed
};

struct Translation {
  SourceText source;
  std::vector<std::string> tokens;   // output tokens; "</s>" last when decoding finished
  std::vector<float> probabilities;  // per output token
  // One row per output token, each row as long as source.tokens; every row sums to 1. For
  // models with several layers or heads: the mean of the last layer's heads. Empty for a model
  // without attention.
  std::vector<std::vector<float>> attention;
  // False for a model without attention (the `none` baseline): views say so instead of drawing.
  bool has_attention = true;
  // Empty, or one per output token: every layer's and head's attention.
  std::vector<HeadAttention> head_attention;
  float score = 0.0f;  // sum of log-probabilities (beam: divided by length^length_penalty)
  // How the model marks subword pieces ("▁" word start, "@@" continuation); empty for words.
  std::string subword_marker;
  std::string end_token = "</s>";       // the model's end-of-sentence token
  std::string unknown_token = "<unk>";  // the model's unknown-word token
  // The unknown tokens replaced by source words, in output order (empty with UnknownWords::kKeep),
  // and those copying left, with the reason.
  std::vector<CopiedWord> copied;
  std::vector<KeptUnknown> kept_unknown;

  /// The output words without the end token, pieces of a word joined.
  std::vector<std::string> words() const;
  /// words() joined by spaces.
  std::string text() const;
  /// The attention a view asks for: `attention`, or rows of head_attention.
  std::vector<std::vector<float>> attention_for(const AttentionChoice& choice) const;
  int layers() const { return head_attention.empty() ? 1 : head_attention.front().layers; }
  int heads() const { return head_attention.empty() ? 1 : head_attention.front().heads; }
};

/// One candidate a recorded beam search scored (Translator::translate_with_tree).
struct BeamNode {
  enum class State { kRoot, kKept, kPruned, kFinished };
  int id = 0;         // index into BeamTree::nodes
  int parent = -1;    // -1 for the root
  int step = 0;       // 0 for the root, then the output position from 1
  std::string token;  // the model's token ("<unk>" not copied); the root: the start token
  // The source word a translation through this node writes instead of "<unk>"
  // (UnknownWords::kCopy and its CopyRule, as translations copy); empty otherwise.
  std::string copied;
  int token_id = 0;
  float logp = 0.0f;   // log-probability of the token given its parent's hypothesis
  float score = 0.0f;  // cumulative log-probability: the parent's score plus logp
  // kKept: in the beam after this step; kPruned: scored, not kept; kFinished: ended ("</s>" or
  // the maximum length) and ranked by final_score.
  State state = State::kRoot;
  float final_score = 0.0f;  // kFinished only: the score after the length and coverage penalties
};

/// The search as it happened: at each step each live hypothesis's top-K next tokens.
struct BeamTree {
  int beam_size = 1;
  std::vector<BeamNode> nodes;  // nodes[0] is the root; parents come before their children
  std::vector<int> best;        // node ids of the chosen hypothesis, root first
  // Pruned candidates not stored: a tree keeps at most 200,000 nodes, kept and finished ones
  // always (K = 100 on a 100-word sentence would otherwise store ~2 million).
  long long dropped = 0;

  /// The token ids from the root (excluded) to `node`: TranslationOptions::prefix resumes there.
  std::vector<int> path(int node) const;
  static const char* state_name(BeamNode::State state);  // "root", "kept", "pruned", "finished"
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
  std::vector<float> attention;       // over source tokens, sums to 1; empty without attention
  HeadAttention heads;                // every layer and head, for models that have several
  float entropy = 0.0f;               // of the attention row, in nats
  bool forced = false;                // the token was chosen by the caller, not the argmax
};

/// Replaces every unknown token of `t` by the unknown source word (t.source.unknown) its
/// attention row weighs most, as typed, when that word is no lowercase word (is_lowercase_word:
/// a name or a number) and has at least rule.min_attention, and records it in t.copied;
/// otherwise keeps the unknown token and records why in t.kept_unknown. rule.any_word: the rule
/// of 0.9.0 instead (CopyRule). Rows use the model's own attention (for several heads: the mean
/// of the last layer's). A source without typed tokens (read from an attention file) has nothing
/// to copy. Does nothing when t has been through it already (t.copied or t.kept_unknown not
/// empty).
void copy_unknown_words(Translation& t, const CopyRule& rule = {});

/// Attention entropy −Σ a log a in nats (0 for a one-hot row, log n for a uniform one).
float attention_entropy(const std::vector<float>& row);

}  // namespace attnscope
