#pragma once
// The only way the UI reaches the engine: a QObject living on its own QThread. Requests are
// queued onto that thread; results and errors come back as signals carrying plain data, so no
// exception crosses a thread and the window never waits for the model.
#include <attnscope/model_info.h>
#include <attnscope/translation.h>
#include <attnscope/translator.h>

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "attention_matrix.h"

namespace attnscope::ui {

/// The state of the step-wise session, as the window shows it.
struct SessionSnapshot {
  QString modelKey;
  Translation translation;  // the steps so far
  std::vector<Step> steps;
  bool finished = false;
};

/// What every heatmap of the compare grid is force-decoded on (or nothing: own translations).
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

class EngineWorker : public QObject {
  Q_OBJECT
 public:
  explicit EngineWorker(QObject* parent = nullptr);
  ~EngineWorker() override;

  // The main view and the compare grid have independent request streams.
  enum class Channel { Main = 0, Compare = 1 };

  // Called from the GUI thread: a newer request makes queued older ones of its channel obsolete,
  // and cancel() stops the running one at its next check.
  quint64 nextGeneration(Channel channel = Channel::Main) { return ++latest_[index(channel)]; }
  void cancel(Channel channel) { ++latest_[index(channel)]; }

  // The rest runs on the worker thread (queue it with QMetaObject::invokeMethod).
  void registerModel(const QString& key, const QString& path);
  void loadModel(const QString& key);
  void translate(quint64 generation, const QString& key, const QString& sentence, int beam);
  void startSession(quint64 generation, const QString& key, const QString& sentence, bool toEnd);
  void stepForward(quint64 generation, int count);
  void stepBack(quint64 generation, int count);
  void force(quint64 generation, int row, const QString& token);
  void compare(quint64 generation, const QStringList& keys, const QString& sentence,
               const CompareTarget& target);

 Q_SIGNALS:
  void modelLoaded(const QString& key, const attnscope::ModelInfo& info);
  void sessionChanged(quint64 generation, const attnscope::ui::SessionSnapshot& snapshot);
  void beamReady(quint64 generation, const QList<attnscope::Translation>& hypotheses);
  void compareReady(quint64 generation, const attnscope::ui::CompareResult& result);
  void compareProgress(quint64 generation, int done, int total);
  void errorOccurred(const QString& message);

 private:
  const Translator& translator(const QString& key);
  static int index(Channel channel) { return static_cast<int>(channel); }
  bool obsolete(quint64 generation, Channel channel = Channel::Main) const {
    return generation < latest_[index(channel)].load();
  }
  void publishSession(quint64 generation);
  template <typename Work>
  void guarded(Work&& work);

  QHash<QString, QString> paths_;
  QHash<QString, std::shared_ptr<Translator>> translators_;
  std::unique_ptr<DecodingSession> session_;
  std::shared_ptr<Translator> sessionTranslator_;  // keeps the session's model alive
  QString sessionKey_;
  std::atomic<quint64> latest_[2] = {0, 0};
};

}  // namespace attnscope::ui

Q_DECLARE_METATYPE(attnscope::ModelInfo)
Q_DECLARE_METATYPE(attnscope::Translation)
Q_DECLARE_METATYPE(attnscope::ui::SessionSnapshot)
Q_DECLARE_METATYPE(attnscope::ui::CompareResult)
Q_DECLARE_METATYPE(attnscope::ui::CompareTarget)
