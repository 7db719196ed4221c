#pragma once
// A line edit that remembers what was entered: Up and Down walk through earlier sentences.
#include <QLineEdit>
#include <QStringList>

namespace attnscope::ui {

class HistoryLineEdit : public QLineEdit {
  Q_OBJECT
 public:
  explicit HistoryLineEdit(QWidget* parent = nullptr);
  void addToHistory(const QString& text);
  const QStringList& history() const { return history_; }
  void setHistory(const QStringList& history);

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QStringList history_;
  int position_ = 0;  // == history_.size(): the line being typed
  QString draft_;     // what was typed before walking the history
};

}  // namespace attnscope::ui
