#pragma once
// The step-wise session as the GUI sees it, without widgets: which sentence and model, which
// tokens were forced, which step to show, and the play timer. Every request to the worker names
// the state to show ("step N"), so requests made faster than the model answers all take effect:
// a newer one may replace a queued older one because it carries the whole target.
#include <QObject>
#include <QTimer>
#include <optional>

#include "workers/engine_worker.h"

namespace attnscope::ui {

class DecodingController : public QObject {
  Q_OBJECT
 public:
  /// `worker` may live on another thread; requests are queued to it.
  explicit DecodingController(EngineWorker* worker, QObject* parent = nullptr);

  /// A fresh session of `sentence` on model `key`, showing `steps` steps (kToEnd: all of them).
  void start(const QString& key, const QString& sentence, int steps = SessionRequest::kToEnd);
  /// No session at all (an empty sentence, a beam search shown): stepping does nothing until the
  /// next start().
  void clear();
  /// Whether stepping goes on with the session of `sentence` on `key`.
  bool isSessionOf(const QString& key, const QString& sentence) const;

  /// Shows exactly `steps` steps, or all when the sentence finishes earlier.
  void goToStep(int steps);
  void stepForward();
  void stepBack();
  /// Every step, to the end of the sentence (End); pauses Play.
  void goToEnd();
  void rewind() { goToStep(0); }
  /// Back to the start of the model's own decoding: forced tokens are dropped (Reset, Home).
  void reset();
  /// Whether a token is forced anywhere on the current path.
  bool hasForced() const { return !request_.forced.isEmpty(); }
  /// The forced tokens of the current path, by step.
  const QMap<int, QString>& forced() const { return request_.forced; }
  /// The session's sentence (empty without a session).
  const QString& sentence() const { return request_.sentence; }
  EngineWorker* worker() const { return worker_; }
  /// Emits `token` at step `row` instead of the argmax and decodes on to the end (what-if). The
  /// forced token stays part of the session: stepping back over it and forward again replays it.
  void force(int row, const QString& token);

  void play();
  void pause();
  /// Play; from the start again when the whole sentence is shown.
  void togglePlay();
  bool playing() const { return playTimer_.isActive(); }
  void setPlayInterval(int milliseconds) { playTimer_.setInterval(milliseconds); }

  /// The number of steps asked for; negative while the end is asked for but not known yet.
  int targetStep() const { return request_.steps; }
  /// A request has not been answered yet.
  bool busy() const { return busy_; }
  /// The newest answer: what the window shows (nothing before the first one, or after a beam).
  const std::optional<SessionSnapshot>& snapshot() const { return snapshot_; }
  /// The step the step panel shows (clicked on the heatmap); −1: the newest.
  void setSelectedRow(int row) { selectedRow_ = row; }
  /// The selected step when there is one, else the newest; −1 when no step is shown.
  int shownRow() const;

 Q_SIGNALS:
  /// snapshot() holds the answer to the newest request.
  void snapshotChanged();
  void playingChanged(bool playing);

 private:
  bool hasSession() const { return request_.session != 0; }
  // `steps` as a count from the start, when the end it may count from is known.
  int fromStart(int steps) const;
  void send();
  void receive(quint64 generation, const SessionSnapshot& snapshot);
  void tick();
  template <typename Call>
  void post(Call&& call);

  EngineWorker* worker_;
  quint64 generation_ = 0;      // of the newest main-channel request
  quint64 pathGeneration_ = 0;  // of the first request for the current sentence and forced tokens
  quint64 sessions_ = 0;        // numbers the sessions started
  SessionRequest request_;      // what is asked for now; session 0: no session
  int length_ = -1;             // the step count of the whole sentence, once known
  bool busy_ = false;
  std::optional<SessionSnapshot> snapshot_;
  int selectedRow_ = -1;
  QTimer playTimer_;
};

}  // namespace attnscope::ui
