"""Kinds by meaning: one attribute name for what layouts label many ways.

People and apps name one attribute of one kind of record many ways: ``FG`` and
``Final gravity``, ``Rating`` and ``Rating after``, ``Batch: 21 L`` beside a
CSV's ``litres``, ``Time: 6 h`` beside ``Brew day: 5.5 hrs``. AdaMM's schema
induction counts attribute *names*, so each layout becomes a pattern of its own,
none reaches support, and the kind forks into several tables or none.

Here two attribute names are read as one when all of these hold:

* they are never stated in one record (two names stated side by side are two
  attributes, whatever their values);
* their values are of one class: text, a date, or numbers of one dimension
  (a unitless number only where the two value ranges overlap);
* something ties them beyond their values: the name (``fg`` is the initials of
  ``final_gravity``; ``rating`` is contained in ``rating_after``; ``item`` and
  ``items``, where the two also share a companion attribute: a game's
  ``score`` is no night's ``sleep_score``), or the layouts they stand in (two
  layouts sharing an attribute whose other attributes pair up one to one by
  value class, see :func:`_layout_pairs`: two kinds that share only a
  ``distance`` stay two kinds);
* each stands in at least two records.

Names are joined transitively only while no two members of the group are ever
stated in one record. The group takes the name most records use; each record's
observation keeps the label it was written with (``raw_attribute``).

:func:`aliases` decides on the observations alone; :mod:`.realign` applies
the names to stored rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from langgraph_adamm.analytic.extraction.base import Observation
from langgraph_adamm.analytic.units import (
    convert_units,
    convertible,
    counting_noun,
    dimension,
    spelled_unit,
)

LAYOUT_COVER = 0.75
"""Share of the smaller layout's attributes two layouts of one kind share or pair."""
_TIE_RECORDS = 2
"""A name is tied to another only when it stands in at least this many records."""
_PASSES = 3
"""Context ties are read again with the names joined so far (a fixpoint, bounded)."""


@dataclass
class AttributeProfile:
    """What the records say about one attribute name."""

    name: str
    records: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    low: float | None = None
    high: float | None = None
    unit: str | None = None
    """The unit of ``low`` and ``high`` (the first unit its values gave)."""
    with_: Counter[str] = field(default_factory=Counter)
    """The other attribute names stated in its records, with how often."""
    texts: Counter[str] = field(default_factory=Counter)
    """Its text values, lower-cased, with how often."""

    @property
    def value_class(self) -> str:
        """``text``, ``date``, ``bool`` or ``num:<dimension>`` (the most common)."""
        return self.classes.most_common(1)[0][0] if self.classes else "text"

    def add_number(self, number: float, unit: str | None) -> None:
        """Widen the value range to hold ``number`` (in ``unit``)."""
        if self.unit is None and self.low is None:
            self.unit = unit
        elif unit != self.unit:
            if not convertible(unit, self.unit):
                return
            number = convert_units(number, unit, self.unit)
        self.low = number if self.low is None else min(self.low, number)
        self.high = number if self.high is None else max(self.high, number)


def _unit_of(obs: Observation) -> str | None:
    """The value's unit, or the unit the attribute's name is (``litres: 23``).

    A noun that counts (``2 fr``, ``4 frames``: no unit pint knows, so a
    dimension of its own) is no unit here: one layout's ``Brood: 2 fr`` and
    another's ``brood_frames: 4`` count the same things.
    """
    unit = obs.value.unit
    if unit is not None:
        return None if counting_noun(unit) else unit
    words = obs.attribute.split("_")
    for word in (words[-1], words[0]):
        unit = spelled_unit(word)
        if unit is not None:
            return unit
    return None


def value_class(obs: Observation) -> str:
    """The class of one observed value (see :attr:`AttributeProfile.value_class`)."""
    value = obs.value
    if value.kind == "timestamp":
        return "date"
    if value.kind == "boolean":
        return "bool"
    if value.number is not None and value.kind in ("integer", "number", "clock"):
        if value.kind == "clock":
            return "num:clock"
        return f"num:{dimension(_unit_of(obs)) or ''}"
    return "text"


def profiles(
    records: Iterable[Mapping[str, Observation]],
) -> dict[str, AttributeProfile]:
    """Per attribute name: its records, value classes, numeric range, companions."""
    out: dict[str, AttributeProfile] = {}
    for record in records:
        names = list(record)
        for name, obs in record.items():
            source = obs.provenance.source
            prof = out.setdefault(name, AttributeProfile(name))
            prof.records += 1
            prof.classes[value_class(obs)] += 1
            if obs.value.kind == "text" and obs.value.text:
                prof.texts[obs.value.text.strip().lower()] += 1
            if obs.value.number is not None:
                prof.add_number(float(obs.value.number), _unit_of(obs))
            for other in names:
                # An assistant's echo ("Logged - Clover, 4 frames.") restates
                # the user's values under names of its own: no name the user
                # stated stands beside one only the assistant did.
                echo = (source == "assistant") != (
                    record[other].provenance.source == "assistant"
                )
                if other != name and not echo:
                    prof.with_[other] += 1
    return out


def _words(name: str) -> list[str]:
    return [
        w[:-1] if len(w) > 3 and w.endswith("s") else w for w in name.split("_") if w
    ]


