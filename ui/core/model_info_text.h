#pragma once
// What the window says about a model, as text: the status bar's one line and Help > Model info's
// box. Pure functions of the model's header, so they are tested without a window or a modal box.
#include <attnscope/model_info.h>

#include <QString>

namespace attnscope::ui {

/// The status bar's line for model `key`: "additive · 12.3M parameters, test BLEU 35.8".
QString modelStatusText(const QString& key, const ModelInfo& info);

/// Help > Model info's text: score function, languages, sizes, file and training record of an
/// attnscope model; tokenizer and attention shape of a TorchScript model.
QString modelInfoText(const ModelInfo& info);

}  // namespace attnscope::ui
