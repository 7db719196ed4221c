#include "engine_worker.h"

#include <stdexcept>

namespace attnscope::ui {

EngineWorker::EngineWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<attnscope::ModelInfo>();
  qRegisterMetaType<attnscope::Translation>();
  qRegisterMetaType<QList<attnscope::Translation>>();
  qRegisterMetaType<attnscope::ui::SessionSnapshot>();
  qRegisterMetaType<attnscope::ui::CompareResult>();
  qRegisterMetaType<attnscope::ui::CompareTarget>();
}

EngineWorker::~EngineWorker() = default;

template <typename Work>
void EngineWorker::guarded(Work&& work) {
  try {
    work();
  } catch (const std::exception& e) {
    Q_EMIT errorOccurred(QString::fromStdString(e.what()));
  }
}

void EngineWorker::registerModel(const QString& key, const QString& path) {
  paths_.insert(key, path);
  translators_.remove(key);
}

const Translator& EngineWorker::translator(const QString& key) {
  if (auto it = translators_.find(key); it != translators_.end()) return **it;
  const auto path = paths_.find(key);
  if (path == paths_.end())
    throw std::runtime_error("no model '" + key.toStdString() + "' is installed");
  auto loaded = std::make_shared<Translator>(path->toStdString());
  translators_.insert(key, loaded);
  Q_EMIT modelLoaded(key, loaded->info());
  return *loaded;
}

void EngineWorker::loadModel(const QString& key) {
  guarded([&] { translator(key); });
}

void EngineWorker::publishSession(quint64 generation) {
  if (!session_) return;
  SessionSnapshot snapshot{sessionKey_, session_->translation(), session_->steps(),
                           session_->finished()};
  Q_EMIT sessionChanged(generation, snapshot);
}

void EngineWorker::startSession(quint64 generation, const QString& key, const QString& sentence,
                                bool toEnd) {
  if (obsolete(generation)) return;
  guarded([&] {
    translator(key);
    sessionTranslator_ = translators_.value(key);
    sessionKey_ = key;
    session_ = sessionTranslator_->start(sentence.toStdString(), 5);
    while (toEnd && !session_->finished()) {
      if (obsolete(generation)) return;
      session_->step();
    }
    publishSession(generation);
  });
}

void EngineWorker::translate(quint64 generation, const QString& key, const QString& sentence,
                             int beam) {
  if (obsolete(generation)) return;
  if (beam <= 1) {
    startSession(generation, key, sentence, /*toEnd=*/true);
    return;
  }
  guarded([&] {
    TranslationOptions options;
    options.beam_size = beam;
    const auto nbest = translator(key).translate_nbest(sentence.toStdString(), options);
    if (!obsolete(generation))
      Q_EMIT beamReady(generation, QList<Translation>(nbest.begin(), nbest.end()));
  });
}

void EngineWorker::stepForward(quint64 generation, int count) {
  if (!session_ || obsolete(generation)) return;
  guarded([&] {
    for (int i = 0; i < count && !session_->finished(); ++i) session_->step();
    publishSession(generation);
  });
}

void EngineWorker::stepBack(quint64 generation, int count) {
  if (!session_ || obsolete(generation)) return;
  session_->rewind(count);
  publishSession(generation);
}

void EngineWorker::force(quint64 generation, int row, const QString& token) {
  if (!session_ || obsolete(generation)) return;
  guarded([&] {
    const int steps = static_cast<int>(session_->steps().size());
    session_->rewind(std::max(0, steps - row));
    session_->force(token.toStdString());
    // What-if: decoding carries on from the chosen token to the end.
    while (!session_->finished()) {
      if (obsolete(generation)) return;
      session_->step();
    }
    publishSession(generation);
  });
}

void EngineWorker::compare(quint64 generation, const QStringList& keys, const QString& sentence,
                           const CompareTarget& target) {
  constexpr Channel kCompare = Channel::Compare;
  if (obsolete(generation, kCompare)) return;
  guarded([&] {
    const std::string source = sentence.toStdString();
    std::string common;
    if (target.kind == CompareTarget::Kind::Reference) common = target.text.toStdString();
    if (target.kind == CompareTarget::Kind::ModelOutput)
      common = translator(target.modelKey).translate(source).text();
    CompareResult result;
    result.keys = keys;
    for (int i = 0; i < keys.size(); ++i) {
      if (obsolete(generation, kCompare)) return;  // cancelled, or a newer request is queued
      const Translator& model = translator(keys[i]);
      const Translation t = target.kind == CompareTarget::Kind::OwnTranslations
                                ? model.translate(source)
                                : model.force_decode(source, common);
      result.matrices << AttentionMatrix::fromTranslation(t, keys[i]);
      result.translations << QString::fromStdString(t.text());
      Q_EMIT compareProgress(generation, i + 1, keys.size());
    }
    Q_EMIT compareReady(generation, result);
  });
}

}  // namespace attnscope::ui
