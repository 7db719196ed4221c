#!/usr/bin/env bash
# Sequence-level knowledge distillation (Kim and Rush 2016): a teacher model translates the
# training corpus's source side with beam search, and a student is trained on those
# translations. A student trained to imitate the teacher's beam output learns to find it
# greedily, which is what issue 33's greedy target asks of the default.
#
#   [WITH_REFERENCES=1] scripts/distill-corpus.sh [DATA_DIR] [TEACHER] [OUT_DIR]
#     DATA_DIR default ../shared/data/multi30k; TEACHER default resources/models/additive.attnmodel;
#     OUT_DIR default runs/kd. Writes OUT_DIR/train.en.gz and OUT_DIR/train.$TGT.gz, a parallel
#     corpus for `train --src/--tgt` (scripts/train-models.sh takes it as DISTILLED=OUT_DIR).
#     WITH_REFERENCES=1: the corpus's own pairs first, then the distilled ones (twice the lines).
#     BEAM=5 (default) is the teacher's beam size, TGT=de (default) the target language.
#
# Where the teacher wrote <unk> (a word it could not spell), the line keeps the reference
# instead: the student then learns that word from the corpus, never the token "<unk>" as text.
# Resumable: the teacher's two halves (one process with one thread each, the two cores) are
# kept in OUT_DIR/parts once done.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/multi30k}
teacher=${2:-resources/models/additive.attnmodel}
out=${3:-runs/kd}
tgt=${TGT:-de}
beam=${BEAM:-5}
work=$out/parts
mkdir -p "$work"
cli=runs/attnscope-cli.$(cksum <build/app/attnscope-cli | cut -d' ' -f1)
[ -x "$cli" ] || cp build/app/attnscope-cli "$cli"

zcat "$data/train.en.gz" >"$work/all.en"
lines=$(wc -l <"$work/all.en")
half=$(((lines + 1) / 2))
head -n "$half" "$work/all.en" >"$work/1.en"
tail -n +"$((half + 1))" "$work/all.en" >"$work/2.en"
for part in 1 2; do
  if [ ! -s "$work/$part.teacher" ]; then
    "$cli" translate --model "$teacher" --beam "$beam" --unk keep --threads 1 \
      <"$work/$part.en" >"$work/$part.tmp" && mv "$work/$part.tmp" "$work/$part.teacher" &
  fi
done
wait
cat "$work/1.teacher" "$work/2.teacher" >"$work/teacher"
[ "$(wc -l <"$work/teacher")" -eq "$lines" ] ||
  { echo "distill-corpus.sh: the teacher's output has not $lines lines" >&2; exit 1; }
# The teacher's tokens are separated by spaces, so the trainer's tokenizer reads them back as
# written; only "<unk>" would not survive (it reads as "<", "unk", ">").
zcat "$data/train.$tgt.gz" | paste -d '\t' "$work/teacher" - |
  awk -F '\t' '{ if ($1 ~ /(^| )<unk>( |$)/) { print $2; kept++ } else print $1 }
       END { printf "distill-corpus.sh: %d of %d lines keep the reference (the teacher wrote <unk>)\n", kept, NR > "/dev/stderr" }' \
    >"$work/distilled"
if [ "${WITH_REFERENCES:-0}" = 1 ]; then
  cat "$work/all.en" "$work/all.en" | gzip -n >"$out/train.en.gz"
  { zcat "$data/train.$tgt.gz"; cat "$work/distilled"; } | gzip -n >"$out/train.$tgt.gz"
else
  gzip -n <"$work/all.en" >"$out/train.en.gz"
  gzip -n <"$work/distilled" >"$out/train.$tgt.gz"
fi
echo "distill-corpus.sh: wrote $out/train.en.gz and $out/train.$tgt.gz" >&2
