#!/usr/bin/env bash
# Builds the training and validation corpora of the shipped everyday models: Multi30k's image
# captions and Tatoeba's everyday sentences together, for one language pair.
#
#   scripts/everyday-corpus.sh TGT OUT_DIR [MULTI30K_COPIES]
#       TGT: de or fr; OUT_DIR gets train.en.gz, train.TGT.gz, val.en.gz, val.TGT.gz.
#       MULTI30K_COPIES (default 2): Multi30k's 29,000 captions are repeated this many times
#       beside Tatoeba's ~150,000 sentences, so the captions keep a share of every epoch
#       (2 copies: 27% of the pairs) and the caption test does not fall behind.
#   Validation is both validation sets in one (Multi30k's 1,014 then Tatoeba's 2,000): the
#   model kept is the best on captions and everyday sentences together.
#   AUGMENT_NAMES=SHARE (e.g. 0.5): in that share of Tatoeba's training pairs, the names it
#   repeats (Tom, Boston, …) and the numbers written alike on both sides are swapped for others
#   (scripts/augment-names.py), so that a model learns to copy a name it never saw.
#
# Reads ../shared/data/multi30k and ../shared/data/tatoeba (or $MULTI30K and $TATOEBA). The
# corpora are written outside the repository: the data is never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
tgt=${1:?usage: scripts/everyday-corpus.sh de|fr OUT_DIR [MULTI30K_COPIES]}
out=${2:?usage: scripts/everyday-corpus.sh de|fr OUT_DIR [MULTI30K_COPIES]}
copies=${3:-2}
multi30k=${MULTI30K:-../shared/data/multi30k}
tatoeba=${TATOEBA:-../shared/data/tatoeba}/en-$tgt
case "$tgt" in de | fr) ;; *) echo "everyday-corpus: TGT must be de or fr, not '$tgt'" >&2; exit 2 ;; esac
[[ "$copies" =~ ^[0-9]+$ ]] || { echo "everyday-corpus: MULTI30K_COPIES must be a whole number, not '$copies'" >&2; exit 2; }
mkdir -p "$out"
if [ -n "${AUGMENT_NAMES:-}" ]; then
  python3 scripts/augment-names.py "$tatoeba/train.en.gz" "$tatoeba/train.$tgt.gz" \
    "$out/tatoeba.en.gz" "$out/tatoeba.$tgt.gz" --share "$AUGMENT_NAMES" --seed 1
fi
for lang in en "$tgt"; do
  {
    for ((i = 0; i < copies; ++i)); do zcat "$multi30k/train.$lang.gz"; done
    if [ -n "${AUGMENT_NAMES:-}" ]; then zcat "$out/tatoeba.$lang.gz"; else zcat "$tatoeba/train.$lang.gz"; fi
  } | gzip -n >"$out/train.$lang.gz"
  { zcat "$multi30k/val.$lang.gz"; zcat "$tatoeba/val.$lang.gz"; } | gzip -n >"$out/val.$lang.gz"
done
for f in "$out"/*.gz; do echo "$f: $(zcat "$f" | wc -l) lines"; done
