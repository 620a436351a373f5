"""The memory of the graphs that ``langgraph.json`` names.

A LangGraph server imports ``graphs/query_graph.py`` and
``graphs/construction_graph.py`` and can pass them only JSON, never a
:class:`Memory`; so both build theirs from environment variables:

``ADAMM_DB``
    Memory database file; default ``adamm.duckdb`` in the current directory.
    A DuckDB file can be opened by one process at a time.
``ADAMM_USER_ID``
    Default user namespace (a run's ``user_id`` input overrides it); default
    ``default``.
``ADAMM_MODEL``
    Optional ``provider:model`` chat model (e.g. ``openai:gpt-4.1-nano``);
    unset runs offline with the rule extractor, planner and template reader.
``ADAMM_RETRIEVAL``
    ``0``/``false``/``no``/``off`` turns retrieval memory off, ``1``/``true``/
    ``yes``/``on`` requires it; unset: on when its packages are installed.
``ADAMM_RERANK``
    ``forest`` adds the evidence forest to the query graph (it needs
    ``ADAMM_MODEL`` for its verifiers; without one it is off and says so).

Both modules share one :class:`Memory` per process (:func:`memory_from_env`) and
compile through :func:`server_graph`, without a checkpointer (the server brings
its own).
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from langgraph.graph import StateGraph

from langgraph_adamm.errors import AdaMMError, StorageError

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph

    from langgraph_adamm.memory import Memory

ENV_DB = "ADAMM_DB"
ENV_USER_ID = "ADAMM_USER_ID"
ENV_MODEL = "ADAMM_MODEL"
ENV_RETRIEVAL = "ADAMM_RETRIEVAL"
ENV_RERANK = "ADAMM_RERANK"
DEFAULT_DB = "adamm.duckdb"
DEFAULT_USER = "default"

_FALSE = {"0", "false", "no", "off"}
_TRUE = {"1", "true", "yes", "on"}

_lock = threading.Lock()
_cache: dict[tuple[str, str, str | None, bool | None], Memory] = {}


def _get(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def settings_from_env(
    environ: Mapping[str, str] | None = None,
) -> tuple[str, str, str | None, bool | None]:
    """``(db path, user id, model, retrieval)`` read and checked from ``environ``.

    Raises:
        AdaMMError: naming the variable whose value is wrong.
    """
    env = os.environ if environ is None else environ
    db = _get(env, ENV_DB) or DEFAULT_DB
    if db != ":memory:":
        path = Path(db).expanduser()
        if path.is_dir():
            raise AdaMMError(
                f"{ENV_DB}={db!r} is a folder; set it to a database file such as "
                f"{str(path / DEFAULT_DB)!r}"
            )
        parent = path.resolve().parent
        if not parent.is_dir():
            raise AdaMMError(
                f"{ENV_DB}={db!r}: folder {parent} does not exist; create it or "
                f"point {ENV_DB} at a file in an existing folder"
            )
        db = str(path.resolve())
    user = _get(env, ENV_USER_ID) or DEFAULT_USER
    model = _get(env, ENV_MODEL)
    raw = _get(env, ENV_RETRIEVAL)
    retrieval: bool | None = None
    if raw is not None:
        if raw.lower() in _FALSE:
            retrieval = False
        elif raw.lower() in _TRUE:
            retrieval = True
        else:
            raise AdaMMError(
                f"{ENV_RETRIEVAL}={raw!r} is neither on (1, true, yes, on) nor off "
                "(0, false, no, off); unset it for 'on when installed'"
            )
    return db, user, model, retrieval


def rerank_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """The query graph's rerank stage from ``ADAMM_RERANK``: ``"forest"`` or None.

    Raises:
        AdaMMError: for any other value, naming the variable.
    """
    raw = _get(os.environ if environ is None else environ, ENV_RERANK)
    if raw is None or raw.lower() in _FALSE:
        return None
    if raw.lower() != "forest":
        raise AdaMMError(
            f"{ENV_RERANK}={raw!r}: the only rerank stage is 'forest'; unset it for "
            "none"
        )
    return "forest"


def memory_from_env(environ: Mapping[str, str] | None = None) -> Memory:
    """The process's :class:`Memory`, configured by the ``ADAMM_*`` variables.

    One memory per configuration and process (the query and construction graphs
    share it); it is closed when the process exits.

    Raises:
        AdaMMError: naming the variable to fix (bad value, database that cannot
            be opened, chat model that cannot be created, retrieval packages
            missing).
    """
    key = settings_from_env(environ)
    with _lock:
        memory = _cache.get(key)
        if memory is None:
            memory = _open(*key)
            _cache[key] = memory
            atexit.register(memory.close)
        return memory


def _open(db: str, user: str, model: str | None, retrieval: bool | None) -> Memory:
    from langgraph_adamm.chat import resolve_chat_model
    from langgraph_adamm.memory import Memory
    from langgraph_adamm.retrieval.encoders import retrieval_available

    chat = None
    if model is not None:
        try:
            chat = resolve_chat_model(model)
        except AdaMMError as exc:
            raise AdaMMError(f"{ENV_MODEL}={model!r}: {exc}") from exc
    if retrieval is True and not retrieval_available():
        raise AdaMMError(
            f"{ENV_RETRIEVAL}=on but retrieval memory is not installed: pip install "
            f"'langgraph-adamm[retrieval]', or set {ENV_RETRIEVAL}=0"
        )
    try:
        return Memory(db, user_id=user, model=chat, retrieval=retrieval)
    except StorageError as exc:
        raise AdaMMError(
            f"{ENV_DB}={db!r}: {exc} (a DuckDB file can be opened by one process "
            f"at a time: stop the other process or point {ENV_DB} at another file)"
        ) from exc
    except (ImportError, OSError) as exc:
        if retrieval is False:
            raise
        raise AdaMMError(
            f"cannot load retrieval memory ({exc}); set {ENV_RETRIEVAL}=0 to run "
            "analytic memory only"
        ) from exc


def close_memories() -> None:
    """Close and forget the cached memories (tests; a server closes at exit)."""
    with _lock:
        memories = list(_cache.values())
        _cache.clear()
    for memory in memories:
        atexit.unregister(memory.close)
        memory.close()


def server_graph(builder: StateGraph, name: str) -> CompiledStateGraph:
    """``builder`` compiled for a LangGraph server, without a checkpointer.

    The server brings its own checkpointer. The graphs treat the ``""`` user id
    that a server without authentication puts into ``configurable`` as unset.
    """
    return builder.compile(name=name)
