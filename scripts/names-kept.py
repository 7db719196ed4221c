#!/usr/bin/env python3
"""How many names and numbers of the source a translation keeps, spelled the same.

    scripts/names-kept.py SOURCE TRANSLATIONS [--show]

SOURCE: English sentences, one a line (plain or .gz); TRANSLATIONS: the model's output, one a
line (attnscope-cli translate --unk keep < SOURCE). A name is a capitalised word that is not
the sentence's first, or a first word that is no common sentence opening (the list below); a
number is a word with a digit. Possessive 's and surrounding punctuation are dropped ("Ahmed's"
-> "Ahmed"). A name or number is kept when the translation has it as a whole word, case and
accents as in the source. Prints the share kept and, with --show, every one that was not.
"""
import gzip
import re
import sys

# Capitalised only because they open a sentence.
COMMON_OPENINGS = {
    "A", "An", "The", "My", "Our", "Your", "His", "Her", "Their", "Its", "This", "That", "These",
    "Those", "I", "We", "You", "He", "She", "It", "They", "There", "Here", "Please", "Can",
    "Could", "Do", "Does", "Did", "Is", "Are", "Was", "Were", "Will", "Would", "What", "Where",
    "When", "Why", "How", "Who", "Which", "Let", "Don't", "I'm", "It's", "Mr.", "Mrs.", "Dr.",
    "Ms.", "Two", "Three", "Some", "Many", "Every", "All", "No", "Yes", "If", "In", "On", "At",
}
TITLES = {"Mr.", "Mrs.", "Dr.", "Ms.", "Mr", "Mrs", "Dr", "Ms"}


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def names_and_numbers(sentence):
    found = []
    for i, raw in enumerate(sentence.split()):
        if raw in TITLES:
            continue
        word = re.sub(r"['’]s$", "", raw.strip(".,;:!?\"()«»“”„"))
        if not word:
            continue
        if any(c.isdigit() for c in word):
            found.append(word)
        elif word[0].isupper() and (i > 0 or word not in COMMON_OPENINGS):
            found.append(word)
    return found


def main():
    args = [a for a in sys.argv[1:] if a != "--show"]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    sources, outputs = read_lines(args[0]), read_lines(args[1])
    if len(sources) != len(outputs):
        sys.exit(f"names-kept: {len(sources)} source lines but {len(outputs)} translations")
    total = kept = 0
    missed = []
    for source, output in zip(sources, outputs):
        for word in names_and_numbers(source):
            total += 1
            if re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", output):
                kept += 1
            else:
                missed.append(f"{word}\t{source}\t{output}")
    share = 100.0 * kept / total if total else 0.0
    print(f"names and numbers kept: {kept} of {total} ({share:.1f}%)")
    if "--show" in sys.argv:
        for line in missed:
            print("  not kept:", line)


if __name__ == "__main__":
    main()
