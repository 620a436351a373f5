"""The membership rule: which records are rows of which schema (AdaMM §3.3.3).

A record is a row of schema S when it carries enough of S (or of one of its
components), carries one of S's defining attributes, and no other schema
explains it strictly better; :mod:`langgraph_adamm.analytic.materialize` says
why. Plain functions on patterns and counts, no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langgraph_adamm.analytic.schema_induction import Pattern, PatternCounts
from langgraph_adamm.analytic.tables import min_matching


@dataclass(frozen=True)
class Membership:
    """What decides a schema's rows: its patterns and its neighbours."""

    attributes: Pattern
    components: tuple[Pattern, ...]
    distinctive: Pattern
    neighbours: tuple[tuple[Pattern, tuple[Pattern, ...]], ...]
    """Other schemas that share an attribute, with their components."""


def _covers(
    attrs: frozenset[str], patterns: Sequence[Pattern], fraction: float
) -> bool:
    return any(len(attrs & p) >= min_matching(len(p), fraction) for p in patterns if p)


def is_row(attrs: frozenset[str], member: Membership, fraction: float) -> bool:
    """Whether a record with these attributes is a row of the schema (see module).

    A kind of one attribute ("weight: 89.2 kg") takes only records of that
    attribute alone: a lift's "Weight: 60 kg" beside its reps is no weigh-in.
    """
    if len(member.attributes) == 1 and not member.components:
        return attrs == member.attributes
    if not _covers(attrs, (member.attributes, *member.components), fraction):
        return False
    if member.distinctive and not attrs & member.distinctive:
        return False
    mine = attrs & member.attributes
    for other, comps in member.neighbours:
        theirs = attrs & other
        if mine < theirs and _covers(attrs, (other, *comps), fraction):
            return False
    return True


def defining_attributes(
    attributes: Pattern, counts: PatternCounts, fraction: float
) -> Pattern:
    """The attributes that mostly occur inside the schema.

    ``a`` is defining when support(S) / support({a}) >= ``fraction`` (the
    all-confidence threshold, which every attribute of a schema meets when it is
    discovered). An attribute that other record kinds carry too - ``duration`` in
    runs and in meditations - falls below it as those records arrive.
    """
    whole = counts.support(attributes)
    return frozenset(
        a
        for a in attributes
        if counts.items[a] and whole / counts.items[a] >= fraction - 1e-12
    )


def membership(
    schemas: dict[int, tuple[Pattern, tuple[Pattern, ...]]],
    counts: PatternCounts,
    fraction: float,
) -> dict[int, Membership]:
    """The membership rule of every schema, given all of them and the counts."""
    out: dict[int, Membership] = {}
    for sid, (attrs, comps) in schemas.items():
        others = [(a, c) for s, (a, c) in schemas.items() if s != sid]
        shared = frozenset().union(*(a for a, _ in others)) if others else frozenset()
        defining = defining_attributes(attrs, counts, fraction) - shared
        if not defining:
            defining = attrs - shared
        out[sid] = Membership(
            attrs,
            tuple(sorted(comps, key=sorted)),
            defining,
            tuple(
                sorted(
                    ((a, c) for a, c in others if a & attrs), key=lambda x: sorted(x[0])
                )
            ),
        )
    return out
