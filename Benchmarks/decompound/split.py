#!/usr/bin/env python3
"""Reference splitter for `decompoundedAttributes`: what the Swift version must do, step by step.

    split(word, parts, links)  ->  the parts of word (folded), or [word folded] when it does not split

1. Fold the word: lowercase, then ä→a, ö→o, ü→u, ß→ss, å→a, ø→o, æ→ae, ĳ→ij, any other letter
   without its diacritics (é→e). The dictionary (CompoundParts.lists[language]) is folded the same
   way when it is first read.
2. Only words of at least MIN_WORD (6) letters are split; a word with anything but letters is not.
3. A split is w = p1 l1 p2 l2 ... pk, where every part pi is a dictionary word of at least
   MIN_PART (3) letters, 2 <= k <= MAX_PARTS (4), and every li is empty or one of the language's
   linking elements (LINKS: de s es n en e er; nl s e en; sv s a e u o; da s e; no s e; fi none).
   No linking element before the first part or after the last.
4. Of all splits, the one chosen is the first by: fewest parts; then longest last part; then
   fewest letters in linking elements; then the longest first part, second part, ... (so the
   choice never depends on the order of the dictionary).
5. The result is the parts without their linking elements: "arbeitszimmer" → arbeit, zimmer.
6. SPLIT_KNOWN_WORDS (the decision, from Benchmarks/decompound/check.py and RESULTS.md): a word
   that is itself in the dictionary is split like any other. Pass split_known=False to compare.

The search below is a plain depth-first enumeration (the words are short and the depth is at most
4); any search that returns the same first split under the order of step 4 is equivalent.
"""
import re
import unicodedata

MIN_WORD = 6
MIN_PART = 3
MAX_PARTS = 4
SPLIT_KNOWN_WORDS = True
LINKS = {"da": ("s", "e"), "de": ("s", "es", "n", "en", "e", "er"), "fi": (),
         "nl": ("s", "e", "en"), "no": ("s", "e"), "sv": ("s", "a", "e", "u", "o")}
FOLDING = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss", "å": "a", "ø": "o", "æ": "ae", "ĳ": "ij"})


def fold(word):
    word = word.lower().translate(FOLDING)
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def load_lists(swift_path):
    """language -> set of folded words, read from CompoundParts+Words.swift."""
    with open(swift_path, encoding="utf-8") as handle:
        source = handle.read()
    return {code: {fold(w) for w in text.split()} for code, text in re.findall(r'"(\w\w)": "([^"]*)"', source)}


def order(word, parts):
    """The sort key of step 4 for a split given as [(start, end)] of its parts in word."""
    link_letters = len(word) - sum(end - start for start, end in parts)
    return (len(parts), -(parts[-1][1] - parts[-1][0]), link_letters, [-(end - start) for start, end in parts])


def split(word, parts, links, split_known=SPLIT_KNOWN_WORDS):
    w = fold(word)
    if len(w) < MIN_WORD or not w.isalpha() or (not split_known and w in parts):
        return [w]
    n, best = len(w), None

    def search(position, found):
        nonlocal best
        starts = {position} if not found else {position + len(link) for link in ("",) + links if w.startswith(link, position)}
        for start in starts:
            for end in range(start + MIN_PART, n + 1):
                if w[start:end] not in parts:
                    continue
                candidate = found + [(start, end)]
                if end == n:
                    if len(candidate) >= 2 and (best is None or order(w, candidate) < order(w, best)):
                        best = candidate
                elif len(candidate) < MAX_PARTS:
                    search(end, candidate)

    search(0, [])
    return [w[start:end] for start, end in best] if best else [w]
