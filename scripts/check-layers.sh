#!/usr/bin/env bash
# Checks that engine/src's layers depend one way only: a file may include headers of its own
# layer and of the layers below it, never of a layer above. Public headers (attnscope/*.h) count
# as the layer that implements them. Exit 1 with one line per offending include.
set -euo pipefail
engine="$(cd "$(dirname "$0")/../engine" && pwd)"

# Lowest first. "base" is plain declarations every layer may use.
layers=(base io ops model decode eval train bench)
declare -A public=(
  [errors.h]=base [model_config.h]=base [model_info.h]=base
  [text.h]=io [vocabulary.h]=io [corpus.h]=io [model_folders.h]=io [attention_file.h]=io
  [training_snapshots.h]=io
  [score_functions.h]=model [model_catalog.h]=model
  [translation.h]=decode [translator.h]=decode [thread_settings.h]=decode [word_view.h]=decode
  [bleu.h]=eval [attention_metrics.h]=eval [word_alignment.h]=eval
  [corpus_evaluation.h]=eval [sentence_alignment.h]=eval
  [trainer.h]=train [training_tasks.h]=train
  [benchmark.h]=bench
)

rank() {
  local i
  for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo "unknown"
}

status=0
for header in "$engine"/include/attnscope/*.h; do
  name=$(basename "$header")
  if [ -z "${public[$name]:-}" ]; then
    echo "engine/include/attnscope/$name: not assigned to a layer in scripts/check-layers.sh"
    status=1
  fi
done

while IFS= read -r file; do
  relative=${file#"$engine"/}
  case "$relative" in
    src/*/*) own=$(echo "$relative" | cut -d/ -f2) ;;
    src/*) echo "engine/$relative: outside every layer folder"; status=1; continue ;;
    include/attnscope/*) own=${public[$(basename "$relative")]:-base} ;;
  esac
  own_rank=$(rank "$own")
  if [ "$own_rank" = unknown ]; then
    echo "engine/$relative: folder '$own' is not a layer"
    status=1
    continue
  fi
  while IFS= read -r included; do
    case "$included" in
      attnscope/*) layer=${public[${included#attnscope/}]:-unknown} ;;
      */*) layer=${included%%/*} ;;
      *) layer=$own ;;  # a header beside the file
    esac
    layer_rank=$(rank "$layer")
    if [ "$layer_rank" = unknown ] || [ "$layer_rank" -gt "$own_rank" ]; then
      echo "engine/$relative ($own) includes \"$included\" ($layer): a higher layer"
      status=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find "$engine/src" "$engine/include" -name '*.h' -o -name '*.cpp' | sort)

[ $status -eq 0 ] && echo "engine layers: every include points to its own layer or one below"
exit $status