def name_tie(a: str, b: str) -> bool:
    """Whether the names say one attribute (initials, containment, plural)."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return False
    if wa == wb:
        return True
    for short, long_ in ((wa, wb), (wb, wa)):
        if (
            len(short) == 1
            and len(long_) >= 2
            and len(short[0]) == len(long_)
            and short[0] == "".join(w[0] for w in long_)
        ):
            return True
    sa, sb = set(wa), set(wb)
    small, big = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
    return small < big and all(len(w) >= 3 for w in small)


def _ranges_overlap(a: AttributeProfile, b: AttributeProfile) -> bool:
    if a.low is None or b.low is None or a.high is None or b.high is None:
        return False
    low, high = b.low, b.high
    if a.unit != b.unit:
        if not convertible(b.unit, a.unit):
            return False
        low, high = (convert_units(x, b.unit, a.unit) for x in (low, high))
    return a.low <= high and low <= a.high


def _same_class(a: AttributeProfile, b: AttributeProfile) -> bool:
    ca, cb = a.value_class, b.value_class
    if ca != cb:
        return False
    if ca == "num:":  # unitless numbers: only where the values overlap
        return _ranges_overlap(a, b)
    return True


def aliases(records: Sequence[Mapping[str, Observation]]) -> dict[str, str]:
    """Attribute name -> the name of its group, for names that join a group.

    Names that stay alone are not in the result. Two ties join names: the
    name's own (:func:`name_tie`) and the layouts' (:func:`_layout_pairs`).
    """
    found = profiles(records)
    # A name that is another attribute's value ("Cabra | 4 h" read as
    # cabra=4 h) is a value in a label's place, never an attribute to join.
    values = {
        "_".join(v.replace("-", " ").split())
        for prof in found.values()
        for v in prof.texts
    }
    root = {name: name for name in found}
    groups: dict[str, set[str]] = {name: {name} for name in found}

    def usable(a: str, b: str) -> bool:
        return (
            root[a] != root[b]
            and _same_class(found[a], found[b])
            and min(found[a].records, found[b].records) >= _TIE_RECORDS
            and a not in values
            and b not in values
            and all(
                found[x].with_[y] == 0 for x in groups[root[a]] for y in groups[root[b]]
            )
        )

    def join(a: str, b: str) -> None:
        ra, rb = root[a], root[b]
        for m in groups[rb]:
            root[m] = ra
        groups[ra] |= groups.pop(rb)

    by_class: dict[str, list[str]] = {}
    for name in sorted(found, key=lambda n: (-found[n].records, n)):
        by_class.setdefault(found[name].value_class, []).append(name)
    for names in by_class.values():
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                # "score" is in "sleep_score", but a game's score is not a
                # night's: the names must also share a companion
                shared = set(found[a].with_) & set(found[b].with_)
                if name_tie(a, b) and shared and usable(a, b):
                    join(a, b)
    for _ in range(_PASSES):
        pairs = [(a, b) for a, b in _layout_pairs(records, root) if usable(a, b)]
        for a, b in pairs:
            if usable(a, b):
                join(a, b)
        if not pairs:
            break
    out: dict[str, str] = {}
    for ms in groups.values():
        if len(ms) < 2:
            continue
        name = min(
            ms, key=lambda n: (-found[n].records, -len(found[n].with_), len(n), n)
        )
        for m in ms:
            if m != name:
                out[m] = name
    return out


def _layout_pairs(
    records: Sequence[Mapping[str, Observation]], root: Mapping[str, str]
) -> list[tuple[str, str]]:
    """Attribute pairs two layouts of one kind label differently.

    Two layouts (the attribute sets of records) are one kind when they share
    an attribute, every number they share has overlapping values (a swim's
    distance in metres is not a run's in kilometres), and the attributes only
    one of them has pair up one to one by value class (one text, one money,
    one duration each) with overlapping values for numbers, so that at least
    :data:`LAYOUT_COVER` of the smaller layout's attributes are shared or
    paired, and three at least.
    """
    layouts: dict[frozenset[str], list[Mapping[str, Observation]]] = {}
    for record in records:
        if len(record) >= 3:
            layouts.setdefault(frozenset(root[a] for a in record), []).append(record)
    shapes = {
        layout: profiles([{root[a]: o for a, o in rec.items()} for rec in recs])
        for layout, recs in layouts.items()
    }
    out: list[tuple[str, str]] = []
    keys = sorted(layouts, key=lambda k: (-len(layouts[k]), sorted(k)))
    for i, p in enumerate(keys):
        for q in keys[i + 1 :]:
            shared = p & q
            if not shared:
                continue
            sp, sq = shapes[p], shapes[q]
            if any(
                sp[a].value_class.startswith("num:")
                and not _ranges_overlap(sp[a], sq[a])
                for a in shared
            ):
                continue
            only_p = {sp[a].value_class: a for a in p - q}
            only_q = {sq[b].value_class: b for b in q - p}
            if len(only_p) < len(p - q) or len(only_q) < len(q - p):
                continue  # two of one class: no pairing by class alone
            paired = [
                (only_p[c], only_q[c])
                for c in only_p.keys() & only_q.keys()
                if _same_class(sp[only_p[c]], sq[only_q[c]])
                and (
                    not c.startswith("num:")
                    or _ranges_overlap(sp[only_p[c]], sq[only_q[c]])
                )
            ]
            cover = len(shared) + len(paired)
            if paired and cover >= 3 and cover >= LAYOUT_COVER * min(len(p), len(q)):
                out.extend(paired)
    return out
