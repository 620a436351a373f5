"""One writer per user: the write lock, and reading the user again after others wrote.

Where many processes write one database (``db.shared_writers``: PostgreSQL), a
writer of a user holds that user's lock across processes, reads the user's
state again if another process wrote it since, and bumps the user's version on
taking and on leaving the lock, so that readers elsewhere see the change
(:meth:`UserWriter.refresh`). Where one process writes (DuckDB), holding is
free and nothing is read again.

The async side waits for the lock on the event loop: a cancelled wait leaves
no worker thread behind that could take the lock later.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import (
    AbstractContextManager,
    asynccontextmanager,
    contextmanager,
    nullcontext,
)
from typing import Any

from langgraph_adamm.errors import StorageError
from langgraph_adamm.storage.database import MemoryDatabase

logger = logging.getLogger("langgraph_adamm.memory")


def tell_waiting(message: str) -> None:
    """How a writer that has to wait says so (a warning, once per wait)."""
    logger.warning(message)


async def settled(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker thread, waited for even by a cancelled caller.

    So that what the thread took can be given back.
    """
    task = asyncio.ensure_future(asyncio.to_thread(fn, *args))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait([task])
        raise


class _Held:
    """The user's write lock, already taken by :meth:`UserWriter.awriting`.

    Entering reads the user again if another process wrote it and bumps its
    version; leaving bumps it and gives the lock back.
    """

    def __init__(self, writer: UserWriter) -> None:
        self.writer = writer
        self.entered = False

    def __enter__(self) -> None:
        self.claim = self.writer.claimed()
        try:
            self.claim.__enter__()
        except BaseException:
            self.writer.db.release_user_lock(self.writer.user_id)
            raise
        self.entered = True

    def __exit__(self, *exc: Any) -> None:
        try:
            self.claim.__exit__(*exc)
        finally:
            self.writer.db.release_user_lock(self.writer.user_id)


class UserWriter:
    """The right to write one user's memory, and its version.

    Args:
        db: The database.
        user_id: The user.
        wait: Seconds a writer waits for another process writing the same user
            (0: as long as it takes).
        reload: Reads the user's state again (called when another process
            changed it).
    """

    def __init__(
        self,
        db: MemoryDatabase,
        user_id: str,
        *,
        wait: float,
        reload: Callable[[], None],
    ) -> None:
        self.db = db
        self.user_id = user_id
        self.wait = wait
        self.reload = reload
        self.version: int | None = (
            db.user_version(user_id) if db.shared_writers else None
        )
        """The user's version the state in memory was read at (shared writers)."""
        self._sync_lock = threading.Lock()
        self._held = threading.local()
        """``depth`` is 1 while this thread holds the user's write lock."""

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold this user's memory for writing (across processes where shared).

        Another process may have written the user since its state was read: it
        is read again first. The version is bumped on taking and on releasing.
        """
        if not self.db.shared_writers or self.holding():
            yield  # one writing process, or held by this thread (a stage of ingest)
            return
        with self.db.user_lock(
            self.user_id, wait=self.wait or None, on_wait=tell_waiting
        ):
            self._held.depth = 1
            try:
                with self.claimed():
                    yield
            finally:
                self._held.depth = 0

    def holding(self) -> bool:
        """Whether this thread holds the user's write lock already."""
        return bool(getattr(self._held, "depth", 0))

    @contextmanager
    def claimed(self) -> Iterator[None]:
        """Inside the user's write lock: the state made current, versions bumped."""
        self.sync()
        self.version = self.db.bump_user_version(self.user_id)
        try:
            yield
        finally:
            try:
                self.version = self.db.bump_user_version(self.user_id)
            except StorageError:
                self.version = None  # read again before the next use

    async def awriting(self) -> AbstractContextManager[Any]:
        """:meth:`writing` for coroutines: waits for the user lock on the loop.

        Returns the lock, taken, to enter (in a worker thread: entering reads).
        """
        if not self.db.shared_writers or self.holding():
            return nullcontext()
        deadline = None if not self.wait else time.monotonic() + self.wait
        told = False
        while True:
            attempt = asyncio.ensure_future(
                asyncio.to_thread(self.db.try_user_lock, self.user_id)
            )
            try:
                got = await asyncio.shield(attempt)
            except asyncio.CancelledError:
                if await attempt:  # taken just as the wait was cancelled
                    self.db.release_user_lock(self.user_id)
                raise
            if got:
                break
            if deadline is not None and time.monotonic() >= deadline:
                raise self.db.user_lock_timeout(self.user_id)
            if not told:
                tell_waiting(self.db.user_lock_message(self.user_id, self.wait or None))
                told = True
            await asyncio.sleep(0.05)
        return _Held(self)

    @asynccontextmanager
    async def alocked(self) -> AsyncIterator[None]:
        """The database's ingest lock and the user's write lock, for a coroutine.

        Neither wait holds a worker thread, and a cancelled call leaves neither
        lock held nor a thread that takes one later.
        """
        await self._acquire_ingest_lock()
        try:
            held = await self.awriting()
            try:
                await settled(held.__enter__)
                yield
            finally:
                if getattr(held, "entered", False):
                    await settled(held.__exit__, None, None, None)
        finally:
            self.db.ingest_lock.release()

    async def _acquire_ingest_lock(self) -> None:
        """Take the ingest lock, waiting without holding a worker thread.

        Queued tasks then neither exhaust the executor nor leak the lock when
        cancelled.
        """
        delay = 0.005
        while not self.db.ingest_lock.acquire(blocking=False):
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)

    def refresh(self) -> bool:
        """Read the user again if another process has written it since; whether it did.

        Only where many processes write; a closed database keeps what was read.
        """
        if not self.db.shared_writers or self.db.closed:
            return False
        return self.sync()

    def sync(self) -> bool:
        """Read the user again if its version moved (by another writer)."""
        with self._sync_lock:
            version = self.db.user_version(self.user_id)
            if version in (self.version, self.db.own_version(self.user_id)):
                self.version = version  # unchanged, or changed by this writer
                return False
            self.reload()
            self.version = version
            return True
