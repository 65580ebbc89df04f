#!/usr/bin/env python3
"""Writes CJKDictionary+Words.swift: the Chinese and Japanese word lists that the CJK segmenter
splits runs of Han, Hiragana and Katakana with (Algolia segments Chinese and Japanese with
dictionaries; without one a whole run of CJK characters is one word, and a word inside a Japanese
sentence is not found).

Usage (rerunnable; the output depends only on the two archives and the options):

    python3 Sources/OfflineSearch/Text/Languages/make_cjk_dictionaries.py \
        [--jieba jieba-0.42.1.tar.gz] [--janome janome-0.5.1-py3-none-any.whl] \
        [--chinese-count 60000] [--japanese-count 80000] [--japanese-rank cost|context]

Without --jieba/--janome the archives are looked for in /tmp/langpkgs, and downloaded into a
temporary folder with `python3 -m pip download --no-deps jieba==0.42.1 janome==0.5.1` if missing. Nothing is
installed: the data are read straight from the archives.

Sources and licences
--------------------
* Chinese: jieba 0.42.1 (PyPI sdist), file jieba/dict.txt, lines "word frequency tag".
  Licence MIT, "Copyright (c) 2013 Sun Junyi" (the sdist declares MIT in PKG-INFO/setup.py but
  ships no licence text; the text below is the LICENSE file of the jieba repository).
* Japanese: janome 0.5.1 (PyPI wheel), whose system dictionary is mecab-ipadic-2.7.0-20070801
  (IPADIC) compiled into Python modules. Janome's code is Apache-2.0; the wheel ships only the
  Apache licence (its METADATA points to a NOTICE.txt that neither the wheel nor the sdist
  contains; the janome repository's NOTICE.txt names mecab-ipadic-2.7.0-20070801 and repeats
  the NAIST/ICOT terms). IPADIC's own terms (Debian package mecab-ipadic,
  /usr/share/doc/mecab-ipadic/copyright, "BSD-3-Clause-with-ICOT-term") permit use, reproduction
  and distribution, modified or not, provided every copy includes the NAIST copyright notice
  and the paragraphs that follow it, including ICOT's "NO WARRANTY" section. The generated file
  therefore carries both notices in full (IPADIC_NOTICE and JIEBA_NOTICE below), and so must
  the README's list of sources (a short pointer to the generated file's header will do for the
  full text).
No code of either package is copied: only the word lists, re-ranked and cut.

What is kept
------------
* Chinese: the words of 2–6 characters, all Han, from dict.txt, ranked by frequency (highest
  first; equal frequencies by code points), deduplicated (a word listed twice keeps its highest
  frequency), the first --chinese-count.
* Japanese: the surface forms of IPADIC's entries (janome's sysdic/entries_compact*.py modules
  hold dicts {id: (surface, left_id, right_id, word_cost)}; connections*.py the connection-cost
  matrix) of 2–8 characters, each Han or Hiragana, ranked by IPADIC word cost (lowest first: a
  surface with several entries keeps its lowest; equal costs shorter first, then by code
  points), the first --japanese-count. IPADIC has no frequencies; the word cost is MeCab's
  cost of the word within its part of speech, a fair proxy within a class and a coarse one
  across classes: whole classes share one cost (4467 for thousands of サ変 nouns), and verbs
  such as する or auxiliaries such as れる get high word costs (9129, 8511) that their
  connection costs make up for, so they fall outside the list.
  --japanese-rank context ranks by the cost of the word in a typical position instead: word
  cost + the median connection cost into its left context id (over all previous right ids) +
  the median out of its right context id. Measured with queries from both lists
  (Benchmarks/cjk/RESULTS.md), neither wins on both halves of the man pages: the context rank
  finds fewer documents where the query is only part of another word (908 against 1297, 952
  against 1178) but its recall of janome's word matches is 0.6 points better on one half and
  2.3 points worse on the other (98.1 % against 98.8 % over both). The default stays the
  plain word cost: the simpler rule, the better recall over both halves.
* Words containing Katakana are left out of both lists: a Katakana run is always one word (see
  the algorithm), so the segmenter never looks such a word up. Single characters are left out:
  the segmenter handles them itself. No word holds a space, a quote or a backslash.

Segmentation algorithm (Benchmarks/cjk/segment.py is the reference implementation; the Swift
CJK segmenter must mirror it exactly)
--------------------------------------------------------------------------------------------
Characters are Unicode scalars (not grapheme clusters). Classes:
    Han:      U+3400–4DBF, U+4E00–9FFF, U+F900–FAFF, U+20000–2FFFF, and the Han-script
              letters of the CJK Symbols block: U+3005 々, U+3007 〇, U+3021–3029, U+3038–303B
    Hiragana: U+3040–309F
    Katakana: U+30A0–30FF (ー U+30FC included), U+31F0–31FF
    Hangul is not CJK here (Korean separates words with spaces).
The tokenizer already cuts text at separators (・ U+30FB and ゠ U+30A0 are punctuation, so they
never reach the segmenter). A CJK run is a maximal run of letters (and combining marks) of
these classes inside one token (the rest of the token, e.g. "debian" in "Debian软件", stays
a word of its own); the segmenter turns each run into words:
 1. Split the run into maximal pieces that are all Katakana or all non-Katakana. A Katakana
    piece is one word, never split, never merged with its neighbours (loanwords).
 2. A non-Katakana piece s[0..<n] is split by dynamic programming over a dictionary D of
    words (2–8 scalars) with ranks r (0 = most frequent). In integer costs (thousandths):
        wordCost(r) = round(1000 · ln(r + 10))
        charCost    = round(1000 · (ln(N + 10) + 3)),   N = number of words in D
    (rounded half away from zero; this script checks that no value lies within 1e-6 of a
    rounding boundary for any r ≤ 200000, so a libm that differs in the last bit gives the
    same integers.)
        best[n] = 0
        for i from n-1 down to 0:
            best[i] = charCost + best[i+1]; length[i] = 1        (any single character)
            for L in 2 ... min(8, n-i):
                if s[i..<i+L] is in D with rank r and wordCost(r) + best[i+L] <= best[i]:
                    best[i] = wordCost(r) + best[i+L]; length[i] = L
        then from i = 0: emit s[i..<i+length[i]], i += length[i]
    The least total cost wins; among equal costs the longer first word wins (the <= with L
    increasing), at every position.
 3. One dictionary for all text: the two lists combined, a word's rank the lower of its
    Chinese and Japanese ranks (0-based positions in chineseWords / japaneseWords), N the number
    of distinct words (133,517 with the default counts: 60,000 + 80,000 - 6,483 in both lists;
    charCost 14802, wordCost from 2303 for rank 0 to 11290 for rank 79,999). Measured in
    Benchmarks/cjk/RESULTS.md against two lists chosen per run (any Hiragana in the run:
    Japanese, else Chinese): a Kanji-only query is cut with the Chinese list and the same word
    inside a Japanese sentence with the Japanese list, and the two disagree (janome-word recall
    on Japanese 64.3 % against 97.9 % combined). The combined list is within 0.4 points of
    knowing each text's language on both corpora, and needs no language setting. (Algolia
    without queryLanguages likewise uses the dictionaries of all its languages.)
The query is segmented the same way as the records, and its words must follow one another.
"""
import argparse
import ast
import glob
import math
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import zipfile

