#!/usr/bin/env python3
"""Writes a corpus of records in one language, made of real prose: the paragraphs of the
Debian manual pages translated into that language (packages manpages-de, manpages-fr,
manpages-ja; manpages for English, the baseline). Used to report the index size and import
time of 100k-record corpora in German, French and Japanese (issue #32).

    mkdir -p /tmp/manp && cd /tmp/manp && apt-get download manpages manpages-de manpages-fr manpages-ja
    for f in /tmp/manp/*.deb; do dpkg -x "$f" /tmp/manp/x; done
    python3 Benchmarks/languages/make_corpus.py --lang de --count 100000 > /tmp/corpus-de.json

A record is {"objectID", "title", "body"}: the page and section as the title, a paragraph as the
body. Record i takes paragraph i (cycling through the pages' paragraphs) and, from the second
pass on, appends the first sentence of another paragraph, so texts stay distinct while the
vocabulary stays the language's own. Roff markup is stripped roughly (macros, fonts, escapes).
"""
import argparse
import gzip
import json
import os
import re
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--lang", required=True, choices=["en", "de", "fr", "ja"])
parser.add_argument("--count", type=int, default=100_000)
parser.add_argument("--manpages", default="/tmp/manp/x/usr/share/man")
arguments = parser.parse_args()

root = arguments.manpages if arguments.lang == "en" else os.path.join(arguments.manpages, arguments.lang)
pages = []
for folder, _, files in os.walk(root):
    if arguments.lang == "en" and os.path.relpath(folder, root).split(os.sep)[0] in ("de", "fr", "ja"):
        continue
    for name in files:
        if name.endswith(".gz"):
            pages.append(os.path.join(folder, name))
pages.sort()
if not pages:
    sys.exit(f"no manual pages under {root}: see this script's docstring")

ESCAPES = re.compile(r"\\f[BIRPC]|\\f\(..|\\f\[[^]]*\]|\\\(..|\\\[[^]]*\]|\\[&|^%:~0 ]|\\\*\(..|\\\*.|\\s[-+]?\d|\\[-e.'`]|\\")


def clean(text):
    text = ESCAPES.sub(lambda m: "-" if m.group(0) == "\\-" else " ", text)
    return re.sub(r"\s+", " ", text).strip()


paragraphs = []
for path in pages:
    try:
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        continue
    if any(line.startswith(".so ") for line in lines[:3]):
        continue  # a link to another page
    title = os.path.basename(path)[:-3]
    section = ""
    current = []

    def flush():
        text = clean(" ".join(current))
        if len(text) >= 40:
            paragraphs.append((f"{title} {section}".strip(), text[:600]))
        current.clear()

    for line in lines:
        if line.startswith(".\\\"") or line.startswith("'\\\""):
            continue
        if line.startswith("."):
            macro, _, rest = line[1:].partition(" ")
            if macro in ("SH", "SS"):
                flush()
                section = clean(rest.strip('"'))
            elif macro in ("PP", "P", "LP", "TP", "IP", "sp", "br", "RS", "RE", "nf", "fi", "EX", "EE"):
                flush()
            elif macro in ("B", "I", "BR", "RB", "IR", "RI", "BI", "IB", "SM", "SB", "UR", "MT"):
                current.append(rest.replace('"', ""))
            continue
        current.append(line)
    flush()

if not paragraphs:
    sys.exit("no paragraphs found")


def first_sentence(text):
    match = re.match(r"(.+?[.。!?！？])(\s|$)", text)
    return (match.group(1) if match else text)[:200]


count = len(paragraphs)
sys.stdout.write("[")
for index in range(arguments.count):
    title, body = paragraphs[index % count]
    if index >= count:
        body += " " + first_sentence(paragraphs[(index * 7919 + index // count) % count][1])
    record = {"objectID": f"{arguments.lang}-{index}", "title": title, "body": body}
    sys.stdout.write(("," if index else "") + "\n" + json.dumps(record, ensure_ascii=False))
sys.stdout.write("\n]\n")
print(f"{arguments.count} records from {count} paragraphs of {len(pages)} pages", file=sys.stderr)
