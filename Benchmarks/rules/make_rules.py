#!/usr/bin/env python3
"""Writes 50 Algolia Rules for the bench corpus (products from ../shared/bench/make_corpus.py):
patterns on words the keystroke logs type, with every kind of consequence, so a replay measures
what Rules cost a search-as-you-type session. Usage: make_rules.py > rules.json"""
import json

words = ["apple", "amazon", "macbook", "watches", "samsung", "google", "iphone", "ipad", "wearable", "fire",
         "appliances", "tv", "best", "pro", "technology", "cooktops", "electric", "black", "insignia", "dell",
         "protectors", "voice", "laptop", "smart", "home", "air", "chromebook", "instant", "musical", "usb",
         "cases", "stereo", "echo", "xbox", "gas", "white", "red", "intel", "headphones", "camera"]
anchorings = ["contains", "startsWith", "is", "endsWith"]
rules = []
for n, word in enumerate(words):
    condition = {"pattern": word, "anchoring": anchorings[n % 4], "alternatives": n % 3 == 0}
    kind = n % 5
    if kind == 0:
        consequence = {"userData": {"banner": f"{word} week", "link": f"https://example.com/{word}"}}
    elif kind == 1:
        consequence = {"promote": [{"objectID": f"p{n * 997}", "position": n % 3}]}
    elif kind == 2:
        consequence = {"hide": [{"objectID": f"p{n * 991}"}], "userData": {"note": word}}
    elif kind == 3:
        consequence = {"params": {"optionalFilters": [f"brand:{word.capitalize()}"]}}
    else:
        consequence = {"params": {"renderingContent": {"facetOrdering": {"facets": {"order": ["brand", "*"]}}}}}
    rules.append({"objectID": f"bench-{n:02}-{word}", "conditions": [condition], "consequence": consequence})
# Contexts, filters and placeholders, and rules that never match the log.
rules.append({"objectID": "bench-40-context", "conditions": [{"context": "mobile"}],
              "consequence": {"params": {"hitsPerPage": 10}}})
rules.append({"objectID": "bench-41-filter", "conditions": [{"filters": "brand:Samsung"}],
              "consequence": {"userData": {"banner": "Samsung days"}}})
rules.append({"objectID": "bench-42-brand", "conditions": [{"pattern": "{facet:brand} phone", "anchoring": "contains"}],
              "consequence": {"params": {"automaticFacetFilters": [{"facet": "brand"}], "query": {"remove": ["{facet:brand}"]}}}})
for n in range(43, 50):
    rules.append({"objectID": f"bench-{n}-unused", "conditions": [{"pattern": f"zzunused{n} word", "anchoring": "contains"}],
                  "consequence": {"userData": {"n": n}}})
assert len(rules) == 50
print(json.dumps(rules, indent=1))
