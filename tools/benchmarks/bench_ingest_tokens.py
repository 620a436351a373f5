"""Ingestion with embeddings as rounds/s and encoded tokens/s, beside the CPU's peak.

A rounds/s figure depends on how long the rounds are and on what the clock
included; tokens/s does not, and it has a ceiling this CPU cannot pass. This
script measures, on one Mem-Gallery dev scenario (default: the 270-round
``Home_Repair_Maintenance_Cleaning``):

1. The machine: the CPU's model name and flags, the load average, and the
   dense-matmul peak (torch and numpy fp32 GFLOP/s; torch's int8 dynamic
   linear, GOP/s, for the int8 backend).
2. The model: parameters (all, embeddings, matrix weights) and FLOPs per
   token, ``2 x matrix weights + 4 x layers x width x sequence length``
   (attention), hence the hardware ceiling in tokens/s: peak / FLOPs per token.
3. The encoder alone: tokens/s on synthetic texts of ``--peak-length`` tokens
   at each of ``--batch-sizes``, the best batch size being its practical peak.
4. Ingestion, warm: each backend's encoder loaded and run once before the clock
   starts (as tools/benchmarks/bench_ingest_revisions.py and bench_encoders.py measure),
   ``Memory.ingest`` alone timed, no visual encoder; the median of
   ``--passes`` passes, the backends' order reversed every other pass. The texts
   the encoder was given are recorded and their tokens counted afterwards
   with the encoder's own tokenizer (special tokens included, truncated to
   its window): tokens/s over the whole ingest and within the encode calls.
5. Ingestion, cold (``--cold-passes``, 0 to skip): a fresh process per pass
   imports the package, builds the text encoder as ``Memory`` does for
   ``AdaMMConfig(text_backend=...)``, looks for the visual encoder as
   ``Memory``'s default ``visual_encoder="default"`` does, then ingests; each
   step is timed. A first ``Memory(path).ingest(...)`` in a new process pays
   all of them. ``--cold-export`` points ``ADAMM_CACHE_DIR`` at an empty
   folder, so that the ONNX backends export their model inside the clock.

``--census`` does none of that: it ingests every dev scenario with a
stand-in encoder that encodes nothing (zero vectors) and counts the tokens the
real encoder would have been given, per round, so that a rounds/s figure
measured on another scenario, or on the whole split, can be set beside this
one's tokens/s.

Any tokens/s above the hardware ceiling is flagged, as is any claimed rounds/s
(``--claims torch=75 onnx-int8=115``) whose tokens/s on this scenario would
be. Prints a table; ``--json PATH`` writes every figure.

The load average is printed beside each stage. On a shared machine the "now"
figures fall with the load; the "idle" figures (work over the process's CPU
time spread over every CPU, :meth:`Timing.rates`) estimate what an idle
machine gives, and flags compare with the idle ceilings.

One module because it runs on its own, as a script or as a module, importing
only the package, the standard library, numpy and torch, and its cold passes
run this same file in fresh processes; its sections (machine, model, encoder,
scenario, ingestion, report) are marked below.

    python tools/benchmarks/bench_ingest_tokens.py
    python tools/benchmarks/bench_ingest_tokens.py --backends torch onnx-int8 \
        --passes 3 --cold-passes 3 --claims torch=75 onnx-int8=115 --json out.json
    python -m tools.benchmarks.bench_ingest_tokens \
        --scenario Python_Botany_AI_Student_Life
    python tools/benchmarks/bench_ingest_tokens.py --census
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


def _repo_root() -> Path:
    """The folder that holds the package (this file may move within tools/)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "langgraph_adamm").is_dir():
            return parent
    return here.parent.parent


ROOT = _repo_root()
if importlib.util.find_spec("langgraph_adamm") is None:
    sys.path.insert(0, str(ROOT))
MEM_GALLERY = ROOT.parent / "shared/benchmarks/mem-gallery/dev"
DEFAULT_SCENARIO = "Home_Repair_Maintenance_Cleaning"
BACKENDS = ("torch", "onnx", "onnx-int8")
WORDS = (
    "the a house garden kitchen window light water morning evening paint wall "
    "floor door table chair friend family weekend project plan idea music "
    "book coffee street city market price time day week month year small "
    "large old new good clean quick slow warm cold green blue red bright "
    "quiet simple open close fix build check start finish move carry"
).split()
"""Common words, each one word piece, for synthetic texts of a known length."""


