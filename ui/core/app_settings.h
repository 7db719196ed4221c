#pragma once
// Every setting the app remembers between runs, in one typed place: a getter with its default
// and a setter per key. Keys and defaults live only in app_settings.cpp. Create one where a
// setting is read or written (QSettings reads the organisation and application names set in
// main(), and keeps one cache per process, so a short-lived object costs little).
#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

#include "core/corpus_pace.h"

namespace attnscope::ui {

class AppSettings {
 public:
  // The window.
  QByteArray windowGeometry() const;
  void setWindowGeometry(const QByteArray& geometry);
  QByteArray windowState() const;
  void setWindowState(const QByteArray& state);
  QByteArray splitterState() const;
  void setSplitterState(const QByteArray& state);
  /// The shipped model chosen last ("additive" the first time).
  QString score() const;
  void setScore(const QString& score);
  QString colormap() const;
  void setColormap(const QString& name);
  bool showValues() const;
  void setShowValues(bool show);
  /// The Translation tab's Show: "attention" (the default) or an attribution method's name
  /// ("ig"), and whether it is shown beside the attention.
  QString shownValues() const;
  void setShownValues(const QString& shown);
  bool sideBySide() const;
  void setSideBySide(bool on);
  bool copyUnknownWords() const;
  void setCopyUnknownWords(bool copy);
  /// The toolbar's search: 1 for greedy (the default), else the beam's size.
  int beamSize() const;
  void setBeamSize(int beam);
  /// The beam's GNMT length penalty alpha (negative, the default: scores divided by the length)
  /// and coverage penalty beta (0, the default: none).
  double lengthPenalty() const;
  void setLengthPenalty(double alpha);
  double coveragePenalty() const;
  void setCoveragePenalty(double beta);
  /// The Beam view draws pruned candidates (faded; the default) or hides them.
  bool showPruned() const;
  void setShowPruned(bool show);
  /// Play's speed, in steps per second.
  int playSpeed() const;
  void setPlaySpeed(int stepsPerSecond);
  /// The input line's sentences, oldest first.
  QStringList history() const;
  void setHistory(const QStringList& sentences);

  /// The folders file dialogs open in, one per kind of file: where the user saved or chose such
  /// a file last. Models opened and saved share one, so a model just saved is where Open looks.
  enum class Folder { Export, Corpus, Model, Timeline, AttentionFile };
  QString folder(Folder which) const;
  /// Remembers the folder of `path` (a file).
  void setFolderOf(Folder which, const QString& path);

  /// File > Open attention: what was opened last.
  struct AttentionFileChoice {
    QString path;
    QString format;  // empty: from the content
    QString source;
    QString target;
    int line = 1;
    bool oneBased = false;
  };
  AttentionFileChoice attentionFile() const;
  void setAttentionFile(const AttentionFileChoice& choice);

  // The Corpus tab's test set.
  QString corpusSource() const;
  QString corpusReference() const;
  void setCorpusFiles(const QString& source, const QString& reference);
  // The target side of the models' training corpus: the leak share needs it ("" for none).
  QString corpusTrainingTarget() const;
  void setCorpusTrainingTarget(const QString& path);
  // This computer's pace in the Corpus tab, as the last runs measured it (its estimates).
  CorpusPace corpusPace() const;
  void setCorpusPace(const CorpusPace& pace);

  // The Train tab: the task ("" for a parallel corpus) and the corpus's four files.
  QString trainTask() const;
  void setTrainTask(const QString& task);
  QStringList trainCorpusFiles() const;
  void setTrainCorpusFiles(const QStringList& files);

 private:
  mutable QSettings settings_;
};

}  // namespace attnscope::ui
