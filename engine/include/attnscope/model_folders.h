#pragma once
#include <string>
#include <vector>

namespace attnscope {

/// The language pair the app starts on; its shipped models sit at the top of a model folder,
/// each other pair's in a subfolder named for it ("en-fr/additive.attnmodel").
inline constexpr const char* kDefaultLanguagePair = "en-de";

/// "en-de", "en-fr": two language codes of 2 or 3 lowercase letters joined by '-'.
bool is_language_pair(const std::string& text);

/// Folders searched for shipped models, first match wins: $ATTNSCOPE_MODEL_DIR, the install
/// location relative to the running binary (../share/attnscope/models), the source tree.
std::vector<std::string> model_directories();

/// "" when ATTNSCOPE_MODEL_DIR is unset or names a folder; else why it is of no use ("...
/// does not exist"), for a front end to say: the folder is otherwise skipped without a word.
std::string model_dir_environment_problem();

/// Every file "<name>.attnmodel" of language pair `pair` in model_directories(), in their order.
std::vector<std::string> shipped_model_candidates(const std::string& name,
                                                  const std::string& pair = kDefaultLanguagePair);

/// The file "<name>.attnmodel" of language pair `pair` in the first of model_directories() that
/// has it, or "" if none. (model_catalog.h's find_usable_model also skips broken files.)
std::string find_shipped_model(const std::string& name,
                               const std::string& pair = kDefaultLanguagePair);

/// The language pairs with a model folder: the default pair first, then the others found as
/// subfolders of model_directories(), in alphabetical order (each once).
std::vector<std::string> shipped_language_pairs();

}  // namespace attnscope
