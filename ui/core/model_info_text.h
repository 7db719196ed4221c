#pragma once
// What the window says about a model, as text: the status bar's one line and Help > Model info's
// box. Pure functions of the model's header, so they are tested without a window or a modal box.
#include <attnscope/model_info.h>

#include <QString>
#include <QStringList>

namespace attnscope::ui {

/// A parameter count as every text of the window writes it: "4,825,856" (the locale's digit
/// groups; "4.825.856" in German), never rounded, so the status bar and Model info agree.
QString parameterCountText(int64_t parameters);

/// A model of a built-in task (reverse, sort, …): it reads the task's symbols, not a language.
bool readsTaskInput(const ModelInfo& info);

/// "English → French" for the pair "en-fr" (a code Qt does not know stays as given).
QString languagePairText(const QString& pair);

/// The status bar's line for model `key`: "additive · English → German · 12,345,678
/// parameters, test BLEU 35.8".
QString modelStatusText(const QString& key, const ModelInfo& info);

/// The title File > Export suggests for a picture of model `key`'s attention to `sentence`:
/// "additive · English → German · “A dog runs.”" (the sentence elided past 80 characters; no
/// languages for a model that does not say them).
QString exportTitleText(const QString& key, const ModelInfo* info, const QString& sentence);

/// The model box's tooltip of an entry: "additive attention · English → German · test BLEU
/// 35.8 (greedy)"; for a task model its task, for a TorchScript module its name and format.
QString modelToolTip(const ModelInfo& info);

/// The input line's placeholder for the model: its source language ("Type a sentence in
/// English and press Enter"), or the shape of its own first example for a model that has some
/// (a task model reads letters or numbers, not English).
QString inputPlaceholder(const ModelInfo& info);

/// What the Examples menu offers for the model: its own examples (the first 20) when it has
/// some, else `english` (the shipped sentences) when it reads English or does not say, else
/// none.
QStringList modelExamples(const ModelInfo& info, const QStringList& english);

/// Help > Model info's text: score function, languages, sizes, file and training record of an
/// attnscope model; tokenizer and attention shape of a TorchScript model.
QString modelInfoText(const ModelInfo& info);

}  // namespace attnscope::ui
