"""Every word of a question accounted for, after the plan is made.

A plan uses some of a question's words: its period, its event anchors, its
value conditions, the operator and comparison words, the table, the columns
and the values it filters on. Every other word is either question scaffolding
(question words, the asker's pronouns, politeness, "in km"), about the records
as a whole, or a part of the question the plan left out. This module sorts
the words that are left into those three:

- **About the records.** A word most of the table's rounds hold too is what
  the records are about: the name of the dog the walks are logged for, the
  verb the rides are told with. A name read so is the records' *subject*, and
  the answer says so ("read 'Biscuit' as whose records these are").
- **Left out.** A content word that names no part of the plan and that few or
  none of the table's rounds hold - a measure never recorded ("blood
  oxygen"), a value no row holds ("oat milk"), a person the records are not
  about - is reported in ``unresolved``: the figure is not stated as fact.

A word counts as named by the plan when it names the table, a column the plan
reads (its words, abbreviations, or a close synonym by the word vectors the
planner already uses) or a value it filters on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from langgraph_adamm.analytic.units import CURRENCIES, dimension
from langgraph_adamm.planning.anchors import find_anchors
from langgraph_adamm.planning.cards import RecordWords
from langgraph_adamm.planning.context import PlanningContext, TableCard
from langgraph_adamm.planning.cues import OPERATOR_STEMS, names_in
from langgraph_adamm.planning.dates import MONTHS, find_date_ranges
from langgraph_adamm.planning.intent import read_intent, unit_of
from langgraph_adamm.planning.matching import QuestionTokens, is_abbreviation
from langgraph_adamm.planning.text import (
    STOPWORDS,
    name_acronyms,
    root,
    stem,
    words,
)
from langgraph_adamm.tools.names import COMPUTE, RANK

RecordWordsOf = Callable[[str], RecordWords | None]

SUBJECT_SHARE = 0.2
"""A word this share of a table's rounds hold is about the records as a whole."""
SYNONYM_FLOOR = 0.5
"""Word-vector cosine at which a question word names a table or a word of its
rounds."""
COLUMN_FLOOR = 0.4
"""The cosine at which a word names a column the plan reads ("place" for
``shop``), as the rule planner names a "which" column."""

SCAFFOLDING = frozenset(
    stem(w)
    for w in """
    i i'm i've i'd me my mine myself we we've us our ours ourselves you your
    he him his she her they them their it its
    what which who whom whose when where why how whats what's
    is are was were be been being am do does did done doing have has had
    will would shall should can could may might must
    please thanks thank tell say know remind show give let figure find work
    out check look see wonder wondering curious want like need
    roughly approximately about around exactly just only even also still yet
    really actually pretty quite so very ever never altogether overall
    the a an of in on at to for from by with as into onto over under and or but
    than then that this these those there here if not no yes any some all
    each every both either neither one ones thing things stuff lot lots bit
    go went gone going get got getting make made take took taken put
    keep kept log logged logging record recorded track tracked note noted
    entry entries time times
    so far up down off back
    im ive id dont didnt wasnt werent isnt arent haven't didn't don't wasn't
    okay ok hey hi hello ve ll re
    reading readings level levels session sessions bill bills purchase purchases
    order orders visit visits trip trips workout workouts value values score
    scores figure figures stat stats reading result results
    through something anything single whole given give put pick picked rack
    racked clock clocked manage managed into use used using fill fills refill
    sitting sittings outing outings
    """.split()
)
"""Words that ask, never what is asked about."""

_WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed "
    "thu thurs fri sat sun weekday weekdays weekend weekends".split()
)
_CALENDAR = frozenset(
    stem(w)
    for w in "day days night nights week weeks month months year years today "
    "yesterday tonight morning evening afternoon date dates period stretch "
    "fortnight daily weekly monthly".split()
)
_COMPARE = frozenset(
    stem(w)
    for w in """
    more less fewer higher lower longer shorter bigger smaller faster slower
    heavier lighter better worse further farther cheaper pricier greater
    most least highest lowest biggest largest max maximum top greatest
    longest heaviest furthest farthest best priciest smallest fewest min
    minimum shortest lightest worst cheapest fastest slowest peak record
    compare compared comparison versus vs difference differ between
    change changed increase increased decrease decreased drop dropped rise
    rose up down went gone improve improved
    per each every average avg mean median typical typically usual usually
    normally generally total sum count number amount altogether combined
    overall cumulative much many often frequent frequently times
    first last latest earliest recent recently previous next current
    common popular frequent usual kind kinds type types sort sorts
    since after before until till during across within between around
    than same
    """.split()
)
"""How a question compares, aggregates, orders or bounds: read by the forms."""
_COMPARE_ROOTS = frozenset(root(w) for w in _COMPARE if len(w) > 4)
_MONEY = frozenset(
    stem(w)
    for w in "spend spent spending pay paid cost costs money expense expenses "
    "expensive cheap price prices bought buy buying".split()
)
"""Words a currency column answers."""
_RATIO_WORDS = frozenset({"pace", "speed", "rate", "ratio", "efficiency"})
"""What a ratio of two columns is called."""
_SPEND = frozenset({"spend", "spent", "spending"})
"""Spent time: a duration column answers it too."""
_FORM_WORDS = frozenset(
    stem(w) for w in "share percent percentage proportion fraction ratio".split()
)
"""Words only a form that computes them uses: a plan without it leaves them out."""


@dataclass(frozen=True)
class Accounting:
    """What the words left after planning turned out to be."""

    subjects: tuple[str, ...]
    """Names read as whom the records are about."""
    left_out: tuple[str, ...]
    """Content words no part of the plan used, as ``unresolved`` entries."""


def _used_columns(drafts: Iterable[dict[str, Any]]) -> dict[str, set[str]]:
    """Per table, the columns the plan's analytic steps read."""
    used: dict[str, set[str]] = {}
    for d in drafts:
        if d.get("tool") not in (COMPUTE, RANK):
            continue
        args = d.get("arguments") or {}
        table = args.get("table")
        if not isinstance(table, str):
            continue
        cols = used.setdefault(table, set())
        target = args.get("target_column_expression")
        if isinstance(target, str):
            cols.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", target))
        for f in args.get("optional_column_filters") or []:
            if isinstance(f, dict) and isinstance(f.get("column"), str):
                cols.add(f["column"])
        for key in ("group_by", "answer_column"):
            if isinstance(args.get(key), str):
                cols.add(args[key])
    return used


