"""Reference implementation of the CJK segmenter (the Swift `CJKDictionary` segmenter must give
the same words for the same text). The algorithm is specified in the docstring of
Sources/OfflineSearch/Text/Languages/make_cjk_dictionaries.py; in short:

* characters are Unicode scalars, classed Han / Hiragana / Katakana (see `script`);
* a maximal Katakana piece of a run is one word;
* any other piece is split by dynamic programming: a dictionary word of rank r costs
  round(1000·ln(r+10)), any single character round(1000·(ln(N+10)+3)); least total cost wins,
  equal costs go to the longer first word.

Also the comparison baseline: overlapping character bigrams.

    python3 Benchmarks/cjk/segment.py "東京都に住んでいます"   # words of a text, combined list
    python3 Benchmarks/cjk/segment.py --write-golden            # rewrites golden.tsv
"""
import math
import os
import re
import unicodedata

HAN, HIRAGANA, KATAKANA = "H", "h", "K"
MAX_WORD = 8


def script(c):
    """HAN, HIRAGANA, KATAKANA, or None for a character that is not CJK here (Hangul included)."""
    v = ord(c)
    if 0x4E00 <= v <= 0x9FFF or 0x3400 <= v <= 0x4DBF or 0xF900 <= v <= 0xFAFF or 0x20000 <= v <= 0x2FFFF:
        return HAN
    if v in (0x3005, 0x3007) or 0x3021 <= v <= 0x3029 or 0x3038 <= v <= 0x303B:
        return HAN  # 々 〇 and the other Han-script letters of the CJK Symbols block
    if 0x3040 <= v <= 0x309F:
        return HIRAGANA
    if 0x30A0 <= v <= 0x30FF or 0x31F0 <= v <= 0x31FF:
        return KATAKANA
    return None


def round_half_up(x):
    return int(math.floor(x + 0.5))


def word_cost(rank):
    return round_half_up(1000 * math.log(rank + 10))


def char_cost(size):
    return round_half_up(1000 * (math.log(size + 10) + 3))


class Dictionary:
    """Words (2–8 scalars) with ranks; `size` is N in the character cost."""

    def __init__(self, ranks):
        self.ranks = ranks
        self.size = len(ranks)
        self.costs = {w: word_cost(r) for w, r in ranks.items()}
        self.char = char_cost(self.size)

    @classmethod
    def ranked(cls, words):
        ranks = {}
        for i, w in enumerate(words):
            ranks.setdefault(w, i)
        return cls(ranks)

    @classmethod
    def combined(cls, *lists):
        """One list: a word's rank is the lowest of its ranks in the lists."""
        ranks = {}
        for words in lists:
            for i, w in enumerate(words):
                if w not in ranks or i < ranks[w]:
                    ranks[w] = i
        return cls(ranks)

    def split(self, s):
        """The dynamic programme over one non-Katakana piece."""
        n = len(s)
        best = [0] * (n + 1)
        length = [1] * (n + 1)
        costs = self.costs
        for i in range(n - 1, -1, -1):
            b = self.char + best[i + 1]
            l = 1
            for L in range(2, min(MAX_WORD, n - i) + 1):
                c = costs.get(s[i:i + L])
                if c is not None and c + best[i + L] <= b:
                    b = c + best[i + L]
                    l = L
            best[i] = b
            length[i] = l
        out = []
        i = 0
        while i < n:
            out.append(s[i:i + length[i]])
            i += length[i]
        return out


def pieces(run):
    """Maximal Katakana / non-Katakana pieces of a run, with whether each is Katakana."""
    out = []
    start = 0
    for i in range(1, len(run) + 1):
        if i == len(run) or (script(run[i]) == KATAKANA) != (script(run[start]) == KATAKANA):
            out.append((run[start:i], script(run[start]) == KATAKANA))
            start = i
    return out


class Segmenter:
    """`choose(run)` returns the Dictionary for a run (one combined, or by script)."""

    def __init__(self, choose):
        self.choose = choose

    def segment(self, run):
        dictionary = self.choose(run)
        out = []
        for piece, katakana in pieces(run):
            if katakana:
                out.append(piece)
            else:
                out.extend(dictionary.split(piece))
        return out


