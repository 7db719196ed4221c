#include "widgets/shown_values_box.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <algorithm>

#include "core/app_settings.h"

namespace attnscope::ui {

ShownValuesBox::ShownValuesBox(QWidget* parent) : QWidget(parent) {
  show_ = new QComboBox(this);
  show_->setObjectName(QStringLiteral("showBox"));
  show_->addItem(tr("attention"), -1);
  show_->setItemData(0, tr("Where the model's attention goes"), Qt::ToolTipRole);
  for (AttributionMethod method : attribution_methods()) {
    show_->addItem(QString::fromStdString(attribution_method_title(method)),
                   static_cast<int>(method));
    show_->setItemData(show_->count() - 1, offeredTip(method), Qt::ToolTipRole);
  }
  show_->setToolTip(
      tr("What the heatmap shows: the attention, or how much each output word depends on each "
         "source word, measured without reading the attention"));
  beside_ = new QCheckBox(tr("&Beside attention"), this);
  beside_->setObjectName(QStringLiteral("besideBox"));
  beside_->setToolTip(
      tr("Attention on the left, the chosen method on the right, each with its own colour scale"));
  const AppSettings settings;
  for (AttributionMethod method : attribution_methods())
    if (QString::fromStdString(attribution_method_name(method)) == settings.shownValues())
      setMethod(method);
  beside_->setChecked(settings.sideBySide());
  beside_->setEnabled(method().has_value());

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel(tr("Sho&w:"), this);
  label->setBuddy(show_);
  layout->addWidget(label);
  layout->addWidget(show_);
  layout->addWidget(beside_);

  connect(show_, &QComboBox::currentIndexChanged, this, [this] {
    beside_->setEnabled(method().has_value());
    remember();
    Q_EMIT changed();
  });
  connect(beside_, &QCheckBox::toggled, this, [this] {
    remember();
    Q_EMIT changed();
  });
}

QString ShownValuesBox::offeredTip(AttributionMethod method) const {
  return tr("How much each output word's log-probability depends on each source word (%1)")
      .arg(QString::fromStdString(attribution_method_name(method)));
}

void ShownValuesBox::remember() const {
  AppSettings settings;
  const auto m = method();
  settings.setShownValues(m ? QString::fromStdString(attribution_method_name(*m))
                            : QStringLiteral("attention"));
  settings.setSideBySide(beside_->isChecked());
}

std::optional<AttributionMethod> ShownValuesBox::method() const {
  const int data = show_->currentData().toInt();
  if (data < 0) return std::nullopt;
  return static_cast<AttributionMethod>(data);
}

void ShownValuesBox::setMethod(std::optional<AttributionMethod> method) {
  show_->setCurrentIndex(std::max(0, show_->findData(method ? static_cast<int>(*method) : -1)));
}

void ShownValuesBox::setSupport(const QMap<int, QString>& reasons) {
  unsupported_ = reasons;
  auto* items = qobject_cast<QStandardItemModel*>(show_->model());
  for (int i = 0; i < show_->count(); ++i) {
    const int data = show_->itemData(i).toInt();
    if (data < 0) continue;
    const QString reason = reasons.value(data);
    if (items != nullptr) items->item(i)->setEnabled(reason.isEmpty());
    show_->setItemData(i,
                       reason.isEmpty() ? offeredTip(static_cast<AttributionMethod>(data))
                                        : tr("Not for this model: %1").arg(reason),
                       Qt::ToolTipRole);
  }
}

QString ShownValuesBox::unsupportedReason(AttributionMethod method) const {
  return unsupported_.value(static_cast<int>(method));
}

bool ShownValuesBox::isOffered(AttributionMethod method) const {
  return unsupportedReason(method).isEmpty();
}

}  // namespace attnscope::ui