# -- the machine ------------------------------------------------------------
def cpu_info() -> dict[str, Any]:
    """The CPU's model name, its SIMD flags of interest and the load average."""
    first: dict[str, str] = {}  # the first processor's fields
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            first.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    flags = set(first.get("flags", "").split())
    wanted = ("avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")
    import torch

    return {
        "model_name": first.get("model name", "unknown"),
        # "AMD EPYC" alone does not tell generations apart: family and model do
        "family_model": f"{first.get('cpu family', '?')}/{first.get('model', '?')}",
        "mhz": first.get("cpu MHz", "?"),
        "flags": [f for f in wanted if f in flags],
        "logical_cpus": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
    }


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (what ``uptime`` shows)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


@dataclass(frozen=True)
class Timing:
    """The best of some runs: its wall-clock and process CPU seconds."""

    wall: float
    cpu: float

    def rates(self, work: float) -> tuple[float, float]:
        """Work per second now, and an estimate of it with every CPU free.

        The process's CPU time spread over all logical CPUs is the wall time
        the work would take if it had every CPU to itself. Threads that spin
        while they wait, and caches shared with other work, make the estimate
        low; work on fewer threads than CPUs makes it high (the matmul and
        encoder figures use every CPU).
        """
        cpus = os.cpu_count() or 1
        return work / self.wall, work / max(self.cpu / cpus, 1e-12)


def best_of(run: Any, repeats: int) -> Timing:
    """The fastest of ``repeats`` runs after a warm-up run."""
    run()  # allocation, kernel choice
    best = Timing(float("inf"), float("inf"))
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        run()
        took = Timing(time.perf_counter() - w, time.process_time() - c)
        best = min(best, took, key=lambda t: t.wall)
    return best


def matmul_peak(repeats: int) -> dict[str, Any]:
    """Dense-matmul throughput: fp32 (torch, numpy) GFLOP/s and int8 GOP/s.

    Shapes: a square product and the encoder's own (4096 tokens by 384 by
    1536, and back). A peak is the best shape's rate, now and as the idle
    estimate (:meth:`Timing.rates`); int8 is torch's dynamic-quantized linear
    (fbgemm/x86), the nearest the standard stack has to ONNX Runtime's int8
    MatMul kernels.
    """
    import torch

    shapes = [(1024, 1024, 1024), (4096, 384, 1536), (4096, 1536, 384)]
    rates: dict[str, dict[str, tuple[float, float]]] = {
        "torch_fp32": {},
        "numpy_fp32": {},
        "torch_int8": {},
    }
    out: dict[str, Any] = {"shapes": rates}
    rng = np.random.default_rng(0)
    with torch.inference_mode():
        for m, k, n in shapes:
            label, flops = f"{m}x{k}x{n}", 2.0 * m * k * n / 1e9
            a, b = torch.randn(m, k), torch.randn(k, n)
            timing = best_of(lambda a=a, b=b: a @ b, repeats)
            rates["torch_fp32"][label] = timing.rates(flops)
            na = rng.standard_normal((m, k), dtype=np.float32)
            nb = rng.standard_normal((k, n), dtype=np.float32)
            timing = best_of(lambda na=na, nb=nb: na @ nb, repeats)
            rates["numpy_fp32"][label] = timing.rates(flops)
            if 384 not in (k, n):
                continue  # int8 for the encoder's shapes only
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # deprecated, still there
                    from torch.ao.nn.quantized.dynamic import Linear

                    lin = Linear(k, n)
                    timing = best_of(lambda a=a, lin=lin: lin(a), repeats)
                rates["torch_int8"][label] = timing.rates(flops)
            except Exception as exc:  # noqa: BLE001 - left out, said why
                out["int8_problem"] = f"{type(exc).__name__}: {exc}"[:200]
    for kind, by_shape in rates.items():
        for i, when in enumerate(("now", "idle")):
            values = [r[i] for r in by_shape.values()]
            out[f"{kind}_{when}"] = max(values) if values else None
    for when in ("now", "idle"):
        out[f"fp32_{when}"] = max(out[f"torch_fp32_{when}"], out[f"numpy_fp32_{when}"])
        out[f"int8_{when}"] = out[f"torch_int8_{when}"]
    return out


