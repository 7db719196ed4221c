#!/usr/bin/env bash
# Checks that the code's layers depend one way only: a file may include headers of its own layer
# and of the layers below it, never of a layer above.
#   engine/src: base io ops model decode explain eval train bench. Public headers (attnscope/*.h)
#     count as the layer that implements them.
#   ui: core plots render workers widgets tabs window. core/ includes no widget (QWidget and its
#     kin), no file of ui/ includes a Torch header, and app/cli reaches only the layers below
#     widgets (it renders exports, it shows no window).
# Exit 1 with one line per offending include.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
engine="$root/engine"

# Lowest first. "base" is plain declarations every layer may use.
layers=(base io ops model decode explain eval train bench)
declare -A public=(
  [errors.h]=base [model_config.h]=base [model_info.h]=base
  [text.h]=io [vocabulary.h]=io [corpus.h]=io [model_folders.h]=io [attention_file.h]=io
  [training_snapshots.h]=io [model_averaging.h]=io [output_file.h]=io
  [cpu_dispatch.h]=ops
  [score_functions.h]=model [model_catalog.h]=model
  [translation.h]=decode [translator.h]=decode [thread_settings.h]=decode [word_view.h]=decode
  [beam_tree_json.h]=decode
  [explanation.h]=explain
  [bleu.h]=eval [attention_metrics.h]=eval [word_alignment.h]=eval
  [corpus_evaluation.h]=eval [sentence_alignment.h]=eval [faithfulness.h]=eval [source_leak.h]=eval
  [trainer.h]=train [training_tasks.h]=train
  [benchmark.h]=bench [explanation_benchmark.h]=bench
)

# The position of layer $1 among the layers given after it (lowest first), or "unknown".
rank_among() {
  local wanted=$1 position=0 layer
  shift
  for layer in "$@"; do
    [ "$layer" = "$wanted" ] && { echo "$position"; return; }
    position=$((position + 1))
  done
  echo "unknown"
}
rank() { rank_among "$1" "${layers[@]}"; }

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

# ui/: lowest first.
ui_layers=(core plots render workers widgets tabs window)
ui_rank() { rank_among "$1" "${ui_layers[@]}"; }
# The ui layer of an include written "layer/file.h", or nothing for any other include.
ui_layer_of() {
  case "$1" in
    */*) local layer=${1%%/*}; [ "$(ui_rank "$layer")" != unknown ] && echo "$layer" ;;
  esac
  return 0
}

ui_status=0
while IFS= read -r file; do
  relative=${file#"$root"/}
  case "$relative" in
    ui/*/*) own=$(echo "$relative" | cut -d/ -f2) ;;
    *) echo "$relative: outside every ui layer folder"; ui_status=1; continue ;;
  esac
  own_rank=$(ui_rank "$own")
  if [ "$own_rank" = unknown ]; then
    echo "$relative: folder '$own' is not a ui layer"
    ui_status=1
    continue
  fi
  while IFS= read -r included; do
    layer=$(ui_layer_of "$included")
    if [ -z "$layer" ]; then
      echo "$relative ($own) includes \"$included\": not in a ui layer folder (write \"layer/file.h\")"
      ui_status=1
    elif [ "$(ui_rank "$layer")" -gt "$own_rank" ]; then
      echo "$relative ($own) includes \"$included\" ($layer): a higher layer"
      ui_status=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
  while IFS= read -r included; do
    case "$included" in
      torch/* | ATen/* | c10/*)
        echo "$relative includes <$included>: ui/ reaches the engine through attnscope/*.h only"
        ui_status=1 ;;
      QWidget | QtWidgets* | QAbstractButton | QDialog | QMainWindow | QLabel | QLayout | \
        QBoxLayout | QHBoxLayout | QVBoxLayout | QComboBox | QLineEdit | QPushButton | qcustomplot.h)
        if [ "$own" = core ]; then
          echo "$relative (core) includes <$included>: core holds data, no widgets"
          ui_status=1
        fi ;;
    esac
  done < <(sed -n 's/^#include <\([^>]*\)>.*/\1/p' "$file")
done < <(find "$root/ui" -name '*.h' -o -name '*.cpp' | sort)

# app/cli: the command line renders exports but shows no window, so only the layers below widgets.
cli_limit=$(ui_rank workers)
while IFS= read -r file; do
  relative=${file#"$root"/}
  while IFS= read -r included; do
    layer=$(ui_layer_of "$included")
    if [ -n "$layer" ] && [ "$(ui_rank "$layer")" -gt "$cli_limit" ]; then
      echo "$relative includes \"$included\" ($layer): app/cli uses only core, plots, render, workers"
      ui_status=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find "$root/app/cli" -name '*.h' -o -name '*.cpp' | sort)

[ $ui_status -eq 0 ] && echo "ui layers: every include points to its own layer or one below"
[ $ui_status -eq 0 ] || status=1
exit $status
