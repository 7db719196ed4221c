#!/usr/bin/env bash
# The "Shipped models" table of docs/models.md: every installed model of both language pairs
# (`attnscope-cli models`), its BLEU on Multi30k's test_2016_flickr and on Tatoeba's test set,
# greedy and beam 5, its size, its epochs and its training time.
#
#   scripts/shipped-models-table.sh [PAIR...]     (default: en-de en-fr)
#
# BLEU is eval's: words compared lowercased (so word models and cased models compare), and for
# a cased model the BLEU with case kept in brackets. Each Tatoeba line is scored against its own
# reference, as `eval` does. Reads ../shared/data/multi30k and ../shared/data/tatoeba (or
# $MULTI30K and $TATOEBA); CLI=path picks another attnscope-cli (default build/app/attnscope-cli).
# Takes about 10 minutes on two cores (beam 5 is most of it).
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${CLI:-build/app/attnscope-cli}
multi30k=${MULTI30K:-../shared/data/multi30k}
tatoeba=${TATOEBA:-../shared/data/tatoeba}
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(en-de en-fr)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cli" models >"$work/models.txt"
for pair in "${pairs[@]}"; do
  tgt=${pair#en-}
  # NAME SCORE LANGS PARAMETERS SIZE VOCABULARY... TEST FILE: the file is the last column.
  mapfile -t files < <(awk -v pair="$pair" 'NR > 1 && $3 == pair { print $NF }' "$work/models.txt")
  [ ${#files[@]} -gt 0 ] || { echo "shipped-models-table: no installed $pair models" >&2; exit 2; }
  for set in multi30k tatoeba; do
    if [ "$set" = multi30k ]; then
      src=$multi30k/test_2016_flickr.en.gz ref=$multi30k/test_2016_flickr.$tgt.gz
    else
      src=$tatoeba/$pair/test.en.gz ref=$tatoeba/$pair/test.$tgt.gz
    fi
    for beam in 1 5; do
      "$cli" eval --model "${files[@]}" --src "$src" --ref "$ref" --beam "$beam" --json \
        >"$work/$pair.$set.$beam.json"
    done
  done
  printf '%s\n' "${files[@]}" >"$work/$pair.files"
done

python3 - "$work" "${pairs[@]}" <<'EOF'
import json, os, struct, sys

work, pairs = sys.argv[1], sys.argv[2:]

# A model file: 16-byte magic, format version (4 bytes), header length (8), CRC-32 (4), then
# the JSON header (docs/file-formats.md, Model files).
def training_record(path):
    with open(path, "rb") as f:
        start = f.read(32)
        (length,) = struct.unpack("<Q", start[20:28])
        return json.loads(f.read(length)).get("training", {})

def bleu(model):
    text = "%.2f" % model["bleu"]["bleu"]
    if "cased_bleu" in model:
        text += " (%.2f)" % model["cased_bleu"]["bleu"]
    return text

print("| model | languages | trained on | Multi30k greedy | beam 5 | Tatoeba greedy | beam 5 "
      "| file | epochs (best) | training time |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for pair in pairs:
    files = open(os.path.join(work, pair + ".files")).read().split()
    runs = {}
    for key in ("multi30k.1", "multi30k.5", "tatoeba.1", "tatoeba.5"):
        runs[key] = json.load(open(os.path.join(work, "%s.%s.json" % (pair, key))))["models"]
    for i, path in enumerate(files):
        record = training_record(path)
        name = os.path.basename(path).replace(".attnmodel", "")
        print("| `%s` | %s | %s | %s | %s | %s | %s | %.1f MB | %s (%s) | %.0f min |" % (
            name, pair, record.get("corpus", "?"), bleu(runs["multi30k.1"][i]),
            bleu(runs["multi30k.5"][i]), bleu(runs["tatoeba.1"][i]), bleu(runs["tatoeba.5"][i]),
            os.path.getsize(path) / 1e6, record.get("epochs", "?"), record.get("best_epoch", "?"),
            record.get("seconds", 0) / 60))
EOF
