#pragma once
// Asks which attention file to open and what it needs beside it: the sentence files (Pharaoh,
// Marian), the sentence pair's line, 1-based indices, or a format to force. Remembers the last
// answers, so stepping through the pairs of one alignment file is: open, change the line, OK.
#include <attnscope/attention_file.h>

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace attnscope::ui {

class AttentionFileDialog : public QDialog {
  Q_OBJECT
 public:
  explicit AttentionFileDialog(QWidget* parent = nullptr);
  QString path() const;
  AttentionFileOptions options() const;
  /// Keeps the answers for the next time (AppSettings).
  void remember() const;

 private:
  // The field with a Browse… button beside it.
  QWidget* pathRow(QLineEdit* field, const QString& title);

  QLineEdit* file_ = nullptr;
  QComboBox* format_ = nullptr;
  QLineEdit* source_ = nullptr;
  QLineEdit* target_ = nullptr;
  QLineEdit* sourceText_ = nullptr;
  QSpinBox* line_ = nullptr;
  QCheckBox* oneBased_ = nullptr;
};

}  // namespace attnscope::ui
