#pragma once
// The only way the UI reaches the engine: a QObject living on its own QThread. Requests are
// queued onto that thread; results and errors come back as signals carrying plain data, so no
// exception crosses a thread and the window never waits for the model (nor reads a model file).
#include <attnscope/model_info.h>
#include <attnscope/translation.h>
#include <attnscope/translator.h>

#include <QHash>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "core/engine_requests.h"

namespace attnscope::ui {

class EngineWorker : public QObject {
  Q_OBJECT
 public:
  explicit EngineWorker(QObject* parent = nullptr);
  ~EngineWorker() override;

  // The main view, the compare grid, the main view's attributions, its attention edits, and its
  // beam tree (the search, a node's hypothesis, continuations) have independent request streams.
  enum class Channel {
    Main = 0,
    Compare = 1,
    Attribution = 2,
    Edit = 3,
    BeamTree = 4,
    BeamNode = 5,
    BeamContinuation = 6
  };

  // Called from the GUI thread: a newer request makes queued older ones of its channel obsolete,
  // and cancel() stops the running one at its next check.
  quint64 nextGeneration(Channel channel = Channel::Main) { return ++latest_[index(channel)]; }
  void cancel(Channel channel) { ++latest_[index(channel)]; }

  // The rest runs on the worker thread (queue it with QMetaObject::invokeMethod).
  /// Finds the shipped models (modelsFound) and registers them under their score function name
  /// (with the pair for pairs other than the default: "additive (en→fr)").
  void findModels();
  /// Reads the header of a model file the user opened: modelFileRead, or modelFileFailed.
  void readModelFile(const QString& path);
  void registerModel(const QString& key, const QString& path);
  void loadModel(const QString& key);
  /// Whether later results copy unknown words from the source (the default) or keep "<unk>".
  void setUnknownWords(attnscope::UnknownWords unknownWords) { unknownWords_ = unknownWords; }
  void showSession(quint64 generation, const SessionRequest& request);
  /// `request`'s search recorded as a tree, with its final beam (beamSearched; its error says
  /// why there is none).
  void searchBeam(quint64 generation, const BeamRequest& request);
  /// The hypothesis of a tree node whose path (BeamTree::path) is `path`, decoded forced
  /// (beamNodeDecoded).
  void decodeBeamNode(quint64 generation, const BeamRequest& request, int node,
                      const std::vector<int>& path);
  /// `request`'s search resumed from a node whose path is `path` (beamContinued).
  void continueBeam(quint64 generation, const BeamRequest& request, int node,
                    const std::vector<int>& path);
  /// Every model of `keys` on `sentence`; subword models in words (pieces merged) or pieces.
  /// With `edits` (own translations only), each model's what-if instead of its own decoding.
  void compare(quint64 generation, const QStringList& keys, const QString& sentence,
               const CompareTarget& target, bool words, const CompareEdits& edits = {});
  /// The attribution of a session's path (attributionReady; its error says why there is none).
  void attribute(quint64 generation, const AttributionRequest& request);
  /// A session's path decoded with attention edits (editReady; its error says why not).
  void decodeEdits(quint64 generation, const EditRequest& request);

 Q_SIGNALS:
  /// The shipped models found, their files and language pairs ("en-de"; the same order).
  void modelsFound(const QStringList& keys, const QStringList& paths, const QStringList& pairs);
  void modelFileRead(const QString& path, const attnscope::ModelInfo& info);
  void modelFileFailed(const QString& path, const QString& message);
  /// Model `key`'s header is known: loaded, or read for a shipped model once listed.
  void modelLoaded(const QString& key, const attnscope::ModelInfo& info);
  void sessionChanged(quint64 generation, const attnscope::ui::SessionSnapshot& snapshot);
  void beamSearched(quint64 generation, const attnscope::ui::BeamResult& result);
  void beamNodeDecoded(quint64 generation, const attnscope::ui::BeamNodeResult& result);
  void beamContinued(quint64 generation, const attnscope::ui::BeamContinuation& continuation);
  void compareReady(quint64 generation, const attnscope::ui::CompareResult& result);
  void compareProgress(quint64 generation, int done, int total);
  void attributionReady(quint64 generation, const attnscope::ui::AttributionResult& result);
  void editReady(quint64 generation, const attnscope::ui::EditResult& result);
  /// What model `key` supports of attribution and editing; sent when a session starts on it.
  void supportFound(const QString& key, const attnscope::ui::ExplainSupport& support);
  void errorOccurred(const QString& message);
  /// A main-channel request ended in errorOccurred instead of its result.
  void requestFailed(quint64 generation);

 private:
  const Translator& translator(const QString& key);
  static int index(Channel channel) { return static_cast<int>(channel); }
  bool obsolete(quint64 generation, Channel channel = Channel::Main) const {
    return generation < latest_[index(channel)].load();
  }
  void rewindTo(int steps);
  // The greedy path `forced` leads `model` on, to its end, its tokens as the session emitted
  // them ("<unk>" kept: attribution explains these tokens, not their text).
  Translation forcedPath(const Translator& model, const QString& sentence,
                         const QMap<int, QString>& forced) const;
  // Model `key`'s what-if under `edits`, as the compare grid shows it: its matrix and its line.
  void compareEdited(const Translator& model, const std::string& source, const Translation& own,
                     const CompareEdits& edits, bool words, const QString& key,
                     CompareResult& result) const;
  void publishSession(quint64 generation);
  template <typename Work>
  bool guarded(Work&& work);

  QHash<QString, QString> paths_;
  QHash<QString, std::shared_ptr<Translator>> translators_;
  std::unique_ptr<DecodingSession> session_;
  std::shared_ptr<Translator> sessionTranslator_;  // keeps the session's model alive
  quint64 sessionNumber_ = 0;
  QString sessionKey_;
  QMap<int, QString> sessionForced_;  // the forced steps session_ holds now
  int sessionLength_ = -1;            // steps to the end of the path sessionForced_ leads on
  // The options of `request`'s search, unknown words as the view asks.
  TranslationOptions searchOptions(const BeamRequest& request) const;

  std::atomic<quint64> latest_[7] = {0, 0, 0, 0, 0, 0, 0};
  UnknownWords unknownWords_ = UnknownWords::kCopy;
};

}  // namespace attnscope::ui
