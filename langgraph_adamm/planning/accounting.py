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
from langgraph_adamm.analytic.values import AUXILIARY_COLUMNS
from langgraph_adamm.planning.anchors import find_anchors
from langgraph_adamm.planning.asked import (
    comparison_asked,
    dimension_asked,
    kind_asked,
    months_asked,
)
from langgraph_adamm.planning.cards import RecordWords
from langgraph_adamm.planning.context import PlanningContext, TableCard
from langgraph_adamm.planning.cues import names_in
from langgraph_adamm.planning.dates import NUMBER_WORDS, find_date_ranges
from langgraph_adamm.planning.intent import read_intent
from langgraph_adamm.planning.kind_words import RecordWordsOf, lifted
from langgraph_adamm.planning.matching import QuestionTokens, is_abbreviation
from langgraph_adamm.planning.question_words import (
    FORM_WORDS,
    MONEY,
    RATIO_WORDS,
    SPEND,
    is_scaffolding,
    main_verbs,
    participles,
)
from langgraph_adamm.planning.text import (
    STOPWORDS,
    name_acronyms,
    root,
    stem,
    without_possessive,
    words,
)
from langgraph_adamm.tools.names import COMPUTE, RANK

VERB_KIND_SHARE = 0.5
"""A main verb this share of another table's rounds hold, and none of the plan's,
tells that the question is about that table's records."""
GENERIC_VERBS = frozenset(
    "spend spent pay paid cost do did does done have had has get got make made "
    "go went put give gave take took log logged record recorded clock clocked "
    "manage managed fit use used".split()
)
"""Verbs any kind of record may be told with."""
SUBJECT_SHARE = 0.2
"""A word this share of a table's rounds hold is about the records as a whole."""
MEMORY_SUBJECT_SHARE = 0.08
"""A name this share of all the user's rounds hold (and at least
``MEMORY_SUBJECT_ROUNDS``) is whom the memory is about, though the records of
one table may not say it (a parent's glucose readings do not say "Dad")."""
MEMORY_SUBJECT_ROUNDS = 5
SYNONYM_FLOOR = 0.5
"""Word-vector cosine at which a question word names a table or a word of its
rounds."""
COLUMN_FLOOR = 0.4
"""The cosine at which a word names a column the plan reads ("place" for
``shop``), as the rule planner names a "which" column."""


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
                elif isinstance(v, int | float) and not isinstance(v, bool):
                    out.append(f"{v:g}")  # "games with 4 players": the 4 is used
    return out


def said_parts(q: str, now: datetime | date) -> tuple[list[tuple[str, str]], str]:
    """A (lower-cased) question's event anchors, date phrases and conditions.

    Each is read from what the ones before left: ``("event" | "period" |
    "condition", its words)`` in that order, and the question without them.
    """
    rest, parts = q, []
    for anchor in find_anchors(rest)[0]:
        parts.append(("event", anchor.text.strip()))
        rest = rest.replace(anchor.text.strip().lower(), " ")
    for dr in find_date_ranges(rest, now):
        parts.append(("period", dr.text))
        rest = rest.replace(dr.text.lower(), " ")
    for cond in read_intent(rest, now).conditions:
        parts.append(("condition", cond.text))
        # with the verb that links it to the records ("runs that covered")
        rest = re.sub(r"(?:\b[a-z]+\s+)?" + re.escape(cond.text), " ", rest)
    return parts, rest


def _strip_spans(q: str, now: datetime | date) -> str:
    """The question without its date phrases, event anchors and conditions."""
    rest = said_parts(q, now)[1]
    rest = re.sub(r"\b(?:so|by)\s+far\b", " ", rest)  # "so far": until now
    return re.sub(r"\bin\s+[a-z%$€£]+\s*[?.!]*$", " ", rest)  # "..., in km?"


_SPELLED = frozenset(NUMBER_WORDS) - {"a", "one"}


def _is_quantity(word: str) -> bool:
    """Whether a word left after the date, anchor and condition spans is a number.

    "4", "5+0" (read as "5" and "0"), "four": a quantity no slot used. "one"
    is left out ("which one").
    """
    return word.isdigit() or word in _SPELLED


def _initialisms(tokens: list[str], named: set[str]) -> set[str]:
    """Adjacent words whose initials name a column ("heart rate" for ``hr``)."""
    out: set[str] = set()
    for a, b in zip(tokens, tokens[1:], strict=False):
        if a[0] + b[0] in named:
            out.update((a, b))
    return out


