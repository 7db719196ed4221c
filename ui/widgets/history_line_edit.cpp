#include "widgets/history_line_edit.h"

#include <QKeyEvent>

namespace attnscope::ui {
namespace {
constexpr int kHistorySize = 100;
}

HistoryLineEdit::HistoryLineEdit(QWidget* parent) : QLineEdit(parent) {}

void HistoryLineEdit::addToHistory(const QString& text) {
  if (text.trimmed().isEmpty()) return;
  history_.removeAll(text);
  history_.append(text);
  while (history_.size() > kHistorySize) history_.removeFirst();
  position_ = static_cast<int>(history_.size());
}

void HistoryLineEdit::setHistory(const QStringList& history) {
  history_ = history.mid(std::max<qsizetype>(0, history.size() - kHistorySize));
  position_ = static_cast<int>(history_.size());
}

void HistoryLineEdit::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Up && position_ > 0) {
    if (position_ == history_.size()) draft_ = text();
    setText(history_[--position_]);
    return;
  }
  if (event->key() == Qt::Key_Down && position_ < history_.size()) {
    ++position_;
    setText(position_ == history_.size() ? draft_ : history_[position_]);
    return;
  }
  QLineEdit::keyPressEvent(event);
}

}  // namespace attnscope::ui
