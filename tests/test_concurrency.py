"""Concurrent ingestion on one Memory: the result equals sequential ingestion.

Four threads and four ``aingest`` tasks ingest overlapping and disjoint
histories into one Memory; every round is stored, extracted, materialized and
indexed exactly once, and the tables equal those of the same histories
ingested one after another.
"""

from __future__ import annotations

import asyncio
import re
import threading

import pytest

from langgraph_adamm import Memory
from langgraph_adamm.history import history_from_dict
from tools.datasets.everyday_checks import snapshot
from tools.support.memory_state import HashEncoder

pytest.importorskip("faiss")


def histories():
    """Eight histories: pairs overlap (same round ids), the pairs are disjoint."""
    kinds = [
        lambda d: f"Sleep: {6 + d % 3}.{d % 10} h, Deep sleep: 1.{d % 9} h",
        lambda d: f"Steps: {8000 + 37 * d}, Active minutes: {20 + d % 40}",
        lambda d: f"Weight: {70 + d % 5}.{d % 10} kg, Body fat: {18 + d % 4} %",
        lambda d: f"Amount: ${3 + d % 20}.50, Merchant: Cafe {d % 3}",
    ]
    out = []
    for k, render in enumerate(kinds):
        sessions = [
            {
                "session_id": f"K{k}-D{d}",
                "date": f"2026-03-{d:02d}",
                "rounds": [
                    {"round_id": f"K{k}-D{d}", "user": render(d)},
                    {"round_id": f"K{k}-D{d}-chat", "user": f"thanks, day {d}"},
                ],
            }
            for d in range(1, 21)
        ]
        full = {"user_id": "u", "sessions": sessions}
        part = {"user_id": "u", "sessions": sessions[5:15]}  # overlaps ``full``
        out += [full, part]
    return out


def memory():
    return Memory(
        ":memory:", user_id="u", text_encoder=HashEncoder(), visual_encoder=None
    )


def counts(m):
    rows = m.db.fetchall(
        "SELECT (SELECT count(*) FROM adamm_rounds), "
        "(SELECT count(*) FROM adamm_observations), "
        "(SELECT count(*) FROM adamm_events), "
        "(SELECT count(*) FROM adamm_event_views)"
    )
    return rows[0]


def without_order(tables):
    return [
        (*t[:3], sorted(re.sub(r"'order': \d+, ", "", row) for row in t[3]))
        for t in tables
    ]


def test_threads_and_tasks_ingest_like_one_after_another():
    hs = histories()
    with memory() as seq:
        for h in hs:
            seq.ingest(history_from_dict(h))
        expected_tables, expected_counts = snapshot(seq), counts(seq)
    assert expected_counts[0] == 160 and expected_counts[2] == 160

    with memory() as m:
        errors: list[BaseException] = []

        def run(h):
            try:
                m.ingest(history_from_dict(h))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        async def tasks():
            await asyncio.gather(*(m.aingest(history_from_dict(h)) for h in hs[1::2]))

        threads = [threading.Thread(target=run, args=(h,)) for h in hs[0::2]]
        for t in threads:
            t.start()
        asyncio.run(tasks())
        for t in threads:
            t.join()
        assert not errors
        assert counts(m) == expected_counts
        # Equal to a sequential ingest, up to the history order of the rounds,
        # which is the order the ingestions took their turns in.
        assert without_order(snapshot(m)) == without_order(expected_tables)
        again = m.ingest(history_from_dict(hs[0]))
        assert again.rounds_new == 0 and again.rounds_processed == 0


def test_many_queued_tasks_neither_exhaust_threads_nor_leak_the_lock():
    from concurrent.futures import ThreadPoolExecutor

    hs = histories()

    async def main(m):
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=3))
        tasks = [asyncio.create_task(m.aingest(history_from_dict(h))) for h in hs]
        tasks[-1].cancel()  # a cancelled waiter must not keep the lock
        done = await asyncio.wait_for(
            asyncio.gather(*tasks, return_exceptions=True), timeout=120
        )
        return done

    with memory() as m:
        results = asyncio.run(main(m))
        assert sum(not isinstance(r, BaseException) for r in results) >= 7
        assert not m.db.ingest_lock.locked()
