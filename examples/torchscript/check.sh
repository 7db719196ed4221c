#!/bin/sh
# Exports both examples into a temporary folder and decodes held-out inputs with greedy.py,
# which also checks the protocol (shapes, sums, step() leaving its state alone); fails on any
# wrong translation. With ATTNSCOPE_CLI=path/to/attnscope-cli it also compares the CLI's
# output with greedy.py's. PYTHON picks the interpreter (default: the first python3 with torch).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PYTHON:-}" ]; then
  for p in python3 /usr/bin/python3; do
    if "$p" -c "import torch" 2>/dev/null; then PYTHON=$p; break; fi
  done
fi
if [ -z "${PYTHON:-}" ]; then
  echo "check.sh: no python3 with torch found (apt install python3-torch, or set PYTHON)" >&2
  exit 77  # ctest counts this as skipped
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$PYTHON" "$here/gru.py" "$tmp/gru.pt" --seed 1
"$PYTHON" "$here/transformer.py" "$tmp/transformer.pt" --seed 1 2>/dev/null  # scripting warnings

# model, then sentence|expected output tokens; the sentences are held out from training
cat > "$tmp/cases" <<'CASES'
gru.pt
One two three four five.|fünf vier drei zwei eins </s>
seven zero zero eight three one|eins drei acht null null sieben </s>
transformer.pt
1 2 3 4 5 6|two three four five six one </s>
9 0 0 7 3|zero zero seven three nine </s>
CASES

status=0
model=
while IFS= read -r line; do
  case $line in
    *.pt) model=$line; continue ;;
  esac
  sentence=${line%%|*}
  printf '%s\n' "$sentence" >> "$tmp/$model.in"
  "$PYTHON" "$here/greedy.py" "$tmp/$model" "$sentence" > "$tmp/out.json"
  got=$("$PYTHON" -c 'import json, sys; print(" ".join(json.load(sys.stdin)["tokens"]))' < "$tmp/out.json")
  if [ "$got" = "${line#*|}" ]; then
    echo "ok   $model: $sentence -> $got"
  else
    echo "FAIL $model: $sentence -> $got (expected ${line#*|})"; status=1
  fi
done < "$tmp/cases"

# ---- attnscope-cli against greedy.py (runs when ATTNSCOPE_CLI is set) ----
if [ -n "${ATTNSCOPE_CLI:-}" ]; then
  for model in gru.pt transformer.pt; do
    "$PYTHON" "$here/greedy.py" "$tmp/$model" < "$tmp/$model.in" > "$tmp/$model.greedy.jsonl"
    : > "$tmp/$model.cli.jsonl"
    while IFS= read -r sentence; do
      "$ATTNSCOPE_CLI" translate --model "$tmp/$model" --json "$sentence" >> "$tmp/$model.cli.jsonl"
    done < "$tmp/$model.in"
    printf '%s: ' "$model"
    "$PYTHON" "$here/compare.py" "$tmp/$model.greedy.jsonl" "$tmp/$model.cli.jsonl" || status=1
  done
else
  echo "(ATTNSCOPE_CLI not set: attnscope-cli not compared)"
fi
exit $status
