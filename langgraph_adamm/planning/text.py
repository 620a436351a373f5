"""Tokens for lexical matching between questions and memory metadata."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

STOPWORDS = frozenset(
    """a an the i me my mine we our you your it its is are was were be been being am
    do did does done have has had of in on at to for from by with about as into over
    and or but if then than so that this these those what which who whom whose when
    where why how much many any some all each every per there here up down out off
    again very can could should would will just not no yes get got give show tell
    please s t did my log logged record recorded entries entry""".split()
)
_TOKEN_RE = re.compile(r"[^\W_]+", re.UNICODE)
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


IRREGULAR = {
    "slept": "sleep",
    "ran": "run",
    "spent": "spend",
    "won": "win",
    "lost": "lose",
    "rode": "ride",
    "swam": "swim",
    "ate": "eat",
    "drank": "drink",
    "went": "go",
    "paid": "pay",
    "bought": "buy",
    "wrote": "write",
    "read": "read",
    "felt": "feel",
    "took": "take",
    "made": "make",
    "did": "do",
    "weighed": "weigh",
}
"""Irregular verb forms people use in questions ("hours I slept")."""


def stem(word: str) -> str:
    """A light English stem: plurals, common verb endings, irregular forms."""
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 6 and w.endswith("ings"):
        w = w[:-1]  # "firings" stems as "firing" does
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
        return w[:-1] if len(w) > 3 and w[-1] == w[-2] else w
    if len(w) > 4 and w.endswith("es") and w[-3] in "sxz":
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


_POSSESSIVE_RE = re.compile(r"['’]s?$")


def without_possessive(name: str) -> str:
    """A name without the possessive it was written in ("Fig's" -> "Fig")."""
    return _POSSESSIVE_RE.sub("", name)


def words(text: str) -> list[str]:
    """Lower-case word tokens (identifiers split at ``_`` and camel case)."""
    return [t.lower() for t in _TOKEN_RE.findall(_CAMEL_RE.sub(" ", text))]


def content_stems(text: str) -> list[str]:
    """Stems of the words that carry meaning (stopwords dropped)."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def token_similarity(query: Iterable[str], document: Iterable[str]) -> float:
    """Share of the query's distinct stems that the document contains."""
    q = set(query)
    if not q:
        return 0.0
    return len(q & set(document)) / len(q)


def initials(tokens: list[str], size: int) -> dict[str, int]:
    """Acronyms of consecutive words ("heart rate" -> "hr") with their position."""
    out: dict[str, int] = {}
    for i in range(len(tokens) - size + 1):
        out.setdefault("".join(t[0] for t in tokens[i : i + size]), i)
    return out


def name_acronyms(tokens: list[str]) -> set[str]:
    """Short forms of a multi-word name: time_in_range -> tir, resting_hr -> rhr."""
    if len(tokens) < 2:
        return set()
    out = {"".join(t[0] for t in tokens)}
    if len(tokens[-1]) <= 3:
        out.add("".join(t[0] for t in tokens[:-1]) + tokens[-1])
    return out


def fold_accents(text: str) -> str:
    """Accents folded ("café" ~ "cafe"), every other character kept."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


CUE_WORDS = (
    "average",
    "total",
    "altogether",
    "highest",
    "longest",
    "shortest",
    "biggest",
    "smallest",
    "difference",
    "percentage",
    "between",
    "compared",
    "minimum",
    "maximum",
    "fortnight",
    "yesterday",
)
"""The words a question's form is read from, as people mistype them. Words
one edit from common words ("since" ~ "slice", "after" ~ "alter", "median" ~
"media", "lowest" ~ "slowest") are left out."""

_ENDINGS = frozenset({"s", "es", "d", "ed", "ing", "ly"})
_WORD_RE = re.compile(r"\b[^\W\d_]{5,}\b")


def respell_cues(text: str, known: Callable[[str], bool] | None = None) -> str:
    """Form words as people mistype them ("avarage", "diffrence") spelled right.

    A lower-case word of five letters or more one edit from one cue word - a
    letter dropped, added, changed, or two swapped - becomes the nearest,
    unless two are as near, one is a form of the other ("totals",
    "compare"), or ``known`` says the memory uses it as written. A
    capitalised word inside a sentence is a name ("Medina" is no "median"); a
    sentence's first word may be either.
    """

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        opening = not text[: m.start()].strip(" \t\n\"'") or bool(
            re.search(r"[.?!]\s*[\"']?\s*$", text[: m.start()])
        )
        if low in CUE_WORDS or (word[0].isupper() and not opening):
            return word
        if any(
            (low.startswith(c) and low[len(c) :] in _ENDINGS)
            or (c.startswith(low) and c[len(low) :] in _ENDINGS)
            for c in CUE_WORDS
        ):
            return word  # "totals", "averaged", "compare"
        close = sorted(
            (_edits(low, c), c) for c in CUE_WORDS if abs(len(c) - len(low)) <= 1
        )
        if not close or close[0][0] > 1 or (len(close) > 1 and close[1][0] == 1):
            return word
        if known is not None and known(low):
            return word
        return close[0][1]

    return _WORD_RE.sub(fix, text)


def _edits(a: str, b: str) -> int:
    """Edits from ``a`` to ``b``: insert, delete, change, swap of neighbours."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


_MORE_IRREGULAR = {
    "swum": "swim",
    "swam": "swim",
    "ridden": "ride",
    "rode": "ride",
    "driven": "drive",
    "drove": "drive",
    "eaten": "eat",
    "ate": "eat",
    "fed": "feed",
    "sold": "sell",
    "sale": "sell",
    "sales": "sell",
    "taught": "teach",
    "caught": "catch",
    "grew": "grow",
    "grown": "grow",
    "gave": "give",
    "given": "give",
    "broke": "break",
    "broken": "break",
    "fell": "fall",
}


def root(word: str) -> str:
    """A looser stem for telling whether two texts use one word.

    Verb and noun endings go ("cycled", "cycling" -> "cycl"; "jogged" ->
    "jog"), then the first five letters are kept ("meditate", "meditation"
    -> "medit"). Coarser than :func:`stem`: used to find a word in a body of
    text, never to name a column.
    """
    w = word.lower()
    w = _MORE_IRREGULAR.get(w) or IRREGULAR.get(w) or w
    if len(w) == 5 and w.endswith("ying"):
        return w[0] + "ie"  # "dying", "lying", "tying" -> "die", "lie", "tie"
    if len(w) == 4 and w.endswith("ied"):
        return w[:-1]  # "died" -> "die"
    if w.endswith("es") and not (
        w[-3:-2] in ("s", "x", "z") or w[-4:-2] in ("ch", "sh")
    ):
        w = w[:-1]  # "rides" -> "ride", "boxes" -> "box"
    for suffix in ("ings", "ing", "ied", "ies", "ed", "es", "s", "er"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)] + ("y" if suffix in ("ied", "ies") else "")
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w[:5]
