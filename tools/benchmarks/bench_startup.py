"""Start-up time and peak memory when indexing large images.

Three measurements, each in fresh processes (median of ``--repeat``):

1. ``adamm --help``: wall time of the command.
2. ``Memory(path)`` with retrieval installed: time to open an existing memory
   and answer one Compute call (encoders load on first retrieval use, so no
   model is loaded), and, for comparison, the time of a first SemanticMatch
   (which loads the text encoder).
3. Peak RSS while indexing a batch of four rounds, each with one large image
   (6000 x 6000 RGB noise, 36 Mpx, ~108 MB decoded) and one 15000 x 11000 PNG
   (165 Mpx, refused from its header), with a small random-init open_clip
   model: once with the default ``image_group_size`` (16) and once with 1.
4. A cold ``adamm ask "QUESTION" --db FILE`` on a memory of about 10k rounds
   (tools/datasets/synthetic_history.py, seed 7, ingested once with the ``onnx``
   backend, whose vectors are torch's), with ``--text-backend torch`` and
   ``onnx`` (its export cached by that ingest), alternating in fresh processes
   after one untimed run of each: median wall time, CPU time and peak RSS of
   the process (from ``os.wait4``). Two questions: the generator's first (an
   analytic one; also timed with ``--no-retrieval``, which loads no encoder:
   the floor the rest of the command sets) and one only SemanticMatch answers.
   A further run reports which of torch, transformers, sentence_transformers
   and open_clip an onnx process imported, and the backends' answers are
   compared. ``--ask-db`` keeps the memory for later runs; ``--only-ask`` skips
   1-3. Each round of runs also times the floor, ``python -c "import
   langgraph.graph, duckdb"`` (what any process that builds a graph over DuckDB
   pays), and every figure is given as a ratio of it; ``--baseline DIR`` (a
   ``git worktree`` of an earlier commit) times that commit's ``adamm ask`` in
   the same rounds, on a memory of its own; ``--ask-days 100`` makes a memory
   of about 600 rounds instead of 10k.

    python tools/benchmarks/bench_startup.py --repeat 5
    python tools/benchmarks/bench_startup.py --only-ask --repeat 7 \\
        --ask-db /tmp/m10k.duckdb
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASK_DAYS = 1700  # 10,044 rounds with seed 7
HEAVY = ("torch", "transformers", "sentence_transformers", "open_clip")

ASK_MODULES = textwrap.dedent("""
    import contextlib, io, json, sys
    from langgraph_adamm.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        main(["ask", *sys.argv[1:]])
    print(json.dumps([m for m in %r if m in sys.modules]))
""") % (list(HEAVY),)

OPEN = textwrap.dedent("""
    import json, sys, time
    t0 = time.perf_counter()
    from langgraph_adamm import Memory
    m = Memory(sys.argv[1], user_id="demo")
    t1 = time.perf_counter()
    table = m.tables[0].table_name
    m.compute({"table": table, "operator": "count"})
    t2 = time.perf_counter()
    m.semantic_match("packing for a hike")
    t3 = time.perf_counter()
    m.close()
    print(json.dumps({"import_open": t1 - t0, "open_and_compute": t2 - t0,
                      "first_semantic_match": t3 - t2}))
""")

IMAGES = textwrap.dedent("""
    import json, resource, sys
    import numpy as np
    from PIL import Image
    import open_clip, torch
    from open_clip.model import CLIP, CLIPTextCfg, CLIPVisionCfg
    from langgraph_adamm import AdaMMConfig, Memory
    from langgraph_adamm.history import history_from_dict
    from langgraph_adamm.retrieval.encoders import OpenClipEncoder
    folder, group = sys.argv[1], int(sys.argv[2])
    torch.manual_seed(0)
    model = CLIP(embed_dim=32,
        vision_cfg=CLIPVisionCfg(layers=2, width=64, patch_size=8, image_size=32,
                                 head_width=32),
        text_cfg=CLIPTextCfg(context_length=16, vocab_size=49408, width=64,
                             heads=2, layers=2))
    enc = OpenClipEncoder(model, open_clip.image_transform(32, is_train=False),
        open_clip.tokenizer.SimpleTokenizer(context_length=16), name="tiny",
        device="cpu")
    rounds = [{"user": f"photo {i}", "images": [{"path": f"{folder}/big{i}.png"},
              {"path": f"{folder}/bomb.png"}]} for i in range(4)]
    doc = {"user_id": "u", "sessions": [{"session_id": "S1", "rounds": rounds}]}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cfg = AdaMMConfig(image_group_size=group)
    with Memory(":memory:", user_id="u", config=cfg, visual_encoder=enc,
                text_encoder="all-MiniLM-L6-v2") as m:
        rep = m.ingest(history_from_dict(doc, base_dir=folder))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"group": group, "rss_before_mb": before / 1024,
                      "peak_rss_mb": peak / 1024,
                      "image_problems": len(rep.image_problems)}))
