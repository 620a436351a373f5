"""The shared interaction-history format: data model and a reader that never guesses.

A history is a list of sessions; a session is a list of rounds; a round is one
user-agent exchange with its images and its time (the paper's R = (d, V, τ)). See
``docs/history-format.md``. The reader reports every bad round with the file, the
line or JSON path and the field, and keeps the valid rounds.

This module holds the data model and the public reading functions; the reader
itself is :mod:`langgraph_adamm.history_reader`, imported when a file is read
(it builds this module's types, so it cannot be imported here at the top).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

DEFAULT_USER_ID = "default"


@dataclass(frozen=True)
class ImageRef:
    """An image attached to a round; at least one of path, url or caption is set."""

    image_id: str
    path: str | None = None
    url: str | None = None
    caption: str | None = None
    ocr: str | None = None
    problem: str | None = None
    """Set when the file is missing or unreadable; the round is kept regardless."""


@dataclass(frozen=True)
class Round:
    """One user-agent exchange."""

    round_id: str
    session_id: str
    time: datetime | None = None
    user: str = ""
    assistant: str = ""
    images: tuple[ImageRef, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Session:
    """Rounds that belong together, in order."""

    session_id: str
    date: date | None = None
    rounds: tuple[Round, ...] = ()


@dataclass(frozen=True)
class History:
    """A user's interaction history."""

    user_id: str = DEFAULT_USER_ID
    sessions: tuple[Session, ...] = ()

    def rounds(self) -> Iterator[Round]:
        """All rounds in history order."""
        for session in self.sessions:
            yield from session.rounds

    @property
    def round_count(self) -> int:
        """Number of rounds over all sessions."""
        return sum(len(s.rounds) for s in self.sessions)


@dataclass(frozen=True)
class HistoryProblem:
    """One thing wrong with an input file, located precisely."""

    file: str
    location: str
    message: str
    fatal_for_round: bool = True
    """False for problems (such as a missing image file) that keep the round."""

    def __str__(self) -> str:
        return f"{self.file}: {self.location}: {self.message}"


@dataclass(frozen=True)
class HistoryReadResult:
    """A parsed history plus everything that was wrong with the file."""

    history: History
    problems: tuple[HistoryProblem, ...] = ()

    @property
    def skipped_rounds(self) -> int:
        """Rounds dropped because they were invalid."""
        return sum(1 for p in self.problems if p.fatal_for_round)


def parse_time(value: Any) -> datetime:
    """Parse an ISO 8601 date or date-time into a naive UTC-free datetime.

    Aware times are converted to UTC and made naive so that every stored time
    compares with every other.

    Raises:
        ValueError: if the value is not an ISO 8601 date or date-time string.
    """
    if not isinstance(value, str):
        raise ValueError(f"expected an ISO 8601 string, got {type(value).__name__}")
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        try:
            parsed = datetime.combine(date.fromisoformat(text), datetime.min.time())
        except ValueError:
            raise ValueError(
                f"expected an ISO 8601 date or date-time, got {value!r}"
            ) from None
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
        except OverflowError:
            raise ValueError(f"{value!r} is out of the representable range") from None
    return parsed


def read_history(path: str | Path, *, strict: bool = False) -> HistoryReadResult:
    """Read a history in the shared format (JSON document or JSON Lines).

    Args:
        path: The history file.
        strict: Raise on the first problem instead of reporting it and keeping the
            valid rounds.

    Raises:
        HistoryFormatError: if the file cannot be read at all, has an unknown
            shape, or (with ``strict``) has any problem.
    """
    from langgraph_adamm.history_reader import read_file

    return read_file(path, strict=strict)


def history_from_dict(doc: dict[str, Any], base_dir: str | Path = ".") -> History:
    """Build a history from an in-memory JSON document, strictly."""
    from langgraph_adamm.history_reader import read_document

    return read_document(doc, base_dir)


@dataclass(frozen=True)
class Question:
    """An evaluation question with its gold answer."""

    question_id: str
    question: str
    answer: str | None = None
    type: str | None = None
    evidence: tuple[str, ...] = ()
    question_time: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def read_questions(path: str | Path) -> list[Question]:
    """Read a questions file (JSON Lines, one question per line).

    Raises:
        HistoryFormatError: naming the line and field of the first bad question.
    """
    from langgraph_adamm.history_reader import read_question_file

    return read_question_file(path)
