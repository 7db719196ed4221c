#pragma once
// The one question asked before an action loses work (a Corpus run, a training run, a trained
// model not saved): a modal box whose default answer keeps the work.
#include <QString>
#include <QStringList>

class QWidget;

namespace attnscope::ui {

/// Asks once whether to go on with `question` ("Close attnscope?") although it loses `work`
/// (phrases such as "the Corpus run in progress"; empty ones are left out); `proceed` labels the
/// button that goes on. True when nothing would be lost or the user chose to go on.
bool confirmDiscard(QWidget* parent, const QString& question, const QString& proceed,
                    const QStringList& work);

}  // namespace attnscope::ui
