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

/// The file "<name>.attnmodel" of language pair `pair` in the first of model_directories() that
/// has it, or "" if none.
std::string find_shipped_model(const std::string& name,
                               const std::string& pair = kDefaultLanguagePair);

/// The language pairs with a model folder: the default pair first, then the others found as
/// subfolders of model_directories(), in alphabetical order (each once).
std::vector<std::string> shipped_language_pairs();

}  // namespace attnscope
