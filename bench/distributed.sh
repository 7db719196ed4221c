#!/usr/bin/env bash
# Training on several processes, measured on this machine: sentences per second of the shipped
# recipe (the additive model's default shape, batch 64) on Multi30k over the same first BATCHES
# batches, for 1 process x 1 thread, 1 process x 2 threads and 2 processes x 1 thread
# (`train --local-processes 2`, Gloo over 127.0.0.1). Then, on paper, what summing one batch's
# gradients costs between machines: a ring all-reduce sends and receives 2(N-1)/N times the
# gradient bytes per rank. The tables of docs/training.md ("Scaling") are this script's
# output. Run it on a quiet machine.
#
#   bench/distributed.sh [CLI] [DATA_DIR] [BATCHES]   defaults: build/app/attnscope-cli
#                                                      ../shared/data/multi30k 100
set -euo pipefail
cli=${1:-build/app/attnscope-cli}
data=${2:-../shared/data/multi30k}
batches=${3:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A short validation set: the validation after the epoch is not what is measured.
for side in en de; do zcat -f "$data/val.$side.gz" | awk "NR <= 50" >"$work/val.$side"; done

run() {  # name, extra flags...
  local name=$1
  shift
  "$cli" train --src "$data/train.en.gz" --tgt "$data/train.de.gz" \
    --val-src "$work/val.en" --val-tgt "$work/val.de" --score additive --epochs 1 \
    --max-batches "$batches" --seed 1 --out "$work/$name.attnmodel" "$@" \
    >"$work/$name.out" 2>"$work/$name.log"
  # The last progress line of the epoch: "epoch 1/1 batch 100/100 85.3 sent/s ETA ...".
  awk '/^epoch 1\/1 batch/ { rate = $5 } END { print rate }' "$work/$name.log"
}

one_one=$(run one-thread --threads 1)
one_two=$(run two-threads --threads 2)
two_one=$(run two-processes --local-processes 2 --threads 1)
printf '| processes x threads | sentences/s | vs 1 x 1 |\n| --- | --- | --- |\n'
for row in "1 x 1:$one_one" "1 x 2:$one_two" "2 x 1:$two_one"; do
  awk -v label="${row%%:*}" -v rate="${row#*:}" -v base="$one_one" \
    'BEGIN { printf "| %s | %.1f | %.2fx |\n", label, rate, rate / base }'
done

# "note: training on 2 processes: every batch sums N gradients (M MB) across them".
gradients=$(sed -n 's/.*every batch sums \([0-9]*\) gradients.*/\1/p' "$work/two-processes.log")
echo
echo "all-reduce per batch: $gradients float32 gradients ($(awk -v g="$gradients" \
  'BEGIN { printf "%.1f", 4 * g / 1e6 }') MB); each rank sends and receives 2(N-1)/N of that:"
printf '| ranks | MB per rank per batch | at 1 Gbit/s | at 10 Gbit/s |\n| --- | --- | --- | --- |\n'
for ranks in 2 4 8 16; do
  awk -v g="$gradients" -v n="$ranks" 'BEGIN {
    mb = 4 * g / 1e6 * 2 * (n - 1) / n
    printf "| %d | %.1f | %.0f ms | %.1f ms |\n", n, mb, mb * 8 / 1000 * 1000, mb * 8 / 10000 * 1000
  }'
done
