#include "plots/length_plot.h"

#include <cmath>

namespace attnscope::ui {
namespace {

// Told apart in colour and by marker, so a printout in grey still separates the lines.
const QList<QColor> kLineColours = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"),
                                    QColor("#d62728"), QColor("#9467bd"), QColor("#8c564b"),
                                    QColor("#e377c2"), QColor("#7f7f7f")};
const QList<QCPScatterStyle::ScatterShape> kMarkers = {
    QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare,          QCPScatterStyle::ssTriangle,
    QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,           QCPScatterStyle::ssPlus,
    QCPScatterStyle::ssStar,    QCPScatterStyle::ssTriangleInverted};

}  // namespace

LengthPlot::LengthPlot(QWidget* parent) : QCustomPlot(parent) {
  setMinimumSize(300, 240);  // the axes, their labels and the legend fit
  xAxis->setLabel(tr("source length (words; sentences)"));
  setSearchName(QStringLiteral("greedy"));
  xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  xAxis->grid()->setVisible(false);
  xAxis->setSubTicks(false);
  // The legend in a column of its own at the right: inside the axes it would hide a line's
  // point wherever that point falls, and seven lines leave no free corner.
  legend->setVisible(false);  // until there are lines to name: an empty box says nothing
  side_ = new QCPLayoutGrid;
  plotLayout()->addElement(0, 1, side_);
  side_->addElement(0, 0, legend);  // takes it out of the axes' inset layout
  side_->addElement(1, 0, new QCPLayoutElement);
  side_->setRowStretchFactor(0, 0.001);
  side_->setMargins(QMargins(4, 12, 10, 4));  // level with the axes' top, clear of the edge
  plotLayout()->setColumnStretchFactor(1, 0.001);
}

void LengthPlot::resizeEvent(QResizeEvent* event) {
  // Below ~480 px the legend at full size leaves the four buckets too little room for their
  // labels ("11–20 (345)"), which would run into each other.
  constexpr int kRoomyWidth = 480;
  compactLegend(event->size().width() < kRoomyWidth);
  QCustomPlot::resizeEvent(event);
}

void LengthPlot::compactLegend(bool compact) {
  if (compact == legendCompact_) return;
  legendCompact_ = compact;
  QFont font = this->font();
  if (compact) font.setPointSizeF(std::max(7.0, font.pointSizeF() - 1));
  legend->setFont(font);
  for (int i = 0; i < legend->itemCount(); ++i) legend->item(i)->setFont(font);
  legend->setIconSize(compact ? QSize(18, 12) : QSize(32, 18));
  legend->setIconTextPadding(compact ? 4 : 7);
  side_->setMargins(compact ? QMargins(2, 12, 4, 4) : QMargins(4, 12, 10, 4));
}

void LengthPlot::setEvaluations(const QStringList& names,
                                const std::vector<CorpusEvaluation>& evaluations) {
  QStringList buckets;
  for (size_t b = 0; b < length_buckets().size(); ++b) {
    const size_t sentences = evaluations.empty() ? 0 : evaluations.front().sentences_by_length[b];
    buckets << QString::fromStdString(length_buckets()[b].label()) +
                   QStringLiteral("\n(%1)").arg(sentences);
  }
  QList<LengthSeries> series;
  for (size_t m = 0; m < evaluations.size(); ++m) {
    const CorpusEvaluation& e = evaluations[m];
    LengthSeries s{names.value(static_cast<int>(m), QString::fromStdString(e.model)), {}};
    for (size_t b = 0; b < e.bleu_by_length.size(); ++b)
      s.bleu << (e.sentences_by_length[b] == 0 ? std::nan("") : e.bleu_by_length[b].bleu);
    series << s;
  }
  setSeries(buckets, series);
}

void LengthPlot::setSeries(const QStringList& buckets, const QList<LengthSeries>& series) {
  series_ = series;
  clearGraphs();
  auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
  ticker->clear();
  for (int b = 0; b < buckets.size(); ++b) ticker->addTick(b, buckets[b]);
  double top = 10;
  for (int i = 0; i < series.size(); ++i) {
    QCPGraph* graph = addGraph();
    graph->setName(series[i].model);
    const QColor colour = kLineColours[i % kLineColours.size()];
    graph->setPen(QPen(colour, 2));
    graph->setScatterStyle(QCPScatterStyle(kMarkers[i % kMarkers.size()], colour, 8));
    QVector<double> x;
    for (int b = 0; b < series[i].bleu.size(); ++b) {
      x << b;
      if (std::isfinite(series[i].bleu[b])) top = std::max(top, series[i].bleu[b]);
    }
    // NaN leaves a gap: QCustomPlot does not draw a point or a segment to it.
    graph->setData(x, series[i].bleu, true);
  }
  legend->setVisible(!series.isEmpty());
  xAxis->setRange(-0.5, std::max<qsizetype>(1, buckets.size()) - 0.5);
  yAxis->setRange(0, std::ceil(top / 10 + 0.5) * 10);
  replot();
}

void LengthPlot::setSearchName(const QString& search) {
  yAxis->setLabel(tr("BLEU (%1)").arg(search));
}

}  // namespace attnscope::ui
