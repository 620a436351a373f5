"""The graphs of langgraph.json under a real ``langgraph dev`` server (offline).

The fast tests cover the ``ADAMM_*`` settings and the empty user id in
process; the slow one seeds a memory database, starts ``langgraph dev`` from the
repository root on a free port, asks the query graph a question over HTTP and
stops the server again.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from langgraph_adamm import Memory
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.graphs.query import create_query_graph
from langgraph_adamm.graphs.studio import (
    close_memories,
    memory_from_env,
    rerank_from_env,
    server_graph,
    settings_from_env,
)

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "What was my highest resting heart rate?"
QUESTION_TIME = "2026-03-30T21:00:00"
STARTUP_TIMEOUT_S = 90.0
RUN_TIMEOUT_S = 60.0
# Variables that would make the server (or LangChain) talk to LangSmith.
CREDENTIALS = (
    "LANGSMITH_API_KEY",
    "LANGCHAIN_API_KEY",
    "LANGSMITH_CONTROL_PLANE_API_KEY",
    "LANGGRAPH_CLOUD_LICENSE_KEY",
    "LANGSMITH_ENDPOINT",
    "LANGCHAIN_ENDPOINT",
    "ADAMM_MODEL",
)
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    # langgraph-cli: no anonymous usage report per command.
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    # langgraph-api: no PyPI request for the newest version at start.
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    # No LangSmith tracing of runs.
    "LANGSMITH_TRACING": "false",
    "LANGSMITH_TRACING_V2": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGCHAIN_TRACING": "false",
}


def seed(db: Path) -> None:
    """The bundled sample history, ingested offline into ``db`` (then closed)."""
    sample = (
        importlib.resources.files("langgraph_adamm") / "data" / "sample_history.json"
    )
    with importlib.resources.as_file(sample) as path:
        with Memory(db, user_id="demo", retrieval=False) as memory:
            report = memory.ingest(path)
    assert report.rounds_new > 0 and not report.failures


@pytest.fixture(scope="module")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("studio") / "memory.duckdb"
    seed(db)
    return db


# -- settings (fast) -----------------------------------------------------------
def test_settings_defaults_and_values(tmp_path: Path) -> None:
    db, user, model, retrieval = settings_from_env({})
    assert Path(db) == Path("adamm.duckdb").resolve()
    assert (user, model, retrieval) == ("default", None, None)
    db, user, model, retrieval = settings_from_env(
        {
            "ADAMM_DB": str(tmp_path / "m.duckdb"),
            "ADAMM_USER_ID": "ann",
            "ADAMM_MODEL": "openai:gpt-4.1-nano",
            "ADAMM_RETRIEVAL": "Off",
        }
    )
    assert (db, user, model, retrieval) == (
        str(tmp_path / "m.duckdb"),
        "ann",
        "openai:gpt-4.1-nano",
        False,
    )
    assert settings_from_env({"ADAMM_RETRIEVAL": "1"})[3] is True
    assert settings_from_env({"ADAMM_DB": ":memory:"})[0] == ":memory:"


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"ADAMM_RETRIEVAL": "maybe"}, "ADAMM_RETRIEVAL"),
        ({"ADAMM_DB": "/no/such/folder/m.duckdb"}, "ADAMM_DB"),
    ],
)
def test_settings_errors_name_the_variable(env: dict[str, str], variable: str) -> None:
    with pytest.raises(AdaMMError, match=variable):
        settings_from_env(env)


def test_rerank_from_env() -> None:
    assert rerank_from_env({}) is None
    assert rerank_from_env({"ADAMM_RERANK": "off"}) is None
    assert rerank_from_env({"ADAMM_RERANK": " Forest "}) == "forest"
    with pytest.raises(AdaMMError, match="ADAMM_RERANK"):
        rerank_from_env({"ADAMM_RERANK": "kruskal"})


def test_settings_error_for_a_folder(tmp_path: Path) -> None:
    with pytest.raises(AdaMMError, match="ADAMM_DB"):
        settings_from_env({"ADAMM_DB": str(tmp_path)})


def test_memory_from_env_is_cached(tmp_path: Path) -> None:
    env = {"ADAMM_DB": str(tmp_path / "m.duckdb"), "ADAMM_RETRIEVAL": "0"}
    try:
        first = memory_from_env(env)
        assert memory_from_env(env) is first
        assert first.user_id == "default" and first.retrieval is None
    finally:
        close_memories()


def test_graph_ignores_the_servers_empty_user_id(seeded_db: Path) -> None:
    # langgraph dev puts the caller's identity, "" without auth, into
    # configurable user_id; the graph must answer from ADAMM_USER_ID's namespace.
    with Memory(seeded_db, user_id="demo", retrieval=False) as memory:
        graph = server_graph(create_query_graph(memory), name="query")
        assert graph.checkpointer is None
        out = graph.invoke(
            {"question": QUESTION, "question_time": QUESTION_TIME},
            config={"configurable": {"user_id": ""}},
        )
        assert (out["value"], out["unit"]) == (66, "bpm")
        unknown = graph.invoke(
            {"question": QUESTION, "question_time": QUESTION_TIME},
            config={"configurable": {"user_id": "nobody"}},
        )
        assert unknown["value"] is None and "nobody" in unknown["answer"]


# -- the real server (slow) ----------------------------------------------------
def free_port() -> int:
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port != 2024:  # langgraph dev's default; another server may want it
            return port


def log_tail(log: Path, chars: int = 4000) -> str:
    text = log.read_text(errors="replace") if log.exists() else "(no log)"
    return text[-chars:]


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's own process group, SIGKILL if it lingers."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


@pytest.mark.slow
def test_langgraph_dev_serves_the_query_graph(tmp_path: Path) -> None:
    langgraph = Path(sys.executable).parent / "langgraph"
    if not langgraph.exists():
        pytest.skip(f"langgraph-cli is not installed ({langgraph} missing)")
    if importlib.util.find_spec("langgraph_api") is None:
        pytest.skip(
            "langgraph-api is not installed (pip install 'langgraph-cli[inmem]')"
        )

    db = tmp_path / "memory.duckdb"
    seed(db)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in CREDENTIALS}
    env.update(OFFLINE)
    env.update(ADAMM_DB=str(db), ADAMM_USER_ID="demo", ADAMM_RETRIEVAL="0")
    command = [
        str(langgraph),
        "dev",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-browser",
        "--no-reload",
    ]
    # The in-memory server keeps its dev persistence in ./.langgraph_api.
    state_dir = ROOT / ".langgraph_api"
    had_state_dir = state_dir.exists()
    log = tmp_path / "langgraph_dev.log"
    started = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        with httpx.Client(base_url=base, timeout=5.0, trust_env=False) as client:
            while True:
                if proc.poll() is not None:
                    pytest.fail(
                        f"langgraph dev exited with {proc.returncode}:\n{log_tail(log)}"
                    )
                try:
                    if client.get("/ok").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() - started > STARTUP_TIMEOUT_S:
                    pytest.fail(
                        f"langgraph dev did not answer {base}/ok within "
                        f"{STARTUP_TIMEOUT_S:.0f} s:\n{log_tail(log)}"
                    )
                time.sleep(0.25)
            print(f"langgraph dev up in {time.monotonic() - started:.1f} s")

            assistants = client.post("/assistants/search", json={"limit": 10})
            assert assistants.status_code == 200, assistants.text
            assert {a["graph_id"] for a in assistants.json()} >= {
                "query",
                "construction",
            }

            response = client.post(
                "/runs/wait",
                json={
                    "assistant_id": "query",
                    "input": {"question": QUESTION, "question_time": QUESTION_TIME},
                },
                timeout=RUN_TIMEOUT_S,
            )
            assert response.status_code == 200, (
                f"{response.status_code}: {response.text}\n{log_tail(log)}"
            )
            answer = response.json()
            detail = f"{json.dumps(answer)[:2000]}\n{log_tail(log)}"
            assert answer.get("value") == 66, detail
            assert answer.get("unit") == "bpm", detail
            assert "66" in answer.get("answer", ""), detail
    finally:
        stop(proc)
        if not had_state_dir:
            shutil.rmtree(state_dir, ignore_errors=True)
    # The server let go of the database file (one process at a time).
    with Memory(db, user_id="demo", retrieval=False) as memory:
        assert memory.has_user("demo")
