"""Candidate pattern mining and schema induction (AdaMM §3.3.2), as pure functions.

Support counting is incremental: a round updates the counts of its own attributes,
the pairs among them and its attribute set, so its cost depends on the round, not
on the history. Induction then looks only at patterns inside the new round's
attribute set, since no other pattern's support changed.

Definitions, for a pattern (attribute set) C after round t:

* ``support(C)`` = number of rounds whose attribute set contains C;
* ``all_confidence(C)`` = support(C) / max over a in C of support({a});
* ``extension_confidence(C | A)`` = support(C) / support(A), for a schema A ⊂ C.

One module because discovery, a kind's variants and its optional parts are one
decision over the same counts: discovery asks whether a candidate is a variant
or an optional part before admitting it, and a schema admitted early is folded
back by the same test (:func:`fold_optional_parts`); apart, each would import
the other.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from langgraph_adamm.config import AdaMMConfig

Pattern = frozenset[str]


def all_confidence(pattern_support: int, item_supports: Iterable[int]) -> float:
    """support(C) / max item support; 0 for an empty or unseen pattern."""
    top = max(item_supports, default=0)
    return pattern_support / top if top else 0.0


def extension_confidence(extended_support: int, base_support: int) -> float:
    """support(C) / support(A): how reliably the new attributes accompany A."""
    return extended_support / base_support if base_support else 0.0


class PatternCounts:
    """Support counts kept up to date round by round.

    Items and pairs are counted directly; larger patterns are counted from the
    distinct attribute sets seen so far (``types``), through an index from each
    attribute to the sets that contain it.
    """

    def __init__(self) -> None:
        self.rounds = 0
        self.items: Counter[str] = Counter()
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.types: dict[Pattern, int] = {}
        self._index: dict[str, set[Pattern]] = {}

    def add(self, attributes: Iterable[str], count: int = 1) -> Pattern:
        """Count one round (or ``count`` rounds) with this attribute set."""
        attrs = frozenset(attributes)
        self.rounds += count
        if not attrs:
            self.types[attrs] = self.types.get(attrs, 0) + count
            return attrs
        for a in attrs:
            self.items[a] += count
        for pair in combinations(sorted(attrs), 2):
            self.pairs[pair] += count
        if attrs not in self.types:
            self.types[attrs] = 0
            for a in attrs:
                self._index.setdefault(a, set()).add(attrs)
        self.types[attrs] += count
        return attrs

    def remove(self, attributes: Iterable[str], count: int = 1) -> Pattern:
        """Uncount ``count`` rounds with this attribute set (the inverse of add).

        Entries that fall to zero are deleted, so the counts equal those of a
        history that never had the rounds.

        Raises:
            ValueError: when fewer than ``count`` rounds with this set are counted.
        """
        attrs = frozenset(attributes)
        have = self.types.get(attrs, 0)
        if count < 1 or have < count:
            raise ValueError(
                f"cannot uncount {count} round(s) with attributes {sorted(attrs)}: "
                f"{have} counted"
            )
        self.rounds -= count
        if have == count:
            del self.types[attrs]
            for a in attrs:
                index = self._index[a]
                index.discard(attrs)
                if not index:
                    del self._index[a]
        else:
            self.types[attrs] = have - count
        for a in attrs:
            self.items[a] -= count
            if self.items[a] <= 0:
                del self.items[a]
        for pair in combinations(sorted(attrs), 2):
            self.pairs[pair] -= count
            if self.pairs[pair] <= 0:
                del self.pairs[pair]
        return attrs

    def support(self, pattern: Iterable[str]) -> int:
        """Number of counted rounds whose attribute set contains the pattern."""
        pat = frozenset(pattern)
        if not pat:
            return self.rounds
        if len(pat) == 1:
            return self.items[next(iter(pat))]
        if len(pat) == 2:
            a, b = sorted(pat)
            return self.pairs[(a, b)]
        rarest = min(pat, key=lambda a: self.items[a])
        return sum(self.types[t] for t in self._index.get(rarest, ()) if pat <= t)

    def attribute_sets(self, attribute: str) -> set[Pattern]:
        """The distinct attribute sets counted that contain ``attribute``."""
        return self._index.get(attribute, set())

    def stated_with(self, pattern: Iterable[str]) -> set[str]:
        """Attributes stated in some round beside the whole pattern."""
        pat = frozenset(pattern)
        if not pat:
            return set(self.items)
        rarest = min(pat, key=lambda a: (self.items[a], a))
        out: set[str] = set()
        for t in self._index.get(rarest, ()):
            if pat <= t:
                out |= t
        return out - pat

    def all_confidence(self, pattern: Iterable[str]) -> float:
        """All-confidence of a pattern under the current counts."""
        pat = frozenset(pattern)
        return all_confidence(self.support(pat), (self.items[a] for a in pat))

    def extension_confidence(
        self, extended: Iterable[str], base: Iterable[str]
    ) -> float:
        """Extension-confidence of ``extended`` over ``base``."""
        return extension_confidence(self.support(extended), self.support(base))


@dataclass(frozen=True)
class SchemaChange:
    """A schema discovered, or an existing one extended, at some round."""

    kind: Literal["discovered", "evolved", "merged", "folded"]
    attributes: Pattern
    base: Pattern | None = None
    """For an evolution, the schema's attributes before it grew; for a merge, the
    grown schema that now covers this one; for a fold, the schema whose optional
    part this one is."""


def explained_all_confidence(
    counts: PatternCounts, pattern: Pattern, schemas: Iterable[Pattern] = ()
) -> float:
    """All-confidence counted outside the rounds another schema explains.

    For a pattern C and the schemas S it does not contain, an attribute of C
    counts only its occurrences outside rounds where an S holds and C does not
    (``duration`` of meditations' {duration, mood} outside the rounds of runs
    {avg_hr, distance}), and C's support drops the rounds inside a schema it
    overlaps. Two record kinds
    that share one attribute then both become schemas, while a pattern that
    only ever occurs inside a schema's rounds gains nothing. Without such
    schemas this is plain all-confidence; an attribute present nearly
    everywhere (a device, a place) stays frequent and still fails the test.
    """
    pat = frozenset(pattern)
    sup = counts.support(pat)
    others = [s for s in schemas if not s <= pat]
    if not others:
        return counts.all_confidence(pat)
    overlapping = [s for s in others if s & pat]
    if overlapping:
        sup -= max(counts.support(pat | s) for s in overlapping)
    if sup <= 0:
        return 0.0
    top = 0
    for a in pat:
        # a's occurrences in rounds where another schema holds and the pattern
        # does not: that schema explains them.
        explained = sum(
            counts.support(s | {a}) - counts.support(s | pat) for s in others
        )
        top = max(top, counts.items[a] - explained, sup)
    return min(1.0, sup / top) if top > 0 else 0.0


def _qualifies(
    counts: PatternCounts,
    pattern: Pattern,
    config: AdaMMConfig,
    schemas: Iterable[Pattern] = (),
) -> bool:
    return (
        counts.support(pattern) >= config.support_threshold
        and explained_all_confidence(counts, pattern, schemas)
        >= config.all_confidence_threshold
    )


def _maximal_cliques(nodes: set[str], edges: dict[str, set[str]]) -> list[Pattern]:
    """Bron-Kerbosch with pivoting; the graph is one round's attributes."""
    out: list[Pattern] = []

    def expand(r: set[str], p: set[str], x: set[str]) -> None:
        if not p and not x:
            out.append(frozenset(r))
            return
        pivot = max(p | x, key=lambda v: len(edges[v] & p))
        for v in sorted(p - edges[pivot]):
            expand(r | {v}, p & edges[v], x & edges[v])
            p = p - {v}
            x = x | {v}

    expand(set(), set(nodes), set())
    return out


