"""Time to forget: one round, one session, and 10% of a large memory.

A synthetic history (``tools/synthetic_history.py``, about 4.5 rounds a day) is
ingested once with the rule extractor and the retrieval memory on. Text vectors
come from a hashing encoder (fixed pseudo-random vectors clustered by a text's
first words, so that episodes and topics form), so that building a 100k-round
memory does not take an hour of MiniLM:
forgetting never encodes, and its cost depends on how many rows, views, events,
episodes and tables it touches, not on what the vectors mean.

Then, on that memory, one after another (each a ``Memory.forget`` call, timed
alone):

1. one round (the middle one);
2. one session (the middle one);
3. 10% of the remaining rounds, drawn at random (seed 0).

With ``--exact`` every vector index stays exact (no HNSW past 100k vectors).

    python tools/bench_forget.py --days 22000
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from tools.synthetic_history import generate  # noqa: E402


class HashEncoder:
    """Fixed pseudo-random unit vectors, clustered by a text's first two words.

    Texts that start alike (one record kind) land near one of their cluster's
    centre, so that episodes and topics form as they do with real embeddings
    (independent random vectors would make every event its own episode and
    topic). No model is involved.
    """

    name = "bench-hash-384"
    dim = 384

    def __init__(self, clusters: int = 40, noise: float = 0.35) -> None:
        rng = np.random.default_rng(0)
        self.centres = rng.standard_normal((clusters, self.dim)).astype(np.float32)
        self.centres /= np.linalg.norm(self.centres, axis=1, keepdims=True)
        self.noise = noise

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            head = " ".join(text.lower().split()[:2]).encode()
            centre = int.from_bytes(hashlib.sha1(head).digest()[:4], "little")
            seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:8], "little")
            noise = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = self.centres[centre % len(self.centres)] + self.noise * noise / 20
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=22_000, help="~4.5 rounds a day")
    parser.add_argument("--exact", action="store_true", help="never HNSW")
    args = parser.parse_args()
    config = AdaMMConfig(approximate_search_above=None) if args.exact else None
    with tempfile.TemporaryDirectory() as tmp:
        path, _ = generate(seed=args.days, days=args.days).write(Path(tmp) / "h")
        with Memory(
            Path(tmp) / "m.duckdb",
            user_id="synth",
            text_encoder=HashEncoder(),
            visual_encoder=None,
            config=config,
        ) as m:
            t = time.perf_counter()
            report = m.ingest(path)
            built = time.perf_counter() - t
            r = m.retrieval
            assert r is not None
            index = "HNSW" if r._text_index.approximate else "exact"
            print(
                f"memory: {report.rounds_indexed:,} rounds, {len(m.tables)} tables, "
                f"{len(r.hierarchy.episodes):,} episodes, {len(r._text_index):,} text "
                f"vectors ({index}); built in {built:.0f} s\n"
            )
            rounds = [
                rid for (rid,) in m.db.fetchall('SELECT round_id FROM adamm_rounds '
                                                'ORDER BY "order"')
            ]  # fmt: skip
            sessions = [
                s for (s,) in m.db.fetchall(
                    "SELECT DISTINCT session_id FROM adamm_rounds ORDER BY 1")
            ]  # fmt: skip
            print(
                "| forget | rounds | seconds | tables dropped / rebuilt | episodes "
                "changed / removed |\n|---|---:|---:|---|---|"
            )
            picks = random.Random(0)
            steps = [
                ("one round", {"round_ids": [rounds[len(rounds) // 2]]}),
                ("one session", {"session_id": sessions[len(sessions) // 2]}),
            ]
            for label, selector in steps + [("10% of the rest", None)]:
                if selector is None:
                    left = m.rounds_to_forget(everything=True)
                    selector = {"round_ids": picks.sample(left, len(left) // 10)}
                t = time.perf_counter()
                done = m.forget(**selector)
                secs = time.perf_counter() - t
                a, rr = done.analytic, done.retrieval
                tables = f"{len(a.dropped)} / {len(a.rebuilt)}"
                eps = (
                    f"{len(rr.episodes_changed)} / {len(rr.episodes_removed)}"
                    if rr
                    else "-"
                )
                print(
                    f"| {label} | {len(done.round_ids):,} | {secs:.2f} | {tables} | "
                    f"{eps} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
