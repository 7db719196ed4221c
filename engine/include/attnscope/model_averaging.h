#pragma once
// Checkpoint averaging: one model whose weights are the element-wise mean of several model
// files' weights, usually the last epochs of one run (`train --save-epochs`), as fairseq's
// average_checkpoints.py and Marian's checkpoint averaging do. Weights from the end of a run lie
// around one minimum; their mean often validates better than any one of them.
#include <string>
#include <vector>

namespace attnscope {

/// Averages `inputs` (two or more model files of one run: the same config, vocabularies, subword
/// models and tensors) into the model file `output`, stored as training stores a model (half
/// precision). Its training record is the last input's with the validation and test figures
/// cleared (they were not measured on the mean) and `command` after its command ("TRAIN; then
/// AVERAGE"; `command` alone when the input records none). Throws
/// std::invalid_argument naming the input and what differs from the first, std::runtime_error
/// for a file that cannot be read or written.
void average_models(const std::vector<std::string>& inputs, const std::string& output,
                    const std::string& command);

}  // namespace attnscope
