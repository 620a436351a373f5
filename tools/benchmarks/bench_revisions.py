"""Ingestion, operators, ``ask``, SemanticMatch: this checkout against a revision.

A restructuring must leave speed where it was. An earlier revision
(``--baseline``, a git revision) is checked out into a temporary worktree, and
each pass runs one child process per revision (the two versions of the package
never meet), the order reversed every other pass. Each child, through the
public API only (what both revisions share):

- ingests the Mem-Gallery dev scenario ``--scenario`` (converted once by this
  checkout) into a fresh DuckDB file with the packaged MiniLM (torch backend),
  images not embedded: **ingestion**, rounds per second of ``Memory.ingest``;
- on a memory of the packaged sample history (134 rounds), asks each of its
  twelve questions offline (the rule planner, no model): **ask**, the median
  per question; and times again each analytic call (``lookup`` / ``filter`` /
  ``compute`` / ``rank``) those answers made, with the arguments they made it
  with: **operators**, the median per call;
- runs SemanticMatch of each question at event scope, budget 10:
  **SemanticMatch**, the median per call.

Every timed call is repeated ``--repeats`` times inside the child and the
median kept; a figure is then the median over ``--passes`` passes. The encoder
is loaded and warmed before any clock starts. The last column is this
checkout's time over the baseline's (rates: baseline's over this one's), so
that 1.00 means unchanged and above 1 slower.

    python tools/benchmarks/bench_revisions.py --baseline HEAD --passes 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEM_GALLERY = ROOT.parent / "shared/benchmarks/mem-gallery/dev"

CHILD = r"""
import json, statistics, sys, time
from importlib import resources
from pathlib import Path
from langgraph_adamm import Memory
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder

history, work, repeats = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
user = sys.argv[4]
encoder = SentenceTransformerEncoder(backend="torch")
encoder.encode(["warm up"])

def median_of(fn):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)

out = {}
with Memory(work / "ingest.duckdb", user_id=user, text_encoder=encoder,
            visual_encoder=None) as m:
    t = time.perf_counter()
    report = m.ingest(history)
    out["ingest_s"] = time.perf_counter() - t
    out["ingest_rounds"] = report.rounds_read

data = resources.files("langgraph_adamm") / "data"
questions = [json.loads(l) for l in
             (data / "sample_questions.jsonl").read_text().splitlines() if l.strip()]
sample = json.loads((data / "sample_history.json").read_text())
with Memory(work / "sample.duckdb", user_id=sample["user_id"], text_encoder=encoder,
            visual_encoder=None) as m:
    m.ingest(str(data / "sample_history.json"))
    asks, ops = [], []
    for q in questions:
        when = q.get("question_time")
        asks.append(median_of(lambda: m.ask(q["question"], question_time=when)))
        for step in m.ask(q["question"], question_time=when)["steps"]:
            tool, args = step.get("tool"), step.get("arguments")
            if tool in ("lookup", "filter", "compute", "rank") and not step["error"]:
                call = getattr(m, tool)
                ops.append(median_of(lambda: call(dict(args))))
    out["operator_s"] = statistics.median(ops) if ops else None
    out["operator_calls"] = len(ops)
    out["ask_s"] = statistics.median(asks)
    match = [median_of(lambda: m.semantic_match(q["question"], "event", 10))
             for q in questions]
    out["match_s"] = statistics.median(match)
print(json.dumps(out))
"""


def run_child(tree: Path, history: str, user: str, repeats: int) -> dict[str, float]:
    env = dict(
        os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="0"
    )
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, history, work, str(repeats), user],
            env=env,
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
    if out.returncode:
        sys.exit(f"the child in {tree} failed:\n{out.stderr[-3000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="a git revision")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--scenario", default="Music_Dance", help="a Mem-Gallery dev scenario"
    )
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from langgraph_adamm.evaluation.mem_gallery import convert

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
             args.baseline],
            check=True,
            capture_output=True,
        )  # fmt: skip
        try:
            convert(MEM_GALLERY, Path(tmp) / "mg")
            found = sorted((Path(tmp) / "mg").glob(f"*{args.scenario}*.history.json"))
            if not found:
                sys.exit(f"no Mem-Gallery dev scenario {args.scenario!r}")
            history = str(found[0])
            user = found[0].name.split(".")[0]
            trees = {"baseline": base, "this": ROOT}
            runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            for p in range(args.passes):
                names = list(trees) if p % 2 == 0 else list(trees)[::-1]
                for name in names:
                    runs[name].append(
                        run_child(trees[name], history, user, args.repeats)
                    )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                check=False,
                capture_output=True,
            )

    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "cpu": cpu_name()}, indent=1))

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[name])

    rows = []
    rounds = runs["this"][0]["ingest_rounds"]
    b_rate = rounds / med("baseline", "ingest_s")
    t_rate = rounds / med("this", "ingest_s")
    rows.append(
        (f"ingestion ({args.scenario}, {rounds:.0f} rounds)", f"{b_rate:.1f} rounds/s",
         f"{t_rate:.1f} rounds/s", b_rate / t_rate)
    )  # fmt: skip
    for key, label in (
        ("operator_s", "operator call (the answers' analytic calls)"),
        ("ask_s", "ask, offline (median of 12 questions)"),
        ("match_s", "SemanticMatch, event scope, budget 10"),
    ):
        b, t = med("baseline", key) * 1e3, med("this", key) * 1e3
        rows.append((label, f"{b:.2f} ms", f"{t:.2f} ms", t / b))
    print(
        f"CPU: {cpu_name()}; {os.cpu_count()} cores; load {os.getloadavg()[0]:.2f}\n"
        f"baseline {args.baseline}; median of {args.passes} passes x "
        f"{args.repeats} repeats\n\n| figure | baseline | this checkout | "
        "this / baseline (time) |\n|---|---:|---:|---:|"
    )
    for label, b_s, t_s, ratio in rows:
        print(f"| {label} | {b_s} | {t_s} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
