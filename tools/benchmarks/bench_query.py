"""Offline question answering on the synthetic generator's analytic questions.

For each seed: generate a history and its questions, ingest offline (rule
extraction, packaged MiniLM for retrieval), then

- answer every question with ``adamm ask --questions FILE --db DB --json`` (the
  command line, one process) and count exact values (units converted,
  relative tolerance 1e-6);
- the same questions without analytic memory: evidence coverage, the share of
  each question's contributing rounds that the 10-unit context holds;
- the same questions without planning context (whole metadata, unscored);
- end-to-end offline latency of ``Memory.ask`` (median, p95, warm).

    python tools/benchmarks/bench_query.py --seeds 7 11 23 --days 60 [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.cli import matches_gold  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402


def _ask_cli(db: Path, questions: Path) -> dict[str, dict[str, Any]]:
    adamm = Path(sys.executable).parent / "adamm"
    cmd = [str(adamm), "ask", "--questions", str(questions), "--db", str(db), "--json"]
    out = subprocess.run(
        cmd, capture_output=True, text=True, check=True, env=os.environ.copy()
    ).stdout
    results = [json.loads(line) for line in out.splitlines() if line.strip()]
    return {r["question_id"]: r for r in results}


def _coverage(result: dict[str, Any], gold: list[str]) -> float | None:
    if not gold:
        return None
    got = set(result.get("evidence") or [])
    return len(got & set(gold)) / len(gold)


def run_seed(seed: int, days: int, phrasing_seed: int | None) -> dict[str, Any]:
    data = generate(seed, days, phrasing_seed=phrasing_seed)
    with tempfile.TemporaryDirectory() as tmp:
        hist, qpath = data.write(tmp)
        db = Path(tmp) / "m.duckdb"
        with Memory(db, user_id=data.history["user_id"]) as mem:
            mem.ingest(hist)
        t0 = time.perf_counter()
        cli = _ask_cli(db, qpath)
        cli_seconds = time.perf_counter() - t0
        questions = data.questions
        right = Counter()
        total = Counter()
        wrong: list[dict[str, Any]] = []
        for q in questions:
            res = cli[q["question_id"]]
            ok = matches_gold(res, q["gold"])
            total[q["type"]] += 1
            right[q["type"]] += ok
            if not ok:
                wrong.append(
                    {
                        "question": q["question"],
                        "gold": q["gold"]["value"],
                        "got": res.get("value"),
                        "unit": res.get("unit"),
                        "call": (res.get("steps") or [{}])[0].get("arguments"),
                    }
                )
        latencies: list[float] = []
        no_analytic: list[float] = []
        no_context_right = 0
        with Memory(db, user_id=data.history["user_id"]) as mem:
            for q in questions:
                t = time.perf_counter()
                mem.ask(q["question"], question_time=q["question_time"])
                latencies.append(time.perf_counter() - t)
            for q in questions:
                res = mem.ask(
                    q["question"], question_time=q["question_time"], analytic=False
                )
                cov = _coverage(res, q["evidence"])
                if cov is not None:
                    no_analytic.append(cov)
            for q in questions:
                res = mem.ask(
                    q["question"],
                    question_time=q["question_time"],
                    planning_context=False,
                )
                no_context_right += matches_gold(res, q["gold"])
    return {
        "seed": seed,
        "questions": len(questions),
        "exact": sum(right.values()),
        "by_type": {k: [right[k], total[k]] for k in sorted(total)},
        "no_analytic_coverage": statistics.mean(no_analytic) if no_analytic else None,
        "no_context_exact": no_context_right,
        "latencies": latencies,
        "cli_seconds": cli_seconds,
        "wrong": wrong,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 11, 23])
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--phrasing-seed", type=int)
    parser.add_argument("--json", help="write all figures here")
    args = parser.parse_args()
    runs = [run_seed(s, args.days, args.phrasing_seed) for s in args.seeds]
    n = sum(r["questions"] for r in runs)
    exact = sum(r["exact"] for r in runs)
    lat = sorted(x for r in runs for x in r["latencies"][1:])  # first one warms up
    cov = [r["no_analytic_coverage"] for r in runs if r["no_analytic_coverage"]]
    by_type: Counter[str] = Counter()
    by_type_n: Counter[str] = Counter()
    for r in runs:
        for k, (ok, tot) in r["by_type"].items():
            by_type[k] += ok
            by_type_n[k] += tot
    print(f"seeds {args.seeds}, {args.days} days, {n} analytic questions")
    print(f"exact value (adamm ask --json): {exact}/{n} = {exact / n:.1%}")
    for r in runs:
        print(
            f"  seed {r['seed']}: {r['exact']}/{r['questions']}; w/o planning "
            f"context {r['no_context_exact']}/{r['questions']}; w/o analytic "
            f"evidence coverage {r['no_analytic_coverage']:.3f}; CLI "
            f"{r['cli_seconds']:.1f} s for all"
        )
    print(
        "by type: " + ", ".join(f"{k} {by_type[k]}/{by_type_n[k]}" for k in by_type_n)
    )
    no_ctx = sum(r["no_context_exact"] for r in runs)
    print(f"w/o planning context: {no_ctx}/{n} = {no_ctx / n:.1%}")
    if cov:
        print(f"w/o analytic memory: evidence coverage {statistics.mean(cov):.3f}")
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(
        f"latency Memory.ask offline: median {statistics.median(lat) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms over {len(lat)} questions"
    )
    for r in runs:
        for w in r["wrong"]:
            print(f"  WRONG seed {r['seed']}: {w}")
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1, default=str))


if __name__ == "__main__":
    main()
