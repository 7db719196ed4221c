#pragma once
// How a list of scores is written when the reader compares them. Beam hypotheses often score
// alike to three decimals (−0.191 and −0.191) while their order was decided by the fourth; a list
// that shows two equal numbers in a definite order hides why the first one won.
#include <QList>
#include <QStringList>

namespace attnscope::ui {

/// The fewest decimals, from `minDecimals` up to `maxDecimals`, at which any two scores that
/// differ are written differently.
int distinctDecimals(const QList<double>& scores, int minDecimals = 3, int maxDecimals = 6);

/// Every score with the fewest decimals, from `minDecimals` up to `maxDecimals`, at which any two
/// scores that differ are written differently (scores that are equal stay equal; beyond
/// `maxDecimals` a tie on screen is a tie in all that matters).
QStringList distinctScoreTexts(const QList<double>& scores, int minDecimals = 3,
                               int maxDecimals = 6);

}  // namespace attnscope::ui
