import asyncio

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.analytic.extraction import RuleExtractor
from tests.conftest import history, scripted, tool_message

ROUNDS = [{"user": f"deep sleep: {i} h, total sleep: {i + 5} h"} for i in range(5)]


def test_model_written_metadata_is_sanitized():
    desc = {
        "name": "Nightly Sleep; DROP TABLE x",
        "description": "One night per row.",
        "columns": {"deep_sleep": "Deep sleep hours", "bogus": "ignored"},
    }
    model = scripted([tool_message(desc, name="TableDescription")])
    with Memory(":memory:", user_id="u", model=model, extractor=RuleExtractor()) as m:
        m.ingest(history(ROUNDS))
        (t,) = m.tables
        assert t.table_name == "nightly_sleep_drop_table_x"
        assert t.description == "One night per row."
        assert t.column("deep_sleep").description == "Deep sleep hours"
        assert t.column("total_sleep").description.startswith(
            "total_sleep: integer (h)"
        )


def test_model_failure_falls_back_to_derived_metadata():
    from langchain_core.messages import AIMessage

    model = scripted([AIMessage(content="I cannot do that")])
    with Memory(":memory:", user_id="u", model=model, extractor=RuleExtractor()) as m:
        m.ingest(history(ROUNDS))
        assert [t.table_name for t in m.tables] == ["sleep_log"]


def test_async_operators():
    with Memory(":memory:", user_id="u", config=AdaMMConfig()) as m:
        m.ingest(history(ROUNDS))

        async def run():
            return await asyncio.gather(
                m.acompute(
                    {
                        "table": "sleep_log",
                        "operator": "sum",
                        "target_column_expression": "deep_sleep",
                    }
                ),
                m.afilter({"table": "sleep_log"}),
                m.alookup({"table": "sleep_log", "key_values": {"deep_sleep": 2}}),
                m.arank(
                    {"table": "sleep_log", "target_column_expression": "total_sleep"}
                ),
            )

        total, rows, hit, ranked = asyncio.run(run())
        assert total.value == 10 and rows.row_count == 5
        assert [r["source"] for r in hit.rows] == ["S1:3"]
        assert ranked.rows[0]["total_sleep"] == 9