# -- the model --------------------------------------------------------------
@dataclass(frozen=True)
class ModelCost:
    """What one token costs the encoder, from its parameters."""

    params_total: int
    params_embedding: int
    matrix_weights: int
    """Weights of the linear layers: each costs 2 FLOPs (multiply, add) a token."""
    layers: int
    width: int

    def flops_per_token(self, length: float) -> float:
        """FLOPs per token of a sequence of ``length`` tokens (padding included)."""
        return 2.0 * self.matrix_weights + 4.0 * self.layers * self.width * length

    def ceiling(self, length: float, fp32: float, int8: float | None) -> float:
        """Tokens/s at the matmul peak(s): int8 linear layers when ``int8`` is given."""
        attention = 4.0 * self.layers * self.width * length / (fp32 * 1e9)
        linear = 2.0 * self.matrix_weights / ((int8 or fp32) * 1e9)
        return 1.0 / (linear + attention)


def model_cost(st_model: Any) -> ModelCost:
    """Parameter counts of a loaded sentence-transformers model."""
    import torch

    total = sum(p.numel() for p in st_model.parameters())
    embedding = sum(
        m.weight.numel()
        for m in st_model.modules()
        if isinstance(m, torch.nn.Embedding)
    )
    matrix = sum(  # the pooler runs once a text (if at all), not once a token
        m.weight.numel()
        for name, m in st_model.named_modules()
        if isinstance(m, torch.nn.Linear) and "pooler" not in name
    )
    config = st_model[0].auto_model.config
    return ModelCost(
        total, embedding, matrix, int(config.num_hidden_layers), int(config.hidden_size)
    )


# -- the encoder and its tokenizer -----------------------------------------
def token_counts(encoder: Any, texts: Sequence[str]) -> list[int]:
    """Tokens the encoder runs per text: its own tokenizer, specials, truncation.

    SentenceTransformerEncoder exposes no tokenizer, so its backend's is used
    (the ONNX runner's ``tokenize``, sentence-transformers' ``tokenize``).
    """
    counts: list[int] = []
    for i in range(0, len(texts), 256):
        part = list(texts[i : i + 256])
        if encoder._onnx is not None:  # noqa: SLF001 - see the docstring
            mask = encoder._runner().tokenize(part)["attention_mask"]  # noqa: SLF001
            counts += [int(x) for x in np.asarray(mask).sum(axis=1)]
        else:
            mask = encoder._model.tokenize(part)["attention_mask"]  # noqa: SLF001
            counts += [int(x) for x in mask.sum(dim=1)]
    return counts


def effective_length(counts: Sequence[int]) -> float:
    """The sequence length a token sees on average (each text weighted by size)."""
    total = sum(counts)
    return sum(c * c for c in counts) / total if total else 0.0


def synthetic_texts(encoder: Any, count: int, length: int) -> list[str]:
    """``count`` texts of exactly ``length`` tokens (specials included)."""
    rng = random.Random(0)
    texts = [" ".join(rng.choices(WORDS, k=length - 2)) for _ in range(count)]
    got = set(token_counts(encoder, texts))
    if got != {length}:
        sys.exit(f"synthetic texts came out at {sorted(got)} tokens, not {length}")
    return texts


def encoder_peak(
    encoder: Any, length: int, count: int, sizes: Sequence[int], repeats: int
) -> dict[str, Any]:
    """Tokens/s of the encoder alone at each batch size (now, idle estimate)."""
    texts = synthetic_texts(encoder, count, length)
    before = encoder.batch_size
    rates: dict[int, tuple[float, float]] = {}
    try:
        for size in sizes:
            encoder.batch_size = size
            timing = best_of(lambda: encoder.encode(texts), repeats)
            rates[size] = timing.rates(count * length)
    finally:
        encoder.batch_size = before
    best = max(rates, key=lambda s: rates[s][0])
    return {"length": length, "texts": count, "tokens_per_s": rates,
            "best_batch": best, "peak": rates[best][0]}  # fmt: skip


class RecordingEncoder:
    """A text encoder that keeps what it was asked to encode, and for how long.

    Counting tokens is left for after the clock stops; appending a list and two
    clock reads per call is all this adds to the ingest it wraps.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.texts: list[str] = []
        self.seconds = 0.0

    def chunks(self, text: str) -> list[str]:
        """The wrapped encoder's pieces (views past its window are cut)."""
        return list(self.inner.chunks(text))

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """The wrapped encoder's vectors; the texts and the time are recorded."""
        self.texts.extend(texts)
        t = time.perf_counter()
        try:
            return np.asarray(self.inner.encode(texts))
        finally:
            self.seconds += time.perf_counter() - t


