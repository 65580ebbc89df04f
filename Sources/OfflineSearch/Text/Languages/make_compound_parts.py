#!/usr/bin/env python3
"""Writes CompoundParts+Words.swift: for each language of Algolia's `decompoundedAttributes` (da, de, fi,
nl, no, sv) that has a permissively licensed source (da, de, nl, no; fi and sv only with
--include-share-alike, see their FLAG below: the package ships without them), a list of words that may be parts of a compound, so that the indexer can split
"fussballschuhe" into "fussball" + "schuhe" (the splitting itself: Benchmarks/decompound/split.py).

Usage (every source is a Debian or PyPI package, fetched with the ordinary clients, no root needed):

    mkdir -p /tmp/cp && cd /tmp/cp
    pip download --no-deps -d . spacy-lookups-data==1.0.5 && unzip -q -o spacy_lookups_data-1.0.5-*.whl -d spacy
    apt-get download hunspell-nl wdutch dict-freedict-fin-eng
    for deb in *.deb; do dpkg -x "$deb" deb; done
    python3 Sources/OfflineSearch/Text/Languages/make_compound_parts.py \\
        [--spacy /tmp/cp/spacy/spacy_lookups_data/data] [--debian /tmp/cp/deb] [--per-language 30000]

The script only reads those files; it writes the Swift file beside itself and prints each language's
count and size. Rerunning it on the same inputs writes the same file.

Sources used, per language, and their licences (what each package's own files say):

  de  spaCy lookups data 1.0.5 (PyPI `spacy-lookups-data`, MIT licence, (c) 2019 ExplosionAI GmbH),
      table de_lexeme_prob: word probabilities (1,000,000 forms, case kept) that Explosion computed
      for its v2.2 German models (spacy-lookups-data PR #7: "copied from v2.2 models'
      lexemes.jsonl"); the corpus behind them is not stated. A noun here is a form written with a
      capital (Schuhe) at least as often as in lower case (German capitalises nouns); the list is
      those nouns, most probable first. Inflected forms (schuhe, kinder, jahren) come with it.
      Proper names and English words written with a capital slip in; verbs and adjectives do not.
  da  spaCy lookups data, table da_lemma_lookup: from Det Centrale Ordregister (COR, Dansk
      Sprognævn / DSL / CST / Digitaliseringsstyrelsen), per the package's own da_source.txt in its
      repository (that file is not in the 1.0.5 wheel); ordregister.dk publishes COR under CC0.
  no  spaCy lookups data, table nb_lemma_exc["noun"] (Bokmål): from Norsk Ordbank (Bokmål 2005,
      updated 2018-06-27, Språkbanken, Nasjonalbiblioteket), CC BY 4.0 per nb_license.txt in the
      package. Attribution required: "Norsk Ordbank, Språkbanken, Nasjonalbiblioteket, CC BY 4.0".
  sv  spaCy lookups data, table sv_lemma_lookup (660,305 forms). FLAG: the package states no source
      for it. spaCy's history (issue #846, PR #1413, the Romanian data note) points to Michal
      Měchura's "Lemmatization Lists" (Open Database License, share-alike for derived databases),
      whose Swedish list (675,137 pairs) is built from Språkbanken's SALDO (CC BY 4.0). So the
      Swedish list may owe ODbL share-alike and SALDO attribution; the MIT label alone does not
      settle it. Every other Swedish source on this machine is copyleft (see below).
  nl  OpenTaal (Dutch word list of the OpenTaal foundation), Debian packages hunspell-nl
      (/usr/share/hunspell/nl.dic, .aff) and wdutch (/usr/share/dict/dutch), version 2.20.19:
      "Revised BSD" or CC BY 3.0, at the user's choice (we take BSD: keep the copyright notice
      "(c) 1996 Nederlandstalige Tex Gebruikersgroep, (c) 2001-2005 Simon Brouwer e.a.,
      (c) 2006-2010, 2020 OpenTaal"). Its hunspell file marks words that may begin, sit inside or end
      a compound (flags Ca, Cb, Cc) and nouns by their plural flags (Z*); both kinds are kept.
  fi  FreeDict Finnish-English (Debian dict-freedict-fin-eng, edition 2022.11.18, made by WikDict
      from Wiktionary via DBnary): CC BY-SA 3.0. FLAG: copyleft (share-alike). No permissively
      licensed Finnish word list with parts of speech is on this machine (see below); this is the
      least problematic one: a data licence, whose share-alike covers the adapted list (which must
      then be offered under CC BY-SA 3.0 or later, with attribution "FreeDict / WikDict, from
      Wiktionary, CC BY-SA 3.0"), not the code that reads it. Nouns are its entries tagged <n>.

How the words are chosen (nouns, 3-20 letters, letters only, lowercase, ĳ written ij):
  de  by probability, as above.
  da, no, sv, nl, fi  these sources rank nothing, so nouns are ranked by how productive they are as
      compound parts in the same source: the number of the source's own entries that are this noun
      plus a linking element (the splitter's, below) plus another entry of at least 3 letters, or
      another entry plus a linking element plus this noun. Most productive first; a noun no entry
      is built from comes after all that are, the shorter first. With each noun come its plural
      forms where the source gives them (da, sv: forms of the lemma that end like a plural; nl: its
      plural flags expanded; sv also the stem SALDO uses in compounds, flick- of flicka), or
      where a plain rule makes them (no: -er, -r; fi: -t after a, o, u, y, ä, ö), so that the last
      part of "fotbollsskor" (skor) is found; rule-made forms that are not words do no harm.
  Then, in every language, these are dropped (prune()): the language's Snowball stop words (from
  StopWords+Lists.swift beside this script; "for", "over", "under" are nouns too in Danish), nouns
  that are also derivational affixes (AFFIXES: schaft, schap, lijk, skap, dom, het, lig, ring, ...,
  which would cut Mannschaft, barndom, planering), and short words ranked low (SHORT_RANKS: a word of
  3 letters only among the first 2,000 of its ranking, of 4 letters among the first 10,000), because
  short words match inside longer ones by chance. Benchmarks/decompound/RESULTS.md has the numbers.
  Each language stops at --per-language words (default 30,000).

Candidates looked at and not used:
  - Debian hunspell-de-de, wngerman, aspell-de (igerman98): GPL-2+; hunspell-de-de-frami
    (LibreOffice): GPL-2 or GPL-3. Copyleft.
  - spaCy de_lemma_lookup (355,354 forms, nouns capitalised): no stated source; by size and
    spaCy's history most likely Měchura's ODbL list, itself from Daniel Naber's Morphy-based
    lexicon. Not used: de_lexeme_prob gives German nouns with frequencies without it.
  - PyPI german-nouns 1.2.5 (from German Wiktionary): CC BY-SA 4.0. compound-split 1.0.2: GPL-3.
  - Debian hunspell-sv (LibreOffice sv_SE, Göran Andersson): LGPL-3; aspell-sv: LGPL-2.1; wswedish:
    GPL-2+; PyPI hunspell-sv 2026.10.25: LGPL-3 (adds SALDO words); FreeDict swe-eng: GPL-2+.
  - Debian hunspell-da (LibreOffice da_DK): LGPL-2.1 or GPL-2 or MPL-1.1; wdanish, aspell-da
    (Den store danske ordliste, SSLUG): GPL-2+.
  - Debian hunspell-no, wnorwegian, aspell-no (spell-norwegian): GPL-2 / GPL-2+.
  - Debian voikko-fi (Finnish morphology for libvoikko): GPL-2+ (it is built partly from the
    Kotus "Nykysuomen sanalista", LGPL in its 2006 edition; the Kotus list itself is not packaged
    here). FreeDict fin-deu: CC BY-SA 3.0, smaller than fin-eng.
  - spaCy nl_lemma_index (161,175 nouns with parts of speech): no stated source (added by spaCy
    PR #3409); OpenTaal is used instead, whose licence is stated.
  - PyPI wordfreq 3.1.1: code Apache-2.0, data CC BY-SA 4.0 (from Wikipedia, OpenSubtitles,
    SUBTLEX, Google Books Ngrams, ...). A list ordered by its ranks would be an adaptation of its
    database: the list would have to carry CC BY-SA 4.0 and the attribution wordfreq asks for
    (including the SUBTLEX authors). Not used, so that only de and fi's own sources set the order.
  - PyPI simplemma 2.0.0: code MIT, data mixed (Měchura ODbL, Wiktionary/Kaikki CC BY-SA, ...).
  - PyPI lemmy 2.1.0 (MIT): suffix rules learned from DSN's list and SALDO, no word list.
"""
import argparse
import collections
import glob
import gzip
import json
import os
import re
import unicodedata

