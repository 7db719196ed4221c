#pragma once
// How a token is written on screen. SentencePiece marks a piece that starts a word with "▁"
// (U+2581), a character no text uses; the screen writes "␣" there (an open box, read as "a space
// before"), and nothing before the sentence's first piece. The data (CSV, JSON) keeps the
// model's own tokens.
#include <QString>

namespace attnscope::ui {

/// "▁hat" → "␣hat" ("hat" when `first`); "▁" alone → "␣"; any other token unchanged.
QString readableToken(const QString& token, bool first);

}  // namespace attnscope::ui
