#pragma once
// How the UI tells a copied word (an "<unk>" the model emitted, replaced by the source word its
// attention weighs most) from a word the model produced: a note for tooltips, and the
// translation line with copied words marked.
#include <attnscope/translation.h>

#include <QString>

namespace attnscope::ui {

/// The colour of copied words and of the frames around the cells they were copied from.
inline constexpr const char* kCopiedColour = "#0a84ff";
/// The colour of forced words (a token the user chose instead of the model) in the translation.
inline constexpr const char* kForcedColour = "#af52de";

/// "<unk> replaced by 'Merkel', copied from source word 3 of 7 (attention 0.71)"; when the row
/// weighed the end token more, "; </s> weighed more (0.29) but is no word" follows.
QString copyNote(const Translation& t, const CopiedWord& copy);

/// The translation's words as HTML (escaped). A word holding a copied token is drawn in the
/// copied colour and underlined, as a link "copied:K" (K: its index in t.copied). `forced`, per
/// token of t.tokens (shorter: the rest not forced): a word holding a forced token is drawn bold
/// in the forced colour.
QString translationHtml(const Translation& t, const std::vector<bool>& forced = {});

/// The note of a link from translationHtml(); empty for any other link.
QString copyNoteOfLink(const Translation& t, const QString& link);

}  // namespace attnscope::ui
