import random
from itertools import combinations

import pytest

from langgraph_adamm import AdaMMConfig
from langgraph_adamm.analytic.schema_induction import (
    PatternCounts,
    all_confidence,
    extension_confidence,
    induce_schemas,
    maximal_qualifying_subsets,
    optional_attributes,
)

F = frozenset


def counted(rounds):
    c = PatternCounts()
    for r in rounds:
        c.add(r)
    return c


HAND = [{"a", "b", "c"}, {"a", "b"}, {"a", "b", "c"}, {"a", "c"}, {"b"}]


def test_support_by_hand():
    c = counted(HAND)
    assert [c.support(F(p)) for p in ("a", "b", "c")] == [4, 4, 3]
    assert (
        c.support(F("ab")) == 3 and c.support(F("ac")) == 3 and c.support(F("bc")) == 2
    )
    assert c.support(F("abc")) == 2
    assert c.support(F()) == 5 and c.support(F("z")) == 0


def test_all_and_extension_confidence_by_hand():
    c = counted(HAND)
    assert c.all_confidence(F("ab")) == pytest.approx(3 / 4)
    assert c.all_confidence(F("abc")) == pytest.approx(2 / 4)
    assert c.all_confidence(F("c")) == 1.0
    assert c.extension_confidence(F("abc"), F("ab")) == pytest.approx(2 / 3)
    assert all_confidence(0, []) == 0.0 and extension_confidence(3, 0) == 0.0


def test_incremental_support_equals_brute_force():
    rng = random.Random(3)
    items = list("abcdefg")
    rounds = [set(rng.sample(items, rng.randint(0, 5))) for _ in range(300)]
    c = counted(rounds)
    for k in (1, 2, 3, 4):
        for pat in combinations(items, k):
            assert c.support(F(pat)) == sum(1 for r in rounds if set(pat) <= r)


def induce_all(rounds, config=None, measured=None):
    config = config or AdaMMConfig()
    counts, schemas, log = PatternCounts(), [], []
    for t, r in enumerate(rounds, 1):
        attrs = counts.add(r)
        for ch in induce_schemas(counts, schemas, attrs, config, measured):
            log.append((t, ch.kind, ch.attributes, ch.base))
    return schemas, log


def test_nothing_before_support_threshold():
    schemas, _ = induce_all([{"a", "b"}] * 3)
    assert schemas == []
    schemas, log = induce_all([{"a", "b"}] * 4)
    assert schemas == [F("ab")] and log[0][0] == 4


def test_ubiquitous_attribute_is_not_merged_into_every_schema():
    # u is in every round; a,b and c,d each recur with it.
    rounds = [{"a", "b", "u"}, {"c", "d", "u"}, {"u"}] * 6
    schemas, log = induce_all(rounds)
    assert all(kind == "discovered" for _, kind, _, _ in log)
    assert sorted(map(sorted, schemas)) == [["a", "b"], ["c", "d"]]


def test_only_inclusion_maximal_candidates_are_admitted():
    schemas, log = induce_all([{"a", "b", "c"}] * 6)
    assert schemas == [F("abc")]
    assert [entry[1] for entry in log] == ["discovered"]


def test_evolution_at_the_extension_confidence_threshold():
    # {a,b} is a schema after 4 rounds; c then arrives with every round.
    # ext-conf({a,b,c} | {a,b}) = k / (4 + k) reaches 0.8 at k = 16.
    rounds = [{"a", "b"}] * 4 + [{"a", "b", "c"}] * 16
    schemas, log = induce_all(rounds)
    assert schemas == [F("abc")]
    assert log == [(4, "discovered", F("ab"), None), (20, "evolved", F("abc"), F("ab"))]
    schemas, _ = induce_all(rounds[:-1])
    assert schemas == [F("ab")]


def test_extension_that_fails_confidence_yields_its_own_schema():
    # x,y arrive late with a,b: ext-conf(abxy | ab) = 4/14 < 0.8, so {a,b} does not
    # grow; what x,y add becomes a schema of its own.
    # (AdaMM's rule: with optional columns on, x and y are optional columns
    # of {a,b} instead; see the next test.)
    paper = AdaMMConfig(optional_columns=False)
    rounds = [{"a", "b"}] * 10 + [{"a", "b", "x", "y"}] * 4
    schemas, log = induce_all(rounds, paper)
    assert schemas == [F("ab"), F("xy")]
    assert log[-1] == (14, "discovered", F("xy"), None)
    # From then on a,b accompany every {x,y} round (ext-conf(xyab | xy) = 1), but
    # {a,b,x,y} is not cohesive (all-conf 5/15), so neither schema absorbs the other.
    schemas, log = induce_all(rounds + [{"a", "b", "x", "y"}] * 3, paper)
    assert schemas == [F("ab"), F("xy")]


