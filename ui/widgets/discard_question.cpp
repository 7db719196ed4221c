#include "widgets/discard_question.h"

#include <QMessageBox>
#include <QPushButton>

namespace attnscope::ui {

bool confirmDiscard(QWidget* parent, const QString& question, const QString& proceed,
                    const QStringList& work) {
  QStringList lost;
  for (const QString& w : work)
    if (!w.isEmpty()) lost << w;
  if (lost.isEmpty()) return true;
  const QString last = lost.takeLast();
  const QString what =
      lost.isEmpty() ? last : QObject::tr("%1 and %2").arg(lost.join(QStringLiteral(", ")), last);
  QMessageBox box(QMessageBox::Question, QObject::tr("attnscope"), question, QMessageBox::Cancel,
                  parent);
  box.setInformativeText(QObject::tr("This discards %1.").arg(what));
  QPushButton* go = box.addButton(proceed, QMessageBox::DestructiveRole);
  box.setDefaultButton(QMessageBox::Cancel);  // Enter keeps the work; Escape too
  box.setEscapeButton(QMessageBox::Cancel);
  box.exec();
  return box.clickedButton() == go;
}

}  // namespace attnscope::ui
