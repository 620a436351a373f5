"""Forgetting rounds as if they had never been ingested: one transaction, both memories.

:class:`Forgetting` selects the rounds, then has each part remove what it
owns, in the order indexing takes its locks: the analytic memory its
observations, counts and tables; the retrieval memory its events, views,
episodes and topics; the stored rounds go last (``storage/rounds.py``), and
the planner's statistics are refreshed inside the same transaction, so that a
rollback puts everything back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from typing import Any

from langgraph_adamm.analytic.memory import AnalyticMemory
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.planning.vectors import column_phrases
from langgraph_adamm.reports import ForgetReport
from langgraph_adamm.retrieval.memory import RetrievalMemory
from langgraph_adamm.storage import rounds
from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.text_vectors import prune_vectors
from langgraph_adamm.storage.writers import UserWriter


class Forgetting:
    """Forgets one user's rounds from every part that holds them.

    Args:
        db: The database.
        user_id: The user.
        analytic: The user's analytic memory.
        retrieval: The user's retrieval memory when it is open or its rounds
            need it (called with whether they do); None when it is off.
        writer: The user's write lock.
    """

    def __init__(
        self,
        db: MemoryDatabase,
        user_id: str,
        analytic: AnalyticMemory,
        retrieval: Callable[[bool], RetrievalMemory | None],
        writer: UserWriter,
    ) -> None:
        self.db = db
        self.user_id = user_id
        self.analytic = analytic
        self.retrieval = retrieval
        self.writer = writer

    def select(
        self,
        round_ids: Sequence[str] | None = None,
        *,
        session_id: str | None = None,
        before: datetime | None = None,
        everything: bool = False,
    ) -> list[str]:
        """The stored round ids one selector names (see ``Memory.rounds_to_forget``)."""
        chosen = [
            name
            for name, value in (
                ("round_ids", round_ids is not None),
                ("session_id", session_id is not None),
                ("before", before is not None),
                ("everything", everything),
            )
            if value
        ]
        if len(chosen) != 1:
            raise AdaMMError(
                "forget takes exactly one of round_ids, session_id, before and "
                f"everything=True (got {', '.join(chosen) or 'none'})"
            )
        if isinstance(round_ids, str):
            raise AdaMMError("round_ids must be a list of round ids, not one string")
        if before is not None and not isinstance(before, datetime):
            raise AdaMMError("before must be a datetime")
        return rounds.round_ids(
            self.db, self.user_id, among=round_ids, session_id=session_id, before=before
        )

    def forget(self, ids: list[str], *, dry_run: bool) -> ForgetReport:
        """Forget ``ids`` (the caller holds the ingest and the user's write lock)."""
        report = ForgetReport(round_ids=ids, dry_run=dry_run)
        if dry_run or not ids:
            return report
        indexed = rounds.indexed_rounds(self.db, self.user_id, ids)
        # the retrieval memory (and its model) is opened only when it holds
        # some of the rounds, or is open already
        retrieval = self.retrieval(bool(indexed))
        if indexed and retrieval is None:
            raise AdaMMError(
                "these rounds are in the retrieval memory, which this Memory "
                "was opened without; open it with retrieval on to forget them"
            )
        # locks in the order indexing takes them: index, the retrieval state
        # (no search sees half of it), then the database
        state: AbstractContextManager[Any] = (
            retrieval.state_lock if retrieval is not None else nullcontext()
        )
        with self.db.index_lock, state:
            try:
                with self.db.transaction():
                    report.analytic = self.analytic.forget_rounds(ids)
                    if retrieval is not None:
                        report.retrieval = retrieval.forget_rounds(ids)
                    rounds.delete_rounds(self.db, self.user_id, ids)
                    # a column gone with its rounds takes its name's vector
                    prune_vectors(
                        self.db,
                        self.user_id,
                        column_phrases(self.analytic.tables),
                    )
                    # in the transaction: the rows it deleted are not sampled,
                    # and a rollback puts the statistics back too; a rebuilt
                    # table is new, without statistics yet
                    shrunk = set(report.analytic.deleted_in_place)
                    self.db.refresh_statistics(
                        [
                            self.analytic.qualified(t)
                            for t in self.analytic.tables
                            if t.table_name in shrunk
                        ]
                    )
            except BaseException:
                self.analytic.reload()
                if retrieval is not None:
                    retrieval.reload()
                raise
            if retrieval is not None and report.retrieval and report.retrieval.events:
                retrieval.forget_saved(report.retrieval.events)
        return report
