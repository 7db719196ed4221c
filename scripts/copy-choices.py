#!/usr/bin/env python3
"""How often a word copied in place of <unk> is right, by kind of word and attention weight.

For every <unk> a model writes on a test set (greedy, `--unk keep`), takes the unknown source
word its attention row weighs most, as the copying rule would, and counts whether that word is
in the reference translation (lowercased): split by whether the word is typed as a name or
number (an upper-case letter or a digit) or in lowercase, and by its weight. The rule of
docs/unknown-words.md ("Why this rule") was chosen on the validation set with it:

  scripts/copy-choices.py [DATA_DIR] [CLI] [--score NAME]   (default: val, additive)
"""
import gzip
import json
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
data = args[0] if args else "../shared/data/multi30k"
cli = args[1] if len(args) > 1 else "build/app/attnscope-cli"
score = sys.argv[sys.argv.index("--score") + 1] if "--score" in sys.argv else "additive"
split = "val"


def lines(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


sources = lines(f"{data}/{split}.en.gz")
references = [set(line.lower().split()) for line in lines(f"{data}/{split}.de.gz")]
out = subprocess.run([cli, "translate", "--score", score, "--unk", "keep", "--json"],
                     input="\n".join(sources) + "\n", capture_output=True, text=True,
                     check=True).stdout.splitlines()
kinds = {}  # (kind, bucket) -> [copies, in reference]
no_unknown = 0
buckets = [(0.0, 0.05), (0.05, 0.1), (0.1, 0.3), (0.3, 1.01)]
for i, line in enumerate(out):
    j = json.loads(line)
    unknown = set(j["unknown_words"])
    tokens = j["source_tokens"]
    typed = {w.lower(): w for w in re.findall(r"\w+|[^\w\s]", sources[i])}
    for t, token in enumerate(j["tokens"]):
        if token != "<unk>":
            continue
        row = j["attention"][t]
        candidates = [(row[s], s) for s in range(len(tokens) - 1) if tokens[s] in unknown]
        if not candidates:
            no_unknown += 1
            continue
        weight, s = max(candidates)
        word = typed.get(tokens[s], tokens[s])
        kind = "name or number" if any(c.isupper() or c.isdigit() for c in word) else "lowercase"
        bucket = next(b for b in buckets if b[0] <= weight < b[1])
        counts = kinds.setdefault((kind, bucket), [0, 0])
        counts[0] += 1
        counts[1] += tokens[s] in references[i]
print(f"{score} on {split}: <unk> with no unknown source word: {no_unknown}")
print("| unknown word weighed most | attention | <unk> | copy in the reference |")
print("| --- | --- | --- | --- |")
for kind in ("name or number", "lowercase"):
    for bucket in buckets:
        n, right = kinds.get((kind, bucket), [0, 0])
        share = f"{100 * right / n:.0f}%" if n else "–"
        print(f"| {kind} | {bucket[0]:g}–{min(bucket[1], 1):g} | {n} | {right} ({share}) |")
