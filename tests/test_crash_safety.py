import signal
import subprocess
import sys
import textwrap

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import read_history
from tools.datasets.synthetic_history import generate

CHILD = textwrap.dedent("""
    import sys
    from langgraph_adamm import AdaMMConfig, Memory
    m = Memory(sys.argv[1], user_id="synth", config=AdaMMConfig(ingest_batch_size=40))
    def progress(done, total):
        # Progress comes per extracted round; a batch commits after its last
        # round, so when round 40k is extracted, batches before it committed.
        if done and done % 40 == 0:
            print("committed", done - 40, flush=True)
    m.ingest(sys.argv[2], progress=progress)
    print("finished", flush=True)
""")


@pytest.mark.slow
def test_killed_ingest_keeps_every_committed_round(tmp_path):
    hist, _ = generate(seed=3, days=120).write(tmp_path / "data")
    db = tmp_path / "m.duckdb"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(hist)],
        stdout=subprocess.PIPE,
        text=True,
    )
    seen = 0
    for line in child.stdout:
        if line.startswith("committed"):
            seen += 1
            if seen == 3:
                child.send_signal(signal.SIGKILL)
                break
    child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    cfg = AdaMMConfig(ingest_batch_size=40)
    with Memory(db, user_id="synth", config=cfg) as m:
        status = m.analytic.round_status()
        total = sum(status.values())
        assert total == read_history(hist).history.round_count  # all raw rounds stored
        extracted = status.get("extracted", 0)
        assert extracted >= 80 and extracted % 40 == 0  # whole batches only
        assert status.get("pending", 0) == total - extracted
        orphans = m.db.fetchall(
            "SELECT count(*) FROM adamm_observations o JOIN adamm_rounds r "
            "USING (user_id, round_id) WHERE r.status <> 'extracted'"
        )[0][0]
        assert orphans == 0
        assert m.analytic.counts.rounds == extracted
        for t in m.tables:
            assert (
                m.db.fetchall(
                    f"SELECT count(*) FROM {m.analytic.qualified(t)} x "
                    "JOIN adamm_rounds r "
                    "ON r.round_id = x.source AND r.user_id = 'synth' "
                    "WHERE r.status <> 'extracted'"
                )[0][0]
                == 0
            )
        rep = m.ingest(hist)  # resume
        assert rep.rounds_new == 0 and rep.rounds_processed == total - extracted
        resumed = {t["table"]: t["rows"] for t in m.describe_tables()}
    with Memory(tmp_path / "clean.duckdb", user_id="synth", config=cfg) as clean:
        clean.ingest(hist)
        assert {t["table"]: t["rows"] for t in clean.describe_tables()} == resumed


@pytest.mark.slow
def test_killed_ingestions_converge_on_either_engine(engine, tmp_path, request):
    """Two kill -9 trials (one in extraction, one in indexing) on this run's engine.

    ``tools/benchmarks/kill_trials.py --trials 10`` runs more; BENCHMARKS.md has its
    output.
    """
    from tools.benchmarks.kill_trials import run_trials

    count = [0]

    def where() -> str:
        if engine == "postgres":
            server = request.getfixturevalue("postgres_server")
            return server.create_database(template="adamm_template")
        count[0] += 1
        return str(tmp_path / f"m{count[0]}.duckdb")

    trials = run_trials(
        where, 2, days=20, batch=10, folder=tmp_path, log=lambda _: None
    )
    assert [t.stage for t in trials] == ["extract", "index"]
    for t in trials:
        assert t.at >= 0 and not t.problems and t.equal, t
