#pragma once
// The models the window offers: the shipped ones, found on the engine worker's thread (it reads
// the file system), and the files the user opened, each with its header once read. Until the
// shipped models are listed and every file being opened is read, calls that need a model wait
// (whenReady), as they would for a synchronous open.
#include <attnscope/model_info.h>

#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QStringList>
#include <functional>

#include "workers/engine_worker.h"

namespace attnscope::ui {

class ModelList : public QObject {
  Q_OBJECT
 public:
  /// `worker` may live on another thread; requests are queued to it.
  explicit ModelList(EngineWorker* worker, QObject* parent = nullptr);

  /// Looks for the shipped models: listed() once found.
  void findShipped();
  /// Reads a model file's header on the worker: fileAdded(), or errorOccurred() naming it.
  void openFile(const QString& path);
  /// A model file was opened (this run): a choice remembered from last time does not apply.
  bool fileOpened() const { return fileOpened_; }

  bool ready() const { return listed_ && openingFiles_ == 0; }
  /// Runs `call` now when ready(), else once it is.
  void whenReady(std::function<void()> call);

  QStringList keys() const { return keys_; }
  /// Model `key`'s language pair ("en-fr"): a shipped model's folder says it, an opened file's
  /// header; empty for a key not listed.
  QString pairOf(const QString& key) const { return pairs_.value(key); }
  /// The shipped models of language pair `pair`, in the list's order: the compare grid's.
  QStringList shippedKeys(const QString& pair) const;
  /// The language pairs of the shipped models, the default first.
  QStringList shippedPairs() const;
  /// The header of model `key`, or nullptr until it is read (requestInfo() asks for it).
  const ModelInfo* info(const QString& key) const;
  /// Loads model `key` on the worker, if its header is not known yet: infoChanged() once it is.
  void requestInfo(const QString& key);

 Q_SIGNALS:
  /// The shipped models (every pair), and each one's file (key, path).
  void listed(const QStringList& keys, const QList<QPair<QString, QString>>& files);
  /// After listed(): the calls that waited for the list have run (a remembered choice applied).
  void listingFinished();
  /// A model file the user opened is listed under `key` (unique: the folder is added when a
  /// model of that name is listed already).
  void fileAdded(const QString& key, const QString& path);
  void infoChanged(const QString& key);
  void errorOccurred(const QString& message);

 private:
  void addFile(const QString& path, const ModelInfo& info);
  void runDeferred();
  template <typename Call>
  void post(Call&& call);

  EngineWorker* worker_;
  QStringList keys_;
  QHash<QString, ModelInfo> infos_;
  QHash<QString, QString> pairs_;  // key -> language pair
  QStringList shipped_;            // the shipped models' keys
  bool listed_ = false;
  int openingFiles_ = 0;
  bool fileOpened_ = false;
  QList<std::function<void()>> deferred_;
};

}  // namespace attnscope::ui
