#include "widgets/candidates_view.h"

#include <QKeyEvent>
#include <QPainter>
#include <QStyledItemDelegate>

namespace attnscope::ui {
namespace {

constexpr int kProbabilityRole = Qt::UserRole + 1;

// Paints a bar as wide as the probability behind the item's text.
class ProbabilityBarDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    const double p = index.data(kProbabilityRole).toDouble();
    QRect bar = option.rect.adjusted(2, 3, -2, -3);
    bar.setWidth(static_cast<int>(bar.width() * p));
    QColor color = option.palette.color(QPalette::Highlight);
    color.setAlphaF(0.35);
    painter->fillRect(bar, color);
    QStyledItemDelegate::paint(painter, option, index);
  }
};

}  // namespace

CandidatesView::CandidatesView(QWidget* parent) : QListWidget(parent) {
  setItemDelegate(new ProbabilityBarDelegate(this));
  setChoice(Choice::kForce);
  setUniformItemSizes(true);
  connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    Q_EMIT candidateChosen(item->data(Qt::UserRole).toString());
  });
}

void CandidatesView::setCandidates(const std::vector<Candidate>& candidates, const QString& chosen,
                                   const QStringList& labels) {
  clear();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    const QString token = QString::fromStdString(c.token);
    const QString label = static_cast<qsizetype>(i) < labels.size() ? labels[i] : token;
    auto* item =
        new QListWidgetItem(QStringLiteral("%1  %2  %3%")
                                .arg(token == chosen ? QStringLiteral("✔") : QStringLiteral("  "),
                                     label, QString::number(100.0 * c.probability, 'f', 1)),
                            this);
    item->setData(Qt::UserRole, token);
    item->setData(kProbabilityRole, static_cast<double>(c.probability));
  }
}

void CandidatesView::setChoice(Choice choice) {
  setToolTip(choice == Choice::kForce
                 ? tr("Click a candidate (or Enter) to force it and decode on from there")
                 : tr("Click a candidate (or Enter) to show its node in the beam tree"));
}

void CandidatesView::keyPressEvent(QKeyEvent* event) {
  // Enter forces the current candidate, as a click does: forcing needs no mouse.
  const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
  if (enter && currentItem() != nullptr) {
    Q_EMIT candidateChosen(currentItem()->data(Qt::UserRole).toString());
    event->accept();
    return;
  }
  QListWidget::keyPressEvent(event);
}

}  // namespace attnscope::ui
