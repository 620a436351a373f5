"""Tables named after what the records call themselves.

A record's heading ("Daily glucose dashboard for Feb 03.", "Ride log –") is read
from the text before its first field; a heading that recurs over a table's
first rows names the table and enters its description, so that the planner
finds "glucose dashboards" although no column says glucose.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.analytic.extraction.rule_extractor import heading_of
from langgraph_adamm.history import history_from_dict
from tests.phrasings import load_corpus
from tools.benchmarks.bench_phrasings import read_heading


@pytest.mark.parametrize("entry", load_corpus("headings"), ids=lambda e: e["id"])
def test_heading_of_every_corpus_entry(entry):
    assert read_heading(entry) == entry["heading"]


@pytest.mark.parametrize(
    "prefix",
    ["", "Log: ", "Last night: ", "Exported from Google Fit: ", "ok so: "],
)
def test_no_heading(prefix):
    assert heading_of(prefix) is None


def history() -> dict:
    rounds = []
    for i in range(20):
        d = date(2026, 2, 1) + timedelta(days=i)
        rounds.append(
            {
                "time": f"{d}T21:00:00",
                "user": f"Daily glucose dashboard for {d:%b %d}. Time in range: "
                f"{70 + i % 9} %, Evening drift: {i % 5} mg/dL, Meal variability: "
                f"{10 + i % 4}",
            }
        )
        if i % 2 == 0:
            rounds.append(
                {
                    "time": f"{d}T18:00:00",
                    "user": f"Ride log – Distance {20 + i} km · Moving time "
                    f"{60 + i} min",
                }
            )
        rounds.append(
            {
                "time": f"{d}T08:00:00",
                "user": f"Sleep: {6 + i % 3} h, Deep: {60 + i} min",
            }
        )
    return {"user_id": "u1", "sessions": [{"session_id": "s1", "rounds": rounds}]}


def test_a_heading_names_its_table_and_the_planner_finds_it():
    with Memory(":memory:", user_id="u1", retrieval=False) as m:
        m.ingest(history_from_dict(history()))
        tables = {t["table"]: t for t in m.describe_tables()}
        assert {"glucose_dashboard", "ride_log"} <= set(tables), sorted(tables)
        assert '"glucose dashboard"' in tables["glucose_dashboard"]["description"]
        # No column says glucose; only the heading does.
        columns = {c["name"] for c in tables["glucose_dashboard"]["columns"]}
        assert not any("glucose" in c for c in columns)
        answer = m.ask("How many glucose dashboards have I shared?")
        assert answer["value"] == 20
        assert answer["steps"][0]["arguments"]["table"] == "glucose_dashboard"
        rides = m.ask("How many rides did I log?")
        assert rides["value"] == 10


def test_one_batch_and_one_round_at_a_time_name_alike():
    data = history_from_dict(history())
    with Memory(":memory:", user_id="u1", retrieval=False) as whole:
        whole.ingest(data)
        names = sorted(t["table"] for t in whole.describe_tables())
    one = AdaMMConfig(ingest_batch_size=1)
    with Memory(":memory:", user_id="u1", retrieval=False, config=one) as single:
        single.ingest(data)
        assert sorted(t["table"] for t in single.describe_tables()) == names