""")


def run(args: list[str]) -> dict[str, float]:
    out = subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def timed(
    args: list[str], env: dict[str, str] | None = None
) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak RSS in MB and stdout of one fresh process.

    CPU time (user + system) says the same on a busy machine; wall time does not.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            args, stdout=out, stderr=err, cwd=ROOT, env={**os.environ, **(env or {})}
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise RuntimeError(f"{args[:3]} failed: {err.read().decode()[-2000:]}")
        kb = usage.ru_maxrss if sys.platform != "darwin" else usage.ru_maxrss / 1024
        cpu = usage.ru_utime + usage.ru_stime
        return wall, cpu, kb / 1024, out.read().decode()


def ten_k_memory(
    adamm: str, db: Path, days: int = 0, env: dict[str, str] | None = None
) -> str:
    """A memory of about 10k synthetic rounds (made once); its first question.

    ``days`` other than 0 makes a smaller one (100 days: about 600 rounds);
    ``env`` runs the ingest with a baseline checkout on ``PYTHONPATH``.
    """
    sys.path.insert(0, str(ROOT))
    from tools.datasets.synthetic_history import generate

    data = generate(seed=7, days=days or ASK_DAYS)
    rounds = sum(len(s["rounds"]) for s in data.history["sessions"])
    print(f"memory: {rounds:,} synthetic rounds (seed 7), {db}")
    if not db.exists():
        with tempfile.TemporaryDirectory() as tmp:
            hist, _ = data.write(tmp)
            start = time.perf_counter()
            subprocess.run(
                [adamm, "ingest", str(hist), "--db", str(db), "--quiet"]
                + ["--text-backend", "onnx"],
                check=True,
                capture_output=True,
                env={**os.environ, **(env or {})},
            )
            took = time.perf_counter() - start
            print(f"ingested the memory in {took:.0f} s")
    return str(data.questions[0]["question"])


FLOOR = "floor: python -c 'import langgraph.graph, duckdb'"
FLOOR_CODE = "import langgraph.graph, duckdb"
"""What any process that builds a graph over DuckDB pays: the ratios' base."""

RECALL_QUESTION = "What was the documentary I watched about?"
"""A question no table answers (SemanticMatch), beside the generator's first."""