JIEBA_VERSION = "0.42.1"
JANOME_VERSION = "0.5.1"

JIEBA_NOTICE = """\
jieba (https://github.com/fxsjy/jieba), dict.txt — The MIT License (MIT)

Copyright (c) 2013 Sun Junyi

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of
the Software, and to permit persons to whom the Software is furnished to do so,
subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS
FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE."""

IPADIC_NOTICE = """\
mecab-ipadic-2.7.0-20070801 (IPADIC), as compiled into janome 0.5.1's system dictionary

Copyright 2000, 2001, 2002, 2003 Nara Institute of Science
and Technology.  All Rights Reserved.

Use, reproduction, and distribution of this software is permitted.
Any copy of this software, whether in its original form or modified,
must include both the above copyright notice and the following
paragraphs.

Nara Institute of Science and Technology (NAIST),
the copyright holders, disclaims all warranties with regard to this
software, including all implied warranties of merchantability and
fitness, in no event shall NAIST be liable for
any special, indirect or consequential damages or any damages
whatsoever resulting from loss of use, data or profits, whether in an
action of contract, negligence or other tortuous action, arising out
of or in connection with the use or performance of this software.

A large portion of the dictionary entries
originate from ICOT Free Software.  The following conditions for ICOT
Free Software applies to the current dictionary as well.

Each User may also freely distribute the Program, whether in its
original form or modified, to any third party or parties, PROVIDED
that the provisions of Section 3 ("NO WARRANTY") will ALWAYS appear
on, or be attached to, the Program, which is distributed substantially
in the same form as set out herein and that such intended
distribution, if actually made, will neither violate or otherwise
contravene any of the laws and regulations of the countries having
jurisdiction over the User or the intended distribution itself.

NO WARRANTY

The program was produced on an experimental basis in the course of the
research and development conducted during the project and is provided
to users as so produced on an experimental basis.  Accordingly, the
program is provided without any warranty whatsoever, whether express,
implied, statutory or otherwise.  The term "warranty" used herein
includes, but is not limited to, any warranty of the quality,
performance, merchantability and fitness for a particular purpose of
the program and the nonexistence of any infringement or violation of
any right of any third party.

Each user of the program will agree and understand, and be deemed to
have agreed and understood, that there is no warranty whatsoever for
the program and, accordingly, the entire risk arising from or
otherwise connected with the program is assumed by the user.

Therefore, neither ICOT, the copyright holder, or any other
organization that participated in or was otherwise related to the
development of the program and their respective officials, directors,
officers and other employees shall be held liable for any and all
damages, including, without limitation, general, special, incidental
and consequential damages, arising out of or otherwise in connection
with the use or inability to use the program or any product, material
or result produced or otherwise obtained by using the program,
regardless of whether they have been advised of, or otherwise had
knowledge of, the possibility of such damages at any time during the
project or thereafter.  Each user will be deemed to have agreed to the
foregoing by his or her commencement of use of the program.  The term
"use" as used herein includes, but is not limited to, the use,
modification, copying and distribution of the program and the
production of secondary products from the program.

In the case where the program, whether in its original form or
modified, was distributed or delivered to or received by a user from
any person, organization or entity other than ICOT, unless it makes or
grants independently of ICOT any specific warranty to the user in
writing, such person, organization or entity, will also be exempted
from and not be held liable to the user for any such damages as noted
above as far as the program is concerned."""


