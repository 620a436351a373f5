"""Offline ingestion throughput at 1k, 10k and 100k rounds.

Each size is a fresh synthetic history (``--mode classic``:
tools/datasets/synthetic_history.py; ``--mode everyday``:
tools/datasets/everyday_history.py, the phrasing-robust mode; ``--mode both``
runs the two in one process) ingested into a fresh DuckDB file with the rule
extractor, the default batch size and no model, and retrieval memory off
(embedding throughput is measured by bench_retrieval.py). Reported: rounds per
second over the whole ingest (reading the file, storing raw rounds, extraction,
mining, materialization), the median over ``--repeat`` runs; and, within the
largest run, the median seconds per batch over the first and the last ten
batches, which shows whether adding a round gets dearer as the history grows.

    python tools/benchmarks/bench_ingest.py --sizes 1000 10000 100000 --repeat 3
    python tools/benchmarks/bench_ingest.py --mode both --sizes 1000 10000 100000 \\
        --repeat 3
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from tools.datasets.everyday_history import generate_everyday  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402

ROUNDS_PER_DAY = {"classic": 4.55, "everyday": 7.1}  # generators' averages


def run_once(size: int, seed: int, workdir: Path, mode: str) -> dict[str, float]:
    days = max(1, round(size / ROUNDS_PER_DAY[mode]))
    out = workdir / f"{mode}_h{size}_{seed}"
    if mode == "classic":
        hist, _ = generate(seed=seed, days=days).write(out)
        user = "synth"
    else:
        data = generate_everyday(days=days, seed=seed)
        hist, _ = data.write(out)
        user = data.history["user_id"]
    db = workdir / f"{mode}_m{size}_{seed}.duckdb"
    batch_times: list[float] = []
    last = [time.perf_counter()]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        batch_times.append(now - last[0])
        last[0] = now

    # The analytic pipeline alone: embedding throughput is bench_retrieval.py's.
    with Memory(db, user_id=user, retrieval=False) as memory:
        start = time.perf_counter()
        last[0] = start
        report = memory.ingest(hist, progress=progress)
        elapsed = time.perf_counter() - start
        tables = len(memory.tables)
    batch = memory.config.ingest_batch_size
    return {
        "rounds": report.rounds_processed,
        "seconds": elapsed,
        "rounds_per_s": report.rounds_processed / elapsed,
        "first10_batch_s": statistics.median(batch_times[:10]),
        "last10_batch_s": statistics.median(batch_times[-10:]),
        "batch_size": batch,
        "tables": tables,
        "failures": len(report.failures),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--mode", choices=["classic", "everyday", "both"], default="classic"
    )
    args = parser.parse_args()
    modes = ["classic", "everyday"] if args.mode == "both" else [args.mode]
    summaries = [run_mode(mode, args) for mode in modes]
    if args.json:
        print(json.dumps(summaries, indent=1))


def run_mode(mode: str, args: argparse.Namespace) -> dict[str, object]:
    results: dict[int, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            runs = [
                run_once(size, seed, Path(tmp), mode)
                for seed in range(1, args.repeat + 1)
            ]
            med = statistics.median(r["rounds_per_s"] for r in runs)
            results[size] = {
                "rounds": runs[0]["rounds"],
                "rounds_per_s_median": med,
                "ms_per_round_median": 1000 / med,
                "runs_rounds_per_s": [round(r["rounds_per_s"], 1) for r in runs],
                "first10_batch_s": statistics.median(
                    r["first10_batch_s"] for r in runs
                ),
                "last10_batch_s": statistics.median(r["last10_batch_s"] for r in runs),
                "tables": runs[0]["tables"],
                "failures": sum(r["failures"] for r in runs),
            }
            print(
                f"{mode:>8} {size:>7} rounds: {med:8.1f} rounds/s "
                f"(runs {results[size]['runs_rounds_per_s']})",
                file=sys.stderr,
            )
    smallest, largest = min(results), max(results)
    ratio = (
        results[largest]["ms_per_round_median"]
        / results[smallest]["ms_per_round_median"]
    )
    summary = {
        "mode": mode,
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "results": results,
        f"per_round_cost_ratio_{largest}_vs_{smallest}": ratio,
    }
    if args.json:
        return summary
    print(f"\n{mode} histories")
    print(
        "| rounds | rounds/s (median) | ms/round | runs | first 10 batches s/batch | "
        "last 10 batches s/batch | tables |"
    )
    print("|---:|---:|---:|---|---:|---:|---:|")
    for r in results.values():
        print(
            f"| {r['rounds']:,} | {r['rounds_per_s_median']:.0f} | "
            f"{r['ms_per_round_median']:.3f} | {r['runs_rounds_per_s']} | "
            f"{r['first10_batch_s']:.3f} | {r['last10_batch_s']:.3f} | {r['tables']} |"
        )
    print(f"\nper-round cost at {largest:,} / at {smallest:,}: {ratio:.2f}x")
    return summary


if __name__ == "__main__":
    main()
