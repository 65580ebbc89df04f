#!/usr/bin/env python3
"""Measures the dictionary segmenter (segment.py, with the word lists of
CJKDictionary+Words.swift) against overlapping character bigrams on real Chinese and Japanese
text, and prints a markdown report.

    python3 Benchmarks/cjk/measure.py [--dictionary PATH] [--pages test|dev] > report.md

Text (read from /tmp/cjk-text, fetched there with `apt-get download` and `dpkg -x` when missing;
no root install; the texts are GPL/free documentation and are not copied into the repository):
* Chinese: Debian package fortunes-zh (files chinese, tang300, song100): one fortune = one document.
* Japanese: Debian package manpages-ja: every third man page of the sorted list (--pages test:
  pages 0, 3, 6, ...; --pages dev: pages 1, 4, 7, ..., used only to choose between variants),
  roff macros stripped roughly; one paragraph = one document.
Lines are joined without a space where both sides are CJK (the texts are hard-wrapped).

Queries: 500 words per language from that language's list in the generated file, 2–4
characters, occurring in the sample: the candidates sorted by document frequency, cut into five
equal bands, 100 drawn from each with random.Random(SEED).

A document is relevant to a query when its text contains the query string. An approach finds a
document when the query's tokens appear as consecutive tokens of the document (the document's
words in order; non-CJK words are tokens too). Optional word-level reference (when jieba and
janome import): a document is a word match when the query's jieba (Chinese) or janome
(Japanese) words appear consecutively in the document's jieba/janome words.
"""
import argparse
import collections
import glob
import gzip
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import segment  # noqa: E402

SEED = 20240611
TEXT = "/tmp/cjk-text"
DEFAULT_DICTIONARY = os.path.join(HERE, "../../Sources/OfflineSearch/Text/Languages/CJKDictionary+Words.swift")


def fetch(package):
    folder = os.path.join(TEXT, package)
    if not os.path.isdir(folder):
        os.makedirs(TEXT, exist_ok=True)
        subprocess.run(["apt-get", "download", package], cwd=TEXT, check=True)
        deb = sorted(glob.glob(os.path.join(TEXT, f"{package}_*.deb")))[-1]
        subprocess.run(["dpkg", "-x", deb, folder], check=True)
    return folder


def is_cjk(c):
    return segment.script(c) is not None


