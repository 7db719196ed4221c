#!/usr/bin/env bash
# Prints the table of docs/search.md, "Beam search's ending rule": for every shipped model (both
# language pairs), BLEU with beam 5 under the rule of attnscope 0.9.0 (`eval --any-ending`:
# any </s> the step considers ends its hypothesis and counts towards the K that stop the search)
# and under today's (only a </s> among the step's K best), with each one's brevity penalty; on the
# validation set and on test_2016_flickr. About 30 s per model, rule and set on one thread.
# Then, for the default model on test_2016_flickr's first 300 sentences, how often each rule's
# best hypothesis scores below greedy search's by the beam's own score (log P / length).
#
#   scripts/beam-ending-table.sh [DATA_DIR] [CLI]
#     DATA_DIR default ../shared/data/multi30k (val / test_2016_flickr, .en.gz and .de/.fr.gz)
#     CLI      default build/app/attnscope-cli
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/multi30k}
cli=${2:-build/app/attnscope-cli}

# "BLEU = 36.65  68.8/44.2/30.8/21.9  BP=0.968  ratio=0.968  (…)" → "36.65 (BP 0.968)"
bleu_bp() {
  sed -n 's/^BLEU = \([0-9.]*\) .* BP=\([0-9.]*\) .*/\1 (BP \2)/p'
}
beam5() {
  local pair=$1 score=$2 set=$3
  shift 3
  "$cli" eval --pair "$pair" --score "$score" --src "$data/$set.en.gz" \
    --ref "$data/$set.${pair#en-}.gz" --beam 5 --threads 1 "$@" | bleu_bp
}

echo "| model | validation: 0.9.0's rule | today's | test_2016_flickr: 0.9.0's rule | today's |"
echo "| --- | --- | --- | --- | --- |"
for model in en-de:dot en-de:general en-de:additive en-de:scaled_dot en-de:cosine \
  en-de:location en-de:none en-fr:additive en-fr:none; do
  pair=${model%%:*} score=${model#*:}
  echo "| \`$score\` ($pair) | $(beam5 "$pair" "$score" val --any-ending) |" \
    "$(beam5 "$pair" "$score" val) | $(beam5 "$pair" "$score" test_2016_flickr --any-ending) |" \
    "$(beam5 "$pair" "$score" test_2016_flickr) |"
done

translations() {  # the first 300 test sentences, one JSON object each
  zcat -f "$data/test_2016_flickr.en.gz" | head -300 | "$cli" translate --json --threads 1 "$@"
}
greedy=$(mktemp) old=$(mktemp) new=$(mktemp)
trap 'rm -f "$greedy" "$old" "$new"' EXIT
translations --beam 1 >"$greedy"
translations --beam 5 --any-ending >"$old"
translations --beam 5 >"$new"
python3 - "$greedy" "$old" "$new" <<'PY'
import json, math, sys
greedy, old, new = ([json.loads(line) for line in open(f)] for f in sys.argv[1:])
def own_score(t):  # greedy's score as beam search ranks: log P / length
    return sum(math.log(p) for p in t["probabilities"]) / len(t["probabilities"])
for name, beam in (("0.9.0's rule", old), ("today's rule", new)):
    below = sum(b["score"] < own_score(g) - 1e-4 for g, b in zip(greedy, beam))
    print(f"additive, beam 5, {name}: {below} of {len(greedy)} below greedy search's score")
PY