def maximal_qualifying_subsets(
    counts: PatternCounts,
    clique: Pattern,
    config: AdaMMConfig,
    schemas: Iterable[Pattern] = (),
) -> list[Pattern]:
    """The inclusion-maximal subsets of ``clique`` that pass θ_s and θ_a.

    Both measures are anti-monotone, so the search walks down from the whole
    clique and stops at the first qualifying set on each path. It is exact up to
    ``config.max_subset_search`` evaluations, then continues greedily by dropping
    the attribute with the highest support (the one that lowers all-confidence).
    """
    schemas = list(schemas)
    if _qualifies(counts, clique, config, schemas):
        return [clique]
    found: list[Pattern] = []
    level = [clique]
    seen: set[Pattern] = {clique}
    evaluations = 1
    while level and evaluations <= config.max_subset_search:
        nxt: list[Pattern] = []
        for node in level:
            for a in sorted(node):
                child = node - {a}
                if not child or child in seen or any(child <= f for f in found):
                    continue
                seen.add(child)
                evaluations += 1
                if _qualifies(counts, child, config, schemas):
                    found.append(child)
                else:
                    nxt.append(child)
        level = nxt
    if level:  # budget exhausted: finish greedily
        current = clique
        while current and not _qualifies(counts, current, config, schemas):
            current = current - {max(current, key=lambda a: (counts.items[a], a))}
        if current and not any(current <= f for f in found):
            found.append(current)
    return [f for f in found if not any(f < g for g in found)]


