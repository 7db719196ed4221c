#include "widgets/attention_file_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "core/app_settings.h"
#include "widgets/file_dialogs.h"

namespace attnscope::ui {
namespace {

const AttentionFileFormat kFormats[] = {AttentionFileFormat::Json, AttentionFileFormat::Csv,
                                        AttentionFileFormat::Pharaoh,
                                        AttentionFileFormat::MarianSoft};

}  // namespace

AttentionFileDialog::AttentionFileDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Open attention file"));
  const AppSettings::AttentionFileChoice last = AppSettings().attentionFile();
  file_ = new QLineEdit(last.path, this);
  file_->setObjectName(QStringLiteral("attentionPath"));
  format_ = new QComboBox(this);
  format_->addItem(tr("from the content"));
  for (AttentionFileFormat format : kFormats)
    format_->addItem(QString::fromStdString(attention_format_name(format)));
  format_->setCurrentText(last.format);
  source_ = new QLineEdit(last.source, this);
  target_ = new QLineEdit(last.target, this);
  sourceText_ = new QLineEdit(this);
  sourceText_->setPlaceholderText(tr("Marian: the source sentence, instead of a source file"));
  line_ = new QSpinBox(this);
  line_->setObjectName(QStringLiteral("attentionLine"));
  line_->setRange(1, 1000000000);
  line_->setValue(last.line);
  line_->setToolTip(
      tr("The sentence pair (alignment files), the line (JSON Lines) or the heatmap "
         "(a compare grid's JSON export), from 1"));
  oneBased_ = new QCheckBox(tr("Pharaoh indices start at 1"), this);
  oneBased_->setChecked(last.oneBased);

  auto* form = new QFormLayout(this);
  form->addRow(tr("Attention file:"), pathRow(file_, tr("Attention file")));
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("Source sentences:"), pathRow(source_, tr("Source sentences")));
  form->addRow(tr("Target sentences:"), pathRow(target_, tr("Target sentences")));
  form->addRow(tr("Source sentence:"), sourceText_);
  form->addRow(tr("Line:"), line_);
  form->addRow(oneBased_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  resize(560, sizeHint().height());
}

QWidget* AttentionFileDialog::pathRow(QLineEdit* field, const QString& title) {
  auto* row = new QWidget(this);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(field, 1);
  auto* browse = new QPushButton(tr("Browse…"), row);
  layout->addWidget(browse);
  connect(browse, &QPushButton::clicked, this, [this, field, title] {
    const QString path = askOpenPath(this, AppSettings::Folder::AttentionFile, title,
                                     tr("All files (*)"), field->text());
    if (!path.isEmpty()) field->setText(path);
  });
  return row;
}

QString AttentionFileDialog::path() const { return file_->text().trimmed(); }

AttentionFileOptions AttentionFileDialog::options() const {
  AttentionFileOptions o;
  if (format_->currentIndex() > 0) o.format = kFormats[format_->currentIndex() - 1];
  o.source_path = source_->text().trimmed().toStdString();
  o.target_path = target_->text().trimmed().toStdString();
  o.source_text = sourceText_->text().toStdString();
  o.line = static_cast<size_t>(line_->value());
  o.one_based = oneBased_->isChecked();
  return o;
}

void AttentionFileDialog::remember() const {
  AppSettings::AttentionFileChoice choice;
  choice.path = path();
  choice.format = format_->currentIndex() > 0 ? format_->currentText() : QString();
  choice.source = source_->text().trimmed();
  choice.target = target_->text().trimmed();
  choice.line = line_->value();
  choice.oneBased = oneBased_->isChecked();
  AppSettings().setAttentionFile(choice);
}

}  // namespace attnscope::ui