def _values_held(
    context: PlanningContext, used_cols: dict[str, set[str]]
) -> dict[str, str]:
    """Word roots of the values of columns the plan does not read -> the column.

    "ballymun" -> ``hours_site_log.site``.
    """
    out: dict[str, str] = {}
    for card in context.table_cards:
        for col in card.columns:
            if col.name in used_cols.get(card.name, set()):
                continue
            for v in col.values:
                if len(v.split()) > 4:
                    continue  # a description ("collection run from Tesco ...")
                for w in words(v):
                    if len(w) > 2 and w not in STOPWORDS:
                        out.setdefault(root(w), f"{card.name}.{col.name}")
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
            named |= RATIO_WORDS  # "pace (minutes per km)": a ratio of columns
        if "%" in units:
            named |= FORM_WORDS  # "body fat percentage": the column's own unit
        if units & CURRENCIES:
            named |= MONEY
        if any(dimension(u) == "[time]" for u in units if u not in CURRENCIES):
            named |= SPEND
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
        # "garage bills", "takings per market": a column's word naming the
        # records, not asking for the column
        modifiers = {
            a
            for a, b in zip(tokens, tokens[1:], strict=False)
            if not is_scaffolding(b) and b not in STOPWORDS
        } | {
            # "takings per market"; "how much milk": the kind the amount is of
            b
            for a, b in zip(tokens, tokens[1:], strict=False)
            if a in ("per", "much")
        }
        # "the first beer I bottled", "the priciest job": where the plan reads
        # the first (last, highest) record, the word names it, not a column
        ops = {(d.get("arguments") or {}).get("operator") for d in drafts}
        texts = {  # a text column's word after "priciest" names the record
            stem(w)
            for card in cards
            for col in card.columns
            if col.sql_type == "VARCHAR"
            for w in words(col.name)
        }
        records_named = {
            b
            for a, b in zip(tokens, tokens[1:], strict=False)
            if (
                ops & {"first", "last"} and a in ("first", "last", "latest", "earliest")
            )
            or (ops & {"max", "min"} and a.endswith("est") and stem(b) in texts)
        }
        verbs = main_verbs(rest)
        skip = verbs | _initialisms(tokens, named) | participles(tokens, named)
        for word in dict.fromkeys(tokens):
            s = stem(word)
            if word in skip:
                continue
            if _is_quantity(word) and s not in named:
                left.append(word)  # "5+0", "four": a number no slot took
                continue
            if s in named or is_scaffolding(word) and s not in FORM_WORDS:
                continue
            if s in FORM_WORDS:
                left.append(word)
                continue
            if any(is_abbreviation(s, n) or is_abbreviation(n, s) for n in named):
                continue
            if s in unused and word in records_named:
                about.add(root(word))
                continue
            if s in unused and word == s and word not in modifiers:
                left.append(word)  # a column the plan does not read
                continue
            if s in unused:
                continue  # in the plural it names the records ("ingredients")
            if any(v.share(word) >= SUBJECT_SHARE for v in vocab) or (
                self._names_the_kind(word, vocab)
            ):
                about.add(root(word))
                continue
            left.append(word)
        left = self._synonyms_named(left, cards, used_cols, vocab, context)
        subjects: list[str] = []
        reported_names: list[str] = []
        valued = _values_held(context, used_cols)
        # words an event step searched for ("after Ballymun reopened")
        evented = {
            w
            for d in drafts
            for w in words(str((d.get("arguments") or {}).get("query_content") or ""))
        }
        for name in names_in(question):
            parts = [w for w in words(name) if len(w) > 1]  # "Dad's": "dad"
            if parts and all(w in evented for w in parts):
                continue  # the event's, which its step used
            held = next((valued[root(w)] for w in parts if root(w) in valued), None)
            if parts and all(stem(w) in named for w in parts):
                continue  # a value the plan filters on ("Top Oil"), a column ("OG")
            if parts and held is not None:
                # "Ballymun" is a site of the shifts table, not whose parcels
                # these are: a condition the plan could not apply
                reported_names.append(
                    f"'{name}' (a value of {held}, which the plan does not read)"
                )
                left = [w for w in left if w not in parts]
                continue
            if parts and all(root(w) in about for w in parts):
                subjects.append(without_possessive(name))
            elif parts and self._memory_subject(parts, context):
                subjects.append(without_possessive(name))
                left = [w for w in left if w not in parts]
        reported = reported_names + self._reported(left, vocab, cards, unused)
        reported += kind_asked(q, drafts, answer_form)
        reported += comparison_asked(q, drafts)
        reported += dimension_asked(
            rest, drafts, cards, read_intent(q, now).output_unit
        )
        said = " ".join(reported).lower()
        reported += [
            m
            for m in months_asked(question, drafts)
            if m.split("'")[1].lower() not in said
        ]
        reported += self._verbs_of_another_kind(verbs, vocab, context, used_cols)
        return Accounting(tuple(subjects), tuple(reported))

    def _verbs_of_another_kind(
        self,
        verbs: set[str],
        vocab: list[RecordWords],
        context: PlanningContext,
        used_cols: dict[str, set[str]],
    ) -> list[str]:
        """Main verbs that another table's records say and the plan's never do.

        "The first beer I brewed": the bottlings (``beer``) never say
        "brewed", the brew days mostly do; a plan over the bottlings answers
        another question. A verb none of the plan's rounds hold while at least
        :data:`VERB_KIND_SHARE` of another table's do tells the kind; verbs
        any record may be told with ("spend", "do") tell nothing.
        """
        out = []
        for verb in sorted(verbs - GENERIC_VERBS):
            other = self._saying(verb, vocab, context, used_cols, VERB_KIND_SHARE)
            if other is not None:
                out.append(
                    f"'{verb}' (the records of {other} say it, those the plan "
                    "reads never do)"
                )
        return out

    def _names_the_kind(self, word: str, vocab: list[RecordWords]) -> bool:
        """Whether a table's rounds hold a word far more than the memory does.

        :func:`.kind_words.lifted`: a word that names the records.
        """
        return lifted(word, vocab, self._words(None))

    def _memory_subject(self, parts: list[str], context: PlanningContext) -> bool:
        """Whether a name is one the whole memory talks about, and no value."""
        memory = self._words(None)
        if memory is None or not memory.rounds:
            return False
        floor = max(MEMORY_SUBJECT_ROUNDS, MEMORY_SUBJECT_SHARE * memory.rounds)
        if any(memory.counts.get(root(w), 0) < floor for w in parts):
            return False
        values = {
            root(w)
            for card in context.table_cards
            for col in card.columns
            for v in col.values
            for w in words(v)
        }
        return not any(root(w) in values for w in parts)

    def _unused_columns(
        self, cards: list[TableCard], used_cols: dict[str, set[str]]
    ) -> dict[str, str]:
        """Stems of the words of columns the plan does not read -> the column.

        Words that also name a column the plan reads, and scaffolding words,
        are left out ("distance" of ``distance_km`` when ``distance_goal`` is
        read).
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
                # "time control", a label the column ``tc`` was written with
                for w in [w for text in (col.name, *col.labels) for w in words(text)]:
                    s = stem(w)
                    if len(w) > 2 and s not in used and not is_scaffolding(w):
                        out.setdefault(s, f"{card.name}.{col.name}")
        return out

    def _words(self, table: str | None) -> RecordWords | None:
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
                for label in col.labels:  # "time control", written for tc
                    out.update(stem(w) for w in words(label))
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
        context: PlanningContext,
    ) -> list[str]:
        """The words left after those naming the records by a synonym.

        A synonym of the table's name, of a column the plan reads (not
        ``time``: "heart" is no word for the period's column), or of a word
        most of the table's rounds hold ("jogged" ~ "run"). A word another
        table's records say and the plan's never do names that kind, not a
        loose synonym of the plan's column.
        """
        if not left or self.synonyms is None:
            return left
        columns = [
            col
            for card in cards
            for col in sorted(used_cols.get(card.name, set()) - set(AUXILIARY_COLUMNS))
        ]
        names = [c.name for c in cards] + columns
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
        kept = []
        for word in left:
            q = QuestionTokens.of(word)
            if self.synonyms(q, names, SYNONYM_FLOOR):
                continue
            if self.synonyms(q, columns, COLUMN_FLOOR) and (
                self._saying(word, vocab, context, used_cols, SUBJECT_SHARE) is None
            ):
                continue
            kept.append(word)
        return kept

    def _saying(
        self,
        word: str,
        vocab: list[RecordWords],
        context: PlanningContext,
        used_cols: dict[str, set[str]],
        floor: float,
    ) -> str | None:
        """Another table whose rounds (floor of them) say what the plan's never do."""
        if not vocab or any(v.share(word) > 0 for v in vocab):
            return None
        for card in context.table_cards:
            theirs = None if card.name in used_cols else self._words(card.name)
            if theirs is not None and theirs.share(word) >= floor:
                return card.name
        return None

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
            if _is_quantity(word):
                out.append(f"'{word}' (a number no step of the plan uses)")
                continue
            if stem(word) in unused:
                out.append(
                    f"'{word}' (the column {unused[stem(word)]}, which no step reads)"
                )
                continue
            if stem(word) in FORM_WORDS:
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