def join_lines(lines):
    """Hard-wrapped lines: no space where both sides are CJK, else one space."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and not (is_cjk(out[-1]) and is_cjk(line[0])):
            out += " "
        out += line
    return out


def cjk_count(text):
    return sum(1 for c in text if is_cjk(c))


def chinese_documents():
    folder = os.path.join(fetch("fortunes-zh"), "usr/share/games/fortunes")
    docs = []
    for name in ("chinese", "tang300", "song100"):
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            text = re.sub(r"\x1b\[[0-9;]*m", "", handle.read())
        for fortune in re.split(r"^%$", text, flags=re.M):
            doc = join_lines(fortune.splitlines())
            if cjk_count(doc) >= 4:
                docs.append(doc)
    return docs


ROFF_TEXT_MACROS = {"B", "I", "SM", "SB"}
ROFF_FONT_MACROS = {"BR", "RB", "BI", "IB", "IR", "RI"}
ROFF_BREAKS = {"PP", "LP", "P", "TP", "IP", "HP", "SH", "SS", "RS", "RE", "TH", "sp", "nf", "fi", "EX", "EE",
               "TQ", "in", "ti", "bp", "ne", "UR", "UE", "MT", "ME", "Sh", "Pp", "Bl", "El", "It", "Nm", "Nd"}


def roff_inline(text):
    text = re.sub(r'\\".*$', "", text)
    text = re.sub(r"\\f(\[[^\]]*\]|\(..|.)", "", text)
    text = re.sub(r"\\s[+-]?\d", "", text)
    text = re.sub(r"\\\*(\[[^\]]*\]|\(..|.)", "", text)
    text = re.sub(r"\\\((aq|cq)", "'", text)
    text = re.sub(r"\\\((dq|lq|rq)", '"', text)
    text = re.sub(r"\\\(..", " ", text)
    text = re.sub(r"\\\[[^\]]*\]", " ", text)
    text = text.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "").replace("\\c", "")
    text = re.sub(r"\\(.)", r"\1", text)
    return text


def roff_args(rest):
    return [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', rest)]


def man_paragraphs(source):
    paragraphs, current = [], []
    for line in source.splitlines():
        if line.startswith(('.\\"', "'\\\"", '.\\}', "'\\}")) or line.strip() in (".", "'"):
            continue
        if line.startswith((".", "'")):
            m = re.match(r"[.'](\S+)\s*(.*)", line)
            macro, rest = (m.group(1), m.group(2)) if m else ("", "")
            if macro in ROFF_TEXT_MACROS:
                current.append(roff_inline(" ".join(roff_args(rest))))
            elif macro in ROFF_FONT_MACROS:
                current.append(roff_inline("".join(roff_args(rest))))
            elif macro in ROFF_BREAKS or macro == "br":
                if macro != "br" and current:
                    paragraphs.append(join_lines(current))
                    current = []
            continue
        if not line.strip():
            if current:
                paragraphs.append(join_lines(current))
                current = []
            continue
        current.append(roff_inline(line))
    if current:
        paragraphs.append(join_lines(current))
    return paragraphs


def japanese_documents(pages):
    folder = os.path.join(fetch("manpages-ja"), "usr/share/man/ja")
    files = sorted(glob.glob(os.path.join(folder, "man*/*.gz")))
    offset = {"test": 0, "dev": 1}[pages]
    chosen = files[offset::3]
    docs = []
    for path in chosen:
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
            source = handle.read()
        docs.extend(p for p in man_paragraphs(source) if cjk_count(p) >= 10)
    return docs, len(chosen)


def choose_queries(words, docs, rng, longest=4, per_band=100):
    """500 dictionary words of 2–4 characters found in the documents, 100 from each fifth of
    the document frequencies."""
    wanted = {w for w in words if 2 <= len(w) <= longest}
    frequency = collections.Counter()
    for doc in docs:
        seen = set()
        for run in re.findall(r"[^\W\d_]+", doc):
            for i in range(len(run)):
                for length in range(2, longest + 1):
                    sub = run[i:i + length]
                    if len(sub) == length and sub in wanted:
                        seen.add(sub)
        frequency.update(seen)
    candidates = sorted(frequency, key=lambda w: (frequency[w], w))
    bands = [candidates[i * len(candidates) // 5:(i + 1) * len(candidates) // 5] for i in range(5)]
    queries = []
    for band in bands:
        queries.extend(rng.sample(band, min(per_band, len(band))))
    return queries, len(candidates)


def consecutive_index(token_lists):
    index = collections.defaultdict(list)
    for d, tokens in enumerate(token_lists):
        for p, t in enumerate(tokens):
            index[t].append((d, p))
    return index


def find(query_tokens, token_lists, index):
    if not query_tokens:
        return set()
    k = len(query_tokens)
    found = set()
    for d, p in index.get(query_tokens[0], ()):
        if d not in found and token_lists[d][p:p + k] == query_tokens:
            found.add(d)
    return found


def evaluate(name, cjk, docs, queries, relevant, word_relevant):
    """Tokenizes the documents and queries with `cjk` (a run → tokens), returns a row."""
    token_lists = [segment.tokens(doc, cjk) for doc in docs]
    index = consecutive_index(token_lists)
    pairs = found_relevant = false = found_total = 0
    word_pairs = word_found = inside = 0
    missed_queries = 0
    for q in queries:
        found = find(segment.tokens(q, cjk), token_lists, index)
        rel = relevant[q]
        pairs += len(rel)
        found_relevant += len(found & rel)
        false += len(found - rel)
        found_total += len(found)
        missed_queries += not (found & rel)
        if word_relevant is not None:
            wrel = word_relevant[q]
            word_pairs += len(wrel)
            word_found += len(found & wrel)
            inside += len((found & rel) - wrel)
    cjk_tokens = [t for tokens in token_lists for t in tokens if is_cjk(t[0])]
    runs = [run for doc in docs for run in cjk_runs(doc)]
    chars = sum(len(r) for r in runs)
    best = None
    for _ in range(3):
        start = time.perf_counter()
        for run in runs:
            cjk(run)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return {
        "name": name, "pairs": pairs, "found_relevant": found_relevant, "recall": found_relevant / pairs, "false": false, "found": found_total,
        "missed_queries": missed_queries,
        "word_pairs": word_pairs, "word_recall": word_found / word_pairs if word_pairs else None, "inside": inside,
        "tokens": len(cjk_tokens), "distinct": len(set(cjk_tokens)), "speed": chars / best, "chars": chars,
    }


def cjk_runs(text):
    out = []
    segment.tokens(text, lambda run: out.append(run) or [])
    return out


def reference_tokenizer(language):
    """jieba (Chinese) or janome (Japanese) words, or None when not importable."""
    try:
        if language == "zh":
            import jieba
            jieba.setLogLevel(60)
            return lambda text: [t for t in jieba.cut(text) if t.strip()]
        from janome.tokenizer import Tokenizer
        tokenizer = Tokenizer(wakati=True)
        return lambda text: [t for t in tokenizer.tokenize(text) if t.strip()]
    except ImportError:
        return None


def katakana_words(janome_path):
    """IPADIC's all-Katakana surfaces (not in the generated lists: a Katakana run is one word)."""
    sys.path.insert(0, os.path.join(HERE, "../../Sources/OfflineSearch/Text/Languages"))
    import make_cjk_dictionaries
    entries, _ = make_cjk_dictionaries.ipadic_entries(janome_path)
    return sorted({e[0] for e in entries if all(segment.script(c) == segment.KATAKANA for c in e[0])})