def is_han(c):
    v = ord(c)
    return (0x3400 <= v <= 0x4DBF or 0x4E00 <= v <= 0x9FFF or 0xF900 <= v <= 0xFAFF or 0x20000 <= v <= 0x2FFFF
            or v in (0x3005, 0x3007) or 0x3021 <= v <= 0x3029 or 0x3038 <= v <= 0x303B)


def is_hiragana(c):
    return 0x3040 <= ord(c) <= 0x309F


def is_katakana(c):
    v = ord(c)
    return 0x30A0 <= v <= 0x30FF or 0x31F0 <= v <= 0x31FF


def clean(word):
    return word and not any(c in ' "\\\'' or c.isspace() for c in word)


def chinese_words(jieba_path, count):
    """jieba's dict.txt: 2–6 Han characters, by frequency."""
    with tarfile.open(jieba_path) as archive:
        members = [m for m in archive.getmembers() if m.name.endswith("/jieba/dict.txt")]
        if len(members) != 1:
            sys.exit(f"{jieba_path}: expected one jieba/dict.txt, found {[m.name for m in members]}")
        text = archive.extractfile(members[0]).read().decode("utf-8")
    frequency = {}
    lines = 0
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        lines += 1
        if len(parts) < 2 or not parts[1].isdigit():
            sys.exit(f"{jieba_path}: unexpected dict.txt line {line!r}")
        word, freq = parts[0], int(parts[1])
        if 2 <= len(word) <= 6 and all(is_han(c) for c in word) and clean(word):
            frequency[word] = max(freq, frequency.get(word, 0))
    ranked = sorted(frequency, key=lambda w: (-frequency[w], w))
    print(f"jieba dict.txt: {lines} lines, {len(ranked)} words of 2–6 Han characters, keeping {min(count, len(ranked))}"
          f" (frequency ≥ {frequency[ranked[min(count, len(ranked)) - 1]]})")
    return ranked[:count]


