#pragma once
// The Translation tab's Show: what the heatmap draws, the attention or what the output depends
// on by an attribution method (gradient, gradient × input, integrated gradients, leave one out),
// alone or beside the attention. A method the model cannot give is disabled, its tooltip the
// reason. The choice is remembered.
#include <attnscope/explanation.h>

#include <QCheckBox>
#include <QComboBox>
#include <QMap>
#include <QWidget>
#include <optional>

namespace attnscope::ui {

class ShownValuesBox : public QWidget {
  Q_OBJECT
 public:
  explicit ShownValuesBox(QWidget* parent = nullptr);

  /// The attribution method Show names; nothing for attention.
  std::optional<AttributionMethod> method() const;
  /// Chooses what Show names (nothing: attention).
  void setMethod(std::optional<AttributionMethod> method);
  /// Attention on the left and the method on the right, each with its own colour scale.
  bool sideBySide() const { return method().has_value() && beside_->isChecked(); }
  void setSideBySide(bool on) { beside_->setChecked(on); }
  /// Per method (AttributionMethod as int), "" or why the model cannot give it: such an entry
  /// is disabled, its tooltip the reason. Empty: every method offered.
  void setSupport(const QMap<int, QString>& reasons);
  /// Why the shown model cannot give `method` ("" when it can or is not known yet).
  QString unsupportedReason(AttributionMethod method) const;
  /// Whether entry `method` can be chosen.
  bool isOffered(AttributionMethod method) const;

  QComboBox* showBox() const { return show_; }
  QCheckBox* besideBox() const { return beside_; }

 Q_SIGNALS:
  void changed();

 private:
  void remember() const;
  QString offeredTip(AttributionMethod method) const;

  QComboBox* show_ = nullptr;
  QCheckBox* beside_ = nullptr;
  QMap<int, QString> unsupported_;
};

}  // namespace attnscope::ui