# The linking elements the splitter allows between two parts; they must be the ones in
# Benchmarks/decompound/split.py, since they decide how productive a noun is.
LINKS = {"da": ("s", "e"), "de": ("s", "es", "n", "en", "e", "er"), "fi": (),
         "nl": ("s", "e", "en"), "no": ("s", "e"), "sv": ("s", "a", "e", "u", "o")}
MIN_PART = 3
MAX_LETTERS = 20
# Nouns that are also common derivational affixes: as parts they cut derivations, not compounds
# (Mannschaft is not Mann + Schaft, barndom not barn + dom, planering not plane + ring).
AFFIXES = {"de": {"schaft"}, "nl": {"schap", "lijk", "nis", "heid"}, "fi": set(),
           "sv": {"skap", "dom", "het", "ande", "ende", "are", "else", "ning", "ring", "lig", "ans", "for", "fore"},
           "da": {"skab", "dom", "hed", "lig", "ende", "else", "ning", "ring", "fore"},
           "no": {"skap", "dom", "het", "lig", "ende", "else", "ning", "ring", "fore"}}
# A short part matches inside longer words by chance far more often than a long one, so a word of 3
# letters is kept only among the first SHORT_RANKS[3] words of its language's ranking, one of 4
# letters among the first SHORT_RANKS[4].
SHORT_RANKS = {3: 2000, 4: 10000}
FOLDING = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss", "å": "a", "ø": "o", "æ": "ae"})


