"""SemanticMatch at scale, exact against HNSW, and reopening a large memory.

Vectors: N event vectors drawn around real embeddings. The user and assistant
turns of the Mem-Gallery dev split are embedded with all-MiniLM-L6-v2 (torch).
Each event is one of them plus Gaussian noise (per dimension ``--noise``;
0.05 gives a cosine of about 0.7 to its source), normalized. Queries are the
split's questions, embedded the same way, so the data is clustered like real
memories, not uniform on the sphere (where every approximate index does badly
and no memory lives).

Each size is written once to a DuckDB memory file: events, their text views,
and a hierarchy of episodes of 10 consecutive events and topics of 100 episodes
(with the summed vectors the hierarchy keeps). Then, one after another:

1. Exact search (``approximate_search_above=None``):
   - the first open rebuilds the index from the stored vectors and persists it;
   - a second open reads the file (the vectors are mapped, not read), and one
     SemanticMatch right after it is timed on its own (it reads the pages it
     touches: all of them for exact search);
   - SemanticMatch(scope=event, budget 10) over ``--calls`` queries, through the
     public method, with query encoding left out (the query vectors are
     precomputed).
   Then SemanticMatch at episode and topic scope (every node scored in one
   matrix product; the first call stacks the vectors and is not timed).
2. HNSW (``approximate_search_above=0``, M = 32, efConstruction 80): the same
   three steps, searched with each ``--ef-search`` breadth in turn. Recall@10
   is the overlap of its top 10 with exact search's, per query.

    python tools/benchmarks/bench_scale.py --events 100000 1000000 --calls 100 \
        --ef-search 128 256 512
    python tools/benchmarks/bench_scale.py --engine postgres --events 100000 --calls 100

With ``--engine postgres`` the memory is written to a database on a local
throwaway PostgreSQL server (tools/support/postgres_server.py) instead, and searched
two ways: by the in-process FAISS index (``pgvector_search=False``: there is
no index file beside a server database, so each open rebuilds the index from
the stored vectors and the reopen columns are left empty), and in SQL with
pgvector (exact, then through its HNSW index, M = 32, efConstruction 80, built
once after the rows are written). Recall is against FAISS exact search.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import AdaMMConfig  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402
from langgraph_adamm.retrieval.memory import RetrievalMemory  # noqa: E402
from langgraph_adamm.storage import MemoryDatabase  # noqa: E402
from langgraph_adamm.storage.bulk import insert_columns  # noqa: E402
from langgraph_adamm.storage.postgres_engine.vector_search import (  # noqa: E402
    SqlViewSearch,
)
from langgraph_adamm.storage.vectors import SqlVector, SqlVectors  # noqa: E402

MEM_GALLERY = Path(__file__).resolve().parents[3] / (
    "shared/benchmarks/mem-gallery/dev"
)
USER = "bench"
NAME = "bench-precomputed"


class Precomputed:
    """Hands out precomputed query vectors, so that search alone is timed."""

    name = NAME

    def __init__(self, queries: np.ndarray) -> None:
        self.queries = queries
        self.dim = queries.shape[1]
        self.next = 0

    def encode(self, texts: list[str]) -> np.ndarray:
        out = self.queries[
            [(self.next + i) % len(self.queries) for i in range(len(texts))]
        ]
        self.next += len(texts)
        return out


def real_texts() -> tuple[list[str], list[str]]:
    turns, questions = [], []
    for file in sorted(MEM_GALLERY.glob("*.json")):
        raw = json.loads(file.read_text(encoding="utf-8"))
        for s in raw.get("multi_session_dialogues") or []:
            for r in s.get("dialogues") or []:
                turns += [t for t in (r.get("user"), r.get("assistant")) if t]
        questions += [str(q["question"]) for q in raw.get("human-annotated QAs") or []]
    return turns, questions


def write_memory(path: str | Path, base: np.ndarray, n: int, noise: float) -> None:
    rng = np.random.default_rng(0)
    db = MemoryDatabase(path)
    db.execute(
        "INSERT INTO adamm_retrieval_meta (user_id, text_encoder) VALUES (?, ?)",
        [USER, NAME],
    )
    chunk = 100_000
    per_episode, per_topic = 10, 100
    for start in range(0, n, chunk):
        size = min(chunk, n - start)
        v = base[rng.integers(0, len(base), size)]
        v = v + noise * rng.standard_normal(v.shape).astype(np.float32)
        assert size % 1000 == 0, "sizes are multiples of 1,000"
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        ids = [f"E{i}" for i in range(start, start + size)]
        with db.transaction():
            insert_columns(
                db,
                "adamm_events",
                ("user_id", "round_id", "session_id", "order", "text", "episode_id"),
                ("VARCHAR", "VARCHAR", "VARCHAR", "BIGINT", "VARCHAR", "INTEGER"),
                [
                    [USER] * size,
                    ids,
                    [f"S{i // 10}" for i in range(start, start + size)],
                    list(range(start, start + size)),
                    [f"event {i}" for i in range(start, start + size)],
                    [i // per_episode + 1 for i in range(start, start + size)],
                ],
            )
            columns = ["user_id", "round_id", "view", "modality", "vec"]
            types = ["VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "BLOB"]
            values: list[list[Any]] = [
                [USER] * size,
                ids,
                ["round"] * size,
                ["text"] * size,
                [row.astype("<f4").tobytes() for row in v],
            ]
            if db.vectors:  # PostgreSQL with pgvector: the column SQL searches
                columns.append("emb")
                types.append("vector")
                values.append(SqlVectors(SqlVector(row) for row in v))
            insert_columns(db, "adamm_event_views", columns, types, values)
            # a hierarchy: episodes of 10 consecutive events, topics of 100
            # episodes, with the summed vectors the hierarchy keeps
            first = start // per_episode
            count = size // per_episode
            sums = v.reshape(count, per_episode, -1).sum(axis=1)
            insert_columns(
                db,
                "adamm_episodes",
                ("user_id", "episode_id", "topic_id", "description", "event_ids",
                 "text_sum", "visual_count", "closed"),
                ("VARCHAR", "INTEGER", "INTEGER", "VARCHAR", "VARCHAR[]", "BLOB",
                 "INTEGER", "BOOLEAN"),
                [
                    [USER] * count,
                    list(range(first + 1, first + count + 1)),
                    [(first + e) // per_topic + 1 for e in range(count)],
                    [f"episode {first + e}" for e in range(count)],
                    [ids[e * per_episode : (e + 1) * per_episode]
                     for e in range(count)],
                    [row.astype("<f4").tobytes() for row in sums],
                    [0] * count,
                    [True] * count,
                ],
            )  # fmt: skip
            topics = count // per_topic
            tsums = sums.reshape(topics, per_topic, -1).sum(axis=1)
            insert_columns(
                db,
                "adamm_topics",
                ("user_id", "topic_id", "description", "episode_ids", "text_sum",
                 "visual_count"),
                ("VARCHAR", "INTEGER", "VARCHAR", "INTEGER[]", "BLOB", "INTEGER"),
                [
                    [USER] * topics,
                    [first // per_topic + t + 1 for t in range(topics)],
                    [f"topic {first // per_topic + t}" for t in range(topics)],
                    [
                        list(range(first + t * per_topic + 1,
                                   first + (t + 1) * per_topic + 1))
                        for t in range(topics)
                    ],
                    [row.astype("<f4").tobytes() for row in tsums],
                    [0] * topics,
                ],
            )  # fmt: skip
    db.close()


def build_hnsw(path: str, dim: int) -> float:
    """Seconds to build the pgvector HNSW index over the stored views.

    As the library does once a user's views pass ``approximate_search_above``
    (``CREATE INDEX CONCURRENTLY`` over the rows stored so far), with memory
    enough to build it in memory.
    """
    db = MemoryDatabase(path)
    # for the build's own connection (MemoryDatabase.side_connection) too
    (name,) = db.fetchall("SELECT current_database()")[0]
    db.execute(f"ALTER DATABASE \"{name}\" SET maintenance_work_mem = '4GB'")
    t = time.perf_counter()
    assert SqlViewSearch(db, USER, AdaMMConfig()).ensure_index("text", dim)
    took = time.perf_counter() - t
    db.execute("VACUUM ANALYZE adamm_event_views")
    db.close()
    return took


def open_memory(
    path: str | Path, queries: np.ndarray, approximate: bool, sql: bool = False
) -> tuple[RetrievalMemory, float]:
    config = AdaMMConfig(
        approximate_search_above=0 if approximate else None, pgvector_search=sql
    )
    t = time.perf_counter()
    memory = RetrievalMemory(
        MemoryDatabase(path), USER, text_encoder=Precomputed(queries), config=config
    )
    return memory, time.perf_counter() - t


def search(memory: RetrievalMemory, calls: int) -> tuple[list[list[str]], list[float]]:
    assert isinstance(memory.text_encoder, Precomputed)
    for _ in range(3):
        memory.semantic_match("warm-up", "event", 10)
    memory.text_encoder.next = 0
    memory.hierarchy.events.clear_loaded()  # every measured call reads its events
    found, times = [], []
    for _ in range(calls):
        t = time.perf_counter()
        units = memory.semantic_match("query", "event", 10)
        times.append((time.perf_counter() - t) * 1000)
        found.append([u.unit_id for u in units])
    return found, times


def level_times(memory: RetrievalMemory, calls: int) -> str:
    """SemanticMatch at episode and topic scope (the first call stacks)."""
    cells = []
    for scope in ("episode", "topic"):
        memory.semantic_match("warm-up", scope, 10)  # type: ignore[arg-type]
        times = []
        for _ in range(calls):
            t = time.perf_counter()
            memory.semantic_match("query", scope, 10)  # type: ignore[arg-type]
            times.append((time.perf_counter() - t) * 1000)
        cells.append(f"{statistics.median(times):.1f} / {p95(times):.1f}")
    return " | ".join(cells)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--noise", type=float, default=0.05)
    parser.add_argument(
        "--ef-search",
        type=int,
        nargs="+",
        default=[128, 256, 512],
        help="HNSW search breadths to measure on the same graph",
    )
    parser.add_argument("--engine", choices=("duckdb", "postgres"), default="duckdb")
    parser.add_argument(
        "--pg-setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the PostgreSQL server (shared_buffers=2GB); repeatable",
    )
    args = parser.parse_args()
    server = None
    if args.engine == "postgres":
        from tools.support.postgres_server import PostgresServer

        settings = dict(item.split("=", 1) for item in args.pg_setting)
        server = PostgresServer(durable=True, settings=settings).start()
        if settings:
            print(f"PostgreSQL settings: {settings}")
    try:
        run(args, server)
    finally:
        if server is not None:
            server.stop()


def run(args: argparse.Namespace, server: object) -> None:
    turns, questions = real_texts()
    encoder = SentenceTransformerEncoder()
    base = encoder.encode(turns)
    queries = encoder.encode(questions[: args.calls])
    print(
        f"{len(turns)} real turns as centres, {len(queries)} real questions as "
        f"queries, noise {args.noise}\n"
    )
    print(
        "| events | index | first open s (from the database) | reopen s (from the "
        "file) | first search after reopen ms | SemanticMatch median ms | p95 ms "
        "| recall@10 vs exact |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    levels: list[tuple[int, str]] = []
    for n in args.events:
        with tempfile.TemporaryDirectory() as tmp:
            path: str | Path = Path(tmp) / "scale.duckdb"
            if server is not None:
                path = server.create_database(f"scale_{n}")  # type: ignore[attr-defined]
            t = time.perf_counter()
            write_memory(path, base, n, args.noise)
            written = time.perf_counter() - t
            built = float("nan")
            if server is not None:
                built = build_hnsw(str(path), base.shape[1])
            exact: list[list[str]] = []
            modes = [("FAISS", False)]
            if server is not None:
                modes.append(("pgvector", True))
            for (engine_name, sql), approximate in itertools.product(
                modes, (False, True)
            ):
                memory, first = open_memory(path, queries, approximate, sql)
                assert memory.index_source == "database", memory.index_source
                assert (memory._sql is not None) == sql
                again = cold = float("nan")
                if server is None:  # a file: read the persisted index back
                    memory.db.close()
                    del memory
                    gc.collect()
                    memory, again = open_memory(path, queries, approximate)
                    assert memory.index_source == "file", memory.index_source
                    t = time.perf_counter()  # pages of a mapped index read on demand
                    memory.semantic_match("first", "event", 10)
                    cold = (time.perf_counter() - t) * 1000
                for ef in args.ef_search if approximate else [None]:
                    if ef is not None and memory._sql is not None:
                        memory._sql.config = dataclasses.replace(
                            memory.config, hnsw_ef_search=ef
                        )
                    elif ef is not None:
                        memory._text_index.ef_search = ef
                    found, times = search(memory, args.calls)
                    if not approximate and not exact:
                        exact, recall = found, "1 (itself)"
                    else:
                        overlap = [
                            len(set(a) & set(e)) / max(1, len(e))
                            for a, e in zip(found, exact, strict=True)
                        ]
                        recall = f"{statistics.fmean(overlap):.3f}"
                    kind = f"HNSW, efSearch {ef}" if approximate else "exact"
                    if server is not None:
                        kind = f"{engine_name} {kind}"
                    print(
                        f"| {n:,} | {kind} | {first:.1f} | {again:.2f} | {cold:.0f} | "
                        f"{statistics.median(times):.1f} | {p95(times):.1f} | "
                        f"{recall} |",
                        flush=True,
                    )
                if not approximate and not sql:
                    levels.append((n, level_times(memory, args.calls)))
                memory.db.close()
                del memory
                gc.collect()
            if server is not None:
                print(f"(building the pgvector HNSW index took {built:.0f} s)")
            print(f"(writing the {n:,}-event memory took {written:.0f} s)", flush=True)
    print(
        "\n| events | episodes | topics | episode scope median / p95 ms | "
        "topic scope median / p95 ms |\n|---:|---:|---:|---|---|"
    )
    for n, row in levels:
        print(f"| {n:,} | {n // 10:,} | {n // 1000:,} | {row} |")


if __name__ == "__main__":
    main()
