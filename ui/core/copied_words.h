#pragma once
// How the UI tells a copied word (an "<unk>" the model emitted, replaced by the source word its
// attention weighs most) from a word the model produced: a note for tooltips, and the
// translation line with copied words marked.
#include <attnscope/translation.h>

#include <QString>

namespace attnscope::ui {

/// The colour of copied words and of the frames around the cells they were copied from.
inline constexpr const char* kCopiedColour = "#0a84ff";

/// "copied from source word 'Merkel' (attention 0.71)"; when the row weighed the end token
/// more: "copied from source word 'business' (attention 0.19); </s> weighed more (0.29) but
/// is no word".
QString copyNote(const Translation& t, const CopiedWord& copy);

/// The translation's words as HTML (escaped). A word holding a copied token is drawn in the
/// copied colour and underlined, as a link "copied:K" (K: its index in t.copied).
QString translationHtml(const Translation& t);

/// The note of a link from translationHtml(); empty for any other link.
QString copyNoteOfLink(const Translation& t, const QString& link);

}  // namespace attnscope::ui
