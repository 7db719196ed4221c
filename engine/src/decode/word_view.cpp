#include "attnscope/word_view.h"

#include "attnscope/text.h"
#include "io/subword_model.h"

namespace attnscope {
namespace {

// SentencePiece's byte fallback spells a character that has no piece as the pieces of its UTF-8
// bytes, "<0xC5>" "<0x82>" for "ł", inside the word the character is in. Gives the byte.
bool byte_piece(const std::string& piece, unsigned char* byte) {
  if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return false;
  auto digit = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  };
  const int high = digit(piece[3]), low = digit(piece[4]);
  if (high < 0 || low < 0) return false;
  *byte = static_cast<unsigned char>(high * 16 + low);
  return true;
}

bool stands_alone(const std::string& token, const std::string& marker,
                  const std::string& end_token) {
  unsigned char byte = 0;
  if (marker == kWordStart && byte_piece(token, &byte)) return false;
  return token == end_token || (token.size() > 2 && token.front() == '<' && token.back() == '>');
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<std::vector<int>> word_groups(const std::vector<std::string>& pieces,
                                          const std::string& marker, const std::string& end_token) {
  std::vector<std::vector<int>> groups;
  bool open = false;  // the last group may take the next piece
  for (int i = 0; i < static_cast<int>(pieces.size()); ++i) {
    const std::string& piece = pieces[static_cast<size_t>(i)];
    const bool alone = stands_alone(piece, marker, end_token);
    const bool continues =
        open && !alone &&
        ((marker == kWordStart && !starts_with(piece, kWordStart)) || marker == "@@");
    if (continues)
      groups.back().push_back(i);
    else
      groups.push_back({i});
    open = !alone && !marker.empty() && (marker == kWordStart || ends_with(piece, "@@"));
  }
  return groups;
}

std::string word_text(const std::vector<std::string>& pieces, const std::vector<int>& group,
                      const std::string& marker) {
  std::string word;
  for (int i : group) {
    std::string piece = pieces[static_cast<size_t>(i)];
    unsigned char byte = 0;
    if (marker == kWordStart && byte_piece(piece, &byte)) {
      word += static_cast<char>(byte);
      continue;
    }
    if (marker == kWordStart && starts_with(piece, kWordStart)) piece.erase(0, kWordStart.size());
    if (marker == "@@" && ends_with(piece, "@@")) piece.erase(piece.size() - 2);
    word += piece;
  }
  // Byte pieces the model put together need not form whole characters: the bytes left over
  // become U+FFFD, as SentencePiece's own decoder writes them.
  return word.empty() ? pieces[static_cast<size_t>(group.front())] : replace_invalid_utf8(word);
}

WordView word_view(const std::vector<std::string>& source_pieces,
                   const std::vector<std::string>& target_pieces,
                   const std::vector<std::vector<float>>& weights, const std::string& marker,
                   const std::string& end_token) {
  WordView view;
  view.source_groups = word_groups(source_pieces, marker, end_token);
  view.target_groups = word_groups(target_pieces, marker, end_token);
  for (const auto& g : view.source_groups)
    view.source_words.push_back(word_text(source_pieces, g, marker));
  for (const auto& g : view.target_groups)
    view.target_words.push_back(word_text(target_pieces, g, marker));
  for (const auto& rows : view.target_groups) {
    std::vector<float> merged(view.source_groups.size(), 0.0f);
    int counted = 0;
    for (int r : rows) {
      if (static_cast<size_t>(r) >= weights.size()) continue;  // a step not decoded yet
      const auto& row = weights[static_cast<size_t>(r)];
      for (size_t w = 0; w < view.source_groups.size(); ++w)
        for (int c : view.source_groups[w])
          if (static_cast<size_t>(c) < row.size()) merged[w] += row[static_cast<size_t>(c)];
      ++counted;
    }
    if (counted == 0) break;
    for (float& value : merged) value /= static_cast<float>(counted);
    view.weights.push_back(std::move(merged));
  }
  return view;
}

}  // namespace attnscope
