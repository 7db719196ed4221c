#!/usr/bin/env bash
# Speed of attnscope-cli against the Python PyTorch reference, same model, data and options.
#
#   bench/compare.sh [--runs N] [bench options...]
#
# Runs the reference and `attnscope-cli bench` alternately (so a change in machine load hits all
# alike), N times each (default 3, or $RUNS), then prints the median of every figure and the
# speed-ups against the targets. The engine trains with --precision auto; where that is bfloat16
# (a CPU with AVX512-BF16 or AMX), the reference also runs under PyTorch's bf16 autocast and the
# engine also in fp32, and the targets are training >= 5x the fp32 reference and >= 4x the bf16
# one (sentences/s), greedy decoding >= 6.5x and >= 3.5x faster per token. Elsewhere (fp32 on
# both sides) they are >= 3x and >= 5x. Exit code 0 when the targets are met, 1 when not, 2 on
# errors. Bench options default to --emb 256 --hidden 256 --score additive; any other option of
# the reference (--batch, --train-batches, --threads, ...) is passed to both unchanged.
#
# To hold both sides to AVX2 on a newer CPU: ATTNSCOPE_ISA=avx2 ONEDNN_MAX_CPU_ISA=AVX2
# OPENBLAS_CORETYPE=Haswell bench/compare.sh (the environment reaches both).
#
# Environment: REFERENCE (default ../shared/bench/pytorch_reference.py next to this repository),
# PYTHON (default /usr/bin/python3, which has Debian's python3-torch), CLI (default
# build/app/attnscope-cli), RUNS, OUTPUT_WEIGHTS (the engine's decoding output weights: int8,
# the default of one-sentence decoding, or stored; the reference has no such option).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reference="${REFERENCE:-$root/../shared/bench/pytorch_reference.py}"
python="${PYTHON:-/usr/bin/python3}"
cli="${CLI:-$root/build/app/attnscope-cli}"
runs="${RUNS:-3}"
output_weights="${OUTPUT_WEIGHTS:-int8}"

if [[ "${1:-}" == "--runs" ]]; then
  runs="${2:?--runs needs a number}"
  shift 2
fi
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --runs must be a positive number" >&2; exit 2; }
[[ -f "$reference" ]] || { echo "compare.sh: reference '$reference' not found (set REFERENCE)" >&2; exit 2; }
[[ -x "$cli" ]] || { echo "compare.sh: '$cli' not built (ninja -C build attnscope-cli, or set CLI)" >&2; exit 2; }
[[ "$output_weights" == stored || "$output_weights" == int8 ]] ||
  { echo "compare.sh: OUTPUT_WEIGHTS must be stored or int8, not '$output_weights'" >&2; exit 2; }

# Defaults first, so options given on the command line win (argparse and CLI11 keep the last).
options=(--emb 256 --hidden 256 --score additive "$@")
# The reference reads the corpus next to itself; point the engine at the same files.
data="$(dirname "$reference")/../data/multi30k"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "options: ${options[*]}; engine output weights $output_weights; $runs runs each, alternating" >&2
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
  echo "run $i/$runs: attnscope-cli" >&2
  measure attnscope-cli "$cli" bench --data "$data" "${options[@]}" --precision auto \
    --output-weights "$output_weights"
  echo "run $i/$runs: reference" >&2
  measure reference "$python" "$reference" "${options[@]}" --precision fp32
  # The engine's choice (its last line) says whether this CPU multiplies bfloat16 natively.
  if grep '"impl":"attnscope-cpp"' "$log" | tail -n 1 | grep -q '"precision":"bf16"'; then
    echo "run $i/$runs: reference (bf16 autocast)" >&2
    measure reference-bf16 "$python" "$reference" "${options[@]}" --precision bf16
    echo "run $i/$runs: attnscope-cli (fp32)" >&2
    measure attnscope-cli-fp32 "$cli" bench --data "$data" "${options[@]}" --precision fp32 \
      --output-weights "$output_weights"
  fi
done

"$python" - "$log" <<'EOF'
import json, statistics, sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def runs(impl, precision):
    return [r for r in rows if r["impl"] == impl and r.get("precision", "fp32") == precision]
auto = next(r for r in rows if r["impl"] == "attnscope-cpp")
mixed = auto["precision"] == "bf16"
columns = [("reference fp32", runs("pytorch-python", "fp32"))]
if mixed:
    columns += [("reference bf16", runs("pytorch-python", "bf16")),
                ("attnscope fp32", runs("attnscope-cpp", "fp32")),
                ("attnscope bf16", runs("attnscope-cpp", "bf16"))]
else:
    columns += [("attnscope fp32", runs("attnscope-cpp", "fp32"))]
ref, eng = columns[0][1], columns[-1][1]

def median(group, key):
    values = [r[key] for r in group if key in r]
    return statistics.median(values) if values else None

for key in ("src_vocab", "tgt_vocab", "params", "threads"):
    if {r[key] for r in ref} != {r[key] for r in eng}:
        print(f"warning: {key} differs: reference {sorted({r[key] for r in ref})}, "
              f"engine {sorted({r[key] for r in eng})}")

r0, e0 = ref[0], eng[0]
print(f"\nmodel: emb {e0['emb']}, hidden {e0['hidden']}, score {e0['score']}, batch {e0['batch']}, "
      f"vocab {e0['src_vocab']}/{e0['tgt_vocab']}, {e0['params']} parameters, "
      f"{e0['threads']} threads; torch {r0['torch']} (Python) / {e0['torch']} (C++)")
print(f"kernels: {e0.get('kernels', '?')}; output weights: {e0.get('output_weights', '?')}")
print(f"medians of {len(ref)} runs each:\n")
print(f"{'figure':<24}" + "".join(f"{name:>16}" for name, _ in columns))
for key in ("train_sent_per_s", "train_tgt_tok_per_s", "decode_ms_per_token",
            "decode_ms_per_sent", "train_flops_per_sent", "gemm_gflops", "gemm_gflops_bf16", "mfu",
            "decode_bytes_per_token", "copy_gb_per_s", "decode_floor_fraction"):
    values = [median(group, key) for _, group in columns]
    if all(v is None for v in values):
        continue
    fmt = lambda v: "-" if v is None else f"{v:.4g}" if abs(v) < 1e6 else f"{v:.4e}"
    print(f"{key:<24}" + "".join(f"{fmt(v):>16}" for v in values))

def speedups(reference, name, train_target, decode_target):
    train = median(eng, "train_sent_per_s") / median(reference, "train_sent_per_s")
    decode = median(reference, "decode_ms_per_token") / median(eng, "decode_ms_per_token")
    print(f"training vs {name}: {train:6.2f}x  target >= {train_target:g}x  "
          f"{'PASS' if train >= train_target else 'FAIL'}")
    print(f"decoding vs {name}: {decode:6.2f}x  target >= {decode_target:g}x  "
          f"{'PASS' if decode >= decode_target else 'FAIL'}")
    return train >= train_target and decode >= decode_target

print()
if mixed:
    ok = speedups(ref, "reference fp32", 5.0, 6.5)
    ok = speedups(columns[1][1], "reference bf16", 4.0, 3.5) and ok
else:
    ok = speedups(ref, "reference fp32", 3.0, 5.0)
sys.exit(0 if ok else 1)
EOF
