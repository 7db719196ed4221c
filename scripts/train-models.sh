#!/usr/bin/env bash
# Trains the seven shipped English->German models (six score functions and `none`, the baseline
# without attention) on Multi30k, two at a time with one thread each (on two cores that is ~1.5x
# the throughput of one run with two threads). Resumable: run it
# again after an interruption and every model continues from its last finished epoch.
# A finished word model is copied to resources/models/.
#
#   scripts/train-models.sh [DATA_DIR] [SCORE...]     (DATA_DIR default: ../shared/data/multi30k)
#   SUBWORDS=8000 scripts/train-models.sh ...          subword models (train --subwords 8000),
#       written to runs/SCORE-sp8000.attnmodel and not copied: one ships instead of the word model
#       of its score function only when its test BLEU (greedy) is not lower; compare with eval.
#   DECODER=cgru EPOCHS=20 scripts/train-models.sh DATA additive
#       the conditional GRU decoder (train --decoder cgru): runs/SCORE-cgru.attnmodel, copied to
#       resources/models/SCORE.attnmodel like a plain word model (the run names the decoder, the
#       shipped file the score function).
#   EMB=256 HIDDEN=512 DECODER=cgru EPOCHS=20 scripts/train-models.sh DATA additive
#       sizes other than the default (train --emb / --hidden): the larger conditional-GRU
#       additive of docs/models.md's recipe experiments (runs/additive-cgru-e256-h512.attnmodel).
#   TGT=fr EPOCHS=24 scripts/train-models.sh DATA additive
#       English->French (train.fr.gz ...): runs/en-fr/SCORE.attnmodel, copied to
#       resources/models/en-fr/ (the shipped en-fr additive: 24 epochs, chosen on the validation
#       curve of the German additive, which gained 0.5 BLEU from epoch 12 to 20).
#   MIN_FREQ=4 ... (train --min-freq 4): the vocabulary keeps words seen at least 4 times
#       (default 2); the run is named SCORE-…-m4.
#   DISTILLED=runs/kd DECODER=cgru EPOCHS=16 scripts/train-models.sh DATA additive
#       a student trained on the corpus scripts/distill-corpus.sh wrote to runs/kd (a teacher's
#       translations of the training corpus, with or without its references):
#       runs/SCORE-cgru-kd.attnmodel (the suffix is the folder's name), not copied (ship it by
#       hand when validation BLEU says so); validation and test stay the corpus's.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/multi30k}
shift || true
scores=("$@")
[ ${#scores[@]} -gt 0 ] || scores=(additive general dot scaled_dot cosine location none)
mkdir -p runs
subwords=${SUBWORDS:-0}
tgt=${TGT:-de}
epochs=${EPOCHS:-12}
decoder=${DECODER:-gru}
emb=${EMB:-} hidden=${HIDDEN:-}
distilled=${DISTILLED:-}
min_freq=${MIN_FREQ:-}
threads=${THREADS:-1}  # one run alone on two cores: THREADS=2
runs=runs shipped=resources/models
if [ "$tgt" != de ]; then
  runs=runs/en-$tgt shipped=resources/models/en-$tgt
  mkdir -p "$runs" "$shipped"
fi
# A private copy named by its checksum, so rebuilding the project neither pulls the binary from
# under a running job nor leaves an older binary (without today's options) in use.
cli=runs/attnscope-cli.$(cksum <build/app/attnscope-cli | cut -d' ' -f1)
[ -x "$cli" ] || cp build/app/attnscope-cli "$cli"

train_one() {
  local score=$1 name=$1 extra=()
  if [ "$subwords" -gt 0 ]; then name=$score-sp$subwords extra=(--subwords "$subwords"); fi
  if [ "$decoder" != gru ]; then name=$name-$decoder extra+=(--decoder "$decoder"); fi
  if [ -n "$emb" ]; then name=$name-e$emb extra+=(--emb "$emb"); fi
  if [ -n "$hidden" ]; then name=$name-h$hidden extra+=(--hidden "$hidden"); fi
  if [ -n "$min_freq" ]; then name=$name-m$min_freq extra+=(--min-freq "$min_freq"); fi
  local corpus=$data
  if [ -n "$distilled" ]; then name=$name-$(basename "$distilled") corpus=$distilled; fi
  "$cli" train --src "$corpus/train.en.gz" --tgt "$corpus/train.$tgt.gz" \
    --val-src "$data/val.en.gz" --val-tgt "$data/val.$tgt.gz" \
    --test-src "$data/test_2016_flickr.en.gz" --test-tgt "$data/test_2016_flickr.$tgt.gz" \
    --score "$score" --out "$runs/$name.attnmodel" --epochs "$epochs" --seed 1 --threads "$threads" \
    --resume "${extra[@]}" >>"$runs/$name.log" 2>&1 &&
    if [ "$subwords" -eq 0 ] && [ -z "$distilled" ]; then cp "$runs/$name.attnmodel" "$shipped/$score.attnmodel"; fi
}

for ((i = 0; i < ${#scores[@]}; i += 2)); do
  train_one "${scores[i]}" &
  [ $((i + 1)) -lt ${#scores[@]} ] && train_one "${scores[i + 1]}" &
  wait
done
