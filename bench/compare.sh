#!/usr/bin/env bash
# Speed of attnscope-cli against the Python PyTorch reference, same model, data and options.
#
#   bench/compare.sh [--runs N] [bench options...]
#
# Runs the reference and `attnscope-cli bench` alternately (so a change in machine load hits both
# alike), N times each (default 3, or $RUNS), then prints the median of every figure and the
# speed-ups against the targets: training ≥ 3x the reference's sentences/s, greedy decoding
# ≥ 5x faster per token. Exit code 0 when both targets are met, 1 when not, 2 on errors.
# Bench options default to --emb 256 --hidden 256 --score additive; any other option of the
# reference (--batch, --train-batches, --threads, ...) is passed to both unchanged.
#
# Environment: REFERENCE (default ../shared/bench/pytorch_reference.py next to this repository),
# PYTHON (default /usr/bin/python3, which has Debian's python3-torch), CLI (default
# build/app/attnscope-cli), RUNS.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reference="${REFERENCE:-$root/../shared/bench/pytorch_reference.py}"
python="${PYTHON:-/usr/bin/python3}"
cli="${CLI:-$root/build/app/attnscope-cli}"
runs="${RUNS:-3}"

if [[ "${1:-}" == "--runs" ]]; then
  runs="${2:?--runs needs a number}"
  shift 2
fi
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --runs must be a positive number" >&2; exit 2; }
[[ -f "$reference" ]] || { echo "compare.sh: reference '$reference' not found (set REFERENCE)" >&2; exit 2; }
[[ -x "$cli" ]] || { echo "compare.sh: '$cli' not built (ninja -C build attnscope-cli, or set CLI)" >&2; exit 2; }

# Defaults first, so options given on the command line win (argparse and CLI11 keep the last).
options=(--emb 256 --hidden 256 --score additive "$@")
# The reference reads the corpus next to itself; point the engine at the same files.
data="$(dirname "$reference")/../data/multi30k"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "options: ${options[*]}; $runs runs each, alternating" >&2
# One JSON line per run into the log (and to stderr, so a long comparison shows progress).
measure() {
  local name="$1" line
  shift
  if ! line="$("$@" | tail -n 1)" || [[ "$line" != "{"* ]]; then
    echo "compare.sh: $name failed: $*" >&2
    exit 2
  fi
  echo "$line" | tee -a "$log" >&2
}
for ((i = 1; i <= runs; i++)); do
  echo "run $i/$runs: reference" >&2
  measure reference "$python" "$reference" "${options[@]}"
  echo "run $i/$runs: attnscope-cli" >&2
  measure attnscope-cli "$cli" bench --data "$data" "${options[@]}"
done

"$python" - "$log" <<'EOF'
import json, statistics, sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
ref = [r for r in rows if r["impl"] != "attnscope-cpp"]
eng = [r for r in rows if r["impl"] == "attnscope-cpp"]

def median(runs, key):
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else None

for key in ("src_vocab", "tgt_vocab", "params", "threads"):
    if {r[key] for r in ref} != {r[key] for r in eng}:
        print(f"warning: {key} differs: reference {sorted({r[key] for r in ref})}, "
              f"engine {sorted({r[key] for r in eng})}")

r0, e0 = ref[0], eng[0]
print(f"\nmodel: emb {e0['emb']}, hidden {e0['hidden']}, score {e0['score']}, batch {e0['batch']}, "
      f"vocab {e0['src_vocab']}/{e0['tgt_vocab']}, {e0['params']} parameters, "
      f"{e0['threads']} threads; torch {r0['torch']} (Python) / {e0['torch']} (C++)")
print(f"medians of {len(ref)} reference and {len(eng)} engine runs:\n")
print(f"{'figure':<24}{'reference':>14}{'attnscope':>14}")
for key in ("train_sent_per_s", "train_tgt_tok_per_s", "decode_ms_per_token",
            "decode_ms_per_sent", "train_flops_per_sent", "gemm_gflops", "mfu"):
    a, b = median(ref, key), median(eng, key)
    fmt = lambda v: "-" if v is None else f"{v:.4g}" if abs(v) < 1e6 else f"{v:.4e}"
    print(f"{key:<24}{fmt(a):>14}{fmt(b):>14}")

train = median(eng, "train_sent_per_s") / median(ref, "train_sent_per_s")
decode = median(ref, "decode_ms_per_token") / median(eng, "decode_ms_per_token")
ok_train, ok_decode = train >= 3.0, decode >= 5.0
print()
print(f"training speed-up  (engine/reference sent/s):        {train:6.2f}x  target >= 3x  "
      f"{'PASS' if ok_train else 'FAIL'}")
print(f"decoding speed-up  (reference/engine ms per token):  {decode:6.2f}x  target >= 5x  "
      f"{'PASS' if ok_decode else 'FAIL'}")
sys.exit(0 if ok_train and ok_decode else 1)
EOF