def variant_of(
    counts: PatternCounts,
    pattern: Pattern,
    schemas: Iterable[Pattern],
    config: AdaMMConfig,
) -> Pattern | None:
    """The schema whose record kind ``pattern`` is a variant of, if any.

    A candidate C is no new kind when most of its rounds (at least θ_e of
    support(C)) are already rows of a schema S without carrying all of S: they
    carry at least ``match_fraction`` of S's attributes and at least two,
    among them one that occurs mostly inside S (support(S) ≥ θ_a ·
    support({a})), so materialization makes them rows of S.
    ``{drink, price, roastery}`` beside ``{cafe, drink,
    price}`` is such a variant: a misread value ("Cafe: Roastery 9" read as a
    field ``roastery``) took the place of ``cafe`` in some rounds; a table of its
    own would split one kind in two. Rounds that carry all of S and more are the
    paper's case of a pattern that adds to S without qualifying as its extension,
    and still give a schema of what they add. Two kinds that share one attribute
    (meditations ``{duration, mood}``, runs ``{distance, duration}``) stay apart:
    a round of one carries a single attribute of the other.
    """
    sup = counts.support(pattern)
    if not sup:
        return None
    rarest = min(pattern, key=lambda a: (counts.items[a], a))
    holding = [
        (types, n)
        for types, n in counts.types.items()
        if rarest in types and pattern <= types
    ]
    for schema in schemas:
        # Two of S's attributes at least: rounds that share one attribute with
        # S are another kind's (meditations and runs share ``duration``).
        need = max(2, math.ceil(len(schema) * config.match_fraction - 1e-9))
        defining = {
            a
            for a in schema
            if counts.items[a]
            and counts.support(schema)
            >= config.all_confidence_threshold * counts.items[a]
        }
        rows = sum(
            n
            for types, n in holding
            if not schema <= types and len(types & schema) >= need and types & defining
        )
        if rows >= config.extension_confidence_threshold * sup:
            return schema
    return None


DATE_ATTRIBUTES = frozenset(
    "date day time datetime timestamp when logged logged_at date_time".split()
)
"""Attributes that date a record: any kind's records may state one, so a date
coheres with nothing as a kind's signature (``{catches, date}`` stated beside
every trip's spot and duration is two optional columns of the trips, not a kind)."""


