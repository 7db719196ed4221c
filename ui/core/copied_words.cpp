#include "core/copied_words.h"

#include <attnscope/word_view.h>

#include <QObject>
#include <QStringList>
#include <string>
#include <vector>

namespace attnscope::ui {
namespace {
const QString kLinkPrefix = QStringLiteral("copied:");
}

QString copyNote(const Translation& t, const CopiedWord& copy) {
  const auto source = static_cast<size_t>(copy.source);
  const std::string& word = source < t.source.typed.size()
                                ? t.source.typed[source]
                                : t.tokens.at(static_cast<size_t>(copy.target));
  // What was copied and from where: the word and its place among the source words, as a user
  // counts them (the appended end token is no word).
  const QString note =
      QObject::tr(
          "<unk> replaced by '%1', copied from source word %2 of %3 "
          "(attention %4)")
          .arg(QString::fromStdString(word), QString::number(copy.source + 1),
               QString::number(t.source.kept_length), QString::number(copy.attention, 'f', 2));
  if (!copy.end_weighed_more()) return note;
  // The row peaked on the appended end token, which is no word: say what it weighed, so the
  // brighter cell beside the framed one does not look like a mistake.
  const auto end = static_cast<size_t>(t.source.kept_length);  // the appended end token
  const std::string& endToken = end < t.source.tokens.size() ? t.source.tokens[end] : t.end_token;
  return QObject::tr("%1; %2 weighed more (%3) but is no word")
      .arg(note, QString::fromStdString(endToken), QString::number(copy.end_attention, 'f', 2));
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
    int copied = -1;  // the first copy among the word's pieces
    bool isForced = false;
    for (int piece : group) {
      const auto step = static_cast<size_t>(stepOf[static_cast<size_t>(piece)]);
      isForced = isForced || (step < forced.size() && forced[step]);
      for (size_t k = 0; k < t.copied.size() && copied < 0; ++k)
        if (t.copied[k].target == static_cast<int>(step)) copied = static_cast<int>(k);
    }
    QString html = copied < 0 ? word
                              : QStringLiteral("<a href='%1%2' style='color:%3'>%4</a>")
                                    .arg(kLinkPrefix)
                                    .arg(copied)
                                    .arg(QLatin1String(kCopiedColour), word);
    if (isForced)
      html = QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>")
                 .arg(QLatin1String(kForcedColour), html);
    words << html;
  }
  return words.join(QLatin1Char(' '));
}

QString copyNoteOfLink(const Translation& t, const QString& link) {
  if (!link.startsWith(kLinkPrefix)) return {};
  bool ok = false;
  const int k = link.mid(kLinkPrefix.size()).toInt(&ok);
  if (!ok || k < 0 || k >= static_cast<int>(t.copied.size())) return {};
  return copyNote(t, t.copied[static_cast<size_t>(k)]);
}

}  // namespace attnscope::ui