def report_language(label, language, docs, words, approaches, rng, extra_note="", longest=4, per_band=100,
                    what="dictionary words of 2–4 characters"):
    queries, candidates = choose_queries(words, docs, rng, longest, per_band)
    relevant = {q: {d for d, doc in enumerate(docs) if q in doc} for q in queries}
    reference = reference_tokenizer(language)
    word_relevant = None
    if reference is not None:
        ref_docs = [reference(doc) for doc in docs]
        ref_index = consecutive_index(ref_docs)
        word_relevant = {q: find(reference(q), ref_docs, ref_index) for q in queries}
    rows = [evaluate(name, cjk, docs, queries, relevant, word_relevant) for name, cjk in approaches]
    chars = rows[0]["chars"]
    lines = [f"### {label}", "",
             f"{len(docs)} documents, {chars} CJK characters; {len(queries)} queries drawn from {candidates} "
             f"{what} found in them; {rows[0]['pairs']} (query, document containing it) "
             f"pairs.{extra_note}", ""]
    header = "| approach | recall (substring pairs found) | queries finding none | false matches (found, no substring) |"
    rule = "| --- | ---: | ---: | ---: |"
    if word_relevant is not None:
        header += f" word recall ({'jieba' if language == 'zh' else 'janome'} words) | substring found inside another word |"
        rule += " ---: | ---: |"
    header += " CJK tokens | distinct tokens | chars/s (Python) |"
    rule += " ---: | ---: | ---: |"
    lines += [header, rule]
    for r in rows:
        line = (f"| {r['name']} | {100 * r['recall']:.1f} % ({r['found_relevant']}/{r['pairs']}) "
                f"| {r['missed_queries']} | {r['false']} |")
        if word_relevant is not None:
            line += f" {100 * r['word_recall']:.1f} % of {r['word_pairs']} | {r['inside']} |"
        line += f" {r['tokens']} | {r['distinct']} | {r['speed']:,.0f} |"
        lines.append(line)
    lines.append("")
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dictionary", default=DEFAULT_DICTIONARY)
    parser.add_argument("--queries-from", action="append",
                        help="draw the queries from this generated file's lists (default: --dictionary); given twice or "
                             "more, from the words in all of them")
    parser.add_argument("--pages", choices=("test", "dev"), default="test")
    parser.add_argument("--janome", default="/tmp/langpkgs/janome-0.5.1-py3-none-any.whl",
                        help="the janome wheel, for IPADIC's Katakana words (the Katakana query set)")
    parser.add_argument("--only", choices=("zh", "ja"))
    args = parser.parse_args()
    chinese, japanese = segment.load_generated(args.dictionary)
    sources = [segment.load_generated(path) for path in args.queries_from or [args.dictionary]]
    query_lists = []
    for i in (0, 1):  # Chinese, Japanese: the first file's order, words in every file
        others = [set(source[i]) for source in sources[1:]]
        query_lists.append([w for w in sources[0][i] if all(w in other for other in others)])
    query_zh, query_ja = query_lists
    combined = segment.combined_segmenter(chinese, japanese).segment
    by_script = segment.by_script_segmenter(chinese, japanese).segment
    zh_only = segment.single_segmenter(chinese).segment
    ja_only = segment.single_segmenter(japanese).segment
    out = [f"Dictionary: {os.path.relpath(args.dictionary, os.getcwd())} ({len(chinese)} Chinese, {len(japanese)} "
           f"Japanese words); seed {SEED}; Python {sys.version.split()[0]}.", ""]
    if args.only != "ja":
        docs = chinese_documents()
        out += report_language("Chinese (fortunes-zh)", "zh", docs, query_zh, [
            ("bigrams", segment.bigrams),
            ("dictionary, combined list", combined),
            ("dictionary, list by script", by_script),
            ("dictionary, Chinese list only (language known)", zh_only),
        ], random.Random(SEED))
    if args.only != "zh":
        docs, pages = japanese_documents(args.pages)
        out += report_language(f"Japanese (manpages-ja, {args.pages} pages)", "ja", docs, query_ja, [
            ("bigrams", segment.bigrams),
            ("dictionary, combined list", combined),
            ("dictionary, list by script", by_script),
            ("dictionary, Japanese list only (language known)", ja_only),
        ], random.Random(SEED), extra_note=f" {pages} man pages.")
        if os.path.exists(args.janome):
            out += report_language(f"Japanese Katakana words (manpages-ja, {args.pages} pages)", "ja", docs,
                                   katakana_words(args.janome), [
                ("bigrams", segment.bigrams),
                ("dictionary, combined list", combined),
            ], random.Random(SEED), longest=8, per_band=20, what="IPADIC Katakana words of 2–8 characters",
               extra_note=" Katakana words are in neither list: a Katakana run is one token.")
        else:
            out += [f"(Katakana queries skipped: {args.janome} not found.)", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
