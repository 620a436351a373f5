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

    python tools/bench_startup.py --repeat 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    adamm = str(Path(sys.executable).parent / "adamm")
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
