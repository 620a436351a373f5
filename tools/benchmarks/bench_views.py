"""Views of image rounds: ingestion speed and recall with the whole-round view
encoded, or composed from the round's other views without encoding it
(``AdaMMConfig.encode_image_round_views`` True or False).

For each setting, the Mem-Gallery dev split is ingested file by file into
in-memory memories (timed: rounds/s over all files, encoder loaded before the
clock starts; the median of ``--passes`` passes, the two settings' order
reversed every other pass), then scored with ``mem_gallery.evaluate`` (method
``adamm``, Recall@K / Hit@K over the questions with clue rounds).

    python tools/benchmarks/bench_views.py --text-backend onnx-int8 --passes 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from langgraph_adamm.cli import _text_encoder  # noqa: E402
from langgraph_adamm.evaluation import mem_gallery  # noqa: E402

DEV = Path(__file__).resolve().parents[3] / "shared/benchmarks/mem-gallery/dev"


def ingest_rate(histories: list, encoder: Any, config: AdaMMConfig) -> float:
    """Rounds per second ingesting every history into an in-memory memory."""
    rounds, t = 0, time.perf_counter()
    for history in histories:
        with Memory(
            ":memory:",
            user_id=history.user_id,
            text_encoder=encoder,
            visual_encoder=None,
            config=config,
        ) as m:
            rounds += m.ingest(history).rounds_indexed
    return rounds / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=DEV, help="scenario folder")
    parser.add_argument("--text-backend", default="onnx-int8")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    encoder = _text_encoder(None, args.text_backend)
    encoder.encode(["warm up"])
    histories = [
        mem_gallery.load_scenario(f)[0] for f in sorted(args.dir.glob("*.json"))
    ]
    configs = {
        whole: AdaMMConfig(encode_image_round_views=whole) for whole in (True, False)
    }
    rates: dict[bool, list[float]] = {True: [], False: []}
    for p in range(args.passes):  # the order reversed every other pass
        for whole in (True, False) if p % 2 == 0 else (False, True):
            rates[whole].append(ingest_rate(histories, encoder, configs[whole]))
    print(
        f"{args.text_backend}; rounds/s: median of {args.passes} passes\n\n"
        f"| whole-round view of image rounds | rounds/s | R@{args.k} | Hit@{args.k} |"
        "\n|---|---:|---:|---:|"
    )
    for whole, config in configs.items():
        result = mem_gallery.evaluate(
            args.dir, k=args.k, encoder=encoder, methods=("adamm",), config=config
        )
        o = result["methods"]["adamm"]["overall"]
        print(
            f"| {'encoded' if whole else 'composed'} | "
            f"{statistics.median(rates[whole]):.1f} | "
            f"{o['recall']:.4f} | {o['hit']:.4f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