def test_attributes_stated_only_beside_a_schema_are_its_optional_columns():
    # shifts {site, hours} logged with parcels packed or kilos sorted, an
    # export adding a date: one kind, with three optional attributes
    rounds = (
        [{"site", "hours", "parcels"}, {"site", "hours", "sorted"}] * 6
        + [{"date", "site", "hours", "parcels"}] * 4
        + [{"date", "site", "hours", "sorted"}] * 2
    )
    config = AdaMMConfig()
    schemas, log = induce_all(rounds, config)
    assert schemas == [F({"site", "hours"})]
    counts = counted(rounds)
    assert optional_attributes(counts, schemas[0], schemas, config) == F(
        {"parcels", "sorted", "date"}
    )
    # stated elsewhere as often as beside the schema: no optional column
    counts.add({"parcels", "van"})
    for _ in range(9):
        counts.add({"parcels", "van"})
    assert "parcels" not in optional_attributes(counts, schemas[0], schemas, config)
    # under AdaMM's rule what the export adds is a schema of its own
    paper, _ = induce_all(rounds, AdaMMConfig(optional_columns=False))
    assert paper == [F({"site", "hours"}), F({"date", "parcels"})]


def test_maximal_qualifying_subsets_when_the_clique_fails():
    cfg = AdaMMConfig(all_confidence_threshold=0.3)
    c = counted([{"a", "b"}] * 4 + [{"b", "c"}] * 4 + [{"a", "c"}] * 4)
    got = maximal_qualifying_subsets(c, F("abc"), cfg)
    assert sorted(map(sorted, got)) == [["a", "b"], ["a", "c"], ["b", "c"]]


def test_cost_per_round_does_not_depend_on_history():
    # Steady state: a round fully inside a schema takes the fast path.
    counts, schemas = PatternCounts(), []
    cfg = AdaMMConfig()
    for _ in range(2000):
        attrs = counts.add({"a", "b", "c"})
        induce_schemas(counts, schemas, attrs, cfg)
    assert schemas == [F("abc")] and len(counts.types) == 1


def test_attributes_that_cohere_are_a_kind_not_optional_columns():
    # fuel {app, total} and online orders {app, total, postage, seller}:
    # every order states app and total, but postage and seller come together -
    # a kind of its own, not optional columns of the fuel records
    rounds = [{"app", "total"}] * 10 + [{"app", "total", "postage", "seller"}] * 6
    config = AdaMMConfig()
    schemas, _ = induce_all(rounds, config)
    assert F({"postage", "seller"}) <= set().union(*schemas)
    counts = counted(rounds)
    for schema in schemas:
        if "postage" not in schema:
            opt = optional_attributes(counts, schema, schemas, config)
            assert not opt & {"postage", "seller"}


def test_an_attribute_stated_alone_is_a_kind_of_its_own():
    # "weight: 89.2 kg", round after round: one measure, one table
    numbers = {"weight"}.__contains__
    schemas, log = induce_all([{"weight"}] * 4, measured=numbers)
    assert schemas == [F({"weight"})] and log == [
        (4, "discovered", F({"weight"}), None)
    ]
    assert induce_all([{"weight"}] * 3, measured=numbers)[0] == []
    off = AdaMMConfig(lone_kinds=False)
    assert induce_all([{"weight"}] * 8, off, numbers)[0] == []
    # a line of text repeated alone ("Practise at home: tyre levers, ...")
    assert induce_all([{"advice"}] * 8, measured=numbers)[0] == []


def test_an_attribute_stated_mostly_beside_others_is_no_kind_alone():
    # w joins the run records and is stated alone now and then (4 of 10)
    every = lambda attribute: True  # noqa: E731
    rounds = [{"a", "b", "w"}] * 6 + [{"w"}] * 4
    schemas, _ = induce_all(rounds, measured=every)
    assert schemas == [F({"a", "b", "w"})]
    # an attribute of a schema is never a kind alone, however often alone
    rounds = [{"a", "b"}] * 6 + [{"a"}] * 12
    assert induce_all(rounds, measured=every)[0] == [F({"a", "b"})]
