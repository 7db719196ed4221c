#pragma once
// Subword models emit pieces ("▁cher" "ry", or "cher@@" "ry"); people read words. These group
// the pieces of each word and merge a piece-level attention matrix into a word-level one.
#include <string>
#include <vector>

namespace attnscope {

/// The positions of consecutive pieces that form each word. marker "▁": a piece that starts
/// with it begins a word; marker "@@": a piece that ends with it continues into the next;
/// marker "": every token is a word. `end_token` (and any other "<…>" token) stands alone, except
/// SentencePiece's byte pieces ("<0xC5>") under marker "▁", which continue a word.
std::vector<std::vector<int>> word_groups(const std::vector<std::string>& pieces,
                                          const std::string& marker, const std::string& end_token);

/// The word that the pieces `group` spell, markers removed and byte pieces turned into their
/// bytes (a byte sequence that is not UTF-8 becomes U+FFFD).
std::string word_text(const std::vector<std::string>& pieces, const std::vector<int>& group,
                      const std::string& marker);

/// An attention matrix over words.
struct WordView {
  std::vector<std::string> source_words;
  std::vector<std::string> target_words;
  std::vector<std::vector<int>> source_groups;  // which pieces each word merges
  std::vector<std::vector<int>> target_groups;
  // [target word][source word]: the columns of a source word's pieces summed, then the rows of
  // a target word's pieces averaged, so every row still sums to 1 (a sum of rows would sum to
  // the number of pieces).
  std::vector<std::vector<float>> weights;
};

/// Merges `weights` [target piece][source piece].
WordView word_view(const std::vector<std::string>& source_pieces,
                   const std::vector<std::string>& target_pieces,
                   const std::vector<std::vector<float>>& weights, const std::string& marker,
                   const std::string& end_token);

}  // namespace attnscope
