import pytest

from langgraph_adamm import AdaMMConfig, Memory
from tests.conftest import history


def rounds_ab_then_abc():
    rs = [{"user": f"a: {i}, b: {i * 10}"} for i in range(4)]
    rs += [{"user": f"a: {i}, b: {i * 10}, c: {i}.5 kg"} for i in range(4, 20)]
    return rs


@pytest.fixture
def paper_memory():
    """AdaMM's tables: a schema's attributes only, no optional columns."""
    mem = Memory(
        ":memory:",
        user_id="u",
        config=AdaMMConfig(ingest_batch_size=1, optional_columns=False),
    )
    yield mem
    mem.close()


def test_an_owned_attribute_is_a_column_before_the_schema_grows(memory):
    # c is stated only beside a and b: an optional column (null in the first
    # rounds) before extension-confidence makes it the schema's at round 20
    rs = rounds_ab_then_abc()
    memory.ingest(history(rs[:19]))
    (t,) = memory.tables
    assert [c.name for c in t.columns] == ["a", "b", "c"]
    assert t.attributes == frozenset({"a", "b"})
    rows = memory.filter({"table": t.table_name, "result_budget": 100}).rows
    assert [r["c"] for r in rows[:5]] == [None, None, None, None, 4.5]
    memory.ingest(history(rs))
    (t2,) = memory.tables
    assert t2.attributes == frozenset({"a", "b", "c"})
    assert [c.name for c in t2.columns] == ["a", "b", "c"]


def test_evolution_appends_a_column_and_rematerializes(paper_memory):
    memory = paper_memory
    rs = rounds_ab_then_abc()
    memory.ingest(history(rs[:19]))
    (t,) = memory.tables
    assert [c.name for c in t.columns] == ["a", "b"] and t.version == 1
    rep = memory.ingest(history(rs))
    assert rep.rounds_new == 1 and rep.schemas_evolved == [t.table_name]
    (t2,) = memory.tables
    assert t2.table_name == t.table_name and t2.version == 2
    assert [c.name for c in t2.columns] == ["a", "b", "c"]  # appended at the end
    assert t2.column("c").sql_type == "DOUBLE" and t2.column("c").unit == "kg"
    rows = memory.filter({"table": t.table_name, "result_budget": 100}).rows
    assert len(rows) == 20
    assert [r["c"] for r in rows[:5]] == [None, None, None, None, 4.5]  # rematerialized
    assert rows[-1] == {
        "source": "S1:20",
        "order": 20,
        "time": "2026-03-01T00:00:00",
        "a": 19,
        "b": 190,
        "c": 19.5,
    }


def test_reingesting_the_same_rounds_adds_nothing(memory):
    h = history(rounds_ab_then_abc())
    memory.ingest(h)
    before = memory.describe_tables()
    rep = memory.ingest(h)
    assert (rep.rounds_new, rep.rounds_already_stored, rep.rounds_processed) == (
        0,
        20,
        0,
    )
    assert memory.describe_tables() == before
    assert memory.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0] == 20


def test_state_survives_reopening(database, tmp_path):
    path = database("m")
    rs = rounds_ab_then_abc()
    config = AdaMMConfig(ingest_batch_size=1, optional_columns=False)
    with Memory(path, user_id="u", config=config) as m:
        m.ingest(history(rs[:19]))
    with Memory(path, user_id="u", config=config) as m:
        assert m.analytic.counts.support({"a", "b"}) == 19
        m.ingest(history(rs))
        assert m.tables[0].version == 2  # mining continued from the stored counts


def test_integer_column_widens_on_a_fraction(memory):
    rs = [{"user": f"x: {i}, y: {i}"} for i in range(6)] + [{"user": "x: 2.5, y: 7"}]
    memory.ingest(history(rs))
    (t,) = memory.tables
    assert t.column("x").sql_type == "DOUBLE"
    assert (
        memory.compute(
            {"table": t.table_name, "operator": "sum", "target_column_expression": "x"}
        ).value
        == 17.5
    )


def test_mixed_units_are_converted_to_the_column_unit(memory):
    rs = [
        {"user": f"sleep: {v}, score: 1"}
        for v in ("7 h", "6.5 h", "390 min", "7 h 30 min", "8h")
    ]
    memory.ingest(history(rs))
    (t,) = memory.tables
    assert t.column("sleep").unit == "h"
    vals = [r["sleep"] for r in memory.filter({"table": t.table_name}).rows]
    assert vals == [7.0, 6.5, 6.5, 7.5, 8.0]


def test_offline_metadata_describes_the_table(memory):
    rs = [{"user": f"deep sleep: {i} h, total sleep: {i + 5} h"} for i in range(5)]
    memory.ingest(history(rs))
    (t,) = memory.tables
    assert t.table_name == "sleep_log"
    assert "deep_sleep (h)" in t.description
    assert t.column("deep_sleep").samples[:2] == ("0", "1")