def owned(
    counts: PatternCounts,
    schema: Pattern,
    attribute: str,
    theta: float,
    match_fraction: float = 1.0,
) -> bool:
    """Whether ``attribute`` is stated almost only in the records of ``schema``.

    At least ``theta`` of the rounds stating it are the schema's records: the
    parcels of a shift log (``{site, hours}``) stated in half its records and
    nowhere else. A record carries at least ``match_fraction`` of the schema's
    attributes and two at least (1.0: all of them): a trip with no fish states
    its catches, spot and duration but no biggest catch, and is a trip.
    """
    n = counts.items[attribute]
    if n <= 0:
        return False
    if match_fraction >= 1.0:
        return counts.support(schema | {attribute}) >= theta * n
    need = max(2, math.ceil(len(schema) * match_fraction - 1e-9))
    rows = sum(
        counts.types[t]
        for t in counts.attribute_sets(attribute)
        if len(t & schema) >= need
    )
    return rows >= theta * n


def optional_attributes(
    counts: PatternCounts,
    schema: Pattern,
    schemas: Iterable[Pattern],
    config: AdaMMConfig,
) -> frozenset[str]:
    """A schema's optional attributes: its records' own, stated now and then.

    Each is stated beside the whole schema at least once and in at least θ_s
    rounds, :func:`owned` by the schema (θ_e of its rounds are the schema's
    records: they carry ``match_fraction`` of it, or all of it under plain
    discovery) and in no other schema. They become
    columns of the schema's table (null where a record does not state them)
    without joining the pattern: rows stay the schema's records, and a kind
    logged as ``{site, hours}`` with parcels packed or kilos sorted is one
    table with both. Off with ``optional_columns=False``.
    """
    if not config.optional_columns or len(schema) < config.min_schema_size:
        return frozenset()
    taken = frozenset().union(*(s for s in schemas if s != schema))
    return frozenset(
        a
        for a in counts.stated_with(schema)
        if a not in taken
        and counts.items[a] >= config.support_threshold
        and owned(
            counts,
            schema,
            a,
            config.extension_confidence_threshold,
            _record_fraction(config),
        )
        and not _in_block(counts, schema, a, config)
    )


def _record_fraction(config: AdaMMConfig) -> float:
    """How much of a schema a round carries to count as its record, for owning.

    With variants joining their kind, a record carries ``match_fraction`` of
    the schema (as materialization reads rows); plain discovery asks for all
    of it.
    """
    return config.match_fraction if config.variants_join_their_kind else 1.0


def _in_block(
    counts: PatternCounts, schema: Pattern, attribute: str, config: AdaMMConfig
) -> bool:
    """Whether an attribute coheres with another outside the schema.

    ``postage`` and ``seller`` of online orders always come together (a pair
    of all-confidence θ_a at least, in θ_s rounds): a kind's signature, though
    every order also states the ``{app, total}`` a fuel app's records have. A
    kind's optional attribute stands alone: parcels on packing shifts, kilos on
    sorting shifts, each beside the shift's site and hours.
    """
    if attribute in DATE_ATTRIBUTES:
        return False
    for other in counts.stated_with({attribute}) - schema - DATE_ATTRIBUTES:
        pair = frozenset((attribute, other))
        if (
            counts.support(pair) >= config.support_threshold
            and counts.all_confidence(pair) >= config.all_confidence_threshold
        ):
            return True
    return False


def _optional_part(
    counts: PatternCounts,
    pattern: Pattern,
    schemas: Iterable[Pattern],
    theta: float,
    all_conf: float,
) -> bool:
    """Whether a candidate is what a schema's records state now and then.

    Every attribute of it outside some schema is owned by that schema
    (``{date, parcels}`` of the shifts whose export gives a date), and those
    attributes do not cohere among themselves: no kind of its own, but
    optional columns of that schema's table.
    """
    for schema in schemas:
        rest = pattern - schema
        if not rest or not all(owned(counts, schema, a, theta) for a in rest):
            continue
        core = rest - DATE_ATTRIBUTES  # every kind's records carry a date
        if len(core) >= 2 and counts.all_confidence(core) >= all_conf:
            continue  # what it adds coheres: a kind of its own ({postage, seller})
        return True
    return False