def fold(word):
    """As Benchmarks/decompound/split.py and the engine fold: ä→a, ß→ss, ø→o, æ→ae, é→e, ..."""
    word = word.lower().translate(FOLDING)
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def stop_words():
    """language -> folded Snowball stop words, from StopWords+Lists.swift beside this script."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "StopWords+Lists.swift")
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    return {code: {fold(w) for w in text.split()} for code, text in re.findall(r'"(\w\w)": "([^"]*)"', source)}


def prune(code, words, limit):
    """The ranked words less stop words, affix homographs and short words ranked too low."""
    excluded = stop_words().get(code, set()) | {fold(w) for w in AFFIXES[code]}
    kept = []
    for rank, word in enumerate(words):
        if fold(word) in excluded or rank >= SHORT_RANKS.get(len(fold(word)), rank + 1):
            continue
        kept.append(word)
    return kept[:limit]


def clean(word):
    """The word lowercase with ĳ written ij, or None when it is not 3-20 Latin letters."""
    word = unicodedata.normalize("NFC", word.lower().replace("ĳ", "ij").replace("Ĳ", "ij"))
    if not MIN_PART <= len(word) <= MAX_LETTERS:
        return None
    for ch in word:
        if not ch.isalpha() or "LATIN" not in unicodedata.name(ch, ""):
            return None
    return word


def inverse(table):
    """lemma -> set of its forms (with itself), from a form -> lemma (or [lemmas]) table."""
    forms = collections.defaultdict(set)
    for form, lemmas in table.items():
        for lemma in lemmas if isinstance(lemmas, list) else [lemmas]:
            forms[lemma].add(form)
            forms[lemma].add(lemma)
    return forms


def load_json(folder, name):
    with gzip.open(os.path.join(folder, name + ".json.gz"), "rt", encoding="utf-8") as handle:
        return json.load(handle)


def productivity(code, candidates, vocabulary):
    """How many entries of vocabulary are candidate + link + entry or entry + link + candidate."""
    links = ("",) + LINKS[code]
    vocabulary = set(vocabulary)
    score = collections.Counter()
    for word in vocabulary:
        n = len(word)
        for i in range(MIN_PART, n - MIN_PART + 1):
            head = word[:i]
            for link in links:
                j = i + len(link)
                if n - j < MIN_PART or word[i:j] != link:
                    continue
                tail = word[j:]
                if head in candidates and tail in vocabulary:
                    score[head] += 1
                if tail in candidates and head in vocabulary:
                    score[tail] += 1
    return score


def take(ranked, extra_forms, limit):
    """The ranked nouns, each followed by its extra forms, deduplicated, up to limit words."""
    words, seen = [], set()
    for lemma in ranked:
        for word in [lemma] + sorted(extra_forms.get(lemma, ())):
            word = clean(word)
            if word and word not in seen:
                seen.add(word)
                words.append(word)
        if len(words) >= limit:
            break
    return words[:limit]


def rank_by_productivity(code, nouns, vocabulary):
    score = productivity(code, set(nouns), vocabulary)
    return sorted(nouns, key=lambda w: (-score[w], len(w), w)), score


def german(spacy, limit):
    prob = load_json(spacy, "de_lexeme_prob")
    best = {}
    for form, p in prob.items():
        if len(form) < 2 or not form[0].isupper() or form[1:] != form[1:].lower():
            continue
        word = clean(form)
        if word is None or p < prob.get(form.lower(), -100.0):
            continue
        best[word] = max(best.get(word, -100.0), p)
    ranked = sorted(best, key=lambda w: (-best[w], w))
    return ranked[:limit], f"{len(best)} capitalised forms"


def danish(spacy, limit):
    forms = inverse(load_json(spacy, "da_lemma_lookup"))
    nouns = {}
    for lemma, fs in forms.items():
        if clean(lemma) != lemma:
            continue
        definite_genitive = {lemma + "ens", lemma + "ets"} | ({lemma + "ns", lemma + "ts"} if lemma[-1] in "aeiouyæøå" else set())
        if fs & definite_genitive:
            plurals = {f for f in fs if f in (lemma + "e", lemma + "er", lemma + "r")}
            nouns[lemma] = plurals
    vocabulary = [w for w in (clean(l) for l in forms) if w]
    ranked, score = rank_by_productivity("da", list(nouns), vocabulary)
    return take(ranked, nouns, limit), f"{len(nouns)} nouns of {len(forms)} lemmas, {sum(1 for n in nouns if score[n])} productive"


def swedish(spacy, limit):
    forms = inverse(load_json(spacy, "sv_lemma_lookup"))
    nouns = {}
    for lemma, fs in forms.items():
        if clean(lemma) != lemma:
            continue
        if not any(f.endswith("na") and len(f) > len(lemma) for f in fs) and not fs & {lemma + "ens", lemma + "ets"}:
            continue
        stem = lemma[:-1] if lemma[-1] in "aeo" else None
        patterns = {lemma + "ar", lemma + "or", lemma + "er", lemma + "r"}
        if stem:
            patterns |= {stem + "ar", stem + "or", stem + "er", stem}   # flickor, pojkar; flick- in compounds
        if lemma.endswith("e"):
            patterns.add(lemma + "n")                                     # äpplen
        nouns[lemma] = {f for f in fs if f in patterns}
    vocabulary = [w for w in (clean(l) for l in forms) if w]
    ranked, score = rank_by_productivity("sv", list(nouns), vocabulary)
    return take(ranked, nouns, limit), f"{len(nouns)} nouns of {len(forms)} lemmas, {sum(1 for n in nouns if score[n])} productive"


def norwegian(spacy, limit):
    exc = load_json(spacy, "nb_lemma_exc")
    noun_forms = inverse(exc["noun"])
    nouns = {}
    for lemma, fs in noun_forms.items():
        if clean(lemma) != lemma:
            continue
        rule = {lemma + "r"} if lemma.endswith("e") else {lemma + "er"}
        nouns[lemma] = rule | {f for f in fs if f in (lemma + "er", lemma + "r")}
    vocabulary = set(nouns)
    for pos in ("adj", "verb", "adv"):
        vocabulary |= {w for w in (clean(l) for l in inverse(exc[pos])) if w}
    ranked, score = rank_by_productivity("no", list(nouns), vocabulary)
    return take(ranked, nouns, limit), f"{len(nouns)} nouns, {sum(1 for n in nouns if score[n])} productive"


def hunspell_suffixes(aff_path):
    """flag -> [(strip, add, condition regex)] for the SFX rules of an OpenTaal .aff (FLAG long)."""
    rules = collections.defaultdict(list)
    with open(aff_path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) >= 5 and fields[0] == "SFX":
                flag, strip, add, condition = fields[1], fields[2], fields[3].split("/")[0], fields[4]
                strip = "" if strip == "0" else strip
                add = "" if add == "0" else add
                rules[flag].append((strip, add, re.compile("(" + condition + ")$")))
    return rules


def dutch(debian, limit):
    folder = os.path.join(debian, "usr/share/hunspell")
    rules = hunspell_suffixes(os.path.join(folder, "nl.aff"))
    compound_flags = {"Ca", "Cb", "Cc", "CA", "CB", "Ce", "Cd", "Cl"}
    nouns = collections.defaultdict(set)
    with open(os.path.join(folder, "nl.dic"), encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            entry = line.split()[0] if line.split() else ""
            word, _, flags = entry.partition("/")
            if not word or word[0].isupper() or clean(word) is None:
                continue
            flags = [flags[i:i + 2] for i in range(0, len(flags), 2)]
            plural_flags = [f for f in flags if f.startswith("Z")]
            if not plural_flags and not compound_flags & set(flags):
                continue
            nouns[clean(word)]
            for flag in plural_flags:
                for strip, add, condition in rules.get(flag, ()):
                    if add.endswith("-") or not condition.search(word) or not word.endswith(strip):
                        continue
                    nouns[clean(word)].add(word[:len(word) - len(strip)] + add)
    with open(os.path.join(debian, "usr/share/dict/dutch"), encoding="utf-8") as handle:
        vocabulary = [w for w in (clean(line.strip()) for line in handle) if w]
    ranked, score = rank_by_productivity("nl", list(nouns), vocabulary)
    return take(ranked, nouns, limit), f"{len(nouns)} nouns or compound parts, {sum(1 for n in nouns if score[n])} productive"


def finnish(debian, limit):
    base = os.path.join(debian, "usr/share/dictd/freedict-fin-eng")
    with gzip.open(base + ".dict.dz") as handle:
        data = handle.read()
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    def number(text):
        value = 0
        for ch in text:
            value = value * 64 + digits.index(ch)
        return value

    nouns, vocabulary = {}, set()
    with open(base + ".index", encoding="utf-8") as handle:
        for line in handle:
            headword, offset, length = line.rstrip("\n").split("\t")
            word = clean(headword)
            if headword.startswith("00-") or word is None:
                continue
            vocabulary.add(word)
            first_line = data[number(offset):number(offset) + number(length)].decode("utf-8").split("\n", 1)[0]
            if "n" in (tag.split(",")[0].strip() for tag in re.findall(r"<([^>]+)>", first_line)):
                nouns[word] = {word + "t"} if word[-1] in "aouyäö" else set()
    ranked, score = rank_by_productivity("fi", list(nouns), vocabulary)
    return take(ranked, nouns, limit), f"{len(nouns)} nouns, {sum(1 for n in nouns if score[n])} productive"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spacy", default="/tmp/cp/spacy/spacy_lookups_data/data")
    parser.add_argument("--debian", default="/tmp/cp/deb", help="folder the .deb files were unpacked into")
    parser.add_argument("--per-language", type=int, default=30000)
    parser.add_argument("--include-share-alike", action="store_true",
                        help="also write fi (CC BY-SA 3.0) and sv (source not stated, likely ODbL): off by default, "
                             "so the package carries no share-alike data")
    args = parser.parse_args()
    wide = 2 * args.per_language   # ranked candidates, before prune() drops some
    makers = {"da": lambda: danish(args.spacy, wide),
              "de": lambda: german(args.spacy, wide),
              "fi": lambda: finnish(args.debian, wide),
              "nl": lambda: dutch(args.debian, wide),
              "no": lambda: norwegian(args.spacy, wide),
              "sv": lambda: swedish(args.spacy, wide)}
    if not args.include_share_alike:
        del makers["fi"], makers["sv"]
    lines = ["// Generated by make_compound_parts.py from spaCy lookups data 1.0.5 (MIT; da: Det Centrale",
             "// Ordregister, CC0; no: Norsk Ordbank, Språkbanken, Nasjonalbiblioteket, CC BY 4.0) and OpenTaal",
             "// (nl: BSD, (c) 1996 Nederlandstalige Tex Gebruikersgroep, 2001-2005 Simon Brouwer e.a., 2006-2020 OpenTaal)."]
    if args.include_share_alike:
        lines += ["// sv: spaCy lookups data, source not stated, likely Měchura's Lemmatization Lists (ODbL) from SALDO",
                  "// (CC BY 4.0); fi: FreeDict/WikDict Finnish-English, from Wiktionary, CC BY-SA 3.0 (the Finnish list is under it)."]
    lines += ["// Do not edit: run the script again.",
             "",
             "extension CompoundParts {",
             "    /// Each language's words that may be parts of a compound, lowercase, separated by spaces, most frequent first where the source ranks them.",
             "    static let lists: [String: String] = ["]
    total = 0
    for code in sorted(makers):
        words, note = makers[code]()
        words = prune(code, words, args.per_language)
        assert len(words) == len(set(words)), code
        assert all(re.fullmatch(r"[^\W\d_]{3,20}", w) for w in words), code
        text = " ".join(words)
        total += len(text.encode("utf-8"))
        print(f"{code}: {len(words)} words, {len(text.encode('utf-8'))} bytes ({note})")
        lines.append(f'        "{code}": "{text}",')
    lines += ["    ]", "}", ""]
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "CompoundParts+Words.swift")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    print(f"wrote {target}: {os.path.getsize(target)} bytes, lists {total} bytes")


if __name__ == "__main__":
    main()
