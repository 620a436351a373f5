"""What ingesting and forgetting report, and how progress is counted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from langgraph_adamm.analytic.forget import AnalyticForget
from langgraph_adamm.analytic.memory import BatchOutcome
from langgraph_adamm.history import HistoryProblem

if TYPE_CHECKING:
    from langgraph_adamm.retrieval.memory import RetrievalForget

ProgressCallback = Callable[[int, int], None]
"""Called with (rounds processed so far, rounds to process)."""


@dataclass
class IngestReport:
    """What an ingestion did; ``str()`` gives the command line's summary."""

    rounds_read: int = 0
    rounds_new: int = 0
    rounds_already_stored: int = 0
    rounds_processed: int = 0
    observations: int = 0
    observations_ungrounded: int = 0
    """Model observations dropped because their source does not state them."""
    schemas_discovered: list[str] = field(default_factory=list)
    schemas_evolved: list[str] = field(default_factory=list)
    schemas_merged: list[str] = field(default_factory=list)
    rounds_indexed: int = 0
    image_problems: list[tuple[str, str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    problems: list[HistoryProblem] = field(default_factory=list)
    tables: int = 0
    labels_joined: dict[str, str] = field(default_factory=dict)
    """Attribute name -> the name of its kind's attribute (realignment)."""
    rounds_reread: int = 0
    """Rounds applied again after realignment (joined names, guided reading)."""

    def add(self, outcome: BatchOutcome) -> None:
        """Fold one batch's outcome into the report."""
        self.rounds_processed += outcome.processed
        self.observations += outcome.observations
        self.observations_ungrounded += outcome.ungrounded
        self.failures.extend(outcome.failures)
        for name in outcome.discovered:
            if name not in self.schemas_discovered:
                self.schemas_discovered.append(name)
        self.schemas_merged.extend(outcome.merged)
        for name in outcome.evolved:
            if name not in self.schemas_evolved and name not in self.schemas_discovered:
                self.schemas_evolved.append(name)

    def __str__(self) -> str:
        lines = [
            f"rounds: {self.rounds_read} read, {self.rounds_new} new, "
            f"{self.rounds_already_stored} already stored, "
            f"{self.rounds_processed} processed",
            f"observations: {self.observations}"
            + (
                f" ({self.observations_ungrounded} ungrounded, dropped)"
                if self.observations_ungrounded
                else ""
            ),
            f"schemas: {len(self.schemas_discovered)} discovered, "
            f"{len(self.schemas_evolved)} evolved, {len(self.schemas_merged)} merged, "
            f"{self.tables} tables in memory",
            f"kinds: {len(self.labels_joined)} labels joined, "
            f"{self.rounds_reread} rounds read again",
            f"retrieval: {self.rounds_indexed} rounds indexed, "
            f"{len(self.image_problems)} unreadable images",
            f"failures: {len(self.failures)}",
        ]
        for rid, iid, problem in self.image_problems[:10]:
            lines.append(f"  image {iid} of round {rid}: {problem[:200]}")
        for rid, err in self.failures[:10]:
            lines.append(f"  {rid}: {err[:200]}")
        if self.problems:
            lines.append(f"input problems: {len(self.problems)}")
            lines.extend(f"  {p}" for p in self.problems[:10])
        return "\n".join(lines)


@dataclass
class ForgetReport:
    """What :meth:`Memory.forget` removed (or, in a dry run, would remove)."""

    round_ids: list[str]
    dry_run: bool = False
    analytic: AnalyticForget | None = None
    """The analytic side: observations, counts, tables dropped or rebuilt."""
    retrieval: RetrievalForget | None = None

    def __str__(self) -> str:
        verb = "would forget" if self.dry_run else "forgot"
        lines = [f"{verb} {len(self.round_ids)} round(s)"]
        a = self.analytic
        if a is not None:
            lines.append(
                f"analytic: {a.observations} observation(s), {a.patterns_changed} "
                f"pattern count(s) changed, rows deleted from: "
                f"{', '.join(a.deleted_in_place) or 'none'}, tables rebuilt: "
                f"{', '.join(a.rebuilt) or 'none'}"
            )
            lines += [f"table {name} dropped: {why}" for name, why in a.dropped]
            lines += [
                f"table {name} back to {', '.join(after)}: {why}"
                for name, _, after, why in a.shrunk
            ]
        if self.retrieval is not None:
            r = self.retrieval
            lines.append(
                f"retrieval: {r.events} event(s), {r.views} view(s); episodes "
                f"changed {len(r.episodes_changed)}, removed "
                f"{len(r.episodes_removed)}; topics changed {len(r.topics_changed)}, "
                f"removed {len(r.topics_removed)}"
            )
        return "\n".join(lines)


def progress_counter(
    progress: ProgressCallback | None, total: int
) -> Callable[[], None] | None:
    """A per-round callback that reports (done, total) to ``progress``."""
    if progress is None:
        return None
    done = [0]
    if total:
        progress(0, total)  # the total is known before the first round

    def tick() -> None:
        done[0] += 1
        progress(done[0], total)

    return tick
