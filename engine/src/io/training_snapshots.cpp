#include "attnscope/training_snapshots.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "attnscope/errors.h"
#include "attnscope/text.h"

namespace attnscope {
namespace {

using Json = nlohmann::json;

// A snapshot line is a probe sentence's matrix: a line over this is not one attnscope wrote,
// and reading it whole could take the memory of a crafted file's size.
constexpr size_t kMaxLineBytes = 16 << 20;
constexpr size_t kMaxTokens = 4096;

[[noreturn]] void fail(const std::string& path, size_t line, const std::string& problem) {
  ATTNSCOPE_THROW_RUNTIME_ERROR("snapshots '", path, "', line ", line, ": ", problem);
}

std::vector<std::string> tokens_of(const Json& object, const char* field, const std::string& path,
                                   size_t line) {
  if (!object.contains(field) || !object.at(field).is_array())
    fail(path, line, error_message("\"", field, "\" is missing or not a list of tokens"));
  const Json& list = object.at(field);
  if (list.size() > kMaxTokens)
    fail(path, line,
         error_message("\"", field, "\" has ", list.size(), " tokens, over ", kMaxTokens));
  std::vector<std::string> tokens;
  for (const Json& token : list) {
    if (!token.is_string()) fail(path, line, error_message("\"", field, "\" holds a non-string"));
    tokens.push_back(token.get<std::string>());
  }
  return tokens;
}

TrainingSnapshot parse_line(const std::string& text, const std::string& path, size_t line) {
  const Json object = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded()) fail(path, line, "not JSON");
  if (!object.is_object()) fail(path, line, "not a JSON object");
  TrainingSnapshot s;
  const auto integer = [&](const char* field) -> int64_t {
    if (!object.contains(field) || !object.at(field).is_number_integer() ||
        object.at(field).get<int64_t>() < 0)
      fail(path, line, error_message("\"", field, "\" is missing or not a whole number ≥ 0"));
    return object.at(field).get<int64_t>();
  };
  s.batch = integer("batch");
  const int64_t epoch = integer("epoch");
  if (epoch > 1000000) fail(path, line, "\"epoch\" is out of range");
  s.epoch = static_cast<int>(epoch);
  if (!object.contains("loss") || !object.at("loss").is_number() ||
      !std::isfinite(object.at("loss").get<double>()))
    fail(path, line, "\"loss\" is missing or not a finite number");
  s.loss = object.at("loss").get<double>();
  s.source = tokens_of(object, "source", path, line);
  s.output = tokens_of(object, "output", path, line);
  if (object.contains("subword_marker")) {
    if (!object.at("subword_marker").is_string())
      fail(path, line, "\"subword_marker\" is not a string");
    s.subword_marker = object.at("subword_marker").get<std::string>();
  }
  if (!object.contains("attention") ||
      !(object.at("attention").is_array() || object.at("attention").is_null()))
    fail(path, line, "\"attention\" is missing or neither a matrix nor null");
  const Json& rows = object.at("attention");
  if (rows.is_null() || rows.empty()) return s;  // a model without attention
  if (rows.size() != s.output.size())
    fail(path, line,
         error_message("\"attention\" has ", rows.size(), " rows for ", s.output.size(),
                       " output tokens"));
  for (size_t r = 0; r < rows.size(); ++r) {
    const Json& row = rows[r];
    if (!row.is_array() || row.size() != s.source.size())
      fail(path, line,
           error_message("attention row ", r + 1, " does not have one weight for each of the ",
                         s.source.size(), " source tokens"));
    std::vector<float> weights;
    weights.reserve(row.size());
    for (const Json& value : row) {
      if (!value.is_number())
        fail(path, line, error_message("attention row ", r + 1, " holds a non-number"));
      const double w = value.get<double>();
      if (!(w >= 0.0 && w <= 1.0))
        fail(path, line, error_message("attention row ", r + 1, " holds ", w, ", outside [0, 1]"));
      weights.push_back(static_cast<float>(w));
    }
    s.attention.push_back(std::move(weights));
  }
  return s;
}

}  // namespace

std::string snapshot_json_line(const TrainingSnapshot& snapshot) {
  Json object;
  object["batch"] = snapshot.batch;
  object["epoch"] = snapshot.epoch;
  object["loss"] = std::isfinite(snapshot.loss) ? snapshot.loss : 0.0;
  object["source"] = snapshot.source;
  object["output"] = snapshot.output;
  if (snapshot.attention.empty()) {
    object["attention"] = nullptr;
  } else {
    Json rows = Json::array();
    for (const auto& row : snapshot.attention) {
      Json values = Json::array();
      // Four decimals: a heatmap shows no finer difference, and the file stays small.
      for (float w : row) values.push_back(std::round(static_cast<double>(w) * 1e4) / 1e4);
      rows.push_back(std::move(values));
    }
    object["attention"] = std::move(rows);
  }
  object["subword_marker"] = snapshot.subword_marker;
  return object.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::vector<TrainingSnapshot> read_snapshots(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) ATTNSCOPE_THROW_RUNTIME_ERROR("snapshots '", path, "': cannot be read");
  std::vector<TrainingSnapshot> snapshots;
  std::string text;
  size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.size() > kMaxLineBytes) fail(path, line, "the line is too long for a snapshot");
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    if (!is_valid_utf8(text)) fail(path, line, "not UTF-8 text");
    snapshots.push_back(parse_line(text, path, line));
  }
  if (in.bad()) ATTNSCOPE_THROW_RUNTIME_ERROR("snapshots '", path, "': cannot be read");
  if (snapshots.empty()) ATTNSCOPE_THROW_RUNTIME_ERROR("snapshots '", path, "': holds no snapshot");
  return snapshots;
}

std::vector<TrainingSnapshot> pick_frames(const std::vector<TrainingSnapshot>& snapshots,
                                          size_t count) {
  if (count == 0 || snapshots.empty()) return {};
  if (snapshots.size() <= count) return snapshots;
  if (count == 1) return {snapshots.back()};
  std::vector<TrainingSnapshot> frames;
  for (size_t i = 0; i < count; ++i) {
    const size_t at = (i * (snapshots.size() - 1) + (count - 1) / 2) / (count - 1);
    frames.push_back(snapshots[at]);
  }
  return frames;
}

}  // namespace attnscope
