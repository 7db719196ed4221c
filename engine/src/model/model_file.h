#pragma once
// A model file read for use: the checkpoint format's checks (io/checkpoint.h) plus those only
// the model layer can make, such as whether its score function exists.
#include <string>

#include "attnscope/model_info.h"
#include "io/checkpoint.h"

namespace attnscope {

/// load_checkpoint(), then: throws std::runtime_error "model file 'path' has an invalid config:
/// unknown score function 'x' (dot, ...)" when the file names a score function not registered.
Checkpoint load_model_file(const std::string& path, bool header_only = false);

/// What a model file says about its model.
ModelInfo model_info(const Checkpoint& checkpoint, const std::string& path, int64_t parameters);

/// The texts of `info` that come from the file (its name, languages, corpus, command,
/// examples) made printable (text.h): a front end prints and draws them as they are.
void make_printable(ModelInfo& info);

}  // namespace attnscope
