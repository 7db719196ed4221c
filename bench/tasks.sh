#!/usr/bin/env bash
# Time to 95%: trains each built-in task with its default settings (`attnscope-cli train --task`)
# and prints, per task, the training time at the end of the first epoch whose held-out exact
# match reached 95%, and the best exact match. The table of docs/training.md ("Time to learn
# each task") is this script's output. Run it on a quiet machine: a build beside it halves the
# figures.
#
#   bench/tasks.sh [CLI] [SCORE] [TASK...]    defaults: build/app/attnscope-cli additive, every task
set -euo pipefail
cli=${1:-build/app/attnscope-cli}
score=${2:-additive}
shift $(( $# > 2 ? 2 : $# ))
tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || tasks=(reverse copy sort dates)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '| task | score | time to 95%% exact | epochs to 95%% | best exact | whole run |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
for task in "${tasks[@]}"; do
  start=$(date +%s.%N)
  "$cli" train --task "$task" --score "$score" --out "$work/$task.attnmodel" \
    > "$work/$task.out" 2> "$work/$task.log"
  end=$(date +%s.%N)
  # Epoch lines: "epoch 3: train loss ..., exact 97.3%, lr ..., 0:00:12 (total 35.2 s)".
  awk -v task="$task" -v score="$score" -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" '
    /^epoch [0-9]+/ {
      match($0, /exact [0-9.]+%/); exact = substr($0, RSTART + 6, RLENGTH - 7) + 0
      match($0, /total [0-9.]+ s/); total = substr($0, RSTART + 6, RLENGTH - 8) + 0
      split($2, e, ":"); epoch = e[1] + 0
      if (exact > best) best = exact
      if (exact >= 95 && reached == "") { reached = total; at = epoch }
    }
    END {
      printf "| %s | %s | %s | %s | %.1f%% | %.0f s |\n", task, score,
             reached == "" ? "not reached" : sprintf("%.0f s", reached),
             reached == "" ? "-" : at, best, wall
    }' "$work/$task.log"
done