def cold_ask(
    adamm: str,
    db: Path,
    repeat: int,
    backends: tuple[str, ...] = ("auto", "torch"),
    days: int = 0,
    baseline: Path | None = None,
) -> None:
    """Measurement 4: a cold ``adamm ask`` with each text backend.

    For the analytic question, ``--no-retrieval`` (no encoder at all) is timed
    beside them: the floor the rest of the command sets.
    """
    questions = [ten_k_memory(adamm, db, days), RECALL_QUESTION]
    old = {"PYTHONPATH": str(baseline)} if baseline is not None else None
    old_db = db.with_name(db.stem + "-baseline" + db.suffix)
    if old is not None:  # its own memory: a newer schema is not opened by old code
        ten_k_memory(adamm, old_db, days, old)
    for n, question in enumerate(questions):
        variants = {f"--text-backend {b}": ["--text-backend", b] for b in backends}
        if n == 0:
            variants["--no-retrieval"] = ["--no-retrieval"]
        cmd = [adamm, "ask", question, "--db", str(db)]
        answers = {}
        for label, extra in variants.items():  # untimed: page cache, exports
            answers[label] = timed([*cmd, *extra])[3]
        heavy = json.loads(
            timed(
                [sys.executable, "-c", ASK_MODULES, question, "--db", str(db)]
                + ["--text-backend", "auto"]
            )[3]
            .strip()
            .splitlines()[-1]
        )
        before = (
            {
                f"baseline, --text-backend {b}": [
                    adamm, "ask", question, "--db", str(old_db), "--text-backend", b
                ]
                for b in ("torch", "onnx")
            }
            if old is not None
            else {}
        )
        for line in before.values():  # untimed, as above
            timed(line, old)
        runs: dict[str, list[tuple[float, float, float, str]]] = {
            label: [] for label in [FLOOR, *variants, *before]
        }
        for _ in range(repeat):
            runs[FLOOR].append(timed([sys.executable, "-c", FLOOR_CODE]))
            for label, extra in variants.items():
                runs[label].append(timed([*cmd, *extra]))
            for label, line in before.items():
                runs[label].append(timed(line, old))
        floor_wall = statistics.median(r[0] for r in runs[FLOOR])
        floor_cpu = statistics.median(r[1] for r in runs[FLOOR])
        print(f"cold adamm ask on the ~10k-round memory, {question!r}:")
        for label in [FLOOR, *variants, *before]:
            walls = [r[0] for r in runs[label]]
            cpu = statistics.median(r[1] for r in runs[label])
            print(
                f"  {label}: wall median {statistics.median(walls):.2f} s (min "
                f"{min(walls):.2f}, max {max(walls):.2f}; "
                f"{statistics.median(walls) / floor_wall:.2f}x the floor), CPU "
                f"median {cpu:.2f} s ({cpu / floor_cpu:.2f}x), peak RSS median "
                f"{statistics.median(r[2] for r in runs[label]):.0f} MB ({repeat} runs)"
            )
        imported = ", ".join(heavy) or "none of " + ", ".join(HEAVY)
        print(f"  the onnx process imported: {imported}")
        same = len({answers[f"--text-backend {b}"] for b in backends}) == 1
        print(f"  answers identical across text backends: {same}")
        lines = answers[f"--text-backend {backends[0]}"].strip().splitlines()
        print("  answer: " + lines[min(1, len(lines) - 1)][:160])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--ask-db", type=Path, help="the ~10k-round memory: made when missing, kept"
    )
    parser.add_argument(
        "--ask-backends",
        nargs="+",
        default=["auto", "torch"],
        choices=["auto", "torch", "onnx", "onnx-int8"],
        help="text backends of the cold adamm ask (default: auto torch)",
    )
    parser.add_argument(
        "--only-ask", action="store_true", help="measure the cold adamm ask only"
    )
    parser.add_argument(
        "--ask-days",
        type=int,
        default=0,
        help="days of the synthetic memory (default: ~10k rounds; 100: ~600)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of an earlier commit (git worktree add DIR REV), timed "
        "beside this tree on its own memory, with PYTHONPATH=DIR",
    )
    args = parser.parse_args()
    adamm = str(Path(sys.executable).parent / "adamm")
    backends = tuple(args.ask_backends)
    if args.ask_db is not None:
        cold_ask(
            adamm, args.ask_db, args.repeat, backends, args.ask_days, args.baseline
        )
    else:
        with tempfile.TemporaryDirectory() as tmp:
            cold_ask(
                adamm,
                Path(tmp) / "m10k.duckdb",
                args.repeat,
                backends,
                args.ask_days,
                args.baseline,
            )
    if args.only_ask:
        return
    helps = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run([adamm, "--help"], capture_output=True, check=True)
        helps.append(time.perf_counter() - start)
    print(f"adamm --help: median {statistics.median(helps):.3f} s ({args.repeat} runs)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.duckdb"
        sample = ROOT / "langgraph_adamm" / "data" / "sample_history.json"
        subprocess.run(
            [adamm, "ingest", str(sample), "--db", str(db), "--quiet"],
            capture_output=True,
            check=True,
        )
        opens = [run([sys.executable, "-c", OPEN, str(db)]) for _ in range(args.repeat)]
        for key in ("import_open", "open_and_compute", "first_semantic_match"):
            med = statistics.median(o[key] for o in opens)
            print(f"Memory(path), retrieval installed: {key}: median {med:.3f} s")
        import numpy as np
        from PIL import Image

        rng = np.random.default_rng(0)
        for i in range(4):
            pixels = rng.integers(0, 256, (6000, 6000, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(Path(tmp) / f"big{i}.png", compress_level=1)
        Image.new("1", (15000, 11000)).save(Path(tmp) / "bomb.png")
        for group in (16, 1):
            r = run([sys.executable, "-c", IMAGES, tmp, str(group)])
            print(
                f"indexing 4 rounds x (36 Mpx image + 165 Mpx PNG), image_group_size "
                f"{group}: peak RSS {r['peak_rss_mb']:.0f} MB (before ingest "
                f"{r['rss_before_mb']:.0f} MB), image problems {r['image_problems']}"
            )


if __name__ == "__main__":
    main()