def _filter_values(drafts: Iterable[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for d in drafts:
        for f in (d.get("arguments") or {}).get("optional_column_filters") or []:
            if not isinstance(f, dict) or f.get("column") == "time":
                continue
            value = f.get("value")
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str):
                    out.append(v)
    return out


def _strip_spans(q: str, now: datetime | date) -> str:
    """The question without its date phrases, event anchors and conditions."""
    rest = q
    anchors, _ = find_anchors(rest)
    for anchor in anchors:
        rest = rest.replace(anchor.text.strip().lower(), " ")
    for dr in find_date_ranges(rest, now):
        rest = rest.replace(dr.text.lower(), " ")
    for cond in read_intent(rest, now).conditions:
        # with the verb that links it to the records ("runs that covered")
        rest = re.sub(r"(?:\b[a-z]+\s+)?" + re.escape(cond.text), " ", rest)
    return re.sub(r"\bin\s+[a-z%$€£]+\s*[?.!]*$", " ", rest)  # "..., in km?"


_SHORT_STOPWORDS = {"".join(sorted(w)): w for w in STOPWORDS if 3 <= len(w) <= 5}


def _is_scaffolding(word: str) -> bool:
    s = stem(word)
    return (
        word in STOPWORDS
        or "".join(sorted(word)) in _SHORT_STOPWORDS  # "teh", "adn"
        or s in SCAFFOLDING
        or s in OPERATOR_STEMS
        or s in _COMPARE
        or root(word) in _COMPARE_ROOTS
        or s in _CALENDAR
        or word in MONTHS
        or word in _WEEKDAYS
        or any(ch.isdigit() for ch in word)
        or len(word) < 2
        or unit_of(word) is not None
    )


_MAIN_VERB_RE = re.compile(
    r"\b(?:(?:did|do|does|have|has|had|will|would|can|could)\s+(?:i|we|you|they|"
    r"he|she)|i|we|i've|we've|i'd|we'd)\s+(?:[a-z]+ly\s+)?([a-z]+)"
    r"|\b(?:which|what)\s+[a-z]+\s+([a-z]+(?:s|ed))\b"
)


def _main_verbs(text: str) -> set[str]:
    """The question's main verbs: what the asker did, read by the table chosen.

    "How many loaves did I shift", "which market brings in the most": the
    verb tells how the records were made, not which of them count.
    """
    out = set()
    for m in _MAIN_VERB_RE.finditer(text):
        verb = m.group(1) or m.group(2)
        if verb and verb not in STOPWORDS:
            out.add(verb)
    return out


_PARTICIPLES = frozenset(
    "sold bought made done run ridden driven eaten drunk swum taken given spent "
    "paid read written won lost grown picked caught kept".split()
)


def _participles(tokens: list[str], named: set[str]) -> set[str]:
    """A participle after a word of the plan ("loaves sold", "km driven")."""
    return {
        b
        for a, b in zip(tokens, tokens[1:], strict=False)
        if stem(a) in named and (b in _PARTICIPLES or b.endswith("ed"))
    }


def _initialisms(tokens: list[str], named: set[str]) -> set[str]:
    """Adjacent words whose initials name a column ("heart rate" for ``hr``)."""
    out: set[str] = set()
    for a, b in zip(tokens, tokens[1:], strict=False):
        if a[0] + b[0] in named:
            out.update((a, b))
    return out


_ASKS_TEXT_RE = re.compile(
    r"^(?:where|who|whom)\b|\b(?:where|who)\s+(?:did|do|does|have|has|was|is|were)\b"
    r"|\b(?:which|what)\s+(?!(?:was|is|were|are|did|do|does|has|have|had|i|we|my|"
    r"the|kind|type|sort|time|day|date|days|week|weeks|month|months|year|night|"
    r"weekday|percent|percentage|share|proportion|fraction)\b)[a-z]+\s+"
    r"(?:did|do|does|have|has|had|was|is|were|gets?|got|brings?|costs?)\b"
)
"""A question that asks for a name, a place or a kind ("where did I", "which
cafe do I"), not a number."""


def _kind_asked(q: str, drafts: list[dict[str, Any]], answer_form: str) -> list[str]:
    """A question asking for a name answered with a number is not answered."""
    if answer_form != "value":
        return []
    last = next((d for d in reversed(drafts) if d.get("tool") in (COMPUTE, RANK)), None)
    if last is None or (last.get("arguments") or {}).get("group_by"):
        return []
    m = _ASKS_TEXT_RE.search(q)
    if m is None:
        return []
    return [f"'{m.group(0).strip()}' (asks for a name, not the number the plan gives)"]


_DIMENSION_WORDS: dict[str, str] = {
    **dict.fromkeys(
        "weight weigh weighed weighs heavy heavier heaviest kilos".split(), "[mass]"
    ),
    **dict.fromkeys(
        "distance far further farther furthest kilometres kilometers miles".split(),
        "[length]",
    ),
    **dict.fromkeys("duration minutes hours".split(), "[time]"),
    **dict.fromkeys("temperature warmest coldest hottest".split(), "[temperature]"),
}
"""Words that name what kind of quantity is asked."""


def _dimension_asked(
    rest: str, drafts: list[dict[str, Any]], cards: list[TableCard]
) -> list[str]:
    """A quantity asked of one kind ("weight") answered by a column of another."""
    out: list[str] = []
    for d in drafts:
        args = d.get("arguments") or {}
        target = args.get("target_column_expression")
        if d.get("tool") not in (COMPUTE, RANK) or args.get("operator") == "count":
            continue
        card = next((c for c in cards if c.name == args.get("table")), None)
        col = (
            card.column(target)
            if card is not None and isinstance(target, str)
            else None
        )
        if col is None:
            continue
        have: str | None = None
        if col.unit in CURRENCIES:
            have = "[currency]"
        elif col.unit:
            try:
                have = dimension(col.unit)
            except Exception:  # a unit pint does not know: nothing to compare
                continue
        for word in words(rest):
            want = _DIMENSION_WORDS.get(word)
            if want is not None and want != have:
                what = f"{col.unit}" if col.unit else "no unit"
                out.append(
                    f"'{word}' (asks for a {want.strip('[]')}; {col.name} is in {what})"
                )
                break
    return out


class WordAccount:
    """Sorts a planned question's leftover words.

    Args:
        record_words: A table's source-round words by table name (None: the
            memory cannot tell, and only the plan's own words count).
        synonyms: ``(word, names, floor) -> {name: cosine}`` by the planner's
            word vectors (None: lexical only).
    """

    def __init__(
        self,
        record_words: RecordWordsOf | None,
        synonyms: Callable[[QuestionTokens, list[str], float], dict[str, float]]
        | None = None,
    ) -> None:
        self.record_words = record_words
        self.synonyms = synonyms

    def account(
        self,
        question: str,
        drafts: list[dict[str, Any]],
        now: datetime | date,
        context: PlanningContext,
        form_words: Iterable[str] = (),
        answer_form: str = "value",
    ) -> Accounting:
        """The subjects and left-out words of a question planned as ``drafts``.

        ``form_words``: words the plan's form used beyond its columns ("share"
        for a share of a total). ``answer_form``: what the plan answers with
        (a value, a date, a column's text, a group).
        """
        used_cols = _used_columns(drafts)
        cards = [c for c in (context.table(t) for t in used_cols) if c is not None]
        if not cards:
            return Accounting((), ())
        named = self._plan_stems(cards, used_cols, _filter_values(drafts))
        named |= {stem(w) for w in form_words}
        units = {
            col.unit
            for card in cards
            for col in card.columns
            if col.unit and col.name in used_cols.get(card.name, set())
        }
        if any(
            "/" in str((d.get("arguments") or {}).get("target_column_expression"))
            for d in drafts
        ):
            named |= _RATIO_WORDS  # "pace (minutes per km)": a ratio of columns
        if "%" in units:
            named |= _FORM_WORDS  # "body fat percentage": the column's own unit
        if units & CURRENCIES:
            named |= _MONEY
        if any(dimension(u) == "[time]" for u in units if u not in CURRENCIES):
            named |= _SPEND
        vocab = [
            w
            for w in (self._words(c.name) for c in cards)
            if w is not None and w.rounds
        ]
        q = " ".join(question.lower().split())
        rest = _strip_spans(q, now)
        left: list[str] = []
        about: set[str] = set()
        unused = self._unused_columns(cards, used_cols)
        tokens = words(rest)
        skip = (
            _main_verbs(rest)
            | _initialisms(tokens, named)
            | _participles(tokens, named)
        )
        for word in dict.fromkeys(tokens):
            s = stem(word)
            if word in skip:
                continue
            if s in named or _is_scaffolding(word) and s not in _FORM_WORDS:
                continue
            if s in _FORM_WORDS:
                left.append(word)
                continue
            if any(is_abbreviation(s, n) or is_abbreviation(n, s) for n in named):
                continue
            if s in unused and word == s:
                left.append(word)  # a column the plan does not read
                continue
            if s in unused:
                continue  # in the plural it names the records ("ingredients")
            if any(v.share(word) >= SUBJECT_SHARE for v in vocab):
                about.add(root(word))
                continue
            left.append(word)
        left = self._synonyms_named(left, cards, used_cols, vocab)
        subjects = tuple(
            name
            for name in names_in(question)
            if all(root(w) in about for w in words(name))
        )
        reported = self._reported(left, vocab, cards, unused)
        reported += _kind_asked(q, drafts, answer_form)
        reported += _dimension_asked(rest, drafts, cards)
        return Accounting(subjects, tuple(reported))

    def _unused_columns(
        self, cards: list[TableCard], used_cols: dict[str, set[str]]
    ) -> dict[str, str]:
        """Stems of the words of columns the plan does not read -> the column.

        Words that also name a column the plan reads, the table, or an
        aggregate are left out ("distance" of ``distance_km`` and of
        ``distance_goal``).
        """
        used = {
            stem(w)
            for card in cards
            for c in used_cols.get(card.name, ())
            for w in words(c)
        }
        out: dict[str, str] = {}
        for card in cards:
            for col in card.columns:
                if col.name in used_cols.get(card.name, set()) or col.name in (
                    "time",
                    "source",
                ):
                    continue
                for w in words(col.name):
                    s = stem(w)
                    if len(w) > 2 and s not in used and not _is_scaffolding(w):
                        out.setdefault(s, f"{card.name}.{col.name}")
        return out

    def _words(self, table: str) -> RecordWords | None:
        return self.record_words(table) if self.record_words is not None else None

    def _plan_stems(
        self,
        cards: list[TableCard],
        used_cols: dict[str, set[str]],
        values: list[str],
    ) -> set[str]:
        """Stems of what the plan names: its tables, columns and values."""
        out: set[str] = set()
        for card in cards:
            # a table is named after its columns: the words of one no step
            # reads ("style" of length_style_log) name no part of the plan
            unread = {
                stem(w)
                for col in card.columns
                if col.name not in used_cols.get(card.name, set())
                for w in words(col.name)
            }
            out.update(stem(w) for w in words(card.name) if stem(w) not in unread)
            for col in card.columns:
                if col.name not in used_cols.get(card.name, set()):
                    continue
                tokens = words(col.name)
                out.update(stem(w) for w in tokens)
                out.update(name_acronyms(tokens))
                if col.unit:
                    out.update(stem(w) for w in words(col.unit))
        for v in values:
            out.update(stem(w) for w in words(v))
        return out

    def _synonyms_named(
        self,
        left: list[str],
        cards: list[TableCard],
        used_cols: dict[str, set[str]],
        vocab: list[RecordWords],
    ) -> list[str]:
        """The words left after those naming the records by a synonym.

        A synonym of the table's name, of a column the plan reads, or of a
        word most of the table's rounds hold ("jogged" ~ "run").
        """
        if not left or self.synonyms is None:
            return left
        names = [c.name for c in cards] + [
            col for card in cards for col in sorted(used_cols.get(card.name, ()))
        ]
        # a column the plan does not read, or a value of one, is a condition
        # the plan did not apply: its synonyms ("beach" ~ "riverside") stay
        other = {
            root(w)
            for card in cards
            for col in card.columns
            if col.name not in used_cols.get(card.name, set())
            for text in (col.name, *col.values)
            for w in words(text)
        }
        names += [
            w
            for v in vocab
            for w in v.common(SUBJECT_SHARE)
            if w.isalpha()
            and len(w) > 2
            and w not in STOPWORDS
            and root(w) not in other
        ]
        columns = [
            col for card in cards for col in sorted(used_cols.get(card.name, ()))
        ]
        kept = []
        for word in left:
            q = QuestionTokens.of(word)
            if not self.synonyms(q, names, SYNONYM_FLOOR) and not self.synonyms(
                q, columns, COLUMN_FLOOR
            ):
                kept.append(word)
        return kept

    def _reported(
        self,
        left: list[str],
        vocab: list[RecordWords],
        cards: list[TableCard],
        unused: dict[str, str],
    ) -> list[str]:
        out = []
        tables = " and ".join(c.name for c in cards)
        for word in left:
            if stem(word) in unused:
                out.append(
                    f"'{word}' (the column {unused[stem(word)]}, which no step reads)"
                )
                continue
            if stem(word) in _FORM_WORDS:
                out.append(f"'{word}' (no step of the plan computes it)")
                continue
            seen = max((v.counts.get(root(word), 0) for v in vocab), default=0)
            rounds = max((v.rounds for v in vocab), default=0)
            if seen:
                out.append(
                    f"'{word}' (in {seen} of the {rounds} rounds of {tables}, "
                    "but no column holds it)"
                )
            else:
                out.append(f"'{word}' (no record of {tables} mentions it)")
        return out


__all__ = ["Accounting", "RecordWordsOf", "SUBJECT_SHARE", "WordAccount"]
