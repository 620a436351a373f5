import pytest

from langgraph_adamm import AdaMMError, Memory, ToolInputError
from tests.conftest import history


def test_two_users_cannot_see_each_other(database, tmp_path):
    path = database("shared")
    alice_rounds = [
        {"user": f"deep sleep: {i} h, total sleep: {i + 6} h"} for i in range(5)
    ]
    bob_rounds = [{"user": f"amount: ${i}.50, category: food"} for i in range(5)]
    with Memory(path, user_id="alice") as alice:
        alice.ingest(history(alice_rounds, user_id="alice"))
        (a_table,) = alice.tables
    with Memory(path, user_id="bob") as bob:
        bob.ingest(history(bob_rounds, user_id="bob"))  # same round ids as alice's
        (b_table,) = bob.tables
        assert b_table.table_name != a_table.table_name
        with pytest.raises(ToolInputError, match="Unknown table"):
            bob.compute({"table": a_table.table_name, "operator": "count"})
        assert bob.analytic.round_status() == {"extracted": 5}
        assert (
            bob.compute(
                {
                    "table": b_table.table_name,
                    "operator": "sum",
                    "target_column_expression": "amount",
                }
            ).value
            == 12.5
        )
    with Memory(path, user_id="alice") as alice:
        assert [t.table_name for t in alice.tables] == [a_table.table_name]
        assert alice.analytic.counts.support({"deep_sleep"}) == 5
        assert alice.analytic.counts.support({"amount"}) == 0
        assert alice.analytic.namespace != bob.analytic.namespace


def test_history_of_another_user_is_refused(database, tmp_path):
    with Memory(database("m"), user_id="alice") as m:
        with pytest.raises(AdaMMError, match="belongs to user 'bob'"):
            m.ingest(history([{"user": "hi"}], user_id="bob"))
        assert m.analytic.round_status() == {}


def test_similar_user_ids_get_distinct_namespaces():
    from langgraph_adamm.storage import namespace_schema

    assert namespace_schema("Alice") != namespace_schema("alice")
    assert namespace_schema("a b") != namespace_schema("a_b")
    assert namespace_schema("'; DROP SCHEMA main; --").startswith(
        "mem_drop_schema_main_"
    )
