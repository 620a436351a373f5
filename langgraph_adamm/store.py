"""A LangGraph ``BaseStore`` over the memory: store-based agents and LangMem use it.

    store = AdaMMStore(memory)
    graph = builder.compile(store=store)          # runtime.store, get_store()
    manage = create_manage_memory_tool(("memories", "{langgraph_user_id}"))

A namespace names a user: with the default template ``("memories",
"{user_id}")``, ``("memories", "alice")`` is alice's memory, and labels after
it (``("memories", "alice", "prefs")``) are sub-namespaces of hers. What is
put becomes a round of her memory, so it is extracted into tables, indexed
into the hierarchy, and found by search (lexical and dense, the hierarchy's
episode context blended in); the value itself is kept as put, and ``get``
gives it back exactly. A second put of a key replaces its round; a delete
forgets it as :meth:`Memory.forget` does (observations, table rows, vectors
and words go). Rounds that came in another way - an ingested history, an
agent's turns - are items of the user's own namespace too, keyed by round id,
so a store-based agent sees the whole memory.

Batches run their operations in order; consecutive puts of one user are
ingested together. Time-to-live is not supported (``supports_ttl`` is False:
a ``ttl`` is refused by ``BaseStore``); memories are forgotten by delete or
:meth:`Memory.forget`.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from langgraph_adamm.history import History, Round, Session
from langgraph_adamm.messages import content_parts, message_content, message_role
from langgraph_adamm.storage import rounds, store_items
from langgraph_adamm.storage.store_items import StoredItem

if TYPE_CHECKING:
    from langgraph_adamm.memory import Memory

USER_LABEL = "{user_id}"
DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", USER_LABEL)
SEARCH_DEPTH = 50
"""Query search ranks at least this many rounds before the namespace and the
filter narrow them (more when ``offset + limit`` asks for more)."""

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_WORD = re.compile(r"\w+")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _text_of(value: dict[str, Any]) -> tuple[str, str]:
    """(user text, assistant text) of a value: what the memory reads of it.

    ``content`` as text is the text; as LangChain messages (or message dicts)
    the human side and the AI side; anything else is read as its JSON.
    """
    content = value.get("content")
    if isinstance(content, str):
        return content, ""
    if isinstance(content, list) and content and all(message_role(m) for m in content):
        sides: dict[str, list[str]] = {"human": [], "ai": []}
        for i, message in enumerate(content):
            text, _ = content_parts(message_content(message), f"content[{i}]")
            if text.strip():
                sides[str(message_role(message))].append(text)
        return "\n".join(sides["human"]), "\n".join(sides["ai"])
    shown = value if content is None else content
    return json.dumps(shown, ensure_ascii=False, default=str), ""


def _round_value(rnd: Round) -> dict[str, Any]:
    """The value a round that did not come through the store shows as an item."""
    parts = [p for p in (rnd.user, rnd.assistant) if p]
    parts += [img.caption or img.ocr or "" for img in rnd.images]
    return {
        "content": "\n".join(p for p in parts if p),
        "session_id": rnd.session_id,
        "time": rnd.time.isoformat() if rnd.time else None,
    }


def _matches(value: Any, wanted: Any) -> bool:
    """Whether a value meets a store filter (equality, nested, ``$`` operators)."""
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_compare(value, op, arg) for op, arg in wanted.items())
        return isinstance(value, dict) and all(
            _matches(value.get(k), v) for k, v in wanted.items()
        )
    return bool(value == wanted)


def _compare(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(
            f"unsupported filter operator {op!r} (use $eq, $ne, $gt, $gte, $lt or $lte)"
        )
    try:
        a, b = float(value), float(arg)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]


def _fits(labels: tuple[str, ...], pattern: tuple[str, ...], suffix: bool) -> bool:
    if len(labels) < len(pattern):
        return False
    if suffix:
        labels, pattern = labels[::-1], pattern[::-1]
    return all(p == "*" or a == p for a, p in zip(labels, pattern, strict=False))


def _namespace_matches(namespace: tuple[str, ...], c: MatchCondition) -> bool:
    return _fits(namespace, tuple(c.path), c.match_type == "suffix")


@dataclass
class _PendingPuts:
    """Consecutive puts of one batch, ingested together."""

    ops: dict[tuple[tuple[str, ...], str], PutOp] = field(default_factory=dict)

    def add(self, op: PutOp) -> None:
        self.ops.pop((op.namespace, op.key), None)  # the last put of a key wins
        self.ops[(op.namespace, op.key)] = op


class AdaMMStore(BaseStore):
    """LangGraph's long-term store interface over a :class:`Memory`.

    Args:
        memory: The memory (any user's view of it; namespaces pick the user).
        namespace: The namespace template: fixed labels and one ``"{user_id}"``
            label, which names the user. Labels after the template's are
            sub-namespaces of that user.
    """

    supports_ttl: bool = False

    def __init__(
        self, memory: Memory, *, namespace: Sequence[str] = DEFAULT_NAMESPACE
    ) -> None:
        template = tuple(namespace)
        if template.count(USER_LABEL) != 1:
            raise ValueError(
                f"namespace template {template!r} must hold {USER_LABEL!r} "
                "exactly once (the label that names the user)"
            )
        self.memory = memory
        self.template = template
        self._user_at = template.index(USER_LABEL)

    # -- namespaces -------------------------------------------------------------
    def _split(self, namespace: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """(user, sub-namespace) of an item's namespace."""
        n = len(self.template)
        if len(namespace) < n or any(
            t != USER_LABEL and t != label
            for t, label in zip(self.template, namespace, strict=False)
        ):
            raise InvalidNamespaceError(
                f"namespace {namespace!r} does not fit this store's template "
                f"{self.template!r} (the {USER_LABEL} label names the user; "
                "labels after the template's are sub-namespaces)"
            )
        return namespace[self._user_at], tuple(namespace[n:])

    def _full(self, user: str, sub: tuple[str, ...]) -> tuple[str, ...]:
        head = tuple(user if t == USER_LABEL else t for t in self.template)
        return head + sub

    def _users_under(self, prefix: tuple[str, ...]) -> list[str]:
        """The users whose namespaces start with ``prefix`` (given or stored)."""
        for t, label in zip(self.template, prefix, strict=False):
            if t != USER_LABEL and t != label:
                return []
        if len(prefix) > self._user_at:
            return [prefix[self._user_at]]
        return store_items.store_users(self.memory.db)

    def _under(self, prefix: tuple[str, ...], namespace: tuple[str, ...]) -> bool:
        return namespace[: len(prefix)] == prefix

    # -- items ------------------------------------------------------------------
    def _item(self, stored: StoredItem) -> Item:
        return Item(
            value=stored.value,
            key=stored.key,
            namespace=self._full(stored.user_id, stored.namespace),
            created_at=stored.created_at,
            updated_at=stored.updated_at,
        )

    def _round_item(self, user: str, rnd: Round) -> Item:
        when = rnd.time.replace(tzinfo=timezone.utc) if rnd.time else _EPOCH
        return Item(
            value=_round_value(rnd),
            key=rnd.round_id,
            namespace=self._full(user, ()),
            created_at=when,
            updated_at=when,
        )

    def _plain_rounds(
        self, user: str, among: Sequence[str] | None = None
    ) -> list[Round]:
        """The user's rounds that carry no store item (all, or those in ``among``)."""
        condition = (
            "round_id NOT IN (SELECT round_id FROM adamm_store_items "
            "WHERE user_id = ? AND round_id IS NOT NULL)"
        )
        params: list[Any] = [user]
        if among is not None:
            condition += " AND round_id IN (SELECT unnest(?::VARCHAR[]))"
            params.append(list(among))
        return [
            r for _, r in rounds.load_rounds(self.memory.db, user, condition, params)
        ]

    def _get(self, op: GetOp) -> Item | None:
        user, sub = self._split(op.namespace)
        stored = store_items.get_item(self.memory.db, user, sub, op.key)
        if stored is not None:
            return self._item(stored)
        if sub:
            return None
        plain = self._plain_rounds(user, [op.key])
        return self._round_item(user, plain[0]) if plain else None

    def _items_under(self, prefix: tuple[str, ...]) -> Iterator[Item]:
        """Every item under ``prefix``, store items and plain rounds alike."""
        db = self.memory.db
        for user in self._users_under(prefix):
            for stored in store_items.user_items(db, user):
                item = self._item(stored)
                if self._under(prefix, item.namespace):
                    yield item
            if self._under(prefix, self._full(user, ())):
                for rnd in self._plain_rounds(user):
                    yield self._round_item(user, rnd)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        wanted = op.filter or {}
        if op.query:
            scored = self._ranked(prefix, op.query, op.offset + op.limit)
        else:
            listed = sorted(
                self._items_under(prefix),
                key=lambda i: (i.updated_at, i.key),
                reverse=True,
            )
            scored = [(item, None) for item in listed]
        kept = [
            SearchItem(
                item.namespace,
                item.key,
                item.value,
                item.created_at,
                item.updated_at,
                score,
            )
            for item, score in scored
            if all(_matches(item.value.get(k), v) for k, v in wanted.items())
        ]
        return kept[op.offset : op.offset + op.limit]

    def _ranked(
        self, prefix: tuple[str, ...], query: str, wanted: int
    ) -> list[tuple[Item, float | None]]:
        """Items under ``prefix`` ranked for ``query``, best first."""
        depth = max(SEARCH_DEPTH, 4 * wanted)
        out: list[tuple[Item, float | None]] = []
        for user in self._users_under(prefix):
            view = self.memory.for_user(user)
            retrieval = view.retrieval
            if retrieval is None:
                out += self._word_ranked(prefix, user, query)
                continue
            hits = retrieval.scored_rounds(query, depth)
            ids = [rid for rid, _ in hits]
            carried = store_items.items_of_rounds(self.memory.db, user, ids)
            plain = {
                r.round_id: r
                for r in self._plain_rounds(user, [i for i in ids if i not in carried])
            }
            for rid, score in hits:
                if rid in carried:
                    item = self._item(carried[rid])
                elif rid in plain:
                    item = self._round_item(user, plain[rid])
                else:
                    continue
                if self._under(prefix, item.namespace):
                    out.append((item, score))
        out.sort(key=lambda pair: -(pair[1] or 0.0))
        return out

    def _word_ranked(
        self, prefix: tuple[str, ...], user: str, query: str
    ) -> list[tuple[Item, float | None]]:
        """Without retrieval memory: the share of the query's words an item has."""
        words = {w.lower() for w in _WORD.findall(query)}
        out: list[tuple[Item, float | None]] = []
        for item in self._items_under(self._full(user, ())):
            if not self._under(prefix, item.namespace):
                continue
            text = " ".join(_text_of(item.value)).lower()
            have = {w.lower() for w in _WORD.findall(text)}
            score = len(words & have) / len(words) if words else 0.0
            if score > 0:
                out.append((item, score))
        return out

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        db = self.memory.db
        found: set[tuple[str, ...]] = set()
        for user in store_items.store_users(db):
            if store_items.has_plain_rounds(db, user):
                found.add(self._full(user, ()))
            found.update(
                self._full(user, sub) for sub in store_items.sub_namespaces(db, user)
            )
        names = [
            ns
            for ns in found
            if all(_namespace_matches(ns, c) for c in op.match_conditions or ())
        ]
        if op.max_depth is not None:
            names = list({ns[: op.max_depth] for ns in names})
        return sorted(names)[op.offset : op.offset + op.limit]

    # -- writes -----------------------------------------------------------------
    def _apply_puts(self, pending: _PendingPuts) -> None:
        """Apply a run of puts: new rounds first, then the items, then old rounds go.

        In that order a failure while ingesting loses nothing: the old round
        and item stay until the new ones are stored.
        """
        by_user: dict[str, list[tuple[tuple[str, ...], PutOp]]] = {}
        for op in pending.ops.values():
            user, sub = self._split(op.namespace)
            if not isinstance(op.key, str) or not op.key:
                raise ValueError(f"store keys are non-empty strings, got {op.key!r}")
            if op.value is not None and not isinstance(op.value, dict):
                raise ValueError(
                    f"the value put under {op.key!r} in {op.namespace!r} is a "
                    f"{type(op.value).__name__}; store values are dicts (JSON "
                    'objects), e.g. {"content": "..."}'
                )
            by_user.setdefault(user, []).append((sub, op))
        for user, puts in by_user.items():
            self._put_user(self.memory.for_user(user), user, puts)

    def _put_user(
        self, view: Memory, user: str, puts: list[tuple[tuple[str, ...], PutOp]]
    ) -> None:
        db = view.db
        now = _now()
        local = datetime.now().replace(microsecond=0)
        new_rounds: list[Round] = []
        items: list[StoredItem] = []
        old_rounds: list[str] = []
        deletes: list[tuple[tuple[str, ...], str]] = []
        for sub, op in puts:
            before = store_items.get_item(db, user, sub, op.key)
            if before is not None and before.round_id:
                old_rounds.append(before.round_id)
            elif before is None and not sub:
                # the key of a round that came in another way: that round goes
                old_rounds += [r.round_id for r in self._plain_rounds(user, [op.key])]
            if op.value is None:
                deletes.append((sub, op.key))
                continue
            value = dict(op.value)
            round_id = None
            user_text, reply = _text_of(value)
            if op.index is not False and (user_text.strip() or reply.strip()):
                round_id = f"store:{uuid.uuid4().hex[:20]}"
                session = "store" + "".join(f":{label}" for label in sub)
                new_rounds.append(Round(round_id, session, local, user_text, reply))
            items.append(
                StoredItem(
                    user,
                    sub,
                    op.key,
                    round_id,
                    value,
                    before.created_at if before is not None else now,
                    now,
                )
            )
        if new_rounds:
            sessions: dict[str, list[Round]] = {}
            for rnd in new_rounds:
                sessions.setdefault(rnd.session_id, []).append(rnd)
            view.ingest(
                History(
                    user_id=user,
                    sessions=tuple(
                        Session(sid, local.date(), tuple(rs))
                        for sid, rs in sessions.items()
                    ),
                )
            )
        with db.transaction():
            for item in items:
                store_items.put_item(db, item)
            for sub, key in deletes:
                store_items.delete_item(db, user, sub, key)
        if old_rounds:
            view.forget(old_rounds)

    # -- BaseStore ----------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the operations in order; consecutive puts are ingested together."""
        results: list[Result] = []
        pending = _PendingPuts()
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, PutOp):
                pending.add(op)
                results.append(None)
                continue
            if pending.ops:
                self._apply_puts(pending)
                pending = _PendingPuts()
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown store operation: {type(op).__name__}")
        if pending.ops:
            self._apply_puts(pending)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread (the memory's calls block)."""
        return await asyncio.to_thread(self.batch, list(ops))


__all__ = ["DEFAULT_NAMESPACE", "AdaMMStore"]
