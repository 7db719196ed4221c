#include "workers/engine_worker.h"

#include <attnscope/cpu_dispatch.h>
#include <attnscope/model_catalog.h>
#include <attnscope/thread_settings.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <type_traits>

#include "core/what_if_text.h"

namespace attnscope::ui {
namespace {
constexpr int kTopK = 5;  // candidates per step, as the step panel lists them
// One sentence at a time is a chain of small, memory-bound operations: a second OpenMP thread
// only spins. Measured with attnscope-gui-bench: translate + redraw 17 ms with one thread on the
// worker, against 40 ms to over a second with two while the machine is busy.
constexpr int kDecodingThreads = 1;
// Attribution is the exception: integrated gradients runs batched products over every point of
// the path and output token, large enough for every core to pay (bench --explain: 20 words at 64
// steps, docs/explanation.md "Speed"); every other request sets the worker's count back to one.
constexpr int kAttributionThreads = 0;  // every core
}  // namespace

EngineWorker::EngineWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<attnscope::ModelInfo>();
  qRegisterMetaType<attnscope::Translation>();
  qRegisterMetaType<QList<attnscope::Translation>>();
  qRegisterMetaType<attnscope::ui::SessionSnapshot>();
  qRegisterMetaType<attnscope::ui::CompareResult>();
  qRegisterMetaType<attnscope::ui::CompareTarget>();
  qRegisterMetaType<attnscope::ui::CompareEdits>();
  qRegisterMetaType<attnscope::ui::ExplainSupport>();
  qRegisterMetaType<attnscope::ui::AttributionResult>();
  qRegisterMetaType<attnscope::ui::EditResult>();
  qRegisterMetaType<attnscope::ui::BeamResult>();
  qRegisterMetaType<attnscope::ui::BeamNodeResult>();
  qRegisterMetaType<attnscope::ui::BeamContinuation>();
}

EngineWorker::~EngineWorker() = default;

template <typename Work>
bool EngineWorker::guarded(Work&& work) {
  // Every request that runs a model comes here, on the worker's thread, which keeps the count it
  // sets: no other tab's setting reaches it.
  set_thread_count(kDecodingThreads);
  try {
    work();
    return true;
  } catch (const std::exception& e) {
    Q_EMIT errorOccurred(QString::fromStdString(e.what()));
    return false;
  }
}

void EngineWorker::findModels() {
  QStringList keys, paths, pairs;
  for (const std::string& pair : shipped_language_pairs())
    for (const std::string& name : score_function_names()) {
      // A broken file in ATTNSCOPE_MODEL_DIR gives way to the shipped model it would hide; a
      // model broken everywhere is listed, and picking it names the problem.
      std::string path = find_usable_model(name, pair);
      if (path.empty()) path = find_shipped_model(name, pair);
      if (path.empty()) continue;  // not shipped with this build: not listed
      const QString key = QString::fromStdString(shipped_model_name(name, pair));
      registerModel(key, QString::fromStdString(path));
      keys << key;
      paths << QString::fromStdString(path);
      pairs << QString::fromStdString(pair);
    }
  Q_EMIT modelsFound(keys, paths, pairs);
  // Then each one's header (cheap: no weights), for the model box's tooltips and the input
  // line's hint before a model is loaded.
  for (int i = 0; i < keys.size(); ++i) {
    try {
      Q_EMIT modelLoaded(keys[i], read_model_info(paths[i].toStdString()));
    } catch (const std::exception&) {
      // Listed anyway: loading it names the problem when the user picks it.
    }
  }
}

void EngineWorker::readModelFile(const QString& path) {
  try {
    const ModelInfo info = read_model_info(path.toStdString());
    Q_EMIT modelFileRead(path, info);
  } catch (const std::exception& e) {
    Q_EMIT modelFileFailed(path, QString::fromStdString(e.what()));
  }
}

void EngineWorker::registerModel(const QString& key, const QString& path) {
  paths_.insert(key, path);
  translators_.remove(key);
  if (key == sessionKey_) session_.reset();  // it decodes with the model the key no longer names
}

const Translator& EngineWorker::translator(const QString& key) {
  if (auto it = translators_.find(key); it != translators_.end()) return **it;
  const auto path = paths_.find(key);
  if (path == paths_.end())
    throw std::runtime_error("no model '" + key.toStdString() + "' is installed");
  // The one-sentence path at its fastest: int8 output weights keep the translations (the
  // shipped models' test sets, docs/performance.md) and move a shown probability by under the
  // bound docs/app.md gives.
  auto loaded = std::make_shared<Translator>(path->toStdString(), OutputWeights::kInt8);
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
                           session_->finished(), sessionLength_};
  // The session keeps "<unk>" (its steps are what the model emits); copying is applied here, so
  // switching it needs no new session.
  if (unknownWords_ == UnknownWords::kCopy) copy_unknown_words(snapshot.translation);
  Q_EMIT sessionChanged(generation, snapshot);
}

