#include "model/model_file.h"

#include "attnscope/errors.h"
#include "attnscope/score_functions.h"
#include "attnscope/text.h"

namespace attnscope {

Checkpoint load_model_file(const std::string& path, bool header_only) {
  Checkpoint checkpoint = load_checkpoint(path, header_only);
  if (!is_score_function(checkpoint.config.score))
    ATTNSCOPE_THROW_RUNTIME_ERROR("model file '", path,
                                  "' has an invalid config: unknown score function '",
                                  checkpoint.config.score, "' (", score_function_list(), ")");
  if (checkpoint.config.transformer() && checkpoint.config.score != kTransformerScore)
    ATTNSCOPE_THROW_RUNTIME_ERROR("model file '", path,
                                  "' has an invalid config: a Transformer's attention is ",
                                  kTransformerScore, ", not '", checkpoint.config.score, "'");
  return checkpoint;
}

ModelInfo model_info(const Checkpoint& checkpoint, const std::string& path, int64_t parameters) {
  ModelInfo info;
  info.path = path;
  // A Transformer is named by its architecture: its score function is always scaled_dot.
  info.name = checkpoint.config.transformer() ? kTransformerArch : checkpoint.config.score;
  if (checkpoint.config.transformer()) {
    info.attention_layers = static_cast<int>(checkpoint.config.layers);
    info.attention_heads = static_cast<int>(checkpoint.config.heads);
  }
  info.config = checkpoint.config;
  info.has_attention = has_attention(checkpoint.config.score);
  info.training = checkpoint.training;
  info.examples = checkpoint.training.examples;
  info.parameters = parameters;
  info.file_bytes = checkpoint.file_bytes;
  if (checkpoint.config.cased) info.tokenizer = kCasedTokenizer;
  if (!checkpoint.subwords.empty()) {
    info.subwords = checkpoint.subwords;
    // SentencePiece marks the first piece of every word, and character models do the same.
    info.subword_marker = "\u2581";
  }
  make_printable(info);
  return info;
}

void make_printable(ModelInfo& info) {
  for (std::string* text :
       {&info.name, &info.config.source_language, &info.config.target_language,
        &info.training.corpus, &info.training.test_corpus, &info.training.command})
    *text = printable(*text);
  for (std::vector<std::string>* list : {&info.examples, &info.training.examples})
    for (std::string& example : *list) example = printable(example);
}

}  // namespace attnscope
