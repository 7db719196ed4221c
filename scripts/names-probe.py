#!/usr/bin/env python3
"""A validation probe for names: Tatoeba's validation sentences that name the people and places
Tatoeba repeats, those names replaced by others that neither scripts/augment-names.py's lists
nor bench/text/names-and-numbers.en hold.

    scripts/names-probe.py VAL_SOURCE > probe.en
    attnscope-cli translate --model MODEL < probe.en > probe.out
    scripts/names-kept.py probe.en probe.out

VAL_SOURCE: the English side of a validation set (../shared/data/tatoeba/en-de/val.en.gz).
Each English sentence once, in the order of the file; deterministic (seed 7). Names kept on it
choose between models and epochs without looking at a test set (docs/models.md, Everyday models).
"""
import gzip
import random
import re
import sys

PEOPLE = """Wojciech Ngozi Bartholomew Xochitl Kjartan Dagmar Ifeoma Jyoti Raffaele Tereza Lwazi
Eamon Sakura Ólafur Vytautas Branislav Seun Amaia Kalinda Phuong Radhika Tadeusz Ekaterina
Oluwaseun Maëlle Søren Bożena Hyun-woo Nadira Thiago""".split()
PLACES = """Trieste Szeged Kanazawa Iquitos Maribor Tromsø Nakuru Aalborg Bratislava Cartagena
Dunedin Esfahan Ferrara Gothenburg Hualien Innsbruck""".split()
NAMED_PEOPLE = re.compile(r"(?<!\w)(Tom|Mary|John)(?!\w)")
NAMED_PLACES = re.compile(r"(?<!\w)(Boston|London|Paris)(?!\w)")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().split("\n\n")[1])
    path = sys.argv[1]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        sentences = [line.rstrip("\n") for line in f]
    rng = random.Random(7)
    seen = set()
    for sentence in sentences:
        if sentence in seen or not (NAMED_PEOPLE.search(sentence) or NAMED_PLACES.search(sentence)):
            continue
        seen.add(sentence)
        sentence = NAMED_PEOPLE.sub(lambda m: rng.choice(PEOPLE), sentence)
        sentence = NAMED_PLACES.sub(lambda m: rng.choice(PLACES), sentence)
        print(sentence)


if __name__ == "__main__":
    main()