def combined_segmenter(chinese, japanese):
    d = Dictionary.combined(chinese, japanese)
    return Segmenter(lambda run: d)


def by_script_segmenter(chinese, japanese):
    zh = Dictionary.ranked(chinese)
    ja = Dictionary.ranked(japanese)
    return Segmenter(lambda run: ja if any(script(c) == HIRAGANA for c in run) else zh)


def single_segmenter(words):
    d = Dictionary.ranked(words)
    return Segmenter(lambda run: d)


def bigrams(run):
    """The baseline: a run of 2+ characters gives its overlapping pairs, one character itself."""
    if len(run) < 2:
        return [run]
    return [run[i:i + 2] for i in range(len(run) - 1)]


def is_word_char(c):
    """Letters, digits and combining marks: what the engine's tokenizer keeps in a word."""
    return unicodedata.category(c)[0] in "LNM"


def tokens(text, cjk):
    """The words of a text: maximal runs of word characters, lowercased, each CJK run inside
    one (maximal run of CJK characters) replaced by `cjk(run)`, the rest of the word kept."""
    out = []
    word = []
    for c in text + " ":
        if is_word_char(c):
            word.append(c)
            continue
        if word:
            out.extend(_split_word("".join(word), cjk))
            word = []
    return out


def _split_word(word, cjk):
    out = []
    start = 0
    for i in range(1, len(word) + 1):
        if i == len(word) or (script(word[i]) is None) != (script(word[start]) is None):
            part = word[start:i]
            if script(part[0]) is None:
                out.append(part.lower())
            else:
                out.extend(cjk(part))
            start = i
    return out


def load_generated(path):
    """The two word lists from CJKDictionary+Words.swift."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    chinese = re.search(r'static let chineseWords = "([^"]*)"', text).group(1).split(" ")
    japanese = re.search(r'static let japaneseWords = "([^"]*)"', text).group(1).split(" ")
    return chinese, japanese


# Texts written for this file (no corpus text), for golden.tsv: what the Swift port must give.
GOLDEN_INPUTS = [
    "我们在北京大学学习中文",
    "他们在东京都的京都大学工作",
    "今天天气很好，我们去公园散步吧",
    "这个软件包的管理工具可以自动安装依赖",
    "搜索引擎把中文句子切分成词语",
    "中华人民共和国成立于一九四九年",
    "东京都に住んでいます",
    "京都大学のコンピューターを使う",
    "私はいい人です",
    "このコマンドは指定されたファイルを削除します",
    "検索エンジンは日本語の文章を単語に分割する",
    "ジョブの実行に指定された時刻が過去であった場合",
    "人々は時々少々疲れる",
    "東京駅から新幹線で大阪へ行きました",
    "オプションを指定しない場合は標準入力から読み込む",
    "データベースの設定ファイルを編集してください",
    "ログインシェルとして使われる",
    "Debian软件包管理",
    "iPhoneケースを探す",
    "漢字ひらがなカタカナ混じり文",
    "ー",
    "𠀋𠀋",
    "々",
]


def write_golden(path):
    here = os.path.dirname(os.path.abspath(__file__))
    zh, ja = load_generated(os.path.join(here, "../../Sources/OfflineSearch/Text/Languages/CJKDictionary+Words.swift"))
    seg = combined_segmenter(zh, ja)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("# text\twords (combined list; segment.py --write-golden)\n")
        for text in GOLDEN_INPUTS:
            handle.write(text + "\t" + " / ".join(tokens(text, seg.segment)) + "\n")


if __name__ == "__main__":
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    if "--write-golden" in sys.argv:
        write_golden(os.path.join(here, "golden.tsv"))
        sys.exit(0)
    zh, ja = load_generated(os.path.join(here, "../../Sources/OfflineSearch/Text/Languages/CJKDictionary+Words.swift"))
    seg = by_script_segmenter(zh, ja) if "--by-script" in sys.argv else combined_segmenter(zh, ja)
    texts = [a for a in sys.argv[1:] if not a.startswith("--")] or sys.stdin
    for text in texts:
        print(" / ".join(tokens(text, seg.segment)))
