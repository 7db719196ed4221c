#pragma once
// "Type weights…" of the step panel's attention bars: one weight per bar, checked by the engine's
// own rules as they are typed. OK stays with the dialog until they are valid, the reason in one
// line under the field, so a refused row never reaches the what-if.
#include <QDialog>
#include <vector>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace attnscope::ui {

class WeightsDialog : public QDialog {
  Q_OBJECT
 public:
  /// For output step `step` (from 0) whose `row` has one weight per bar; the field starts with
  /// the row (never inf or nan).
  WeightsDialog(int step, const std::vector<float>& row, QWidget* parent = nullptr);

  /// The weights typed, once they are valid (as typed, one per bar; the engine renormalises).
  const std::vector<float>& weights() const { return weights_; }
  /// Why the typed weights are refused ("" when they are valid).
  const QString& problem() const { return problem_; }
  QLineEdit* field() const { return field_; }
  QLabel* errorLabel() const { return error_; }

  void accept() override;

 private:
  void check();

  int step_;
  int count_;
  QLineEdit* field_ = nullptr;
  QLabel* error_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  std::vector<float> weights_;
  QString problem_;
};

}  // namespace attnscope::ui
