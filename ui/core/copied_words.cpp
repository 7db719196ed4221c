#include "core/copied_words.h"

#include <attnscope/word_view.h>

#include <QObject>
#include <QStringList>
#include <string>
#include <vector>

namespace attnscope::ui {
namespace {
const QString kLinkPrefix = QStringLiteral("copied:");
const QString kKeptLinkPrefix = QStringLiteral("kept:");

// A source token as the user typed it, else as the model read it.
QString typedSource(const Translation& t, int index) {
  const auto i = static_cast<size_t>(index);
  if (i < t.source.typed.size()) return QString::fromStdString(t.source.typed[i]);
  if (i < t.source.tokens.size()) return QString::fromStdString(t.source.tokens[i]);
  return {};
}
}  // namespace

QString copyNote(const Translation& t, const CopiedWord& copy) {
  // What was copied and from where: the word and its place among the source words, as a user
  // counts them (the appended end token is no word).
  const QString note =
      QObject::tr(
          "<unk> replaced by '%1', the unknown source word (word %2 of %3) its attention weighs "
          "most (%4)")
          .arg(typedSource(t, copy.source), QString::number(copy.source + 1),
               QString::number(t.source.kept_length), QString::number(copy.attention, 'f', 2));
  if (copy.peak == copy.source) return note;
  // The row peaked elsewhere, on a word the model knows or on the end token: say so, so the
  // brighter cell beside the framed one does not look like a mistake.
  const QString peak = QString::number(copy.peak_attention, 'f', 2);
  if (copy.peak >= t.source.kept_length)
    return QObject::tr("%1; the row weighs %2 more (%3), which is no word")
        .arg(note, typedSource(t, copy.peak), peak);
  return QObject::tr("%1; the row weighs '%2' more (%3), a word the model knows")
      .arg(note, typedSource(t, copy.peak), peak);
}

QString keptNote(const Translation& t, const KeptUnknown& kept) {
  switch (kept.reason) {
    case KeptUnknown::Reason::kNoUnknownWord: {
      // The word the row weighs most: one the model knows yet could not translate here (often
      // a name it read lowercase in training, as "boston"), which the user may want to see.
      const auto step = static_cast<size_t>(kept.target);
      int most = -1;
      if (step < t.attention.size())
        for (int i = 0; i < t.source.kept_length && i < static_cast<int>(t.attention[step].size());
             ++i)
          if (most < 0 || t.attention[step][i] > t.attention[step][most]) most = i;
      const QString known = QObject::tr(
          "<unk> kept: the model knows every source word but found no translation for "
          "this step");
      if (most < 0) return known;
      return QObject::tr(
                 "%1; its attention weighs '%2' (word %3 of %4) most (%5), a word the model "
                 "knows: copying it could put English into the translation")
          .arg(known, typedSource(t, most), QString::number(most + 1),
               QString::number(t.source.kept_length),
               QString::number(t.attention[step][most], 'f', 2));
    }
    case KeptUnknown::Reason::kOnlyCommonWords:
      return QObject::tr(
                 "<unk> kept: '%1' (word %2 of %3), the unknown source word its attention "
                 "weighs most (%4), is a lowercase English word, not a name or a number; "
                 "copied, it would be English in the translation")
          .arg(typedSource(t, kept.source), QString::number(kept.source + 1),
               QString::number(t.source.kept_length), QString::number(kept.attention, 'f', 2));
    case KeptUnknown::Reason::kTooLittleAttention:
      break;
  }
  return QObject::tr(
             "<unk> kept: the unknown source word '%1' (word %2 of %3) has only %4 of this "
             "step's attention; copying needs %5")
      .arg(typedSource(t, kept.source), QString::number(kept.source + 1),
           QString::number(t.source.kept_length), QString::number(kept.attention, 'f', 2),
           QString::number(kept.threshold, 'f', 2));
}

QString translationHtml(const Translation& t, const std::vector<bool>& forced) {
  // The pieces words() joins, with the output step each came from.
  std::vector<std::string> pieces;
  std::vector<int> stepOf;
  for (size_t i = 0; i < t.tokens.size(); ++i)
    if (t.tokens[i] != t.end_token) {
      pieces.push_back(t.tokens[i]);
      stepOf.push_back(static_cast<int>(i));
    }
  QStringList words;
  for (const auto& group : word_groups(pieces, t.subword_marker, t.end_token)) {
    const QString word =
        QString::fromStdString(word_text(pieces, group, t.subword_marker)).toHtmlEscaped();
    int copied = -1, kept = -1;  // the first copy (or kept "<unk>") among the word's pieces
    bool isForced = false;
    for (int piece : group) {
      const auto step = static_cast<size_t>(stepOf[static_cast<size_t>(piece)]);
      isForced = isForced || (step < forced.size() && forced[step]);
      for (size_t k = 0; k < t.copied.size() && copied < 0; ++k)
        if (t.copied[k].target == static_cast<int>(step)) copied = static_cast<int>(k);
      for (size_t k = 0; k < t.kept_unknown.size() && kept < 0; ++k)
        if (t.kept_unknown[k].target == static_cast<int>(step)) kept = static_cast<int>(k);
    }
    QString html = word;
    if (copied >= 0)
      html = QStringLiteral("<a href='%1%2' style='color:%3'>%4</a>")
                 .arg(kLinkPrefix)
                 .arg(copied)
                 .arg(QLatin1String(kCopiedColour), word);
    else if (kept >= 0)
      html = QStringLiteral("<a href='%1%2' style='color:%3'>%4</a>")
                 .arg(kKeptLinkPrefix)
                 .arg(kept)
                 .arg(QLatin1String(kKeptUnknownColour), word);
    if (isForced)
      html = QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>")
                 .arg(QLatin1String(kForcedColour), html);
    words << html;
  }
  return words.join(QLatin1Char(' '));
}

QString unknownWordNoteOfLink(const Translation& t, const QString& link) {
  const bool isCopy = link.startsWith(kLinkPrefix);
  if (!isCopy && !link.startsWith(kKeptLinkPrefix)) return {};
  bool ok = false;
  const int k = link.mid((isCopy ? kLinkPrefix : kKeptLinkPrefix).size()).toInt(&ok);
  if (!ok || k < 0) return {};
  const auto i = static_cast<size_t>(k);
  if (isCopy) return i < t.copied.size() ? copyNote(t, t.copied[i]) : QString();
  return i < t.kept_unknown.size() ? keptNote(t, t.kept_unknown[i]) : QString();
}

}  // namespace attnscope::ui
