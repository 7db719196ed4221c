#!/usr/bin/env python3
"""How far two runs' probabilities of the same tokens lie apart.

    scripts/compare-probabilities.py A.jsonl B.jsonl

Each file holds one JSON object per sentence, as `attnscope-cli translate --json` writes them
(token probabilities in "probabilities") or `attnscope-cli explain --json` (log-probabilities in
"logp"). Sentences are paired line by line; the figures cover the sentences whose tokens are the
same in both. Used for docs/app.md's bound on what int8 output weights change in the step panel,
and between the step panel and the attributions' log p.
"""
import json
import math
import sys


def probabilities(record):
    if "probabilities" in record:
        return [float(p) for p in record["probabilities"]]
    return [math.exp(float(lp)) for lp in record["logp"]]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare-probabilities.py A.jsonl B.jsonl")
    with open(sys.argv[1], encoding="utf-8") as a, open(sys.argv[2], encoding="utf-8") as b:
        pairs = list(zip(a, b))
    same = 0
    differences = []
    relative = []
    for line_a, line_b in pairs:
        first, second = json.loads(line_a), json.loads(line_b)
        if first["tokens"] != second["tokens"]:
            continue
        same += 1
        for p, q in zip(probabilities(first), probabilities(second)):
            differences.append(abs(p - q))
            relative.append(abs(math.log(max(p, 1e-30)) - math.log(max(q, 1e-30))))
    print(f"sentences: {len(pairs)}, with the same tokens: {same}")
    if differences:
        differences.sort()
        print(f"tokens: {len(differences)}")
        print(f"largest |p difference|: {differences[-1]:.6f}")
        print(f"99th percentile: {differences[int(0.99 * (len(differences) - 1))]:.6f}")
        print(f"mean: {sum(differences) / len(differences):.6f}")
        print(f"largest |log p difference|: {max(relative):.6f}")


if __name__ == "__main__":
    main()
