#pragma once
// How long a Corpus tab run takes: this computer's measured pace per sentence and model, the
// run's work in units that weigh a faithfulness test as the decoding it costs (so a progress bar
// moves with the time spent, not the sentences counted), and durations as a person reads them.
#include <QString>

namespace attnscope::ui {

struct CorpusPace {
  // Seconds per sentence and model, as measured by the last run here (AppSettings); until one
  // ran, those of a shipped model on two cores.
  double decodeSeconds = 0.005;      // a greedy translation and its measures
  double faithfulnessSeconds = 0.4;  // the faithfulness tests of one sentence

  /// The work units of one sentence's faithfulness tests; a decoded sentence is one unit.
  int faithfulnessUnits() const;
  /// The expected seconds of a run over `sentences` lines and `models` models.
  double runSeconds(int sentences, int models, bool faithfulness) const;
  /// The pace with one phase's new measurement (`seconds` per sentence and model) in it.
  CorpusPace measured(bool faithfulness, double seconds) const;
};

/// "under a minute", "about 4 min", "about 1 h 20 min".
QString durationText(double seconds);

/// A run's size as read: "1,000 sentences × 3 models", "1 sentence × 1 model".
QString runSizeText(qint64 sentences, qint64 models);

}  // namespace attnscope::ui
