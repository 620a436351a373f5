"""What realigning kinds costs after an ingestion (``analytic/realign.py``).

Each size is a fresh synthetic history (``--mode classic`` or ``everyday``, as in
bench_ingest.py) ingested with ``realign_kinds=False`` into a fresh DuckDB file,
retrieval off; then ``realign`` runs ``--repeat`` times on the ingested memory.
Reported: the ingest's seconds, and the median seconds of a realignment (the
first run may rename and rebuild; the later ones find nothing to change, which
is the cost an agent pays when nothing new is to be joined).

    python tools/benchmarks/bench_realign.py --mode both --sizes 2000 10000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from langgraph_adamm.analytic.realign import realign  # noqa: E402
from tools.datasets.everyday_history import generate_everyday  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402

ROUNDS_PER_DAY = {"classic": 4.55, "everyday": 7.1}


def run(mode: str, size: int, repeat: int, workdir: Path) -> dict[str, object]:
    days = max(1, round(size / ROUNDS_PER_DAY[mode]))
    folder = workdir / f"{mode}_{size}"
    if mode == "classic":
        history, _ = generate(seed=1, days=days).write(folder / "h")
        user = "synth"
    else:
        data = generate_everyday(days=days, seed=1)
        history, _ = data.write(folder / "h")
        user = data.history["user_id"]
    config = AdaMMConfig(realign_kinds=False)
    with Memory(folder / "m.duckdb", user_id=user, retrieval=False, config=config) as m:
        start = time.perf_counter()
        report = m.ingest(history)
        ingest_s = time.perf_counter() - start
        runs = []
        renamed = rounds = 0
        for _ in range(repeat):
            start = time.perf_counter()
            outcome = realign(m.analytic)
            runs.append(time.perf_counter() - start)
            renamed += len(outcome.renamed)
            rounds += outcome.rounds
        return {
            "mode": mode,
            "rounds": report.rounds_processed,
            "ingest_s": round(ingest_s, 2),
            "realign_first_s": round(runs[0], 3),
            "realign_median_s": round(statistics.median(runs), 3),
            "labels_joined": renamed,
            "rounds_read_again": rounds,
            "tables": len(m.tables),
        }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", choices=("classic", "everyday", "both"), default="both")
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 10000])
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    modes = ("classic", "everyday") if a.mode == "both" else (a.mode,)
    with tempfile.TemporaryDirectory() as tmp:
        for mode in modes:
            for size in a.sizes:
                print(json.dumps(run(mode, size, a.repeat, Path(tmp))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
