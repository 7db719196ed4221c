#pragma once
// Which models there are: the shipped ones by language pair and score function name, and any
// model file's header.
#include <string>
#include <vector>

#include "attnscope/model_folders.h"
#include "attnscope/model_info.h"
#include "attnscope/score_functions.h"

namespace attnscope {

/// A score function name resolves to the shipped model "<name>.attnmodel" of language pair
/// `pair` ("en-de", "en-fr"); anything else is taken as a file path (and `pair` is ignored).
/// Throws std::runtime_error when the pair has no shipped model of that name, or `pair` is no
/// language pair.
std::string resolve_model(const std::string& name_or_path,
                          const std::string& pair = kDefaultLanguagePair);

/// The first of shipped_model_candidates() whose header reads, or "" if none: a broken file in
/// ATTNSCOPE_MODEL_DIR does not hide the shipped model of the same name. Why each file was
/// skipped is added to `skipped` (the load error, which names the file).
std::string find_usable_model(const std::string& name,
                              const std::string& pair = kDefaultLanguagePair,
                              std::vector<std::string>* skipped = nullptr);

/// What the app and exports call a shipped model: its score function for the default pair
/// ("additive"), else with the pair ("additive (en→fr)").
std::string shipped_model_name(const std::string& score, const std::string& pair);

/// A model's language pair as its header records it ("en-fr").
std::string language_pair_of(const ModelInfo& info);

/// Reads only the header of a model file (fast; no weights). Throws like Translator's constructor.
ModelInfo read_model_info(const std::string& path);

/// The shipped models found in model_directories(): per language pair (the default first, as
/// shipped_language_pairs() orders them), one per score function name found, in
/// score_function_names() order. Broken files are skipped (find_usable_model), and said in
/// `skipped`.
std::vector<ModelInfo> installed_models(std::vector<std::string>* skipped = nullptr);

}  // namespace attnscope
