#include "length_plot.h"

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
  setMinimumSize(320, 240);
  xAxis->setLabel(tr("source length (words; sentences)"));
  yAxis->setLabel(tr("BLEU"));
  xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  xAxis->grid()->setVisible(false);
  xAxis->setSubTicks(false);
  legend->setVisible(true);
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
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
  xAxis->setRange(-0.5, std::max<qsizetype>(1, buckets.size()) - 0.5);
  yAxis->setRange(0, std::ceil(top / 10 + 0.5) * 10);
  replot();
}

}  // namespace attnscope::ui
