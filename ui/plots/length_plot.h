#pragma once
// BLEU by source length, one line per model: the figure of Bahdanau et al. (2015, Fig. 2) that
// shows a model without attention falling off as sentences grow. Drawn for `attnscope-cli eval
// --plot` and in the app's Corpus tab.
#include <attnscope/corpus_evaluation.h>
#include <qcustomplot.h>

#include <QStringList>
#include <QVector>
#include <vector>

namespace attnscope::ui {

struct LengthSeries {
  QString model;
  QVector<double> bleu;  // one per bucket; NaN where the bucket holds no sentence
};

class LengthPlot : public QCustomPlot {
  Q_OBJECT
 public:
  explicit LengthPlot(QWidget* parent = nullptr);

  /// `buckets`: the x axis' labels ("1–10 (345)"); each series one line with a point per bucket.
  void setSeries(const QStringList& buckets, const QList<LengthSeries>& series);
  /// One line per evaluation, named by `names`; the buckets labelled with their sentence counts.
  void setEvaluations(const QStringList& names, const std::vector<CorpusEvaluation>& evaluations);
  /// The search the BLEU figures are of, in the axis title: "greedy" (the default), "beam 5".
  void setSearchName(const QString& search);
  const QList<LengthSeries>& series() const { return series_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  /// A narrow plot's legend with smaller text and symbols, so that the buckets keep the width
  /// for their labels.
  void compactLegend(bool compact);

  QList<LengthSeries> series_;
  QCPLayoutGrid* side_ = nullptr;  // the legend's column, right of the axes
  bool legendCompact_ = false;
};

}  // namespace attnscope::ui
