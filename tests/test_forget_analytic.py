"""Forgetting rounds and correcting values in analytic memory.

The reference for forgetting is never having ingested the rounds: a memory that
ingested history H and forgot rounds S must store the pattern counts of one
that ingested H without S, keep no schema below θ_s, hold nothing of S, leave
every table S did not reach as it was, and answer Compute, Filter and Rank alike
for every record kind both have a table for. Histories come from the everyday
generator (realistic phrasing, units, multi-record rounds, two kinds sharing an
attribute), read by the offline rule extractor.
"""

from __future__ import annotations

import copy
import json
import math
import random
from dataclasses import replace
from typing import Any

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.analytic.extraction.base import Provenance, make_observation
from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.analytic.schema_induction import PatternCounts
from langgraph_adamm.analytic.tables import (
    NUMERIC_TYPES,
    ColumnStats,
    TableSchema,
    decide_column,
)
from langgraph_adamm.errors import AdaMMError, ToolInputError
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.storage.database import namespace_schema
from tests.conftest import history, stored_rows
from tools.datasets.everyday_checks import table_for
from tools.datasets.everyday_history import KIND_ATTRIBUTES, generate_everyday

THETA_S = AdaMMConfig().support_threshold


# -- helpers ------------------------------------------------------------------
def ingest(doc: dict[str, Any], **kw: Any) -> Memory:
    m = Memory(":memory:", user_id=doc["user_id"], retrieval=False, **kw)
    rep = m.ingest(history_from_dict(doc))
    assert not rep.failures
    return m


