"""The event-view vector indexes, persisted beside the database file.

Reopening a memory used to rebuild its FAISS indexes from every stored vector.
Now each user's text and visual indexes are written to
``<database>.index/<user key>/`` once the unsaved part reaches 5% of the memory
and on close (atomically: a temporary file, then a rename), with a fingerprint
of the views they hold: per
modality the number of view rows and a hash sum of their (round id, view name)
pairs, read from the database without the vectors. Beside each index its
owners (the event position of every row) and the rows deleted since the index
was last compacted (written as zero vectors) are kept as NumPy files, and the
vectors are mapped rather than read on open
(:meth:`~langgraph_adamm.retrieval.index.VectorIndex.read`), so reopening costs
little more than reading the round ids. On open the fingerprint is
recomputed, with a token that the database changes in every indexing
transaction; a missing, unreadable or stale file (another process indexed, a
crash came between the commit and the write, the database was rebuilt at the
same path) is rebuilt from the database and written again. An in-memory
database (``:memory:``) is never persisted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_adamm.retrieval.index import VectorIndex
from langgraph_adamm.retrieval.lexical import LexicalIndex

if TYPE_CHECKING:
    from langgraph_adamm.storage.database import MemoryDatabase

logger = logging.getLogger(__name__)
FORMAT = 3
"""2: owners beside the indexes; 3: and the rows deleted since the last
compaction (``*.dead.npy``)."""

LEXICAL_FILE = "lexical.npz"
"""The events' lexical index (:mod:`~langgraph_adamm.retrieval.lexical`),
written with the vector indexes under the same fingerprint."""

Stored = tuple[VectorIndex, "VectorIndex | None", array, array]
"""Text index, visual index (or None), and their owners."""


def index_folder(db: MemoryDatabase, user_id: str) -> Path | None:
    """Where one user's indexes live, or None for an in-memory or server database."""
    if db.file is None:
        return None
    key = hashlib.sha1(user_id.encode("utf-8")).hexdigest()[:16]
    return (
        Path(db.path).expanduser().resolve().with_name(Path(db.path).name + ".index")
        / key
    )


def fingerprint(
    db: MemoryDatabase, user_id: str, exclude_prefix: str
) -> dict[str, list[int]]:
    """Per modality: [view rows, hash sum of their (round id, view) pairs]."""
    out = {"text": [0, 0], "visual": [0, 0]}
    for modality, count, total in db.fetchall(
        "SELECT modality, count(*), "
        "coalesce(sum(hash(round_id || '|' || view)), 0) "
        "FROM adamm_event_views WHERE user_id = ? AND NOT starts_with(view, ?) "
        "GROUP BY modality",
        [user_id, exclude_prefix],
    ):
        out[str(modality)] = [int(count), int(total)]
    return out


def _owners(path: Path, rows: int) -> array:
    """An owner file: event positions, one per index row, never decreasing."""
    values = np.load(path, allow_pickle=False)
    if (
        values.ndim != 1
        or len(values) != rows
        or values.dtype.kind not in "iu"
        or (rows and (values[0] < 0 or np.any(np.diff(values) < 0)))
    ):
        raise ValueError(f"{path.name} does not match its index")
    return array("q", values.astype(np.int64).tobytes())


def load(
    folder: Path | None, expected: dict[str, Any], **options: Any
) -> Stored | None:
    """The persisted indexes and owners when they match ``expected``."""
    if folder is None:
        return None
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if meta != {"format": FORMAT, **expected}:
        return None
    try:
        text = _read(folder, "text", options)
        text_owner = _owners(folder / "text.owner.npy", len(text))
        visual, visual_owner = None, array("q")
        if (folder / "visual.faiss").is_file():
            visual = _read(folder, "visual", options)
            visual_owner = _owners(folder / "visual.owner.npy", len(visual))
    except Exception as exc:  # noqa: BLE001 - a damaged file is rebuilt
        logger.warning("persisted index in %s unreadable (%s); rebuilding", folder, exc)
        return None
    if len(text) != expected["views"]["text"][0] or (
        len(visual or ()) != expected["views"]["visual"][0]
    ):
        return None
    return text, visual, text_owner, visual_owner


def load_lexical(
    folder: Path | None,
    expected: dict[str, Any],
    read: Callable[[Path], LexicalIndex],
    events: int,
) -> LexicalIndex | None:
    """The persisted lexical index when it matches ``expected`` and the events.

    ``read`` opens the file with the memory's settings (a file made with other
    settings raises ValueError and is rebuilt).
    """
    if folder is None:
        return None
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if meta != {"format": FORMAT, **expected} or not (folder / LEXICAL_FILE).is_file():
        return None
    try:
        index = read(folder / LEXICAL_FILE)
    except Exception as exc:  # noqa: BLE001 - a damaged file is rebuilt
        logger.warning("lexical index in %s unreadable (%s); rebuilding", folder, exc)
        return None
    return index if len(index) == events else None


def _read(folder: Path, name: str, options: dict[str, Any]) -> VectorIndex:
    dead = np.load(folder / f"{name}.dead.npy", allow_pickle=False)
    return VectorIndex.read(folder / f"{name}.faiss", dead=dead, **options)


def discard(folder: Path | None) -> None:
    """Delete persisted index files (after a forget, until they are written again)."""
    if folder is None or not folder.is_dir():
        return
    for name in ("meta.json", LEXICAL_FILE, *_files("text"), *_files("visual")):
        try:
            (folder / name).unlink(missing_ok=True)
        except OSError as exc:
            logger.warning("could not delete %s: %s", folder / name, exc)


def _files(name: str) -> tuple[str, str, str]:
    return f"{name}.faiss", f"{name}.owner.npy", f"{name}.dead.npy"


def save(
    folder: Path | None,
    expected: dict[str, Any],
    text: VectorIndex,
    visual: VectorIndex | None,
    owners: tuple[Sequence[int], Sequence[int]],
    lexical: LexicalIndex | None = None,
) -> None:
    """Write the indexes, owners and fingerprint; a failure is logged, not raised."""
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "meta.json").unlink(missing_ok=True)  # stale until rewritten
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            for name, index, owner in (
                ("text", text, owners[0]),
                ("visual", visual, owners[1]),
            ):
                if index is None:
                    for file in _files(name):
                        (folder / file).unlink(missing_ok=True)
                    continue
                index.write(Path(tmp) / f"{name}.faiss")
                np.save(Path(tmp) / f"{name}.owner.npy", np.asarray(owner, np.int64))
                np.save(Path(tmp) / f"{name}.dead.npy", index.dead_rows)
                for file in _files(name):
                    os.replace(Path(tmp) / file, folder / file)
            if lexical is None:
                (folder / LEXICAL_FILE).unlink(missing_ok=True)
            else:
                lexical.write(Path(tmp) / LEXICAL_FILE)
                os.replace(Path(tmp) / LEXICAL_FILE, folder / LEXICAL_FILE)
            meta = Path(tmp) / "meta.json"
            meta.write_text(json.dumps({"format": FORMAT, **expected}), "utf-8")
            os.replace(meta, folder / "meta.json")
    except Exception as exc:  # noqa: BLE001 - a full disk must not stop the memory
        logger.warning("could not persist the vector index in %s: %s", folder, exc)
