"""End to end on the everyday generator: exact values from records as people write them.

Histories from ``tools/datasets/everyday_history.py`` mix every phrasing family, units
(h/min/h:mm, kg/lb, km/mi, "k" steps, decimal commas), undated sessions and two
record kinds that share an attribute. Every check is answered with the operator
call a correct planner makes (``tools/datasets/everyday_checks.py``) and must reproduce
the generated value exactly.
"""

from __future__ import annotations

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict
from tools.datasets.everyday_checks import run_checks, snapshot, table_for
from tools.datasets.everyday_history import generate_everyday


def ingest(data, **kw):
    m = Memory(":memory:", user_id=data.history["user_id"], retrieval=False, **kw)
    rep = m.ingest(history_from_dict(data.history))
    assert not rep.failures
    return m


@pytest.mark.parametrize("seed", [0, 2, 6, 7, 11])
def test_every_check_is_reproduced_exactly(seed):
    data = generate_everyday(days=60, seed=seed)
    with ingest(data) as m:
        assert run_checks(m, data.checks) == []
        # Every generated record is a row, exactly once, of its kind's table.
        for kind, records in data.records.items():
            table = table_for(m, list(records[0].values))
            rows = m.filter({"table": table.table_name, "result_budget": 1000})
            assert rows.row_count == len(records), kind


def test_one_batch_and_one_round_at_a_time_are_identical():
    data = generate_everyday(days=20, seed=3)
    with ingest(data) as whole:
        expected = snapshot(whole)
    with ingest(data, config=AdaMMConfig(ingest_batch_size=1)) as each:
        assert snapshot(each) == expected
    # And session by session, each a separate ingest call.
    with Memory(":memory:", user_id=data.history["user_id"], retrieval=False) as m:
        for session in data.history["sessions"]:
            one = {"user_id": data.history["user_id"], "sessions": [session]}
            m.ingest(history_from_dict(one))
        assert snapshot(m) == expected