def fold_owner(
    counts: PatternCounts,
    pattern: Pattern,
    schemas: Iterable[Pattern],
    config: AdaMMConfig,
) -> Pattern | None:
    """The larger schema whose optional part ``pattern`` turned out to be.

    Every attribute it adds to the schema, its dates aside, is stated only
    in the schema's records (every round stating it carries
    ``match_fraction`` of the schema, two attributes at least: no record of
    the part is left outside the table), and what it adds does not cohere as
    a kind's signature. The largest such schema, then the first by
    name, so the choice does not depend on the order schemas are kept in.
    None with ``optional_columns`` or ``variants_join_their_kind`` off
    (plain discovery).
    """
    if not config.optional_columns or not config.variants_join_their_kind:
        return None
    for schema in sorted(schemas, key=lambda s: (-len(s), sorted(s))):
        core = pattern - schema - DATE_ATTRIBUTES
        if schema == pattern or len(schema) < len(pattern) or not core:
            continue
        if not all(owned(counts, schema, a, 1.0, config.match_fraction) for a in core):
            continue
        if (
            len(core) >= 2
            and counts.all_confidence(core) >= config.all_confidence_threshold
        ):
            continue  # a kind's signature ({postage, seller})
        return schema
    return None


def fold_optional_parts(
    counts: PatternCounts, schemas: list[Pattern], config: AdaMMConfig
) -> list[SchemaChange]:
    """Schemas that turned out to be another kind's optional part, folded into it.

    A schema is discovered on the rounds seen so far: the first exports of a
    trip log state ``{catches, date}`` beside the trip's spot and duration,
    and one of the first four, a trip with no fish, left the biggest catch
    out, so the pair was not yet owned by the trips and became a schema of its
    own. Once :func:`fold_owner` finds its owner it is folded into it: its
    records are that table's rows already and its attributes become that
    table's optional columns; one record stays one row.
    Discovery keeps the paper's rule, so such a part may be found again on a
    later batch and is folded again. ``schemas`` is updated in place.
    """
    changes: list[SchemaChange] = []
    for pattern in sorted(schemas, key=lambda p: (len(p), sorted(p))):
        owner = fold_owner(
            counts, pattern, [s for s in schemas if s != pattern], config
        )
        if owner is not None:
            schemas.remove(pattern)
            changes.append(SchemaChange("folded", pattern, owner))
    return changes


def lone_kind(
    counts: PatternCounts,
    pattern: Pattern,
    schemas: Iterable[Pattern],
    config: AdaMMConfig,
    measured: Callable[[str], bool] | None,
) -> bool:
    """Whether one attribute is a record kind of its own ("weight: 89.2 kg").

    People log one measure at a time: a weigh-in, a glucose reading, a glass of
    water. Such an attribute is a kind when at least θ_s rounds state it alone,
    at least θ_a of the rounds stating it state nothing else, and ``measured``
    says its values are numbers. An attribute that joins a schema late is
    stated beside the schema's attributes, never alone, so it stays out; so
    does a line of advice an assistant repeats ("Practise at home: tyre
    levers, ..."), whose value is text. An attribute of a schema is never a
    kind alone.
    """
    if not config.lone_kinds or measured is None or len(pattern) != 1:
        return False
    if any(pattern <= s for s in schemas):
        return False
    (attribute,) = pattern
    alone = counts.types.get(pattern, 0)
    return (
        alone >= config.support_threshold
        and alone >= config.all_confidence_threshold * counts.items[attribute]
        and measured(attribute)
    )


