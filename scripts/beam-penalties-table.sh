#!/usr/bin/env bash
# Prints the table of docs/search.md, "What the penalties do": test BLEU of one model
# greedy, with beam 5 ranked by log P / length (the default) and with beam 5 under GNMT's length
# penalty α ∈ {0, 0.6, 1.0} and coverage penalty β ∈ {0, 0.4}, each with its brevity penalty and
# output/reference length ratio.
#
#   scripts/beam-penalties-table.sh [DATA_DIR] [CLI] [SCORE]
#     DATA_DIR default ../shared/data/multi30k (test_2016_flickr.en.gz / .de.gz)
#     CLI      default build/app/attnscope-cli
#     SCORE    default additive (the app's default model)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/multi30k}
cli=${2:-build/app/attnscope-cli}
score=${3:-additive}
src=$data/test_2016_flickr.en.gz
ref=$data/test_2016_flickr.de.gz

# "BLEU = 36.65  68.8/44.2/30.8/21.9  BP=0.968  ratio=0.968  (…)" → "36.65 | 0.968 | 0.968"
bleu_bp_ratio() {
  sed -n 's/^BLEU = \([0-9.]*\) .* BP=\([0-9.]*\) *ratio=\([0-9.]*\).*/\1 | \2 | \3/p'
}
row() {
  local label=$1
  shift
  echo "| $label | $("$cli" eval --score "$score" --src "$src" --ref "$ref" --threads 1 "$@" |
    bleu_bp_ratio) |"
}

echo "| search ($score) | BLEU | BP | length ratio |"
echo "| --- | --- | --- | --- |"
row "greedy" --beam 1
row "beam 5, log P / length (default)" --beam 5
for beta in 0 0.4; do
  for alpha in 0 0.6 1.0; do
    row "beam 5, α = $alpha, β = $beta" --beam 5 --length-penalty "$alpha" --coverage-penalty "$beta"
  done
done