def ipadic_entries(janome_path):
    """All entries of janome's IPADIC sysdic: (surface, left_id, right_id, word_cost) tuples, and
    the connection-cost matrix (connections[right_id of the previous word][left_id of the next])."""
    with zipfile.ZipFile(janome_path) as archive:
        names = sorted(n for n in archive.namelist() if re.fullmatch(r"janome/sysdic/entries_compact\d+\.py", n))
        if not names:
            sys.exit(f"{janome_path}: no janome/sysdic/entries_compact*.py (has janome changed how it stores IPADIC?)")
        buckets = ast.literal_eval(archive.read("janome/sysdic/entries_buckets.py").decode("utf-8").split("=", 1)[1])
        expected = max(end for _, end in buckets.values())
        entries = []
        for name in names:
            source = archive.read(name).decode("utf-8")
            if not source.startswith("DATA="):
                sys.exit(f"{name}: expected 'DATA={{...}}'")
            data = ast.literal_eval(source[len("DATA="):])  # a literal: nothing of the package runs
            for entry in data.values():
                surface, left_id, right_id, word_cost = entry[:4]
                if not (isinstance(surface, str) and all(isinstance(x, int) for x in (left_id, right_id, word_cost))):
                    sys.exit(f"{name}: unexpected entry {entry!r}")
                entries.append((surface, left_id, right_id, word_cost))
        if len(entries) != expected:
            sys.exit(f"{janome_path}: read {len(entries)} entries, entries_buckets.py says {expected}")
        connections = []
        for name in sorted(n for n in archive.namelist() if re.fullmatch(r"janome/sysdic/connections\d+\.py", n)):
            connections.extend(ast.literal_eval(archive.read(name).decode("utf-8")[len("DATA="):]))
        if not connections or any(len(row) != len(connections) for row in connections):
            sys.exit(f"{janome_path}: the connection matrix is not square")
    return entries, connections


def japanese_words(janome_path, count, rank_by):
    """IPADIC surface forms from janome's sysdic: 2–8 Han/Hiragana characters, by cost."""
    entries, connections = ipadic_entries(janome_path)
    if rank_by == "context":
        size = len(connections)
        into = [statistics.median(connections[j][i] for j in range(size)) for i in range(size)]
        out_of = [statistics.median(row) for row in connections]
    cost = {}
    for surface, left_id, right_id, word_cost in entries:
        if 2 <= len(surface) <= 8 and all(is_han(c) or is_hiragana(c) for c in surface) and clean(surface):
            if rank_by == "context":
                word_cost = word_cost + into[left_id] + out_of[right_id]
            if surface not in cost or word_cost < cost[surface]:
                cost[surface] = word_cost
    ranked = sorted(cost, key=lambda w: (cost[w], len(w), w))
    print(f"janome sysdic (IPADIC): {len(entries)} entries, {len(ranked)} surfaces of 2–8 Han/Hiragana characters,"
          f" keeping {min(count, len(ranked))} by {'word' if rank_by == 'cost' else 'context'} cost (≤ {cost[ranked[min(count, len(ranked)) - 1]]})")
    return ranked[:count]


