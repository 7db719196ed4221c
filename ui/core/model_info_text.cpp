#include "core/model_info_text.h"

#include <attnscope/model_catalog.h>

#include <QCoreApplication>
#include <QLocale>

namespace attnscope::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ModelInfoText", text); }

// "English" for "en"; a name the file gives ("Klingon") as it is; empty when none is given.
QString languageName(const std::string& code) {
  const QString given = QString::fromStdString(code).trimmed();
  if (given.isEmpty()) return QString();
  const QLocale locale(given);
  const bool known = given.size() <= 3 && locale.language() != QLocale::C &&
                     QLocale::languageToCode(locale.language()) == given.toLower();
  return known ? QLocale::languageToString(locale.language()) : given;
}

// "English → French"; empty for a task model (it reads no language) or a module naming none.
QString languagesText(const ModelInfo& m) {
  if (readsTaskInput(m)) return QString();
  const QString from = languageName(m.config.source_language);
  const QString to = languageName(m.config.target_language);
  if (from.isEmpty() && to.isEmpty()) return QString();
  return tr("%1 → %2").arg(from.isEmpty() ? tr("?") : from, to.isEmpty() ? tr("?") : to);
}

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
           parameterCountText(m.parameters), QString::fromStdString(m.path),
           QString::number(m.file_bytes / 1e6, 'f', 1));
}

}  // namespace

// Only a built-in task's model records a share of exact outputs (model_info.h).
bool readsTaskInput(const ModelInfo& m) { return m.training.validation_accuracy >= 0; }

QString parameterCountText(int64_t parameters) {
  QLocale locale;
  locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
  return locale.toString(static_cast<qlonglong>(parameters));
}

QString languagePairText(const QString& pair) {
  const qsizetype dash = pair.indexOf(QLatin1Char('-'));
  if (dash < 0) return pair;
  const QString from = languageName(pair.left(dash).toStdString());
  const QString to = languageName(pair.mid(dash + 1).toStdString());
  return tr("%1 → %2").arg(from.isEmpty() ? tr("?") : from, to.isEmpty() ? tr("?") : to);
}

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
  // A shipped model's key is its score function, with the pair for pairs other than the default.
  const bool shippedName =
      key == kind || key.toStdString() == shipped_model_name(m.config.score, language_pair_of(m));
  // A TorchScript module's languages are its file's say (often none): Model info shows them.
  const QString languages = m.format == "torchscript" ? QString() : languagesText(m);
  return tr("%1 · %2%3 parameters%4")
      .arg(shippedName ? key : QStringLiteral("%1 (%2)").arg(key, kind),
           languages.isEmpty() ? QString() : languages + QStringLiteral(" · "),
           parameterCountText(m.parameters), extra);
}

QString exportTitleText(const QString& key, const ModelInfo* info, const QString& sentence) {
  QStringList parts{key};
  if (info != nullptr && info->format != "torchscript")
    if (const QString languages = languagesText(*info); !languages.isEmpty()) parts << languages;
  constexpr int kLongest = 80;
  const QString shown = sentence.simplified();
  if (!shown.isEmpty())
    parts << QStringLiteral("“%1”").arg(
        shown.size() > kLongest ? shown.left(kLongest - 1) + QStringLiteral("…") : shown);
  return parts.join(QStringLiteral(" · "));
}

