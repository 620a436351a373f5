"""Kill -9 an ingesting process, many times, and check what it leaves.

Each trial starts a process that ingests a synthetic history and kills it with
SIGKILL at a different point: after the k-th committed extraction batch, or
part way through indexing the retrieval memory. Then it checks that

- every raw round is stored and only whole batches are extracted;
- no observation, table row or event belongs to a round that is not extracted
  (indexed) — nothing half-written;
- ingesting again converges: every stored row of the user equals an
  uninterrupted ingestion of the same history (``tools.support.memory_state``).

    python tools/benchmarks/kill_trials.py --engine postgres --trials 10
    python tools/benchmarks/kill_trials.py --engine duckdb --trials 10

PostgreSQL runs on a throwaway server (``tools/support/postgres_server.py``).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402
from tools.support.memory_state import HashEncoder, user_state  # noqa: E402

USER = "synth"

CHILD = textwrap.dedent("""
    import sys
    from langgraph_adamm import AdaMMConfig, Memory
    from tools.support.memory_state import HashEncoder
    where, history, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
    m = Memory(where, user_id="synth", text_encoder=HashEncoder(),
               visual_encoder=None, config=AdaMMConfig(ingest_batch_size=batch))
    def extracted(done, total):
        # a batch commits after its last round is extracted and before the
        # next batch is: when round (k+1)*batch is extracted, k have committed
        if done and done % batch == 0:
            print("extract", done // batch - 1, flush=True)
    def indexed(done, total):
        print("index", done, flush=True)
    m.ingest(history, progress=extracted, index_progress=indexed)
    print("finished", flush=True)
""")


@dataclass
class Trial:
    stage: str
    """'extract' or 'index': where the process was killed."""
    at: int
    """The progress line it was killed on."""
    extracted: int
    indexed: int
    seconds: float
    equal: bool
    problems: list[str]


def _open(where: str, batch: int) -> Memory:
    return Memory(
        where,
        user_id=USER,
        text_encoder=HashEncoder(),
        visual_encoder=None,
        config=AdaMMConfig(ingest_batch_size=batch),
    )


def _checks(m: Memory, rounds: int, batch: int) -> list[str]:
    """What a killed ingestion must not leave behind."""
    problems = []
    status = m.analytic.round_status()
    if sum(status.values()) != rounds:
        problems.append(f"{sum(status.values())} raw rounds stored, not {rounds}")
    extracted = status.get("extracted", 0)
    if extracted % batch and extracted != rounds:
        problems.append(f"{extracted} rounds extracted: not whole batches")
    q = m.db.fetchall
    orphans = q(
        "SELECT count(*) FROM adamm_observations o JOIN adamm_rounds r "
        "ON r.user_id = o.user_id AND r.round_id = o.round_id "
        "WHERE o.user_id = ? AND r.status <> 'extracted'",
        [USER],
    )[0][0]
    if orphans:
        problems.append(f"{orphans} observations of rounds not extracted")
    for t in m.tables:
        stray = q(
            f"SELECT count(*) FROM {m.analytic.qualified(t)} x JOIN adamm_rounds r "
            "ON r.round_id = x.source AND r.user_id = ? WHERE r.status <> 'extracted'",
            [USER],
        )[0][0]
        if stray:
            problems.append(f"{stray} rows of {t.table_name} from unextracted rounds")
    unflagged = q(
        "SELECT count(*) FROM adamm_events e JOIN adamm_rounds r "
        "ON r.user_id = e.user_id AND r.round_id = e.round_id "
        "WHERE e.user_id = ? AND NOT coalesce(r.indexed, false)",
        [USER],
    )[0][0]
    if unflagged:
        problems.append(f"{unflagged} events of rounds not marked indexed")
    if m.analytic.counts.rounds != extracted:
        problems.append("pattern counts do not match the extracted rounds")
    return problems


def run_trials(
    where: Callable[[], str],
    trials: int,
    *,
    days: int = 40,
    batch: int = 10,
    folder: Path,
    log: Callable[[str], None] = print,
) -> list[Trial]:
    """Run ``trials`` killed ingestions, each into a fresh memory from ``where()``."""
    hist = generate(seed=3, days=days, user_id=USER).write(folder / "history")[0]
    with _open(where(), batch) as clean:
        clean.ingest(hist)
        rounds = sum(clean.analytic.round_status().values())
        reference = user_state(clean)
    batches = rounds // batch
    out = []
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    for i in range(trials):
        # alternate: kill after an extraction batch, or part way through indexing
        # at points spread over each stage
        stage = "extract" if i % 2 == 0 else "index"
        j, n = i // 2, (trials + 1 - i % 2) // 2
        at = (
            j * (batches - 1) // max(1, n - 1)
            if stage == "extract"
            else 1 + j * (rounds - 1) // max(1, n)
        )
        location = where()
        started = time.monotonic()
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, location, str(hist), str(batch)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert child.stdout is not None
        killed_at = None
        for line in child.stdout:
            kind, _, value = line.partition(" ")
            if kind == stage and value.strip().isdigit() and int(value) >= at:
                child.send_signal(signal.SIGKILL)
                killed_at = int(value)
                break
        child.wait(timeout=600)
        with _open(location, batch) as m:
            status = m.analytic.round_status()
            extracted = status.get("extracted", 0)
            indexed = m.db.fetchall(
                "SELECT count(*) FROM adamm_rounds WHERE user_id = ? AND indexed",
                [USER],
            )[0][0]
            problems = [] if killed_at is not None else ["the process was not killed"]
            problems += _checks(m, rounds, batch)
            if stage == "extract" and killed_at is not None:
                if extracted < killed_at * batch:
                    problems.append(
                        f"{killed_at} batches had committed, {extracted} rounds kept"
                    )
            m.ingest(hist)  # the re-run
            equal = user_state(m) == reference
        trial = Trial(
            stage,
            killed_at if killed_at is not None else -1,
            extracted,
            int(indexed),
            time.monotonic() - started,
            equal,
            problems,
        )
        out.append(trial)
        log(
            f"trial {i + 1}: killed at {stage} {trial.at}: {extracted}/{rounds} "
            f"extracted, {indexed} indexed; re-run equals uninterrupted: {equal}"
            + (f"; problems: {problems}" if problems else "")
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("duckdb", "postgres"), default="postgres")
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--days", type=int, default=40)
    parser.add_argument("--batch", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="adamm-kill-") as tmp:
        folder = Path(tmp)
        server: Any = None
        count = [0]
        if args.engine == "postgres":
            from tools.support.postgres_server import PostgresServer

            server = PostgresServer(durable=True).start()

            def where() -> str:
                return server.create_database()
        else:

            def where() -> str:
                count[0] += 1
                return str(folder / f"m{count[0]}.duckdb")

        try:
            done = run_trials(
                where, args.trials, days=args.days, batch=args.batch, folder=folder
            )
        finally:
            if server is not None:
                server.stop()
    bad = [t for t in done if t.problems or not t.equal]
    print(
        f"{args.engine}: {len(done) - len(bad)} of {len(done)} killed ingestions left "
        "only whole batches and converged on a re-run"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
