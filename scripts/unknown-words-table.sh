#!/usr/bin/env bash
# Prints the tables of docs/unknown-words.md: for every shipped model (or every MODEL_FILE
# given), test BLEU greedy and beam 5 with `--unk keep`, with the copying rule of 0.9.0
# (`--copy-any`: the source word the attention weighs most, whatever it is) and with today's
# (only an unknown name or number), and for each the leak share: output words that are
# lowercase source words the German training text never has. Two evals per model and search
# (copying only relabels the model's <unk>, so each gives keep and one copy rule). Greedy search
# by default (~10 s a model); BEAMS="1 5" adds beam 5 (~1 minute a model and rule). One thread
# each: the figures do not depend on it, and a second thread only spins beside other work.
#
#   [BEAMS="1 5"] [TGT=fr] scripts/unknown-words-table.sh [DATA_DIR] [CLI] [MODEL_FILE...]
#     TGT      the target language, default de: the shipped models of the pair en-TGT
#     DATA_DIR default ../shared/data/multi30k (test_2016_flickr.en.gz / .TGT.gz, train.TGT.gz)
#     CLI      default build/app/attnscope-cli
#     MODEL_FILE e.g. runs/*-sp8000.attnmodel (subword models not shipped); named by file name
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/multi30k}
cli=${2:-build/app/attnscope-cli}
shift 2 2>/dev/null || shift $#
tgt=${TGT:-de}
src=$data/test_2016_flickr.en.gz
ref=$data/test_2016_flickr.$tgt.gz
train=$data/train.$tgt.gz

# eval --json → "BLEU LEAK%" for --unk $1 (copy or keep)
bleu_and_leak() {
  python3 -c '
import json, sys
m = json.load(sys.stdin)["models"][0]["unknown_words"][sys.argv[1]]
print("%.2f %.2f%%" % (m["bleu"], m["leak"]["percent"]))' "$1"
}

beams=(${BEAMS:-1})
search_name() { if [ "$1" -gt 1 ]; then echo "beam $1"; else echo greedy; fi; }
head="| model"
rule="| ---"
for beam in "${beams[@]}"; do
  head+=" | BLEU $(search_name "$beam"): keep | copy, 0.9.0 | copy, names only"
  rule+=" | --- | --- | ---"
done
for beam in "${beams[@]}"; do
  head+=" | leak, $(search_name "$beam"): keep / 0.9.0 / names only"
  rule+=" | ---"
done
echo "$head |"
echo "$rule |"
choices=()  # "--score NAME" or "--model FILE", one per line
if [ $# -gt 0 ]; then
  for file in "$@"; do choices+=("--model $file"); done
else
  # `models`: NAME SCORE LANGS ...; the shipped models of the pair en-$tgt.
  for name in $("$cli" models | awk -v pair="en-$tgt" 'NR > 1 && $3 == pair { print $2 }'); do
    choices+=("--score $name")
  done
fi
for choice in "${choices[@]}"; do
  read -r option value <<<"$choice"
  model=$value
  pair=()
  [ "$option" = --model ] && model=$(basename "$value" .attnmodel)
  [ "$option" = --score ] && pair=(--pair "en-$tgt")
  row="| \`$model\`"
  leaks=()
  for beam in "${beams[@]}"; do
    eval=("$cli" eval "$option" "$value" "${pair[@]}" --src "$src" --ref "$ref" --train-tgt "$train"
      --json --beam "$beam" --threads 1)
    today=$("${eval[@]}")
    before=$("${eval[@]}" --copy-any)
    read -r keep keep_leak < <(bleu_and_leak keep <<<"$today")
    read -r any any_leak < <(bleu_and_leak copy <<<"$before")
    read -r names names_leak < <(bleu_and_leak copy <<<"$today")
    row+=" | $keep | $any | $names"
    leaks+=("$keep_leak / $any_leak / $names_leak")
  done
  for leak in "${leaks[@]}"; do row+=" | $leak"; done
  echo "$row |"
done