void EngineWorker::rewindTo(int steps) {
  const int now = static_cast<int>(session_->steps().size());
  if (steps >= now) return;
  session_->rewind(now - steps);
  sessionForced_.erase(sessionForced_.lowerBound(steps), sessionForced_.end());
}

void EngineWorker::showSession(quint64 generation, const SessionRequest& request) {
  if (obsolete(generation)) return;
  const bool ok = guarded([&] {
    if (!session_ || sessionNumber_ != request.session) {
      const Translator& model = translator(request.modelKey);
      session_.reset();  // before sessionTranslator_ lets go of the model it decodes with
      sessionTranslator_ = translators_.value(request.modelKey);
      session_ = model.start(request.sentence.toStdString(), kTopK, UnknownWords::kKeep);
      sessionNumber_ = request.session;
      sessionKey_ = request.modelKey;
      sessionForced_.clear();
      sessionLength_ = -1;
      ExplainSupport support;
      for (AttributionMethod method : attribution_methods())
        support.methods.insert(static_cast<int>(method),
                               QString::fromStdString(attribution_support(model, method)));
      support.editing = QString::fromStdString(edit_support(model));
      Q_EMIT supportFound(request.modelKey, support);
    }
    // Keep the steps the session and the request agree on: greedy decoding is deterministic, so
    // only a differing forced token invalidates the steps from its index on.
    int keep = static_cast<int>(session_->steps().size());
    if (request.steps >= 0) keep = std::min(keep, request.steps);
    for (auto it = sessionForced_.cbegin(); it != sessionForced_.cend(); ++it)
      if (request.forced.value(it.key()) != it.value()) keep = std::min(keep, it.key());
    for (auto it = request.forced.cbegin(); it != request.forced.cend(); ++it)
      if (sessionForced_.value(it.key()) != it.value()) keep = std::min(keep, it.key());
    if (sessionForced_ != request.forced) sessionLength_ = -1;  // another path
    rewindTo(keep);
    const auto reached = [&] {
      return session_->finished() ||
             (request.steps >= 0 && static_cast<int>(session_->steps().size()) >= request.steps);
    };
    while (!reached()) {
      // Stopping here leaves a consistent session: the newer request goes on from it.
      if (obsolete(generation)) return;
      const int at = static_cast<int>(session_->steps().size());
      if (const auto token = request.forced.find(at); token != request.forced.cend()) {
        session_->force(token->toStdString());
        sessionForced_.insert(at, *token);
      } else {
        session_->step();
      }
    }
    if (session_->finished()) sessionLength_ = static_cast<int>(session_->steps().size());
    if (request.steps < 0)
      rewindTo(std::max(0, static_cast<int>(session_->steps().size()) + request.steps + 1));
    publishSession(generation);
  });
  if (!ok) Q_EMIT requestFailed(generation);
}

TranslationOptions EngineWorker::searchOptions(const BeamRequest& request) const {
  TranslationOptions options;
  options.beam_size = request.beamSize;
  options.gnmt_alpha = request.lengthPenalty;
  options.coverage_penalty = request.coveragePenalty;
  options.unknown_words = unknownWords_;
  return options;
}

void EngineWorker::searchBeam(quint64 generation, const BeamRequest& request) {
  constexpr Channel kChannel = Channel::BeamTree;
  if (obsolete(generation, kChannel)) return;
  BeamResult result;
  result.request = request;
  set_thread_count(kDecodingThreads);
  try {
    // One search gives both the tree and the final beam listed beside the heatmap.
    const std::vector<Translation> finalBeam =
        translator(request.modelKey)
            .translate_nbest_with_tree(request.sentence.toStdString(), searchOptions(request),
                                       result.tree);
    result.finalBeam = QList<Translation>(finalBeam.begin(), finalBeam.end());
  } catch (const std::exception& e) {
    // Said in the beam view and, as every failed request, in a dialog.
    result.error = QString::fromStdString(e.what());
    if (!obsolete(generation, kChannel)) Q_EMIT errorOccurred(result.error);
  }
  if (!obsolete(generation, kChannel)) Q_EMIT beamSearched(generation, result);
}

