#!/usr/bin/env bash
# Trains the shipped everyday models: cased subword models on Multi30k + Tatoeba
# (scripts/everyday-corpus.sh), one SentencePiece vocabulary per language pair, shared by every
# model of the pair. Resumable: run the same command again after an interruption and each model
# continues from its last finished epoch (train --resume).
#
#   RUNS=/path/outside/the/checkout scripts/train-everyday-models.sh TGT SCORE [SCORE...]
#       TGT: de or fr. The first model of a pair learns the vocabulary (8,000 joint pieces);
#       the others take it from $RUNS/en-TGT/additive.attnmodel (train --subwords-from), so
#       additive comes first. Models run two at a time, one thread each.
#   HIDDEN=256 EMB=256 EPOCHS=12 ...   sizes and the epoch limit (defaults below); a model is
#       named by its score function, so compare other sizes in another RUNS folder
#
#   INIT_FROM=MODEL AUGMENT_NAMES=SHARE LR=RATE NAME=SUFFIX ...   the second stage of the shipped
#       models: continues from MODEL's weights (train --init-from, a fresh optimizer at RATE) on
#       the corpus with names and numbers swapped in SHARE of Tatoeba's pairs
#       (scripts/augment-names.py), as SCORE-SUFFIX.attnmodel
#
# A finished model is not copied into resources/models/: compare it on validation first, then
# copy it by hand (docs/models.md, Shipped models).
set -euo pipefail
cd "$(dirname "$0")/.."
tgt=${1:?usage: RUNS=DIR scripts/train-everyday-models.sh de|fr SCORE...}
shift
scores=("$@")
[ ${#scores[@]} -gt 0 ] || { echo "train-everyday-models: name at least one score function" >&2; exit 2; }
runs=${RUNS:-runs}/en-$tgt
# Hidden 256 by default: hidden 512 took ~26 minutes an epoch of ~190,000 pairs on one thread
# (6 epochs: 33.5 validation BLEU en→de), too slow for a run to end within a working session.
hidden=${HIDDEN:-256} emb=${EMB:-256} epochs=${EPOCHS:-12} pieces=${PIECES:-8000}
mkdir -p "$runs"
data=$runs/data${AUGMENT_NAMES:+-names}
[ -f "$data/train.en.gz" ] || scripts/everyday-corpus.sh "$tgt" "$data"
# A private copy named by its checksum: rebuilding the project does not pull the binary from
# under a running job.
cli=$runs/attnscope-cli.$(cksum <build/app/attnscope-cli | cut -d' ' -f1)
[ -x "$cli" ] || cp build/app/attnscope-cli "$cli"
multi30k=${MULTI30K:-../shared/data/multi30k}
tatoeba=${TATOEBA:-../shared/data/tatoeba}/en-$tgt

train_one() {
  local score=$1 name=$1${NAME:+-$NAME} vocabulary=()
  if [ -n "${INIT_FROM:-}" ]; then
    vocabulary=(--init-from "$INIT_FROM" --lr "${LR:-0.0005}")
  elif [ "$score" = additive ]; then
    vocabulary=(--subwords "$pieces" --joint-subwords)
  else
    vocabulary=(--subwords-from "$runs/additive.attnmodel")
  fi
  "$cli" train --src "$data/train.en.gz" --tgt "$data/train.$tgt.gz" \
    --val-src "$data/val.en.gz" --val-tgt "$data/val.$tgt.gz" \
    --report-src "$multi30k/val.en.gz" "$tatoeba/val.en.gz" \
    --report-tgt "$multi30k/val.$tgt.gz" "$tatoeba/val.$tgt.gz" \
    --test-src "$tatoeba/test.en.gz" --test-tgt "$tatoeba/test.$tgt.gz" \
    --corpus-name "Multi30k + Tatoeba" --cased "${vocabulary[@]}" \
    --score "$score" --decoder cgru --emb "$emb" --hidden "$hidden" \
    --out "$runs/$name.attnmodel" --epochs "$epochs" --seed 1 --threads 1 \
    --save-epochs --resume >>"$runs/$name.log" 2>&1
}

for ((i = 0; i < ${#scores[@]}; i += 2)); do
  train_one "${scores[i]}" &
  [ $((i + 1)) -lt ${#scores[@]} ] && train_one "${scores[i + 1]}" &
  wait
done
