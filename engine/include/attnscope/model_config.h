#pragma once
#include <cstdint>
#include <string>

namespace attnscope {

/// The decoder's recurrence (ModelConfig::decoder).
/// "gru": one GRU fed [target embedding; context], attention queried with the previous state
/// (Bahdanau et al.). "cgru": the conditional GRU of Nematus (Sennrich et al. 2017): a first GRU
/// reads the target embedding, attention is queried with its state, and a second GRU reads the
/// context; the step's state is the second's.
constexpr char kGruDecoder[] = "gru";
constexpr char kConditionalGruDecoder[] = "cgru";

/// true for the names above.
inline bool is_decoder_kind(const std::string& name) {
  return name == kGruDecoder || name == kConditionalGruDecoder;
}

/// The model's architecture (ModelConfig::arch). "rnn": the recurrent encoder-decoder with one
/// attention (score, decoder, hidden, attention say which). "transformer": the Transformer of
/// Vaswani et al. (2017), multi-head scaled dot-product attention in every layer; its model size
/// is `embedding` (= hidden), and layers, heads and feed_forward give its shape.
constexpr char kRnnArch[] = "rnn";
constexpr char kTransformerArch[] = "transformer";

/// A Transformer's score function (ModelConfig::score): its attention is scaled dot-product.
constexpr char kTransformerScore[] = "scaled_dot";

/// true for the names above.
inline bool is_arch(const std::string& name) {
  return name == kRnnArch || name == kTransformerArch;
}

/// The shape of a model; stored in every checkpoint.
struct ModelConfig {
  std::string score = "additive";  // attention score function, see score_functions.h
  std::string source_language = "en";
  std::string target_language = "de";
  int64_t source_vocab = 0;  // sizes of the vocabularies, special tokens included
  int64_t target_vocab = 0;
  int64_t embedding = 192;  // word embedding size, source and target
  int64_t hidden = 256;     // decoder GRU size; each encoder direction has this size too
  int64_t attention = 256;  // inner size of the additive score function
  // true: output = tied target embeddingᵀ · tanh(readout([state; context; embedding])), which
  // keeps the shipped models small; false: one linear layer over [state; context; embedding],
  // the shape of the Python reference that bench/compare.sh times against.
  bool tied_readout = true;
  std::string decoder = kGruDecoder;  // see kGruDecoder; files without the key hold "gru"
  double dropout = 0.3;
  // true: text is read as written (text.h's split_as_written: case kept, punctuation attached)
  // and split by SentencePiece, so the output is cased, detokenised text ("Ein Hund rennt am
  // Strand."); subword models only. false (files without the key): tokenize()'s lowercase words.
  bool cased = false;
  int64_t max_source_length = 100;  // tokens incl. </s>; longer sentences are truncated
  // See kRnnArch; files without the key hold an RNN. The keys below are stored for a
  // Transformer only, and a Transformer's score is "scaled_dot" (the one it has).
  std::string arch = kRnnArch;
  int64_t layers = 3;          // Transformer: encoder layers, and as many decoder layers
  int64_t heads = 4;           // Transformer: attention heads per layer (divides embedding)
  int64_t feed_forward = 512;  // Transformer: inner size of each layer's feed-forward block
  // Transformer: one embedding table for source, target and output, when the two vocabularies
  // are the same (a joint SentencePiece model); otherwise source and target have their own
  // (the target's is the output layer's matrix either way).
  bool shared_embeddings = false;

  bool transformer() const { return arch == kTransformerArch; }
};

}  // namespace attnscope
