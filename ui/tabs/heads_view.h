#pragma once
// Every head of one layer side by side, for a model with several heads: a heatmap per head and
// one of their mean, on one colour scale with synchronised hover. Built from the translation
// the main view shows, so choosing another layer needs no decoding.
#include <attnscope/translation.h>

#include <QComboBox>
#include <QLabel>
#include <QList>
#include <QWidget>

#include "core/guide_section.h"
#include "render/export_target.h"

class QCPColorGradient;

namespace attnscope::ui {

class HeatmapGrid;
class HeatmapPlot;

class HeadsView : public QWidget, public ExportTarget, public GuideSection {
  Q_OBJECT
 public:
  explicit HeadsView(QWidget* parent = nullptr);

  /// Shows the heads of the chosen layer of `t`, from a model of `layers` × `heads` (given, as
  /// a translation without steps has no attention to tell); `words`: the word view of a
  /// subword model.
  void setTranslation(const Translation& t, const QString& modelName, int layers, int heads,
                      bool words);
  void setGradient(const QCPColorGradient& gradient);
  void setShowValues(bool show);

  /// The heads in order, then their mean; none for a model with one head.
  const QList<HeatmapPlot*>& plots() const;
  QComboBox* layerBox() const { return layer_; }

  QString exportName() const override { return QStringLiteral("heads"); }
  /// The grid's.
  QSize exportSize() const override;
  /// plots(), as many to a row as suit the picture's shape.
  void exportTo(const QString& path, const ExportOptions& options) const override;
  QString guideSection() const override { return QStringLiteral("app.md#compare-heads-tab"); }

 private:
  void rebuild();

  QComboBox* layer_ = nullptr;
  QLabel* status_ = nullptr;
  HeatmapGrid* grid_ = nullptr;
  Translation translation_;
  QString modelName_;
  int heads_ = 0;
  bool words_ = false;
};

}  // namespace attnscope::ui
