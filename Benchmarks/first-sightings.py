#!/usr/bin/env python3
"""A log of words each searched once: what a fresh process pays for a word it has not seen.

The keystroke logs repeat their words from one keystroke to the next, so most of their
requests find a word already matched (the engine's word cache). This log asks for distinct
whole words of the corpus, each once, whose number of records lies in a band: every request is
a first sighting, and the band picks the size of the match (and of its facet pass).

    Benchmarks/first-sightings.py --corpus /tmp/bench-cache/corpus-1000000.json \
        --records 1000 10000 --count 1200 --out /tmp/first-sightings.jsonl
    offline-search query --data DIR --timing < /tmp/first-sightings.jsonl

The records of a word are estimated from every 10th record (times 10): words of 4 letters or
more in brand, name, categories and description, lowercased ASCII. The first four requests
(two words and two that match nothing) open the index and its caches; leave them out when
reading the times (`query-pairs.sh` leaves out one). Requests are those of the peers' log:
20 hits, facets brand and categories, name highlighted.
"""
import argparse
import collections
import json
import random
import re

FIELDS = ("brand", "name", "categories", "description")
WORD = re.compile(r"[a-z]+")


def text_of(record):
    parts = []
    for field in FIELDS:
        value = record.get(field)
        if isinstance(value, list):
            parts.extend(str(item) for item in value)
        elif value is not None:
            parts.append(str(value))
    return " ".join(parts).lower()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", required=True, help="records (a JSON array), e.g. make_corpus.py's")
    parser.add_argument("--records", nargs=2, type=int, metavar=("LOW", "HIGH"), default=(1000, 10000),
                        help="the band of records a word is in (estimated)")
    parser.add_argument("--count", type=int, default=1200, help="how many words")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--index", default="products")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with open(args.corpus, encoding="utf-8") as file:
        records = json.load(file)
    sampled = collections.Counter()
    for record in records[::10]:
        sampled.update({word for word in WORD.findall(text_of(record)) if len(word) >= 4})
    low, high = args.records
    words = sorted(word for word, count in sampled.items() if low <= 10 * count <= high)
    random.Random(args.seed).shuffle(words)
    if len(words) < args.count:
        raise SystemExit("only %d words have %d to %d records; ask for fewer" % (len(words), low, high))
    with open(args.out, "w", encoding="utf-8") as out:
        for query in ["warmup", "warmup2", "zzqq", "zzqx"] + words[:args.count]:
            request = {"indexName": args.index, "query": query, "hitsPerPage": 20,
                       "facets": ["brand", "categories"], "attributesToHighlight": ["name"]}
            out.write(json.dumps(request) + "\n")
    print("%d words of %d to %d records (of %d in the band) -> %s" % (args.count, low, high, len(words), args.out))


if __name__ == "__main__":
    main()