def check_cost_rounding(limit=200_000):
    """The integer costs must not depend on the last bit of ln: no value near a rounding boundary."""
    for r in range(limit + 1):
        for value in (1000 * math.log(r + 10), 1000 * (math.log(r + 10) + 3)):
            if abs(value - math.floor(value) - 0.5) < 1e-6:
                sys.exit(f"cost for {r} lies within 1e-6 of a rounding boundary: {value!r}")


def find_archives(args):
    folder = "/tmp/langpkgs"
    jieba = args.jieba or next(iter(sorted(glob.glob(os.path.join(folder, f"jieba-{JIEBA_VERSION}.tar.gz")))), None)
    janome = args.janome or next(iter(sorted(glob.glob(os.path.join(folder, f"janome-{JANOME_VERSION}-*.whl")))), None)
    if jieba and janome:
        return jieba, janome
    target = tempfile.mkdtemp(prefix="cjk-dictionaries-")
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", "jieba", "-d", target,
                    f"jieba=={JIEBA_VERSION}", f"janome=={JANOME_VERSION}"], check=True)
    jieba = jieba or glob.glob(os.path.join(target, "jieba-*.tar.gz"))[0]
    janome = janome or glob.glob(os.path.join(target, "janome-*.whl"))[0]
    return jieba, janome


def swift_comment(text):
    return ["// " + line if line else "//" for line in text.splitlines()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jieba", help=f"jieba-{JIEBA_VERSION}.tar.gz (PyPI sdist)")
    parser.add_argument("--janome", help=f"janome-{JANOME_VERSION}-py3-none-any.whl (PyPI wheel)")
    parser.add_argument("--chinese-count", type=int, default=60_000)
    parser.add_argument("--japanese-count", type=int, default=80_000)
    parser.add_argument("--japanese-rank", choices=("cost", "context"), default="cost",
                        help="cost: IPADIC word cost; context: word cost + median connection cost into and out of it")
    parser.add_argument("--output", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "CJKDictionary+Words.swift"))
    args = parser.parse_args()
    jieba, janome = find_archives(args)
    check_cost_rounding()
    chinese = chinese_words(jieba, args.chinese_count)
    japanese = japanese_words(janome, args.japanese_count, args.japanese_rank)
    for words in (chinese, japanese):
        assert len(set(words)) == len(words) and all(clean(w) and not any(is_katakana(c) for c in w) for w in words)
    lines = [f"// Generated by make_cjk_dictionaries.py from jieba {JIEBA_VERSION}'s dict.txt (MIT) and the IPADIC",
             f"// system dictionary of janome {JANOME_VERSION} (mecab-ipadic-2.7.0-20070801, NAIST/ICOT terms below).",
             "// Do not edit: run the script again.",
             "//"]
    lines += swift_comment(JIEBA_NOTICE) + ["//"] + swift_comment(IPADIC_NOTICE)
    lines += ["",
              "extension CJKDictionary {",
              f"    /// Chinese words, most frequent first, separated by spaces ({len(chinese)} words of 2–6 Han characters,",
              "    /// from jieba's dict.txt by frequency).",
              f'    static let chineseWords = "{" ".join(chinese)}"',
              f"    /// Japanese words, most frequent first, separated by spaces ({len(japanese)} IPADIC surface forms of",
              f"    /// 2–8 Han/Hiragana characters, by {'word cost' if args.japanese_rank == 'cost' else 'cost in context'}).",
              f'    static let japaneseWords = "{" ".join(japanese)}"',
              "}",
              ""]
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    size = os.path.getsize(args.output)
    zh = len(" ".join(chinese).encode("utf-8"))
    ja = len(" ".join(japanese).encode("utf-8"))
    print(f"wrote {args.output}: {size} bytes (Chinese list {zh} bytes, Japanese list {ja} bytes)")


if __name__ == "__main__":
    main()
