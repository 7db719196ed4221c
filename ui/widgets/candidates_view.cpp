#include "widgets/candidates_view.h"

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
  setToolTip(tr("Click a candidate to force it and decode on from there"));
  setUniformItemSizes(true);
  connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    Q_EMIT candidateChosen(item->data(Qt::UserRole).toString());
  });
}

void CandidatesView::setCandidates(const std::vector<Candidate>& candidates,
                                   const QString& chosen) {
  clear();
  for (const Candidate& c : candidates) {
    const QString token = QString::fromStdString(c.token);
    auto* item =
        new QListWidgetItem(QStringLiteral("%1  %2  %3%")
                                .arg(token == chosen ? QStringLiteral("✔") : QStringLiteral("  "),
                                     token, QString::number(100.0 * c.probability, 'f', 1)),
                            this);
    item->setData(Qt::UserRole, token);
    item->setData(kProbabilityRole, static_cast<double>(c.probability));
  }
}

}  // namespace attnscope::ui