# -- the scenario -------------------------------------------------------------
def write_scenario(name: str, folder: Path) -> tuple[Path, str, int]:
    """The scenario as a history file: its path, user id and round count."""
    from langgraph_adamm.evaluation.mem_gallery import scenario_to_document

    source = MEM_GALLERY / f"{name}.json"
    if not source.is_file():
        sys.exit(f"no Mem-Gallery dev scenario {source}")
    doc = scenario_to_document(json.loads(source.read_text("utf-8")), user_id=name)
    path = folder / f"{name}.history.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    rounds = sum(len(s.get("rounds", [])) for s in doc.get("sessions", []))
    return path, name, rounds


# -- ingestion, warm (this process) ------------------------------------------
@dataclass
class WarmIngest:
    """One backend's warm ingestion passes."""

    rounds: int = 0
    seconds: list[float] = field(default_factory=list)
    encode_seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    texts: int = 0
    tokens: int = 0
    length: float = 0.0


def ingest_warm(
    encoders: dict[str, Any], history: Path, user: str, work: Path, passes: int
) -> dict[str, WarmIngest]:
    """Median-of-passes ingestion with each (loaded, warmed) encoder."""
    from langgraph_adamm import Memory

    results = {b: WarmIngest() for b in encoders}
    names = list(encoders)
    for p in range(passes):
        for backend in names if p % 2 == 0 else names[::-1]:
            recorder = RecordingEncoder(encoders[backend])
            db = work / f"warm-{backend}-{p}.duckdb"
            with Memory(
                db, user_id=user, text_encoder=recorder, visual_encoder=None
            ) as m:
                assert m.retrieval is not None  # opened, nothing left to load
                t, c = time.perf_counter(), time.process_time()
                report = m.ingest(history)
                secs, cpu = time.perf_counter() - t, time.process_time() - c
            db.unlink(missing_ok=True)
            r = results[backend]
            r.rounds = report.rounds_indexed
            r.seconds.append(secs)
            r.encode_seconds.append(recorder.seconds)
            r.cpu_seconds.append(cpu)
            if p == 0:  # the same texts every pass
                counts = token_counts(encoders[backend], recorder.texts)
                r.texts, r.tokens = len(counts), sum(counts)
                r.length = effective_length(counts)
    return results


# -- ingestion, cold (a process per pass) -------------------------------------
def child(backend: str, history: str, user: str, work: str) -> None:
    """A fresh process's first ingestion, step by step (printed as JSON)."""
    t0 = time.perf_counter()
    from langgraph_adamm import Memory
    from langgraph_adamm.retrieval.encoders import (
        SentenceTransformerEncoder,
        load_visual_encoder,
        vision_available,
    )

    t1 = time.perf_counter()
    text = SentenceTransformerEncoder(backend=backend)  # as Memory builds it
    text.encode(["warm up"])  # an ONNX session loads on first use
    t2 = time.perf_counter()
    visual = load_visual_encoder() if vision_available() else None  # the default
    t3 = time.perf_counter()
    with Memory(
        Path(work) / f"cold-{backend}.duckdb",
        user_id=user,
        text_encoder=text,
        visual_encoder=visual,
    ) as m:
        t4 = time.perf_counter()
        report = m.ingest(history)
        t5 = time.perf_counter()
    print(
        json.dumps(
            {
                "rounds": report.rounds_indexed,
                "import_s": t1 - t0,
                "text_encoder_s": t2 - t1,
                "visual_encoder_s": t3 - t2,
                "open_s": t4 - t3,
                "ingest_s": t5 - t4,
                "visual_loaded": visual is not None,
            }
        )
    )


