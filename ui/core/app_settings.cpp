#include "core/app_settings.h"

#include <QFileInfo>

namespace attnscope::ui {
namespace {

// The keys, as earlier versions wrote them: a user's settings carry over.
const QString kGeometry = QStringLiteral("geometry");
const QString kWindowState = QStringLiteral("windowState");
const QString kSplitter = QStringLiteral("splitter");
const QString kScore = QStringLiteral("score");
const QString kColormap = QStringLiteral("colormap");
const QString kShowValues = QStringLiteral("showValues");
const QString kShownValues = QStringLiteral("shownValues");
const QString kSideBySide = QStringLiteral("sideBySide");
const QString kCopyUnknownWords = QStringLiteral("copyUnknownWords");
const QString kHistory = QStringLiteral("history");
const QString kBeamSize = QStringLiteral("beamSize");
const QString kPlaySpeed = QStringLiteral("playSpeed");
const QString kLengthPenalty = QStringLiteral("beam/lengthPenalty");
const QString kCoveragePenalty = QStringLiteral("beam/coveragePenalty");
const QString kShowPruned = QStringLiteral("beam/showPruned");
const QString kAttentionFileGroup = QStringLiteral("attentionFile");
const QString kCorpusSource = QStringLiteral("corpus/source");
const QString kCorpusReference = QStringLiteral("corpus/reference");
const QString kCorpusTrainingTarget = QStringLiteral("corpus/trainingTarget");
const QString kTrainTask = QStringLiteral("train/task");
const QString kTrainCorpusFiles = QStringLiteral("train/corpusFiles");

QString folderKey(AppSettings::Folder which) {
  switch (which) {
    case AppSettings::Folder::Export:
      return QStringLiteral("exportFolder");
    case AppSettings::Folder::Corpus:
      return QStringLiteral("train/corpusFolder");
    case AppSettings::Folder::Model:
      return QStringLiteral("train/modelFolder");
    case AppSettings::Folder::Timeline:
      return QStringLiteral("train/timelineFolder");
    case AppSettings::Folder::AttentionFile:
      return QStringLiteral("attentionFileFolder");
  }
  return QString();
}

}  // namespace

QByteArray AppSettings::windowGeometry() const { return settings_.value(kGeometry).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray& geometry) {
  settings_.setValue(kGeometry, geometry);
}
QByteArray AppSettings::windowState() const { return settings_.value(kWindowState).toByteArray(); }
void AppSettings::setWindowState(const QByteArray& state) {
  settings_.setValue(kWindowState, state);
}
QByteArray AppSettings::splitterState() const { return settings_.value(kSplitter).toByteArray(); }
void AppSettings::setSplitterState(const QByteArray& state) {
  settings_.setValue(kSplitter, state);
}

QString AppSettings::score() const {
  return settings_.value(kScore, QStringLiteral("additive")).toString();
}
void AppSettings::setScore(const QString& score) { settings_.setValue(kScore, score); }
QString AppSettings::colormap() const {
  return settings_.value(kColormap, QStringLiteral("viridis")).toString();
}
void AppSettings::setColormap(const QString& name) { settings_.setValue(kColormap, name); }
bool AppSettings::showValues() const { return settings_.value(kShowValues, false).toBool(); }
void AppSettings::setShowValues(bool show) { settings_.setValue(kShowValues, show); }
QString AppSettings::shownValues() const {
  return settings_.value(kShownValues, QStringLiteral("attention")).toString();
}
void AppSettings::setShownValues(const QString& shown) { settings_.setValue(kShownValues, shown); }
bool AppSettings::sideBySide() const { return settings_.value(kSideBySide, false).toBool(); }
void AppSettings::setSideBySide(bool on) { settings_.setValue(kSideBySide, on); }
bool AppSettings::copyUnknownWords() const {
  return settings_.value(kCopyUnknownWords, true).toBool();
}
void AppSettings::setCopyUnknownWords(bool copy) { settings_.setValue(kCopyUnknownWords, copy); }
int AppSettings::beamSize() const { return settings_.value(kBeamSize, 1).toInt(); }
void AppSettings::setBeamSize(int beam) { settings_.setValue(kBeamSize, beam); }
int AppSettings::playSpeed() const { return settings_.value(kPlaySpeed, 4).toInt(); }
void AppSettings::setPlaySpeed(int stepsPerSecond) {
  settings_.setValue(kPlaySpeed, stepsPerSecond);
}
double AppSettings::lengthPenalty() const {
  return settings_.value(kLengthPenalty, -1.0).toDouble();
}
void AppSettings::setLengthPenalty(double alpha) { settings_.setValue(kLengthPenalty, alpha); }
double AppSettings::coveragePenalty() const {
  return settings_.value(kCoveragePenalty, 0.0).toDouble();
}
void AppSettings::setCoveragePenalty(double beta) { settings_.setValue(kCoveragePenalty, beta); }
bool AppSettings::showPruned() const { return settings_.value(kShowPruned, true).toBool(); }
void AppSettings::setShowPruned(bool show) { settings_.setValue(kShowPruned, show); }
QStringList AppSettings::history() const { return settings_.value(kHistory).toStringList(); }
void AppSettings::setHistory(const QStringList& sentences) {
  settings_.setValue(kHistory, sentences);
}

QString AppSettings::folder(Folder which) const {
  return settings_.value(folderKey(which)).toString();
}
void AppSettings::setFolderOf(Folder which, const QString& path) {
  settings_.setValue(folderKey(which), QFileInfo(path).absolutePath());
}

AppSettings::AttentionFileChoice AppSettings::attentionFile() const {
  settings_.beginGroup(kAttentionFileGroup);
  AttentionFileChoice c;
  c.path = settings_.value(QStringLiteral("path")).toString();
  c.format = settings_.value(QStringLiteral("format")).toString();
  c.source = settings_.value(QStringLiteral("source")).toString();
  c.target = settings_.value(QStringLiteral("target")).toString();
  c.line = settings_.value(QStringLiteral("line"), 1).toInt();
  c.oneBased = settings_.value(QStringLiteral("oneBased"), false).toBool();
  settings_.endGroup();
  return c;
}
void AppSettings::setAttentionFile(const AttentionFileChoice& c) {
  settings_.beginGroup(kAttentionFileGroup);
  settings_.setValue(QStringLiteral("path"), c.path);
  settings_.setValue(QStringLiteral("format"), c.format);
  settings_.setValue(QStringLiteral("source"), c.source);
  settings_.setValue(QStringLiteral("target"), c.target);
  settings_.setValue(QStringLiteral("line"), c.line);
  settings_.setValue(QStringLiteral("oneBased"), c.oneBased);
  settings_.endGroup();
}

QString AppSettings::corpusSource() const { return settings_.value(kCorpusSource).toString(); }
QString AppSettings::corpusReference() const {
  return settings_.value(kCorpusReference).toString();
}
void AppSettings::setCorpusFiles(const QString& source, const QString& reference) {
  settings_.setValue(kCorpusSource, source);
  settings_.setValue(kCorpusReference, reference);
}
QString AppSettings::corpusTrainingTarget() const {
  return settings_.value(kCorpusTrainingTarget).toString();
}
void AppSettings::setCorpusTrainingTarget(const QString& path) {
  settings_.setValue(kCorpusTrainingTarget, path);
}
CorpusPace AppSettings::corpusPace() const {
  // A value edited by hand to nonsense falls back to the default pace.
  const CorpusPace defaults;
  const auto seconds = [this](const QString& key, double fallback) {
    bool ok = false;
    const double value = settings_.value(key).toDouble(&ok);
    return ok && value > 0.0 && value < 3600.0 ? value : fallback;
  };
  return {seconds(QStringLiteral("corpus/decodeSeconds"), defaults.decodeSeconds),
          seconds(QStringLiteral("corpus/faithfulnessSeconds"), defaults.faithfulnessSeconds)};
}
void AppSettings::setCorpusPace(const CorpusPace& pace) {
  settings_.setValue(QStringLiteral("corpus/decodeSeconds"), pace.decodeSeconds);
  settings_.setValue(QStringLiteral("corpus/faithfulnessSeconds"), pace.faithfulnessSeconds);
}

QString AppSettings::trainTask() const {
  return settings_.value(kTrainTask, QStringLiteral("reverse")).toString();
}
void AppSettings::setTrainTask(const QString& task) { settings_.setValue(kTrainTask, task); }
QStringList AppSettings::trainCorpusFiles() const {
  return settings_.value(kTrainCorpusFiles).toStringList();
}
void AppSettings::setTrainCorpusFiles(const QStringList& files) {
  settings_.setValue(kTrainCorpusFiles, files);
}

}  // namespace attnscope::ui
