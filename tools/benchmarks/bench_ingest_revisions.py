"""Ingestion with embeddings: this checkout against an earlier revision, one run.

An earlier revision of the project (``--baseline``, a git revision) is checked
out into a temporary worktree. Each variant ingests the same histories in a
process of its own, so the two versions of the package never meet:

- ``baseline``: the earlier revision with its default encoder settings;
- ``torch`` and ``onnx-int8``: this checkout with that text backend.

Histories: the Mem-Gallery dev split (converted to the history format by this
checkout) and a synthetic history of each ``--days`` count. Each child loads its
encoder (and, for ONNX, its cached export) before the clock starts; a figure is
the time of ``Memory.ingest`` alone, summed over a history's files. Each figure
is the median of ``--passes`` passes, with the variants' order reversed every
other pass. Retrieval is on, images are not embedded (no visual encoder).

    python tools/benchmarks/bench_ingest_revisions.py --baseline d8f54dd --passes 3
    python tools/benchmarks/bench_ingest_revisions.py --baseline d8f54dd --days 220 2200
    python tools/benchmarks/bench_ingest_revisions.py --baseline 41d7594 \
        --variants torch --days 220 2200

``--variants`` picks this checkout's backends (default: torch and onnx-int8);
the last column is each one's rate over the baseline's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEM_GALLERY = ROOT.parent / "shared/benchmarks/mem-gallery/dev"

CHILD = r"""
import json, sys, time
from pathlib import Path
from langgraph_adamm import Memory
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder
backend, work, *files = sys.argv[1:]
encoder = (
    SentenceTransformerEncoder()
    if backend == "baseline"
    else SentenceTransformerEncoder(backend=backend)
)
encoder.encode(["warm up"])
rounds, seconds = 0, 0.0
for i, spec in enumerate(files):
    path, user = spec.split("::")
    with Memory(Path(work) / f"{i}.duckdb", user_id=user, text_encoder=encoder,
                visual_encoder=None) as m:
        assert m.retrieval is not None
        t = time.perf_counter()
        report = m.ingest(path)
        seconds += time.perf_counter() - t
        rounds += report.rounds_indexed
print(json.dumps({"rounds": rounds, "seconds": seconds}))
"""


def run_child(tree: Path, backend: str, files: list[str]) -> tuple[int, float]:
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1")
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, backend, work, *files],
            env=env,
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
    if out.returncode:
        sys.exit(f"{backend} in {tree} failed:\n{out.stderr[-3000:]}")
    last = json.loads(out.stdout.strip().splitlines()[-1])
    return int(last["rounds"]), float(last["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="a git revision")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument(
        "--days", type=int, nargs="+", default=[220], help="synthetic histories"
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=["torch", "onnx-int8"],
        default=["torch", "onnx-int8"],
        help="this checkout's text backends to run beside the baseline",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from langgraph_adamm.evaluation.mem_gallery import convert
    from tools.datasets.synthetic_history import generate

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
             args.baseline],
            check=True,
            capture_output=True,
        )  # fmt: skip
        try:
            histories: dict[str, list[str]] = {}
            if MEM_GALLERY.is_dir():
                convert(MEM_GALLERY, Path(tmp) / "mg")
                histories["Mem-Gallery dev"] = [
                    f"{f}::{f.name.split('.')[0]}"
                    for f in sorted((Path(tmp) / "mg").glob("*.history.json"))
                ]
            for days in args.days:
                synth, _ = generate(seed=days, days=days).write(
                    Path(tmp) / f"synth{days}"
                )
                histories[f"synthetic ({days} days)"] = [f"{synth}::synth"]
            variants = {"baseline": base} | dict.fromkeys(args.variants, ROOT)
            mine = list(args.variants)
            print(
                f"baseline: {args.baseline}; median of {args.passes} passes\n\n"
                "| history | rounds | baseline rounds/s | "
                + " | ".join(f"{v} rounds/s" for v in mine)
                + " | "
                + " | ".join(f"{v} / baseline" for v in mine)
                + " |\n|---|---:|---:|"
                + "---:|" * (2 * len(mine))
            )
            for label, files in histories.items():
                seconds: dict[str, list[float]] = {v: [] for v in variants}
                rounds = 0
                for p in range(args.passes):
                    names = list(variants) if p % 2 == 0 else list(variants)[::-1]
                    for name in names:
                        rounds, secs = run_child(variants[name], name, files)
                        seconds[name].append(secs)
                rate = {v: rounds / statistics.median(s) for v, s in seconds.items()}
                print(
                    f"| {label} | {rounds:,} | {rate['baseline']:.0f} | "
                    + " | ".join(f"{rate[v]:.0f}" for v in mine)
                    + " | "
                    + " | ".join(f"{rate[v] / rate['baseline']:.2f}" for v in mine)
                    + " |",
                    flush=True,
                )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                check=False,
                capture_output=True,
            )


if __name__ == "__main__":
    main()
