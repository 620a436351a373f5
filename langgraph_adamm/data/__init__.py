"""Data shipped with the package: a sample history and its questions.

``sample_history.json`` is a 30-day history of one user (``"demo"``) in the
history format (``docs/history-format.md``): sleep, workout, expense and game
records written in text, JSON, captions and OCR, between ordinary chat.
``sample_questions.jsonl`` holds questions about it with their gold answers.
"""

from __future__ import annotations

import atexit
from contextlib import ExitStack
from functools import cache
from importlib import resources
from pathlib import Path

__all__ = ["sample_history_path", "sample_questions_path"]


@cache
def _data_file(name: str) -> Path:
    """A real file path for a packaged data file, extracted once if zipped."""
    files = ExitStack()
    atexit.register(files.close)
    return files.enter_context(resources.as_file(resources.files(__name__) / name))


def sample_history_path() -> Path:
    """The bundled sample history (``sample_history.json``, user ``"demo"``).

    Example:
        ``Memory("memory.duckdb", user_id="demo").ingest(sample_history_path())``
    """
    return _data_file("sample_history.json")


def sample_questions_path() -> Path:
    """The questions about the sample history (``sample_questions.jsonl``).

    Read them with :func:`langgraph_adamm.history.read_questions`.
    """
    return _data_file("sample_questions.jsonl")
