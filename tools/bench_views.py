"""Views of image rounds: ingestion speed and recall with the whole-round view
encoded, or composed from the round's other views without encoding it
(``AdaMMConfig.encode_image_round_views`` True or False).

For each setting, the Mem-Gallery dev split is ingested file by file into
in-memory memories (timed: rounds/s over all files, encoder loaded before the
clock starts), then scored with ``mem_gallery.evaluate`` (method ``adamm``,
Recall@K / Hit@K over the questions with clue rounds).

    python tools/bench_views.py --text-backend onnx-int8
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from langgraph_adamm.cli import _text_encoder  # noqa: E402
from langgraph_adamm.evaluation import mem_gallery  # noqa: E402

DEV = (
    Path(__file__).resolve().parent.parent.parent / "shared/benchmarks/mem-gallery/dev"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=DEV, help="scenario folder")
    parser.add_argument("--text-backend", default="onnx-int8")
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    encoder = _text_encoder(None, args.text_backend)
    encoder.encode(["warm up"])
    histories = [
        mem_gallery.load_scenario(f)[0] for f in sorted(args.dir.glob("*.json"))
    ]
    print(
        f"| whole-round view of image rounds | rounds/s | R@{args.k} | Hit@{args.k} |"
        "\n|---|---:|---:|---:|"
    )
    for whole in (True, False):
        config = AdaMMConfig(encode_image_round_views=whole)
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
        rate = rounds / (time.perf_counter() - t)
        result = mem_gallery.evaluate(
            args.dir, k=args.k, encoder=encoder, methods=("adamm",), config=config
        )
        o = result["methods"]["adamm"]["overall"]
        print(
            f"| {'encoded' if whole else 'composed'} | {rate:.1f} | "
            f"{o['recall']:.4f} | {o['hit']:.4f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
