#!/usr/bin/env bash
# Prints the README's table of unknown words: for every shipped model (or every MODEL_FILE
# given), test BLEU greedy and beam 5 with `--unk keep` and `--unk copy`, and the share of output
# sentences holding <unk>. One eval per model and search gives both ways (copying only relabels
# the model's <unk>).
#
#   scripts/unknown-words-table.sh [DATA_DIR] [CLI] [MODEL_FILE...]
#     DATA_DIR default ../shared/data/multi30k (test_2016_flickr.en.gz / .de.gz)
#     CLI      default build/app/attnscope-cli
#     MODEL_FILE e.g. runs/*-sp8000.attnmodel (subword models not shipped); named by file name
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/multi30k}
cli=${2:-build/app/attnscope-cli}
shift 2 2>/dev/null || shift $#
src=$data/test_2016_flickr.en.gz
ref=$data/test_2016_flickr.de.gz

# "--unk copy: BLEU 35.91, 1 of 1000 sentences with <unk> (1 <unk> in all)" → "35.91 0.1%"
bleu_and_share() {
  sed -n "s/^--unk $1: BLEU \([0-9.]*\), \([0-9]*\) of \([0-9]*\) sentences.*/\1 \2 \3/p" |
    awk '{ printf "%s %.1f%%\n", $1, 100 * $2 / $3 }'
}

echo "| model | BLEU greedy, keep | greedy, copy | beam 5, keep | beam 5, copy | sentences with <unk>, greedy: keep → copy | beam 5: keep → copy |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
choices=()  # "--score NAME" or "--model FILE", one per line
if [ $# -gt 0 ]; then
  for file in "$@"; do choices+=("--model $file"); done
else
  for name in $("$cli" models | awk 'NR > 1 && $1 != "" { print $1 }'); do
    choices+=("--score $name")
  done
fi
for choice in "${choices[@]}"; do
  read -r option value <<<"$choice"
  model=$value
  [ "$option" = --model ] && model=$(basename "$value" .attnmodel)
  greedy=$("$cli" eval "$option" "$value" --src "$src" --ref "$ref")
  beam=$("$cli" eval "$option" "$value" --src "$src" --ref "$ref" --beam 5)
  read -r gk gk_share < <(bleu_and_share keep <<<"$greedy")
  read -r gc gc_share < <(bleu_and_share copy <<<"$greedy")
  read -r bk bk_share < <(bleu_and_share keep <<<"$beam")
  read -r bc bc_share < <(bleu_and_share copy <<<"$beam")
  echo "| \`$model\` | $gk | $gc | $bk | $bc | $gk_share → $gc_share | $bk_share → $bc_share |"
done