QString modelInfoText(const ModelInfo& m) {
  if (m.format == "torchscript") return torchScriptInfoText(m);
  QString text =
      tr("Score function: %1\nLanguages: %2 → %3\nEmbedding %4, hidden %5, vocabularies %6 / "
         "%7\nParameters: %8\nFile: %9 (%10 MB)\nTrained on: %11, %12 epochs (best: %13), %14 "
         "min")
          // One multi-argument arg(): the languages, path and corpora are the file's text, and a
          // chained arg() would replace a "%9" inside them.
          .arg(QString::fromStdString(m.config.score),
               QString::fromStdString(m.config.source_language),
               QString::fromStdString(m.config.target_language),
               QString::number(m.config.embedding), QString::number(m.config.hidden),
               QString::number(m.config.source_vocab),
               QString::number(m.config.target_vocab) +
                   (m.subwords.empty()           ? QString()
                    : m.subwords == "characters" ? tr(" characters (a character model)")
                                                 : tr(" SentencePiece pieces (a subword model)")),
               parameterCountText(m.parameters), QString::fromStdString(m.path),
               QString::number(m.file_bytes / 1e6, 'f', 1),
               QString::fromStdString(m.training.corpus), QString::number(m.training.epochs),
               QString::number(m.training.best_epoch),
               QString::number(m.training.seconds / 60.0, 'f', 0));
  if (m.config.decoder == kConditionalGruDecoder)
    text += tr("\nDecoder: conditional GRU (attention queried between two GRUs)");
  if (m.config.cased) text += tr("\nText: read and written as typed (case and punctuation kept)");
  // A task model is measured by its exact outputs; a figure never measured is left out, not
  // shown as -1.
  if (readsTaskInput(m))
    text +=
        tr("\nValidation exact match: %1 %").arg(100.0 * m.training.validation_accuracy, 0, 'f', 1);
  else if (m.training.validation_bleu >= 0)
    text += tr("\nValidation BLEU: %1").arg(m.training.validation_bleu, 0, 'f', 2);
  if (m.training.test_bleu >= 0)
    text += tr("\nTest BLEU (%1): greedy %2, beam 5 %3")
                .arg(QString::fromStdString(m.training.test_corpus),
                     QString::number(m.training.test_bleu, 'f', 2),
                     m.training.test_bleu_beam5 >= 0
                         ? QString::number(m.training.test_bleu_beam5, 'f', 2)
                         : tr("not measured"));
  return text;
}

QString modelToolTip(const ModelInfo& m) {
  QStringList parts;
  if (m.format == "torchscript")
    parts << tr("%1 (TorchScript)").arg(QString::fromStdString(m.name));
  else if (!m.has_attention)
    parts << tr("no attention (the baseline)");
  else
    parts << tr("%1 attention").arg(QString::fromStdString(m.config.score));
  if (readsTaskInput(m))
    parts << QString::fromStdString(m.training.corpus);
  else if (const QString languages = languagesText(m); !languages.isEmpty())
    parts << languages;
  // What it learned from, without the pair count: "trained on Multi30k + Tatoeba".
  if (!readsTaskInput(m) && !m.training.corpus.empty()) {
    const QString corpus = QString::fromStdString(m.training.corpus);
    parts << tr("trained on %1").arg(corpus.section(QStringLiteral(" ("), 0, 0));
  }
  if (m.training.test_bleu >= 0)
    parts << tr("test BLEU %1 (greedy)").arg(m.training.test_bleu, 0, 'f', 1);
  return parts.join(QStringLiteral(" · "));
}

QString inputPlaceholder(const ModelInfo& m) {
  const QString language = readsTaskInput(m) ? QString() : languageName(m.config.source_language);
  const QString example =
      m.examples.empty() ? QString() : QString::fromStdString(m.examples.front()).simplified();
  if (readsTaskInput(m) && !example.isEmpty())
    return tr("Type an input like “%1” and press Enter").arg(example);
  if (!language.isEmpty()) return tr("Type a sentence in %1 and press Enter").arg(language);
  if (!example.isEmpty()) return tr("Type an input like “%1” and press Enter").arg(example);
  return tr("Type what %1 reads (its file names no language) and press Enter")
      .arg(QString::fromStdString(m.name));
}

QStringList modelExamples(const ModelInfo& m, const QStringList& english) {
  constexpr size_t kMost = 20;  // a menu, not a corpus
  QStringList own;
  for (size_t i = 0; i < m.examples.size() && i < kMost; ++i) {
    const QString example = QString::fromStdString(m.examples[i]).simplified();
    if (!example.isEmpty()) own << example;
  }
  if (!own.isEmpty()) return own;
  const bool readsEnglish = !readsTaskInput(m) && (m.config.source_language.empty() ||
                                                   languageName(m.config.source_language) ==
                                                       QLocale::languageToString(QLocale::English));
  return readsEnglish ? english : QStringList();
}

}  // namespace attnscope::ui
