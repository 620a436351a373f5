"""Loader of the phrasing corpus in ``tests/data/phrasings/`` (see its README).

    from tests.phrasings import load_corpus

    for entry in load_corpus():
        entry["family"], entry["id"], entry["text"], entry.get("expect")

Each entry is one JSON line of ``<family>.jsonl`` with its ``family`` added.
Single-record entries carry ``expect``; multi-record ones (JSON arrays, tables of
several rows) carry ``records`` instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(__file__).parent / "data" / "phrasings"


def families() -> list[str]:
    """The family names, one per JSONL file, sorted."""
    return sorted(p.stem for p in CORPUS_DIR.glob("*.jsonl"))


def load_corpus(family: str | None = None) -> list[dict[str, Any]]:
    """Every entry of every family (or of one), in file order, with ``family``."""
    names = families() if family is None else [family]
    entries: list[dict[str, Any]] = []
    for name in names:
        path = CORPUS_DIR / f"{name}.jsonl"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: {exc}") from exc
            entry["family"] = name
            entries.append(entry)
    return entries
