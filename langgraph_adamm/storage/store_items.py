"""The LangGraph store's items (``adamm_store_items``): values as put, by key.

A store item is one key's value under a user's namespace (and, below it, a
sub-namespace: the labels after the user's, joined by ``.``, which LangGraph
forbids inside a label). Its text lives in the memory as a round; the item
keeps the value exactly as it was put, its times, and which round carries it
(none when it was put with ``index=False``). Deleting a round deletes the item
that it carries (:func:`langgraph_adamm.storage.rounds.delete_rounds`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from langgraph_adamm.storage.database import MemoryDatabase
from langgraph_adamm.storage.dialect import upsert

_COLUMNS = "user_id, namespace, key, round_id, value, created_at, updated_at"


@dataclass(frozen=True)
class StoredItem:
    """One row of ``adamm_store_items``, its value parsed and its times in UTC."""

    user_id: str
    namespace: tuple[str, ...]
    """The sub-namespace: labels after the user's (empty: the user's own)."""
    key: str
    round_id: str | None
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime


def _labels(joined: str) -> tuple[str, ...]:
    return tuple(joined.split(".")) if joined else ()


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment


def _naive(moment: datetime) -> datetime:
    """A UTC moment as the naive TIMESTAMP both engines store."""
    return moment.astimezone(timezone.utc).replace(tzinfo=None)


def _item(row: Sequence[Any]) -> StoredItem:
    user, namespace, key, round_id, value, created, updated = row
    return StoredItem(
        user,
        _labels(namespace),
        key,
        round_id,
        json.loads(value),
        _utc(created),
        _utc(updated),
    )


def get_item(
    db: MemoryDatabase, user_id: str, namespace: tuple[str, ...], key: str
) -> StoredItem | None:
    """The item stored under ``key``, or None."""
    rows = db.fetchall(
        f"SELECT {_COLUMNS} FROM adamm_store_items "
        "WHERE user_id = ? AND namespace = ? AND key = ?",
        [user_id, ".".join(namespace), key],
    )
    return _item(rows[0]) if rows else None


def put_item(db: MemoryDatabase, item: StoredItem) -> None:
    """Store ``item`` (replacing the one under its key)."""
    head, tail = upsert(
        "adamm_store_items", _COLUMNS.split(", "), ["user_id", "namespace", "key"]
    )
    db.execute(
        f"{head}VALUES (?, ?, ?, ?, ?, ?, ?){tail}",
        [
            item.user_id,
            ".".join(item.namespace),
            item.key,
            item.round_id,
            json.dumps(item.value, ensure_ascii=False, default=str),
            _naive(item.created_at),
            _naive(item.updated_at),
        ],
    )


def delete_item(
    db: MemoryDatabase, user_id: str, namespace: tuple[str, ...], key: str
) -> None:
    """Delete the item under ``key`` (nothing when there is none)."""
    db.execute(
        "DELETE FROM adamm_store_items WHERE user_id = ? AND namespace = ? AND key = ?",
        [user_id, ".".join(namespace), key],
    )


def user_items(db: MemoryDatabase, user_id: str) -> list[StoredItem]:
    """All of a user's items."""
    return [
        _item(row)
        for row in db.fetchall(
            f"SELECT {_COLUMNS} FROM adamm_store_items WHERE user_id = ?", [user_id]
        )
    ]


def items_of_rounds(
    db: MemoryDatabase, user_id: str, round_ids: Sequence[str]
) -> dict[str, StoredItem]:
    """The items the given rounds carry, by round id."""
    if not round_ids:
        return {}
    rows = db.fetchall(
        f"SELECT {_COLUMNS} FROM adamm_store_items WHERE user_id = ? "
        "AND round_id IN (SELECT unnest(?::VARCHAR[]))",
        [user_id, list(round_ids)],
    )
    return {row[3]: _item(row) for row in rows}


def store_users(db: MemoryDatabase) -> list[str]:
    """Every user with a stored round or a store item, sorted."""
    rows = db.fetchall(
        "SELECT user_id FROM adamm_rounds UNION SELECT user_id FROM adamm_store_items"
    )
    return sorted(user for (user,) in rows)


def has_plain_rounds(db: MemoryDatabase, user_id: str) -> bool:
    """Whether the user has a round that carries no store item."""
    return bool(
        db.fetchall(
            "SELECT 1 FROM adamm_rounds r WHERE r.user_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM adamm_store_items s WHERE s.user_id = r.user_id "
            "AND s.round_id = r.round_id) LIMIT 1",
            [user_id],
        )
    )


def sub_namespaces(db: MemoryDatabase, user_id: str) -> list[tuple[str, ...]]:
    """The sub-namespaces holding a user's items."""
    rows = db.fetchall(
        "SELECT DISTINCT namespace FROM adamm_store_items WHERE user_id = ?", [user_id]
    )
    return [_labels(joined) for (joined,) in rows]


__all__ = [
    "StoredItem",
    "delete_item",
    "get_item",
    "has_plain_rounds",
    "items_of_rounds",
    "put_item",
    "store_users",
    "sub_namespaces",
    "user_items",
]
