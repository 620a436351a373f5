"""The lexical index at scale: growth, search latency, file size and reopening.

Documents: N event texts, each a user or assistant turn of the Mem-Gallery dev
split (``../shared/benchmarks/mem-gallery/dev``) with a few words of its own
added (a number, a made-up name), so that the vocabulary keeps growing with N
as a real memory's does. They are added in batches of ``--batch`` (as
ingestion adds them: one segment per batch, merged as the index grows), and the
total time of adding them is reported with the segments left at the end.

Queries: the split's questions, searched with ``LexicalIndex.search(q, 50)``
(what event search asks for a budget of 10); median and p95 over ``--calls``.
Then the index is written to its file, read back (timed, median of 3) and
searched again to check the same results.

    python tools/benchmarks/bench_lexical.py --events 10000 100000 1000000 --calls 200
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from langgraph_adamm.retrieval.lexical import LexicalIndex  # noqa: E402

DEV = ROOT.parent / "shared" / "benchmarks" / "mem-gallery" / "dev"
SYLLABLES = "ka lo mi ra ve tu no si da pe lu zo ri ba ne".split()


def corpus() -> tuple[list[str], list[str]]:
    """The dev split's turns and questions."""
    turns: list[str] = []
    questions: list[str] = []
    for path in sorted(DEV.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        for s in raw.get("multi_session_dialogues") or []:
            for r in s.get("dialogues") or []:
                turns += [t for t in (r.get("user"), r.get("assistant")) if t]
        questions += [q["question"] for q in raw.get("human-annotated QAs") or []]
    return turns, questions


def documents(turns: list[str], n: int, rng: random.Random) -> list[str]:
    out = []
    for _ in range(n):
        name = "".join(rng.choice(SYLLABLES) for _ in range(3)).title()
        out.append(f"{rng.choice(turns)} {name} {rng.randint(1, 99_999)}")
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(n: int, args: argparse.Namespace, turns: list[str], qs: list[str]) -> dict:
    rng = random.Random(n)
    docs = documents(turns, n, rng)
    index = LexicalIndex()
    t0 = time.perf_counter()
    for i in range(0, n, args.batch):
        index.add(docs[i : i + args.batch])
    build = time.perf_counter() - t0
    queries = [rng.choice(qs) for _ in range(args.calls)]
    index.search(queries[0], 50)  # warm
    times = []
    for q in queries:
        t = time.perf_counter()
        index.search(q, 50)
        times.append((time.perf_counter() - t) * 1000)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "lexical.npz"
        t = time.perf_counter()
        index.write(path)
        write = time.perf_counter() - t
        size = path.stat().st_size
        reads = []
        for _ in range(3):
            t = time.perf_counter()
            back = LexicalIndex.read(path)
            reads.append(time.perf_counter() - t)
        same = all(back.search(q, 50) == index.search(q, 50) for q in queries[:20])
    return {
        "events": n,
        "batch": args.batch,
        "add_s": round(build, 2),
        "add_us_per_event": round(build / n * 1e6, 1),
        "segments": len(index._segments),
        "terms": index.vocabulary_size,
        "postings": index.postings,
        "search_ms_median": round(statistics.median(times), 3),
        "search_ms_p95": round(percentile(times, 0.95), 3),
        "write_s": round(write, 2),
        "file_mb": round(size / 2**20, 1),
        "read_s_median": round(statistics.median(reads), 3),
        "same_after_read": same,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    turns, qs = corpus()
    if not turns:
        raise SystemExit(f"no Mem-Gallery dev files under {DEV}")
    rows = [run(n, args, turns, qs) for n in args.events]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in keys) + " |")


if __name__ == "__main__":
    main()
