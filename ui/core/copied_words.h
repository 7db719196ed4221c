#pragma once
// How the UI tells a copied word (an "<unk>" the model emitted, replaced by the unknown source
// word its attention weighs most) and a kept "<unk>" from a word the model produced: notes for
// tooltips, and the translation line with both marked.
#include <attnscope/translation.h>

#include <QString>

namespace attnscope::ui {

/// The colour of copied words and of the frames around the cells they were copied from.
inline constexpr const char* kCopiedColour = "#0a84ff";
/// The colour of an "<unk>" that copying kept (its note says why).
inline constexpr const char* kKeptUnknownColour = "#8e8e93";
/// The colour of forced words (a token the user chose instead of the model) in the translation.
inline constexpr const char* kForcedColour = "#af52de";

/// "<unk> replaced by 'Merkel', the unknown source word (word 3 of 7) its attention weighs most
/// (0.71)"; when the row weighs another token more, that token and its weight follow.
QString copyNote(const Translation& t, const CopiedWord& copy);

/// Why copying kept an "<unk>": the source has no unknown word, or the unknown word the row
/// weighs most has less weight than copying needs.
QString keptNote(const Translation& t, const KeptUnknown& kept);

/// The translation's words as HTML (escaped). A word holding a copied token is drawn in the
/// copied colour and underlined, as a link "copied:K" (K: its index in t.copied); a kept "<unk>"
/// in grey as a link "kept:K" (K: its index in t.kept_unknown). `forced`, per
/// token of t.tokens (shorter: the rest not forced): a word holding a forced token is drawn bold
/// in the forced colour.
QString translationHtml(const Translation& t, const std::vector<bool>& forced = {});

/// The note of a link from translationHtml(); empty for any other link.
QString unknownWordNoteOfLink(const Translation& t, const QString& link);

}  // namespace attnscope::ui