def without(doc: dict[str, Any], drop: set[str]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for s in out["sessions"]:
        s["rounds"] = [r for r in s["rounds"] if r["round_id"] not in drop]
    out["sessions"] = [s for s in out["sessions"] if s["rounds"]]
    return out


def round_ids(doc: dict[str, Any]) -> list[str]:
    return [r["round_id"] for s in doc["sessions"] for r in s["rounds"]]


def forget(m: Memory, ids: Any) -> Any:
    """The analytic side of Memory.forget: one transaction, rounds deleted last."""
    with m.db.transaction():
        rep = m.analytic.forget_rounds(sorted(ids))
        for table in ("adamm_images", "adamm_rounds"):
            m.db.execute(
                f"DELETE FROM {table} WHERE user_id = ? AND round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [m.user_id, sorted(ids)],
            )
    return rep


def counts_state(c: PatternCounts) -> tuple[Any, ...]:
    """Every internal structure of the counts, exactly."""
    return (
        c.rounds,
        dict(c.items),
        dict(c.pairs),
        dict(c.types),
        {a: frozenset(s) for a, s in c._index.items()},
    )


def stored_counts(m: Memory) -> list[tuple[Any, ...]]:
    return m.db.fetchall(
        "SELECT attributes, count FROM adamm_pattern_types WHERE user_id = ? "
        "ORDER BY attributes",
        [m.user_id],
    )


def base_tables(m: Memory) -> list[tuple[str, str, list[str]]]:
    """(schema, table, columns) of every table in the database."""
    out = []
    for schema, name in m.db.fetchall(
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_type = 'BASE TABLE' ORDER BY table_schema, table_name"
    ):
        cols = [
            c
            for (c,) in m.db.fetchall(
                "SELECT column_name FROM information_schema.columns WHERE "
                "table_schema = ? AND table_name = ? ORDER BY ordinal_position",
                [schema, name],
            )
        ]
        out.append((schema, name, cols))
    return out


def dump(m: Memory, user_id: str | None = None) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of one user: adamm_* rows and the tables of the namespace."""
    user = user_id or m.user_id
    ns = namespace_schema(user)
    out = {}
    main = m.db.fetchall("SELECT current_schema()")[0][0]
    for schema, name, cols in base_tables(m):
        if schema == ns or (schema == main and name.startswith("adamm_")):
            where, params = "", []
            if schema == main and "user_id" in cols:
                where, params = " WHERE user_id = ?", [user]
            label = "main" if schema == main else schema  # the same on both engines
            # an induced table's columns as its schema lists them (auxiliary,
            # then attributes by name), whatever their order on disk
            aux = [c for c in ("source", "order", "time") if c in cols]
            logical = aux + sorted(c for c in cols if c not in aux)
            out[f"{label}.{name}"] = stored_rows(
                m.db,
                f'"{schema}"."{name}"{where}',
                params,
                columns=logical if schema == ns else None,
            )
    return out


def table_state(m: Memory, t: TableSchema) -> tuple[Any, ...]:
    """A table's rows and every metadata row of its schema."""
    meta = {
        name: stored_rows(
            m.db,
            f"{name} WHERE user_id = ? AND schema_id = ?",
            [m.user_id, t.schema_id],
        )
        for name in ("adamm_schemas", "adamm_columns", "adamm_cast_problems")
    }
    rows = stored_rows(
        m.db, m.analytic.qualified(t), columns=[c.name for c in t.all_columns]
    )
    return rows, meta


def close(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return (
            a is not None
            and b is not None
            and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
        )
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    return a == b


def answers(m: Memory, attrs: tuple[str, ...]) -> dict[Any, Any] | None:
    """A record kind's rows and Compute/Rank/Filter answers on its numeric columns."""
    t = table_for(m, list(attrs))
    if t is None:
        return None
    name = t.table_name
    rows = m.filter({"table": name, "result_budget": 1000})
    assert not rows.truncated
    keep = ["source", "time", *sorted(attrs)]
    out: dict[Any, Any] = {
        "rows": sorted((tuple(r.get(k) for k in keep) for r in rows.rows), key=repr),
        "columns": sorted(
            (c.name, c.sql_type, c.unit) for c in t.columns if c.attribute in attrs
        ),
    }
    for c in t.columns:
        if c.attribute not in attrs or c.sql_type not in NUMERIC_TYPES:
            continue
        for op in ("count", "sum", "avg", "min", "max", "median", "first", "latest"):
            res = m.compute(
                {"table": name, "operator": op, "target_column_expression": c.name}
            )
            out[(c.name, op)] = (res.value, res.unit, res.row_count)
        for order in ("desc", "asc"):
            res = m.rank(
                {
                    "table": name,
                    "target_column_expression": c.name,
                    "order": order,
                    "result_budget": 3,
                }
            )
            out[(c.name, order)] = [(r["source"], r[c.name]) for r in res.rows]
        median = out[(c.name, "median")][0]
        if median is not None:
            res = m.filter(
                {
                    "table": name,
                    "column_filters": [{"column": c.name, "op": ">=", "value": median}],
                    "result_budget": 1000,
                }
            )
            out[(c.name, ">=median")] = sorted(r["source"] for r in res.rows)
    return out


def assert_tables_equal_their_rebuild(m: Memory) -> None:
    """Every table is what rebuilding it from the stored observations gives,
    and so are the column statistics kept for it."""
    an = m.analytic
    member = an._membership()
    for sid, t in sorted(an._tables.items()):
        rows, meta = table_state(m, t)
        kept = copy.deepcopy(an._stats.get(sid))
        new = an._materialize(sid, t.attributes, None, member[sid])
        assert new.columns == t.columns, t.table_name
        assert kept is None or kept == an._stats[sid], t.table_name
        new_rows, new_meta = table_state(m, new)
        assert new_rows == rows, t.table_name
        assert new_meta["adamm_cast_problems"] == meta["adamm_cast_problems"]


def choose(data: Any, plan: str, rng: random.Random) -> tuple[set[str], str | None]:
    """The rounds to forget, and the kind whose schema must go (if any)."""
    rounds = round_ids(data.history)
    by_kind = {k: sorted({r.round_id for r in rs}) for k, rs in data.records.items()}
    how, _, arg = plan.partition(":")
    if how == "kind":  # every round of one kind, and a tenth of the rest
        return set(by_kind[arg]) | set(rng.sample(rounds, len(rounds) // 10)), arg
    if how == "below":  # all but 3 records of one kind: support 3 < θ_s
        kind = next(k for k in (arg, "weight", "sleep") if len(by_kind[k]) > 4)
        keep = set(rng.sample(by_kind[kind], 3))
        rest = [r for r in rounds if r not in keep]
        return (set(by_kind[kind]) - keep) | set(rng.sample(rest, 8)), kind
    if how == "session":  # a whole day, and a tenth of the rest
        day = rng.choice(data.history["sessions"])
        picked = {r["round_id"] for r in day["rounds"]}
        return picked | set(rng.sample(rounds, len(rounds) // 10)), None
    return set(rng.sample(rounds, int(len(rounds) * float(arg)))), None


# -- forgetting ---------------------------------------------------------------
PLANS = [
    (5, "kind:game"),
    (1, "random:0.3"),
    (2, "below:glucose"),
    (3, "kind:run"),  # runs share `duration` with meditations
    (6, "kind:meditation"),
    (7, "session"),
    (4, "random:0.6"),
]


@pytest.mark.parametrize(("seed", "plan"), PLANS)
def test_forgetting_equals_never_having_ingested(seed: int, plan: str) -> None:
    data = generate_everyday(days=20, seed=seed)
    drop, gone_kind = choose(data, plan, random.Random(f"{seed}:{plan}"))
    with ingest(data.history) as a, ingest(without(data.history, drop)) as b:
        if gone_kind is not None:
            assert table_for(a, list(KIND_ATTRIBUTES[gone_kind])) is not None
        before = {t.schema_id: (t, table_state(a, t)) for t in a.tables}
        rep = forget(a, drop)
        assert rep.rounds == len(drop) and rep.round_ids == sorted(drop)
        assert rep.observations > 0 and (rep.rebuilt or rep.deleted_in_place)

        # Counts: stored, in memory, and as read back, all equal B's.
        assert stored_counts(a) == stored_counts(b)
        assert counts_state(a.analytic.counts) == counts_state(b.analytic.counts)
        reread = AnalyticMemory(a.db, a.user_id).counts
        assert counts_state(reread) == counts_state(a.analytic.counts)

        # No schema below θ_s; the kind forgotten (or cut below θ_s) has none.
        for t in a.tables:
            assert a.analytic.counts.support(t.attributes) >= THETA_S, t.table_name
        if gone_kind is not None:
            assert table_for(a, list(KIND_ATTRIBUTES[gone_kind])) is None
            assert table_for(b, list(KIND_ATTRIBUTES[gone_kind])) is None
            assert any("θ_s" in why for _, why in rep.dropped), rep.dropped

        # Nothing of S is left; what S did not reach is exactly as it was.
        for table in ("adamm_observations", "adamm_cast_problems"):
            left = a.db.fetchall(
                f"SELECT count(*) FROM {table} WHERE round_id IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [sorted(drop)],
            )
            assert left == [(0,)], table
        changed = (
            set(rep.rebuilt)
            | set(rep.deleted_in_place)
            | {name for name, _ in rep.dropped}
        )
        for t in a.tables:
            rows = a.filter({"table": t.table_name, "result_budget": 1000}).rows
            assert not {r["source"] for r in rows} & drop, t.table_name
            old, state = before[t.schema_id]
            if t.table_name not in changed:
                assert t == old and table_state(a, t) == state, t.table_name
        assert {t.table_name for t in a.tables} | changed >= {
            t.table_name for t, _ in before.values()
        }

        # Every record kind both have a table for is answered alike.
        got = {k: answers(a, attrs) for k, attrs in KIND_ATTRIBUTES.items()}
        want = {k: answers(b, attrs) for k, attrs in KIND_ATTRIBUTES.items()}
        assert {k for k, v in got.items() if v} == {k for k, v in want.items() if v}
        for kind in KIND_ATTRIBUTES:
            if got[kind] is not None:
                assert close(got[kind], want[kind]), kind

        # And every table is what a rebuild from what is left gives.
        assert_tables_equal_their_rebuild(a)


def test_a_forgotten_value_is_in_no_table_or_column() -> None:
    data = generate_everyday(days=10, seed=4)
    doc = copy.deepcopy(data.history)
    single = [
        r
        for r in data.records["expense"]
        if sum(x.round_id == r.round_id for x in data.records["expense"]) == 1
    ]
    by_id = {r["round_id"]: r for s in doc["sessions"] for r in s["rounds"]}
    single = [
        r for r in single if r.values["merchant"] in json.dumps(by_id[r.round_id])
    ]
    target = single[len(single) // 2]
    merchant = target.values["merchant"]
    for s in doc["sessions"]:
        for i, r in enumerate(s["rounds"]):
            if r["round_id"] == target.round_id:
                s["rounds"][i] = json.loads(
                    json.dumps(r, ensure_ascii=False).replace(merchant, "Zyxquorp")
                )

    def hits(m: Memory) -> set[str]:
        found = set()
        for schema, name, cols in base_tables(m):
            for col in cols:
                n = m.db.fetchall(
                    f'SELECT count(*) FROM "{schema}"."{name}" WHERE '
                    f"lower(CAST(\"{col}\" AS VARCHAR)) LIKE '%zyxquorp%'"
                )[0][0]
                if n:
                    found.add(f"{name}.{col}")
        return found

    with ingest(doc) as m:
        table = table_for(m, list(KIND_ATTRIBUTES["expense"]))
        found = hits(m)
        assert {
            "adamm_observations.value_text",
            f"{table.table_name}.merchant",
        } <= found
        assert found & {
            "adamm_rounds.user_text",
            "adamm_rounds.assistant_text",
            "adamm_images.caption",
            "adamm_images.ocr",
        }
        if m.db.engine == "postgres":  # the planner's statistics hold values too
            m.db.execute("ANALYZE")
            assert any(h.startswith("pg_statistic.") for h in hits(m))
        rep = m.forget([target.round_id]).analytic  # the whole of it, this time
        assert rep is not None and rep.rounds == 1
        assert table.table_name in rep.rebuilt + rep.deleted_in_place
        assert hits(m) == set()
        assert_tables_equal_their_rebuild(m)


def test_forgetting_one_user_leaves_another_byte_for_byte(database, tmp_path) -> None:
    doc_a = generate_everyday(days=8, seed=5).history | {"user_id": "a"}
    doc_b = generate_everyday(days=8, seed=6).history | {"user_id": "b"}
    with Memory(database("m"), user_id="a", retrieval=False) as a:
        a.ingest(history_from_dict(doc_a))
        b = a.for_user("b")
        b.ingest(history_from_dict(doc_b))
        ids_a = round_ids(doc_a)
        assert set(ids_a) & set(round_ids(doc_b))  # the same ids ("S1:1", ...)
        before, counts_b = dump(a, "b"), counts_state(b.analytic.counts)
        rep = forget(a, ids_a[: len(ids_a) // 2])
        assert rep.rebuilt or rep.deleted_in_place or rep.dropped
        assert dump(a, "b") == before
        assert counts_state(b.analytic.counts) == counts_b
        assert counts_state(AnalyticMemory(a.db, "b").counts) == counts_b
        # Everything of a: nothing of a is left, b is still as it was.
        forget(a, ids_a)
        assert a.tables == [] and stored_counts(a) == []
        assert not a.db.fetchall("SELECT 1 FROM adamm_observations WHERE user_id = 'a'")
        assert dump(a, "b") == before


def test_forgetting_what_grew_a_schema_takes_it_back() -> None:
    rs = [{"user": f"a: {i}, b: {i * 10}"} for i in range(4)]
    rs += [{"user": f"a: {i}, b: {i * 10}, c: {i}.5 kg"} for i in range(4, 20)]
    cfg = AdaMMConfig(ingest_batch_size=1)
    with (
        Memory(":memory:", user_id="u", retrieval=False, config=cfg) as a,
        Memory(":memory:", user_id="u", retrieval=False, config=cfg) as b,
    ):
        a.ingest(history(rs))
        b.ingest(history(rs[:4]))
        (t,) = a.tables
        assert t.attributes == {"a", "b", "c"}
        rep = forget(a, [f"S1:{i}" for i in range(5, 21)])
        assert rep.dropped == [] and [s[:3] for s in rep.shrunk] == [
            (t.table_name, ["a", "b", "c"], ["a", "b"])
        ]
        (ta,) = a.tables
        (tb,) = b.tables
        assert ta.table_name == tb.table_name and ta.columns == tb.columns
        assert stored_counts(a) == stored_counts(b)
        assert (
            a.filter({"table": ta.table_name}).rows
            == b.filter({"table": tb.table_name}).rows
        )
        # Induction goes on from the forgotten state as it would have anyway.
        more = [{"user": f"a: {i}, b: {i * 10}"} for i in range(20, 23)]
        a.ingest(history(more, session="S2"))
        b.ingest(history(more, session="S2"))
        assert stored_counts(a) == stored_counts(b)
        assert [replace(t, version=0) for t in a.tables] == [
            replace(t, version=0) for t in b.tables
        ]
        assert (
            a.filter({"table": ta.table_name}).rows
            == b.filter({"table": tb.table_name}).rows
        )


def test_pending_and_unknown_rounds_count_nothing() -> None:
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history([{"user": f"a: {i}, b: {i}"} for i in range(6)]))
        m.construction.store_history(history([{"user": "a: 9, b: 9"}], session="S2"))
        counts, tables = stored_counts(m), dump(m)
        generation = m.analytic.generation
        rep = m.analytic.forget_rounds(["S2:1", "nope"])
        assert (rep.rounds, rep.records, rep.observations) == (1, 0, 0)
        assert stored_counts(m) == counts and dump(m) == tables
        assert m.analytic.generation > generation
        assert m.analytic.forget_rounds([]).rounds == 0
        with pytest.raises(AdaMMError, match="list of round ids"):
            m.analytic.forget_rounds("S1:1")


def test_a_failing_forget_changes_nothing(monkeypatch) -> None:
    data = generate_everyday(days=6, seed=2)
    with ingest(data.history) as m:
        before, counts = dump(m), counts_state(m.analytic.counts)
        tables = m.tables

        def boom(*args: Any, **kw: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr(AnalyticMemory, "_materialize", boom)
        ids = round_ids(data.history)[:10]
        # In the caller's transaction (restored from a copy once it rolls back)
        # and in its own (reloaded).
        for run in (lambda: forget(m, ids), lambda: m.analytic.forget_rounds(ids)):
            with pytest.raises(RuntimeError, match="boom"):
                run()
            assert dump(m) == before and m.tables == tables
            assert counts_state(m.analytic.counts) == counts
        monkeypatch.undo()
        done = forget(m, ids)
        assert done.rebuilt or done.deleted_in_place


VALUE_TEXTS = [
    "7.5 h", "6h 51min", "45 min", "7", "8", "7", "0", "-3", "12:30", "1:02:03",
    "52:40", "3,5 kg", "70 kg", "154 lb", "12,345", "1.234,56", "6,8", "$12.40",
    "€3,77", "yes", "no", "2026-03-01", "Corner cafe", "95%", "2e70", "100000",
]  # fmt: skip


def test_column_stats_remove_is_the_inverse_of_add() -> None:
    """Taking values back gives exactly the statistics of the values left, or
    says it cannot (the last copy of an extreme went), never a wrong answer."""
    prov = Provenance("r", "user")
    exact = 0
    for seed in range(40):
        rng = random.Random(seed)
        obs = [
            make_observation(rng.choice(["sleep", "weight", "amount", "x"]), t, prov)
            for t in rng.choices(VALUE_TEXTS, k=60)
        ]
        values = [o for o in obs if o is not None]
        gone = rng.sample(range(len(values)), rng.randint(1, len(values) // 3))
        both, rest = ColumnStats(), ColumnStats()
        for o in values:
            both.add(o)
        for i, o in enumerate(values):
            if i not in gone:
                rest.add(o)
        known = True
        for i in gone:
            known = both.remove(values[i]) and known
        if known:
            exact += 1
            assert both == rest, seed
            for fraction in (0.6, 0.8):
                assert decide_column(both, fraction, "x") == decide_column(
                    rest, fraction, "x"
                )
    assert exact >= 10  # most draws keep the extremes
    # The extremes: only the last copy of the lowest or highest is unknown.
    st = ColumnStats()
    for t in ("5 kg", "5 kg", "9 kg", "7 kg"):
        st.add(make_observation("w", t, prov))
    assert st.remove(make_observation("w", "5 kg", prov))
    assert st.remove(make_observation("w", "7 kg", prov))
    assert not st.remove(make_observation("w", "9 kg", prov))


def test_pattern_counts_remove_is_the_inverse_of_add() -> None:
    rng = random.Random(7)
    sets = [frozenset(rng.sample("abcdefg", rng.randint(0, 4))) for _ in range(200)]
    gone = set(rng.sample(range(200), 90))
    c = PatternCounts()
    for s in sets:
        c.add(s)
    for i in sorted(gone):
        c.remove(sets[i])
    fresh = PatternCounts()
    for i, s in enumerate(sets):
        if i not in gone:
            fresh.add(s)
    assert counts_state(c) == counts_state(fresh)
    for pattern in ({"a", "b", "c"}, {"d"}, set(), {"a", "e", "f", "g"}):
        assert c.support(pattern) == fresh.support(pattern)
    with pytest.raises(ValueError, match="counted"):
        c.remove({"x", "y"})


# -- correcting ---------------------------------------------------------------
SLEEP = list(KIND_ATTRIBUTES["sleep"])


def sleep_round(m: Memory) -> tuple[TableSchema, dict[str, Any]]:
    """The sleep table and a row whose total sleep one observation states."""
    t = table_for(m, SLEEP)
    once = {
        rid
        for (rid,) in m.db.fetchall(
            "SELECT round_id FROM adamm_observations WHERE attribute = "
            "'total_sleep' GROUP BY round_id HAVING count(*) = 1"
        )
    }
    rows = m.filter({"table": t.table_name, "result_budget": 1000}).rows
    row = next(r for r in rows if r["total_sleep"] is not None and r["source"] in once)
    return t, row


def agg(m: Memory, t: TableSchema, op: str, col: str) -> Any:
    return m.compute(
        {"table": t.table_name, "operator": op, "target_column_expression": col}
    ).value


def test_correct_changes_one_value_and_what_depends_on_it() -> None:
    data = generate_everyday(days=12, seed=1)
    with ingest(data.history) as m:
        t, row = sleep_round(m)
        rid, old = row["source"], row["total_sleep"]
        unit = t.column("total_sleep").unit
        assert unit is not None
        n = agg(m, t, "count", "total_sleep")
        total = agg(m, t, "sum", "total_sleep")
        before, counts = dump(m), stored_counts(m)
        (old_text,) = {
            r[0]
            for r in m.db.fetchall(
                "SELECT value_text FROM adamm_observations WHERE round_id = ? "
                "AND attribute = 'total_sleep'",
                [rid],
            )
        }
        new = round(old + 1.25, 2)
        res = m.analytic.correct(rid, "total_sleep", f"{new} {unit}", by="tester")
        assert (res.round_id, res.attribute, res.record) == (rid, "total_sleep", 0)
        assert (res.old_text, res.new_text, res.rebuilt) == (
            old_text,
            f"{new} {unit}",
            [t.table_name],
        )
        assert math.isclose(agg(m, t, "sum", "total_sleep"), total - old + new)
        assert math.isclose(agg(m, t, "avg", "total_sleep"), (total - old + new) / n)
        assert agg(m, t, "count", "total_sleep") == n
        assert stored_counts(m) == counts  # the round's attributes did not change

        # Nothing else changed: other rows, other columns, other tables.
        after = dump(m)
        key = f"{m.analytic.namespace}.{t.table_name}"
        special = (
            "adamm_observations",
            "adamm_schemas",
            "adamm_columns",
            "adamm_column_stats",
        )
        for name in before.keys() - {key, *(f"main.{n}" for n in special)}:
            assert after[name] == before[name], name
        stats = "main.adamm_column_stats"  # only the corrected table's change
        assert {r for r in after[stats] if r[1] != t.schema_id} == {
            r for r in before[stats] if r[1] != t.schema_id
        }
        cols = [c.name for c in t.all_columns]
        i = cols.index("total_sleep")
        assert len(after[key]) == len(before[key])
        pairs = zip(before[key], after[key], strict=True)
        changed = [(b, a) for b, a in pairs if a != b]
        assert len(changed) == 1
        ((b_row, a_row),) = changed
        assert a_row[0] == rid and math.isclose(a_row[i], new)
        assert a_row[:i] + a_row[i + 1 :] == b_row[:i] + b_row[i + 1 :]
        obs_before = [r for r in before["main.adamm_observations"] if r[1] != rid]
        obs_after = [r for r in after["main.adamm_observations"] if r[1] != rid]
        assert obs_before == obs_after

        def other_columns(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return [r for r in rows if (r[1], r[4]) != (t.schema_id, "total_sleep")]

        assert other_columns(before["main.adamm_columns"]) == other_columns(
            after["main.adamm_columns"]
        )

        # Provenance: the value first extracted, when and by whom.
        ((orig, by, at, text),) = set(
            m.db.fetchall(
                "SELECT original_text, corrected_by, corrected_at, value_text FROM "
                "adamm_observations WHERE round_id = ? AND attribute = 'total_sleep'",
                [rid],
            )
        )
        assert (orig, by, text) == (old_text, "tester", f"{new} {unit}")
        assert at is not None
        # A second correction, a bare number: read in the unit of the value it
        # replaces; the original text stays the one first extracted.
        res = m.analytic.correct(rid, "Total sleep", 8.0)
        assert res.old_text == f"{new} {unit}"
        assert math.isclose(agg(m, t, "sum", "total_sleep"), total - old + 8.0)
        ((orig, by),) = set(
            m.db.fetchall(
                "SELECT original_text, corrected_by FROM adamm_observations "
                "WHERE round_id = ? AND attribute = 'total_sleep'",
                [rid],
            )
        )
        assert (orig, by) == (old_text, None)
        assert stored_counts(m) == counts
        assert_tables_equal_their_rebuild(m)


def test_bad_corrections_are_refused_and_change_nothing() -> None:
    data = generate_everyday(days=12, seed=1)
    multi = next(
        rid
        for rid in {r.round_id for r in data.records["expense"]}
        if sum(x.round_id == rid for x in data.records["expense"]) > 1
    )
    with ingest(data.history) as m:
        t, row = sleep_round(m)
        rid = row["source"]
        before = dump(m)
        cases: list[tuple[tuple[Any, ...], dict[str, Any], str]] = [
            (("nope:1", "total_sleep", 7), {}, "No round 'nope:1'"),
            ((rid, "total_slep", 7), {}, "no value for 'total_slep'.*total_sleep"),
            ((rid, "total_sleep", None), {}, "must be a number"),
            ((rid, "total_sleep", [7]), {}, "must be a number"),
            ((rid, "total_sleep", "  "), {}, "must not be empty"),
            ((rid, "total_sleep", float("nan")), {}, "finite"),
            ((rid, "total_sleep", "banana"), {}, "does not fit|into text"),
            ((rid, "total_sleep", "7 kg"), {}, "does not fit|into text"),
            ((multi, "amount", 5), {}, r"in \d records: record \d .*record \d"),
            ((multi, "amount", 5), {"record": 99}, "no record 99"),
        ]
        for args, kw, message in cases:
            with pytest.raises(ToolInputError, match=message):
                m.analytic.correct(*args, **kw)
            assert dump(m) == before, args
        # With the record named, one row of the multi-record round changes.
        expense = table_for(m, list(KIND_ATTRIBUTES["expense"]))

        def rows() -> set[tuple[Any, ...]]:
            got = m.filter({"table": expense.table_name, "result_budget": 1000})
            return {tuple(sorted(r.items())) for r in got.rows}

        old = rows()
        records = sorted(
            r
            for (r,) in m.db.fetchall(
                "SELECT DISTINCT record FROM adamm_observations WHERE round_id = ? "
                "AND attribute = 'amount'",
                [multi],
            )
        )
        res = m.analytic.correct(multi, "amount", "5.55", record=records[1])
        assert res.record == records[1] and res.rebuilt == [expense.table_name]
        new = rows()
        (gone,) = old - new
        (added,) = new - old
        assert dict(gone)["source"] == dict(added)["source"] == multi
        assert dict(added)["amount"] == 5.55
        assert {k: v for k, v in gone if k != "amount"} == {
            k: v for k, v in added if k != "amount"
        }


def test_forgetting_a_neighbour_redecides_the_rows_it_decided() -> None:
    # {a, b} and {b, c} share b, so a record with b alone is neither's row.
    # With every {b, c} round forgotten, b is {a, b}'s own attribute and that
    # record is its row, as in a memory that never saw a {b, c} round.
    ab = [{"round_id": f"ab{i}", "user": f"a: {i}, b: {i}"} for i in range(6)]
    bc = [{"round_id": f"bc{i}", "user": f"b: {i}, c: {i}"} for i in range(6)]
    lone = [{"round_id": "lone", "user": "b: 99"}]
    cfg = AdaMMConfig(ingest_batch_size=1)
    with (
        Memory(":memory:", user_id="u", retrieval=False, config=cfg) as a,
        Memory(":memory:", user_id="u", retrieval=False, config=cfg) as b,
    ):
        a.ingest(history(ab + bc + lone))
        b.ingest(history(ab + lone))
        t, other = table_for(a, ["a", "b"]), table_for(a, ["b", "c"])
        assert len(a.tables) == 2
        assert a.filter({"table": t.table_name}).row_count == 6
        rep = forget(a, [r["round_id"] for r in bc])
        assert [name for name, _ in rep.dropped] == [other.table_name]
        assert rep.rebuilt == [t.table_name]  # though it held none of their rows
        got = a.filter({"table": t.table_name, "result_budget": 100}).rows
        want = b.filter({"table": t.table_name, "result_budget": 100}).rows
        assert len(got) == 7
        assert [{**r, "order": None} for r in got] == [
            {**r, "order": None} for r in want
        ]
        assert_tables_equal_their_rebuild(a)


def test_correct_rewrites_every_source_and_reads_bare_numbers_as_extraction() -> None:
    rounds = [{"user": f"sleep: {6 + i / 4} h, deep: {1 + i / 10} h"} for i in range(5)]
    rounds.append({"user": "sleep: 6 h 51 min, deep: 1 h"})
    rounds.append(
        {
            "user": "sleep: 7 h, deep: 1.5 h",
            "images": [{"image_id": "I1", "caption": "sleep: 7.2 h, deep: 1.4 h"}],
        }
    )
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history(rounds))
        (t,) = m.tables
        assert t.column("sleep").unit == "h"

        def sleep(rid: str) -> Any:
            rows = m.filter({"table": t.table_name, "result_budget": 100}).rows
            return next(r["sleep"] for r in rows if r["source"] == rid)

        # "6 h 51 min" is stored in minutes; a bare 7.5 still means hours.
        res = m.analytic.correct("S1:6", "sleep", 7.5)
        assert res.old_text == "6 h 51 min" and sleep("S1:6") == 7.5
        # Both sources of the last round say the corrected value.
        assert sleep("S1:7") == 7.2  # the caption is the more direct source
        res = m.analytic.correct("S1:7", "sleep", "6.9 h", by="me")
        assert (res.old_text, res.observations) == ("7.2 h", 2)
        assert sleep("S1:7") == 6.9
        assert m.db.fetchall(
            "SELECT source, value_text, original_text, corrected_by FROM "
            "adamm_observations WHERE round_id = 'S1:7' AND attribute = 'sleep' "
            "ORDER BY source"
        ) == [("caption", "6.9 h", "7.2 h", "me"), ("user", "6.9 h", "7 h", "me")]


def test_all_confidence_drops_only_a_schema_the_forgetting_disqualified() -> None:
    def rounds(prefix: str, n: int, text: str) -> list[dict[str, Any]]:
        return [
            {"round_id": f"{prefix}{i}", "user": text.format(i=i)} for i in range(n)
        ]

    # {a, b}: 10 rounds, then a alone 6 times: all-confidence 10/16 = 0.625.
    # {c, d}: 4 rounds, then c alone 6 times: 0.4, kept as induction keeps it.
    cfg = AdaMMConfig(ingest_batch_size=1)
    with Memory(":memory:", user_id="u", retrieval=False, config=cfg) as m:
        m.ingest(
            history(
                rounds("ab", 10, "a: {i}, b: {i}")
                + rounds("a", 6, "a: {i}")
                + rounds("cd", 4, "c: {i}, d: {i}")
                + rounds("c", 6, "c: {i}")
            )
        )
        ab, cd = table_for(m, ["a", "b"]), table_for(m, ["c", "d"])
        assert ab is not None and cd is not None
        kept = table_state(m, cd)
        rep = forget(m, ["ab0", "ab1", "c0"])  # {a, b}: 8/14 < 0.6
        ((name, why),) = rep.dropped
        assert name == ab.table_name
        assert "all-confidence 0.571" in why and "θ_a = 0.6" in why
        assert m.tables == [cd] and table_state(m, cd) == kept


def test_a_reopened_memory_forgets_with_its_stored_column_statistics(
    database, tmp_path
) -> None:
    """Column statistics are stored with the tables: a reopened memory reads
    them instead of counting every value again, they equal a fresh count, and
    forgetting in place keeps them (and the tables) equal to a rebuild. Stored
    statistics that cannot be read are counted again."""
    data = generate_everyday(days=20, seed=3)
    path = database("m")
    with Memory(path, user_id=data.history["user_id"], retrieval=False) as m:
        m.ingest(history_from_dict(data.history))
        counted = copy.deepcopy(m.analytic._stats)
    assert counted and set(counted) == {t.schema_id for t in m.tables}
    with Memory(path, user_id=data.history["user_id"], retrieval=False) as m:
        assert m.analytic._stats == counted  # read, not counted
        drop = set(random.Random(1).sample(round_ids(data.history), 12))
        rep = forget(m, drop)
        assert rep.deleted_in_place
        assert_tables_equal_their_rebuild(m)
        kept = copy.deepcopy(m.analytic._stats)
        sid = next(iter(kept))
        m.db.execute(
            "UPDATE adamm_column_stats SET stats = '{\"x\": 1}' WHERE schema_id = ?",
            [sid],
        )
    with Memory(path, user_id=data.history["user_id"], retrieval=False) as m:
        assert sid not in m.analytic._stats
        assert {s: v for s, v in m.analytic._stats.items()} == {
            s: v for s, v in kept.items() if s != sid
        }
        forget(m, set(random.Random(2).sample(round_ids(data.history), 5)) - drop)
        assert_tables_equal_their_rebuild(m)


def test_an_infinite_number_is_ingested_and_forgotten() -> None:
    """A 400-digit value reads as an infinite number: it is stored, counted and
    taken back like any other (it never enters the logarithm sums)."""
    rounds = [
        {"round_id": f"r{i}", "user": "synced",
         "metadata": {"steps": 1000 + i, "calories": 200 + i}}
        for i in range(6)
    ] + [{"round_id": "big", "user": "synced",
          "metadata": {"steps": "9" * 400, "calories": 150}}]  # fmt: skip
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        rep = m.ingest(history(rounds))
        assert not rep.failures and m.tables
        assert set(m.analytic.round_status()) == {"extracted"}
        assert_tables_equal_their_rebuild(m)
        done = forget(m, ["big"])
        assert done.rebuilt or done.deleted_in_place
        assert_tables_equal_their_rebuild(m)


def test_tables_built_a_round_at_a_time_equal_their_rebuild() -> None:
    """Whether a record is a row depends on all its attributes (a record that
    a neighbouring schema matches better is not a row) and a column short of
    examples takes them from appended rows: so a memory built one round per
    batch holds what a rebuild gives, and forgetting keeps it so."""
    rounds = [
        {"round_id": f"{name}{i}",
         "user": ", ".join(f"{a}: {100 * j + i + ord(a) % 7}" for a in name)}
        for j, (name, n) in enumerate([("ab", 8), ("ac", 6), ("bc", 6)])
        for i in range(n)
    ]  # fmt: skip
    rounds.append(
        {
            "round_id": "two",
            "user": json.dumps([{"a": 55, "b": 56}, {"a": 57, "c": 58}]),
        }
    )
    everyday = generate_everyday(days=6, seed=2).history
    moods = [
        {"round_id": f"m{i}", "user": f"Mood: {mood}, Sleep: {h} h"}
        for i, (mood, h) in enumerate(
            [("ok", 7)] * 6 + [("happy", 8), ("calm", 6), ("ok", 9), ("tired", 5)]
        )
    ]  # the table starts with one distinct mood: later rows add examples
    docs = [history(rounds), history_from_dict(everyday), history(moods)]
    for doc in docs:
        user = doc.user_id
        one = Memory(":memory:", user_id=user, retrieval=False,
                     config=AdaMMConfig(ingest_batch_size=1))  # fmt: skip
        with one, Memory(":memory:", user_id=user, retrieval=False) as many:
            one.ingest(doc)
            many.ingest(doc)
            assert_tables_equal_their_rebuild(one)
            for t in one.tables:
                other = next(o for o in many.tables if o.attributes == t.attributes)
                assert table_state(one, t)[0] == table_state(many, other)[0]
            ids = sorted(r.round_id for s in doc.sessions for r in s.rounds)
            forget(one, random.Random(0).sample(ids, len(ids) // 4))
            assert_tables_equal_their_rebuild(one)