void EngineWorker::decodeBeamNode(quint64 generation, const BeamRequest& request, int node,
                                  const std::vector<int>& path) {
  constexpr Channel kChannel = Channel::BeamNode;
  if (obsolete(generation, kChannel)) return;
  BeamNodeResult result;
  result.node = node;
  set_thread_count(kDecodingThreads);
  try {
    // Greedy decoding forced along the path and stopped where it ends: the node's hypothesis
    // with the model's probabilities and attention at each of its steps, nothing after.
    TranslationOptions options = searchOptions(request);
    options.beam_size = 1;
    options.prefix = path;
    options.max_length_ratio = 0.0f;
    options.max_length_extra = static_cast<int>(path.size());
    if (!path.empty())
      result.translation =
          translator(request.modelKey).translate(request.sentence.toStdString(), options);
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  if (!obsolete(generation, kChannel)) Q_EMIT beamNodeDecoded(generation, result);
}

void EngineWorker::continueBeam(quint64 generation, const BeamRequest& request, int node,
                                const std::vector<int>& path) {
  constexpr Channel kChannel = Channel::BeamContinuation;
  if (obsolete(generation, kChannel)) return;
  BeamContinuation result;
  result.node = node;
  set_thread_count(kDecodingThreads);
  try {
    TranslationOptions options = searchOptions(request);
    options.prefix = path;
    result.best = translator(request.modelKey)
                      .translate_with_tree(request.sentence.toStdString(), options, result.tree);
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  if (!obsolete(generation, kChannel)) Q_EMIT beamContinued(generation, result);
}

void EngineWorker::compare(quint64 generation, const QStringList& keys, const QString& sentence,
                           const CompareTarget& target, bool words, const CompareEdits& edits) {
  constexpr Channel kCompare = Channel::Compare;
  if (obsolete(generation, kCompare)) return;
  guarded([&] {
    const std::string source = sentence.toStdString();
    TranslationOptions decoding;
    decoding.unknown_words = unknownWords_;
    std::string common;
    if (target.kind == CompareTarget::Kind::Reference) common = target.text.toStdString();
    // A common target keeps "<unk>" in every heatmap: copying would put each model's own
    // source word there, and the plots would no longer share their rows. (The common target
    // itself is always copied, so its words read as one unknown token each, never as the three
    // tokens "< unk >".)
    if (target.kind == CompareTarget::Kind::ModelOutput)
      common = translator(target.modelKey).translate(source).text();  // copied, whatever the view
    CompareResult result;
    result.keys = keys;
    for (int i = 0; i < keys.size(); ++i) {
      if (obsolete(generation, kCompare)) return;  // cancelled, or a newer request is queued
      const Translator& model = translator(keys[i]);
      const Translation t = target.kind == CompareTarget::Kind::OwnTranslations
                                ? model.translate(source, decoding)
                                : model.force_decode(source, common, UnknownWords::kKeep);
      if (!edits.edits.empty() && target.kind == CompareTarget::Kind::OwnTranslations) {
        compareEdited(model, source, t, edits, words, keys[i], result);
        Q_EMIT compareProgress(generation, i + 1, keys.size());
        continue;
      }
      // Words for a subword model by default, as in the main view: the grid's word models
      // show words, and on a common target every plot then has the same rows.
      AttentionView view;
      view.words = words;
      result.matrices << AttentionMatrix::fromTranslation(t, keys[i], view);
      result.translations << QString::fromStdString(t.text());
      Q_EMIT compareProgress(generation, i + 1, keys.size());
    }
    Q_EMIT compareReady(generation, result);
  });
}

void EngineWorker::compareEdited(const Translator& model, const std::string& source,
                                 const Translation& own, const CompareEdits& edits, bool words,
                                 const QString& key, CompareResult& result) const {
  AttentionView view;
  view.words = words;
  QString reason = QString::fromStdString(edit_support(model));
  // Uniform and shuffled rows fit any source; an edit naming positions needs the same tokens.
  const bool positional =
      std::any_of(edits.edits.begin(), edits.edits.end(), [](const AttentionEdit& e) {
        return e.kind != AttentionEdit::Kind::kUniform && e.kind != AttentionEdit::Kind::kShuffle;
      });
  const std::vector<std::string>& tokens = own.source.tokens;
  if (reason.isEmpty() && positional && tokens != edits.sourceTokens)
    reason = tokens.size() != edits.sourceTokens.size()
                 ? QObject::tr("it reads the sentence as %1 tokens, the edit counts %2 (%3's)")
                       .arg(tokens.size())
                       .arg(edits.sourceTokens.size())
                       .arg(edits.madeOn)
                 : QObject::tr("its source tokens are not %1's, which the edit's positions count")
                       .arg(edits.madeOn);
  if (reason.isEmpty()) {
    try {
      TranslationOptions options;
      options.unknown_words = unknownWords_;
      const EditedTranslation edited =
          translate_with_edits(model, source, WhatIf{edits.edits, {}}, options);
      result.matrices << AttentionMatrix::fromTranslation(edited.translation, key, view);
      result.translations << QString::fromStdString(edited.translation.text());
      result.whatIf << whatIfHtml(own, edited.translation);
      result.editFits << true;
      return;
    } catch (const std::exception& e) {
      reason = QString::fromStdString(e.what());
    }
  }
  result.matrices << AttentionMatrix::fromTranslation(own, key, view);
  result.translations << QString::fromStdString(own.text());
  result.whatIf << reason;
  result.editFits << false;
}

Translation EngineWorker::forcedPath(const Translator& model, const QString& sentence,
                                     const QMap<int, QString>& forced) const {
  const auto session = model.start(sentence.toStdString(), 1, UnknownWords::kKeep);
  while (!session->finished()) {
    const int at = static_cast<int>(session->steps().size());
    if (const auto token = forced.find(at); token != forced.cend())
      session->force(token->toStdString());
    else
      session->step();
  }
  return session->translation();
}

void EngineWorker::attribute(quint64 generation, const AttributionRequest& request) {
  constexpr Channel kChannel = Channel::Attribution;
  if (obsolete(generation, kChannel)) return;
  AttributionResult result;
  result.request = request;
  set_thread_count(kAttributionThreads);
  try {
    const Translator& model = translator(request.modelKey);
    const std::string reason = attribution_support(model, request.method);
    if (!reason.empty()) throw std::runtime_error(reason);
    AttributionOptions options;
    options.method = request.method;
    options.ig_steps = request.igSteps;
    options.ig_tolerance = request.igTolerance;
    options.ig_seconds = request.igSeconds;
    // Any newer request, of any channel (another sentence, a step, another method), is the user
    // moving on: refining yields to it at its next pass.
    std::array<quint64, std::extent_v<decltype(latest_)>> asked{};
    for (size_t c = 0; c < asked.size(); ++c) asked[c] = latest_[c].load();
    options.stop_refining = [this, asked, &result] {
      for (size_t c = 0; c < asked.size(); ++c)
        if (latest_[c].load() != asked[c]) return result.yielded = true;
      return false;
    };
    // Each pass short of the tolerance is shown at once; the finer one follows.
    options.on_refining = [&](const Attribution& so_far) {
      AttributionResult early = result;
      early.attribution = so_far;
      early.refining = true;
      if (!obsolete(generation, kChannel)) Q_EMIT attributionReady(generation, early);
    };
    // Forced tokens lead elsewhere than greedy search: that path, to its end, is explained,
    // token by token as the session emitted it (its text would be tokenised anew, copied
    // unknown words and subword pieces included, and could give other tokens).
    if (request.forced.isEmpty()) {
      result.attribution = attnscope::attribute(model, request.sentence.toStdString(), options);
    } else {
      const Translation path = forcedPath(model, request.sentence, request.forced);
      result.attribution =
          attribute_tokens(model, request.sentence.toStdString(), options, path.tokens);
    }
  } catch (const std::exception& e) {
    // Shown where the attribution would be, not as a dialog: the attention stays usable.
    result.error = QString::fromStdString(e.what());
  }
  result.yielded = result.yielded && result.attribution.ig_cut_short;
  if (!obsolete(generation, kChannel)) Q_EMIT attributionReady(generation, result);
}

void EngineWorker::decodeEdits(quint64 generation, const EditRequest& request) {
  constexpr Channel kChannel = Channel::Edit;
  if (obsolete(generation, kChannel)) return;
  EditResult result;
  set_thread_count(kDecodingThreads);
  try {
    const Translator& model = translator(request.modelKey);
    const std::string reason = edit_support(model);
    if (!reason.empty()) throw std::runtime_error(reason);
    TranslationOptions options;
    options.unknown_words = unknownWords_;
    std::map<int, std::string> forced;
    for (auto it = request.forced.cbegin(); it != request.forced.cend(); ++it)
      forced.emplace(it.key(), it.value().toStdString());
    const std::string sentence = request.sentence.toStdString();
    result.original =
        translate_with_edits(model, sentence, WhatIf{{}, forced}, options).translation;
    result.edited = translate_with_edits(model, sentence, WhatIf{request.edits, forced}, options);
  } catch (const std::exception& e) {
    // Shown in place of the what-if line, not as a dialog: a refused edit is an answer too.
    result.error = QString::fromStdString(e.what());
  }
  if (!obsolete(generation, kChannel)) Q_EMIT editReady(generation, result);
}

}  // namespace attnscope::ui
