#pragma once
// What the UI asks the engine worker for and what comes back: plain values that cross the
// worker's thread in queued signals (hence the metatypes), and that views and tests build
// without a worker.
#include <attnscope/explanation.h>
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

/// One attention edit of the Translation tab tried on every model of the compare grid. Its
/// positions count the source tokens of `sourceTokens` (the model it was made on): a model that
/// reads the sentence as other tokens cannot take an edit that names positions.
struct CompareEdits {
  std::vector<AttentionEdit> edits;  // empty: no edit, the models' own decoding
  std::vector<std::string> sourceTokens;
  QString madeOn;       // the model the edit was made on
  QString sentence;     // the sentence it was made on: another one drops it
  QString description;  // "step 3: zero 'dog'", for titles and the status line
};

struct CompareResult {
  QStringList keys;
  QList<AttentionMatrix> matrices;  // one per key, in order
  QStringList translations;         // what each heatmap's rows spell
  // With CompareEdits: per key, its what-if translation as HTML with the words that changed
  // marked, or why the edit does not fit that model (editFits false).
  QStringList whatIf;
  QList<bool> editFits;
};

/// Which model's explanations the engine supports: per method, "" or why not; the same for
/// editing its attention.
struct ExplainSupport {
  QMap<int, QString> methods;  // AttributionMethod as int → "" or the reason
  QString editing;
};

/// The attribution of a session's path: the model's own greedy translation, or with `forced`
/// tokens the path they lead on (decoded to its end).
struct AttributionRequest {
  QString modelKey;
  QString sentence;
  QMap<int, QString> forced;
  AttributionMethod method = AttributionMethod::kIntegratedGradients;
  // Integrated gradients: the steps to start from (the engine's default, 32), doubled until every
  // row is complete within igTolerance (32 or 64 for soft attention, up to 1024 for a nearly
  // one-hot one) or until the next doubling would end later than igSeconds. The first pass is
  // shown at once and each later one as it ends (AttributionResult::refining), and any newer
  // request of the worker stops the refining: the user has moved on.
  int igSteps = AttributionOptions().ig_steps;
  double igTolerance = AttributionOptions::kCompleteWithin;
  double igSeconds = 60.0;
  bool operator==(const AttributionRequest& o) const {
    return modelKey == o.modelKey && sentence == o.sentence && forced == o.forced &&
           method == o.method && igSteps == o.igSteps && igTolerance == o.igTolerance &&
           igSeconds == o.igSeconds;
  }
};

struct AttributionResult {
  AttributionRequest request;
  Attribution attribution;  // its translation keeps "<unk>" as the model emitted it
  QString error;            // not empty: no attribution, and why
  bool refining = false;    // integrated gradients so far: a finer result follows
  // Integrated gradients left short of the tolerance because other work came first (a step, a
  // what-if): asked again, the refining starts anew once that work is done.
  bool yielded = false;
};

/// A what-if of the Translation tab: the session's sentence, model and forced tokens, decoded
/// with attention edits.
struct EditRequest {
  QString modelKey;
  QString sentence;
  QMap<int, QString> forced;
  std::vector<AttentionEdit> edits;
};

struct EditResult {
  Translation original;  // the same forced tokens without edits, to the end
  EditedTranslation edited;
  QString error;  // not empty: the edit could not be decoded, and why
};

/// A beam search of the Translation tab (the final beam, and the recorded tree of issue 31).
struct BeamRequest {
  QString modelKey;
  QString sentence;
  int beamSize = 5;
  float lengthPenalty = -1.0f;   // GNMT's alpha; negative: scores divided by the length
  float coveragePenalty = 0.0f;  // GNMT's beta (0: none)
  bool operator==(const BeamRequest& o) const {
    return modelKey == o.modelKey && sentence == o.sentence && beamSize == o.beamSize &&
           lengthPenalty == o.lengthPenalty && coveragePenalty == o.coveragePenalty;
  }
};

/// A recorded search (Translator::translate_nbest_with_tree): its tree and its final beam.
struct BeamResult {
  BeamRequest request;
  BeamTree tree;
  QList<Translation> finalBeam;  // best first; empty when there is an error
  QString error;                 // not empty: no tree, and why
};

/// The partial hypothesis of one node of a shown tree: its path decoded forced, as many steps as
/// the node is deep.
struct BeamNodeResult {
  int node = -1;
  Translation translation;
  QString error;
};

/// The search resumed from a node (TranslationOptions::prefix = its path): where it would have
/// led, to graft under the node.
struct BeamContinuation {
  int node = -1;
  BeamTree tree;
  Translation best;
  QString error;
};

}  // namespace attnscope::ui

Q_DECLARE_METATYPE(attnscope::ModelInfo)
Q_DECLARE_METATYPE(attnscope::Translation)
Q_DECLARE_METATYPE(attnscope::ui::SessionSnapshot)
Q_DECLARE_METATYPE(attnscope::ui::CompareResult)
Q_DECLARE_METATYPE(attnscope::ui::CompareTarget)
Q_DECLARE_METATYPE(attnscope::ui::CompareEdits)
Q_DECLARE_METATYPE(attnscope::ui::ExplainSupport)
Q_DECLARE_METATYPE(attnscope::ui::AttributionRequest)
Q_DECLARE_METATYPE(attnscope::ui::AttributionResult)
Q_DECLARE_METATYPE(attnscope::ui::EditRequest)
Q_DECLARE_METATYPE(attnscope::ui::EditResult)
Q_DECLARE_METATYPE(attnscope::ui::BeamRequest)
Q_DECLARE_METATYPE(attnscope::ui::BeamResult)
Q_DECLARE_METATYPE(attnscope::ui::BeamNodeResult)
Q_DECLARE_METATYPE(attnscope::ui::BeamContinuation)
