#include "core/model_info_text.h"

#include <QCoreApplication>

namespace attnscope::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ModelInfoText", text); }

QString torchScriptInfoText(const ModelInfo& m) {
  const auto text = [](const std::string& s) {
    return s.empty() ? tr("not given") : QString::fromStdString(s);
  };
  return tr("TorchScript model (docs/model-protocol.md): %1\nLanguages: %2 → %3\n"
            "Vocabularies: %4 source / %5 target tokens, tokenizer '%6'%7\n"
            "Attention: %8 layer(s) × %9 head(s)\nParameters: %10\nFile: %11 (%12 MB)")
      // One multi-argument arg(): the name, languages and path are the file's text.
      .arg(QString::fromStdString(m.name), text(m.config.source_language),
           text(m.config.target_language), QString::number(m.config.source_vocab),
           QString::number(m.config.target_vocab), QString::fromStdString(m.tokenizer),
           m.subword_marker.empty()
               ? QString()
               : tr(", subword pieces marked '%1'").arg(QString::fromStdString(m.subword_marker)),
           QString::number(m.attention_layers), QString::number(m.attention_heads),
           QString::number(m.parameters), QString::fromStdString(m.path),
           QString::number(m.file_bytes / 1e6, 'f', 1));
}

}  // namespace

QString modelStatusText(const QString& key, const ModelInfo& m) {
  // A TorchScript model has no score function, training record or BLEU: its own name says what
  // it is, its format and attention shape what it offers to look at.
  QString extra = m.training.test_bleu >= 0
                      ? tr(", test BLEU %1").arg(m.training.test_bleu, 0, 'f', 1)
                      : QString();
  if (m.format == "torchscript")
    extra = tr(" · TorchScript, %1 layer(s) × %2 head(s)%3")
                .arg(m.attention_layers)
                .arg(m.attention_heads)
                .arg(m.subword_marker.empty() ? QString() : tr(", subwords"));
  if (!m.has_attention) extra += tr(" · no attention (baseline)");
  const QString kind = QString::fromStdString(m.config.score.empty() ? m.name : m.config.score);
  // A toy module's few thousand parameters would read "0.0M".
  const QString parameters = m.parameters >= 100000 ? tr("%1M").arg(m.parameters / 1e6, 0, 'f', 1)
                                                    : QString::number(m.parameters);
  return tr("%1 · %2 parameters%3")
      .arg(key == kind ? key : QStringLiteral("%1 (%2)").arg(key, kind), parameters, extra);
}

QString modelInfoText(const ModelInfo& m) {
  if (m.format == "torchscript") return torchScriptInfoText(m);
  return tr("Score function: %1\nLanguages: %2 → %3\nEmbedding %4, hidden %5, vocabularies %6 / "
            "%7\nParameters: %8\nFile: %9 (%10 MB)\nTrained on: %11, %12 epochs (best: %13), %14 "
            "min\nValidation BLEU: %15\nTest BLEU (%16): greedy %17, beam 5 %18")
      // One multi-argument arg(): the languages, path and corpora are the file's text, and a
      // chained arg() would replace a "%9" inside them.
      .arg(QString::fromStdString(m.config.score), QString::fromStdString(m.config.source_language),
           QString::fromStdString(m.config.target_language), QString::number(m.config.embedding),
           QString::number(m.config.hidden), QString::number(m.config.source_vocab),
           QString::number(m.config.target_vocab) +
               (m.subwords.empty()           ? QString()
                : m.subwords == "characters" ? tr(" characters (a character model)")
                                             : tr(" SentencePiece pieces (a subword model)")),
           QString::number(m.parameters), QString::fromStdString(m.path),
           QString::number(m.file_bytes / 1e6, 'f', 1), QString::fromStdString(m.training.corpus),
           QString::number(m.training.epochs), QString::number(m.training.best_epoch),
           QString::number(m.training.seconds / 60.0, 'f', 0),
           QString::number(m.training.validation_bleu, 'f', 2),
           QString::fromStdString(m.training.test_corpus),
           QString::number(m.training.test_bleu, 'f', 2),
           QString::number(m.training.test_bleu_beam5, 'f', 2));
}

}  // namespace attnscope::ui
