#pragma once
// Subword segmentation of one language with SentencePiece (Debian's libsentencepiece, reached
// through libattnscope_sentencepiece.so: see sentencepiece_shim.h): learning a model from a
// tokenised corpus, reading one stored in a model file, and splitting words into pieces. The
// model's ids are the ids of the Vocabulary built from its pieces: <pad> <unk> <s>
// </s> first (SentencePiece only reserves them; it adds no <s> or </s> to a sentence).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attnscope {

/// SentencePiece's mark at the start of a word's first piece (U+2581, "▁").
inline const std::string kWordStart = "\u2581";

class SubwordModel {
 public:
  SubwordModel() = default;  ///< No model: empty().

  /// Learns a BPE model of at most `pieces` pieces (the four special tokens included) from
  /// sentences given as tokenize()'s tokens; pieces never span two tokens. The same sentences
  /// and size give the same model, byte for byte. Fewer pieces result when the corpus has no
  /// more to merge. Throws std::invalid_argument with SentencePiece's reason (e.g. a size below
  /// the number of distinct characters). From 1000 pieces on, 256 of them are byte pieces
  /// ("<0xC5>"): SentencePiece's byte fallback, which spells a character that has no piece by
  /// its UTF-8 bytes instead of <unk>; word_text() turns them back into the character.
  static SubwordModel learn(const std::vector<std::vector<std::string>>& sentences, int pieces);

  /// Reads a serialized SentencePiece model (as bytes() gives it). Throws std::invalid_argument
  /// saying what is wrong: not a SentencePiece model, or one attnscope does not read.
  static SubwordModel from_bytes(std::string bytes);

  bool empty() const { return handle_ == nullptr; }
  /// The pieces of tokenize()'s tokens: each token's first piece starts with "▁". A token over
  /// 1000 bytes is not split: it stays one piece, "▁" + token.
  std::vector<std::string> encode(const std::vector<std::string>& tokens) const;
  /// Pieces back to tokens joined by single spaces (SentencePiece's own decoder).
  std::string decode(const std::vector<std::string>& pieces) const;
  /// Every piece by id, the special tokens first: the model's vocabulary.
  const std::vector<std::string>& pieces() const { return pieces_; }
  /// The serialized model, for a model file.
  const std::string& bytes() const { return bytes_; }

 private:
  std::shared_ptr<void> handle_;  // the model inside libattnscope_sentencepiece.so; immutable
  std::string bytes_;
  std::vector<std::string> pieces_;
};

}  // namespace attnscope
