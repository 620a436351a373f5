"""Text encoder backends side by side: raw throughput, vectors, ingestion.

1. Raw encoder: sentences/s on real dialogue turns (the user and assistant turns
   of the Mem-Gallery dev split, in file order), for each backend (16 texts a
   batch, sorted by length) and for torch with 64 a batch (the setting before),
   as ratios to that first row, with the cosine of each one's vectors to its.
2. Ingestion with retrieval on (offline pipeline, text-only): rounds/s on the
   Mem-Gallery dev split and on synthetic histories of about 1k and 10k rounds,
   with the per-round cost at 10k as a ratio to 1k.

Each raw figure is the median of ``--repeats`` runs, the encoders taking turns
in each repeat; each ingestion figure is the median of ``--passes`` passes, the
encoders' order reversed every other pass (a first run pays one-time costs).
All run in one process.

    python tools/benchmarks/bench_encoders.py --sentences 1000 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402
from tools.datasets.synthetic_history import generate  # noqa: E402

BACKENDS = ("torch", "onnx", "onnx-int8")
REFERENCE = "torch, batch 64 (before)"
"""The encoder as it was before this benchmark's changes: torch, 64 per batch."""
MEM_GALLERY = Path(__file__).resolve().parents[3] / (
    "shared/benchmarks/mem-gallery/dev"
)


def dialogue_turns(folder: Path, limit: int) -> list[str]:
    """User and assistant turns of the scenario files, in order."""
    turns: list[str] = []
    for file in sorted(folder.glob("*.json")):
        raw = json.loads(file.read_text(encoding="utf-8"))
        for session in raw.get("multi_session_dialogues") or []:
            for r in session.get("dialogues") or []:
                turns += [t for t in (r.get("user"), r.get("assistant")) if t]
    return turns[:limit]


def raw_throughput(
    encoders: dict[str, SentenceTransformerEncoder], texts: list[str], repeats: int
) -> None:
    print(f"raw encoder, {len(texts)} dialogue turns, median of {repeats} runs\n")
    print(
        "| encoder | sentences/s | ratio to the first row | cosine to the first row "
        "min / mean |"
    )
    print("|---|---:|---:|---|")
    for encoder in encoders.values():
        encoder.encode(texts[:32])  # warm-up
    times: dict[str, list[float]] = {name: [] for name in encoders}
    vecs: dict[str, np.ndarray] = {}
    for _ in range(repeats):  # interleaved, so that drift hits every encoder alike
        for name, encoder in encoders.items():
            t = time.perf_counter()
            vecs[name] = encoder.encode(texts)
            times[name].append(time.perf_counter() - t)
    first = next(iter(encoders))
    base = len(texts) / statistics.median(times[first])
    for name in encoders:
        rate = len(texts) / statistics.median(times[name])
        cos = np.sum(vecs[name] * vecs[first], axis=1)
        print(
            f"| {name} | {rate:.1f} | {rate / base:.2f} | "
            f"{cos.min():.4f} / {cos.mean():.4f} |",
            flush=True,
        )


def ingest_seconds(
    history: Path, user: str, name: str, encoder: SentenceTransformerEncoder, work: Path
) -> tuple[int, float]:
    slug = "".join(c if c.isalnum() else "-" for c in name)
    with Memory(
        work / f"{user}-{slug}.duckdb",
        user_id=user,
        text_encoder=encoder,
        visual_encoder=None,
    ) as m:
        assert m.retrieval is not None  # encoder loaded before timing
        t = time.perf_counter()
        report = m.ingest(history)
        return report.rounds_indexed, time.perf_counter() - t


def ingestion(
    encoders: dict[str, SentenceTransformerEncoder],
    work: Path,
    sizes: dict[str, int],
    passes: int,
) -> None:
    backends = list(encoders)
    print(f"\ningestion with embeddings (median of {passes} passes)\n")
    print(
        "| history | rounds | " + " | ".join(f"{b} rounds/s" for b in backends) + " |"
    )
    print("|---|---:|" + "---:|" * len(backends))
    histories: list[tuple[str, list[tuple[Path, str]]]] = []
    if MEM_GALLERY.is_dir():
        from langgraph_adamm.evaluation.mem_gallery import convert

        convert(MEM_GALLERY, work / "mg")
        files = sorted((work / "mg").glob("*.history.json"))
        histories.append(
            ("Mem-Gallery dev", [(f, f.name.split(".")[0]) for f in files])
        )
    for label, days in sizes.items():
        hist, _ = generate(seed=days, days=days).write(work / f"s{days}")
        histories.append((f"synthetic {label}", [(hist, "synth")]))
    per_round: dict[str, dict[str, float]] = {}
    for label, files in histories:
        seconds: dict[str, list[float]] = {b: [] for b in backends}
        rounds = 0
        for p in range(passes):  # the order turns around each pass
            for backend in backends if p % 2 == 0 else backends[::-1]:
                rounds, secs = 0, 0.0
                for path, user in files:
                    n, s = ingest_seconds(
                        path, user, f"{backend}-{p}", encoders[backend], work
                    )
                    rounds += n
                    secs += s
                seconds[backend].append(secs)
        cells = []
        for backend in backends:
            secs = statistics.median(seconds[backend])
            per_round.setdefault(label, {})[backend] = secs / rounds
            cells.append(f"{rounds / secs:.0f}")
        print(f"| {label} | {rounds:,} | " + " | ".join(cells) + " |", flush=True)
    labels = [f"synthetic {k}" for k in sizes]
    if len(labels) == 2:
        small, large = labels
        print()
        for backend in backends:
            ratio = per_round[large][backend] / per_round[small][backend]
            print(f"{backend}: per-round cost {large} / {small} = {ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument(
        "--passes",
        type=int,
        default=2,
        help="ingestion passes per encoder; the order reverses each pass",
    )
    parser.add_argument(
        "--days",
        type=int,
        nargs=2,
        default=[220, 2200],
        help="synthetic history lengths (about 4.5 rounds a day: ~1k and ~10k)",
    )
    args = parser.parse_args()
    texts = dialogue_turns(MEM_GALLERY, args.sentences)
    if not texts:
        sys.exit(f"no Mem-Gallery dev files under {MEM_GALLERY}")
    encoders = {REFERENCE: SentenceTransformerEncoder(batch_size=64)}
    encoders |= {b: SentenceTransformerEncoder(backend=b) for b in args.backends}
    raw_throughput(encoders, texts, args.repeats)
    if not args.skip_ingest:
        with tempfile.TemporaryDirectory() as tmp:
            ingestion(
                encoders,
                Path(tmp),
                {"~1k": args.days[0], "~10k": args.days[1]},
                args.passes,
            )


if __name__ == "__main__":
    main()
