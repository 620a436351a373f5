"""The rule extractor's exact rate on the phrasing corpus, per family.

    python tools/bench_phrasings.py [--family F ...] [--show]

An entry counts when every pair it states is read with its value in the stated
unit's dimension and nothing else is read (the scoring of
``tests/test_phrasings.py``). The corpus and the scoring always come from this
checkout; the extractor comes from wherever ``langgraph_adamm`` imports from, so
an older revision is measured with ``PYTHONPATH=/path/to/old/checkout``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load_scoring() -> types.ModuleType:
    """``tests/test_phrasings.py`` of this checkout, whatever sys.path says."""
    package = types.ModuleType("tests")
    package.__path__ = [str(ROOT / "tests")]
    sys.modules["tests"] = package
    for name in ("phrasings", "test_phrasings"):
        spec = importlib.util.spec_from_file_location(
            f"tests.{name}", ROOT / "tests" / f"{name}.py"
        )
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"tests.{name}"] = module
        spec.loader.exec_module(module)
    return sys.modules["tests.test_phrasings"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", nargs="*", help="only these families")
    parser.add_argument("--show", action="store_true", help="print each miss")
    args = parser.parse_args(argv)
    scoring = _load_scoring()
    import langgraph_adamm

    print(f"extractor: {Path(langgraph_adamm.__file__).parent}")
    total = exact = 0
    print("| family | exact | entries |")
    print("|---|---:|---:|")
    for family in args.family or scoring.families():
        entries = scoring.load_corpus(family)
        good = 0
        for entry in entries:
            misses, noise = scoring.score(entry)
            if not misses and not noise:
                good += 1
            elif args.show:
                print(
                    f"  {entry['id']}: {entry['text'][:70]!r}"
                    f" miss={misses} noise={noise}"
                )
        total += len(entries)
        exact += good
        print(f"| {family} | {good} | {len(entries)} |")
    print(f"| **all** | **{exact}/{total} = {100 * exact / max(total, 1):.1f}%** | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
