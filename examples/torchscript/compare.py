#!/usr/bin/env python3
"""Compares two files of JSON lines (greedy.py's and attnscope-cli translate --json's):
source and output tokens exactly, attention and probabilities within 1e-4.
python3 compare.py EXPECTED.jsonl ACTUAL.jsonl; exits 1 with one line per difference."""
import json, sys

TOLERANCE = 1e-4


def differences(line, want, got):
    for key in ("source_tokens", "tokens"):
        if want[key] != got.get(key):
            yield f"line {line}: {key} {got.get(key)} != {want[key]}"
    for key in ("probabilities", "attention"):
        a, b = want[key], got.get(key)
        if key == "probabilities":
            a, b = [a], [b]
        if b is None or len(a) != len(b) or any(len(x) != len(y) for x, y in zip(a, b)):
            yield f"line {line}: {key} has another shape than expected"
            continue
        worst = max((abs(x - y) for r, s in zip(a, b) for x, y in zip(r, s)), default=0.0)
        if worst > TOLERANCE:
            yield f"line {line}: {key} differs by up to {worst:.3g} (tolerance {TOLERANCE})"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        expected = [json.loads(line) for line in f if line.strip()]
    with open(sys.argv[2], encoding="utf-8") as f:
        actual = [json.loads(line) for line in f if line.strip()]
    problems = [] if len(expected) == len(actual) else [
        f"{len(actual)} results, expected {len(expected)}"]
    for i, (want, got) in enumerate(zip(expected, actual), 1):
        problems += differences(i, want, got)
    print("\n".join(problems) if problems else f"{len(expected)} results agree")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