def induce_schemas(
    counts: PatternCounts,
    schemas: list[Pattern],
    round_attributes: Iterable[str],
    config: AdaMMConfig,
    measured: Callable[[str], bool] | None = None,
) -> list[SchemaChange]:
    """Schema evolution and discovery triggered by one counted round.

    Only patterns inside the round's attribute set changed support, so only they
    are candidates. Evolution comes first: a schema A inside the round grows by
    the attributes Δ for which ext-conf(A ∪ Δ | A) ≥ θ_e (greedily, by support).
    The grown pattern must also keep all-conf ≥ θ_a: ext-conf alone would let an
    attribute present in nearly every round (a location, a device) join every
    schema, which is exactly what all-confidence exists to prevent.
    Discovery then admits the inclusion-maximal novel candidates with support ≥ θ_s
    and all-conf ≥ θ_a. A candidate inside a schema is not novel; a candidate that
    contains a schema but did not qualify as its extension contributes what it
    adds to that schema, as a candidate of its own. One attribute is a
    candidate only as a lone kind (:func:`lone_kind`; ``measured`` tells
    whether an attribute's values are numbers, None: no lone kinds).

    ``schemas`` is updated in place to reflect the changes returned.
    """
    theta_s = config.support_threshold
    frequent = frozenset(a for a in round_attributes if counts.items[a] >= theta_s)
    if not frequent or any(frequent <= s for s in schemas):
        return []
    changes: list[SchemaChange] = []

    grown_at: list[int] = []
    for i, schema in enumerate(schemas):
        if not schema <= frequent:
            continue
        base_support = counts.support(schema)
        grown = schema
        # Growth units: another schema inside the round joins as a whole (its
        # attributes only ever arrive together); other attributes one by one.
        blocks = [
            s
            for k, s in enumerate(schemas)
            if k != i and s <= frequent and not s & schema
        ]
        in_blocks = frozenset().union(*blocks) if blocks else frozenset()
        units = [frozenset({d}) for d in frequent - schema - in_blocks] + blocks
        units.sort(key=lambda u: (-counts.support(schema | u), sorted(u)))
        for unit in units:
            candidate = grown | unit
            if any(candidate <= s for k, s in enumerate(schemas) if k != i):
                continue  # another schema already covers it
            sup = counts.support(candidate)
            if (
                sup >= theta_s
                and extension_confidence(sup, base_support)
                >= config.extension_confidence_threshold
                and explained_all_confidence(counts, candidate, schemas)
                >= config.all_confidence_threshold
            ):
                grown = candidate
        if grown != schema:
            schemas[i] = grown
            grown_at.append(i)
            changes.append(SchemaChange("evolved", grown, schema))
    # A schema that a grown one now covers is merged into it (its table goes; its
    # rows are the grown table's rows), so no two tables describe one structure.
    merged: set[int] = set()
    for i in grown_at:
        for j, other in enumerate(schemas):
            if j != i and j not in merged and i not in merged and other <= schemas[i]:
                merged.add(j)
                changes.append(SchemaChange("merged", other, schemas[i]))
    if merged:
        schemas[:] = [s for j, s in enumerate(schemas) if j not in merged]

    if any(frequent <= s for s in schemas):
        return changes

    edges: dict[str, set[str]] = {a: set() for a in frequent}
    for a, b in combinations(sorted(frequent), 2):
        sup = counts.pairs[(a, b)]
        if (
            sup >= theta_s
            and explained_all_confidence(counts, frozenset((a, b)), schemas)
            >= config.all_confidence_threshold
        ):
            edges[a].add(b)
            edges[b].add(a)

    candidates: set[Pattern] = set()
    for clique in _maximal_cliques(set(frequent), edges):
        for pattern in maximal_qualifying_subsets(counts, clique, config, schemas):
            contained = [s for s in schemas if s <= pattern]
            if contained:
                rest = pattern - frozenset().union(*contained)
                if rest and _qualifies(counts, rest, config, schemas):
                    pattern = rest
                else:
                    continue
            if any(pattern <= s for s in schemas):
                continue
            if len(pattern) >= config.min_schema_size or lone_kind(
                counts, pattern, schemas, config, measured
            ):
                candidates.add(pattern)
    for pattern in sorted(candidates, key=lambda p: (-len(p), sorted(p))):
        if any(pattern < other for other in candidates):
            continue
        # at discovery a part is owned only beside all of the schema (the
        # paper's rule); records that carry part of it are folded later
        if config.optional_columns and _optional_part(
            counts,
            pattern,
            schemas,
            config.extension_confidence_threshold,
            config.all_confidence_threshold,
        ):
            continue
        if (
            config.variants_join_their_kind
            and variant_of(counts, pattern, schemas, config) is not None
        ):
            continue
        schemas.append(pattern)
        changes.append(SchemaChange("discovered", pattern))
    return changes
