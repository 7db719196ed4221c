#pragma once
// What the UI asks the engine worker for and what comes back: plain values that cross the
// worker's thread in queued signals (hence the metatypes), and that views and tests build
// without a worker.
#include <attnscope/model_info.h>
#include <attnscope/translation.h>

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/attention_matrix.h"

namespace attnscope::ui {

/// The state of the step-wise session, as the window shows it.
struct SessionSnapshot {
  QString modelKey;
  Translation translation;  // the steps so far
  std::vector<Step> steps;
  bool finished = false;
  int length = -1;  // the step count of the whole sentence (with these forced tokens), once known
};

/// A step-wise session as the GUI wants to see it. It names the state to show, never "one step
/// more", so the worker may skip a queued request when a newer one arrives: the newer one
/// carries everything the older one asked for.
struct SessionRequest {
  static constexpr int kToEnd = -1;
  quint64 session = 0;  // a new number starts a fresh session (a new sentence, model or Enter)
  QString modelKey;
  QString sentence;
  QMap<int, QString> forced;  // step index → the token emitted there instead of the argmax
  // How many steps to show. Negative: decode to the end, then take back −(steps + 1) steps
  // (kToEnd: the whole sentence), for a step back requested before the end was known.
  int steps = kToEnd;
};

/// What every heatmap of the compare grid is force-decoded on (or nothing: own translations).
/// The kinds are in the order of the compare view's mode box.
struct CompareTarget {
  enum class Kind { OwnTranslations, Reference, ModelOutput };
  Kind kind = Kind::OwnTranslations;
  QString text;      // Reference: the target sentence
  QString modelKey;  // ModelOutput: whose greedy output everyone is forced to produce
};

struct CompareResult {
  QStringList keys;
  QList<AttentionMatrix> matrices;  // one per key, in order
  QStringList translations;         // what each heatmap's rows spell
};

}  // namespace attnscope::ui

Q_DECLARE_METATYPE(attnscope::ModelInfo)
Q_DECLARE_METATYPE(attnscope::Translation)
Q_DECLARE_METATYPE(attnscope::ui::SessionSnapshot)
Q_DECLARE_METATYPE(attnscope::ui::CompareResult)
Q_DECLARE_METATYPE(attnscope::ui::CompareTarget)
