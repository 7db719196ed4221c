#include "workers/model_list.h"

#include <attnscope/model_catalog.h>

#include <QFileInfo>

namespace attnscope::ui {

ModelList::ModelList(EngineWorker* worker, QObject* parent) : QObject(parent), worker_(worker) {
  connect(worker_, &EngineWorker::modelsFound, this,
          [this](const QStringList& keys, const QStringList& paths, const QStringList& pairs) {
            listed_ = true;
            keys_ = keys + keys_;  // before any model file opened meanwhile
            shipped_ = keys;
            QList<QPair<QString, QString>> files;
            for (int i = 0; i < keys.size() && i < paths.size() && i < pairs.size(); ++i) {
              files << qMakePair(keys[i], paths[i]);
              pairs_.insert(keys[i], pairs[i]);
            }
            Q_EMIT listed(keys, files);
            runDeferred();
            Q_EMIT listingFinished();
          });
  connect(worker_, &EngineWorker::modelFileRead, this, &ModelList::addFile);
  connect(worker_, &EngineWorker::modelFileFailed, this,
          [this](const QString& /*path*/, const QString& message) {
            --openingFiles_;
            Q_EMIT errorOccurred(message);
            runDeferred();
          });
  connect(worker_, &EngineWorker::modelLoaded, this,
          [this](const QString& key, const ModelInfo& info) {
            infos_.insert(key, info);
            Q_EMIT infoChanged(key);
          });
}

template <typename Call>
void ModelList::post(Call&& call) {
  QMetaObject::invokeMethod(worker_, std::forward<Call>(call), Qt::QueuedConnection);
}

void ModelList::findShipped() {
  post([w = worker_] { w->findModels(); });
}

void ModelList::openFile(const QString& path) {
  fileOpened_ = true;
  ++openingFiles_;
  post([w = worker_, path] { w->readModelFile(path); });
}

void ModelList::addFile(const QString& path, const ModelInfo& info) {
  --openingFiles_;
  QString key = QFileInfo(path).completeBaseName();
  if (keys_.contains(key)) key += QStringLiteral(" (%1)").arg(QFileInfo(path).absolutePath());
  post([w = worker_, key, path] { w->registerModel(key, path); });
  infos_.insert(key, info);
  pairs_.insert(key, QString::fromStdString(language_pair_of(info)));
  keys_ << key;
  Q_EMIT fileAdded(key, path);
  runDeferred();
}

QStringList ModelList::shippedKeys(const QString& pair) const {
  QStringList keys;
  for (const QString& key : shipped_)
    if (pairs_.value(key) == pair) keys << key;
  return keys;
}

QStringList ModelList::shippedPairs() const {
  QStringList pairs;
  for (const QString& key : shipped_)
    if (!pairs.contains(pairs_.value(key))) pairs << pairs_.value(key);
  return pairs;
}

const ModelInfo* ModelList::info(const QString& key) const {
  const auto it = infos_.constFind(key);
  return it == infos_.constEnd() ? nullptr : &*it;
}

void ModelList::requestInfo(const QString& key) {
  if (key.isEmpty() || infos_.contains(key)) return;
  post([w = worker_, key] { w->loadModel(key); });  // lazily, off the GUI thread
}

void ModelList::whenReady(std::function<void()> call) {
  if (ready())
    call();
  else
    deferred_ << std::move(call);
}

void ModelList::runDeferred() {
  if (!ready()) return;
  const QList<std::function<void()>> calls = std::move(deferred_);
  deferred_.clear();
  for (const auto& call : calls) call();
}

}  // namespace attnscope::ui