def ingest_cold(
    backend: str, history: Path, user: str, work: Path, cold_export: bool
) -> dict[str, Any]:
    """One fresh process's first ingestion with this backend."""
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        if cold_export:
            env["ADAMM_CACHE_DIR"] = str(Path(tmp) / "cache")
        out = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", backend,
             str(history), user, tmp],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )  # fmt: skip
    if out.returncode:
        sys.exit(f"cold {backend} failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# -- the report ---------------------------------------------------------------
def _fmt(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def ingestion_rows(
    warm: dict[str, WarmIngest],
    cold: dict[str, list[dict[str, Any]]],
    ceiling_of: Any,
    cold_label: str,
) -> list[dict[str, Any]]:
    """One row per backend warm (medians) and per cold pass, with its ceilings."""
    rows: list[dict[str, Any]] = []
    for b, w in warm.items():
        secs = statistics.median(w.seconds)
        enc_secs = statistics.median(w.encode_seconds)
        now, idle = ceiling_of(b, w.length)
        per_round = w.tokens / w.rounds
        row = {
            "backend": b, "mode": "warm", "rounds": w.rounds, "seconds": secs,
            "rounds_per_s": w.rounds / secs, "texts": w.texts, "tokens": w.tokens,
            "tokens_per_round": per_round, "effective_length": w.length,
            "tokens_per_s": w.tokens / secs, "encode_seconds": enc_secs,
            "encode_tokens_per_s": w.tokens / enc_secs,
            "encode_share": enc_secs / secs,
            "cpu_seconds": statistics.median(w.cpu_seconds),
            "ceiling_now": now, "ceiling_idle": idle,
            "ceiling_rounds_per_s_idle": idle / per_round, "runs_s": w.seconds,
        }  # fmt: skip
        rows.append(row)
        for c in cold[b]:
            first = c["text_encoder_s"] + c["visual_encoder_s"] + c["ingest_s"]
            rows.append(row | {
                "mode": cold_label, "seconds": first,
                "rounds_per_s": c["rounds"] / first, "tokens_per_s": w.tokens / first,
                "encode_seconds": None, "encode_tokens_per_s": None,
                "encode_share": None, "cpu_seconds": None, "cold": c, "runs_s": None,
            })  # fmt: skip
    for r in rows:
        figures = ("tokens_per_s", "encode_tokens_per_s")
        r["above_idle_ceiling"] = [
            k for k in figures if r[k] is not None and r[k] > r["ceiling_idle"]
        ]
        r["above_ceiling_now"] = [
            k for k in figures if r[k] is not None and r[k] > r["ceiling_now"]
        ]
    return rows


def print_ingestion(rows: list[dict[str, Any]], cold: dict[str, list[Any]]) -> None:
    """The ingestion table, then the steps each cold pass paid."""
    print(
        "| backend | mode | s | rounds/s | tokens | tokens/round | tokens/s | "
        "tokens/s in encode | encode share | ceiling tokens/s now / idle | "
        "idle ceiling rounds/s | flag |\n|---|---|" + "---:|" * 9 + "---|"
    )
    for r in rows:
        share = r["encode_share"]
        flag = (
            "ABOVE IDLE CEILING" if r["above_idle_ceiling"]
            else "above ceiling now" if r["above_ceiling_now"] else ""
        )  # fmt: skip
        print(
            f"| {r['backend']} | {r['mode']} | {r['seconds']:.2f} | "
            f"{r['rounds_per_s']:.1f} | {r['tokens']:,} | {r['tokens_per_round']:.0f}"
            f" | {_fmt(r['tokens_per_s'])} | {_fmt(r['encode_tokens_per_s'])} | "
            f"{'-' if share is None else f'{share:.0%}'} | "
            f"{_fmt(r['ceiling_now'])} / {_fmt(r['ceiling_idle'])} | "
            f"{r['ceiling_rounds_per_s_idle']:.0f} | {flag} |"
        )
    steps = [(b, c) for b, cs in cold.items() for c in cs]
    if steps:
        print("\n| backend | import s | text encoder s | visual lookup s | ingest s |")
        print("|---|---:|---:|---:|---:|")
        for b, c in steps:
            print(
                f"| {b} | {c['import_s']:.2f} | {c['text_encoder_s']:.2f} | "
                f"{c['visual_encoder_s']:.2f} | {c['ingest_s']:.2f} |"
            )


# -- tokens per round, every scenario ------------------------------------------
class _Unencoded:
    """A text encoder's window and pieces, with zero vectors for its encodings."""

    def __init__(self, real: Any) -> None:
        self.real, self.name, self.dim = real, real.name, real.dim

    def chunks(self, text: str) -> list[str]:
        """The real encoder's pieces."""
        return list(self.real.chunks(text))

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Zero vectors: nothing is encoded."""
        return np.zeros((len(texts), self.dim), dtype=np.float32)


def census() -> None:
    """Tokens per round the text encoder is given, per dev scenario and in all."""
    from langgraph_adamm import Memory
    from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder

    real = SentenceTransformerEncoder(backend="torch")
    sources = sorted(MEM_GALLERY.glob("*.json"))
    if not sources:
        sys.exit(f"no Mem-Gallery dev scenarios in {MEM_GALLERY}")
    print("| scenario | rounds | texts | tokens | tokens/round |")
    print("|---|---:|---:|---:|---:|")
    all_rounds = all_tokens = 0
    with tempfile.TemporaryDirectory() as tmp:
        for source in sources:
            history, user, _ = write_scenario(source.stem, Path(tmp))
            recorder = RecordingEncoder(_Unencoded(real))
            db = Path(tmp) / f"{user}.duckdb"
            with Memory(
                db, user_id=user, text_encoder=recorder, visual_encoder=None
            ) as m:
                rounds = m.ingest(history).rounds_indexed
            tokens = sum(token_counts(real, recorder.texts))
            all_rounds, all_tokens = all_rounds + rounds, all_tokens + tokens
            print(f"| {user} | {rounds} | {len(recorder.texts)} | {tokens:,} | "
                  f"{tokens / rounds:.1f} |", flush=True)  # fmt: skip
    print(f"| dev split | {all_rounds:,} | | {all_tokens:,} | "
          f"{all_tokens / all_rounds:.1f} |")  # fmt: skip


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default=DEFAULT_SCENARIO)
    parser.add_argument("--backends", nargs="+", choices=BACKENDS, default=["torch"])
    parser.add_argument("--passes", type=int, default=3, help="warm passes, 0: none")
    parser.add_argument("--cold-passes", type=int, default=1)
    parser.add_argument("--cold-export", action="store_true")
    parser.add_argument("--peak-length", type=int, default=128)
    parser.add_argument("--peak-texts", type=int, default=64)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[1, 8, 16, 64])
    parser.add_argument("--repeats", type=int, default=3, help="for peaks: best of")
    parser.add_argument(
        "--claims",
        nargs="*",
        default=[],
        metavar="BACKEND=ROUNDS_PER_S",
        help="rounds/s figures to check against the idle ceiling on this scenario",
    )
    parser.add_argument(
        "--tokens-per-round",
        type=float,
        help="for --claims when --passes is 0 (else the warm ingest's figure)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--census",
        action="store_true",
        help="only count tokens per round in every dev scenario (nothing encoded)",
    )
    return parser.parse_args(argv)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:6])
        return
    args = parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.census:
        census()
        return
    from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder

    load = {"start": load_average()}
    cpu = cpu_info()
    print(
        f"CPU: {cpu['model_name']} (family/model {cpu['family_model']}, "
        f"{cpu['mhz']} MHz, {cpu['logical_cpus']} logical CPUs; "
        f"{' '.join(cpu['flags']) or 'no AVX2'}), torch threads "
        f"{cpu['torch_threads']}; load average {load['start']}",
        flush=True,
    )
    peak = matmul_peak(args.repeats)
    print(
        "dense matmul peak now / idle estimate: fp32 "
        f"{_fmt(peak['fp32_now'], 1)} / {_fmt(peak['fp32_idle'], 1)} GFLOP/s, int8 "
        f"linear {_fmt(peak['int8_now'], 1)} / {_fmt(peak['int8_idle'], 1)} GOP/s",
        flush=True,
    )
    reference = SentenceTransformerEncoder(backend="torch")
    cost = model_cost(reference._model)  # noqa: SLF001 - its parameters
    print(
        f"model {reference.name}: {cost.params_total / 1e6:.2f}M parameters "
        f"({cost.params_embedding / 1e6:.2f}M embeddings, "
        f"{cost.matrix_weights / 1e6:.2f}M linear weights), {cost.layers} layers "
        f"x {cost.width}; FLOPs/token at {args.peak_length} tokens "
        f"{cost.flops_per_token(args.peak_length) / 1e6:.1f}M",
        flush=True,
    )
    encoders: dict[str, Any] = {
        b: reference if b == "torch" else SentenceTransformerEncoder(backend=b)
        for b in args.backends
    }
    for enc in encoders.values():
        enc.encode(["warm up"])

    def ceiling_of(backend: str, length: float) -> tuple[float, float]:
        int8 = backend == "onnx-int8"
        return tuple(  # type: ignore[return-value]
            cost.ceiling(length, peak[f"fp32_{w}"], peak[f"int8_{w}"] if int8 else None)
            for w in ("now", "idle")
        )

    alone = {
        b: encoder_peak(
            e, args.peak_length, args.peak_texts, args.batch_sizes, args.repeats
        )
        for b, e in encoders.items()
    }
    load["after_peaks"] = load_average()
    print(
        f"\nencoder alone, {args.peak_texts} texts of {args.peak_length} tokens, "
        f"best of {args.repeats}, tokens/s now / idle estimate "
        f"(load {load['after_peaks']})\n"
    )
    print(
        "| backend | "
        + " | ".join(f"batch {s}" for s in args.batch_sizes)
        + " | best batch | hardware ceiling now / idle | peak / ceiling |"
    )
    print("|---|" + "---:|" * (len(args.batch_sizes) + 3))
    for b, a in alone.items():
        a["ceiling_now"], a["ceiling_idle"] = ceiling_of(b, args.peak_length)
        cells = " | ".join(
            f"{_fmt(a['tokens_per_s'][s][0])} / {_fmt(a['tokens_per_s'][s][1])}"
            for s in args.batch_sizes
        )
        print(
            f"| {b} | {cells} | {a['best_batch']} | {_fmt(a['ceiling_now'])} / "
            f"{_fmt(a['ceiling_idle'])} | {a['peak'] / a['ceiling_now']:.2f} |"
        )

    cold: dict[str, list[dict[str, Any]]] = {b: [] for b in args.backends}
    rows: list[dict[str, Any]] = []
    if args.passes > 0:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            history, user, rounds = write_scenario(args.scenario, work)
            warm = ingest_warm(encoders, history, user, work, args.passes)
            load["after_warm"] = load_average()
            for p in range(args.cold_passes):
                for b in args.backends if p % 2 == 0 else args.backends[::-1]:
                    cold[b].append(
                        ingest_cold(b, history, user, work, args.cold_export)
                    )
            load["after_cold"] = load_average()
        label = "cold export" if args.cold_export else "cold"
        rows = ingestion_rows(warm, cold, ceiling_of, label)
        print(
            f"\ningestion, {args.scenario} ({rounds} rounds), warm: median of "
            f"{args.passes} passes (load {load['after_warm']}); cold: a fresh "
            f"process's encoder load + ingest (load {load.get('after_cold')})\n"
        )
        print_ingestion(rows, cold)
    flags = [
        f"{r['backend']} {r['mode']}: {', '.join(r['above_idle_ceiling'])} above "
        "the idle ceiling"
        for r in rows
        if r["above_idle_ceiling"]
    ]
    claims = []
    for claim in args.claims:
        backend, _, value = claim.partition("=")
        row = next((r for r in rows if r["backend"] == backend), None)
        per_round = row["tokens_per_round"] if row else args.tokens_per_round
        if per_round is None:
            sys.exit(f"--claims {claim}: no warm {backend} ingest; --tokens-per-round")
        length = row["effective_length"] if row else args.peak_length
        idle = ceiling_of(backend, length)[1]
        implied = float(value) * per_round
        claims.append({"claim": claim, "tokens_per_s": implied, "ceiling_idle": idle})
        if implied > idle:
            flags.append(
                f"claim {claim}: {implied:,.0f} tokens/s above the idle ceiling"
            )
        print(
            f"claim {claim} rounds/s at {per_round:.0f} tokens/round: "
            f"{implied:,.0f} tokens/s, {'ABOVE' if implied > idle else 'within'} "
            f"the idle ceiling {idle:,.0f}"
        )
    verdict = "\n".join(f"FLAG: {f}" for f in flags) or "no figure above the ceiling"
    print("\n" + verdict)
    if args.json:
        result = {
            "cpu": cpu, "load_average": load, "matmul": peak,
            "model": asdict(cost) | {"name": reference.name},
            "encoder_alone": alone, "scenario": args.scenario, "ingestion": rows,
            "claims": claims, "flags": flags,
        }  # fmt: skip
        args.json.write_text(json.dumps(result, indent=1, default=str), "utf-8")


if __name__ == "__main__":
    main()
